// Issue 17 "Migration": an LLSD and the OGXServer `convert --to ogx.io/v1beta1` makes of it render
// the same server. Both are rendered through `process` (build mode); their config.yaml documents and
// Deployments are compared structurally. What must differ is the explicit list below (`configDifferences`,
// `deploymentDifferences`, plus the workers and "none" mode notes in `compare`): each entry first asserts that the difference is exactly what it should
// be on both sides, then takes it out of both, and what is left must be equal.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { toOgxServer } from '../../src/convert/to-ogxserver.js';
import { baseConfig, distributions } from '../../src/catalog/catalog.js';
import type { FieldProblem } from '../../src/lib/issues.js';
import type { KrmObject } from '../../src/krm/item.js';
import { parseYaml11 } from '../../src/krm/yaml.js';
import { process as render } from '../../src/process.js';
import { itemsFrom } from '../support.js';

type Plain = Record<string, any>;

interface Side {
  /** The object name generated objects derive from (`chat`, `chat-ogx`). */
  name: string;
  deployment: Plain;
  /** The rendered config.yaml, parsed; undefined when no ConfigMap is generated. */
  config?: Plain;
  configText?: string;
  configMapName?: string;
}

interface Compared {
  llsd: Side;
  ogx: Side;
  /** The OGXServer's spec and the conversion's warnings. */
  spec: Plain;
  warnings: FieldProblem[];
}

const clone = <T>(value: T): T => structuredClone(value);

/** The starter base config of the newest release, which every case renders against. */
function starterBase(): Plain {
  const starter = distributions().starter;
  const path = starter?.releases[starter.defaultRelease]?.config;
  const base = path === undefined ? undefined : baseConfig(path);
  if (base === undefined) throw new Error('no starter base config in the catalog');
  return clone((typeof base === 'string' ? parseYaml11(base).value : base) as Plain);
}

/** Renders `text` (an LLSD and what it references) and its conversion, each on its own. */
function renderBoth(text: string): Compared {
  const items = itemsFrom(text);
  const at = items.findIndex((i) => i.object.kind === 'LlamaStackDistribution');
  const source = items[at];
  if (!source) throw new Error('no LLSD in the case');
  const conversion = toOgxServer(source.object);
  expect(conversion.problems.filter((p) => (p.severity ?? 'error') === 'error')).toEqual([]);
  const converted = items.map((item, i) => (i === at ? { ...item, object: conversion.object as KrmObject } : item));
  return {
    llsd: sideOf(items, String(source.object.metadata.name)),
    ogx: sideOf(converted, String(conversion.object.metadata && (conversion.object.metadata as Plain).name)),
    spec: conversion.object.spec as Plain,
    warnings: conversion.problems,
  };
}

function sideOf(items: ReturnType<typeof itemsFrom>, name: string): Side {
  const output = render({ mode: 'build', items });
  expect(output.results.filter((r) => r.severity === 'error')).toEqual([]);
  const objects = output.items.map((item) => ('object' in item ? item.object : item) as Plain);
  const deployment = objects.find((o) => o.kind === 'Deployment');
  if (!deployment) throw new Error(`no Deployment for ${name}`);
  const configMap = objects.find((o) => o.kind === 'ConfigMap' && String(o.metadata.name).startsWith(`${name}-config-`));
  const side: Side = { name, deployment: clone(deployment) };
  if (configMap) {
    const text = configMap.data['config.yaml'] as string;
    side.configText = text;
    side.config = parseYaml11(text).value as Plain;
    side.configMapName = configMap.metadata.name;
  }
  return side;
}

const container = (side: Side): Plain => side.deployment.spec.template.spec.containers[0];
const envOf = (side: Side): Plain[] => container(side).env;
const secretEnv = (side: Side): Map<string, string> =>
  new Map(envOf(side).filter((e) => e.valueFrom?.secretKeyRef).map((e) => [e.name, `secret ${e.valueFrom.secretKeyRef.name}/${e.valueFrom.secretKeyRef.key}`]));

