// YAML in and out, on the `yaml` package.
//
// Two rules from docs/results.md shape this module:
// - Items we pass through keep their values as written. A plain scalar that is not a string
//   (`0755`, `1e3`, `12345678901234567890`, `on` under YAML 1.1 readers) is written back verbatim,
//   so every consumer reads it exactly as it did before us.
// - Strings we write are quoted whenever a YAML 1.1 reader (PyYAML in llama-stack, go-yaml v2 in
//   parts of Kubernetes) or a YAML 1.2 reader would take the plain form for another type.
import { duplicateKey, quotedKey } from './duplicate-key.js';
import { exactInteger, Verbatim } from '../lib/exact-integer.js';
import { emitPlainYaml, escapeScalarForReaders } from './emit.js';
import { explainSyntaxErrors, plainYamlMessage, withinCauses, type YamlError } from './yaml-syntax.js';
import {
  Composer,
  type CST,
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
  type Tags,
  type ToStringOptions,
} from 'yaml';


const verbatimTag: ScalarTag = {
  tag: 'tag:llsd-render.llamastack.io,2026:verbatim',
  default: true,
  identify: (value) => value instanceof Verbatim,
  resolve: (text) => new Verbatim(text),
  stringify: (item) => (item.value as Verbatim).text,
};

/**
 * `!!binary` read as its base64 text, not as bytes: what it holds is what Kubernetes wants in
 * `binaryData` (and in a Secret's `data`), and bytes would reach a config as a map of numbers.
 * Written back without the tag (prepareForOutput), since a reader that decodes it would hand
 * Kubernetes the decoded bytes.
 */
const binaryAsText: ScalarTag = {
  tag: 'tag:yaml.org,2002:binary',
  identify: () => false,
  resolve: (text, onError) => {
    // Line breaks and spaces may split base64 in YAML; they are not part of it.
    const base64 = text.replace(/[\s]+/g, '');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) onError(binaryNotBase64);
    return base64;
  },
};
const binaryNotBase64 = 'a value tagged !!binary must be base64 text; remove the tag to keep the value as text';
const withBinaryAsText = (tags: Tags): Tags => [binaryAsText, ...tags.filter((tag) => typeof tag === 'string' || tag.tag !== binaryAsText.tag)];

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

/**
 * Parses a (multi-document) YAML or JSON text with the YAML 1.2 core schema, as kpt and kustomize
 * do, with merge keys `<<` merged as they (and kubectl) merge them: read as a plain key, the object
 * lost the merged keys, and written back quoted, kustomize then dropped them too.
 */
export function parseYamlStream(text: string): ParsedStream {
  const lines = new LineCounter();
  const binary = notText(text);
  if (binary) return { documents: [], problems: [binary], lines };
  const { docs, dropped, stopped, cst, droppedAt } = composeDocuments(text, lines, '1.2');
  const found: Finding[] = [];
  const documents: ParsedDocument[] = [];
  for (const doc of docs) {
    const causes = explainSyntaxErrors(doc.errors, { text, lines, cst }, describeError);
    for (const cause of causes)
      found.push({ line: cause.line, col: cause.col, problem: () => ({ message: withColumn(cause.message, cause.col), line: cause.line }) });
    // Its errors were past the budget and dropped (counted in "and N more"): broken, not clean.
    if (causes.length === 0 && holdsOffset(droppedAt, doc.range[0], doc.range[2])) continue;
    const node = (doc.contents as Node | null) ?? null;
    const { tooDeep, nodeProblems } = checkNodes(node, '1.2', (problem) => {
      const { line, col } = lines.linePos(problem.offset);
      // A node problem where a syntax error was found follows from it (`- a` in a mapping is also a sequence key).
      if (!withinCauses(causes, line)) found.push({ line, col, problem: () => nodeProblem(problem, text, lines, true) });
    });
    if (doc.errors.length > 0 || nodeProblems > 0) continue;
    const line = lines.linePos(doc.range[0]).line;
    if (tooDeep) {
      found.push({ line, col: 0, problem: () => ({ message: tooDeepMessage, line }) });
      continue;
    }
    try {
      documents.push({ node, value: doc.toJS({ maxAliasCount }), line, range: [doc.range[0], doc.range[2]] });
    } catch (error) {
      found.push({ line, col: 0, problem: () => ({ message: toJsProblem(error), line }) });
    }
  }
  return { documents, problems: firstProblems(found, dropped, stopped), lines };
}

