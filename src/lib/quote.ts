// Bounded, one-line message parts. A message quotes input and lists candidates; both come from the
// user's files and can be megabytes long or thousands strong, so every message takes them through
// here: at most `MAX_QUOTED` characters of a value and `MAX_LISTED` items of a list, with the rest
// counted, never dropped silently.

/** How many characters of one input value a message quotes. */
export const MAX_QUOTED = 100;

/** How many candidates a message lists. */
export const MAX_LISTED = 10;

/** What a template literal would print: a value the caller has not narrowed to a string still prints as before. */
type Printable = string | number | undefined;

/** `text` cut to `max` characters, with "…" and how many more there were. */
export const clip = (text: Printable, max = MAX_QUOTED): string => enclose(String(text), '', max);

/** A user's value in double quotes, cut as `clip` does (the count stays outside the quotes). */
export const quote = (text: Printable, max = MAX_QUOTED): string => enclose(String(text), '"', max);

/** A user's value in back-quotes (a name to write as is), cut as `clip` does. */
export const code = (text: Printable, max = MAX_QUOTED): string => enclose(String(text), '`', max);

function enclose(text: string, mark: string, max: number): string {
  if (text.length <= max) return `${mark}${text}${mark}`;
  // Never split a surrogate pair: half a character would print as U+FFFD.
  const end = isHighSurrogate(text.charCodeAt(max - 1)) ? max - 1 : max;
  return `${mark}${text.slice(0, end)}…${mark} (${count(text.length - end)} more characters)`;
}

/**
 * `text` with its middle left out when longer than `max`: a backstop for whole messages and field
 * paths, keeping both the start (what is wrong) and the end (what to write instead).
 */
export function elide(text: string, max: number): string {
  if (text.length <= max) return text;
  const keep = Math.floor(max / 2);
  let head = keep;
  let tail = text.length - keep;
  if (isHighSurrogate(text.charCodeAt(head - 1))) head -= 1;
  if (isLowSurrogate(text.charCodeAt(tail))) tail += 1;
  return `${text.slice(0, head)}… (${count(tail - head)} characters left out) …${text.slice(tail)}`;
}

export interface ListOptions {
  /** How one item is written; `clip` by default, since ids in a list may come from the input too. */
  each?: (item: string) => string;
  /** The word before the last item when the whole list is shown ("a, b or c"); a comma by default. */
  last?: 'or' | 'and';
  max?: number;
}

/** "a, b, c" when short; "a, b, …, j, … and 1,990 more" when longer than `max` (by three or more). */
export function listOf(items: readonly string[], options: ListOptions = {}): string {
  const { each = (item: string) => clip(item), last, max = MAX_LISTED } = options;
  // "… and 1 more" would save nothing: a list is cut only when that hides at least three items.
  if (items.length > max + 2) return `${items.slice(0, max).map(each).join(', ')}, … and ${count(items.length - max)} more`;
  const shown = items.map(each);
  if (!last || shown.length <= 1) return shown.join(', ');
  return `${shown.slice(0, -1).join(', ')} ${last} ${shown.at(-1) as string}`;
}

/** 1990 → "1,990", the same on every machine (no ICU). */
export function count(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

// C0, DEL, C1, the line and paragraph separators, and the bidirectional overrides: each can end a
// line or make a terminal show something other than the text (a forged result, a hidden value).
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** `text` with control characters written as `\n`, `\x1b`, `\u2028`: one message, one line. */
export function escapeControl(text: string): string {
  CONTROL.lastIndex = 0;
  if (!CONTROL.test(text)) return text;
  return text.replace(CONTROL, (c) => {
    const named = NAMED[c];
    if (named) return named;
    const unit = c.charCodeAt(0);
    return unit < 0x100 ? `\\x${hex(unit, 2)}` : `\\u${hex(unit, 4)}`;
  });
}

const hex = (n: number, width: number): string => n.toString(16).padStart(width, '0');
const isHighSurrogate = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff;
const isLowSurrogate = (unit: number): boolean => unit >= 0xdc00 && unit <= 0xdfff;