/** Each string leaf of `value`, replaced. */
function mapStrings(value: unknown, f: (s: string) => string): any {
  if (typeof value === 'string') return f(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, f));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, f)]));
  return value;
}

const warningNames = (warnings: FieldProblem[], path: string): string[] => {
  const message = warnings.find((w) => w.path.join('.') === path)?.message ?? '';
  const list = /so (.*) (?:is|are) no longer configured/.exec(message)?.[1] ?? '';
  return [...list.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
};

// -------------------------------------------------------------------------------------------------
// config.yaml: the expected differences, in the order they are taken out.

type Difference = { what: string; apply: (c: Compared) => void };

const configDifferences: Difference[] = [
  {
    // Secret env vars: llsd-render names them LLSD_<ID>_<FIELD>, the operator OGX_<ID>_<FIELD>
    // (upstream config generation: the env var name rule). Each placeholder must resolve to the same Secret key on both sides.
    what: 'secret placeholders LLSD_* vs OGX_*, resolving to the same Secret keys',
    apply: ({ llsd, ogx }) => {
      for (const [side, prefix] of [[llsd, 'LLSD_'], [ogx, 'OGX_']] as const) {
        const secrets = secretEnv(side);
        for (const name of secrets.keys()) expect(name.startsWith(prefix), `${name} starts with ${prefix}`).toBe(true);
        side.config = mapStrings(side.config, (s) => s.replace(/\$\{env\.([A-Z0-9_]+)\}/g, (all, name: string) => secrets.get(name) ?? all));
      }
    },
  },
  {
    // the OGX operator's config generation (how it parses the base): the operator parses the base into its struct; top-level `connectors` (and
    // other unknown keys) are dropped, and empty lists are not written.
    what: 'top-level keys the operator drops, empty registered lists',
    apply: ({ llsd, ogx }) => {
      for (const key of Object.keys(llsd.config ?? {})) {
        if (!(key in (ogx.config ?? {}))) {
          expect(['connectors'], `top-level ${key} only in the LLSD's config`).toContain(key);
          delete llsd.config?.[key];
        }
      }
      const registered = llsd.config?.registered_resources ?? {};
      for (const [key, list] of Object.entries(registered)) {
        if (!(key in (ogx.config?.registered_resources ?? {}))) {
          expect(list, `registered_resources.${key}`).toEqual([]);
          delete registered[key];
        }
      }
    },
  },
  {
    // the OGX operator's config generation (typed providers): every provider entry the operator writes has `config`, `{}` when empty;
    // the base's entries without one get `{}` too.
    what: 'config: {} on provider entries',
    apply: ({ llsd, ogx }) => {
      for (const [api, entries] of Object.entries<Plain[]>(ogx.config?.providers ?? {})) {
        for (const entry of entries) expect(entry.config, `${api}/${entry.provider_id}`).toBeDefined();
        for (const entry of llsd.config?.providers?.[api] ?? []) entry.config ??= {};
      }
    },
  },
  {
    // the OGX operator's config generation (provider merge): an OGXServer's providers of an API replace the base's list; an LLSD lays
    // its providers over it. Every base provider the OGXServer loses that is on by default is named
    // in the conversion's warning (nothing dropped silently); `${env.X:+id}` ones are off unless X is
    // set, so not named. The warning may also name the embedding provider the render keeps (A14:
    // the base's vector_stores names it), which is then in both lists.
    what: "the base's providers of each API the OGXServer configures",
    apply: ({ llsd, ogx, spec, warnings }) => {
      const apis: Record<string, string> = { inference: 'inference', vectorIo: 'vector_io', toolRuntime: 'tool_runtime' };
      for (const [field, api] of Object.entries(apis)) {
        if (!spec.providers?.[field]) continue;
        const ours: string[] = (ogx.config?.providers?.[api] ?? []).map((e: Plain) => e.provider_id);
        const dropped: string[] = (llsd.config?.providers?.[api] ?? []).map((e: Plain) => e.provider_id).filter((id: string) => !ours.includes(id));
        const conditional = dropped.filter((id) => /^\$\{env\.[A-Z0-9_]+:\+.*\}$/.test(id));
        const named = warningNames(warnings, `spec.providers.${field}`);
        expect(dropped.filter((id) => !conditional.includes(id)).sort(), `${api}: base providers the OGXServer drops`).toEqual(
          named.filter((id) => !ours.includes(id)).sort(),
        );
        for (const id of named.filter((n) => ours.includes(n)))
          expect(ogx.config?.vector_stores?.default_embedding_model?.provider_id, `${id} named but kept`).toBe(id);
        llsd.config!.providers[api] = llsd.config!.providers[api].filter((e: Plain) => ours.includes(e.provider_id));
        // The same entries, in the operator's order (the spec's providers first).
        llsd.config!.providers[api].sort((a: Plain, b: Plain) => ours.indexOf(a.provider_id) - ours.indexOf(b.provider_id));
      }
    },
  },
  {
    // An LLSD provider that is the base's own entry (same id) keeps the base's other keys; the
    // operator's typed provider writes only the fields set (upstream config generation: typed providers).
    what: "keys of the base's entry an LLSD provider keeps",
    apply: ({ llsd, ogx }) => {
      const base = starterBase();
      for (const [api, entries] of Object.entries<Plain[]>(ogx.config?.providers ?? {})) {
        for (const entry of entries) {
          const theirs = llsd.config?.providers?.[api]?.find((e: Plain) => e.provider_id === entry.provider_id);
          if (!theirs) continue;
          const baseEntry = base.providers?.[api]?.find(
            (e: Plain) => String(e.provider_id).replace(/^\$\{env\.[A-Z0-9_]+:\+(.*)\}$/, '$1') === entry.provider_id,
          );
          for (const key of Object.keys(theirs.config)) {
            if (key in entry.config) continue;
            expect(theirs.config[key], `${api}/${entry.provider_id}.${key} is the base's`).toEqual(baseEntry?.config?.[key]);
            delete theirs.config[key];
          }
        }
      }
    },
  },
  {
    // the OGX operator's config generation (storage): with spec.storage the operator replaces the base's whole `storage`: the
    // stores are metadata, inference, conversations, prompts (without the base's `connectors`
    // store and the inference queue tuning), and a sqlite store is
    // `${env.SQLITE_STORE_DIR:=/.ogx}/{kvstore,sqlstore}.db` where the LLSD's is
    // `<state>/{kvstore,sql_store}.db`: the SQL file has another name, so the data an LLSD kept in
    // sqlite on its (adopted) PVC is not what the OGXServer opens.
    what: 'the storage layout with spec.storage',
    apply: ({ llsd, ogx, spec }) => {
      if (!spec.storage) return;
      const [a, b] = [llsd.config!.storage, ogx.config!.storage];
      expect(Object.keys(b.stores).sort()).toEqual(['conversations', 'inference', 'metadata', 'prompts']);
      expect(Object.keys(a.stores).filter((k) => !(k in b.stores))).toEqual(['connectors']);
      delete a.stores.connectors;
      const tuning = Object.keys(a.stores.inference).filter((k) => !(k in b.stores.inference));
      expect(tuning.sort()).toEqual(['max_write_queue_size', 'num_writers']);
      for (const key of tuning) delete a.stores.inference[key];
      const files: Record<string, [string, string]> = { kv_default: ['kvstore.db', 'kvstore.db'], sql_default: ['sql_store.db', 'sqlstore.db'] };
      for (const [backend, [ours, theirs]] of Object.entries(files)) {
        if (!String(a.backends[backend]?.type).endsWith('sqlite')) continue;
        expect(a.backends[backend].db_path).toBe(`/.ogx/${ours}`);
        expect(b.backends[backend].db_path).toBe(`\${env.SQLITE_STORE_DIR:=/.ogx}/${theirs}`);
        a.backends[backend].db_path = b.backends[backend].db_path;
      }
    },
  },
  {
    // the OGX operator's config generation (models): the OGXServer's models replace the base's; the operator writes no
    // provider_model_id (the server defaults it to model_id) and no metadata.
    what: 'registered models: base models, provider_model_id, metadata',
    apply: ({ llsd, ogx, spec }) => {
      const own = new Set((spec.resources?.models ?? []).map((m: Plain) => m.name));
      if (own.size === 0) return;
      const models: Plain[] = llsd.config?.registered_resources?.models ?? [];
      const base = new Set((starterBase().registered_resources?.models ?? []).map((m: Plain) => m.model_id));
      for (const model of models.filter((m) => !own.has(m.model_id))) expect(base.has(model.model_id), `${model.model_id} is a base model`).toBe(true);
      llsd.config!.registered_resources.models = models.filter((m) => own.has(m.model_id));
      for (const model of llsd.config!.registered_resources.models) {
        expect(model.provider_model_id, `${model.model_id} provider_model_id`).toBe(model.model_id);
        delete model.provider_model_id;
        if (model.metadata !== undefined) {
          const theirs = ogx.config?.registered_resources?.models?.find((m: Plain) => m.model_id === model.model_id);
          expect(theirs?.metadata).toBeUndefined();
          delete model.metadata;
        }
      }
    },
  },
];

// -------------------------------------------------------------------------------------------------
// Deployment: the expected differences.

const deploymentDifferences: Difference[] = [
  {
    // The OGXServer is `<name>-ogx` (docs/ogxserver.md "Migrating"); metadata and selectors are the operator's
    // (the OGX operator's labels and Deployment), the LLSD's are llsd-render's app.kubernetes.io set.
    what: 'name, labels, selectors, owner mark',
    apply: ({ llsd, ogx }) => {
      expect(ogx.name).toBe(`${llsd.name}-ogx`);
      expect(llsd.deployment.metadata.name).toBe(llsd.name);
      expect(ogx.deployment.metadata.name).toBe(ogx.name);
      expect(ogx.deployment.metadata.labels).toEqual({
        'app.kubernetes.io/managed-by': 'ogx-operator',
        'app.kubernetes.io/part-of': 'ogx',
        'ogx.io/watch': 'true',
      });
      expect(llsd.deployment.metadata.labels).toMatchObject({ 'app.kubernetes.io/managed-by': 'llsd-render', 'app.kubernetes.io/instance': llsd.name });
      expect(ogx.deployment.spec.selector.matchLabels).toEqual({ app: 'ogx', 'app.kubernetes.io/instance': ogx.name });
      expect(llsd.deployment.spec.selector.matchLabels).toEqual({ 'app.kubernetes.io/name': 'llama-stack', 'app.kubernetes.io/instance': llsd.name });
      expect(ogx.deployment.spec.template.metadata.labels).toEqual(ogx.deployment.spec.selector.matchLabels);
      // Pod placement (default spread and anti-affinity for more than one pod) selects the same pods
      // by each side's labels: the LLSD's selector, the operator's `{instance}` (upstream objects: the Deployment).
      const placementSelectors: Array<[Side, Plain]> = [[llsd, llsd.deployment.spec.selector.matchLabels], [ogx, { 'app.kubernetes.io/instance': ogx.name }]];
      for (const [side, labels] of placementSelectors) {
        const pod = side.deployment.spec.template.spec;
        const terms = [
          ...(pod.topologySpreadConstraints ?? []),
          ...(pod.affinity?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []).map((t: Plain) => t.podAffinityTerm),
        ];
        for (const term of terms) {
          expect(term.labelSelector).toEqual({ matchLabels: labels });
          term.labelSelector = 'the pods of this server';
        }
      }
      for (const side of [llsd, ogx]) {
        expect(side.deployment.metadata.annotations['llamastack.io/generated-from']).toBe(`ai/${side.name}`);
        delete side.deployment.metadata;
        delete side.deployment.spec.selector;
        delete side.deployment.spec.template.metadata.labels;
      }
    },
  },
  {
    // Each rolls its pods on its own config's sha256 (the config texts differ, see configDifferences).
    what: 'config-hash annotation',
    apply: ({ llsd, ogx }) => {
      for (const side of [llsd, ogx]) {
        const annotations = side.deployment.spec.template.metadata.annotations ?? {};
        if (side.configText !== undefined) expect(annotations['llamastack.io/config-hash']).toBe(createHash('sha256').update(side.configText).digest('hex'));
        delete annotations['llamastack.io/config-hash'];
        if (Object.keys(annotations).length === 0) delete side.deployment.spec.template.metadata.annotations;
      }
    },
  },
  {
    // `<name>-sa` of each, unless the workload names one (then the same on both).
    what: 'ServiceAccount name',
    apply: ({ llsd, ogx }) => {
      const [a, b] = [llsd, ogx].map((s) => s.deployment.spec.template.spec);
      if (a.serviceAccountName !== b.serviceAccountName) {
        expect(a.serviceAccountName).toBe(`${llsd.name}-sa`);
        expect(b.serviceAccountName).toBe(`${ogx.name}-sa`);
        delete a.serviceAccountName;
        delete b.serviceAccountName;
      }
    },
  },
  {
    // the OGX operator's objects (the Deployment): container `ogx`, an unnamed API port plus `metrics` (monitoring on by default);
    // only a startupProbe (15/30/3/1, numeric port); security context fsGroup 1001 only. The LLSD:
    // container `llama-stack`, port `http`, three probes, the restricted security context.
    what: 'container name, ports, probes, security context',
    apply: ({ llsd, ogx }) => {
      const [a, b] = [container(llsd), container(ogx)];
      expect(a.name).toBe('llama-stack');
      expect(b.name).toBe('ogx');
      const port = a.ports[0].containerPort;
      expect(a.ports).toEqual([{ name: 'http', containerPort: port, protocol: 'TCP' }]);
      expect(b.ports).toEqual([{ containerPort: port }, { name: 'metrics', containerPort: 9464 }]);
      expect(b.startupProbe).toEqual({
        httpGet: { path: '/v1/health', port },
        initialDelaySeconds: 15,
        timeoutSeconds: 30,
        failureThreshold: 3,
        successThreshold: 1,
      });
      for (const probe of ['startupProbe', 'readinessProbe', 'livenessProbe']) expect(a[probe].httpGet).toMatchObject({ path: '/v1/health', port: 'http' });
      expect(b.readinessProbe).toBeUndefined();
      expect(b.livenessProbe).toBeUndefined();
      expect(b.securityContext).toBeUndefined();
      expect(a.securityContext).toMatchObject({ allowPrivilegeEscalation: false, runAsNonRoot: true });
      expect(ogx.deployment.spec.template.spec.securityContext).toEqual({ fsGroup: 1001 });
      for (const c of [a, b]) for (const key of ['name', 'ports', 'startupProbe', 'readinessProbe', 'livenessProbe', 'securityContext']) delete c[key];
      for (const side of [llsd, ogx]) delete side.deployment.spec.template.spec.securityContext;
    },
  },
  {
    // The config: the LLSD's ConfigMap as `config` at /etc/llama-stack, the OGXServer's as
    // `user-config` (key config.yaml) at /etc/ogx/; RUN_CONFIG_PATH names each. The state volume:
    // `lls-storage` vs `ogx-storage`, the same source and mount path (an LLSD PVC is adopted).
    what: 'volume names and config mount path',
    apply: ({ llsd, ogx }) => {
      const volumes = (side: Side): Plain[] => side.deployment.spec.template.spec.volumes;
      const mounts = (side: Side): Plain[] => container(side).volumeMounts;
      const take = (list: Plain[], name: string): Plain | undefined => {
        const at = list.findIndex((v) => v.name === name);
        return at < 0 ? undefined : list.splice(at, 1)[0];
      };
      if (llsd.configMapName) {
        expect(take(volumes(llsd), 'config')).toEqual({ name: 'config', configMap: { name: llsd.configMapName } });
        expect(take(mounts(llsd), 'config')).toEqual({ name: 'config', mountPath: '/etc/llama-stack', readOnly: true });
        expect(envOf(llsd).find((e) => e.name === 'RUN_CONFIG_PATH')?.value).toBe('/etc/llama-stack/config.yaml');
      }
      if (ogx.configMapName) {
        expect(take(volumes(ogx), 'user-config')).toEqual({
          name: 'user-config',
          configMap: { name: ogx.configMapName, items: [{ key: 'config.yaml', path: 'config.yaml' }] },
        });
        expect(take(mounts(ogx), 'user-config')).toEqual({ name: 'user-config', mountPath: '/etc/ogx/', readOnly: true });
        expect(envOf(ogx).find((e) => e.name === 'RUN_CONFIG_PATH')?.value).toBe('/etc/ogx/config.yaml');
      }
      const [a, b] = [take(volumes(llsd), 'lls-storage'), take(volumes(ogx), 'ogx-storage')];
      expect({ ...b, name: 'lls-storage' }).toEqual(a);
      const [ma, mb] = [take(mounts(llsd), 'lls-storage'), take(mounts(ogx), 'ogx-storage')];
      expect({ ...mb, name: 'lls-storage' }).toEqual(ma);
      for (const side of [llsd, ogx]) container(side).env = envOf(side).filter((e) => e.name !== 'RUN_CONFIG_PATH');
    },
  },
  {
    // Env: secret vars LLSD_* vs OGX_* from the same Secret keys; the operator always sets HF_HOME,
    // OGX_WORKERS, OGX_CONFIG (with a config) and the three metrics vars (upstream objects: the Deployment); the LLSD
    // sets OGX_CONFIG_DIR (0.8.0+ state relocation) and HF_HOME only with a volume. The rest (port,
    // user env) is compared by name, since the operator appends the user's env last.
    what: 'env names, the operator-only and LLSD-only variables',
    apply: ({ llsd, ogx }) => {
      const [sa, sb] = [secretEnv(llsd), secretEnv(ogx)];
      expect([...sa.values()].sort()).toEqual([...sb.values()].sort());
      const state = (container(ogx).volumeMounts as Plain[] | undefined)?.find((m) => m.name === 'ogx-storage')?.mountPath ?? '/.ogx';
      const operatorOnly: Plain = {
        HF_HOME: state,
        OGX_WORKERS: String(ogx.deployment.spec.template.spec.containers[0].env.find((e: Plain) => e.name === 'OGX_WORKERS')?.value),
        OGX_METRICS_ENDPOINT_ENABLED: '1',
        OGX_METRICS_HOST: '0.0.0.0',
        OGX_METRICS_PORT: '9464',
      };
      if (ogx.configMapName) operatorOnly.OGX_CONFIG = '/etc/ogx/config.yaml';
      const byName = (side: Side): Map<string, Plain> => new Map(envOf(side).filter((e) => !e.valueFrom?.secretKeyRef).map((e) => [e.name, e]));
      const [a, b] = [byName(llsd), byName(ogx)];
      for (const [name, value] of Object.entries(operatorOnly)) {
        expect(b.get(name)?.value, name).toBe(value);
        if (a.get(name)?.value === value) a.delete(name);
        b.delete(name);
      }
      expect(a.get('OGX_CONFIG_DIR')?.value).toBe('/.ogx');
      a.delete('OGX_CONFIG_DIR');
      expect(Object.fromEntries(a)).toEqual(Object.fromEntries(b));
      for (const side of [llsd, ogx]) delete container(side).env;
    },
  },
];

/** Asserts every listed difference, then that nothing else differs. */
/**
 * `workload.workers`: the LLSD writes `server.workers` into config.yaml, the operator only the env
 * var OGX_WORKERS, which `ogx stack run` reads (upstream objects: the Deployment); the same number either way.
 */
function workersDifference({ llsd, ogx }: Compared): void {
  const workers = llsd.config?.server?.workers;
  if (workers === undefined) return;
  expect(envOf(ogx).find((e) => e.name === 'OGX_WORKERS')?.value).toBe(String(workers));
  expect(ogx.config?.server?.workers).toBeUndefined();
  delete llsd.config!.server.workers;
}

function compare(c: Compared): void {
  workersDifference(c);
  if (c.ogx.config === undefined) {
    // The OGX operator's "none" config mode: an OGXServer without providers, resources, storage or
    // disabledAPIs mounts no config and the image runs its own, the distribution's base config.
    // The LLSD renders that base (with its own mark-up): compare it with the base instead.
    expect(c.spec.providers ?? c.spec.resources ?? c.spec.storage ?? c.spec.disabledAPIs).toBeUndefined();
    expect(c.llsd.config).toEqual(starterBase());
    compareDeployments(c);
    return;
  }
  for (const d of configDifferences) d.apply(c);
  expect(c.ogx.config).toEqual(c.llsd.config);
  compareDeployments(c);
}

function compareDeployments(c: Compared): void {
  for (const d of deploymentDifferences) d.apply(c);
  expect(c.ogx.deployment).toEqual(c.llsd.deployment);
}

const secret = (name: string, keys: string[]): string =>
  `apiVersion: v1\nkind: Secret\nmetadata: {name: ${name}, namespace: ai}\nstringData: {${keys.map((k) => `${k}: x`).join(', ')}}\n---\n`;

describe('an LLSD and its converted OGXServer render the same server (issue 17 "Migration")', () => {
  it('v1alpha2: starter, a vLLM provider with a Secret token, one model', () => {
    const c = renderBoth(`${secret('vllm-credentials', ['token'])}apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: chat, namespace: ai}
spec:
  distribution: {name: starter}
  providers:
    inference:
      provider: vllm
      endpoint: http://vllm.ai.svc.cluster.local:8000/v1
      apiKey: {secretKeyRef: {name: vllm-credentials, key: token}}
  resources:
    models:
      - meta-llama/Llama-3.2-3B-Instruct
`);
    compare(c);
  });
  it('v1alpha2: pgvector with a Secret password, redis key-value storage, sqlite SQL storage', () => {
    const c = renderBoth(`${secret('pg-creds', ['password'])}apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: rag, namespace: ai}
spec:
  distribution: {name: starter}
  providers:
    vectorIo:
      provider: pgvector
      host: postgres.ai.svc
      settings: {port: 5432, db: vectors, user: llama}
      secretRefs: {password: {name: pg-creds, key: password}}
  storage:
    kv: {type: redis, endpoint: "redis://redis.ai.svc:6379"}
    sql: {type: sqlite}
`);
    compare(c);
  });

  it('v1alpha2: workload replicas, workers, resources, PVC storage and overrides', () => {
    const c = renderBoth(`apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: busy, namespace: ai}
spec:
  distribution: {name: starter}
  workload:
    replicas: 2
    workers: 2
    resources:
      requests: {cpu: "2", memory: 4Gi}
      limits: {memory: 8Gi}
    storage: {size: 20Gi}
    overrides:
      serviceAccountName: runner
      env:
        - {name: OLLAMA_URL, value: "http://ollama.ai.svc:11434"}
`);
    compare(c);
  });

  it('v1alpha1: distribution, port, env and resources of the container', () => {
    const c = renderBoth(`apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: legacy, namespace: ai}
spec:
  replicas: 1
  server:
    distribution: {name: starter}
    containerSpec:
      port: 8321
      env:
        - {name: OLLAMA_URL, value: "http://ollama.ai.svc:11434"}
      resources:
        requests: {cpu: "1", memory: 2Gi}
`);
    compare(c);
  });
});
