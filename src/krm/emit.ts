// A fast YAML writer for plain data (maps, sequences, strings, numbers, booleans, null), writing
// exactly what the `yaml` package writes with our options (block style, `indentSeq`, no folding,
// YAML 1.1-safe quoting), so the choice of writer never changes a byte of output.
//
// Why: building a `yaml` Document and writing it costs about 2 ms for one config.yaml, and a
// render writes every generated object twice (the config, then the ConfigMap holding it); with
// 1,000 LLSDs that was most of the run. The structure is written here; each distinct scalar is
// still rendered by `yaml` itself, once, and remembered, so quoting rules are never duplicated.
// Anything this writer does not handle (another kind of value, a key spanning lines, a block
// scalar that needs an indentation indicator) makes it hand the whole value to `yaml`.
import { Document, isScalar } from 'yaml';
import { Verbatim } from '../lib/exact-integer.js';

const documentOptions = { compat: 'yaml-1.1', version: '1.2', aliasDuplicateObjects: false } as const;
const toStringOptions = { lineWidth: 0, indentSeq: true } as const;

/** `value` as `yaml` would write it, or undefined when only `yaml` can (then call it). */
export function emitPlainYaml(value: unknown): string | undefined {
  const out: string[] = [];
  try {
    if (isMap(value)) {
      if (!hasEntries(value)) return '{}\n';
      writeMap(value, '', out);
    } else if (Array.isArray(value)) {
      if (value.length === 0) return '[]\n';
      writeSeq(value, '', out);
    } else {
      // A scalar alone is written differently at the top level (document markers): left to `yaml`.
      return undefined;
    }
  } catch (error) {
    if (error instanceof NotPlain) return undefined;
    throw error;
  }
  return out.join('');
}

class NotPlain extends Error {}

/** A scalar whose text is already known (one read and written back as it was): written as it is. */
export class Preformatted {
  constructor(readonly text: string) {}
}

const isMap = (value: unknown): value is Record<string, unknown> =>
  value !== null &&
  typeof value === 'object' &&
  !Array.isArray(value) &&
  (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null);

/** Has the map a key whose value is defined (one `yaml` writes)? */
function hasEntries(map: Record<string, unknown>): boolean {
  for (const key in map) if (Object.hasOwn(map, key) && map[key] !== undefined) return true;
  return false;
}

function writeMap(map: Record<string, unknown>, indent: string, out: string[], firstPrefix?: string): void {
  let lead = firstPrefix ?? indent;
  for (const key of Object.keys(map)) {
    const value = map[key];
    if (value === undefined) continue;
    out.push(`${lead}${keyText(key)}:`);
    lead = indent;
    writeValue(value, indent, out);
  }
}

/** The value after `key:` (or after `- ` for a sequence item's scalar), at the map's indent. */
function writeValue(value: unknown, indent: string, out: string[]): void {
  if (isMap(value)) {
    if (!hasEntries(value)) return void out.push(' {}\n');
    out.push('\n');
    writeMap(value, `${indent}  `, out);
  } else if (Array.isArray(value)) {
    if (value.length === 0) return void out.push(' []\n');
    out.push('\n');
    writeSeq(value, `${indent}  `, out);
  } else {
    const scalar = scalarText(value);
    out.push(` ${scalar.head}\n`);
    if (scalar.block) writeBlockLines(scalar.lines, `${indent}  `, out);
  }
}

function writeBlockLines(lines: readonly string[], indent: string, out: string[]): void {
  for (const line of lines) out.push(line === '' ? '\n' : `${indent}${line}\n`);
}

function writeSeq(seq: readonly unknown[], indent: string, out: string[], firstPrefix?: string): void {
  const inner = `${indent}  `;
  let lead = firstPrefix ?? indent;
  for (const item of seq) {
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') throw new NotPlain();
    if (isMap(item)) {
      if (!hasEntries(item)) out.push(`${lead}- {}\n`);
      else writeMap(item, inner, out, `${lead}- `);
    } else if (Array.isArray(item)) {
      if (item.length === 0) out.push(`${lead}- []\n`);
      else writeSeq(item, inner, out, `${lead}- `);
    } else {
      const scalar = scalarText(item);
      out.push(`${lead}- ${scalar.head}\n`);
      if (scalar.block) writeBlockLines(scalar.lines, inner, out);
    }
    lead = indent;
  }
}

interface ScalarText {
  /** The scalar, or the block scalar's header (`|`, `|-`, `|+`). */
  head: string;
  block: boolean;
  /** A block scalar's content lines, without indentation. */
  lines: string[];
}

/**
 * Starts with a letter, then letters, digits, `_`, `.`, `/`, `-`: no YAML syntax, never a number or
 * a date, except `e1`- and `e-1`-like strings, which YAML 1.1's float pattern (every part optional) matches.
 */