/** A problem found while reading, its message made only if it is shown (garbage has thousands). */
interface Finding {
  line: number;
  col: number;
  problem: () => YamlProblem;
}

/**
 * The problems to show, by position: the first `maxProblems` (a stack overflow deep in the parser
 * can surface as an error of each document it cut short, so one message at one line is shown
 * once), then how many more there were.
 */
function firstProblems(found: Finding[], dropped: number, stopped: boolean): YamlProblem[] {
  found.sort((a, b) => a.line - b.line || a.col - b.col);
  const problems: YamlProblem[] = [];
  let hidden = dropped;
  for (const finding of found) {
    if (problems.length >= maxProblems) {
      hidden++;
      continue;
    }
    const problem = finding.problem();
    if (!problems.some((p) => p.message === problem.message && p.line === problem.line)) problems.push(problem);
  }
  if (stopped) problems.push({ message: `and more problems like these; llsd-render stops reading after ${maxErrors} errors` });
  else if (hidden > 0) problems.push({ message: `and ${hidden} more problems like these` });
  return problems;
}

/**
 * What went wrong turning a checked document into values: an alias bomb (refused instead of
 * expanded). checkNodes has found every other cause toJS knows; should one remain, it is said
 * without `yaml`'s words, which may quote the input.
 */
function toJsProblem(error: unknown): string {
  if (/alias count/i.test((error as Error)?.message ?? ''))
    // `yaml` counts, for each anchor, its aliases times the aliases inside the anchored value (at least 1).
    return (
      `an anchor is used by more than ${maxAliasCount} aliases (an alias inside the anchored value counts once for each use); write the values out ` +
      'instead of using anchors and aliases'
    );
  return 'cannot be read as data (anchors, aliases, merge keys or tags here do not fit together); write the values out';
}

/**
 * Deeper than this is refused before any recursive walk (toJS, the render) can overflow the stack,
 * and so that what we write from it (config.yaml, a converted object: as deep as the input, give or
 * take a level or two) stays readable by PyYAML, the server's reader, whose recursive composer
 * fails at 491 levels from an empty call stack (Python's 1,000 frames), and sooner under the
 * server's own frames. No Kubernetes object or config comes near either.
 */
export const maxDepth = 400;
const tooDeepMessage = `nests collections more than ${maxDepth} levels deep; no Kubernetes object is that deep`;
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
function composeDocuments(
  text: string,
  lines: LineCounter,
  version: '1.1' | '1.2',
): { docs: Array<Document.Parsed>; dropped: number; stopped: boolean; cst: CST.Token[]; droppedAt: number[] } {
  let errors = 0;
  // Where each dropped error was: a document holding one is broken though it carries no error.
  const droppedAt: number[] = [];
  let stopped = false;
  // The CST of each token an error was reported for: where a quote or bracket opened is found there
  // (yaml-syntax.ts). Only those are kept, so a text without errors keeps none.
  const cst: CST.Token[] = [];
  let current: CST.Token | undefined;
  const composer = new Composer({ version, merge: true, uniqueKeys: false, logLevel: 'error', customTags: withBinaryAsText });
  // The composer reports through `onError`, which `yaml` does not expose; `yaml` is pinned to an
  // exact version, and test/unit/yaml-limits.test.ts fails if this stops working.
  const hook = composer as unknown as { onError: (source: unknown, code: string, message: string, warning?: boolean) => void };
  const report = hook.onError;
  hook.onError = (source, code, message, warning) => {
    if (!warning) errors++;
    if (!warning && current && cst[cst.length - 1] !== current) cst.push(current);
    if (errors <= maxErrors) report(source, code, message, warning);
    else if (!warning) droppedAt.push(errorOffset(source));
  };
  const docs: Array<Document.Parsed> = [];
  // A plain loop: the parser is a generator already, and another around it costs per token.
  for (const token of new Parser(lines.addNewLine).parse(text)) {
    if (token.type === 'error' && ++errors > maxErrors) {
      stopped = true;
      break;
    }
    current = token;
    for (const doc of composer.next(token)) docs.push(doc);
  }
  // When reading stopped, the errors so far may wait for a document that never came: force one to carry them.
  docs.push(...composer.end(stopped, text.length));
  return { docs, dropped: Math.max(0, errors - maxErrors), stopped, cst, droppedAt: droppedAt.sort((a, b) => a - b) };
}

