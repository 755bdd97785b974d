// YAML in and out, on the `yaml` package.
//
// Two rules from DESIGN §3 shape this module:
// - Items we pass through keep their values as written. A plain scalar that is not a string
//   (`0755`, `1e3`, `12345678901234567890`, `on` under YAML 1.1 readers) is written back verbatim,
//   so every consumer reads it exactly as it did before us.
// - Strings we write are quoted whenever a YAML 1.1 reader (PyYAML in llama-stack, go-yaml v2 in
//   parts of Kubernetes) or a YAML 1.2 reader would take the plain form for another type.
import { emitPlainYaml } from './emit.js';
import {
  Composer,
  Document,
  isAlias,
  isNode,
  LineCounter,
  Parser,
  Scalar,
  isMap,
  isPair,
  isScalar,
  isSeq,
  visit,
  type Node,
  type ScalarTag,
  type ToStringOptions,
} from 'yaml';

/** A plain scalar kept as its source text. */
class Verbatim {
  constructor(readonly text: string) {}
}

const verbatimTag: ScalarTag = {
  tag: 'tag:llsd-render.llamastack.io,2026:verbatim',
  default: true,
  identify: (value) => value instanceof Verbatim,
  resolve: (text) => new Verbatim(text),
  stringify: (item) => ((item as Scalar).value as Verbatim).text,
};

const toStringOptions: ToStringOptions = { lineWidth: 0, indentSeq: true };

/** Parse limits: an alias bomb or absurd nesting becomes an error, not a hang. */
const maxAliasCount = 100;

export interface ParsedDocument {
  /** The document's root node; null for an empty document. */
  node: Node | null;
  /** The document as plain JavaScript values (aliases resolved). */
  value: unknown;
  /** 1-based line where the document starts. */
  line: number;
  /** Offsets of the document in the text: its source is `text.slice(...range)`. */
  range: [number, number];
}

export interface YamlProblem {
  message: string;
  line?: number;
}

export interface ParsedStream {
  documents: ParsedDocument[];
  problems: YamlProblem[];
  lines: LineCounter;
}

/** Parses a (multi-document) YAML or JSON text with the YAML 1.2 core schema, as kpt and kustomize do. */
export function parseYamlStream(text: string): ParsedStream {
  const lines = new LineCounter();
  const binary = notText(text);
  if (binary) return { documents: [], problems: [binary], lines };
  const { docs, dropped, stopped } = composeDocuments(text, lines, '1.2');
  // Garbage gives an error per line; the first few say enough, the rest are counted.
  const problems: YamlProblem[] = [];
  let hidden = dropped;
  const add = (problem: () => YamlProblem): void => {
    if (problems.length < maxProblems) problems.push(problem());
    else hidden++;
  };
  const documents: ParsedDocument[] = [];
  for (const doc of docs) {
    for (const error of doc.errors) add(() => ({ message: describeYamlError(error.message), line: lines.linePos(error.pos[0]).line }));
    const node = (doc.contents as Node | null) ?? null;
    const { tooDeep, keyProblems } = checkNodes(node, (key) => add(() => keyProblem(key, text, lines)));
    if (doc.errors.length > 0 || keyProblems > 0) continue;
    const line = lines.linePos(doc.range[0]).line;
    if (tooDeep) {
      add(() => ({ message: `nests collections more than ${maxDepth} levels deep; no Kubernetes object is that deep`, line }));
      continue;
    }
    try {
      documents.push({ node, value: doc.toJS({ maxAliasCount }), line, range: [doc.range[0], doc.range[2]] });
    } catch (error) {
      add(() => ({ message: aliasProblem(error), line }));
    }
  }
  if (stopped) problems.push({ message: `and more problems like these; llsd-render stops reading after ${maxErrors} errors` });
  else if (hidden > 0) problems.push({ message: `and ${hidden} more problems like these` });
  return { documents, problems, lines };
}

