// Reading and writing a `config.kubernetes.io/v1` ResourceList (docs/results.md). Our own small
// reader/writer: items keep their order, annotations and values; nothing is deduplicated.
import { clip } from '../lib/quote.js';
import { isAlias, isMap, isNode, isPair, isScalar, isSeq, visit, type Node, type YAMLMap } from 'yaml';
import { annotation, isKrmObject, kptOrigin, type InputItem, type KrmObject } from './item.js';
import { toWire, type Result } from './result.js';
import { readBlockYaml, type BlockDocument } from './block-yaml.js';
import { maxDepth, prepareForOutput, parseYamlStream, stringifyYaml } from './yaml.js';

export const resourceListApiVersions = ['config.kubernetes.io/v1', 'config.kubernetes.io/v1beta1'] as const;

export interface ResourceListInput {
  items: InputItem[];
  functionConfig?: InputItem;
  /** Problems with the list itself; when there is an error here, `items` is empty. */
  results: Result[];
}

/** Output items: a parsed node we pass through as written (or its text), or an object we generated. */
export type OutputItem = Node | KrmObject | Written | Prepared;

/** A document read for output and already written (`build` keeps read objects so, not as nodes). */
export class Prepared {
  constructor(
    readonly object: KrmObject,
    readonly yaml: string,
  ) {}
}

/**
 * Where the command line keeps generated objects written as YAML until it knows there is no error
 * anywhere: `put` returns a handle, `get` the text again. It keeps them in a temporary file
 * (src/cli/output-store.ts), written as each item is rendered (src/cli/render.ts), so the output of
 * 10,000 LLSDs does not stay in memory; the core (src/process.ts) renders as if there were none.
 */
export interface OutputStore {
  put(text: string): number;
  get(handle: number): string;
}

/** The texts in memory: for tests, and where no temporary file can be made. */
export class MemoryStore implements OutputStore {
  private readonly texts: string[] = [];
  put(text: string): number {
    return this.texts.push(text) - 1;
  }
  get(handle: number): string {
    return this.texts[handle] as string;
  }
}

/**
 * A generated object already written as YAML (in an OutputStore). It keeps only what is needed to
 * place it (kind, name, namespace, owner annotation), as strings: 10,000 LLSDs make 40,000 of them.
 */
export class Written {
  private readonly handle: number;
  private readonly apiVersion: string;
  private readonly kind: string;
  private readonly name: string;
  private readonly namespace: string | undefined;
  private readonly owner: string | undefined;

  constructor(
    object: KrmObject,
    private readonly store: OutputStore,
  ) {
    this.handle = store.put(stringifyYaml(object));
    this.apiVersion = object.apiVersion;
    this.kind = object.kind;
    this.name = object.metadata.name;
    this.namespace = object.metadata.namespace;
    this.owner = object.metadata.annotations?.[annotation.generatedFrom];
  }

  /** The object's identity: apiVersion, kind, name, namespace and the owner annotation. */
  get object(): KrmObject {
    const { apiVersion, kind, name, namespace, owner } = this;
    const annotations = owner !== undefined && { annotations: { [annotation.generatedFrom]: owner } };
    return { apiVersion, kind, metadata: { name, ...(namespace !== undefined && { namespace }), ...annotations } };
  }

  get yaml(): string {
    return this.store.get(this.handle);
  }
}

/** The object an output item stands for (for a `Written` one, its identity). */
export const objectOf = (item: KrmObject | Written | Prepared): KrmObject => (item instanceof Written || item instanceof Prepared ? item.object : item);

const notAList = (message: string): ResourceListInput => ({
  items: [],
  results: [{ severity: 'error', message }],
});

/**
 * `rendered`: whether an item is one the caller renders (front-ends.ts `isRenderedObject`, given by
 * the edge: this layer is below the front ends); such an item keeps its node for its messages.
 */
