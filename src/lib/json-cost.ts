// What JSON text costs once parsed, measured on its bytes before it is parsed: one linear pass,
// no recursion, nothing allocated, safe on any input. The webhook weighs its request bodies with
// it, and the conversion bounds its record (an annotation holding JSON) with it.

const quote = 0x22;
const backslash = 0x5c;
const openBracket = 0x5b;
const closeBracket = 0x5d;
const openBrace = 0x7b;
const closeBrace = 0x7d;
const comma = 0x2c;
const colon = 0x3a;
const minus = 0x2d;
const zero = 0x30;
const nine = 0x39;
const space = 0x20;
const tab = 0x09;
const newline = 0x0a;
const carriageReturn = 0x0d;

/** How many escapes inside strings cost as much as one value: `\"` is one character parsed, and grows again each time it is written into JSON. */
const escapesPerPart = 8;

/** What JSON text costs, counted before it is parsed (jsonCost). */
export interface JsonCost {
  /** Parts, counted up to `limit + 1`: see jsonCost. */
  parts: number;
  /** It holds a character above U+00FF: V8 then keeps the text, and every copy of it, at 2 bytes a character. */
  wide: boolean;
  /** It holds a run of 16 digits or more, a number with an exponent, or a `-0`: exact-integer.ts may read it with one more copy of the text. */
  longDigits: boolean;
}

/**
 * What JSON text costs when parsed. `parts`, counted up to `limit + 1`: every value (object, list,
 * string, number, boolean, null) and every key, one part per eight escapes in strings (each is
 * written back longer), and, in the string value of the key `parsedKey` (a conversion record: JSON
 * the conversion parses in turn), every `{`, `[` and `,`. Parsed, a part takes tens of bytes
 * whatever its text (`{}` about 35 times its 2 bytes), so the count bounds what parsing and
 * converting can cost. One linear pass; nothing allocated.
 */
export function jsonCost(bytes: Uint8Array | string, limit: number, parsedKey?: string): JsonCost {
  const at = typeof bytes === 'string' ? (i: number): number => bytes.charCodeAt(i) : (i: number): number => bytes[i] as number;
  // A UTF-8 lead byte of a character above U+00FF is 0xC4 or more; in a string, the code unit itself.
  const wideFrom = typeof bytes === 'string' ? 0x100 : 0xc4;
  let parts = 0;
  let escapes = 0;
  let wide = false;
  let digits = 0;
  let longDigits = false;
  let inString = false;
  // Whether the string being read is the value of `parsedKey`, and where the last string outside one started and ended.
  let parsedString = false;
  let afterParsedKey = false;
  let stringStart = 0;
  let stringEnd = 0;
  // The last byte outside strings that is not white space: a scalar starts after `[`, `,` or `:`.
  let last = comma;
  for (let i = 0; i < bytes.length; i++) {
    const c = at(i);
    if (c >= wideFrom) wide = true;
    if (c >= 0x30 && c <= 0x39) {
      if (++digits === 16) longDigits = true;
    } else digits = 0;
    if (inString) {
      if (c === backslash) {
        i++;
        digits = 0;
        if (++escapes === escapesPerPart) {
          escapes = 0;
          parts++;
        }
      } else if (c === quote) {
        inString = false;
        stringEnd = i;
      } else if (parsedString && (c === openBrace || c === openBracket || c === comma)) parts++;
      if (parts > limit) return { parts, wide, longDigits };
      continue;
    }
    if (c === space || c === tab || c === newline || c === carriageReturn) continue;
    // `-0` (or `-0.5`, counted alike), read as 0, and an exponent (`1e20`, read as a float): parseExactJson may copy the text for them.
    if ((c === zero && last === minus) || ((c === 0x65 || c === 0x45) && last >= zero && last <= nine)) longDigits = true;
    if (c === quote) {
      inString = true;
      parsedString = afterParsedKey && last === colon;
      stringStart = i + 1;
      parts++;
    } else if (c === colon) {
      afterParsedKey = parsedKey !== undefined && isKey(at, stringStart, stringEnd, parsedKey);
    } else if (c === openBrace || c === openBracket) parts++;
    else if ((last === openBracket || last === comma || last === colon) && c !== closeBracket && c !== closeBrace && c !== comma) parts++;
    if (c !== colon) afterParsedKey = false;
    if (parts > limit) return { parts, wide, longDigits };
    last = c;
  }
  return { parts, wide, longDigits };
}

/** Whether the string between `start` and `end` is `key`; one with an escape in it may be (JSON may write `/` as `\/`), so counts as it. */
function isKey(at: (i: number) => number, start: number, end: number, key: string): boolean {
  if (end - start < key.length) return false;
  let escaped = false;
  for (let i = start; i < end; i++) if (at(i) === backslash) escaped = true;
  if (escaped) return true;
  if (end - start !== key.length) return false;
  for (let i = 0; i < key.length; i++) if (at(start + i) !== key.charCodeAt(i)) return false;
  return true;
}

/** The parts of JSON text (jsonCost), with JSON inside no string counted. */
export const countJsonParts = (bytes: Uint8Array | string, limit: number, parsedKey?: string): number => jsonCost(bytes, limit, parsedKey).parts;

/**
 * Whether JSON text opens more than `limit` objects and lists inside each other: one linear pass
 * over the brackets outside strings, with no recursion, so it is safe on any input. Text that is
 * not JSON gets an answer too; JSON.parse then refuses it.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === backslash) i++; // the escaped character cannot end the string
      else if (c === quote) inString = false;
    } else if (c === quote) inString = true;
    else if (c === openBrace || c === openBracket) {
      if (++depth > limit) return true;
    } else if (c === closeBrace || c === closeBracket) depth--;
  }
  return false;
}