/** What went wrong turning a document into values: an alias to no anchor, or an alias bomb (refused instead of expanded). */
function aliasProblem(error: unknown): string {
  const unresolved = /^Unresolved alias[^:]*: (.*)$/.exec((error as Error)?.message ?? '');
  if (unresolved) return `the alias *${unresolved[1]} names no anchor set before it in this document; define &${unresolved[1]} first or write the value out`;
  return `aliases expand to more than ${maxAliasCount} nodes; write the values out instead of using anchors and aliases`;
}

/** Deeper than this is refused before any recursive walk (toJS, the render) can overflow the stack. */
const maxDepth = 500;
const maxProblems = 10;
/** Errors `yaml` may build for one text; past this the rest of the text is not read, or not kept. */
const maxErrors = 100;

/**
 * `parseAllDocuments`, bounded for garbage: `yaml` builds an error object for each bad line (a
 * few MB of `]` lines took gigabytes) before we could show the first ten. Past `maxErrors`, an
 * error token from the parser ends the token stream, and errors found while composing a
 * document are dropped and counted (`dropped`).
 *
 * Keys are checked for uniqueness in `checkNodes`, not here: `uniqueKeys` compares each key with
 * every earlier key of its mapping (100,000 keys took 90 s). `logLevel: 'error'` keeps `yaml`
 * from printing warnings of its own (toJS warns on stderr when it turns a key into a string).
 */
function composeDocuments(text: string, lines: LineCounter, version: '1.1' | '1.2'): { docs: Array<Document.Parsed>; dropped: number; stopped: boolean } {
  let errors = 0;
  let stopped = false;
  const composer = new Composer({ version, uniqueKeys: false, logLevel: 'error' });
  // The composer reports through `onError`, which `yaml` does not expose; `yaml` is pinned to an
  // exact version, and test/unit/yaml-limits.test.ts fails if this stops working.
  const hook = composer as unknown as { onError: (source: unknown, code: string, message: string, warning?: boolean) => void };
  const report = hook.onError;
  hook.onError = (source, code, message, warning) => {
    if (!warning) errors++;
    if (errors <= maxErrors) report(source, code, message, warning);
  };
  const docs: Array<Document.Parsed> = [];
  // A plain loop: the parser is a generator already, and another around it costs per token.
  for (const token of new Parser(lines.addNewLine).parse(text)) {
    if (token.type === 'error' && ++errors > maxErrors) {
      stopped = true;
      break;
    }
    for (const doc of composer.next(token)) docs.push(doc);
  }
  // When reading stopped, the errors so far may wait for a document that never came: force one to carry them.
  docs.push(...composer.end(stopped, text.length));
  return { docs, dropped: Math.max(0, errors - maxErrors), stopped };
}

/** A key that `checkNodes` refuses: one seen before in its mapping, or a collection (JSON keys are strings). */
interface KeyProblem {
  kind: 'duplicate' | 'sequence' | 'mapping';
  /** Where the key starts in the text. */
  offset: number;
  /** Where it ends (for a collection key, shown in the message). */
  end: number;
}

/**
 * What `yaml` is not asked to check, in one walk without recursion (toJS and the render recurse,
 * so nesting is measured first): whether collections nest deeper than `maxDepth` (the walk stops
 * there), keys that appear twice in one mapping, and keys that are sequences or mappings. Keys
 * are passed to `onKey` in document order. Duplicates are found as `yaml`'s `uniqueKeys` finds
 * them: scalar keys with equal values (`===`; each YAML 1.1 merge key `<<` is a distinct symbol),
 * never aliases or collections.
 */