/** Where an error `yaml`'s composer reports starts: an offset, a range, or a token. */
function errorOffset(source: unknown): number {
  if (typeof source === 'number') return source;
  if (Array.isArray(source)) return Number(source[0]);
  return Number((source as { offset?: unknown } | null)?.offset ?? 0);
}

/** Whether the sorted `offsets` hold one from `start` to `end`. */
function holdsOffset(offsets: readonly number[], start: number, end: number): boolean {
  let low = 0;
  let high = offsets.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((offsets[mid] as number) < start) low = mid + 1;
    else high = mid;
  }
  return low < offsets.length && (offsets[low] as number) <= end;
}

/** A node that `checkNodes` refuses, and why. */
interface NodeProblem {
  /**
   * A key seen before in its mapping, or one that is a collection (JSON keys are strings); an
   * alias inside the node of its own anchor (a cycle), or naming no anchor; an explicit tag that
   * changes a value's type (`tag` names it); a merge key `<<` without mappings to merge, or a
   * `!!merge` tag that is not on a key.
   */
  kind: 'duplicate' | 'sequence' | 'mapping' | 'empty-key' | 'cycle' | 'unresolved' | 'tag' | 'merge' | 'merge-tag' | 'surrogate';
  /** Where the node starts in the text. */
  offset: number;
  /** Where it ends. */
  end: number;
  /**
   * For `tag`: the tag's name when it is one of YAML's own (`!!bool`; any other tag is text the
   * user wrote on a value, and may be part of a secret), what it makes of the value, whether the
   * value is a collection, and whether the tag is on a key.
   */
  tag?: { name?: string; type: string; collection: boolean; onKey: boolean };
  /** Where the node is in the document: the keys (and list positions) from its root. */
  path: Array<string | number>;
}

type YamlVersion = '1.1' | '1.2';

/**
 * What `yaml` is not asked to check, in one walk without recursion (toJS and the render recurse,
 * so nesting is measured first): whether collections nest deeper than `maxDepth` (the walk stops
 * there), keys that appear twice in one mapping, keys that are sequences or mappings, aliases
 * that would make a cycle or name no anchor (toJS would build a circular value that every later
 * walk loops on, or throw), and explicit tags that change what a value is (`!!bool v1` is
 * `true`) or make a value no JSON holds (`!!timestamp`, `!!set`). Problems are passed to
 * `onProblem` in document order. Duplicates are found as `yaml`'s `uniqueKeys` finds them: scalar
 * keys with equal values (`===`; each merge key `<<` is a distinct symbol), never aliases or
 * collections.
 */
