// fast-check arbitraries for v1alpha2 LLSDs that llsd-render renders today (distribution `starter`
// 0.7.1), with the Secrets they refer to. Only fields outside `pendingFields` (src/llsd/plan.ts) are
// generated, and only combinations the renderer accepts: unique provider ids across APIs, env var
// names that cannot collide, `endpoint`/`apiKey`/`host` only on provider types that have that key.
import fc from 'fast-check';
import { distributions, providerFields, providerRegistry } from '../../src/catalog/catalog.js';

/** A provider type of starter 0.7.1 and which CR fields it takes (configs/providers.yaml). */
interface ProviderKind {
  provider: string;
  /** Has a URL key: `endpoint` may be set. */
  url: boolean;
  /** Has a credential key: `apiKey` may be set. */
  credential: boolean;
  /** Reads `host` (pgvector: its URL key is `host`, so `host` is used instead of `endpoint`). */
  host?: boolean;
}

const kind = (provider: string, url: boolean, credential: boolean, host = false): ProviderKind => ({ provider, url, credential, host });

export const providerKinds = {
  inference: [
    kind('vllm', true, true),
    kind('ollama', true, false),
    kind('openai', true, true),
    kind('fireworks', true, true),
    kind('together', true, true),
    kind('groq', true, true),
    kind('nvidia', true, true),
    kind('cerebras', true, true),
    kind('sambanova', true, true),
    kind('azure', true, true),
    kind('databricks', true, true),
    kind('llama-cpp-server', true, true),
    kind('anthropic', false, true),
    kind('gemini', false, true),
    kind('sentence-transformers', false, false),
  ],
  // remote::passthrough (base_url required) and remote::milvus (persistence required, and no base
  // entry of that type to take it from) are left out: without those keys the startup rules rightly
  // refuse the LLSD, and the generator here does not write them.
  safety: [kind('llama-guard', false, false), kind('code-scanner', false, false), kind('prompt-guard', false, false)],
  vectorIo: [
    kind('faiss', false, false),
    kind('sqlite-vec', false, false),
    kind('chromadb', true, false),
    kind('qdrant', true, true),
    kind('pgvector', false, true, true),
    kind('weaviate', true, true),
    kind('elasticsearch', true, true),
  ],
  toolRuntime: [
    kind('brave-search', false, true),
    kind('tavily-search', false, true),
    kind('bing-search', false, true),
    kind('wolfram-alpha', false, true),
    kind('model-context-protocol', false, false),
    kind('file-search', false, false),
  ],
} as const satisfies Record<string, readonly ProviderKind[]>;
export type Api = keyof typeof providerKinds;
export const apis = Object.keys(providerKinds) as Api[];
const providerNames = new Set<string>(Object.values(providerKinds).flatMap((kinds) => kinds.map((k) => k.provider)));

/** Inference provider ids the starter base enables without any env var (literal `provider_id`s). */
export const baseInferenceIds = ['fireworks', 'together', 'bedrock', 'openai', 'anthropic', 'gemini', 'groq', 'sambanova', 'sentence-transformers'];

/** A Secret key reference as the pipeline sees it; the value is generated with the Secret. */
export interface SecretRef {
  name: string;
  key: string;
}

export interface GeneratedLlsd {
  /** The LLSD as a plain object, ready to be written as YAML. */
  llsd: Record<string, any>;
  /** Secrets for every reference in the LLSD, with distinctive random values. */
  secrets: Array<Record<string, any>>;
  /** Every Secret value, to check that none leaks into the output. */
  secretValues: string[];
}

// Built from characters rather than with fc.stringMatching, which is slow enough to dominate a run.
const chars = (set: string) => fc.constantFrom(...set.split(''));
const lower = chars('abcdefghijklmnopqrstuvwxyz');
const lowerDigits = chars('abcdefghijklmnopqrstuvwxyz0123456789');
const alnum = chars('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789');
const word = (unit: fc.Arbitrary<string>, minLength: number, maxLength: number) => fc.string({ unit, minLength, maxLength });

/** `^[a-z][a-z0-9]{0,max-2}(-[a-z0-9]{1,4})?$`: a DNS label. */
const dnsLabel = (max: number) =>
  fc
    .tuple(lower, word(lowerDigits, 0, max - 2), fc.option(word(lowerDigits, 1, 4), { nil: undefined }))
    .map(([first, rest, suffix]) => `${first}${rest}${suffix === undefined ? '' : `-${suffix}`}`);