function checkNodes(root: Node | null, onKey: (key: KeyProblem) => void): { tooDeep: boolean; keyProblems: number } {
  let keyProblems = 0;
  const found = (kind: KeyProblem['kind'], key: unknown): void => {
    const range = (key as { range?: [number, number, number] } | null)?.range ?? [0, 0];
    keyProblems++;
    onKey({ kind, offset: range[0], end: range[1] });
  };
  // Anchors seen so far: the walk is in document order, so an alias names the last one before it.
  const anchors = new Map<string, unknown>();
  // One frame per open collection, with the next item to visit.
  const stack: Array<{ items: unknown[]; next: number; depth: number; keys?: Set<unknown> }> = [];
  const enter = (node: unknown, depth: number): boolean => {
    if (isNode(node) && node.anchor) anchors.set(node.anchor, node);
    if (!isMap(node) && !isSeq(node)) return true;
    if (depth > maxDepth) return false;
    stack.push({ items: node.items as unknown[], next: 0, depth, keys: isMap(node) ? new Set() : undefined });
    return true;
  };
  if (!enter(root, 1)) return { tooDeep: true, keyProblems };
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as (typeof stack)[number];
    if (frame.next === frame.items.length) {
      stack.pop();
      continue;
    }
    const item = frame.items[frame.next++];
    if (!isPair(item)) {
      if (!enter(item, frame.depth + 1)) return { tooDeep: true, keyProblems };
      continue;
    }
    // Keys are not walked: a scalar or an alias has nothing under it, and a collection key is
    // reported as a whole (one problem per key).
    const key = item.key;
    const target = isAlias(key) ? anchors.get(key.source) : key;
    if (isMap(target) || isSeq(target)) found(isMap(target) ? 'mapping' : 'sequence', key);
    else if (isScalar(key)) {
      if (key.anchor) anchors.set(key.anchor, key);
      // NaN is not `===` to itself, so yaml never took `.nan` keys for duplicates; a Set would.
      if (frame.keys && !Number.isNaN(key.value)) {
        if (frame.keys.has(key.value)) found('duplicate', key);
        else frame.keys.add(key.value);
      }
    }
    if (!enter(item.value, frame.depth + 1)) return { tooDeep: true, keyProblems };
  }
  return { tooDeep: false, keyProblems };
}

/**
 * YAML is text: C0 control characters other than tab, LF and CR (and DEL) are not allowed in it,
 * so a file that has them is binary data, reported once instead of as hundreds of syntax errors.
 */
function notText(text: string): YamlProblem | undefined {
  const at = text.search(/[\x00-\x08\x0B\x0C\x0E-\x1F\x7F]/);
  if (at < 0) return undefined;
  const code = text.charCodeAt(at).toString(16).toUpperCase().padStart(4, '0');
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < at; i = text.indexOf('\n', i + 1)) line++;
  return { message: `holds the control character U+${code}: this is binary data, not YAML text`, line };
}

/**
 * Prepares a parsed node to be written back: every plain non-string scalar keeps its source text,
 * and comments are dropped. kpt restores each item's comments itself (by `config.k8s.io/id`), so
 * writing them too would duplicate them on every render.
 */
export function prepareForOutput(node: Node): void {
  visit(node, {
    Node(_key, n) {
      delete n.comment;
      delete n.commentBefore;
      if (isScalar(n) && n.type === Scalar.PLAIN && typeof n.source === 'string' && typeof n.value !== 'string') {
        n.value = new Verbatim(n.source);
        delete n.format;
      }
    },
  });
}

/** Serialises one document: plain values become nodes, nodes are written as they are. */
export function stringifyYaml(value: unknown): string {
  if (isNode(value)) {
    // One document writes every node: making a Document (and its schema) for each read object
    // cost nearly as much as writing it.
    nodeWriter ??= new Document(null, writeOptions);
    nodeWriter.contents = value;
    try {
      return nodeWriter.toString(toStringOptions);
    } finally {
      nodeWriter.contents = null;
    }
  }
  const fast = emitPlainYaml(value);
  if (fast !== undefined) return fast;
  return new Document(value, writeOptions).toString(toStringOptions);
}

const writeOptions = { customTags: [verbatimTag], compat: 'yaml-1.1' as const, version: '1.2' as const, aliasDuplicateObjects: false };
let nodeWriter: Document | undefined;

/** Serialises a plain value as YAML for a YAML 1.1 reader (llama-stack reads its config with PyYAML). */
export function stringifyPlainYaml(value: unknown): string {
  const fast = emitPlainYaml(value);
  if (fast !== undefined) return fast;
  const doc = new Document(value, { compat: 'yaml-1.1', version: '1.2', aliasDuplicateObjects: false });
  return doc.toString(toStringOptions);
}

