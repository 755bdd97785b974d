// Integers beyond what a JavaScript number holds exactly (±2^53 − 1), kept as written.
//
// `max_tokens: 9007199254740993` read as a number is 9007199254740992: the config the server reads
// would differ from the CR. Such an integer is read as a Verbatim (its decimal digits) instead, and
// so is one written in hex or octal, or as a float (`9007199254740993.0`, `1e21`: a Verbatim of it
// as a float). Every writer writes a Verbatim back as that text: the YAML writers (emit.ts, yaml.ts)
// as a plain scalar, exactJson here as a JSON number. Number fields of a schema refuse it (issues.ts
// says how). The integer `-0` is read as 0 (no reader has an integer -0); the float -0 stays -0.
/** A plain scalar kept as its source text: an integer outside the safe range, or a non-string scalar passed through. */
export class Verbatim {
  constructor(readonly text: string) {}

  /** Generic JSON (messages, hashes, comparisons) sees the text; exactJson writes it as a number. */
  toJSON(): string {
    return this.text;
  }
}

/** A decimal integer as YAML 1.2 and JSON write one (a sign, digits). */
const decimalInteger = /^[-+]?[0-9]+$/;
/** An integer in another base: hexadecimal, octal (YAML 1.2 `0o17`, YAML 1.1 `017`), binary; YAML 1.1 allows `_` between digits. */
const basedInteger = /^([-+]?)0(x[0-9a-f_]+|o[0-7_]+|b[01_]+|[0-7_]+)$/i;
/** A decimal float: digits, a point and digits, an exponent (some parts optional), as YAML and JSON write one. */
const decimalFloat = /^([-+]?)([0-9_]*)(?:\.([0-9_]*))?(?:[eE]([-+]?[0-9]+))?$/;
/** A number JSON and YAML 1.1 (PyYAML) both read: what a Verbatim number is written as. */
const jsonNumber = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+][0-9]+)?$/;

/**
 * The value to read for a number scalar written `source` that resolved to `value`, where the
 * number would change what was written: an integer a number cannot hold exactly (`9007199254740993`,
 * `0x20000000000001`) is a Verbatim of its decimal digits; a float whose value is an integer beyond
 * 2^53 (`9007199254740993.0`, `1e21`) a Verbatim of it as a float (`1.0e+21`: a point, a signed
 * exponent, as YAML 1.1 and JSON read it), so it is neither rounded nor made an integer; and `-0`,
 * an integer, is 0 (YAML 1.1 and JSON readers have no integer -0; only the float `-0.0` is -0).
 */
export function exactInteger(value: unknown, source: string): unknown {
  if (typeof value !== 'number' || !Number.isInteger(value)) return value;
  if (Object.is(value, -0)) return /[.eE]/.test(source) ? value : 0;
  if (Number.isSafeInteger(value)) return value;
  const integer = integerText(source);
  if (integer !== undefined) return String(value) === integer ? value : new Verbatim(integer);
  const float = floatText(source);
  if (float === undefined) return value;
  // From 1e21 on, a number is written with an exponent (a float to every reader): kept as a number
  // when that text has the digits written (JSON.stringify's own `1e+21`), else as written.
  const shortest = String(value);
  return shortest.includes('e') && decimalValue(shortest) === decimalValue(float) ? value : new Verbatim(float);
}

/** A decimal number's text reduced to its value: sign, significant digits, power of ten (`-12e3` for `-1.20e+4`). */
function decimalValue(text: string): string {
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = /^([-+]?)([0-9]*)\.?([0-9]*)(?:[eE]([-+]?[0-9]+))?$/.exec(text) ?? [];
  let digits = `${whole}${fraction}`.replace(/^0+/, '');
  let power = Number(exponent) - fraction.length;
  while (digits.endsWith('0')) {
    digits = digits.slice(0, -1);
    power++;
  }
  return digits === '' ? '0' : `${sign === '-' ? '-' : ''}${digits}e${power}`;
}

/** The decimal digits of an integer written in any base, or undefined when `source` is not an integer. */
function integerText(source: string): string | undefined {
  if (decimalInteger.test(source)) return source.replace(/^\+/, '').replace(/^(-?)0+(?=[0-9])/, '$1');
  const based = basedInteger.exec(source);
  if (!based) return undefined;
  const [, sign = '', body = ''] = based;
  const digits = body.replace(/_/g, '');
  const prefixed = /^[xob]/i.test(digits) ? `0${digits.toLowerCase()}` : `0o${digits}`;
  if (/^0[xob]$/.test(prefixed)) return undefined;
  const magnitude = BigInt(prefixed);
  return `${sign === '-' && magnitude !== 0n ? '-' : ''}${magnitude}`;
}

