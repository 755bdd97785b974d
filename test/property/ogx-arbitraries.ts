// fast-check arbitraries for `ogx.io/v1beta1` OGXServers that llsd-render renders (issue 17), with
// the Secrets and ConfigMaps they refer to. Valid by construction, per the OGX operator's CRD rules
// and config generation (ogx-ai/ogx-k8s-operator): provider ids unique across APIs (webhook), env var
// names that cannot collide (its collision check), `custom` providers of types the target release registers with keys it reads, models
// naming spec inference ids, no API both in `providers` and `disabledAPIs` (CEL), sqlite or redis
// storage (postgres from a connection string is refused by design: divergence A11), ports ≥ 1024
// (A13), and the OGX releases of the catalog through the `llamastack.io/release` annotation.
// `praxisMode` (Tech Preview) only on releases with `server.tenancy` (1.2.0 on; earlier is refused).
import { readFileSync } from 'node:fs';
import { compareVersions } from '../../src/catalog/versions.js';
import fc from 'fast-check';
import { stringify } from 'yaml';
import {
  baseConfig,
  catalogReleaseFor,
  distributions,
  ogxServerReleases,
  providerDependencies,
  providerFields,
  providerRegistry,
} from '../../src/catalog/catalog.js';
import { ogxDisableableApis } from '../../src/ogx/ogxserver.js';
import type { GeneratedLlsd } from './arbitraries.js';

const chars = (set: string) => fc.constantFrom(...set.split(''));
const lower = chars('abcdefghijklmnopqrstuvwxyz');
const lowerDigits = chars('abcdefghijklmnopqrstuvwxyz0123456789');
const alnum = chars('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789');
const word = (unit: fc.Arbitrary<string>, minLength: number, maxLength: number) => fc.string({ unit, minLength, maxLength });
const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });

/** A DNS label of at most `max` characters. */
const dnsLabel = (max: number) =>
  fc
    .tuple(lower, word(lowerDigits, 0, max - 2), opt(word(lowerDigits, 1, 4)))
    .map(([first, rest, suffix]) => `${first}${rest}${suffix === undefined ? '' : `-${suffix}`}`);

/**
 * Words for explicit provider ids: one segment (no `-`), so `OGX_<ID>_<FIELD>` of a word never
 * equals that of another id; never `remote…`/`inline…`/`storage…`, the prefixes of the fixed ids
 * and of the storage env vars.
 */
const idWord = fc.tuple(lower, word(lowerDigits, 2, 8)).map(([a, b]) => `${a}${b}`).filter((w) => !/^(remote|inline|storage)/.test(w));

const url = fc
  .tuple(fc.constantFrom('http', 'https'), dnsLabel(10), opt(fc.integer({ min: 1, max: 65535 })), fc.constantFrom('', '/v1', '/openai/v1'))
  .map(([scheme, host, port, path]) => `${scheme}://${host}.svc${port === undefined ? '' : `:${port}`}${path}`);

/** A Secret key reference; the value is generated with the Secret. */
interface Ref {
  name: string;
  key: string;
}
const ref: fc.Arbitrary<Ref> = fc.record({
  name: fc.constantFrom('creds', 'llm-creds', 'vector-creds', 'tool.keys'),
  key: fc.constantFrom('token', 'api-key', 'password', 'client.secret', 'KEY_1'),
});

/** Distinctive Secret values: no generated text can contain one by chance. */
const secretValue = word(alnum, 14, 20).map((s) => `SV${s}`);

/** A provider entry of the spec before ids are assigned; `secrets` are the refs it holds. */
interface Entry {
  /** Path under `spec.providers`: [api, 'remote' | 'inline', type]. */
  at: [string, 'remote' | 'inline', string];
  /** A list (takes an `id`), or a single object with a fixed id. */
  list: boolean;
  defaultId: string;
  body: Record<string, unknown>;
  /** `custom` entries: the type, for its reads check. */
  customType?: string;
  explicitId: boolean;
}

const entry = (at: Entry['at'], defaultId: string, body: fc.Arbitrary<Record<string, unknown>>, list = true) =>
  fc
    .record({ body, explicitId: list ? fc.boolean() : fc.constant(false) })
    .map(({ body: b, explicitId }): Entry => ({ at, list, defaultId, body: clean(b), explicitId }));

