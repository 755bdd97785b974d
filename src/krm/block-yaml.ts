// A reader for the block-style YAML that manifests are written in, without `yaml`'s node tree:
// plain keys; plain and single-line quoted values; literal block scalars (`|`, `|-`, `|+`); flow
// collections on one line (`{name: x, key: y}`, `[a, b]`); comments. No anchors, aliases, tags,
// folded or multi-line plain scalars, escapes or tabs.
//
// Why by hand: `build` reads every object of a package, and `yaml` (a generator-based lexer and
// parser that builds a node for every scalar) took a third of a 1,000-LLSD run. No YAML library
// gives values with the line of each field and a writable form at once, so this reader does, for
// the subset above, and declines everything else: the whole file then goes to `yaml`
// (parseYamlStream), so every error message, and every unusual construct, stays `yaml`'s. Values
// are resolved by `yaml`'s own core-schema tags. test/unit/block-yaml.test.ts checks that what it
// gives equals what the `yaml` path gives, on every YAML file of the repository and on generated
// documents.
import { Document, isScalar, type ScalarTag } from 'yaml';
import { exactInteger } from '../lib/exact-integer.js';
import { Preformatted, emitPlainYaml } from './emit.js';
import { FieldLineIndex, mapStep, seqStep } from './field-lines.js';
import { parseYamlStream, prepareForOutput, stringifyYaml } from './yaml.js';

export interface BlockDocument {
  /** Position in the file's stream of documents (empty documents count, as `yaml` counts them). */
  index: number;
  /** 1-based line where the document starts (its `---`, else its first content line). */
  line: number;
  value: Record<string, unknown> | unknown[];
  /** The line of every field, as fieldLinesOf gives it. */
  fieldLines: string;
  /** The text `build` writes for the document passed through, or undefined when only `yaml` can write it (from `value`: call it before changing that). */
  output(): string | undefined;
}

/** Read without `yaml`, or undefined: the text is not all in the subset (nothing is said about why). */
export function readBlockYaml(text: string): BlockDocument[] | undefined {
  // Tabs, CR, control and Unicode line-break characters, and a byte order mark: `yaml` decides.
  if (/[\x00-\x09\x0B-\x1F\x7F-\x9F\u2028\u2029\uFEFF]/.test(text)) return undefined;
  const documents: BlockDocument[] = [];
  const lines = new Lines(text);
  try {
    // Documents are counted as `yaml` counts them: each `---` starts one (an empty one counts
    // too), and text before the first `---` is one only when it has content.
    let index = 0;
    let marker: number | undefined;
    for (let next = lines.peek(); next !== undefined; next = lines.peek()) {
      if (typeof next === 'number') {
        if (marker !== undefined) index++;
        marker = next;
        lines.advance();
        continue;
      }
      documents.push(new Reader(lines, index++, marker ?? next.line).document());
      marker = undefined;
    }
  } catch (error) {
    if (error === declined) return undefined;
    throw error;
  }
  return documents;
}

interface Line {
  /** Column of the content: the number of spaces before it. */
  indent: number;
  /** The line without its indentation (never empty, never a comment line). */
  content: string;
  /** 1-based. */
  line: number;
  /** A blank line comes between it and the content line before it (comment lines do not count). */
  gapBefore: boolean;
}

const declined = Symbol('declined');
/** YAML 1.2 §7.4.2 / `yaml`'s KEY_OVER_1024_CHARS: an implicit key is at most 1,024 characters. */
const MAX_IMPLICIT_KEY = 1024;
/** Ends the read: the text is outside the subset. */
function decline(): never {
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- a sentinel the reader catches, not an error: no stack to build
  throw declined;
}

/**
 * The content lines of a text, one at a time (a text of millions of lines is declined at its
 * first line outside the subset, not split first): blank and comment lines are skipped, and a
 * `---` line comes as its line number.
 */
class Lines {
  private offset = 0;
  private lineNumber = 0;
  private next: Line | number | undefined;
  private read = false;

  constructor(private readonly text: string) {}

  /** The current line: content, a `---` marker's line number, or undefined at the end. */
  peek(): Line | number | undefined {
    if (!this.read) {
      this.next = this.scan();
      this.read = true;
    }
    return this.next;
  }

  advance(): void {
    this.peek();
    this.read = false;
  }

  /** Puts another line in place of the current one (the rest of a `- key: value` line). */
  replace(line: Line): void {
    this.next = line;
  }