function checkNodes(root: Node | null, version: YamlVersion, onProblem: (problem: NodeProblem) => void): { tooDeep: boolean; nodeProblems: number } {
  let nodeProblems = 0;
  const found = (kind: NodeProblem['kind'], node: unknown, tag?: NodeProblem['tag']): void => {
    const range = (node as { range?: [number, number, number] } | null)?.range ?? [0, 0];
    nodeProblems++;
    onProblem({ kind, offset: range[0], end: range[1], ...(tag && { tag }), path: pathHere() });
  };
  /** The path of the item being visited: each open collection's current key or index (only made for a problem). */
  const pathHere = (): Array<string | number> =>
    stack.map((frame) => {
      const item = frame.items[frame.next - 1];
      if (!isPair(item)) return frame.next - 1;
      return isScalar(item.key) ? String(item.key.value) : isAlias(item.key) ? `*${item.key.source}` : '?';
    });
  // Anchors seen so far: the walk is in document order, so an alias names the last one before it.
  const anchors = new Map<string, unknown>();
  let emptyKeySeen = false;
  // Objects (a document's root, an item of a ResourceList) with a key twice: two objects run together.
  const duplicateObjects = new Set<unknown>();
  /** Whether the mapping walked is an object: a document's root, or an item of a ResourceList's `items`. */
  const objectLevel = (): boolean => stack.length === 1 || (stack.length === 3 && isSeq(stack[1]?.node) && pathHere()[0] === 'items');
  // The collections being walked: an alias to one of them is inside the node of its own anchor.
  const open = new Set<unknown>();
  // One frame per open collection, with the next item to visit.
  const stack: Array<{ node: unknown; items: unknown[]; next: number; depth: number; keys?: Set<unknown> }> = [];
  /** An alias as a value: it must name an anchor set before it, and not one of the collections around it. */
  const checkAlias = (alias: Node & { source: string }): void => {
    const target = anchors.get(alias.source);
    if (target === undefined) found('unresolved', alias);
    else if (open.has(target)) found('cycle', alias);
  };
  const enter = (node: unknown, depth: number): boolean => {
    if (isAlias(node)) {
      checkAlias(node);
      return true;
    }
    if (isNode(node) && node.anchor) anchors.set(node.anchor, node);
    const tag = tagProblem(node, version, false);
    if (tag) found('tag', node, tag);
    if (isScalar(node) && typeof node.value === 'symbol') found('merge-tag', node);
    if (isScalar(node) && typeof node.value === 'string' && loneSurrogate.test(node.value)) found('surrogate', node);
    // An integer beyond 2^53 is read as written, not rounded (B1).
    if (isScalar(node) && typeof node.value === 'number' && node.type === Scalar.PLAIN && typeof node.source === 'string')
      node.value = exactInteger(node.value, node.source);
    if (!isMap(node) && !isSeq(node)) return true;
    if (depth > maxDepth) return false;
    stack.push({ node, items: node.items as unknown[], next: 0, depth, keys: isMap(node) ? new Set() : undefined });
    open.add(node);
    return true;
  };
  if (!enter(root, 1)) return { tooDeep: true, nodeProblems };
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as (typeof stack)[number];
    if (frame.next === frame.items.length) {
      stack.pop();
      open.delete(frame.node);
      continue;
    }
    const item = frame.items[frame.next++];
    if (!isPair(item)) {
      if (!enter(item, frame.depth + 1)) return { tooDeep: true, nodeProblems };
      continue;
    }
    // Keys are not walked: a scalar or an alias has nothing under it, and a collection key is
    // reported as a whole (one problem per key).
    const key = item.key;
    const target = isAlias(key) ? anchors.get(key.source) : key;
    // No key at all (`a: [x]: y` reads as `{a: [x], "": y}` in `yaml`, which PyYAML and Go refuse;
    // `: y`): an empty key is no name Kubernetes or the server reads. At the value, the key having no place.
    if (key === null || (isScalar(key) && key.value === null && !key.source)) {
      // One per document: keyless values come from one mistake in how the text is laid out.
      if (!emptyKeySeen) found('empty-key', isNode(item.value) ? item.value : key);
      emptyKeySeen = true;
    }
    else if (isAlias(key) && target === undefined) found('unresolved', key);
    else if (isMap(target) || isSeq(target)) found(isMap(target) ? 'mapping' : 'sequence', key);
    else if (isScalar(key)) {
      if (key.anchor) anchors.set(key.anchor, key);
      if (typeof key.value === 'number' && key.type === Scalar.PLAIN && typeof key.source === 'string') exactKey(key as Scalar & { source: string });
      if (typeof key.value === 'string' && loneSurrogate.test(key.value)) found('surrogate', key);
      const tag = tagProblem(key, version, true);
      if (tag) found('tag', key, tag);
      // A merge key (`<<` in YAML 1.1, `!!merge <<`) takes mappings only; toJS throws on anything else.
      if (typeof key.value === 'symbol' && !mergeable(item.value, anchors)) found('merge', key);
      // NaN is not `===` to itself, so yaml never took `.nan` keys for duplicates; a Set would.
      if (frame.keys && !Number.isNaN(key.value)) {
        if (!frame.keys.has(key.value)) frame.keys.add(key.value);
        // Keys twice at the top of a document are mostly two documents without `---` between
        // them: said once, at the first (the keys after it follow from it).
        else if (!objectLevel()) found('duplicate', key);
        else if (!duplicateObjects.has(frame.node)) {
          duplicateObjects.add(frame.node);
          found('duplicate', key);
        } else nodeProblems++;
      }
    }
    if (!enter(item.value, frame.depth + 1)) return { tooDeep: true, nodeProblems };
  }
  return { tooDeep: false, nodeProblems };
}