const simplePlain = /^(?![eE][-+]?[0-9])[A-Za-z][A-Za-z0-9_./-]*$/;
/** The words YAML 1.1 (y, yes, on, …) or 1.2 reads as booleans or null. */
const reservedWords = new Set(
  ['y', 'yes', 'n', 'no', 'true', 'false', 'on', 'off', 'null'].flatMap((w) => [w, w[0]?.toUpperCase() + w.slice(1), w.toUpperCase()]),
);

/** llama-stack's placeholders, `${env.X}`, `${env.X:=default}`, `${env.X:+value}`, with URL-like text around them. */
const placeholderPlain = /^(?:[A-Za-z][A-Za-z0-9_./-]*)?\$\{env\.[A-Za-z0-9_]+(?::[=+][A-Za-z0-9_./:~-]*)?\}[A-Za-z0-9_./-]*$/;

/** A string `yaml` writes as it is, as a value or as a key. */
const isSimplePlain = (value: string): boolean => (simplePlain.test(value) && !reservedWords.has(value)) || placeholderPlain.test(value);

/**
 * Also plain as a value: colons inside, as in provider types (`remote::vllm`), URLs and ports. A
 * colon is YAML syntax only before a blank or at the end, and a string that starts with a letter
 * is never a number, date or sexagesimal, so `yaml` writes these as they are (checked by
 * test/unit/emit.test.ts); a base config has dozens, each of which would otherwise go to `yaml`.
 */
const colonPlain = /^(?![eE][-+]?[0-9])[A-Za-z][A-Za-z0-9_./-]*(?::+[A-Za-z0-9_./-]+)+$/;

/**
 * Lower-case hex digests (config hashes, image digests without `sha256:`): plain when a letter
 * other than `b` and `e` is in them, since then no YAML 1.1 or 1.2 number (`0b…` binary, `1e5`
 * float) nor any other tag reads them. One is distinct per LLSD, and asking `yaml` costs ~0.1 ms.
 */
const hexPlain = /^[0-9a-f]*[acdf][0-9a-f]*$/;

const scalars = new Map<string, ScalarText>();
const keys = new Map<string, string>();

function scalarText(value: unknown): ScalarText {
  if (value === null) return { head: 'null', block: false, lines: [] };
  if (value === true || value === false) return { head: String(value), block: false, lines: [] };
  if (typeof value === 'number') return { head: numberText(value), block: false, lines: [] };
  if (value instanceof Preformatted || value instanceof Verbatim) return { head: value.text, block: false, lines: [] };
  if (typeof value !== 'string') throw new NotPlain();
  // Names, ids, paths and images: plain unless they are one of YAML's words for true, false or null.
  if (isSimplePlain(value) || colonPlain.test(value) || hexPlain.test(value)) return { head: value, block: false, lines: [] };
  if (needsEscapes(value)) return { head: escapedDoubleQuoted(value), block: false, lines: [] };
  const literal = plainLiteral(value);
  if (literal) return literal;
  const known = scalars.get(value);
  if (known) return known;
  const text = rendered(value);
  if (scalars.size < 100_000) scalars.set(value, text);
  return text;
}

/**
 * A number as every reader of what we write reads it back, the same number of the same kind:
 * PyYAML (YAML 1.1) reads a float only with a point (`1.0e+21`, not `1e+21`, which `yaml` and
 * JavaScript write and PyYAML reads as the string "1e+21"), and reads `-0` as the integer 0, so
 * -0 (only ever a float: `-0.0` in YAML or JSON) is written `-0.0`. The exponent JavaScript
 * writes always has a sign, as YAML 1.1 requires. `.inf`, `-.inf` and `.nan` are YAML's own.
 */
export function numberText(value: number): string {
  if (Number.isNaN(value)) return '.nan';
  if (value === Infinity) return '.inf';
  if (value === -Infinity) return '-.inf';
  if (Object.is(value, -0)) return '-0.0';
  const text = String(value);
  const exponent = text.indexOf('e');
  return exponent >= 0 && !text.includes('.') ? `${text.slice(0, exponent)}.0${text.slice(exponent)}` : text;
}

/** Does `yaml` write this number as numberText does? (It writes `1e+21` and `-0`, which YAML 1.1 reads otherwise.) */
export const numberNeedsOwnText = (value: number): boolean => Object.is(value, -0) || (String(value).includes('e') && !String(value).includes('.'));

/**
 * Strings the server's YAML 1.1 reader (PyYAML) or kustomize's would not read back as written by
 * `yaml` (a YAML 1.2 writer): `=` alone (YAML 1.1's "value" key), and tabs, DEL, C0/C1 controls,
 * NEL, line and paragraph separators and BOMs, which `yaml` may leave raw in a plain or quoted
 * scalar. These are written double-quoted with every such character escaped.
 */
const needsEscapes = (value: string): boolean => value === '=' || /[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff]/.test(value);

