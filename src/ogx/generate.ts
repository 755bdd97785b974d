// Generate config.yaml for an OGXServer in generated mode: first what the OGX operator writes for
// the spec and base (`operatorConfig`, as its generator in pkg/config of ogx-ai/ogx-k8s-operator
// does), then, where that output is something the target OGX release rejects or ignores, what the
// server accepts instead (`adaptToRelease`; each difference is a row of configs/ogx-divergences.yaml
// and the table in docs/ogxserver.md). The § numbers are the generator's steps: §1 the mode, §2 the
// base, §3 the pipeline, §4 providers (typed: configs/ogx-providers.yaml), §5 the per-API merge,
// §7 Secret env vars, §8 models, §9 storage, §11 the server and distro name, §12 the YAML it
// writes, §13 what the release needs instead.
import { isError, type FieldProblem } from '../lib/issues.js';
import { ogxDivergences, providerFields, providerSpec, runConfigStores } from '../catalog/catalog.js';
import { clonePlain, freshCopy, isPlainObject, setOwn } from '../lib/objects.js';
import { writeConfig, type GeneratedConfig, type GenerateOutcome } from '../core/config-file.js';
import { baseVersionProblem } from '../core/base-config.js';
import { envNameClashes } from '../core/env-names.js';
import { clip, code, listOf, quote } from '../lib/quote.js';
import { ogxDeclarative, type OgxPlan } from './plan.js';
import { applyPraxisConfig, emptyExpansion, praxisDefaultDocument, praxisReleaseProblem } from './praxis.js';
import { ogxPraxisEnabled } from '../core/ogx-workload.js';
import { expandOgxProviders, type OgxExpansion, type OgxProviderEntry } from './providers.js';
import { ogxDecimalKeys } from '../catalog/ogx-providers.js';
import { ogxStorage } from '../catalog/ogx-storage.js';
import { runtimeRequiredKeys } from '../catalog/schemas.js';
import { passesInsecure } from '../core/server-settings.js';
import { imageFacts } from '../core/workload.js';
import { namedBefore, pointVectorSettingsAt } from '../core/vector-defaults.js';
import { ogxObjects } from '../catalog/catalog.js';
import type { SecretEnv } from '../core/secrets.js';

type Obj = Record<string, unknown>;
type Path = Array<string | number>;

/** What the operator writes, before the release's corrections: the document, its env vars and the expansion. */
export interface OperatorConfig {
  config: Obj;
  env: SecretEnv[];
  expansion: OgxExpansion;
}

export function generateOgxConfig(plan: OgxPlan): GenerateOutcome {
  const built = operatorConfig(plan);
  if (!built.ok) return built;
  const { config, expansion } = built.value;
  const problems: FieldProblem[] = [...expansion.problems, ...replacedBaseModels(plan)];
  // Praxis mode (src/ogx/praxis.ts): the operator's rewrites, before the release's corrections.
  if (ogxPraxisEnabled(plan.server.spec)) {
    const release = praxisReleaseProblem(plan);
    if (release) return { ok: false, problems: [release] };
    problems.push(...applyPraxisConfig(config, plan));
    if (problems.some(isError)) return { ok: false, problems };
  }
  const env = adaptToRelease(built.value, plan, problems);
  checkEnvCollisions(env, problems);
  const written = writeConfig(sortedDocument(config), problems);
  if (!written.ok) return written;
  const { text, hash } = written;
  const providers = isPlainObject(config.providers) ? Object.values(config.providers) : [];
  const result: GeneratedConfig = {
    text,
    value: config,
    hash,
    env: envList(env),
    providerCount: {
      fromLlsd: [...expansion.providers.values()].reduce((n, list) => n + list.length, 0),
      total: providers.reduce((n: number, list) => n + (Array.isArray(list) ? list.length : 0), 0),
    },
    modelCount: registeredCount(config),
  };
  return { ok: true, config: result, problems };
}

// ---- the operator's generation (§3–§11) -------------------------------------------------------

