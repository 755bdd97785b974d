// Seeded mutations of the example inputs for the fuzz test (test/fuzz/mutation.test.ts). A case is
// made from (seed, index) alone, so any failing case can be made again from the two numbers. Each
// case is one mutated set of documents, written both as a ResourceList (KRM mode) and as a stream
// of YAML documents (build mode); marker secrets (`s3cr3t-…`) are planted in Secrets and in the
// credential fields of LLSDs, and the test checks that none of them leaks.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Document, isAlias, isMap, isPair, isScalar, isSeq, Pair, parseAllDocuments, Scalar, visit, YAMLMap, YAMLSeq, type Node } from 'yaml';

// ---------------------------------------------------------------------------------------------
// PRNG: mulberry32, small and the same on every platform (Math.random is not seedable).

export interface Rng {
  next: () => number;
  int: (n: number) => number;
  pick: <T>(list: readonly T[]) => T;
  chance: (p: number) => boolean;
}

export function rng(seed: number): Rng {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number): number => Math.floor(next() * n);
  return { next, int, pick: (list) => list[int(list.length)] as never, chance: (p) => next() < p };
}

/** The seed of case `index`: different cases get unrelated streams of numbers. */
export const caseSeed = (seed: number, index: number): number => (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35)) >>> 0;

// ---------------------------------------------------------------------------------------------
// The corpus: every example input, as lists of documents.

export interface Seed {
  /** Where it came from, relative to the repository. */
  source: string;
  /** The YAML text of each document (a ResourceList's items, or a file's documents). */
  docs: string[];
  /** A ResourceList's functionConfig, as YAML text. */
  functionConfig?: string;
}

function yamlFilesUnder(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return yamlFilesUnder(path);
      return /\.ya?ml$/.test(name) ? [path] : [];
    });
}

function seedOf(root: string, path: string): Seed | undefined {
  const docs = parseAllDocuments(readFileSync(path, 'utf8'), { version: '1.1' });
  if (!Array.isArray(docs) || docs.some((d) => d.errors.length > 0)) return undefined;
  const first = docs[0]?.contents;
  if (docs.length === 1 && isMap(first) && (first.get('kind') as unknown) === 'ResourceList') {
    const items = first.get('items', true);
    const fc = first.get('functionConfig', true);
    if (!isSeq(items)) return undefined;
    return {
      source: relative(root, path),
      docs: items.items.map((item) => new Document(item).toString()),
      ...(fc ? { functionConfig: new Document(fc).toString() } : {}),
    };
  }
  const texts = docs.filter((d) => isMap(d.contents)).map((d) => d.toString());
  return texts.length > 0 ? { source: relative(root, path), docs: texts } : undefined;
}

/**
 * examples/**, test/golden/* /input.yaml, test/cli/fixtures/** and test/fuzz/seeds/**: each file one seed; each directory
 * of examples with several files is one more seed, its files together (an LLSD with its Secret).
 */
export function loadCorpus(root: string): Seed[] {
  const files = [
    ...yamlFilesUnder(join(root, 'examples')),
    ...readdirSync(join(root, 'test/golden'))
      .sort()
      .map((name) => join(root, 'test/golden', name, 'input.yaml')),
    ...yamlFilesUnder(join(root, 'test/cli/fixtures')),
    // OGXServers (issue 17): examples and goldens of the other API are few, so these are seeds of their own.
    ...yamlFilesUnder(join(root, 'test/fuzz/seeds')),
  ];
  const seeds = files.map((f) => seedOf(root, f)).filter((s): s is Seed => s !== undefined);
  const byDir = new Map<string, Seed[]>();
  for (const seed of seeds.filter((s) => s.source.startsWith('examples/') && !s.source.includes('/expected/'))) {
    const dir = seed.source.slice(0, seed.source.lastIndexOf('/'));
    byDir.set(dir, [...(byDir.get(dir) ?? []), seed]);
  }
  for (const [dir, group] of byDir) {
    if (group.length > 1) seeds.push({ source: `${dir}/`, docs: group.flatMap((s) => s.docs) });
  }
  return seeds;
}

// ---------------------------------------------------------------------------------------------
// A case: the documents as nodes of one YAML document (so an alias may point into another item,
// as in a ResourceList), and "raw" tokens: text put into the output verbatim, for what the
// yaml library would quote or refuse to write (an alias to a missing anchor, a cyclic merge,
// an unquoted `*value`, bytes that are not UTF-8).