export function escapedDoubleQuoted(value: string): string {
  let out = '"';
  for (const char of value) {
    const code = char.codePointAt(0) as number;
    if (char === '"' || char === '\\') out += `\\${char}`;
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029 || code === 0xfeff)
      out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += char;
  }
  return `${out}"`;
}

/**
 * A multi-line string `yaml` certainly writes as a plain literal block (`|` or `|-`): no character
 * that forces quoting, no line of blanks or blank-ended, no leading blank or empty first line, at
 * most one final newline. Config texts, templates and PEM bundles are like that, and they are
 * mostly distinct, so asking `yaml` for each would cost what this writer saves. Anything else goes
 * to `yaml` (test/unit/emit.test.ts checks the two agree).
 */
function plainLiteral(value: string): ScalarText | undefined {
  if (!value.includes('\n') || value.length < 2) return undefined;
  if (/[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\uD800-\uDFFF]/.test(value)) return undefined;
  // Plain string tests: the same as /[ \t]\n|[ \t]$|\n\n$/, which scanned each config a few times slower.
  if (/^\s/.test(value) || value.includes(' \n') || value.includes('\t\n') || value.endsWith(' ') || value.endsWith('\t') || value.endsWith('\n\n'))
    return undefined;
  const lines = value.split('\n');
  const head = value.endsWith('\n') ? '|' : '|-';
  if (head === '|') lines.pop();
  if (lines.some((line) => line !== '' && line.trim() === '')) return undefined;
  return { head, block: true, lines };
}

/**
 * One scalar as `yaml` writes it as a map value (`k: …`); a block scalar's content comes back
 * without its two spaces of indentation, to be indented where it is written.
 */
function rendered(value: string): ScalarText {
  const text = new Document({ k: value }, documentOptions).toString(toStringOptions);
  if (!text.startsWith('k: ')) throw new NotPlain();
  const body = text.slice(3, text.endsWith('\n') ? -1 : undefined);
  if (!body.startsWith('|') && !body.startsWith('>')) {
    if (body.includes('\n')) throw new NotPlain();
    return { head: body, block: false, lines: [] };
  }
  const [head = '', ...indented] = body.split('\n');
  // An indentation indicator (`|2`) or a line of spaces depends on where the scalar sits: leave those to `yaml`.
  if (!/^[|>][-+]?$/.test(head)) throw new NotPlain();
  const lines = indented.map((line) => {
    if (line === '') return '';
    if (!line.startsWith('  ') || line.trim() === '') throw new NotPlain();
    return line.slice(2);
  });
  return { head, block: true, lines };
}

function keyText(key: string): string {
  // Keys repeat (the same few hundred in every object), so the answer for each is remembered.
  const known = keys.get(key);
  if (known !== undefined) return known;
  if (isSimplePlain(key)) {
    if (keys.size < 100_000) keys.set(key, key);
    return key;
  }
  // `yaml` quotes a key that could read as a document marker only at the top level; this writer
  // renders keys once for every depth, so such keys go to `yaml` with the whole value.
  if (key.length <= 1000 && needsEscapes(key)) {
    const quoted = escapedDoubleQuoted(key);
    if (keys.size < 100_000) keys.set(key, quoted);
    return quoted;
  }
  if (key.includes('\n') || key.length > 1000 || /^(%|---|\.\.\.)|[\r\u2028\u2029]/.test(key)) throw new NotPlain();
  const text = new Document({ [key]: null }, documentOptions).toString(toStringOptions);
  if (!text.endsWith(': null\n') || text.indexOf('\n') !== text.length - 1) throw new NotPlain();
  const rendered = text.slice(0, -': null\n'.length);
  if (keys.size < 100_000) keys.set(key, rendered);
  return rendered;
}

/**
 * Characters `yaml` writes raw inside double quotes that other readers change or refuse: NEL
 * (U+0085), which PyYAML and kpt read as a line break folded to a space, the line and paragraph
 * separators (U+2028, U+2029), DEL and the other C1 controls (PyYAML refuses them), and a BOM.
 */
const changedByReaders = /[\x7f-\x9f\u2028\u2029\ufeff]/;

/** A string scalar holding such a character, made to be written double-quoted with each of them escaped (as emitPlainYaml writes them). */
export function escapeScalarForReaders(node: unknown): void {
  if (isScalar(node) && typeof node.value === 'number' && numberNeedsOwnText(node.value)) {
    // A float as YAML 1.1 reads it back (numberText), where `yaml` would write `1e+21` or `-0`.
    node.value = new Verbatim(numberText(node.value));
    delete node.format;
    return;
  }
  if (!isScalar(node) || typeof node.value !== 'string' || !changedByReaders.test(node.value)) return;
  node.value = new Verbatim(escapedDoubleQuoted(node.value));
  delete node.type;
  delete node.format;
  // `!!str` (or a tag of the user's own on text) says what the quotes say: the value is text.
  delete node.tag;
}