/** A decimal float written as JSON and YAML 1.1 read it (`1.0e+21`), or undefined when `source` is not one. */
function floatText(source: string): string | undefined {
  const float = decimalFloat.exec(source);
  if (!float) return undefined;
  const [, sign = '', whole = '', fraction, exponent] = float;
  const int = whole.replace(/_/g, '').replace(/^0+(?=[0-9])/, '');
  const frac = (fraction ?? '').replace(/_/g, '');
  if (int === '' && frac === '') return undefined;
  const exp = exponent === undefined ? '' : `e${/^[-+]/.test(exponent) ? exponent : `+${exponent}`}`;
  return `${sign === '-' ? '-' : ''}${int || '0'}.${frac || '0'}${exp}`;
}

// A marker no JSON text holds (a control character and this process's own nonce): where a
// Verbatim is in the value, JSON.stringify writes the marker, replaced by the number after.
const nonce = `\u0000exact-${Math.random().toString(36).slice(2)}:`;
const markerPattern = new RegExp(`"${JSON.stringify(nonce).slice(1, -1).replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}(-?[0-9][0-9.eE+-]*)"`, 'g');

/**
 * JSON.stringify, with each Verbatim number written as the number it is (not as text), and -0 as
 * `-0.0` (JSON.stringify writes `0`). A number JSON cannot hold (infinite, NaN) is a bug here:
 * the conversions refuse it at its field first (nonFiniteNumber), as JSON.stringify would write `null`.
 */
export function exactJson(value: unknown, space?: number): string {
  const text = JSON.stringify(
    value,
    function (this: unknown, key: string, item: unknown) {
      const own = (this as Record<string, unknown>)[key];
      if (own instanceof Verbatim && jsonNumber.test(own.text)) return `${nonce}${own.text}`;
      if (typeof own !== 'number') return item;
      if (Object.is(own, -0)) return `${nonce}-0.0`;
      if (!Number.isFinite(own)) throw new Error(`exactJson: ${own} has no JSON form; refuse it at its field first (nonFiniteNumber)`);
      return item;
    },
    space,
  );
  return text.replace(markerPattern, '$1');
}

/** JSON.parse, with each number read as exactInteger reads a YAML one (an integer a number cannot hold exactly as a Verbatim of its digits). */
export function parseExactJson(text: string): unknown {
  // 2^53 has 16 digits: a text without such a run, an exponent (`1e20`, an integer beyond 2^53
  // written as a float) or a `-0` needs no second pass (and no copy of itself; json-cost.ts counts the copy).
  if (!/[0-9]{16}|[0-9][eE]|-0/.test(text)) return JSON.parse(text);
  // Integers outside strings, found by a scan (a regular expression over each string took stack for
  // every character, and overflowed on one of 8 million): each unsafe one becomes a marked string.
  const pieces: string[] = [];
  let from = 0;
  for (let i = 0; i < text.length; ) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = stringEnd(text, i);
      continue;
    }
    if (c !== 0x2d && (c < 0x30 || c > 0x39)) {
      i++;
      continue;
    }
    let end = i + 1;
    while (end < text.length && isNumberCharacter(text.charCodeAt(end))) end++;
    const token = text.slice(i, end);
    const read = exactInteger(Number(token), token);
    if (read instanceof Verbatim) {
      pieces.push(text.slice(from, i), JSON.stringify(`${nonce}${read.text}`));
      from = end;
    } else if (Object.is(read, 0) && token.startsWith('-')) {
      // `-0`, an integer: 0 (JSON.parse reads -0).
      pieces.push(text.slice(from, i), '0');
      from = end;
    }
    i = end;
  }
  if (pieces.length === 0) return JSON.parse(text);
  pieces.push(text.slice(from));
  return JSON.parse(pieces.join(''), (_key, item: unknown) =>
    typeof item === 'string' && item.startsWith(nonce) ? new Verbatim(item.slice(nonce.length)) : item,
  );
}

/** The index after the string that opens at `start` (its closing quote is one no odd run of backslashes escapes). */
function stringEnd(text: string, start: number): number {
  let at = start + 1;
  for (;;) {
    const close = text.indexOf('"', at);
    if (close < 0) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(close - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return close + 1;
    at = close + 1;
  }
}

/** Digits, a sign, a point or an exponent: what a JSON number is written with. */
const isNumberCharacter = (c: number): boolean => (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x2b || c === 0x2d || c === 0x65 || c === 0x45;