/** The operator's config.yaml for the plan's spec and base, as data (pipeline of §3). */
export function operatorConfig(plan: OgxPlan): { ok: true; value: OperatorConfig } | { ok: false; problems: FieldProblem[] } {
  const base = plan.baseConfig;
  if (!base) {
    return { ok: false, problems: [{ path: ['spec'], message: 'has nothing to generate a config.yaml from (no base config): this is a bug in llsd-render' }] };
  }
  const missing = baseVersionProblem(base);
  if (missing) return { ok: false, problems: [{ path: basePath(plan), message: missing }] };
  // Praxis mode with only `spec.distribution`: the default config, rewritten (`GeneratePraxisDefaultConfig`).
  if (ogxPraxisEnabled(plan.server.spec) && !ogxDeclarative(plan.server.spec)) {
    return { ok: true, value: { config: praxisDefaultDocument(base, plan.server.spec), env: [], expansion: emptyExpansion() } };
  }
  const spec = plan.server.spec as Obj;
  const parsed = parseBase(base);
  const expansion = expandOgxProviders(spec.providers);
  const providers = mergeProviders(parsed.providers, expansion);
  const problems: FieldProblem[] = [];
  const models = registeredModels(plan, providers, problems);
  if (problems.length > 0) return { ok: false, problems };
  const env = [...expansion.env];
  const storage = spec.storage === undefined || spec.storage === null ? parsed.storage : operatorStorage(spec.storage as Obj, env);
  const apis = (parsed.apis ?? []).filter((api) => !disabledApis(spec).includes(String(api)));

  const config: Obj = { version: String(base.version), distro_name: distroName(spec) };
  if (apis.length > 0) config.apis = apis;
  if (Object.keys(providers).length > 0) config.providers = providers;
  const registered: Obj = {};
  const resourceModels = models.length > 0 ? models : parsed.models;
  if (resourceModels.length > 0) registered.models = resourceModels;
  if (parsed.vectorStores.length > 0) registered.vector_stores = parsed.vectorStores;
  config.registered_resources = registered;
  if (parsed.topVectorStores !== undefined) config.vector_stores = parsed.topVectorStores;
  config.server = serverOf(parsed.server, spec);
  if (storage !== undefined) config.storage = storage;
  return { ok: true, value: { config, env, expansion } };
}

const basePath = (plan: OgxPlan): Path =>
  plan.baseSource === 'baseConfig'
    ? ['spec', 'baseConfig']
    : plan.baseSource === 'image-labels'
      ? ['spec', 'distribution', 'image']
      : ['spec', 'distribution', 'name'];

interface ParsedBase {
  apis: unknown[] | undefined;
  providers: Record<string, Obj[]>;
  models: unknown[];
  vectorStores: unknown[];
  topVectorStores: Obj | undefined;
  server: Obj | undefined;
  storage: Obj | undefined;
}

/** §2.1: the fixed shape the operator parses the base into; everything else is dropped. */
function parseBase(base: Obj): ParsedBase {
  const copy = freshCopy(base);
  const providers: Record<string, Obj[]> = {};
  if (isPlainObject(copy.providers)) {
    for (const [api, list] of Object.entries(copy.providers)) {
      if (!Array.isArray(list)) continue;
      setOwn(
        providers,
        api,
        // A Go map: absent or null marshals as `{}`.
        list.filter(isPlainObject).map((p) => ({ config: p.config ?? {}, provider_id: p.provider_id ?? '', provider_type: p.provider_type ?? '' })),
      );
    }
  }
  const registered = isPlainObject(copy.registered_resources) ? copy.registered_resources : {};
  return {
    apis: Array.isArray(copy.apis) ? copy.apis : undefined,
    providers,
    models: Array.isArray(registered.models) ? registered.models : [],
    vectorStores: Array.isArray(registered.vector_stores) ? registered.vector_stores : [],
    topVectorStores: isPlainObject(copy.vector_stores) ? copy.vector_stores : undefined,
    server: isPlainObject(copy.server) ? copy.server : undefined,
    storage: isPlainObject(copy.storage) ? copy.storage : undefined,
  };
}

/** §5: per API, the spec's non-empty list replaces the base's wholesale. */
function mergeProviders(base: Record<string, Obj[]>, expansion: OgxExpansion): Record<string, Obj[]> {
  const merged: Record<string, Obj[]> = {};
  for (const [api, list] of Object.entries(base)) setOwn(merged, api, list);
  for (const [api, list] of expansion.providers) setOwn(merged, api, list.map((p) => p.entry));
  return merged;
}

/**
 * The CR's models the server cannot register: an embedding model needs metadata.embedding_dimension
 * (OGX stops without it), and an OGXServer model has no field for it (docs/ogxserver.md "Limits").
 * Not the generator's concern (upstream's configgen writes such a model): the front end asks.
 */