/** Drops the keys an optional record left undefined and the mappings it left empty. */
function clean(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined) continue;
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && !isRef(v)) {
      const inner = clean(v as Record<string, unknown>);
      if (Object.keys(inner).length > 0) out[key] = inner;
    } else out[key] = v;
  }
  return out;
}
const isRef = (v: object): boolean => Object.keys(v).length === 2 && 'name' in v && 'key' in v;

const providerNetwork = fc.record(
  {
    timeout: fc.record({ connect: opt(fc.integer({ min: 1, max: 60 })), read: opt(fc.integer({ min: 1, max: 600 })) }),
    headers: fc.dictionary(fc.constantFrom('X-Team', 'X-Trace'), word(lowerDigits, 1, 8), { minKeys: 1, maxKeys: 2 }),
    tls: fc.record({ verify: opt(fc.boolean()), minVersion: opt(fc.constantFrom('TLSv1.2', 'TLSv1.3')) }),
  },
  { requiredKeys: [] },
);
const inferenceCommon = {
  allowedModels: opt(fc.uniqueArray(dnsLabel(10), { minLength: 1, maxLength: 2 })),
  refreshModels: opt(fc.boolean()),
  network: opt(providerNetwork),
};

/** Custom provider types per API, with settings candidates (kept only when the release reads the key). */
const customTypes: Record<string, Array<{ type: string; settings: fc.Arbitrary<Record<string, unknown>>; secretKeys: string[] }>> = {
  inference: [
    { type: 'remote::groq', settings: fc.record({ base_url: url, refresh_models: fc.boolean() }, { requiredKeys: [] }), secretKeys: ['api_key'] },
    { type: 'remote::ollama', settings: fc.record({ base_url: url, refresh_models: fc.boolean() }, { requiredKeys: ['base_url'] }), secretKeys: [] },
    { type: 'remote::together', settings: fc.record({ base_url: url }, { requiredKeys: [] }), secretKeys: ['api_key'] },
  ],
  vectorIo: [{ type: 'remote::weaviate', settings: fc.record({ weaviate_cluster_url: url }, { requiredKeys: [] }), secretKeys: ['weaviate_api_key'] }],
  toolRuntime: [
    { type: 'remote::wolfram-alpha', settings: fc.constant({}), secretKeys: ['api_key'] },
    { type: 'remote::bing-search', settings: fc.record({ top_k: fc.integer({ min: 1, max: 10 }) }, { requiredKeys: [] }), secretKeys: ['api_key'] },
  ],
};
const serverApi: Record<string, string> = { inference: 'inference', vectorIo: 'vector_io', toolRuntime: 'tool_runtime' };

const customEntry = (api: string) =>
  fc.constantFrom(...(customTypes[api] ?? [])).chain((c) =>
    fc
      .record({
        settings: opt(c.settings),
        secretRefs: fc.subarray(c.secretKeys),
        refs: fc.array(ref, { minLength: 2, maxLength: 2 }),
        explicitId: fc.boolean(),
      })
      .map(({ settings, secretRefs, refs, explicitId }): Entry => {
        const body: Record<string, unknown> = { type: c.type };
        if (secretRefs.length > 0) body.secretRefs = Object.fromEntries(secretRefs.map((k, i) => [k, refs[i]]));
        if (settings && Object.keys(settings).length > 0) body.settings = settings;
        const [prefix] = c.type.split('::') as ['remote' | 'inline'];
        return { at: [api, prefix, 'custom'], list: true, defaultId: c.type.replaceAll('::', '-'), body, customType: c.type, explicitId };
      }),
  );