/** Private-use characters that `toBytes` turns into bytes that are not valid UTF-8. */
const badBytes: Record<string, number[]> = { '\uE000': [0xff], '\uE001': [0xc3, 0x28], '\uE002': [0x80], '\uE003': [0xed, 0xa0, 0x80] };

export interface Case {
  index: number;
  seedSource: string;
  /** What was done, in order (for the report). */
  ops: string[];
  /** The ops' names without arguments: a timeout skips later cases of the same op (see the test). */
  opNames: string[];
  krm: Buffer;
  build: Buffer;
  /** Marker secret values planted in secret positions (plain text). */
  secrets: string[];
}

interface Draft {
  r: Rng;
  doc: Document;
  items: YAMLSeq;
  functionConfig?: Node;
  /** Text for each raw token; some differ between the ResourceList and the stream. */
  raw: Array<string | { krm: string; build: string }>;
  ops: string[];
  opNames: string[];
  secrets: string[];
  anchors: number;
}

function rawToken(d: Draft, text: string): Scalar {
  d.raw.push(text);
  return new Scalar(`RAWTOKEN${d.raw.length - 1}X`);
}

function replaceRaw(text: string, raw: Draft['raw'], mode: 'krm' | 'build'): string {
  return text.replace(/(["']?)RAWTOKEN(\d+)X\1/g, (_, _q, n: string) => {
    const entry = raw[Number(n)] ?? '';
    return typeof entry === 'string' ? entry : entry[mode];
  });
}

function toBytes(text: string): Buffer {
  const parts = text.split(/([\uE000-\uE003])/);
  return Buffer.concat(parts.map((part, i) => (i % 2 === 1 ? Buffer.from(badBytes[part] ?? []) : Buffer.from(part, 'utf8'))));
}

interface Place {
  node: Node;
  /** The collection holding it and how to replace it there. */
  set: (value: Node) => void;
  parent?: YAMLMap | YAMLSeq;
  key?: string;
  depth: number;
}

/** Every node under `root` (not the root), with a setter for its place. */
function places(root: Node): Place[] {
  const out: Place[] = [];
  const walk = (node: unknown, depth: number): void => {
    if (depth > 60) return;
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isPair(pair) || !pair.value) continue;
        const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
        out.push({ node: pair.value as Node, set: (v) => (pair.value = v), parent: node, ...(key !== undefined ? { key } : {}), depth });
        walk(pair.value, depth + 1);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => {
        out.push({ node: item as Node, set: (v) => (node.items[i] = v), parent: node, depth });
        walk(item, depth + 1);
      });
    }
  };
  walk(root, 0);
  return out;
}

const allNodes = (d: Draft): Place[] => [...d.items.items, ...(d.functionConfig ? [d.functionConfig] : [])].flatMap((n) => places(n as Node));
const scalars = (d: Draft): Place[] => allNodes(d).filter((p) => isScalar(p.node));
const maps = (d: Draft): YAMLMap[] => [...d.items.items.filter(isMap), ...allNodes(d).map((p) => p.node).filter(isMap)] as YAMLMap[];
const kindOf = (n: unknown): string | undefined => (isMap(n) ? String((n.get('kind') as string | undefined) ?? '') : undefined);
const llsds = (d: Draft): YAMLMap[] => [...new Set(d.items.items)].filter((n): n is YAMLMap => isMap(n) && kindOf(n) === 'LlamaStackDistribution');
const ogxServers = (d: Draft): YAMLMap[] => [...new Set(d.items.items)].filter((n): n is YAMLMap => isMap(n) && kindOf(n) === 'OGXServer');

