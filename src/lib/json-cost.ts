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
const space = 0x20;
const tab = 0x09;
const newline = 0x0a;
const carriageReturn = 0x0d;

/** How many escapes inside strings cost as much as one value: `\"` is one character parsed, and grows again each time it is written into JSON. */
const escapesPerPart = 8;

/**
 * How many parts JSON text makes when parsed, counted up to `limit + 1`: every value (object, list,
 * string, number, boolean, null) and every key, and inside strings every `{`, `[` and `,` (a string
 * may hold JSON that is parsed in turn: the conversion record in an annotation) and one part per
 * eight escapes (each is written back longer). Parsed, a part takes tens of bytes whatever its text
 * (`{}` about 35 times its 2 bytes), so the count bounds what parsing and converting can cost.
 */
export function countJsonParts(bytes: Uint8Array | string, limit: number): number {
  let parts = 0;
  let escapes = 0;
  let inString = false;
  // The last byte outside strings that is not white space: a scalar starts after `[`, `,` or `:`.
  let last = comma;
  const at = typeof bytes === 'string' ? (i: number): number => bytes.charCodeAt(i) : (i: number): number => bytes[i] as number;
  for (let i = 0; i < bytes.length; i++) {
    const c = at(i);
    if (inString) {
      if (c === backslash) {
        i++;
        if (++escapes === escapesPerPart) {
          escapes = 0;
          parts++;
        }
      } else if (c === quote) inString = false;
      else if (c === openBrace || c === openBracket || c === comma) parts++;
      if (parts > limit) return parts;
      continue;
    }
    if (c === space || c === tab || c === newline || c === carriageReturn) continue;
    if (c === quote) {
      inString = true;
      parts++;
    } else if (c === openBrace || c === openBracket) parts++;
    else if ((last === openBracket || last === comma || last === colon) && c !== closeBracket && c !== closeBrace && c !== comma) parts++;
    if (parts > limit) return parts;
    last = c;
  }
  return parts;
}

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