  /**
   * The content of a literal block scalar whose header ended the line just read, inside a
   * collection at `column`, as `yaml` reads it with `chomp`: the lines indented as its first
   * non-blank one, that indentation removed.
   */
  blockScalar(column: number, chomp: string): { value: string; trailingBlanks: boolean } {
    const { text } = this;
    // Content lines, each with the blank lines before it; blank lines are counted, not kept.
    const parts: string[] = [];
    let blanks = 0;
    let indent = -1;
    let leadingSpaces = 0;
    while (this.offset < text.length) {
      const end = text.indexOf('\n', this.offset);
      // Without a final line break the last line is read otherwise (no newline to clip): `yaml` decides.
      if (end < 0) decline();
      let spaces = this.offset;
      while (text.charCodeAt(spaces) === 32) spaces++;
      spaces -= this.offset;
      if (spaces < end - this.offset) {
        if (indent < 0) {
          if (spaces <= column) break;
          // A leading blank line longer than the indentation is an error for `yaml`.
          if (leadingSpaces > spaces) decline();
          indent = spaces;
        } else if (spaces < indent) break;
        if (parts.length > 0) blanks++;
        parts.push('\n'.repeat(blanks), text.slice(this.offset + indent, end));
        blanks = 0;
      } else {
        // A line of more spaces than the indentation is content: `yaml` decides.
        if (indent >= 0 && spaces > indent) decline();
        leadingSpaces = Math.max(leadingSpaces, spaces);
        blanks++;
      }
      this.offset = end + 1;
      this.lineNumber++;
    }
    if (parts.length === 0) decline();
    const body = parts.join('');
    const value = chomp === '-' ? body : chomp === '+' ? body + '\n'.repeat(blanks + 1) : `${body}\n`;
    return { value, trailingBlanks: blanks > 0 };
  }