// Values for a scalar: each a way a user (or an attacker) could write a field.
const oddValues = [
  '',
  ' ',
  '~',
  'null',
  'true',
  'yes',
  'no',
  'on',
  'off',
  'y',
  '0x1F',
  '1e999',
  '.nan',
  '-.inf',
  '0o17',
  '0755',
  '1_000',
  '12:30:00',
  '2001-12-14',
  '!',
  '%',
  '@',
  '`',
  '{',
  '[',
  '"',
  "'",
  '#',
  ': ',
  '- ',
  '? x',
  '|',
  '>',
  '\\',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'prototype',
  '-1',
  '0',
  '99999999999999999999',
  '1.0',
  '+12',
  '.5',
  'NaN',
  'Infinity',
];
const controlValues = [
  '\x00',
  'a\x00b',
  '\x1b[31mred\x1b[0m',
  '\u2028',
  '\r',
  'a\rb',
  '\t',
  '\x7f',
  '\ufeff',
  'x\ny: forged',
  'x\nllama/quickstart: spec: forged error',
  '\ud800',
  '\u202e',
  '\x08\x08\x08',
  '\x07',
];
const nearKinds = [
  'LlamaStackDistributon',
  'LlamaStackDistributions',
  'llamastackdistribution',
  'LlamaStackDistribution ',
  'LLamaStackDistribution',
  'Secrets',
  'secret',
  'ConfigMaps',
  'Configmap',
  'RenderConfig',
  'Rendercofig',
  'ResourceList',
  'List',
  'Deployment',
  'SealedSecret',
  'ExternalSecret',
  'OGXServers',
  'OgxServer',
  'OGXserver',
  'OGXServer ',
  '',
];
const nearApiVersions = [
  'llama-stack.io/v1alpha2',
  'llamastack.io/v1alpha3',
  'llamastack.io/v1alpha1',
  'llamastack.io/v1',
  'llamastack.io/v2alpha2',
  'v1alpha2',
  'llamastack.io',
  'llamastack.io/',
  'llamastack.ai/v1alpha2',
  'v2',
  'v1',
  'apps/v1',
  'fn.llamastack.io/v1alpha1',
  'config.kubernetes.io/v1',
  'bitnami.com/v1alpha1',
  'external-secrets.io/v1beta1',
  'ogx.io/v1alpha1',
  'ogx.io/v1',
  'ogx.ai/v1beta1',
  'ogx.io',
  'v1beta1',
  '',
];
const tags = [
  '!!binary',
  '!!bool',
  '!!int',
  '!!float',
  '!!str',
  '!!null',
  '!!set',
  '!!omap',
  '!!pairs',
  '!!timestamp',
  '!!merge',
  '!!map',
  '!!seq',
  '!custom',
  '!',
  '!<tag:yaml.org,2002:str>',
  '!!python/object',
];

function huge(r: Rng): string {
  const size = r.pick([1_000, 70_000, 300_000]);
  const unit = r.pick(['x', 'ab-', 'é', ' ', 'meta-llama/', '9']);
  return unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
}

type Op = (d: Draft) => string | undefined;

/** Turn a random scalar into one of `values`. */
const setScalar = (name: string, value: (d: Draft) => string | Node): Op => (d) => {
  const place = d.r.pick(scalars(d));
  if (!place) return undefined;
  const v = value(d);
  place.set(typeof v === 'string' ? new Scalar(v) : v);
  return `${name} at ${place.key ?? '[]'}`;
};