export function unregistrableModels(plan: OgxPlan): FieldProblem[] {
  return modelsOf(plan).flatMap((m, i) =>
    m.modelType !== 'embedding'
      ? []
      : [
          {
            path: ['spec', 'resources', 'models', i],
            message:
              `is an embedding model, which the server registers only with its metadata.embedding_dimension, and an OGXServer model has no ` +
              `field for it (OGX would stop at startup): register ${quote(String(m.name))} in a \`spec.baseConfig\` ConfigMap instead ` +
              `(registered_resources.models: [{model_id: ${clip(String(m.name))}, provider_id: …, model_type: embedding, ` +
              'metadata: {embedding_dimension: 768}}]), with every other model beside it and no `spec.resources.models` (models listed ' +
              "there replace the base's). The base is the whole config.yaml: start it from the distribution's (`llsd-render convert --to " +
              'ogx.io/v1beta1` of an LLSD with this model writes one), or give the whole config by `spec.overrideConfig`',
          },
        ],
  );
}

/** The models the config registers (the CR's, else the base's), for the summary. */
function registeredCount(config: Obj): number {
  const registered = config.registered_resources;
  return isPlainObject(registered) && Array.isArray(registered.models) ? registered.models.length : 0;
}

/**
 * §8: `spec.resources.models` replaces the base's models as a whole (as upstream). A base model the
 * CR does not list is then not registered: told, since a base written for an embedding model
 * (which only a base can register) loses it this way without a word.
 */
function replacedBaseModels(plan: OgxPlan): FieldProblem[] {
  const models = modelsOf(plan);
  // Only a base the user wrote (a ConfigMap or their image's labels): a distribution's defaults are meant to be replaced.
  if (models.length === 0 || !plan.baseConfig || plan.baseSource === 'distribution') return [];
  const listed = new Set(models.map((m) => String(m.name)));
  const lost = parseBase(plan.baseConfig).models
    .filter(isPlainObject)
    .map((m) => (typeof m.model_id === 'string' ? m.model_id : ''))
    // An id from the pod's env (`${env.EMBEDDING_MODEL:=}`) is registered only when that is set: not judged here.
    .filter((id) => id !== '' && !id.includes('${env.') && !listed.has(id));
  if (lost.length === 0) return [];
  return [
    {
      severity: 'warning', code: 'base-models-replaced',
      path: ['spec', 'resources', 'models'],
      message: `replaces the models of the base config, so ${listOf(lost.map((id) => quote(id)))} ${lost.length === 1 ? 'is' : 'are'} not registered: ` +
        'list them here too, or (for an embedding model, which only a base can register) move every model into the base\'s ' +
        '`registered_resources.models` and remove `spec.resources.models`',
    },
  ];
}

/** `spec.resources.models`, as written. */
function modelsOf(plan: OgxPlan): Obj[] {
  const resources = (plan.server.spec as Obj).resources;
  return isPlainObject(resources) && Array.isArray(resources.models) ? resources.models.filter(isPlainObject) : [];
}

/**
 * §8: each model gets `provider`, or the byte-order smallest provider_id of the merged inference
 * providers (upstream's rule; the CRD's "first listed" is not what the operator does).
 */
