// Reading and writing a `config.kubernetes.io/v1` ResourceList (DESIGN §3). Our own small
// reader/writer: items keep their order, annotations and values; nothing is deduplicated.
import { clip } from '../lib/quote.js';
import { isAlias, isMap, isNode, isPair, isScalar, isSeq, visit, type Node } from 'yaml';
import { annotation, isKrmObject, kptOrigin, type InputItem, type KrmObject } from './item.js';
import { toWire, type Result } from './result.js';
import { prepareForOutput, parseYamlStream, stringifyYaml } from './yaml.js';

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
 * Where `build` keeps generated objects written as YAML until it knows there is no error anywhere:
 * `put` returns a handle, `get` the text again. The command line keeps them in a temporary file
 * (src/cli/output-store.ts), so the output of 10,000 LLSDs does not stay in memory; the pure core
 * only sees this interface.
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
    return { apiVersion, kind, metadata: { name, ...(namespace !== undefined && { namespace }), ...(owner !== undefined && { annotations: { [annotation.generatedFrom]: owner } }) } };
  }

  get yaml(): string {
    return this.store.get(this.handle);
  }
}

const notAList = (message: string): ResourceListInput => ({
  items: [],
  results: [{ severity: 'error', message }],
});

export function readResourceList(text: string): ResourceListInput {
  if (text.trim() === '') {
    return notAList('stdin is empty: a KRM function reads a ResourceList on stdin; to render files, run `llsd-render build PATH`');
  }
  const { documents, problems } = parseYamlStream(text);
  if (problems.length > 0) {
    return {
      items: [],
      results: problems.map((p) => ({
        severity: 'error' as const,
        message: `stdin is not valid YAML${p.line ? ` (line ${p.line})` : ''}: ${p.message}`,
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
      `stdin must hold a ResourceList (apiVersion: config.kubernetes.io/v1, kind: ResourceList), not ${describeKind(plain)}; to render YAML files, run \`llsd-render build PATH\``,
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
  itemNodes.forEach((node, i) => {
    const object = plainItems[i];
    if (!isKrmObject(object) || !isMap(node)) {
      results.push({
        severity: 'error',
        message: 'must be a Kubernetes object with string `apiVersion`, `kind` and `metadata.name`',
        field: { path: `items[${i}]` },
      });
      return;
    }
    prepareForOutput(node);
    items.push({ node, object, origin: kptOrigin(object) });
  });
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
  for (const pair of root.items) {
    if (!isPair(pair)) continue;
    expand(pair.key);
    if (isScalar(pair.key) && pair.key.value === 'items' && isSeq(pair.value)) pair.value.items.forEach(expand);
    else expand(pair.value);
  }
}