const ops: Record<string, Op> = {
  huge: setScalar('huge', (d) => huge(d.r)),
  odd: setScalar('odd', (d) => d.r.pick(oddValues)),
  control: setScalar('control', (d) => d.r.pick(controlValues)),
  numberLike: setScalar('numberLike', (d) => {
    const n = new Scalar(d.r.pick([0, -1, 1.5, 1e21, 2 ** 53 + 1, 0.1, -0, 8321, 65536, 1e-7]));
    return n;
  }),
  quotedNumber: setScalar('quotedNumber', (d) => d.r.pick(['1', '8321', '0x1F', '1e3', '-0'])),
  nonUtf8: setScalar('nonUtf8', (d) =>
    rawToken(d, `${d.r.pick(['meta-llama/Llama', 'starter', 'x', ''])}${d.r.pick(Object.keys(badBytes))}${d.r.pick(['', 'y', '-3B'])}`),
  ),
  badAlias: setScalar('badAlias', (d) => rawToken(d, d.r.pick(['*A', '*nosuch', '*Xy9', '*', '* x']))),
  aliasToAnchor(d) {
    // An anchor somewhere (perhaps in another item) and an alias to it elsewhere.
    const all = allNodes(d);
    const target = d.r.pick(all);
    const at = d.r.pick(all);
    if (!target || !at) return undefined;
    const name = `a${d.anchors++}`;
    target.node.anchor = name;
    at.set(rawToken(d, `*${name}`));
    return `alias to ${target.key ?? '[]'} at ${at.key ?? '[]'}`;
  },
  anchor(d) {
    const p = d.r.pick(allNodes(d));
    if (!p) return undefined;
    p.node.anchor = d.r.pick(['A', 'x', `a${d.anchors++}`, 'A1']);
    return `anchor at ${p.key ?? '[]'}`;
  },
  tag(d) {
    const p = d.r.pick(allNodes(d));
    if (!p) return undefined;
    const tag = d.r.pick(tags);
    // The yaml library would refuse or quote some tags: write them raw, before the node's own text.
    if (isScalar(p.node)) p.set(rawToken(d, `${tag} ${JSON.stringify(String((p.node.value as string | undefined) ?? ''))}`));
    // An alias of a seed takes no tag (the yaml library throws): a tag on what it names instead is another case.
    else if (isAlias(p.node)) return undefined;
    else p.node.tag = tag;
    return `tag ${tag} at ${p.key ?? '[]'}`;
  },
  binaryData(d) {
    // A ConfigMap with binaryData (`!!binary`), as the issue found.
    d.items.add(d.doc.createNode({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bin', namespace: 'llama' }, binaryData: { blob: 'AAEC' } }));
    const item = d.items.items[d.items.items.length - 1] as YAMLMap;
    const blob = (item.get('binaryData', true) as unknown as YAMLMap).get('blob', true) as Scalar;
    blob.tag = 'tag:yaml.org,2002:binary';
    return 'binaryData ConfigMap';
  },
  duplicateKey(d) {
    const m = d.r.pick(maps(d).filter((m) => m.items.length > 0));
    const pair = m && d.r.pick(m.items);
    if (!m || !pair) return undefined;
    m.items.splice(d.r.int(m.items.length + 1), 0, new Pair(pair.key, d.r.chance(0.5) ? pair.value : new Scalar('dup')));
    return `duplicate key ${String(pair.key)}`;
  },
  deleteKey(d) {
    const m = d.r.pick(maps(d).filter((m) => m.items.length > 0));
    if (!m) return undefined;
    const [pair] = m.items.splice(d.r.int(m.items.length), 1);
    return `delete key ${String(pair?.key)}`;
  },
  moveKey(d) {
    const from = d.r.pick(maps(d).filter((m) => m.items.length > 0));
    const to = d.r.pick(maps(d));
    if (!from || !to || from === to) return undefined;
    const [pair] = from.items.splice(d.r.int(from.items.length), 1);
    if (pair) to.items.push(pair);
    return `move key ${String(pair?.key)}`;
  },
  renameKey(d) {
    const m = d.r.pick(maps(d).filter((m) => m.items.length > 0));
    const pair = m && d.r.pick(m.items);
    if (!pair || !isScalar(pair.key)) return undefined;
    const key = String(pair.key.value);
    const renamed = d.r.pick([key.toUpperCase(), `${key}s`, key.slice(1), `${key} `, key.replace(/[aeiou]/, ''), '__proto__', 'constructor', '<<']);
    pair.key = new Scalar(renamed);
    return `rename key ${key} → ${renamed}`;
  },
  nearKind(d) {
    const item = d.r.pick(d.items.items.filter((n): n is YAMLMap => isMap(n)));
    if (!item) return undefined;
    const v = d.r.pick(nearKinds);
    item.set('kind', v);
    return `kind → ${JSON.stringify(v)}`;
  },
  nearApiVersion(d) {
    const item = d.r.pick(d.items.items.filter((n): n is YAMLMap => isMap(n)));
    if (!item) return undefined;
    const v = d.r.pick(nearApiVersions);
    item.set('apiVersion', v);
    return `apiVersion → ${JSON.stringify(v)}`;
  },
  cyclicMerge(d) {
    // `metadata: &A` / `<<: *A`: a merge key that names its own anchor (or an ancestor's).
    const candidates = maps(d);
    const m = d.r.pick(candidates);
    if (!m) return undefined;
    const name = `c${d.anchors++}`;
    m.anchor = name;
    const inner = d.r.chance(0.5)
      ? m
      : (d.r.pick(
          places(m)
            .map((p) => p.node)
            .filter(isMap),
        ) ?? m);
    inner.items.unshift(new Pair(new Scalar('<<'), rawToken(d, `*${name}`)));
    return 'cyclic merge';
  },
  cyclicAlias(d) {
    // An alias inside the node its anchor names: `a: &A [*A]`.
    const p = d.r.pick(allNodes(d).filter((p) => isMap(p.node) || isSeq(p.node)));
    if (!p) return undefined;
    const name = `y${d.anchors++}`;
    p.node.anchor = name;
    if (isSeq(p.node)) p.node.items.push(rawToken(d, `*${name}`));
    else (p.node as YAMLMap).items.push(new Pair(new Scalar('self'), rawToken(d, `*${name}`)));
    return 'cyclic alias';
  },
  mergeInto(d) {
    // A merge key into an LLSD's settings / spec / metadata from an anchor elsewhere.
    const m = d.r.pick(maps(d));
    const source = d.r.pick(allNodes(d).filter((p) => isMap(p.node)));
    if (!m || !source) return undefined;
    const name = `m${d.anchors++}`;
    source.node.anchor = name;
    m.items.unshift(new Pair(new Scalar('<<'), rawToken(d, d.r.chance(0.3) ? `!!merge *${name}` : `*${name}`)));
    return `merge from ${source.key ?? '[]'}`;
  },
  deepNesting(d) {
    const p = d.r.pick(allNodes(d));
    if (!p) return undefined;
    const depth = d.r.pick([50, 499, 501, 2_000, 10_000]);
    const flow = d.r.chance(0.5);
    p.set(rawToken(d, flow ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{a: '.repeat(depth)}1${'}'.repeat(depth)}`));
    return `nesting ${depth} at ${p.key ?? '[]'}`;
  },
  longList(d) {
    const p = d.r.pick(allNodes(d).filter((p) => isSeq(p.node) || isScalar(p.node)));
    if (!p) return undefined;
    const n = d.r.pick([1_000, 10_000, 30_000]);
    const first = isSeq(p.node) ? p.node.items[0] : p.node;
    const text = isScalar(first) ? String(first.value) : 'x';
    p.set(rawToken(d, `[${Array.from({ length: n }, (_, i) => JSON.stringify(d.r.chance(0.5) ? text : `${text}-${i}`)).join(', ')}]`));
    return `list of ${n} at ${p.key ?? '[]'}`;
  },
  manyItems(d) {
    // Copies of one item, written as text (the yaml writer takes seconds for thousands of items).
    const item = d.r.pick(d.items.items);
    if (!item) return undefined;
    const n = d.r.pick([100, 1_000]);
    const text = safeString(new Document(item)).replace(/\n$/, '');
    const asItem = text
      .split('\n')
      .map((line, i) => (i === 0 ? line : line === '' ? '' : `    ${line}`))
      .join('\n');
    d.raw.push({ krm: Array.from({ length: n }, () => asItem).join('\n  - '), build: Array.from({ length: n }, () => `${text}\n`).join('---\n') });
    d.items.items.push(new Scalar(`RAWTOKEN${d.raw.length - 1}X`));
    return `item repeated ${n} times`;
  },
  aliasBomb(d) {
    const p = d.r.pick(allNodes(d));
    if (!p) return undefined;
    const levels = d.r.pick([3, 6, 9]);
    const name = `b${d.anchors++}`;
    let text = `&${name}0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]`;
    for (let i = 1; i <= levels; i++) text = `&${name}${i} [${Array.from({ length: 10 }, () => `*${name}${i - 1}`).join(', ')}, ${text}]`;
    p.set(rawToken(d, text));
    return `alias bomb ${levels} at ${p.key ?? '[]'}`;
  },
  dropItem(d) {
    if (d.items.items.length < 2) return undefined;
    d.items.items.splice(d.r.int(d.items.items.length), 1);
    return 'drop item';
  },
  swapKindOfItems(d) {
    const [a, b] = [d.r.pick(d.items.items), d.r.pick(d.items.items)];
    if (!isMap(a) || !isMap(b) || a === b) return undefined;
    const [ka, kb] = [a.get('kind'), b.get('kind')];
    a.set('kind', kb);
    b.set('kind', ka);
    return 'swap kinds';
  },
  wrongType(d) {
    const p = d.r.pick(allNodes(d));
    if (!p) return undefined;
    p.set(d.doc.createNode(d.r.pick([[], {}, [1, 2], { a: 1 }, null, 0, true, [[]], ['x'], { secretKeyRef: { name: 'x', key: 'y' } }])));
    return `wrong type at ${p.key ?? '[]'}`;
  },
};

// ---------------------------------------------------------------------------------------------
// Secrets: markers in Secrets and in LLSDs' credential fields.

const credentialPlants: Array<(d: Draft, llsd: YAMLMap, marker: string) => string | undefined> = [
  (d, llsd, marker) => {
    const p = providerMaps(llsd);
    const provider = d.r.pick(p);
    if (!provider) return undefined;
    provider.set('apiKey', marker);
    return 'literal apiKey';
  },
  (d, llsd, marker) => {
    const provider = d.r.pick(providerMaps(llsd));
    if (!provider) return undefined;
    const key = d.r.pick(['api_token', 'api_key', 'password', 'access_token']);
    const settings = provider.get('settings', true);
    if (isMap(settings)) settings.set(key, marker);
    else provider.set('settings', d.doc.createNode({ [key]: marker }));
    return `settings.${key}`;
  },
  (d, llsd, marker) => {
    const provider = d.r.pick(providerMaps(llsd));
    if (!provider) return undefined;
    provider.set('endpoint', `http://user:${marker}@vllm.llama.svc:8000/v1`);
    return 'password in endpoint';
  },
  (d, llsd, marker) => {
    const spec = llsd.get('spec', true);
    if (!isMap(spec)) return undefined;
    spec.set('storage', d.doc.createNode({ sql: { type: 'postgres', host: 'pg', user: 'u', password: marker } }));
    return 'storage password';
  },
];

/** Credentials an OGXServer must not hold as values (src/ogx/credentials.ts, and the schema's refs). */
const ogxCredentialPlants: Array<(d: Draft, server: YAMLMap, marker: string) => string | undefined> = [
  (d, server, marker) => {
    const custom = ogxGroupList(server, 'inference', 'remote', 'custom');
    custom?.add(d.doc.createNode({ type: 'remote::groq', settings: { api_key: marker } }));
    return custom && 'literal api_key in custom settings';
  },
  (d, server, marker) => {
    const vllm = ogxGroupList(server, 'inference', 'remote', 'vllm');
    vllm?.add(d.doc.createNode({ id: 'planted', endpoint: `http://user:${marker}@vllm.ai.svc:8000/v1` }));
    return vllm && 'password in a vllm endpoint';
  },
  (d, server, marker) => {
    const openai = ogxGroupList(server, 'inference', 'remote', 'openai');
    openai?.add(d.doc.createNode({ id: 'planted-openai', apiKey: marker }));
    return openai && 'literal openai apiKey';
  },
  (d, server, marker) => {
    const spec = server.get('spec', true);
    if (!isMap(spec)) return undefined;
    spec.set('storage', d.doc.createNode({ kv: { type: 'redis', endpoint: `redis://:${marker}@redis.ai.svc:6379` } }));
    return 'password in the redis endpoint';
  },
];

/** `spec.providers.<api>.<side>.<type>` of an OGXServer as a list, made when missing; undefined when a mutation left no mapping there. */
function ogxGroupList(server: YAMLMap, ...path: string[]): YAMLSeq | undefined {
  let node: unknown = server.get('spec', true);
  for (const key of ['providers', ...path.slice(0, -1)]) {
    if (!isMap(node)) return undefined;
    if (!node.has(key)) node.set(key, new YAMLMap());
    node = node.get(key, true);
  }
  if (!isMap(node)) return undefined;
  const last = path[path.length - 1] as string;
  if (!node.has(last)) node.set(last, new YAMLSeq());
  const list = node.get(last, true);
  return isSeq(list) ? list : undefined;
}

function providerMaps(llsd: YAMLMap): YAMLMap[] {
  const providers = (llsd.get('spec', true) as YAMLMap | undefined)?.get?.('providers', true);
  if (!isMap(providers)) return [];
  return providers.items.flatMap((pair): YAMLMap[] => (isMap(pair.value) ? [pair.value] : isSeq(pair.value) ? pair.value.items.filter(isMap) : []));
}

function marker(r: Rng): string {
  const chars = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return `s3cr3t-${Array.from({ length: 12 }, () => r.pick([...chars])).join('')}`;
}

/** Puts markers into every Secret's values and, sometimes, into an LLSD's credential fields. */
function plantSecrets(d: Draft): void {
  const secretItems = [...new Set(d.items.items)].filter(
    (n): n is YAMLMap => isMap(n) && ['Secret', 'SealedSecret', 'ExternalSecret'].includes(kindOf(n) ?? ''),
  );
  if (secretItems.length === 0 && d.r.chance(0.5)) {
    d.items.add(d.doc.createNode({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'vllm-credentials', namespace: 'llama' }, stringData: { token: 'x' } }));
    secretItems.push(d.items.items[d.items.items.length - 1] as YAMLMap);
  }
  for (const secret of secretItems) {
    for (const field of ['stringData', 'data', 'encryptedData']) {
      const values = secret.get(field, true);
      if (!isMap(values)) continue;
      for (const pair of values.items) {
        const m = marker(d.r);
        d.secrets.push(m);
        const style = d.r.int(4);
        // An unquoted `*value` is read as an alias: its "no such anchor" message must not quote it.
        if (style === 0) pair.value = rawToken(d, `*${m}`);
        else pair.value = new Scalar(field === 'data' ? Buffer.from(m).toString('base64') : m);
        if (style === 1) (pair.value as Scalar).type = 'PLAIN';
      }
    }
  }
  if (secretItems.length > 0) d.ops.push(`secrets in ${secretItems.length} Secret(s)`);
  const plant = <T>(targets: T[], plants: Array<(d: Draft, target: T, marker: string) => string | undefined>): void => {
    for (const target of targets) {
      if (!d.r.chance(0.3)) continue;
      const m = marker(d.r);
      const what = d.r.pick(plants)(d, target, m);
      if (what) {
        d.secrets.push(m);
        d.ops.push(`secret as ${what}`);
      }
    }
  };
  plant(llsds(d), credentialPlants);
  plant(ogxServers(d), ogxCredentialPlants);
}

// ---------------------------------------------------------------------------------------------
// Byte-level mutations of the written text.

type ByteOp = (text: string, r: Rng, corpusText: string) => [string, string];

const byteOps: Record<string, ByteOp> = {
  truncate: (t, r) => {
    const at = r.int(t.length);
    return [t.slice(0, at), `truncate at ${at}`];
  },
  splice: (t, r, other) => {
    // A chunk of another example (without markers) put somewhere into this one.
    const from = r.int(other.length);
    const chunk = other.slice(from, from + 1 + r.int(400)).replace(/s3cr3t-/g, 'xxxxxx-');
    const at = r.int(t.length + 1);
    return [t.slice(0, at) + chunk + t.slice(at), `splice ${chunk.length} chars at ${at}`];
  },
  flip: (t, r) => {
    const n = 1 + r.int(4);
    let text = t;
    for (let i = 0; i < n && text.length > 0; i++) {
      const at = r.int(text.length);
      const c = text.charCodeAt(at);
      const by = r.chance(0.2) ? r.pick(Object.keys(badBytes)) : String.fromCharCode(r.chance(0.5) ? c ^ (1 << r.int(7)) : r.int(128));
      text = text.slice(0, at) + by + text.slice(at + 1);
    }
    return [text, `flip ${n} chars`];
  },
  lineOp: (t, r) => {
    const lines = t.split('\n');
    const at = r.int(lines.length);
    const what = r.int(5);
    if (what === 0) lines.splice(at, 1);
    else if (what === 1) lines.splice(at, 0, lines[at] ?? '');
    else if (what === 2) lines.splice(at, 0, r.pick(['...', '---', '%YAML 1.2', '%TAG ! tag:x,2000:', '? ', '- ', '  ...']));
    else if (what === 3) lines[at] = ` ${lines[at] ?? ''}`;
    else lines[at] = (lines[at] ?? '').replace(/^ {2}/, '');
    return [lines.join('\n'), `line op ${what} at line ${at + 1}`];
  },
  strayDocEnd: (t, r) => {
    // `...` just before a line holding a marker secret (a stray document end inside a Secret).
    const lines = t.split('\n');
    const at = lines.findIndex((l) => l.includes('s3cr3t-') || /^\s+token:/.test(l));
    if (at < 0) return byteOps.lineOp!(t, r, '');
    lines.splice(r.chance(0.5) ? at : at + 1, 0, r.pick(['...', '  ...', '---']));
    return [lines.join('\n'), `stray document end at line ${at + 1}`];
  },
};

// ---------------------------------------------------------------------------------------------

/**
 * Big inputs (a megabyte scalar, 100,000-entry lists, thousands of items, deep nesting) take
 * seconds each to render: they are drawn rarely, so 2,000 cases fit the time box.
 */
const heavyOps = new Set(['huge', 'longList', 'manyItems', 'deepNesting', 'aliasBomb']);
const opNames = Object.keys(ops).flatMap((name) => (heavyOps.has(name) ? [name] : Array<string>(30).fill(name)));
const byteOpNames = Object.keys(byteOps);

/** Makes case `index` of `seed` from the corpus: the same numbers give the same bytes. */
export function makeCase(corpus: readonly Seed[], seed: number, index: number): Case {
  const r = rng(caseSeed(seed, index));
  // A fifth of the cases start from an OGXServer seed: drawn evenly, the few would get about 3 %.
  const ogx = corpus.filter(isOgxSeed);
  const source = (ogx.length > 0 && r.chance(0.2) ? r.pick(ogx) : corpus[r.int(corpus.length)]) as Seed;
  // A draw that makes more text than the writer can hold is drawn again (the same way every time).
  for (let attempt = 0; ; attempt++) {
    const made = attemptCase(corpus, source, r, attempt < 3);
    if (made) return { index, seedSource: source.source, ...made };
  }
}

const isOgxSeed = (seed: Seed): boolean => seed.docs.some((doc) => /^kind: OGXServer$/m.test(doc));

const maxCaseChars = 24 * 1024 * 1024;

function attemptCase(corpus: readonly Seed[], source: Seed, r: Rng, mutate: boolean): Omit<Case, 'index' | 'seedSource'> | undefined {
  const doc = new Document(new YAMLSeq());
  const items = doc.contents as YAMLSeq;
  for (const text of source.docs) items.items.push(parseNode(doc, text));
  const d: Draft = { r, doc, items, raw: [], ops: [], opNames: [], secrets: [], anchors: 0 };
  if (source.functionConfig !== undefined) d.functionConfig = parseNode(doc, source.functionConfig);

  const structural = mutate ? r.int(4) : 0;
  for (let i = 0; i < structural; i++) {
    const name = r.pick(opNames);
    const what = ops[name]!(d);
    if (what !== undefined) {
      d.ops.push(what);
      d.opNames.push(name);
    }
  }
  plantSecrets(d);
  let krm: string;
  let build: string;
  try {
    krm = writeKrm(d);
    build = writeBuild(d);
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
  if (krm.length > maxCaseChars || build.length > maxCaseChars) return undefined;
  // A byte-level mutation in a third of the cases (always when no structural one was made), the
  // same one on both texts.
  if (r.chance(0.35) || d.opNames.length === 0) {
    const name = r.pick(byteOpNames);
    const other = (corpus[r.int(corpus.length)] as Seed).docs.join('---\n');
    const state = Math.floor(r.next() * 2 ** 32);
    const [k, what] = byteOps[name]!(krm, rng(state), other);
    const [b] = byteOps[name]!(build, rng(state), other);
    krm = k;
    build = b;
    d.ops.push(what);
    d.opNames.push(name);
  }
  // Sometimes a near-miss of the ResourceList itself (KRM only).
  if (r.chance(0.05)) {
    const v = r.pick(['config.kubernetes.io/v2', 'v1', `config.kubernetes.io/${'v1'.repeat(r.pick([10, 400_000]))}`, 'config.kubernetes.io/v1\x1b[2J']);
    krm = krm.replace(/^apiVersion: .*$/m, `apiVersion: ${JSON.stringify(v)}`);
    d.ops.push(`ResourceList apiVersion → ${JSON.stringify(v.slice(0, 40))}`);
    d.opNames.push('resourceListApiVersion');
  }
  return { ops: d.ops, opNames: d.opNames, krm: toBytes(krm), build: toBytes(build), secrets: d.secrets };
}

function parseNode(doc: Document, text: string): Node {
  // Nodes of another document keep their anchors; a parsed node may be moved into this one.
  const parsed = parseAllDocuments(text, { version: '1.1' });
  const first = Array.isArray(parsed) ? parsed[0] : undefined;
  return (first?.contents as Node | null) ?? (doc.createNode(null) as Node);
}

const writeOptions = { lineWidth: 0, aliasDuplicateObjects: false } as const;

function writeKrm(d: Draft): string {
  const doc = new Document(new YAMLMap());
  const root = doc.contents as YAMLMap;
  root.set('apiVersion', 'config.kubernetes.io/v1');
  root.set('kind', 'ResourceList');
  root.set('items', d.items);
  if (d.functionConfig) root.set('functionConfig', d.functionConfig);
  return replaceRaw(safeString(doc), d.raw, 'krm');
}

function writeBuild(d: Draft): string {
  const docs = [...d.items.items, ...(d.functionConfig ? [d.functionConfig] : [])].map((n) => safeString(new Document(n)));
  return replaceRaw(docs.join('---\n'), d.raw, 'build');
}

/** The yaml library refuses some trees (an alias to an anchor it cannot see): write those without aliases. */
function safeString(doc: Document): string {
  try {
    return doc.toString(writeOptions);
  } catch {
    visit(doc, { Alias: () => new Scalar('alias-dropped') });
    return doc.toString(writeOptions);
  }
}