const typed = {
  inference: [
    entry(
      ['inference', 'remote', 'vllm'],
      'remote-vllm',
      fc.record({ endpoint: url, apiToken: opt(ref), maxTokens: opt(fc.integer({ min: 1, max: 32768 })), ...inferenceCommon }),
    ),
    entry(['inference', 'remote', 'openai'], 'remote-openai', fc.record({ apiKey: ref, endpoint: opt(url), ...inferenceCommon })),
    entry(
      ['inference', 'remote', 'azure'],
      'remote-azure',
      fc.record({ endpoint: url, apiKey: ref, apiVersion: opt(fc.constantFrom('2024-02-01', '2024-10-21')), ...inferenceCommon }),
    ),
    entry(
      ['inference', 'remote', 'bedrock'],
      'remote-bedrock',
      fc.record({
        region: fc.constantFrom('us-east-1', 'eu-west-1'),
        apiKey: opt(ref),
        awsAccessKeyId: opt(ref),
        awsSecretAccessKey: opt(ref),
        totalMaxAttempts: opt(fc.integer({ min: 1, max: 5 })),
        ...inferenceCommon,
      }),
    ),
    entry(
      ['inference', 'remote', 'vertexai'],
      'remote-vertexai',
      fc.record({ project: dnsLabel(12), location: opt(fc.constantFrom('us-central1', 'europe-west4')), ...inferenceCommon }),
    ),
    entry(
      ['inference', 'remote', 'watsonx'],
      'remote-watsonx',
      fc.record({ apiKey: ref, endpoint: opt(url), projectId: opt(dnsLabel(10)), timeout: opt(fc.integer({ min: 1, max: 600 })), ...inferenceCommon }),
    ),
    customEntry('inference'),
  ],
  vectorIo: [
    entry(
      ['vectorIo', 'remote', 'pgvector'],
      'remote-pgvector',
      fc.record({
        password: ref,
        host: opt(dnsLabel(10).map((h) => `${h}.db.svc`)),
        port: opt(fc.integer({ min: 1, max: 65535 })),
        db: opt(dnsLabel(8)),
        user: opt(dnsLabel(8)),
        distanceMetric: opt(fc.constantFrom('COSINE', 'L2', 'L1', 'INNER_PRODUCT')),
        vectorIndex: opt(
          fc.oneof(
            fc.record({ hnsw: fc.record({ m: opt(fc.integer({ min: 1, max: 64 })), efConstruction: opt(fc.integer({ min: 1, max: 400 })) }) }),
            fc.record({ ivfFlat: fc.record({ nlist: opt(fc.integer({ min: 1, max: 1000 })) }) }),
          ),
        ),
      }),
    ),
    entry(['vectorIo', 'remote', 'milvus'], 'remote-milvus', fc.record({ uri: url, token: opt(ref) })),
    entry(
      ['vectorIo', 'remote', 'qdrant'],
      'remote-qdrant',
      fc.oneof(
        fc.record({ url, apiKey: opt(ref), timeout: opt(fc.integer({ min: 1, max: 60 })) }),
        fc.record({ host: dnsLabel(10), port: opt(fc.integer({ min: 1, max: 65535 })), https: opt(fc.boolean()) }),
      ),
    ),
    customEntry('vectorIo'),
  ],
  toolRuntime: [
    entry(['toolRuntime', 'remote', 'braveSearch'], 'remote-brave-search', fc.record({ apiKey: ref, maxResults: opt(fc.integer({ min: 1, max: 20 })) })),
    entry(['toolRuntime', 'remote', 'tavilySearch'], 'remote-tavily-search', fc.record({ apiKey: ref, maxResults: opt(fc.integer({ min: 1, max: 20 })) })),
    entry(['toolRuntime', 'remote', 'modelContextProtocol'], 'remote-model-context-protocol', fc.constant({})),
    entry(['toolRuntime', 'inline', 'fileSearch'], 'inline-file-search', fc.constant({})),
    customEntry('toolRuntime'),
  ],
  files: [
    entry(
      ['files', 'remote', 's3'],
      'remote-s3',
      fc.record({
        bucketName: dnsLabel(12),
        region: opt(fc.constantFrom('us-east-1', 'eu-west-1')),
        awsAccessKeyId: opt(ref),
        awsSecretAccessKey: opt(ref),
        autoCreateBucket: opt(fc.boolean()),
      }),
      false,
    ),
    entry(['files', 'inline', 'localfs'], 'inline-localfs', fc.record({ ttlSecs: opt(fc.integer({ min: 1, max: 86400 })) }), false),
  ],
  batches: [
    entry(
      ['batches', 'inline', 'reference'],
      'inline-reference',
      fc.record({ maxConcurrentBatches: opt(fc.integer({ min: 1, max: 8 })), maxConcurrentRequestsPerBatch: opt(fc.integer({ min: 1, max: 16 })) }),
      false,
    ),
  ],
  responses: [
    entry(
      ['responses', 'inline', 'builtin'],
      'inline-builtin',
      fc.record({
        compactionConfig: opt(
          fc.record({ defaultCompactThreshold: opt(fc.integer({ min: 1, max: 100000 })), summaryPrefix: opt(fc.constantFrom('Summary:', 'Earlier:')) }),
        ),
      }),
      false,
    ),
  ],
  fileProcessors: [
    entry(
      ['fileProcessors', 'remote', 'doclingServe'],
      'remote-docling-serve',
      fc.record({ baseUrl: url, apiKey: opt(ref), defaultChunkSizeTokens: opt(fc.integer({ min: 100, max: 4096 })) }),
      false,
    ),
    entry(
      ['fileProcessors', 'inline', 'pypdf'],
      'inline-pypdf',
      fc.record({ defaultChunkSizeTokens: opt(fc.integer({ min: 100, max: 4096 })), cleanText: opt(fc.boolean()) }),
      false,
    ),
    entry(
      ['fileProcessors', 'inline', 'markitdown'],
      'inline-markitdown',
      fc.record({ defaultChunkOverlapTokens: opt(fc.integer({ min: 0, max: 2048 })) }),
      false,
    ),
    entry(['fileProcessors', 'inline', 'docling'], 'inline-docling', fc.record({ doOcr: opt(fc.boolean()) }), false),
  ],
} as const;
type OgxApi = keyof typeof typed;
const ogxApis = Object.keys(typed) as OgxApi[];
/** The `disabledAPIs` name of each `providers` key (CEL: an API is in one or the other). */
const disabledName: Record<OgxApi, string> = {
  inference: 'inference',
  vectorIo: 'vector_io',
  toolRuntime: 'tool_runtime',
  files: 'files',
  batches: 'batches',
  responses: 'responses',
  fileProcessors: 'file_processors',
};