export function readResourceList(text: string, rendered: (object: KrmObject) => boolean): ResourceListInput {
  if (text.trim() === '') {
    return notAList('stdin is empty: a KRM function reads a ResourceList on stdin; to render files, run `llsd-render build PATH`');
  }
  return readItemByItem(text, rendered) ?? readWholeList(text);
}

/**
 * The list parsed whole: what `readResourceList` falls back to, and the reference its item-by-item
 * reading must equal (exported for that test).
 */
export function readWholeList(text: string): ResourceListInput {
  const { documents, problems } = parseYamlStream(text);
  if (problems.length > 0) {
    return {
      items: [],
      results: problems.map((p) => ({
        severity: 'error' as const,
        message: `stdin is not valid YAML${p.line ? ` (line ${p.line})` : ''}: ${p.message}`,
        // Not printed (stdin has no file), but it sorts the results by position.
        ...(p.line !== undefined && { line: p.line }),
      })),
    };
  }
  const nonEmpty = documents.filter((d) => d.node !== null);
  const first = nonEmpty[0];
  if (nonEmpty.length !== 1 || !first || !isMap(first.node)) {
    return notAList(
      'stdin must hold one ResourceList (apiVersion: config.kubernetes.io/v1, kind: ResourceList); to render YAML files, run `llsd-render build PATH`',
    );
  }
  const root = first.node;
  const plain = first.value as Record<string, unknown>;
  if (plain.kind !== 'ResourceList' || !resourceListApiVersions.includes(plain.apiVersion as never)) {
    return notAList(
      `stdin must hold a ResourceList (apiVersion: config.kubernetes.io/v1, kind: ResourceList), not ${describeKind(plain)}; ` +
        'to render YAML files, run `llsd-render build PATH`',
    );
  }
  const results: Result[] = [];
  expandForeignAliases(root);
  const itemsNode = root.get('items', true) as Node | undefined;
  const items: InputItem[] = [];
  if (itemsNode !== undefined && itemsNode !== null && !(Array.isArray(plain.items) || plain.items === null)) {
    results.push({ severity: 'error', message: 'must be a list of Kubernetes objects', field: { path: 'items' } });
  }
  const itemNodes = (itemsNode as { items?: Node[] } | undefined)?.items ?? [];
  const plainItems = Array.isArray(plain.items) ? plain.items : [];
  // Items that are no object: the first few named, the rest counted (a list of 1,000,000 `- a`
  // made a result each, and writing them took most of a minute).
  let notObjects = 0;
  itemNodes.forEach((node, i) => {
    const object = plainItems[i];
    if (!isKrmObject(object) || !isMap(node)) {
      if (notObjects++ < maxNamedItems) results.push(notAnObject(i));
      return;
    }
    prepareForOutput(node);
    items.push({ node, object, origin: kptOrigin(object) });
  });
  if (notObjects > maxNamedItems) results.push(moreNotObjects(notObjects));
  let functionConfig: InputItem | undefined;
  const fcNode = root.get('functionConfig', true) as Node | undefined;
  if (plain.functionConfig !== undefined && plain.functionConfig !== null) {
    if (!isKrmObject(plain.functionConfig) || !fcNode) {
      results.push({
        severity: 'error',
        message: 'must be a Kubernetes object with string `apiVersion`, `kind` and `metadata.name`',
        field: { path: 'functionConfig' },
      });
    } else {
      prepareForOutput(fcNode);
      functionConfig = { node: fcNode, object: plain.functionConfig, origin: kptOrigin(plain.functionConfig) };
    }
  }
  if (results.length > 0) return { items: [], results };
  return functionConfig ? { items, functionConfig, results } : { items, results };
}

/**
 * The list read one item at a time, or undefined: then it is read whole. Parsed whole, a list of
 * 10,000 LLSDs is one YAML document whose syntax tree (every token of 13.5 MB) and node tree
 * exist at once: 760 MB. Item by item, only one item's syntax tree is alive at a time. Only a
 * list in the shape kpt and kustomize write (splitAtItems) that reads without any problem takes
 * this way: anything else, an alias to another item's anchor included, is read whole, so every
 * message and every value stays what the whole reading gives. Exported for its tests.
 */