/** Number keys read as text (exactKey): written back as their source, as other number scalars are (prepareForOutput). */
const keysAsText = new WeakSet<Node>();

/**
 * A number key a JavaScript number would round (`0x20000000000001`, `9007199254740993.0`) or
 * change (`-0`): as an object's keys are text, it becomes the text of its value, the decimal
 * digits of an integer (as Kubernetes' YAML reader writes an integer key) or a float as written.
 */
function exactKey(key: Scalar & { source: string }): void {
  const exact = exactInteger(key.value, key.source);
  if (exact === key.value) return;
  key.value = exact instanceof Verbatim ? (/^-?[0-9]+$/.test(exact.text) ? exact.text : key.source) : String(exact);
  keysAsText.add(key);
}

/** Half of a UTF-16 surrogate pair alone (in `u` mode a pair is one code point, so only a lone half matches). */
const loneSurrogate = /\p{Cs}/u;

/** What a merge key may merge: a mapping, an alias of one, or a sequence of those. */
function mergeable(value: unknown, anchors: ReadonlyMap<string, unknown>): boolean {
  const isMapping = (node: unknown): boolean => isMap(isAlias(node) ? anchors.get(node.source) : node);
  return isMapping(value) || (isSeq(value) && value.items.every(isMapping));
}

const yamlTag = 'tag:yaml.org,2002:';
/** Tags that keep a value what it is: text stays text, `!!binary` is read as its base64 text, and collections keep their kind. */
const harmlessTags = new Set(['str', 'binary', 'map', 'seq', 'merge'].map((name) => yamlTag + name));

/**
 * An explicit tag that makes a value other than what its text says (`!!bool v1` is `true`,
 * `!!int "7"` is 7, `!foo 5` is "5"), or a value no JSON holds (`!!timestamp`, `!!set`, `!!omap`,
 * `!!pairs`): what the tag is and what it makes of the value.
 */
function tagProblem(node: unknown, version: YamlVersion, onKey: boolean): NodeProblem['tag'] | undefined {
  if (!isNode(node) || !node.tag || harmlessTags.has(node.tag)) return undefined;
  const name = node.tag.startsWith(yamlTag) ? node.tag.slice(yamlTag.length) : undefined;
  let type: string | undefined;
  if (isScalar(node)) {
    const untagged = node.type === Scalar.PLAIN && typeof node.source === 'string' ? typeName(resolveUntagged(node.source, version)) : 'text';
    // A core tag on text it does not match is left unresolved by `yaml` (`!!bool v1` reads as
    // "v1"), but written back resolved (`true`): the value read and the value written differ.
    const expected = name === undefined ? undefined : scalarTagTypes[name];
    const tagged = typeName(node.value);
    if (tagged !== untagged || (expected !== undefined && expected !== tagged)) type = expected ?? tagged;
  } else if (name !== undefined) {
    type = collectionTagTypes[name] ?? 'a collection of a kind JSON does not have';
  }
  if (type === undefined) return undefined;
  // Only YAML's own tags are named: any other is text the user wrote (`token: !Xy9secret` is a tag).
  const known = name !== undefined && (name in scalarTagTypes || name in collectionTagTypes);
  return { ...(known && { name: `!!${name}` }), type, collection: !isScalar(node), onKey };
}

/** What the core tags make of a scalar. */
const scalarTagTypes: Readonly<Record<string, string>> = { bool: 'a boolean', int: 'a number', float: 'a number', null: 'null', timestamp: 'a date' };
/** What the other YAML collection tags make of a collection. */
const collectionTagTypes: Readonly<Record<string, string>> = { set: 'a set', omap: 'an ordered map', pairs: 'a list of pairs' };

const typeName = (value: unknown): string => {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return 'text';
  if (typeof value === 'number' || typeof value === 'bigint') return 'a number';
  if (typeof value === 'boolean') return 'a boolean';
  if (value instanceof Date) return 'a date';
  return 'a value JSON cannot hold';
};

/** The scalar tags a plain scalar is resolved by in each YAML version, in the order `yaml` tries them. */
const plainTags = new Map<YamlVersion, ScalarTag[]>();