  private scan(): Line | number | undefined {
    const { text } = this;
    let gapBefore = false;
    while (this.offset < text.length) {
      let end = text.indexOf('\n', this.offset);
      if (end < 0) end = text.length;
      const raw = text.slice(this.offset, end);
      this.offset = end + 1;
      this.lineNumber++;
      let indent = 0;
      while (raw.charCodeAt(indent) === 32) indent++;
      if (indent === raw.length) {
        gapBefore = true;
        continue;
      }
      // A comment line: `yaml` keeps it on a node, and prepareForOutput drops it.
      if (raw.charCodeAt(indent) === 35 /* # */) continue;
      if (indent === 0 && (raw.startsWith('---') || raw.startsWith('...') || raw.startsWith('%'))) {
        if (!/^---(?: +(?:#.*)?)?$/.test(raw)) decline();
        return this.lineNumber;
      }
      return { indent, content: trimSpaces(raw.slice(indent)), line: this.lineNumber, gapBefore };
    }
    return undefined;
  }
}

/** A key as manifests write them (`name`, `app.kubernetes.io/name`, `LLSD_URL`, `.dockerconfigjson`), then `:` and the rest. */
const keyLine = /^([A-Za-z0-9_.$][A-Za-z0-9_.$/-]*):(?: +(.*))?$/;
/** The first character of a plain value that is no YAML indicator (a `-` only before a letter, digit or dot). */
const plainStart = /^(?:[A-Za-z0-9_.$/~(=<^+]|-[A-Za-z0-9.])/;
const isSeqLine = (content: string): boolean => content === '-' || content.startsWith('- ');
/**
 * Without the spaces at the end. YAML's white space is the space and the tab only: `trimEnd`
 * would also take U+00A0, U+3000 and the like, which are part of a scalar for `yaml`.
 */
const trimSpaces = (text: string): string => {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 32) end--;
  return end === text.length ? text : text.slice(0, end);
};
const maxDepth = 64;

/** A scalar written differently from how the writer would write its value: as read, or (quoted) as `yaml` writes it. */
interface Kept {
  container: Record<string, unknown> | unknown[];
  key: string | number;
  /** The scalar as read. */
  source: string;
  quoted: boolean;
}

/** Where a value read from one line goes: its collection (at `column`), its key or index there, its field's id and line. */
interface Slot {
  container: Record<string, unknown> | unknown[];
  key: string | number;
  column: number;
  id: number;
  line: number;
  depth: number;
}

/**
 * One document, read line by line by recursive descent. A document that `build` cannot write as
 * `yaml` would (`writable` false) is still read: an LLSD is never written, and any other object
 * makes readItems read the file with `yaml` instead.
 */
class Reader {
  private readonly fields = new FieldLineIndex();
  private readonly kept: Kept[] = [];
  private writable = true;
  private started = false;

  constructor(
    private readonly lines: Lines,
    private readonly index: number,
    private readonly start: number,
  ) {}

  document(): BlockDocument {
    const first = this.line() as Line;
    const rootId = this.fields.add(-1, '""', first.line);
    if (!isSeqLine(first.content) && !keyLine.test(first.content)) decline();
    const value = this.collection(first.indent, rootId, 1);
    // What follows must be the next document, or nothing.
    if (this.line()) decline();
    const fieldLines = this.fields.toString();
    const { kept, writable, index, start } = this;
    return { index, line: start, value, fieldLines, output: () => (writable ? outputOf(value, kept) : undefined) };
  }

  /** The current content line of the document; undefined at its end. */
  private line(): Line | undefined {
    const next = this.lines.peek();
    if (typeof next !== 'object') return undefined;
    // `yaml` writes a blank line where one was read inside an object (not always); this writer never does.
    if (next.gapBefore && this.started) this.writable = false;
    return next;
  }

  private advance(): void {
    this.started = true;
    this.lines.advance();
  }

  /** The collection whose first line is the current one, at column `column`. */
  private collection(column: number, id: number, depth: number): Record<string, unknown> | unknown[] {
    if (depth > maxDepth) decline();
    return isSeqLine((this.line() as Line).content) ? this.sequence(column, id, depth) : this.mapping(column, id, depth);
  }

  private mapping(column: number, id: number, depth: number): Record<string, unknown> {
    const map: Record<string, unknown> = {};
    for (let line = this.line(); line && line.indent >= column; line = this.line()) {
      if (line.indent > column) decline();
      const match = keyLine.exec(line.content);
      if (!match) decline();
      const key = match[1] as string;
      // A key `yaml` reads as a number, a boolean or null; one written twice; one JavaScript treats
      // specially; one over the 1,024 characters YAML allows an implicit key (`yaml` refuses it).
      if (typeof resolvePlain(key) !== 'string' || Object.hasOwn(map, key) || key === '__proto__' || key.length > MAX_IMPLICIT_KEY) decline();
      const keyId = this.fields.add(id, mapStep(key), line.line);
      this.advance();
      const rest = match[2] ?? '';
      if (rest !== '' && !rest.startsWith('#')) {
        map[key] = this.scalar(rest, { container: map, key, column, id: keyId, line: line.line, depth: depth + 1 });
        continue;
      }
      const next = this.line();
      if (next && next.indent > column) map[key] = this.collection(next.indent, keyId, depth + 1);
      // A sequence may sit at its key's column (`key:` then `- item`).
      else if (next && next.indent === column && isSeqLine(next.content)) map[key] = this.sequence(column, keyId, depth + 1);
      else {
        map[key] = null;
        // `yaml` writes an empty value as `key:`, this writer as `key: null`.
        this.writable = false;
      }
    }
    return map;
  }

  private sequence(column: number, id: number, depth: number): unknown[] {
    const seq: unknown[] = [];
    for (let line = this.line(); line && line.indent >= column && isSeqLine(line.content); line = this.line()) {
      if (line.indent > column) decline();
      const index = seq.length;
      const rest = line.content.slice(1).replace(/^ +/, '');
      if (rest === '' || rest.startsWith('#')) {
        // The item is on the lines below, further in.
        this.advance();
        const next = this.line();
        if (!next || next.indent <= column) decline();
        seq.push(this.collection(next.indent, this.fields.add(id, seqStep(index), next.line), depth + 1));
      } else if (isSeqLine(rest)) {
        decline();
      } else if (keyLine.test(rest)) {
        // `- key: value`: a mapping that starts on the item's line, at the column of its key.
        const restColumn = line.indent + line.content.length - rest.length;
        this.lines.replace({ indent: restColumn, content: rest, line: line.line, gapBefore: false });
        seq.push(this.mapping(restColumn, this.fields.add(id, seqStep(index), line.line), depth + 1));
      } else {
        const itemId = this.fields.add(id, seqStep(index), line.line);
        this.advance();
        seq.push(this.scalar(rest, { container: seq, key: index, column, id: itemId, line: line.line, depth: depth + 1 }));
      }
    }
    const after = this.line();
    if (after && after.indent > column) decline();
    return seq;
  }

  /**
   * The value `rest` (the line's text after `key: ` or `- `) holds; a scalar is kept as written
   * when the writer would write its value otherwise. The line has been consumed (`advance`) and
   * none after it read yet, so a block scalar's content is what `lines` reads next.
   */
  private scalar(rest: string, { container, key, column, id, line, depth }: Slot): unknown {
    const first = rest[0];
    if (first === '|') {
      const header = /^\|([-+]?)(?: +#.*)?$/.exec(rest);
      if (!header) decline();
      const { value, trailingBlanks } = this.lines.blockScalar(column, header[1] as string);
      // `yaml` writes a one-line block scalar as a block still, and may mark the line after blank lines.
      if (!value.includes('\n') || trailingBlanks) this.writable = false;
      return value;
    }
    if ((first === '[' || first === '{') && rest !== '[]' && rest !== '{}') {
      const flow = new FlowReader(rest, (parent, step) => this.fields.add(parent, step, line));
      const value = flow.node(id, depth);
      if (!/^(?: +#.*)?$/.test(rest.slice(flow.at))) decline();
      // `yaml` writes a flow collection read from the input in flow style: written as it would
      // write it (quotedText asks it, for this collection alone), the rest of the document need not
      // go to `yaml` (a ConfigMap with `metadata: {…}` and a list of 1,000,000 items took 28 s).
      this.kept.push({ container, key, source: rest.slice(0, flow.at), quoted: true });
      return value;
    }
    const quote = first;
    if (quote === '"' || quote === "'") {
      let end = rest.indexOf(quote, 1);
      // In single quotes, '' is a quote.
      while (quote === "'" && end >= 0 && rest[end + 1] === "'") end = rest.indexOf(quote, end + 2);
      if (end < 0) decline();
      const inner = rest.slice(1, end);
      if (quote === '"' && inner.includes('\\')) decline();
      if (!/^(?: +#.*)?$/.test(rest.slice(end + 1))) decline();
      this.kept.push({ container, key, source: rest.slice(0, end + 1), quoted: true });
      return quote === "'" ? inner.replaceAll("''", "'") : inner;
    }
    const hash = rest.indexOf(' #');
    const text = hash < 0 ? rest : trimSpaces(rest.slice(0, hash));
    if (text === '[]' || text === '{}') return text === '[]' ? [] : {};
    if (!plainStart.test(text) || text.includes(': ') || text.endsWith(':')) decline();
    const value = resolvePlain(text);
    // Numbers, booleans and null are written back as written (`0755`, `True`, `~`), as prepareForOutput keeps them.
    if (typeof value !== 'string') this.kept.push({ container, key, source: text, quoted: false });
    return value;
  }
}

/** A flow collection on one line: `{key: value, …}` and `[item, …]`, of plain and quoted scalars and flow collections. */
class FlowReader {
  /** Where reading is in `text`. */
  at = 0;

  constructor(
    private readonly text: string,
    private readonly field: (parent: number, step: string) => number,
  ) {}

  node(id: number, depth: number): unknown {
    if (depth > maxDepth) decline();
    const open = this.text[this.at];
    if (open === '[' || open === '{') {
      this.at++;
      const close = open === '[' ? ']' : '}';
      const seq: unknown[] = [];
      const map: Record<string, unknown> = {};
      this.blanks();
      if (this.text[this.at] === close) {
        this.at++;
        return open === '[' ? seq : map;
      }
      for (;;) {
        if (open === '[') {
          seq.push(this.node(this.field(id, seqStep(seq.length)), depth + 1));
        } else {
          const key = /^[A-Za-z0-9_.$][A-Za-z0-9_.$/-]*(?=: )/.exec(this.text.slice(this.at))?.[0];
          if (key === undefined || typeof resolvePlain(key) !== 'string' || Object.hasOwn(map, key) || key === '__proto__' || key.length > MAX_IMPLICIT_KEY)
            decline();
          this.at += key.length + 2;
          this.blanks();
          map[key] = this.node(this.field(id, mapStep(key)), depth + 1);
        }
        this.blanks();
        const next = this.text[this.at++];
        if (next === close) return open === '[' ? seq : map;
        if (next !== ',') decline();
        this.blanks();
      }
    }
    if (open === '"' || open === "'") {
      // Found by indexOf, not a regex: an alternation under `*` (`(?:[^']|'')*`) takes stack for each character or `''`, and
      // overflows on a scalar of a few megabytes. Double quotes take no escapes; in single quotes, '' is a quote.
      let end = this.text.indexOf(open, this.at + 1);
      while (open === "'" && end >= 0 && this.text[end + 1] === "'") end = this.text.indexOf(open, end + 2);
      if (end < 0) decline();
      const inner = this.text.slice(this.at + 1, end);
      if (open === '"' && inner.includes('\\')) decline();
      this.at = end + 1;
      return open === "'" ? inner.replaceAll("''", "'") : inner;
    }
    // A plain scalar ends at `,`, `]`, `}`, or `: `; it has no ` #` (a comment) and no `[` or `{`.
    const plain = trimSpaces(/^[^,[\]{}#]*/.exec(this.text.slice(this.at))?.[0] ?? '');
    if (!plainStart.test(plain) || /: |:$| #|[,[\]{}]/.test(plain)) decline();
    this.at += plain.length;
    return resolvePlain(plain);
  }

  private blanks(): void {
    while (this.text[this.at] === ' ') this.at++;
  }
}

/** `yaml`'s core-schema tags for plain scalars (null, booleans, integers, floats), in the order it tries them. */
let coreTags: ScalarTag[] | undefined;

/** A plain scalar's value, as `yaml` resolves it with the YAML 1.2 core schema. */
function resolvePlain(text: string): unknown {
  // Every core tag matches only text that starts with a digit, a sign, a dot, `~`, or n/N, t/T, f/F; most values start otherwise.
  const c = text.charCodeAt(0);
  if (((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) && !/^[nNtTfF]/.test(text)) return text;
  coreTags ??= (new Document(null, { version: '1.2' }).schema.tags as ScalarTag[]).filter((tag) => tag.default === true && tag.test);
  for (const tag of coreTags) {
    if (!tag.test?.test(text)) continue;
    const resolved = tag.resolve(text, decline, { intAsBigInt: false });
    // An integer beyond 2^53 is read as written, not rounded (as parseYamlStream reads it).
    return exactInteger(isScalar(resolved) ? resolved.value : resolved, text);
  }
  return text;
}

const quotedTexts = new Map<string, string | undefined>();

/**
 * A quoted scalar (or a one-line flow collection) as `yaml` writes it when passed through: its
 * quotes are kept where they can be, so printable ASCII text comes out as it was read (the reader
 * takes no escapes); anything else is asked of `yaml`, once per text.
 */
function quotedText(source: string): string | undefined {
  if (/^(?:"[\x20\x21\x23-\x5b\x5d-\x7e]*"|'[\x20-\x7e]*')$/.test(source)) return source;
  if (quotedTexts.has(source)) return quotedTexts.get(source);
  const node = parseYamlStream(`k: ${source}\n`).documents[0]?.node;
  let text: string | undefined;
  if (node) {
    prepareForOutput(node);
    const written = stringifyYaml(node);
    if (written.startsWith('k: ') && written.indexOf('\n') === written.length - 1) text = written.slice(3, -1);
  }
  if (quotedTexts.size >= 10_000) quotedTexts.clear();
  quotedTexts.set(source, text);
  return text;
}

/** The document as `stringifyYaml` writes its prepared node: the value, with kept scalars as read. */
function outputOf(value: Record<string, unknown> | unknown[], kept: readonly Kept[]): string | undefined {
  if (kept.length === 0) return emitPlainYaml(value);
  const byContainer = new Map<object, Map<string | number, string>>();
  for (const { container, key, source, quoted } of kept) {
    const text = quoted ? quotedText(source) : source;
    if (text === undefined) return undefined;
    let texts = byContainer.get(container);
    if (!texts) byContainer.set(container, (texts = new Map()));
    texts.set(key, text);
  }
  const styled = (node: unknown): unknown => {
    const texts = byContainer.get(node as object);
    const at = (key: string | number, item: unknown): unknown => {
      const text = texts?.get(key);
      return text === undefined ? styled(item) : new Preformatted(text);
    };
    if (Array.isArray(node)) return node.map((item, index) => at(index, item));
    if (node !== null && typeof node === 'object') {
      const copy: Record<string, unknown> = {};
      for (const key of Object.keys(node)) copy[key] = at(key, (node as Record<string, unknown>)[key]);
      return copy;
    }
    return node;
  };
  return emitPlainYaml(styled(value));
}