/**
 * `files` and `file_processors` take one provider each: the server keeps one implementation of such
 * an API, and the render refuses a second (the CRD allows `s3` and `localfs` together).
 */
const singleProviderApis: readonly OgxApi[] = ['files', 'fileProcessors'];
const apiEntries = (api: OgxApi) => fc.array(fc.oneof(...typed[api]), { minLength: 1, maxLength: singleProviderApis.includes(api) ? 1 : 3 });

const quantity = { cpu: fc.constantFrom<string | number>('250m', '1', '2', 1), memory: fc.constantFrom('512Mi', '1Gi', '4Gi') };
const workload = fc.record(
  {
    replicas: fc.integer({ min: 0, max: 4 }),
    workers: fc.integer({ min: 1, max: 4 }),
    resources: fc.record({ requests: fc.record(quantity, { requiredKeys: [] }), limits: fc.record(quantity, { requiredKeys: [] }) }, { requiredKeys: [] }),
    autoscaling: fc.record({
      minReplicas: opt(fc.integer({ min: 1, max: 3 })),
      maxReplicas: fc.integer({ min: 1, max: 6 }),
      targetCPUUtilizationPercentage: opt(fc.integer({ min: 1, max: 100 })),
      targetMemoryUtilizationPercentage: opt(fc.integer({ min: 1, max: 100 })),
    }),
    storage: fc.record({ size: opt(fc.constantFrom('1Gi', '20Gi')), mountPath: opt(fc.constantFrom('/data', '/.ogx')) }),
    podDisruptionBudget: fc.oneof(
      fc.record({ minAvailable: fc.constantFrom<number | string>(0, 1, '50%') }),
      fc.record({ maxUnavailable: fc.constantFrom<number | string>(1, '25%') }),
    ),
    topologySpreadConstraints: fc.constant([
      { maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { app: 'ogx' } } },
    ]),
    overrides: fc.record(
      {
        serviceAccountName: dnsLabel(12).map((n) => `${n}-runner`),
        env: fc.uniqueArray(
          fc.record({ name: word(chars('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_'), 1, 8).map((n) => `EXTRA_${n}`), value: word(chars('abc012 '), 0, 10) }),
          { minLength: 1, maxLength: 3, selector: (e) => e.name },
        ),
        args: fc.array(fc.constantFrom('--verbose', '--log-level=debug'), { minLength: 1, maxLength: 2 }),
        volumes: fc.constant(true),
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: [] },
);

/** What the generator drew, before the OGXServer is written. */
interface Draft {
  name: string;
  namespace?: string;
  distribution: string;
  /** `undefined`: the distribution's default release. */
  release?: string;
  mode: 'generated' | 'override' | 'none';
  viaBaseConfig: boolean;
  providers?: Partial<Record<OgxApi, Entry[]>>;
  models: Array<{ name: string; providerIndex?: number; modelType?: 'llm' | 'rerank'; contextLength?: number }>;
  storage?: { kv?: { redis?: { endpoint: string; password?: Ref } }; sql?: boolean };
  disabled: string[];
  network?: { port?: number; externalAccess?: { enabled: boolean; hostname: boolean; tls: boolean }; policy?: { enabled: boolean; ingress: boolean } };
  monitoring?: { enabled?: boolean; metricsPort?: number };
  tls: boolean;
  workload?: Record<string, any>;
  registryRefresh?: number;
  /** `spec.praxisMode`: `selector` writes a praxisSelector; `migration` a migrationJob (target Secret `praxis-db`). */
  praxis?: {
    enabled?: boolean;
    selector: boolean;
    migration?: { enabled?: boolean; fallbackTenant?: string; fallbackOwnerSubject?: string };
  };
  idWords: string[];
}

export interface OgxOptions {
  /** kpt's path annotations, so KRM mode places the generated objects next to the OGXServer. */
  kptPath?: boolean;
}

const ogxDistributions = (): string[] =>
  Object.entries(distributions())
    .filter(([, d]) => Object.keys(d.releases).some((r) => ogxServerReleases().includes(r)))
    .map(([name]) => name)
    .sort();
const releasesOf = (name: string): string[] => Object.keys(distributions()[name]?.releases ?? {}).filter((r) => ogxServerReleases().includes(r));

/** The PEM CA certificate the unit tests use (a real X.509 certificate: the operator parses it). */
let pem: string | undefined;
const caPem = (): string => (pem ??= readFileSync(new URL('../unit/fixtures/corp-root-ca.pem', import.meta.url), 'utf8'));

export function validOgxServer(options: OgxOptions = {}): fc.Arbitrary<GeneratedLlsd> {
  const draft = fc.constantFrom(...ogxDistributions()).chain((distribution) =>
    fc.record({
      name: dnsLabel(20),
      namespace: opt(dnsLabel(12)),
      distribution: fc.constant(distribution),
      release: opt(fc.constantFrom(...releasesOf(distribution))),
      mode: fc.constantFrom<Draft['mode']>('generated', 'generated', 'generated', 'override', 'none'),
      viaBaseConfig: fc.boolean(),
      providers: opt(
        fc.record(Object.fromEntries(ogxApis.map((api) => [api, apiEntries(api)])) as { [K in OgxApi]: fc.Arbitrary<Entry[]> }, { requiredKeys: [] }),
      ),
      // No `embedding` model: OGX needs its `metadata.embedding_dimension`, which an OGXServer
      // model cannot give, and the render refuses it (reported as a finding, issue 17).
      models: fc.uniqueArray(
        fc.record({
          name: dnsLabel(12),
          providerIndex: opt(fc.nat()),
          modelType: opt(fc.constantFrom<'llm' | 'rerank'>('llm', 'rerank')),
          contextLength: opt(fc.integer({ min: 1, max: 131072 })),
        }),
        { maxLength: 3, selector: (m) => m.name },
      ),
      storage: opt(
        fc.record({
          kv: opt(fc.record({ redis: opt(fc.record({ endpoint: fc.constantFrom('redis', 'redis.cache.svc', 'redis://r.svc:6380'), password: opt(ref) })) })),
          sql: opt(fc.boolean()),
        }),
      ),
      disabled: fc.subarray([...ogxDisableableApis]),
      network: opt(
        fc.record({
          port: opt(fc.integer({ min: 1024, max: 65535 })),
          externalAccess: opt(fc.record({ enabled: fc.boolean(), hostname: fc.boolean(), tls: fc.boolean() })),
          policy: opt(fc.record({ enabled: fc.boolean(), ingress: fc.boolean() })),
        }),
      ),
      monitoring: opt(fc.record({ enabled: opt(fc.boolean()), metricsPort: opt(fc.integer({ min: 1024, max: 65535 })) })),
      tls: fc.boolean(),
      workload: opt(workload),
      registryRefresh: opt(fc.integer({ min: 1, max: 3600 })),
      praxis: opt(
        fc.record({
          enabled: opt(fc.boolean()),
          selector: fc.boolean(),
          migration: opt(
            fc.record(
              {
                enabled: opt(fc.boolean()),
                fallbackTenant: opt(fc.constantFrom('team-a', 't_1', '0')),
                fallbackOwnerSubject: opt(fc.constantFrom('system:migrated', "o'brien", 'a b')),
              },
              { requiredKeys: [] },
            ),
          ),
        }),
      ),
      idWords: fc.uniqueArray(idWord, { minLength: 24, maxLength: 24 }),
    }),
  ) as fc.Arbitrary<Draft>;
  return draft.chain((d) => {
    const built = buildOgx(d, options);
    return fc.array(secretValue, { minLength: built.slots.length, maxLength: built.slots.length }).map((values) => {
      const secrets = [...new Set(built.slots.map((s) => s.name))].sort().map((name) => {
        const stringData: Record<string, string> = {};
        built.slots.forEach((slot, k) => {
          if (slot.name === name) stringData[slot.key] = values[k] as string;
        });
        return {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name, ...(d.namespace ? { namespace: d.namespace } : {}), labels: { 'ogx.io/watch': 'true' } },
          type: 'Opaque',
          stringData,
        };
      });
      return { llsd: built.server, secrets: [...secrets, ...built.configMaps], secretValues: values };
    });
  });
}

