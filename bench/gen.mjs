// Deterministic benchmark inputs: LlamaStackDistribution i (0-based) is always the same, so the
// set of N LLSDs is the first N of one sequence. Each file holds one LLSD and the Secret it
// refers to (as a repository would, so the render has no "Secret not in the input" warnings).
// Ten LLSDs share a namespace; every namespace/name pair is unique.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';

const MODELS = [
  'meta-llama/Llama-3.2-3B-Instruct',
  'meta-llama/Llama-3.1-8B-Instruct',
  'meta-llama/Llama-3.3-70B-Instruct',
  'ibm-granite/granite-3.3-8b-instruct',
  'mistralai/Mistral-7B-Instruct-v0.3',
];
const APPS = ['chat', 'rag', 'agents', 'search', 'support', 'docs', 'code'];

/** The kinds of LLSD, in the order they repeat; every one must render without error. */
export const KINDS = ['starter-vllm', 'starter-postgres', 'starter-expose', 'postgres-demo', 'starter-0.8.0', 'starter-multi'];

const secret = (name, namespace, stringData) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace }, type: 'Opaque', stringData });
const ref = (name, key) => ({ secretKeyRef: { name, key } });

/** The documents of input file i: the LLSD, then its Secret. */
export function documents(i) {
  const kind = KINDS[i % KINDS.length];
  const name = `${APPS[i % APPS.length]}-${String(i).padStart(5, '0')}`;
  const namespace = `team-${String(Math.floor(i / 10)).padStart(4, '0')}`;
  const creds = `${name}-credentials`;
  const models = [0, 1, 2].slice(0, 1 + (i % 3)).map((k) => MODELS[(i + k) % MODELS.length]);
  const vllm = {
    provider: 'vllm',
    endpoint: `http://vllm-${i % 4}.${namespace}.svc.cluster.local:8000/v1`,
    apiKey: ref(creds, 'token'),
  };
  const llsd = {
    apiVersion: 'llamastack.io/v1alpha2',
    kind: 'LlamaStackDistribution',
    metadata: { name, namespace, labels: { team: namespace, app: APPS[i % APPS.length] } },
    spec: { distribution: { name: 'starter' }, providers: { inference: vllm }, resources: { models } },
  };
  const data = { token: `token-${i}` };
  const spec = llsd.spec;
  switch (kind) {
    case 'starter-postgres': {
      const pg = { type: 'postgres', host: `postgres.${namespace}.svc`, port: 5432, database: 'llamastack', user: ref(creds, 'user'), password: ref(creds, 'password') };
      spec.storage = { kv: { type: 'redis', endpoint: `redis://redis.${namespace}.svc:6379` }, sql: pg };
      Object.assign(data, { user: 'llama', password: `pw-${i}` });
      break;
    }
    case 'starter-expose':
      spec.networking = { expose: { hostname: `${name}.${namespace}.example.com` } };
      spec.workload = { workers: 2, resources: { requests: { cpu: '500m', memory: '1Gi' }, limits: { memory: '4Gi' } } };
      break;
    case 'postgres-demo':
      spec.distribution = { name: 'postgres-demo' };
      delete spec.providers;
      delete spec.resources;
      spec.workload = { overrides: { env: [{ name: 'INFERENCE_MODEL', value: models[0] }, { name: 'VLLM_URL', value: vllm.endpoint }] } };
      break;
    case 'starter-0.8.0':
      llsd.metadata.annotations = { 'llamastack.io/release': '0.8.0' };
      break;
    case 'starter-multi':
      // The Safety API ends with 0.8.0 (OGX 1.0 removed it).
      llsd.metadata.annotations = { 'llamastack.io/release': '0.8.0' };
      spec.providers = {
        inference: [
          { id: 'primary', ...vllm },
          { id: 'fallback', provider: 'ollama', endpoint: `http://ollama.${namespace}.svc:11434/v1` },
        ],
        safety: { provider: 'llama-guard' },
      };
      spec.resources = { models: [...models, { name: 'llama3.2:3b', provider: 'fallback', contextLength: 8192 }], shields: ['llama3.2:3b'] };
      break;
  }
  return { kind, name, namespace, docs: [llsd, secret(creds, namespace, data)] };
}

/** Writes LLSDs 0..n-1 under dir as <namespace>/<name>.yaml; returns dir. */
export function writeInputs(dir, n) {
  for (let i = 0; i < n; i++) {
    const { name, namespace, docs } = documents(i);
    mkdirSync(join(dir, namespace), { recursive: true });
    writeFileSync(join(dir, namespace, `${name}.yaml`), docs.map((d) => stringify(d)).join('---\n'));
  }
  return dir;
}

/** A ResourceList with LLSD i and its Secret, for KRM mode. */
export function resourceList(i) {
  return stringify({ apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList', items: documents(i).docs });
}

/**
 * A ResourceList with LLSDs 0..n-1 and their Secrets, as `kpt fn render` sends a package holding
 * the files writeInputs writes and nothing generated yet: each item carries kpt's path and index
 * annotations (the internal ones and the legacy ones). Written item by item: one `stringify` of a
 * 20,000-item list would take longer than the renders it feeds.
 */
export function resourceListOf(n) {
  const parts = ['apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n'];
  for (let i = 0; i < n; i++) {
    const { name, namespace, docs } = documents(i);
    const path = `${namespace}/${name}.yaml`;
    docs.forEach((doc, index) => {
      const annotations = {
        ...doc.metadata.annotations,
        'config.kubernetes.io/index': String(index),
        'config.kubernetes.io/path': path,
        'internal.config.kubernetes.io/index': String(index),
        'internal.config.kubernetes.io/path': path,
      };
      parts.push(stringify([{ ...doc, metadata: { ...doc.metadata, annotations } }]));
    });
  }
  return parts.join('');
}

// Shapes for the cost per input byte (issue 29 R2): no LLSD, only many small nodes. Each is given
// as a file for `build` and as a ResourceList for KRM mode.

/** `lines` lines of `- a`: one sequence of one-letter scalars (4 bytes a node). */
export const sequenceText = (lines) => '- a\n'.repeat(lines);
/** The same items in a ResourceList's `items` (none is a Kubernetes object: each is refused). */
export const sequenceList = (lines) => `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n${'  - a\n'.repeat(lines)}`;

/** One ConfigMap (its metadata in flow style, as the attacker wrote it) holding a list of `lines` one-letter items. */
export const listConfigMapText = (lines) => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: big, namespace: llama}\nlist:\n${'- a\n'.repeat(lines)}`;
/** The same ConfigMap as the one item of a ResourceList. */
export const listConfigMapList = (lines) =>
  `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n  - apiVersion: v1\n    kind: ConfigMap\n    metadata: {name: big, namespace: llama}\n    list:\n${'    - a\n'.repeat(lines)}`;

const tinyConfigMap = (i, indent) =>
  [`apiVersion: v1`, `kind: ConfigMap`, `metadata:`, `  name: cm-${i}`, `data:`, `  k: v`].map((line, n) => (n === 0 ? '' : indent) + line).join('\n') + '\n';
/** `n` ConfigMaps of one key each, as documents of one file. */
export const configMapsText = (n) => Array.from({ length: n }, (_, i) => `---\n${tinyConfigMap(i, '')}`).join('');
/** The same as the items of a ResourceList. */
export const configMapsList = (n) =>
  `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n${Array.from({ length: n }, (_, i) => `  - ${tinyConfigMap(i, '    ')}`).join('')}`;
