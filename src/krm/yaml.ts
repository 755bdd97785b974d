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
  Document,
  isNode,
  LineCounter,
  Scalar,
  isMap,
  isPair,
  isScalar,
  isSeq,
  parseAllDocuments,
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
  const docs = parseAllDocuments(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  const problems: YamlProblem[] = [];
  const documents: ParsedDocument[] = [];
  const list = Array.isArray(docs) ? docs : [];
  if (!Array.isArray(docs)) {
    problems.push({ message: 'the input is not a YAML stream' });
  }
  for (const doc of list) {
    for (const error of doc.errors) {
      problems.push({ message: describeYamlError(error.message, error.code, text, error.pos[0]), line: lines.linePos(error.pos[0]).line });
    }
    if (doc.errors.length > 0) continue;
    const node = (doc.contents as Node | null) ?? null;
    const line = lines.linePos(doc.range[0]).line;
    if (depthOf(node) > maxDepth) {
      problems.push({ message: `nests collections more than ${maxDepth} levels deep; no Kubernetes object is that deep`, line });
      continue;
    }
    try {
      documents.push({ node, value: doc.toJS({ maxAliasCount }), line, range: [doc.range[0], doc.range[2]] });
    } catch (error) {
      problems.push({ message: aliasProblem(error), line });
    }
  }
  // Garbage gives an error per line; the first few say enough.
  const shown = problems.length > maxProblems ? [...problems.slice(0, maxProblems), { message: `and ${problems.length - maxProblems} more problems like these` }] : problems;
  return { documents, problems: shown, lines };
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

/** How deeply collections nest under `root`, counted without recursion. */
function depthOf(root: Node | null): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[root, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (isMap(node) || isSeq(node)) {
      if (depth > deepest) deepest = depth;
      if (deepest > maxDepth) return deepest;
      for (const item of node.items as unknown[]) {
        if (isPair(item)) {
          stack.push([item.key, depth + 1], [item.value, depth + 1]);
        } else stack.push([item, depth + 1]);
      }
    }
  }
  return deepest;
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
  const fast = isNode(value) ? undefined : emitPlainYaml(value);
  if (fast !== undefined) return fast;
  const doc = new Document(value, { customTags: [verbatimTag], compat: 'yaml-1.1', version: '1.2', aliasDuplicateObjects: false });
  return doc.toString(toStringOptions);
}

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
  const docs = parseAllDocuments(text, { version: '1.1', lineCounter: lines, uniqueKeys: true });
  const list = Array.isArray(docs) ? docs : [];
  const first = list[0];
  const error = first?.errors[0];
  if (error) return { value: undefined, problem: { message: describeYamlError(error.message, error.code, text, error.pos[0]), line: lines.linePos(error.pos[0]).line } };
  if (list.length > 1) return { value: undefined, problem: { message: 'must hold a single YAML document' } };
  if (first && depthOf(first.contents as Node | null) > maxDepth) return { value: undefined, problem: { message: `nests collections more than ${maxDepth} levels deep` } };
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
function describeYamlError(message: string, code: string, text: string, offset: number): string {
  if (code === 'DUPLICATE_KEY') {
    // The error points at the repeated key; name it so the user finds it.
    const end = text.indexOf('\n', offset);
    const key = /^\s*(?:-\s+)?("[^"]*"|'[^']*'|[^:#]+?)\s*:/.exec(text.slice(offset, end === -1 ? undefined : end))?.[1];
    return `the key ${key ? `"${key.replace(/^["']|["']$/g, '')}" ` : ''}appears twice in one mapping; keep only one`;
  }
  if (/Maximum call stack size exceeded/.test(message)) return `nests collections more than ${maxDepth} levels deep; no Kubernetes object is that deep`;
  const first = message.split('\n')[0] ?? message;
  return first.replace(/ at line \d+, column \d+:?$/, '').trim();
}