export function readItemByItem(text: string, rendered: (object: KrmObject) => boolean): ResourceListInput | undefined {
  const split = splitAtItems(text);
  if (!split) return undefined;
  const header = soleMap(split.header);
  if (!header) return undefined;
  const plain = header.value;
  const itemsKey = header.node.get('items', true);
  if (plain.kind !== 'ResourceList' || !resourceListApiVersions.includes(plain.apiVersion as never)) return undefined;
  if (!isScalar(itemsKey) || itemsKey.value !== null || itemsKey.anchor || itemsKey.tag) return undefined;
  const items: InputItem[] = [];
  const results: Result[] = [];
  let notObjects = 0;
  for (const [i, entry] of split.items.entries()) {
    // Most items are plain objects passed through: read without `yaml`, which costs ten times more.
    const block = blockItem(entry, rendered);
    if (block !== undefined && block !== 'not an object') {
      items.push(block);
      continue;
    }
    const item = block === undefined ? soleMap(entry) : undefined;
    if (block === 'not an object' || (item && !isKrmObject(item.value))) {
      if (notObjects++ < maxNamedItems) results.push(notAnObject(i));
      continue;
    }
    // The list's root and `items` are two levels above an item: the depth limit counts them.
    if (!item || !isKrmObject(item.value) || depthOf(item.node) > maxItemDepth) return undefined;
    prepareForOutput(item.node);
    items.push({ node: item.node, object: item.value, origin: kptOrigin(item.value) });
  }
  // Items that are no object are said as the whole reading says them (each item read without a
  // problem, so the whole list has none either).
  if (notObjects > maxNamedItems) results.push(moreNotObjects(notObjects));
  const fcNode = header.node.get('functionConfig', true) as Node | undefined;
  if (plain.functionConfig === undefined || plain.functionConfig === null) return { items, results };
  if (!isKrmObject(plain.functionConfig) || !fcNode) return undefined;
  prepareForOutput(fcNode);
  return { items, functionConfig: { node: fcNode, object: plain.functionConfig, origin: kptOrigin(plain.functionConfig) }, results };
}

/** The one mapping a text holds, read without any problem, or undefined. */
function soleMap(text: string): { node: YAMLMap; value: Record<string, unknown> } | undefined {
  const { documents, problems } = parseYamlStream(text);
  const first = documents[0];
  if (problems.length > 0 || documents.length !== 1 || !first || !isMap(first.node)) return undefined;
  return { node: first.node, value: first.value as Record<string, unknown> };
}

/** How many items that are no Kubernetes object are named, each in a result of its own. */
const maxNamedItems = 10;
const notAnObject = (i: number): Result => ({
  severity: 'error',
  message: 'must be a Kubernetes object with string `apiVersion`, `kind` and `metadata.name`',
  field: { path: `items[${i}]` },
});
const moreNotObjects = (count: number): Result => ({
  severity: 'error',
  message: `and ${(count - maxNamedItems).toLocaleString('en-US')} more items are not Kubernetes objects either; each must have string \`apiVersion\`, ` +
    '`kind` and `metadata.name`',
  field: { path: 'items' },
});

/**
 * An item read without `yaml` (block-yaml.ts), when it is in that reader's subset: a Kubernetes
 * object that is passed through, with its text for output and no node (KRM mode drops the node
 * of such an item anyway), or `'not an object'`. Undefined: `yaml` reads it.
 */
function blockItem(text: string, rendered: (object: KrmObject) => boolean): InputItem | 'not an object' | undefined {
  // A word alone (`- a`), which that reader leaves to `yaml`: no YAML syntax, no object.
  if (/^ *[A-Za-z0-9_./-]+ *\n?$/.test(text)) return 'not an object';
  const documents = readBlockYaml(text);
  if (!documents || documents.length !== 1) return undefined;
  const [document] = documents as [BlockDocument];
  if (!isKrmObject(document.value)) return 'not an object';
  const object: KrmObject = document.value;
  if (rendered(object)) return undefined;
  const output = document.output();
  if (output === undefined) return undefined;
  return {
    object,
    origin: kptOrigin(object),
    output,
    get node(): never {
      throw new Error(`internal: ${object.kind} "${object.metadata.name}" was read without a node (KRM mode writes its text)`);
    },
  };
}