/** A plain scalar's value without a tag, as `yaml` resolves it. */
function resolveUntagged(text: string, version: YamlVersion): unknown {
  let tags = plainTags.get(version);
  if (!tags) plainTags.set(version, (tags = (new Document(null, { version }).schema.tags as ScalarTag[]).filter((tag) => tag.default === true && tag.test)));
  for (const tag of tags) {
    if (!tag.test?.test(text)) continue;
    const resolved = tag.resolve(text, () => undefined, { intAsBigInt: false });
    return isScalar(resolved) ? resolved.value : resolved;
  }
  return text;
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
      if (n.tag === binaryAsText.tag) {
        // Base64 on one line, however it was split: Kubernetes reads it so.
        delete n.tag;
        if (isScalar(n)) delete n.type;
      }
      if (isScalar(n) && n.type === Scalar.PLAIN && typeof n.source === 'string' && (typeof n.value !== 'string' || keysAsText.has(n))) {
        n.value = new Verbatim(n.source);
        delete n.format;
        // A tag here means what the plain text means (checkNodes refuses one that does not), and
        // the verbatim writer must write it: `!!int 7` is written `7`.
        delete n.tag;
      }
      escapeScalarForReaders(n);
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
  return escapedDocument(value, writeOptions).toString(toStringOptions);
}

/** A Document of plain values, its strings escaped for other readers (escapeScalarForReaders). */
function escapedDocument(value: unknown, options: typeof writeOptions): Document {
  const doc = new Document(value, options);
  visit(doc, { Scalar: (_key, node) => escapeScalarForReaders(node) });
  return doc;
}

const writeOptions = { customTags: [verbatimTag], compat: 'yaml-1.1' as const, version: '1.2' as const, aliasDuplicateObjects: false };
let nodeWriter: Document | undefined;

/** Serialises a plain value as YAML for a YAML 1.1 reader (llama-stack reads its config with PyYAML). */
export function stringifyPlainYaml(value: unknown): string {
  const fast = emitPlainYaml(value);
  if (fast !== undefined) return fast;
  return escapedDocument(value, writeOptions).toString(toStringOptions);
}