function buildOgx(d: Draft, options: OgxOptions): { server: Record<string, any>; configMaps: object[]; slots: Ref[] } {
  const release = d.release ?? distributions()[d.distribution]?.defaultRelease ?? '1.3.0';
  // The provider facts of a distribution's release (rh: 1.2.4) are the catalog release of its line's.
  const facts = catalogReleaseFor(release) ?? release;
  const refs: Ref[] = [];
  const configMaps: object[] = [];
  const ns = d.namespace ? { namespace: d.namespace } : {};
  const configMap = (name: string, data: Record<string, string>) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, ...ns, labels: { 'ogx.io/watch': 'true' } },
    data,
  });
  const collect = (value: unknown): void => {
    if (value === null || typeof value !== 'object') return;
    if (isRef(value)) refs.push(value as Ref);
    else for (const v of Object.values(value)) collect(v);
  };

  const spec: Record<string, any> = { distribution: { name: d.distribution } };
  if (d.mode === 'override') {
    spec.overrideConfig = { name: 'ogx-config', key: 'config.yaml' };
    configMaps.push(configMap('ogx-config', { 'config.yaml': baseText(d.distribution, release) }));
  } else if (d.mode === 'generated') {
    const inferenceIds = writeProviders(d, spec, facts);
    collect(spec.providers);
    // postgres-demo's base registers models of its own vLLM and sentence-transformers providers;
    // spec inference providers replace those, and the base models would name missing providers
    // (reported as a finding, issue 17): such a spec gives its own models, which replace the base's.
    const models = d.models.length === 0 && d.distribution === 'postgres-demo' && inferenceIds.length > 0 ? [{ name: 'chat' }] : d.models;
    if (models.length > 0) {
      spec.resources = {
        models: models.map((m: Draft['models'][number]) => {
          const model: Record<string, unknown> = { name: m.name };
          // The webhook checks a named provider against the spec's ids; without spec inference
          // ids the default (the smallest base inference id) is used.
          if (m.providerIndex !== undefined && inferenceIds.length > 0) model.provider = inferenceIds[m.providerIndex % inferenceIds.length];
          if (m.modelType !== undefined) model.modelType = m.modelType;
          if (m.contextLength !== undefined) model.contextLength = m.contextLength;
          return model;
        }),
      };
    }
    if (d.storage) {
      const storage: Record<string, unknown> = {};
      if (d.storage.kv)
        storage.kv = d.storage.kv.redis
          ? { type: 'redis', endpoint: d.storage.kv.redis.endpoint, ...(d.storage.kv.redis.password ? { password: d.storage.kv.redis.password } : {}) }
          : { type: 'sqlite' };
      if (d.storage.sql !== undefined) storage.sql = d.storage.sql ? { type: 'sqlite' } : {};
      spec.storage = storage;
      collect(storage);
    }
    const taken = new Set(Object.keys(spec.providers ?? {}).map((api) => disabledName[api as OgxApi]));
    // `conversations` is in no OGX base's `apis` (the server serves it without), so disabling it removes nothing a provider needs.
    const disabled = d.disabled.filter((api) => !taken.has(api) && (api === 'conversations' || !neededApis(facts).has(api)));
    if (disabled.length > 0) spec.disabledAPIs = disabled;
    // Generation needs one declarative field: a spec without any gets `storage: {}`.
    if (!spec.providers && !spec.resources && !spec.storage && !spec.disabledAPIs) spec.storage = {};
    if (d.viaBaseConfig) {
      spec.baseConfig = { name: 'ogx-base', key: 'base.yaml' };
      configMaps.push(configMap('ogx-base', { 'base.yaml': baseText(d.distribution, release) }));
    }
  }
  if (d.network) {
    const network: Record<string, unknown> = {};
    if (d.network.port !== undefined) network.port = d.network.port;
    // The operator's main requires `hostname` and `tls` with `enabled: true`; a disabled one may still carry them.
    const access = d.network.externalAccess;
    if (access !== undefined) {
      network.externalAccess = {
        enabled: access.enabled,
        ...((access.enabled || access.hostname) && { hostname: `${d.name}.apps.example.com` }),
        ...((access.enabled || access.tls) && { tls: { secretName: `${d.name}-tls` } }),
      };
    }
    if (d.network.policy) {
      network.policy = { enabled: d.network.policy.enabled };
      if (d.network.policy.ingress)
        (network.policy as Record<string, unknown>).ingress = [
          { from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'gateway' } } }] },
        ];
    }
    spec.network = network;
  }
  if (d.monitoring) spec.monitoring = clean(d.monitoring);
  if (d.tls) {
    spec.tls = { trust: { caCertificates: [{ name: 'corp-ca', key: 'ca.crt' }] } };
    configMaps.push(configMap('corp-ca', { 'ca.crt': caPem() }));
  }
  if (d.workload) spec.workload = cleanWorkload(d.workload);
  // postgres-demo's base reads its vLLM URL and model from env vars without defaults: the server
  // stops without them, so a user sets them (the render says so).
  if (d.distribution === 'postgres-demo') {
    const overrides = ((spec.workload ??= {}).overrides ??= {});
    overrides.env = [
      ...(overrides.env ?? []),
      { name: 'VLLM_URL', value: 'http://vllm.svc:8000/v1' },
      { name: 'INFERENCE_MODEL', value: 'meta-llama/Llama-3.2-3B-Instruct' },
    ];
  }
  // rh's base keeps its storage on PostgreSQL and reads the database and user from env vars
  // without defaults: OGX refuses the config without them (the render says so).
  if (d.distribution === 'rh') {
    const overrides = ((spec.workload ??= {}).overrides ??= {});
    overrides.env = [...(overrides.env ?? []), { name: 'POSTGRES_DB', value: 'ogx' }, { name: 'POSTGRES_USER', value: 'ogx' }];
  }
  if (d.registryRefresh !== undefined) spec.registryRefreshIntervalSeconds = d.registryRefresh;
  // Praxis mode needs OGX 1.2 (server.tenancy); on an older release the draft renders without it.
  if (d.praxis && compareVersions(release, '1.2.0') >= 0) {
    const praxis: Record<string, unknown> = {};
    if (d.praxis.enabled !== undefined) praxis.enabled = d.praxis.enabled;
    if (d.praxis.selector) praxis.praxisSelector = { namespace: 'praxis', podSelector: { matchLabels: { 'app.kubernetes.io/name': 'praxis' } } };
    if (d.praxis.migration) {
      const target = { name: 'praxis-db', key: 'url' };
      praxis.migrationJob = { ...clean(d.praxis.migration), targetConnectionString: target };
      // Its Secret (and value) only when the Job is rendered: otherwise nothing reads it.
      if (d.praxis.enabled !== false && d.praxis.migration.enabled !== false) refs.push(target);
    }
    spec.praxisMode = praxis;
  }

  const annotations: Record<string, string> = {};
  if (d.release !== undefined) annotations['llamastack.io/release'] = d.release;
  if (options.kptPath) {
    annotations['config.kubernetes.io/path'] = `stacks/${d.name}.yaml`;
    annotations['internal.config.kubernetes.io/path'] = `stacks/${d.name}.yaml`;
  }
  const metadata: Record<string, unknown> = { name: d.name, ...ns };
  if (Object.keys(annotations).length > 0) metadata.annotations = annotations;
  const server = { apiVersion: 'ogx.io/v1beta1', kind: 'OGXServer', metadata, spec };
  // One slot per Secret key.
  const seen = new Set<string>();
  const slots = refs
    .filter((r) => !seen.has(`${r.name}/${r.key}`) && seen.add(`${r.name}/${r.key}`))
    .sort((a, b) => `${a.name}/${a.key}`.localeCompare(`${b.name}/${b.key}`));
  return { server, configMaps, slots };
}