function registeredModels(plan: OgxPlan, providers: Record<string, Obj[]>, problems: FieldProblem[]): Obj[] {
  const ids = (providers.inference ?? []).map((p) => String(p.provider_id)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return modelsOf(plan).map((m, i) => {
    const provider = typeof m.provider === 'string' && m.provider !== '' ? m.provider : ids[0];
    if (provider === undefined) {
      problems.push({
        path: ['spec', 'resources', 'models', i, 'provider'],
        message: `is required here: no inference provider is configured to default to (the operator fails: failed to assign provider for model ` +
          `${quote(String(m.name))}); add \`spec.providers.inference\` or name the provider`,
      });
    }
    const entry: Obj = { model_id: m.name, provider_id: provider ?? '', model_type: typeof m.modelType === 'string' ? m.modelType : 'llm' };
    if (m.contextLength !== undefined) entry.context_length = m.contextLength;
    if (m.quantization !== undefined) entry.quantization = m.quantization;
    return entry;
  });
}

/** §9: `spec.storage` (even `{}`) replaces the base storage with two backends and four stores (configs/ogx-storage.yaml). */
function operatorStorage(storage: Obj, env: SecretEnv[]): Obj {
  const { backends, env: storageEnv, stores } = ogxStorage();
  const kv = isPlainObject(storage.kv) ? storage.kv : {};
  const sql = isPlainObject(storage.sql) ? storage.sql : {};
  let kvDefault: Obj = clonePlain(backends.kv_default.sqlite);
  if (kv.type === 'redis') {
    kvDefault = { ...clonePlain(backends.kv_default.redis), host: kv.endpoint };
    if (isPlainObject(kv.password)) {
      kvDefault.password = `\${env.${storageEnv.kvPassword}}`;
      env.push({
        name: storageEnv.kvPassword,
        secretName: String(kv.password.name),
        key: String(kv.password.key),
        path: ['spec', 'storage', 'kv', 'password'],
      });
    }
  }
  let sqlDefault: Obj = clonePlain(backends.sql_default.sqlite);
  if (sql.type === 'postgres') {
    sqlDefault = { ...clonePlain(backends.sql_default.postgres), connection_string: `\${env.${storageEnv.sqlConnection}}` };
    if (isPlainObject(sql.connectionString)) {
      env.push({
        name: storageEnv.sqlConnection,
        secretName: String(sql.connectionString.name),
        key: String(sql.connectionString.key),
        path: ['spec', 'storage', 'sql', 'connectionString'],
      });
    }
  }
  return { backends: { kv_default: kvDefault, sql_default: sqlDefault }, stores: clonePlain(stores) };
}

const disabledApis = (spec: Obj): string[] => (Array.isArray(spec.disabledAPIs) ? spec.disabledAPIs.map(String) : []);

/** §11: `spec.distribution.name`, else the whole image reference. */
function distroName(spec: Obj): string {
  const distribution = isPlainObject(spec.distribution) ? spec.distribution : {};
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the OGXServer schema makes both strings
  return String(distribution.name ?? distribution.image ?? '');
}

/** §11: the base `server` with `port` = spec.network.port when non-zero, else the base's, else the operator's (8321, configs/ogx-objects.yaml). */
function serverOf(base: Obj | undefined, spec: Obj): Obj {
  const server: Obj = { ...base };
  const network = isPlainObject(spec.network) ? spec.network : {};
  const port = typeof network.port === 'number' && network.port !== 0 ? network.port : (server.port ?? ogxObjects().container.port);
  server.port = port;
  return server;
}

// ---- what the release accepts (§13; configs/ogx-divergences.yaml) ------------------------------

/**
 * Fixes, in place, what the operator writes that the target release rejects or ignores; returns
 * the env vars the pod needs after the fixes. Each rule names its divergence (`ref`).
 */
function adaptToRelease(built: OperatorConfig, plan: OgxPlan, problems: FieldProblem[]): SecretEnv[] {
  const { config, expansion } = built;
  let env = built.env;
  const release = plan.catalogRelease;
  for (const provider of typedEntries(expansion)) {
    renameType(provider, release); // A1–A3
    pgvectorIndex(provider); // A10
    proxyCacert(provider); // B3
    decimalsAsNumbers(provider.entry.config); // S2
  }
  // After the renames: the required keys are those of the type the server runs (A4–A9).
  for (const provider of typedEntries(expansion)) {
    fillRequired(provider, plan); // A4–A9, A16
    dropUnreadKeys(provider, plan, problems); // S3
  }
  warnOverwrittenVectorStoresConfig(config, expansion, plan, problems); // B4
  keepDefaultEmbeddingProviders(config, plan, expansion, problems); // A14
  followVectorProviders(config, expansion, problems); // A18
  dropIgnoredModelKeys(config); // B2
  env = adaptStorage(config, plan, env, problems); // A11, B1, S1
  insecureWithOwnCommand(config, plan, problems); // A17
  // B6: the operator's string "2"; the release's schema reads an integer (the server fixes it up).
  if (/^\d+$/.test(String(config.version))) config.version = Number(config.version);
  return env;
}

const typedEntries = (expansion: OgxExpansion): OgxProviderEntry[] => [...expansion.providers.values()].flat().filter((p) => p.crType !== 'custom');

/** A1–A3: the release's name of a type the operator names wrongly, when the catalog release has it. */
function renameType(provider: OgxProviderEntry, release: string): void {
  const { entry, api } = provider;
  const rename = ogxDivergences().providerTypes.find((r) => r.api === api && r.operator === entry.provider_type);
  if (rename && !providerSpec(release, api, entry.provider_type) && providerSpec(release, api, rename.server)) entry.provider_type = rename.server;
}

/**
 * S2: the CRD types `temperature`, `rrfImpactFactor` and `weightedSearchAlpha` as decimal strings
 * and the operator copies the string; OGX's fields are floats, which pydantic converts the string
 * to. Written as the number it becomes, the config is what the server reads, and the release's
 * schema check (which types them `number`) passes. A string that is no decimal stays, and that
 * check reports it.
 */
function decimalsAsNumbers(config: Record<string, unknown>): void {
  const decimalKeys = ogxDecimalKeys();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    if (!isPlainObject(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if (decimalKeys.has(key) && typeof value === 'string' && /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(value)) node[key] = Number(value);
      else walk(value);
    }
  };
  walk(config.vector_stores_config);
}


/** A10: `{hnsw: {…}}` / `{ivf_flat: {nlist, nprobe}}` → OGX's tagged union. */
function pgvectorIndex(provider: OgxProviderEntry): void {
  const config = provider.entry.config;
  if (provider.crType !== 'pgvector' || !isPlainObject(config.vector_index)) return;
  const index = config.vector_index;
  if (isPlainObject(index.hnsw)) config.vector_index = { type: 'HNSW', ...index.hnsw };
  else if (isPlainObject(index.ivf_flat)) {
    const { nlist, nprobe } = index.ivf_flat;
    config.vector_index = { type: 'IVFFlat', ...(nlist !== undefined && { lists: nlist }), ...(nprobe !== undefined && { probes: nprobe }) };
  }
}

/** B3: the proxy's CA file is `cacert` in OGX. */
function proxyCacert(provider: OgxProviderEntry): void {
  const network = provider.entry.config.network;
  if (!isPlainObject(network) || !isPlainObject(network.proxy) || !Object.hasOwn(network.proxy, 'ca_cert')) return;
  const { ca_cert: cacert, ...rest } = network.proxy;
  network.proxy = { ...rest, cacert };
}

/**
 * A4–A9, A16: each key the release needs that the operator leaves out (those its schema requires,
 * and those it needs at startup although the schema makes them optional: pgvector's `persistence`,
 * configs/release-notes.yaml `requiredAtRuntime`), from the release's own sample config for the
 * type (its distribution directory named as ours), or the value configs/ogx-divergences.yaml gives
 * where the sample's is an env var nothing sets.
 */
function fillRequired(provider: OgxProviderEntry, plan: OgxPlan): void {
  const { api, entry } = provider;
  const fields = providerFields(plan.catalogRelease, api, entry.provider_type);
  const sample = providerSpec(plan.catalogRelease, api, entry.provider_type)?.sample ?? {};
  const required = [...(fields?.required ?? []), ...runtimeRequiredKeys(plan.catalogRelease, api, entry.provider_type)];
  for (const key of required) {
    if (Object.hasOwn(entry.config, key)) continue;
    const given = ogxDivergences().requiredValues.find((r) => r.api === api && r.type === entry.provider_type && r.key === key);
    if (given) setOwn(entry.config, key, clonePlain(given.value));
    else if (Object.hasOwn(sample, key)) setOwn(entry.config, key, withDistro(clonePlain(sample[key]), plan.distributionName));
  }
}

/**
 * S3: a typed field the CRD has but the target release's provider does not read (`doOcr` on a
 * release whose docling has no `do_ocr`): the server ignores the key, and llsd-render writes no key
 * the release does not read, so it is left out with a warning at the provider.
 */
function dropUnreadKeys(provider: OgxProviderEntry, plan: OgxPlan, problems: FieldProblem[]): void {
  const { api, entry, path } = provider;
  const keys = providerFields(plan.catalogRelease, api, entry.provider_type)?.keys;
  if (!keys) return;
  const unread = Object.keys(entry.config).filter((key) => !keys.includes(key));
  for (const key of unread) delete entry.config[key];
  if (unread.length > 0) {
    problems.push({
      severity: 'warning',
      code: 'provider-setting-not-read',
      path,
      message: `sets ${listOf(unread, { each: (key) => code(key) })}, which ${entry.provider_type} of OGX ${plan.release} does not read, so ` +
        `${unread.length === 1 ? 'it is' : 'they are'} left out of config.yaml; remove ${unread.length === 1 ? 'it' : 'them'}, or pin a release that reads ` +
        `${unread.length === 1 ? 'it' : 'them'} (\`llamastack.io/release\`)`,
    });
  }
}

/** The sample's `DISTRO` (its distribution directory) → the plan's distribution. */
function withDistro(value: unknown, distro: string): unknown {
  if (typeof value === 'string') return value.replaceAll('DISTRO', distro);
  if (Array.isArray(value)) return value.map((v) => withDistro(v, distro));
  if (isPlainObject(value)) {
    const out: Obj = {};
    for (const [k, v] of Object.entries(value)) setOwn(out, k, withDistro(v, distro));
    return out;
  }
  return value;
}

/**
 * A14: when the spec's inference providers replace the base's, a base provider that the top-level
 * `vector_stores` names for its default embedding or reranker model stays (after the spec's), so
 * the server finds that model at startup.
 */
function keepDefaultEmbeddingProviders(config: Obj, plan: OgxPlan, expansion: OgxExpansion, problems: FieldProblem[]): void {
  const spec = expansion.providers.get('inference');
  const vectorStores = config.vector_stores;
  const providers = config.providers as Record<string, Obj[]> | undefined;
  if (!spec || !isPlainObject(vectorStores) || !providers?.inference) return;
  const baseList =
    isPlainObject(plan.baseConfig?.providers) && Array.isArray(plan.baseConfig.providers.inference)
      ? plan.baseConfig.providers.inference.filter(isPlainObject)
      : [];
  for (const key of ['default_embedding_model', 'default_reranker_model']) {
    const model = vectorStores[key];
    const id = isPlainObject(model) ? model.provider_id : undefined;
    if (typeof id !== 'string' || providers.inference.some((p) => p.provider_id === id)) continue;
    const kept = baseList.find((p) => p.provider_id === id);
    if (!kept) continue;
    providers.inference.push({ config: clonePlain(kept.config ?? {}), provider_id: id, provider_type: kept.provider_type });
    problems.push({
      severity: 'info',
      path: ['spec', 'providers', 'inference'],
      message: `keeps the base config's inference provider ${quote(id)} (${String(kept.provider_type)}): \`vector_stores.${key}\` of the base names it, and ` +
        `without it OGX ${plan.release} stops at startup (the operator drops it)`,
    });
  }
}

/**
 * A18: the spec's vector_io providers replace the base's, so every setting of the base that names
 * a vector_io provider (`vector_stores.default_provider_id`, the responses provider's
 * `memory_config.default_vector_store_provider_id`, a `vector_stores_config.default_provider_id`)
 * and names none of the spec's is pointed at the spec's first (docs/ogxserver.md). What the spec
 * wrote itself stays as written (the startup rules say when it names no provider of the config).
 */
function followVectorProviders(config: Obj, expansion: OgxExpansion, problems: FieldProblem[]): void {
  const spec = expansion.providers.get('vector_io') ?? [];
  const first = spec[0];
  if (!first) return;
  const target = String(first.entry.provider_id);
  const written = new Set<unknown>([...expansion.providers.values()].flat().map((p) => p.entry));
  const providers = isPlainObject(config.providers) ? (config.providers as Record<string, unknown[]>) : {};
  const changed = pointVectorSettingsAt(
    config,
    target,
    new Set(spec.map((p) => String(p.entry.provider_id))),
    (s) => s.provider !== undefined && written.has(providers[s.provider.api]?.[s.provider.index]),
  );
  if (changed.length === 0) return;
  problems.push({
    severity: 'info',
    path: first.path,
    message: `is the default vector_io provider of the generated config.yaml: ${namedBefore(changed)} now name${changed.length === 1 ? 's' : ''} it, ` +
      `because the spec's vector_io providers replace the base's (the operator leaves ${changed.length === 1 ? 'it' : 'them'} naming a provider the config ` +
      'no longer has); list another provider first to make it the default',
  });
}

/** B4: the server replaces a provider's `vector_stores_config` by the top-level `vector_stores` when the config has one. */
function warnOverwrittenVectorStoresConfig(config: Obj, expansion: OgxExpansion, plan: OgxPlan, problems: FieldProblem[]): void {
  if (!isPlainObject(config.vector_stores)) return;
  for (const provider of typedEntries(expansion)) {
    if (!Object.hasOwn(provider.entry.config, 'vector_stores_config')) continue;
    problems.push({
      severity: 'warning',
      code: 'field-has-no-effect',
      path: [...provider.path, 'vectorStoresConfig'],
      message: `has no effect: OGX ${plan.release} replaces it with the base config's top-level \`vector_stores\` at startup; give the settings in the base ` +
        `config's \`vector_stores\` (by \`spec.baseConfig\`) instead`,
    });
  }
}

/** B2: `context_length` and `quantization` are no fields of an OGX model. */
function dropIgnoredModelKeys(config: Obj): void {
  const models = (config.registered_resources as Obj).models;
  if (!Array.isArray(models)) return;
  for (const model of models) {
    if (!isPlainObject(model)) continue;
    delete model.context_length;
    delete model.quantization;
  }
}

/**
 * A17: `workload.overrides.command` replaces the image entrypoint, and with it the `--insecure` it
 * passes to a strict-TLS release (OGX 1.2+), which then exits at start without TLS. As for an
 * LLSD, the generated config says `server.insecure: true`, unless the command passes `--insecure`
 * itself or the config serves TLS.
 */
function insecureWithOwnCommand(config: Obj, plan: OgxPlan, problems: FieldProblem[]): void {
  const overrides = plan.server.spec.workload?.overrides ?? {};
  const facts = imageFacts(plan);
  if (!overrides.command || !plan.profile.strictTls || !facts.entrypointInsecure || passesInsecure(overrides, facts)) return;
  const server = isPlainObject(config.server) ? config.server : {};
  if (server.insecure === true || (server.tls_certfile !== undefined && server.tls_keyfile !== undefined)) return;
  config.server = { ...server, insecure: true };
  problems.push({
    severity: 'info',
    path: ['spec', 'workload', 'overrides', 'command'],
    message: `replaces the image entrypoint${facts.entrypoint ? ` (${facts.entrypoint})` : ''}, which starts OGX ${plan.release} with \`--insecure\`, ` +
      'and the server refuses to start without TLS unless told it may, so the generated config.yaml sets `server.insecure: true` ' +
      '(the operator writes no such key); pass `--insecure` in the command to make it explicit there',
  });
}

/** A11 (postgres from a connection string: refused) and B1 (redis: host and port, no password). */
function adaptStorage(config: Obj, plan: OgxPlan, env: SecretEnv[], problems: FieldProblem[]): SecretEnv[] {
  const storage = (plan.server.spec as Obj).storage;
  if (!isPlainObject(storage) || !isPlainObject(config.storage)) return env;
  const backends = config.storage.backends as Obj;
  sqlStores(config.storage.stores as Obj, plan.catalogRelease);
  const sql = isPlainObject(storage.sql) ? storage.sql : {};
  if (sql.type === 'postgres') {
    problems.push({
      path: ['spec', 'storage', 'sql', 'type'],
      message: `postgres cannot be used by OGX ${plan.release} from a connection string: its SQL store reads host, port, db, user and password (the ` +
        `operator's \`connection_string\` stops the server with "user Field required"). Use \`type: sqlite\`, or give the whole config.yaml by ` +
        `\`spec.overrideConfig\` with \`storage.backends.sql_default: {type: sql_postgres, host: …, port: …, db: …, user: …, password: \${env.…}}\``,
    });
  }
  const kv = isPlainObject(storage.kv) ? storage.kv : {};
  if (kv.type !== 'redis') return env;
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the OGXServer schema makes the endpoint a string
  const { host, port } = splitRedisEndpoint(String(kv.endpoint ?? ''));
  backends.kv_default = { type: ogxStorage().backends.kv_default.redis.type, host, ...(port !== undefined && { port }) };
  if (isPlainObject(kv.password)) {
    problems.push({
      severity: 'warning',
      code: 'field-has-no-effect',
      path: ['spec', 'storage', 'kv', 'password'],
      message: `is not used: OGX ${plan.release}'s redis store has no password setting (the operator writes one the server ignores), so the Secret is not ` +
        `mounted; use a redis that needs no password from inside the cluster, or remove \`password\``,
    });
    return env.filter((e) => e.name !== ogxStorage().env.kvPassword);
  }
  return env;
}

/**
 * S1: a store the release reads as an SQL reference (1.x `prompts`), which the operator writes in
 * the KV form `{backend: kv_default, namespace}`, in the SQL form the server would convert it to.
 */
function sqlStores(stores: Obj, release: string): void {
  for (const store of runConfigStores(release)) {
    const written = stores[store.name];
    if (store.family !== 'sql' || !isPlainObject(written) || typeof written.backend !== 'string' || !written.backend.startsWith('kv_')) continue;
    stores[store.name] = { backend: `sql_${written.backend.slice('kv_'.length)}`, table_name: store.defaultTable ?? store.name };
  }
}

/** `redis://host:6380/0`, `host:6380` or `host` → host and port (OGX builds `redis://<host>:<port>`). */
export function splitRedisEndpoint(endpoint: string): { host: string; port?: number } {
  const withoutScheme = endpoint.replace(/^rediss?:\/\//, '');
  const hostPort = withoutScheme.split('/')[0] ?? '';
  const auth = hostPort.lastIndexOf('@');
  const bare = auth >= 0 ? hostPort.slice(auth + 1) : hostPort;
  const match = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(bare);
  return match ? { host: match[1] as string, port: Number(match[2]) } : { host: bare };
}

// ---- env vars (§7) ---------------------------------------------------------------------------

/** §7.3: two references that normalise to one env var name but name different secrets or keys. */
function checkEnvCollisions(env: readonly SecretEnv[], problems: FieldProblem[]): void {
  for (const { entry, earlier } of envNameClashes(env, true)) {
    problems.push({
      path: entry.path,
      message:
        `would use the env var ${clip(entry.name)}, which already carries ${quote(`${earlier.secretName}/${earlier.key}`)} ` +
        `(the operator fails: env var name collision, ${earlier.secretName}/${earlier.key} conflicts with ${entry.secretName}/${entry.key}); ` +
        'change a provider id or secretRefs key so the names differ',
    });
  }
}

/** §7.2: first of each name, sorted by name (byte order). */
function envList(env: readonly SecretEnv[]): SecretEnv[] {
  const first = new Map<string, SecretEnv>();
  for (const entry of env) if (!first.has(entry.name)) first.set(entry.name, entry);
  return [...first.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

// ---- serialisation (§12) ---------------------------------------------------------------------

/** The document with every mapping in yaml.v3's key order; `registered_resources` stays models, vector_stores. */
export function sortedDocument(config: Obj): Obj {
  const sorted = sortKeys(config) as Obj;
  const registered = config.registered_resources;
  if (isPlainObject(registered)) {
    const ordered: Obj = {};
    for (const key of ['models', 'vector_stores']) if (Object.hasOwn(registered, key)) setOwn(ordered, key, sortKeys(registered[key]));
    setOwn(sorted, 'registered_resources', ordered);
  }
  return sorted;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isPlainObject(value)) return value;
  const out: Obj = {};
  for (const key of Object.keys(value).sort((a, b) => (naturalLess(a, b) ? -1 : naturalLess(b, a) ? 1 : 0))) setOwn(out, key, sortKeys(value[key]));
  return out;
}

const isDigit = (c: string): boolean => /\p{Nd}/u.test(c);
const isLetter = (c: string): boolean => /\p{L}/u.test(c);

/**
 * yaml.v3's key order (`keyList.Less`): letters by code point, a non-letter before a letter unless
 * digits came before, runs of digits numerically.
 */
export function naturalLess(a: string, b: string): boolean {
  const ar = [...a];
  const br = [...b];
  let digits = false;
  for (let i = 0; i < ar.length && i < br.length; i++) {
    const ac = ar[i] as string;
    const bc = br[i] as string;
    if (ac === bc) {
      digits = isDigit(ac);
      continue;
    }
    const al = isLetter(ac);
    const bl = isLetter(bc);
    if (al && bl) return (ac.codePointAt(0) as number) < (bc.codePointAt(0) as number);
    if (al || bl) return digits ? al : bl;
    let an = 0;
    let bn = 0;
    if (ac === '0' || bc === '0') {
      for (let j = i - 1; j >= 0 && isDigit(ar[j] as string); j--) {
        if (ar[j] !== '0') {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    let ai = i;
    let bi = i;
    for (; ai < ar.length && isDigit(ar[ai] as string); ai++) an = an * 10 + Number(ar[ai]);
    for (; bi < br.length && isDigit(br[bi] as string); bi++) bn = bn * 10 + Number(br[bi]);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return (ac.codePointAt(0) as number) < (bc.codePointAt(0) as number);
  }
  return ar.length < br.length;
}