/** Parses a llama-stack config file as the server does: YAML 1.1 (PyYAML), single document. */
export function parseYaml11(text: string): { value: unknown; problem?: YamlProblem } {
  const binary = notText(text);
  if (binary) return { value: undefined, problem: binary };
  const lines = new LineCounter();
  const { docs, cst } = composeDocuments(text, lines, '1.1');
  const first = docs[0];
  const cause = first && explainSyntaxErrors(first.errors, { text, lines, cst }, describeError)[0];
  if (cause) return { value: undefined, problem: { message: withColumn(cause.message, cause.col), line: cause.line } };
  let problem: NodeProblem | undefined;
  const { tooDeep } = checkNodes((first?.contents as Node | null) ?? null, '1.1', (found) => (problem ??= found));
  if (problem) return { value: undefined, problem: nodeProblem(problem, text, lines, false) };
  if (docs.length > 1) return { value: undefined, problem: { message: 'must hold a single YAML document' } };
  if (tooDeep) return { value: undefined, problem: { message: `nests collections more than ${maxDepth} levels deep` } };
  try {
    return { value: first ? first.toJS({ maxAliasCount }) : null };
  } catch (error) {
    return { value: undefined, problem: { message: toJsProblem(error) } };
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
      best = rangeLine(pair.key, lines) ?? best;
      node = pair.value;
    } else if (isSeq(node) && typeof segment === 'number') {
      node = node.items[segment];
      best = rangeLine(node, lines) ?? best;
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

/**
 * A message with its column at the end (so that results sort by what they say). Nesting is too
 * deep where a collection opens, not at one column.
 */
function withColumn(message: string, col: number): string {
  return message === tooDeepMessage ? message : `${message} (column ${col})`;
}

/**
 * An error no rule of yaml-syntax.ts explains from the text around it: in words of our own by
 * its code and message (plainYamlMessage), never `yaml`'s, which may be cut short or end in the
 * input (a secret). A stack overflow deep in the parser is nesting too deep; our own message for
 * `!!binary` reaches here as a tag error and is kept.
 */
function describeError(error: YamlError): string {
  if (/Maximum call stack size exceeded/.test(error.message) || error.code === 'RESOURCE_EXHAUSTION') return tooDeepMessage;
  if (error.message === binaryNotBase64) return binaryNotBase64;
  return plainYamlMessage(error);
}


/** `stream`: the text may hold several documents (a `---` may be missing between two). */
function nodeProblem(problem: NodeProblem, text: string, lines: LineCounter, stream: boolean): YamlProblem {
  const { line, col } = lines.linePos(problem.kind === 'tag' ? tagOffset(text, problem.offset) : problem.offset);
  const at = (message: string): YamlProblem => ({ message: `${message} (column ${col})`, line });
  switch (problem.kind) {
    case 'duplicate':
      return duplicateKey(problem, text, lines, stream);
    case 'sequence':
    case 'mapping':
      // Not quoted: a collection key holds values, and those may be secrets.
      return at(`this key is a ${problem.kind}; a mapping key must be a string or a number (quote the key to keep it as text)`);
    case 'empty-key':
      return at(
        'this value has no key before its `:`: if the text before the `:` belongs to one value (as in `a: [x]: y`), quote that whole value; else write the key',
      );
    case 'cycle':
      return at('this alias (`*`) is inside the node its anchor (`&`) names, so the value would contain itself without end; write the value out instead');
    case 'unresolved':
      return at(
        'this alias (`*`) names no anchor (`&`) set before it in this document; quote the value if the `*` is part of the text, or set the anchor first',
      );
    case 'merge':
      return at('a merge key `<<` must be followed by a mapping, an alias of one, or a list of them');
    case 'surrogate': {
      // An escape such as "\ud800" (YAML or JSON) with no partner: no character, so no UTF-8 can carry it (it became U+FFFD).
      const field = problem.path.length > 0 ? `\`${pathText(problem.path)}\`` : 'this value';
      return at(
        `${field} holds an unpaired surrogate escape (such as \`\\ud800\` without the \`\\udc00\`-like half after it), which is no character and cannot ` +
          'be written as UTF-8; write the character itself, or escape it whole (`\\U0001F600` in YAML, `\\ud83d\\ude00` in JSON)',
      );
    }
    case 'merge-tag':
      return at('the tag !!merge belongs on a `<<` key only; remove it, or quote the value');
    case 'tag': {
      const tag = problem.tag ?? { type: 'another type', collection: false, onKey: false };
      const field = problem.path.length > 0 ? `\`${pathText(problem.path)}\`` : 'the document';
      const what = tag.onKey ? `the key ${field}` : problem.path.length > 0 ? `the value of ${field}` : field;
      if (tag.collection && tag.name)
        return at(`the tag ${tag.name} makes ${what} ${tag.type}, which JSON and Kubernetes objects cannot hold; remove the tag`);
      if (tag.collection) return at(`${what} has a tag (\`!\` and a name, not repeated here) that makes it ${tag.type}; remove the tag`);
      if (tag.name)
        return at(`the tag ${tag.name} makes ${what} ${tag.type}, not what its text says; remove the tag, and quote the value if it is meant as text`);
      // The tag is not repeated: it is part of what the user wrote on the value, which may be a secret.
      return at(
        `${what} starts with \`!\`, which YAML reads as a tag (not repeated here: it may be part of a secret) that makes it ${tag.type}, not what its text ` +
          `says; if the \`!\` is part of the text, quote the whole ${tag.onKey ? 'key' : 'value'} ('!…' or "!…"), else remove the tag`,
      );
    }
  }
}

/** A field path for a message, as results write it (`spec.providers[0].id`), each key clipped: keys are names, but may be long. */
function pathText(path: ReadonlyArray<string | number>): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_-]{0,59}$/.test(segment)) out += out ? `.${segment}` : segment;
    else out += `[${quotedKey(segment.length > 60 ? `${segment.slice(0, 57)}...` : segment)}]`;
  }
  return out;
}

/** Where the tag of a value at `offset` starts, when it is on the value's line (a node's range starts at its value). */
function tagOffset(text: string, offset: number): number {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const before = text.slice(lineStart, offset);
  const tag = /!\S*\s*$/.exec(before);
  return tag ? lineStart + tag.index : offset;
}