const secretName = fc.constantFrom('creds', 'llm-creds', 'vector-creds', 'tool-keys', 'shared.secret');
const secretKey = fc.constantFrom('token', 'api-key', 'password', 'client.secret', 'KEY_1');
const ref = fc.record({ name: secretName, key: secretKey });
/** Both spellings the schema accepts. */
const refForm = (r: SecretRef, short: boolean) => (short ? { name: r.name, key: r.key } : { secretKeyRef: { name: r.name, key: r.key } });

const url = fc
  .tuple(
    fc.constantFrom('http', 'https'),
    dnsLabel(10),
    fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
    fc.constantFrom('', '/', '/v1', '/openai/v1'),
  )
  .map(([scheme, host, port, path]) => `${scheme}://${host}.svc${port === undefined ? '' : `:${port}`}${path}`);

/**
 * Keys that cannot make two env var names equal: with `LLSD_<ID>_<FIELD>`, a collision needs one
 * field to end in `_<another field>` or an id to end in `-<part of a field>`; none of these do.
 */
const secretRefKeys = ['bearer', 'passphrase', 'client_cert_key'] as const;

interface ProviderDraft {
  kind: ProviderKind;
  explicitId: boolean;
  endpoint?: string;
  apiKey?: { ref: SecretRef; short: boolean };
  host?: { value: string } | { ref: SecretRef };
  secretRefs: Array<{ key: string; ref: SecretRef; short: boolean }>;
  settings?: { maxTokens?: number; timeout?: number; headers?: Record<string, string>; credential?: SecretRef };
}

const providerDraft = (kinds: readonly ProviderKind[]): fc.Arbitrary<ProviderDraft> =>
  fc.constantFrom(...kinds).chain((k) =>
    fc.record(
      {
        kind: fc.constant(k),
        explicitId: fc.boolean(),
        // vLLM has no default URL: without an endpoint the startup rules rightly refuse it.
        endpoint: k.url ? (k.provider === 'vllm' ? url : fc.option(url, { nil: undefined })) : fc.constant(undefined),
        apiKey: k.credential ? fc.option(fc.record({ ref, short: fc.boolean() }), { nil: undefined }) : fc.constant(undefined),
        host: k.host
          ? fc.option(fc.oneof(fc.record({ value: dnsLabel(12).map((h) => `${h}.db.svc`) }), fc.record({ ref })), { nil: undefined })
          : fc.constant(undefined),
        secretRefs: fc.uniqueArray(fc.record({ key: fc.constantFrom(...secretRefKeys), ref, short: fc.boolean() }), { maxLength: 2, selector: (e) => e.key }),
        settings: fc.option(
          fc.record(
            {
              maxTokens: fc.integer({ min: 1, max: 32768 }),
              timeout: fc.integer({ min: 1, max: 600 }),
              headers: fc.dictionary(fc.constantFrom('x_trace', 'x_team'), word(lowerDigits, 1, 8), { maxKeys: 2 }),
              credential: ref,
            },
            { requiredKeys: [] },
          ),
          { nil: undefined },
        ),
      },
      { requiredKeys: k.provider === 'vllm' ? ['kind', 'explicitId', 'secretRefs', 'endpoint'] : ['kind', 'explicitId', 'secretRefs'] },
    ),
  );

interface ApiDraft {
  list: boolean;
  providers: ProviderDraft[];
}

const apiDraft = (api: Api): fc.Arbitrary<ApiDraft> =>
  fc.oneof(
    providerDraft(providerKinds[api]).map((p) => ({ list: false, providers: [p] })),
    fc.array(providerDraft(providerKinds[api]), { minLength: 1, maxLength: 3 }).map((providers) => ({ list: true, providers })),
  );

const modelChars = chars('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-');
/** `^[A-Za-z][A-Za-z0-9._-]{0,10}(/[A-Za-z0-9._-]{1,10})?$`, e.g. `meta-llama/Llama-3.2`. */
const modelName = fc
  .tuple(chars('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'), word(modelChars, 0, 10), fc.option(word(modelChars, 1, 10), { nil: undefined }))
  .map(([first, rest, org]) => `${first}${rest}${org === undefined ? '' : `/${org}`}`);