/**
 * The APIs some provider type of the release needs. Disabling one only drops it from `apis`; the
 * providers that need it stay (the OGX operator's disabledAPIs rule), and the server stops without its router.
 */
function neededApis(release: string): Set<string> {
  const registry = providerRegistry(release);
  return new Set(Object.entries(registry).flatMap(([api, types]) => Object.keys(types).flatMap((type) => providerDependencies(release, api, type))));
}

/** Writes `spec.providers` with unique ids; returns the inference ids, sorted. */
function writeProviders(d: Draft, spec: Record<string, any>, release: string): string[] {
  if (!d.providers) return [];
  const used = new Set<string>();
  let words = 0;
  const inferenceIds: string[] = [];
  const providers: Record<string, any> = {};
  for (const api of ogxApis) {
    const entries = d.providers[api];
    if (!entries) continue;
    for (const e of entries) {
      // A single-object type appears once (its id is fixed).
      const [, side, type] = e.at;
      const group = ((providers[api] ??= {})[side] ??= {});
      if (!e.list && group[type] !== undefined) continue;
      const body = { ...e.body };
      if (e.customType) narrowCustom(body, release, api, e.customType);
      // OGX 1.0.0's inline::docling reads no `do_ocr`, and the render refuses the key the operator
      // writes for `doOcr` (reported as a finding, issue 17).
      if (type === 'docling' && !(providerFields(release, 'file_processors', 'inline::docling')?.keys.includes('do_ocr') ?? false)) delete body.doOcr;
      let id = e.defaultId;
      if (e.list && (e.explicitId || used.has(id))) {
        id = d.idWords[words++ % d.idWords.length] as string;
        body.id = id;
      }
      if (used.has(id)) continue;
      used.add(id);
      if (api === 'inference') inferenceIds.push(id);
      if (e.list) (group[type] ??= []).push(body);
      else group[type] = body;
    }
  }
  spec.providers = providers;
  return inferenceIds.sort();
}