/** parseYamlStream refuses collections nested deeper than maxDepth levels; an item is at level 3 of the list. */
const maxItemDepth = maxDepth - 2;

/** How deep collections nest in a node (an alias counts as a scalar: its anchor was counted where it is). */
function depthOf(root: Node): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[root, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (isPair(node)) {
      stack.push([node.key, depth], [node.value, depth]);
      continue;
    }
    if (!isMap(node) && !isSeq(node)) continue;
    if (depth > deepest) deepest = depth;
    for (const child of node.items) stack.push([child, depth + 1]);
  }
  return deepest;
}

/**
 * A ResourceList as kpt and kustomize write it, cut into the text around `items` (with `items:`
 * left empty) and the text of each item, or undefined for any other shape. The shape: block
 * style; every line at column 0 outside the items is a plain key or a comment; `items:` alone on
 * its line; each item a `- ` entry at one column, every other line of it (but empty ones) at
 * least two columns further in. An item keeps its columns (its `-` becomes a space), so its
 * scalars read exactly as they do in the whole list; the items end at the next line at column 0.
 */
export function splitAtItems(text: string): { header: string; items: string[] } | undefined {
  if (text.includes('\r')) return undefined;
  const header: string[] = [];
  const items: string[] = [];
  let entry: string[] | undefined;
  /** Where the reading is: before `items:`, in the items (at column `column` once the first entry is seen), after them. */
  let state: 'before' | 'items' | 'after' = 'before';
  let column = -1;
  const endEntry = (): void => {
    if (entry) items.push(entry.join(''));
    entry = undefined;
  };
  for (let start = 0; start < text.length; ) {
    const end = text.indexOf('\n', start);
    const line = end < 0 ? text.slice(start) : text.slice(start, end + 1);
    start = end < 0 ? text.length : end + 1;
    const indent = line.length - line.trimStart().length;
    const blank = line.trim() === '';
    if (state === 'items') {
      if (blank) {
        // Before the first item an empty line belongs to nothing; in an item it may be part of a block scalar.
        entry?.push(line);
        continue;
      }
      const isEntry = line[indent] === '-' && [' ', '\n', undefined].includes(line[indent + 1]);
      if (column < 0 && isEntry) column = indent;
      if (isEntry && indent === column) {
        endEntry();
        entry = [`${line.slice(0, indent)} ${line.slice(indent + 1)}`];
        continue;
      }
      if (entry && indent >= column + 2) {
        entry.push(line);
        continue;
      }
      if (indent !== 0 || !entry) return undefined;
      endEntry();
      state = 'after';
    }
    if (!blank && indent === 0 && !/^(#|[A-Za-z_][A-Za-z0-9_.-]*:( |\n|$))/.test(line)) return undefined;
    if (/^items:/.test(line)) {
      if (state !== 'before' || !/^items: *\n?$/.test(line)) return undefined;
      state = 'items';
    }
    header.push(line);
  }
  endEntry();
  return items.length === 0 ? undefined : { header: header.join(''), items };
}

/** An output item as YAML: text kept since it was written as it is, a node or an object written now. */
const yamlOf = (item: OutputItem): string => (item instanceof Written || item instanceof Prepared ? item.yaml : stringifyYaml(item));

/**
 * The ResourceList as `yaml` writes it whole, but written item by item: an item we pass through is
 * a `yaml` node, and a list holding one would send every generated object through `yaml`'s slow
 * writer too. Nested in `items`, an item's text is its own text shifted four columns, the first
 * line behind `  - ` (empty lines stay empty, as `yaml` writes them in block scalars). Read items
 * were prepared for output when they were read.
 */
export function writeResourceList(items: readonly OutputItem[], results: readonly Result[]): string {
  return [...resourceListChunks(items, results)].join('');
}

/**
 * The ResourceList a part at a time (about 64 kB each), so that the edge can write a large list
 * without holding it whole: the list of 10,000 LLSDs is 200 MB of text, and the text, the parts
 * it was joined from and the buffer made to write it were most of KRM mode's memory.
 */
export function* resourceListChunks(items: readonly OutputItem[], results: readonly Result[]): Generator<string> {
  let chunk = 'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n';
  if (items.length === 0) chunk += 'items: []\n';
  else {
    chunk += 'items:\n';
    for (const item of items) {
      const text = yamlOf(item);
      chunk += `  - ${text.slice(0, -1).replace(/\n(?=[^\n])/g, '\n    ')}\n`;
      if (chunk.length >= chunkSize) {
        yield chunk;
        chunk = '';
      }
    }
  }
  if (results.length > 0) chunk += stringifyYaml({ results: results.map(toWire) });
  yield chunk;
}

const chunkSize = 64 * 1024;

/** A plain multi-document stream, for `build` and for what Argo CD or Flux apply. */
export function writeStream(items: readonly OutputItem[]): string {
  return [...streamDocuments(items)].join('');
}

/** The documents of a multi-document stream one at a time (`---` between them), so a large output need not be held whole. */
export function* streamDocuments(items: readonly OutputItem[]): Generator<string> {
  let first = true;
  for (const item of items) {
    // Read nodes are prepared here, not when read: most of what `build` reads is never written.
    if (isNode(item)) prepareForOutput(item);
    const text = yamlOf(item);
    yield first ? text : `---\n${text}`;
    first = false;
  }
}

function describeKind(value: Record<string, unknown>): string {
  const kind = typeof value.kind === 'string' ? value.kind : undefined;
  const apiVersion = typeof value.apiVersion === 'string' ? value.apiVersion : undefined;
  if (!kind && !apiVersion) return 'a document without apiVersion and kind';
  return `${apiVersion === undefined ? '(no apiVersion)' : clip(apiVersion)} ${kind === undefined ? '(no kind)' : clip(kind)}`;
}

/**
 * Replaces each alias that names an anchor in another item (or elsewhere in the list) with a copy
 * of the anchored value. Every item is written on its own, and kpt writes each to its own file, so
 * an alias must find its anchor inside its item; aliases within one item stay as written. Aliases
 * are bounded (parseYamlStream refuses an alias bomb or a cycle), so the copies are too.
 */
function expandForeignAliases(root: Node): void {
  if (!isMap(root)) return;
  // The last anchor of each name so far, in document order, wherever it is.
  const anchors = new Map<string, Node>();
  const expand = (unit: unknown): void => {
    if (!isNode(unit)) return;
    const local = new Set<string>();
    visit(unit, {
      Alias(_key, alias) {
        const target = anchors.get(alias.source);
        if (local.has(alias.source) || !target) return undefined;
        const copy = target.clone() as Node;
        delete copy.anchor;
        return copy;
      },
      Node(_key, node) {
        if (isAlias(node) || !node.anchor) return;
        anchors.set(node.anchor, node);
        local.add(node.anchor);
      },
    });
  };
  // A unit that is itself an alias (`- *cm`: a whole item, or `functionConfig: *fc`) has no parent
  // for visit to replace it in: it becomes the copy here.
  const resolved = (unit: unknown): unknown => {
    if (!isAlias(unit)) {
      expand(unit);
      return unit;
    }
    const target = anchors.get(unit.source);
    if (!target) return unit;
    const copy = target.clone() as Node;
    delete copy.anchor;
    return copy;
  };
  for (const pair of root.items) {
    if (!isPair(pair)) continue;
    expand(pair.key);
    if (isScalar(pair.key) && pair.key.value === 'items' && isSeq(pair.value)) pair.value.items = pair.value.items.map(resolved);
    else pair.value = resolved(pair.value) as typeof pair.value;
  }
}