interface ModelDraft {
  name: string;
  form: 'string' | 'object';
  providerIndex?: number;
  contextLength?: number;
  type?: 'llm' | 'embedding' | 'rerank';
  embeddingDimension: number;
  quantization?: string;
}

const modelDraft: fc.Arbitrary<ModelDraft> = fc.record(
  {
    name: modelName,
    form: fc.constantFrom('string', 'object'),
    providerIndex: fc.nat(),
    contextLength: fc.integer({ min: 1, max: 1_000_000 }),
    type: fc.constantFrom('llm', 'embedding', 'rerank'),
    embeddingDimension: fc.integer({ min: 1, max: 8192 }),
    quantization: fc.constantFrom('int4', 'fp8'),
  },
  { requiredKeys: ['name', 'form', 'embeddingDimension'] },
);

const quantity = {
  cpu: fc.constantFrom<string | number>('100m', '500m', '1', '2', 1, '1.5'),
  memory: fc.constantFrom('256Mi', '1Gi', '4Gi', '1e9', '512M'),
};

const workload = fc.record(
  {
    replicas: fc.integer({ min: 0, max: 5 }),
    workers: fc.integer({ min: 1, max: 4 }),
    autoscaling: fc.record(
      {
        minReplicas: fc.integer({ min: 1, max: 3 }),
        maxReplicas: fc.integer({ min: 1, max: 6 }),
        targetCPUUtilization: fc.integer({ min: 1, max: 100 }),
        targetMemoryUtilization: fc.integer({ min: 1, max: 100 }),
      },
      { requiredKeys: ['maxReplicas'] },
    ),
    storage: fc.record({ size: fc.constantFrom('1Gi', '20Gi', 5), mountPath: fc.constantFrom('/data', '/.llama', '/var/lib/state') }, { requiredKeys: [] }),
    podDisruptionBudget: fc.oneof(
      fc.record({ minAvailable: fc.constantFrom<number | string>(0, 1, '50%') }),
      fc.record({ maxUnavailable: fc.constantFrom<number | string>(1, 2, '25%') }),
    ),
    topologySpreadConstraints: fc.constant([{ maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway' }]),
    resources: fc.record({ requests: fc.record(quantity, { requiredKeys: [] }), limits: fc.record(quantity, { requiredKeys: [] }) }, { requiredKeys: [] }),
    overrides: fc.record(
      {
        serviceAccountName: dnsLabel(12).map((n) => `${n}-runner`),
        terminationGracePeriodSeconds: fc.integer({ min: 0, max: 120 }),
        env: fc.uniqueArray(
          fc.record({ name: word(chars('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_'), 1, 8).map((n) => `EXTRA_${n}`), value: word(chars('abc012 '), 0, 10) }),
          { minLength: 1, maxLength: 3, selector: (e) => e.name },
        ),
        args: fc.array(fc.constantFrom('--verbose', '--workers=2'), { minLength: 1, maxLength: 2 }),
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: [] },
);

/** Distinctive Secret values: no generated text can contain one by chance. */
const secretValue = word(alnum, 14, 20).map((s) => `SV${s}`);

/**
 * Effective provider ids: an entry may leave out its id (the provider name is used, FR-035) when it
 * is alone in its API and no other entry has the same provider name; otherwise it gets its word.
 * Words are unique and never a provider name, so the ids are unique across APIs (FR-072).
 */
function assignIds(drafts: ReadonlyArray<{ list: boolean; draft: ProviderDraft; count: number }>, words: readonly string[]): string[] {
  return drafts.map(({ list, draft, count }, i) => {
    const alone = !list || count === 1;
    const unique = drafts.every((other, j) => j === i || other.draft.kind.provider !== draft.kind.provider);
    return !draft.explicitId && alone && unique ? draft.kind.provider : (words[i] as string);
  });
}

export interface LlsdOptions {
  /** Give the LLSD kpt's path annotations, so KRM mode places the generated objects next to it. */
  kptPath?: boolean;
}

export function validLlsd(options: LlsdOptions = {}): fc.Arbitrary<GeneratedLlsd> {
  const providerApis = fc.record(
    { inference: apiDraft('inference'), safety: apiDraft('safety'), vectorIo: apiDraft('vectorIo'), toolRuntime: apiDraft('toolRuntime') },
    { requiredKeys: [] },
  );
  return fc
    .record({
      name: dnsLabel(20),
      namespace: fc.option(dnsLabel(12), { nil: undefined }),
      labels: fc.option(fc.dictionary(fc.constantFrom('team', 'env'), dnsLabel(8), { maxKeys: 2 }), { nil: undefined }),
      release: fc.boolean(),
      providers: fc.option(providerApis, { nil: undefined, freq: 6 }),
      models: fc.uniqueArray(modelDraft, { maxLength: 4, selector: (m) => m.name }),
      port: fc.option(fc.integer({ min: 1024, max: 65535 }), { nil: undefined }),
      workload: fc.option(workload, { nil: undefined }),
      // Words for explicit ids: unique, and never a provider name (so no defaulted id equals one).
      idWords: fc.uniqueArray(dnsLabel(10).filter((w) => !providerNames.has(w)), { minLength: 12, maxLength: 12 }),
    })
    .chain((draft) => {
      const refs: SecretRef[] = [];
      const flat = apis.flatMap((api) => {
        const entry = draft.providers?.[api];
        return entry ? entry.providers.map((p) => ({ api, list: entry.list, draft: p, count: entry.providers.length })) : [];
      });
      const ids = assignIds(flat, draft.idWords);
      // The release the LLSD renders for (the annotation below): settings and secretRefs keep to keys it reads.
      const release = draft.release || draft.providers?.safety !== undefined ? '0.7.1' : (distributions().starter?.defaultRelease ?? '0.7.1');
      const providerOf = (i: number): Record<string, unknown> => {
        const { draft: p, list, count, api } = flat[i] as (typeof flat)[number];
        const reads = (key: string): boolean => readsKey(release, api, p.kind.provider, key);
        const out: Record<string, unknown> = {};
        const id = ids[i] as string;
        if (id !== p.kind.provider || (list && count > 1)) out.id = id;
        out.provider = p.kind.provider;
        if (p.endpoint !== undefined) out.endpoint = p.endpoint;
        if (p.apiKey) {
          refs.push(p.apiKey.ref);
          out.apiKey = refForm(p.apiKey.ref, p.apiKey.short);
        }
        if (p.host) {
          if ('value' in p.host) out.host = p.host.value;
          else {
            refs.push(p.host.ref);
            out.host = refForm(p.host.ref, false);
          }
        }
        const secretRefs = p.secretRefs.filter((s) => reads(s.key));
        if (secretRefs.length > 0) {
          out.secretRefs = Object.fromEntries(
            secretRefs.map((s) => {
              refs.push(s.ref);
              return [s.key, refForm(s.ref, s.short)];
            }),
          );
        }
        if (p.settings) {
          const settings: Record<string, unknown> = {};
          if (p.settings.maxTokens !== undefined && reads('max_tokens')) settings.max_tokens = p.settings.maxTokens;
          if (p.settings.timeout !== undefined && reads('timeout')) settings.timeout = p.settings.timeout;
          if (p.settings.headers && Object.keys(p.settings.headers).length > 0 && reads('extra_headers')) settings.extra_headers = p.settings.headers;
          if (p.settings.credential && reads('auth')) {
            refs.push(p.settings.credential);
            settings.auth = { credential: refForm(p.settings.credential, false) };
          }
          if (Object.keys(settings).length > 0) out.settings = settings;
        }
        return out;
      };

      const providers: Record<string, unknown> = {};
      let i = 0;
      for (const api of apis) {
        const entry = draft.providers?.[api];
        if (!entry) continue;
        const built = entry.providers.map(() => providerOf(i++));
        providers[api] = entry.list ? built : built[0];
      }

      const inferenceIds = flat.flatMap((f, j) => (f.api === 'inference' ? [ids[j] as string] : []));
      const enabled = [...inferenceIds, ...baseInferenceIds.filter((id) => !inferenceIds.includes(id) && !ids.includes(id))];
      const models = draft.models.map((m) => {
        // A string model goes to the first inference provider of the CR, so it needs one.
        if (m.form === 'string' && inferenceIds.length > 0) return m.name;
        const model: Record<string, unknown> = { name: m.name };
        if (inferenceIds.length === 0 || m.providerIndex !== undefined) model.provider = enabled[(m.providerIndex ?? 0) % enabled.length];
        if (m.contextLength !== undefined) model.contextLength = m.contextLength;
        if (m.type !== undefined) model.modelType = m.type;
        if (m.type === 'embedding') model.embeddingDimension = m.embeddingDimension;
        if (m.quantization !== undefined) model.quantization = m.quantization;
        return model;
      });

      const spec: Record<string, unknown> = { distribution: { name: 'starter' } };
      if (Object.keys(providers).length > 0) spec.providers = providers;
      if (models.length > 0) spec.resources = { models };
      if (draft.port !== undefined) spec.networking = { port: draft.port };
      if (draft.workload && Object.keys(draft.workload).length > 0) spec.workload = cleanWorkload(draft.workload);

      const metadata: Record<string, unknown> = { name: draft.name };
      if (draft.namespace) metadata.namespace = draft.namespace;
      if (draft.labels && Object.keys(draft.labels).length > 0) metadata.labels = draft.labels;
      const annotations: Record<string, string> = {};
      // The Safety API ends with 0.8.0: a draft with safety renders for a release that has it.
      if (release !== distributions().starter?.defaultRelease) annotations['llamastack.io/release'] = release;
      if (options.kptPath) {
        annotations['config.kubernetes.io/path'] = `stacks/${draft.name}.yaml`;
        annotations['internal.config.kubernetes.io/path'] = `stacks/${draft.name}.yaml`;
      }
      if (Object.keys(annotations).length > 0) metadata.annotations = annotations;
      const llsd = { apiVersion: 'llamastack.io/v1alpha2', kind: 'LlamaStackDistribution', metadata, spec };

      // One Secret per name, one value per key.
      const keysByName = new Map<string, Set<string>>();
      for (const r of refs) keysByName.set(r.name, (keysByName.get(r.name) ?? new Set()).add(r.key));
      const slots = [...keysByName].flatMap(([name, keys]) => [...keys].sort().map((key) => ({ name, key })));
      return fc.array(secretValue, { minLength: slots.length, maxLength: slots.length }).map((values) => {
        const secrets = [...keysByName.keys()].sort().map((name) => {
          const stringData: Record<string, string> = {};
          slots.forEach((slot, k) => {
            if (slot.name === name) stringData[slot.key] = values[k] as string;
          });
          const secretMetadata: Record<string, unknown> = { name };
          if (draft.namespace) secretMetadata.namespace = draft.namespace;
          return { apiVersion: 'v1', kind: 'Secret', metadata: secretMetadata, type: 'Opaque', stringData };
        });
        return { llsd, secrets, secretValues: values };
      });
    });
}

/** Drops the empty `resources` and `overrides` mappings the optional-key records can produce, so the LLSD reads as a user would write it. */
function cleanWorkload(w: Record<string, any>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...w };
  if (w.resources) {
    const resources = Object.fromEntries(Object.entries(w.resources as Record<string, object>).filter(([, v]) => Object.keys(v).length > 0));
    if (Object.keys(resources).length > 0) out.resources = resources;
    else delete out.resources;
  }
  if (w.overrides && Object.keys(w.overrides).length === 0) delete out.overrides;
  // What the rules refuse: an autoscaler whose minimum (max of replicas and minReplicas) exceeds its maximum.
  if (w.autoscaling) {
    const autoscaling = { ...w.autoscaling };
    autoscaling.maxReplicas = Math.max(autoscaling.maxReplicas, autoscaling.minReplicas ?? 1, w.replicas ?? 1);
    out.autoscaling = autoscaling;
  }
  return out;
}

/** Objects unrelated to the LLSD, for shuffling: they must not change what is generated. */
export const unrelatedObjects = fc.array(
  fc.record({ n: fc.nat({ max: 999 }), value: word(lowerDigits, 1, 8) }),
  { maxLength: 3 },
).map((list) =>
  list.map(({ n, value }, i) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `unrelated-${i}-${n}` }, data: { value } })),
);

const serverApis: Record<Api, string> = { inference: 'inference', safety: 'safety', vectorIo: 'vector_io', toolRuntime: 'tool_runtime' };

/** Does provider `name` (`vllm` → remote::vllm, else inline::vllm) of `api` read `key` in `release`? */
function readsKey(release: string, api: Api, name: string, key: string): boolean {
  const serverApi = serverApis[api];
  const types = providerRegistry(release)[serverApi] ?? {};
  const type = Object.hasOwn(types, `remote::${name}`) ? `remote::${name}` : `inline::${name}`;
  return providerFields(release, serverApi, type)?.keys.includes(key) ?? false;
}