/** Parses a llama-stack config file as the server does: YAML 1.1 (PyYAML), single document. */
export function parseYaml11(text: string): { value: unknown; problem?: YamlProblem } {
  const binary = notText(text);
  if (binary) return { value: undefined, problem: binary };
  const lines = new LineCounter();
  const { docs } = composeDocuments(text, lines, '1.1');
  const first = docs[0];
  const error = first?.errors[0];
  if (error) return { value: undefined, problem: { message: describeYamlError(error.message), line: lines.linePos(error.pos[0]).line } };
  let key: KeyProblem | undefined;
  const { tooDeep } = checkNodes((first?.contents as Node | null) ?? null, (found) => (key ??= found));
  if (key) return { value: undefined, problem: keyProblem(key, text, lines) };
  if (docs.length > 1) return { value: undefined, problem: { message: 'must hold a single YAML document' } };
  if (tooDeep) return { value: undefined, problem: { message: `nests collections more than ${maxDepth} levels deep` } };
  try {
    return { value: first ? first.toJS({ maxAliasCount }) : null };
  } catch (error) {
    return { value: undefined, problem: { message: aliasProblem(error) } };
  }
}

/**
 * The 1-based line of the node at `path` under `root`, or of the deepest ancestor that exists.
 * Used to put a line number on results that carry a field path.
 */
export function lineOf(root: Node | null, path: ReadonlyArray<string | number>, lines: LineCounter): number | undefined {
  let node: unknown = root;
  let best: number | undefined = rangeLine(root, lines);
  for (const segment of path) {
    if (isMap(node)) {
      const pair = node.items.find((item) => isPair(item) && isScalar(item.key) && String(item.key.value) === String(segment));
      if (!pair || !isPair(pair)) break;
      best = rangeLine(pair.key as Node, lines) ?? best;
      node = pair.value;
    } else if (isSeq(node) && typeof segment === 'number') {
      node = node.items[segment];
      best = rangeLine(node as Node, lines) ?? best;
    } else {
      break;
    }
  }
  return best;
}

function rangeLine(node: unknown, lines: LineCounter): number | undefined {
  const range = (node as { range?: [number, number, number] } | null)?.range;
  return range ? lines.linePos(range[0]).line : undefined;
}

/** The `yaml` package's messages carry source excerpts and internal codes; keep the first sentence. */
function describeYamlError(message: string): string {
  if (/Maximum call stack size exceeded/.test(message)) return `nests collections more than ${maxDepth} levels deep; no Kubernetes object is that deep`;
  const first = message.split('\n')[0] ?? message;
  return first.replace(/ at line \d+, column \d+:?$/, '').trim();
}

function keyProblem(key: KeyProblem, text: string, lines: LineCounter): YamlProblem {
  if (key.kind === 'duplicate') {
    // An empty key is placed before the blanks and comments ahead of its `:`; the `:` is what the user sees.
    const offset = key.end > key.offset ? key.offset : key.offset + (/^(?:\s|#.*)*/.exec(text.slice(key.offset, key.offset + 1000))?.[0].length ?? 0);
    // Named as written, so the user finds it (an empty key has no name).
    const end = text.indexOf('\n', offset);
    const name = key.end > key.offset ? /^\s*(?:-\s+)?("[^"]*"|'[^']*'|[^:#]+?)\s*:/.exec(text.slice(offset, end === -1 ? undefined : end))?.[1] : undefined;
    return { message: `the key ${name ? `"${name.replace(/^["']|["']$/g, '')}" ` : ''}appears twice in one mapping; keep only one`, line: lines.linePos(offset).line };
  }
  const source = text.slice(key.offset, key.end).replace(/\s+/g, ' ').trim();
  const shown = source.length > 40 ? `${source.slice(0, 37)}...` : source;
  return { message: `the key "${shown}" is a ${key.kind}; a mapping key must be a string or a number (quote the key to keep it as text)`, line: lines.linePos(key.offset).line };
}