/** A custom provider keeps only the settings and secretRefs keys its type reads in the release. */
function narrowCustom(body: Record<string, any>, release: string, api: string, type: string): void {
  const keys = providerFields(release, serverApi[api] as string, type)?.keys ?? [];
  if (body.settings) {
    body.settings = Object.fromEntries(Object.entries(body.settings as Record<string, unknown>).filter(([k]) => keys.includes(k)));
    if (Object.keys(body.settings).length === 0) delete body.settings;
  }
  if (body.secretRefs) {
    body.secretRefs = Object.fromEntries(Object.entries(body.secretRefs as Record<string, unknown>).filter(([k]) => keys.includes(k)));
    if (Object.keys(body.secretRefs).length === 0) delete body.secretRefs;
  }
}

/** The distribution's config.yaml of the release, as a user would put it in a ConfigMap. */
function baseText(distribution: string, release: string): string {
  const path = distributions()[distribution]?.releases[release]?.config as string;
  return stringify(baseConfig(path));
}

function cleanWorkload(w: Record<string, any>): Record<string, unknown> {
  const out: Record<string, unknown> = clean({ ...w, overrides: undefined, autoscaling: undefined });
  if (w.overrides) {
    const overrides: Record<string, unknown> = clean({ ...w.overrides, volumes: undefined });
    if (w.overrides.volumes) {
      overrides.volumes = [{ name: 'scratch', emptyDir: {} }];
      overrides.volumeMounts = [{ name: 'scratch', mountPath: '/scratch' }];
    }
    if (Object.keys(overrides).length > 0) out.overrides = overrides;
  }
  if (w.autoscaling) {
    const a = clean(w.autoscaling) as Record<string, number>;
    // CEL: maxReplicas ≥ minReplicas; and ≥ replicas, which the HPA's minimum also takes (an HPA
    // with its minimum above its maximum is refused by the API server: an error result).
    a.maxReplicas = Math.max(a.maxReplicas as number, a.minReplicas ?? 1, typeof out.replicas === 'number' ? out.replicas : 1);
    out.autoscaling = a;
  }
  return out;
}
