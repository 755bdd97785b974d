// Integers beyond what a JavaScript number holds exactly (±2^53 − 1), kept as written.
//
// `max_tokens: 9007199254740993` read as a number is 9007199254740992: the config the server reads
// would differ from the CR. Such an integer is read as a Verbatim (its source text) instead, which
// every writer writes back as that text: the YAML writers (emit.ts, yaml.ts) as a plain scalar,
// exactJson here as a JSON number. Number fields of a schema refuse it (issues.ts says how).
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

/** The value to read for a scalar written `source` that resolved to `value`: a Verbatim for an integer a number cannot hold exactly. */
export function exactInteger(value: unknown, source: string): unknown {
  if (typeof value !== 'number' || !Number.isInteger(value) || Number.isSafeInteger(value)) return value;
  const digits = source.replace(/^\+/, '');
  // A number that is written back as these very digits (2^53) holds them: it stays a number.
  return decimalInteger.test(source) && String(value) !== digits ? new Verbatim(digits) : value;
}

// A marker no JSON text holds (a control character and this process's own nonce): where a
// Verbatim is in the value, JSON.stringify writes the marker, replaced by the number after.
const nonce = `\u0000exact-${Math.random().toString(36).slice(2)}:`;
const markerPattern = new RegExp(`"${JSON.stringify(nonce).slice(1, -1).replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}(-?[0-9]+)"`, 'g');

/** JSON.stringify, with each Verbatim integer written as the number it is (not as text). */
export function exactJson(value: unknown, space?: number): string {
  const text = JSON.stringify(
    value,
    function (this: unknown, key: string, item: unknown) {
      const own = (this as Record<string, unknown>)[key];
      return own instanceof Verbatim && decimalInteger.test(own.text) ? `${nonce}${own.text}` : item;
    },
    space,
  );
  return text.replace(markerPattern, '$1');
}

/** JSON.parse, with each integer a number cannot hold exactly read as a Verbatim of its digits. */
export function parseExactJson(text: string): unknown {
  // 2^53 has 16 digits: a text without such a run needs no second pass (and no copy of itself).
  if (!/[0-9]{16}/.test(text)) return JSON.parse(text);
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
    if (decimalInteger.test(token) && !Number.isSafeInteger(Number(token)) && String(Number(token)) !== token) {
      pieces.push(text.slice(from, i), JSON.stringify(`${nonce}${token}`));
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
