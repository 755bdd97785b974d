// The parts of an LLSD → OGXServer conversion below the providers (to-ogxserver.ts): models and
// the base config that carries embedding models, storage, disabled APIs, network, CA trust and the
// workload. Each returns the OGXServer field and pushes what it cannot carry as a problem at the
// LLSD field.
import { selectorOf } from '../core/secrets.js';
import { clonePlain, isPlainObject, setOwn } from '../lib/objects.js';
import { clip, listOf, quote } from '../lib/quote.js';
import { type FieldProblem } from '../lib/issues.js';
import { type Llsd, type ModelEntry } from '../llsd/llsd.js';
import { type SecretRefInput, type StorageBackendInput } from '../llsd/llsd-v1alpha2.js';
import { ogxDisableableApis, type OgxServer } from '../ogx/ogxserver.js';
import { planOgxServer } from '../ogx/plan.js';
import { inventoryOf } from '../krm/inventory.js';
import { stringifyPlainYaml } from '../krm/yaml.js';
import { fitName } from '../lib/names.js';

type Plain = Record<string, unknown>;
type Path = Array<string | number>;

/**
 * Where an OGXServer field came from: the LLSD field at `llsd`; `sameBelow` when the fields under
 * both are named alike (a workload's `resources`), so the rest of the path is kept.
 */
export interface Source {
  ogx: Path;
  llsd: Path;
  sameBelow?: boolean;
}

// ---------------------------------------------------------------------------------------------
// resources, storage, disabled APIs

/**
 * Models, each with its provider named: an LLSD model without one goes to the first inference
 * provider of the LLSD, an OGXServer's to the alphabetically smallest id (the operator's rule).
 */
export function convertResources(llsd: Llsd, providers: Plain | undefined, problems: FieldProblem[], sources: Source[]): Plain | undefined {
  const first = llsd.providers.find((p) => p.api === 'inference')?.id;
  const models = llsd.models.map((model, i) => {
    sources.push({ ogx: ['spec', 'resources', 'models', i], llsd: model.path });
    if (providers) baseProviderProblem(model, llsd, providerIdsOf(providers), problems);
    return convertModel(model, first, problems);
  });
  for (const kind of ['tools', 'shields'] as const) {
    if (llsd.spec.resources?.[kind] === undefined) continue;
    const instead =
      kind === 'tools'
        ? 'OGX registers the tool groups of its tool_runtime providers itself; configure the provider under `spec.providers.toolRuntime`'
        : 'OGXServer has no safety API; to keep shields, write the whole config.yaml in a ConfigMap and set `spec.overrideConfig`';
    problems.push({ severity: 'warning', code: 'ogx-conversion', path: ['spec', 'resources', kind], message:
      `is dropped: OGXServer registers only models; ${instead}` });
  }
  return models.length > 0 ? { models } : undefined;
}

/** The `id` of every provider entry of a converted `spec.providers` (each is written with its id). */
const providerIdsOf = (providers: Plain): string[] =>
  Object.values(providers).flatMap((groups) =>
    Object.values(groups as Plain).flatMap((lists) =>
      Object.values(lists as Plain).flatMap((entries) => (entries as Plain[]).map((entry) => String(entry.id))),
    ),
  );

/**
 * A model that names a provider of the distribution's base rather than one of the LLSD's: an LLSD
 * lays its providers over the base, but an OGXServer with `spec.providers` registers a model only
 * with one of them (the operator's admission webhook), so the conversion cannot keep it.
 */
function baseProviderProblem(model: ModelEntry, llsd: Llsd, ids: string[], problems: FieldProblem[]): void {
  if (model.provider === undefined || ids.includes(model.provider) || llsd.providers.some((p) => p.id === model.provider)) return;
  problems.push({
    path: [...model.path, 'provider'],
    message: `cannot be converted: names ${quote(model.provider)}, a provider of the distribution's base config, not of the LLSD; an OGXServer with ` +
      '`spec.providers` registers a model only with one of its own providers (its admission webhook refuses any other), and its providers of an API ' +
      `replace the distribution's: add ${quote(model.provider)} to the LLSD's \`providers\` ` +
      `(e.g. \`inference: [{id: ${clip(model.provider)}, provider: …}]\`) and convert again, or name one of ${listOf(ids.map((id) => quote(id)))}`,
  });
}

function convertModel(model: ModelEntry, first: string | undefined, problems: FieldProblem[]): Plain {
  const out: Plain = { name: model.name };
  const provider = model.provider ?? first;
  if (provider !== undefined) out.provider = provider;
  else {
    problems.push({
      severity: 'warning', code: 'ogx-conversion',
      path: model.path,
      message: "names no provider and the LLSD has no inference provider: the OGXServer registers it with the distribution's alphabetically first inference " +
        "provider; name one in `provider`",
    });
  }
  if (model.modelType !== undefined) out.modelType = model.modelType;
  if (model.contextLength !== undefined) out.contextLength = model.contextLength;
  if (model.quantization !== undefined) out.quantization = model.quantization;
  return out;
}

/** The key of the base ConfigMap that holds the config.yaml, and the label the operator's cache needs to see it (GENERATION.md §2). */
const baseKey = 'config.yaml';
const watchLabel = 'ogx.io/watch';

/**
 * An embedding model as an OGXServer can register it: an OGXServer model has no field for its
 * `embeddingDimension` (`build` refuses an embedding model in `spec.resources.models`, OGX stops
 * without metadata.embedding_dimension), but the models of a `spec.baseConfig` are written as they
 * are. So when the LLSD has one, every model goes into a ConfigMap beside the OGXServer holding the
 * distribution's config.yaml of the release with the models registered (a non-empty
 * `spec.resources.models` would replace them), and `spec.baseConfig` names it. Without a base
 * convert can read (an image whose config is in the registry), each embedding model is an error.
 */
export function carryEmbeddingModels(server: OgxServer, spec: Plain, llsd: Llsd, problems: FieldProblem[]): Plain[] {
  const embedding = llsd.models.filter((m) => m.modelType === 'embedding');
  if (embedding.length === 0) return [];
  const planned = planOgxServer(server, inventoryOf([]));
  const plan = planned.ok && planned.plan.mode === 'generated' && planned.plan.baseSource === 'distribution' ? planned.plan : undefined;
  if (!plan?.baseConfig) {
    for (const model of embedding) {
      problems.push({
        path: model.path,
        message: `cannot be converted: ${quote(model.name)} is an embedding model, which an OGXServer registers only from a \`spec.baseConfig\` ConfigMap ` +
          `(\`build\` refuses it in \`spec.resources.models\`: the model has no field for \`embeddingDimension\`, without which OGX stops), and convert ` +
          `writes that ConfigMap only for a named distribution (\`spec.distribution.name\`), not for ${
            llsd.spec.overrideConfig ? 'an LLSD with `overrideConfig`' : "an image whose config.yaml is read from the registry"}: ` +
          `set \`distribution.name\`, or remove the model, convert, and write a ConfigMap with the image's config.yaml whose ` +
          `\`registered_resources.models\` lists {model_id: ${clip(model.name)}, provider_id: …, model_type: embedding, metadata: {embedding_dimension: ` +
          `${model.embeddingDimension ?? 768}}} and set \`spec.baseConfig\` to it`,
      });
    }
    return [];
  }
  const base = clonePlain(plan.baseConfig);
  const models = llsd.models.map((model) => registeredModel(model, llsd, base));
  base.registered_resources = { ...(isPlainObject(base.registered_resources) ? base.registered_resources : {}), models };
  const name = fitName(server.metadata.name, '-base-config', 253);
  const metadata: Plain = { name };
  if (server.metadata.namespace !== undefined) metadata.namespace = server.metadata.namespace;
  metadata.labels = { [watchLabel]: 'true' };
  // The models are the base's now; `resources: {}` keeps the config generated (GENERATION.md §1).
  spec.resources = {};
  spec.baseConfig = { name, key: baseKey };
  problems.push({
    severity: 'warning', code: 'ogx-conversion',
    path: embedding[0]?.path ?? ['spec', 'resources', 'models'],
    message: `is an embedding model, and an OGXServer model has no field for \`embeddingDimension\` (\`build\` refuses it in \`spec.resources.models\`, ` +
      `OGX stops without metadata.embedding_dimension): so every model (${listOf(llsd.models.map((m) => quote(m.name)))}) is registered from the ConfigMap ` +
      `${quote(name)} written beside the OGXServer, which \`spec.baseConfig\` names. \`build\` generates the config from it: the config.yaml of ` +
      `${quote(String(llsd.spec.distribution.name))} ${plan.release} with the models in \`registered_resources.models\`, the OGXServer's providers, ` +
      `storage and APIs laid over it. It stays at ${plan.release}: convert again when you change the release`,
  });
  return [{ apiVersion: 'v1', kind: 'ConfigMap', metadata, data: { [baseKey]: stringifyPlainYaml(base) } }];
}

/**
 * A model as the LLSD's config registers it (src/llsd/resources.ts), with its provider: the one it
 * names, else the LLSD's first inference provider, else the base's byte-order smallest inference
 * provider id (the operator's rule, as if the model were in `spec.resources.models`).
 */
function registeredModel(model: ModelEntry, llsd: Llsd, base: Plain): Plain {
  const baseIds = isPlainObject(base.providers) && Array.isArray(base.providers.inference)
    ? base.providers.inference.flatMap((p) => (isPlainObject(p) && typeof p.provider_id === 'string' ? [p.provider_id] : []))
    : [];
  const provider = model.provider ?? llsd.providers.find((p) => p.api === 'inference')?.id ?? baseIds.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))[0];
  const entry: Plain = { model_id: model.name, provider_id: provider ?? '', provider_model_id: model.name, model_type: model.modelType ?? 'llm' };
  const metadata: Plain = {};
  if (model.contextLength !== undefined) metadata.context_length = model.contextLength;
  if (model.embeddingDimension !== undefined) metadata.embedding_dimension = model.embeddingDimension;
  if (Object.keys(metadata).length > 0) entry.metadata = metadata;
  return entry;
}

/**
 * `spec.storage`: sqlite and redis key-value stores, sqlite SQL stores. A PostgreSQL store is one
 * Secret key (`connectionString`) in an OGXServer, which the LLSD's fields cannot make.
 */
export function convertStorage(llsd: Llsd, problems: FieldProblem[]): Plain | undefined {
  const storage = llsd.spec.storage;
  if (!storage) return undefined;
  const out: Plain = {};
  const kv = storage.kv && convertKv(storage.kv, ['spec', 'storage', 'kv'], problems);
  if (kv) out.kv = kv;
  const sql = storage.sql;
  if (sql && (sql.type ?? 'sqlite') === 'sqlite') out.sql = { type: 'sqlite' };
  else if (sql) {
    problems.push({
      severity: 'warning', code: 'ogx-conversion',
      path: ['spec', 'storage', 'sql'],
      message:
        "is dropped: an OGXServer takes a PostgreSQL store only as a connection string, which OGX does not read (it needs host, port, db and user: " +
          "llsd-render refuses that form, divergence A11 in docs/ogxserver.md), so the OGXServer uses sqlite on its storage volume; to keep PostgreSQL, give " +
          "the whole config.yaml by `spec.overrideConfig` instead of `spec.storage`",
    });
  }
  problems.push({
    severity: 'warning', code: 'ogx-conversion',
    path: ['spec', 'storage'],
    message: `replaces the distribution's whole \`storage\` section in the OGXServer (an LLSD changes only the backends it names): the stores become ` +
      `\`metadata\`, \`inference\`, \`conversations\` and \`prompts\` on the backends given here${
      (sql?.type ?? 'sqlite') === 'sqlite' && llsd.spec.workload?.storage !== undefined
        ? "; its sqlite SQL file is `sqlstore.db` where the LLSD's was `sql_store.db`, so on the adopted volume the SQL data is not found: rename the file " +
          "on the volume before the OGXServer starts, or give the store by `spec.overrideConfig`"
        : ''
    }`,
  });
  return out;
}

function convertKv(kv: StorageBackendInput, path: Path, problems: FieldProblem[]): Plain | undefined {
  const type = kv.type ?? 'sqlite';
  if (type === 'sqlite') return { type: 'sqlite' };
  if (type === 'postgres') {
    problems.push({ severity: 'warning', code: 'ogx-conversion', path, message:
      'is dropped: an OGXServer key-value store is sqlite or redis, not postgres; use `type: redis`, or leave it out for sqlite (until then the OGXServer ' +
      'uses sqlite)' });
    return undefined;
  }
  const out: Plain = { type: 'redis' };
  const secretField = (['host', 'port'] as const).find((f) => isPlainObject(kv[f]));
  if (secretField !== undefined) {
    problems.push({ severity: 'warning', code: 'ogx-conversion', path: [...path, secretField], message:
      'is dropped: an OGXServer takes the redis address as a plain `endpoint`, not from a Secret; write it in `spec.storage.kv.endpoint`' });
  }
  const host = typeof kv.host === 'string' ? kv.host : undefined;
  const port = typeof kv.port === 'number' ? kv.port : undefined;
  const endpoint = kv.endpoint ?? (host !== undefined ? (port !== undefined ? `redis://${host}:${port}` : host) : undefined);
  if (endpoint !== undefined) out.endpoint = endpoint;
  if (kv.password !== undefined) out.password = { ...selectorOf(kv.password as SecretRefInput) };
  return out;
}

/** `spec.disabled` → `disabledAPIs`, for the seven APIs an OGXServer can disable. */
export function convertDisabled(llsd: Llsd, problems: FieldProblem[]): string[] | undefined {
  const out: string[] = [];
  (llsd.spec.disabled ?? []).forEach((name, i) => {
    const api = name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    if ((ogxDisableableApis as readonly string[]).includes(api)) {
      if (!out.includes(api)) out.push(api);
    } else {
      problems.push({
        severity: 'warning', code: 'ogx-conversion',
        path: ['spec', 'disabled', i],
        message: `is dropped: an OGXServer can disable only ` +
          `${listOf([...ogxDisableableApis])}${api === 'safety' || api === 'telemetry' ? `, and OGX has no ${api} providers to disable` : ''}; to remove ` +
          `${quote(name)}, write the whole config.yaml in a ConfigMap and set \`spec.overrideConfig\``,
      });
    }
  });
  return out.length > 0 ? out : undefined;
}

// ---------------------------------------------------------------------------------------------
// network, TLS trust, workload

/**
 * `spec.network`: port, external access, and the NetworkPolicy as the LLSD renders it. An LLSD
 * renders no NetworkPolicy without `allowedFrom`, an OGXServer one by default (`policy.enabled:
 * false` keeps it so); with `allowedFrom` the policy's peers become `policy.ingress` rules, which
 * replace the OGXServer's default peers (the operator's NetworkPolicy), so the LLSD's own-namespace peer is kept.
 */
export function convertNetwork(llsd: Llsd, name: string, problems: FieldProblem[]): Plain {
  const networking = llsd.spec.networking ?? {};
  const out: Plain = {};
  if (networking.port !== undefined) out.port = networking.port;
  const expose = networking.expose;
  // The operator's main requires `hostname` and `tls` with external access (OPERATOR-MAIN §2.3): an
  // LLSD's host name carries over, with a TLS Secret named after the LLSD, which the user is told
  // to create; an LLSD without a host name cannot give one, so it is refused in its own terms.
  if (expose !== undefined && expose !== false) {
    const hostname = typeof expose === 'object' ? expose.hostname : undefined;
    if (hostname === undefined) {
      problems.push({
        path: ['spec', 'networking', 'expose'],
        message: 'cannot be converted: it has no host name, and an OGXServer\'s `spec.network.externalAccess` needs `hostname` and `tls` (the ' +
          'OGX operator\'s CRD rules); write `networking.expose: {hostname: <host>}` (a v1alpha1 LLSD: `llsd-render convert` it to v1alpha2 ' +
          'first) and convert again, or remove it, convert, and add ' +
          '`externalAccess: {enabled: true, hostname: <host>, tls: {secretName: <secret>}}` to the OGXServer\'s `spec.network`',
      });
    } else {
      const secretName = `${name}-tls`;
      out.externalAccess = { enabled: true, hostname, tls: { secretName } };
      problems.push({
        severity: 'warning', code: 'ogx-conversion',
        path: ['spec', 'networking', 'expose'],
        message: `becomes \`spec.network.externalAccess\` at ${quote(hostname)}, with TLS from the Secret ${quote(secretName)}, which the OGX ` +
          "operator's CRD requires with external access: create that kubernetes.io/tls Secret for the host, or name yours in " +
          '`externalAccess.tls.secretName` of the output',
      });
    }
  }
  const allowedFrom = networking.allowedFrom;
  if (allowedFrom === undefined) out.policy = { enabled: false };
  else {
    const port = networking.port ?? 8321;
    out.policy = { ingress: [{ from: policyPeers(allowedFrom), ports: [{ protocol: 'TCP', port }] }] };
    if (out.externalAccess !== undefined && !allowedFrom.namespaces?.includes('*')) {
      problems.push({
        severity: 'warning', code: 'ogx-conversion',
        path: ['spec', 'networking', 'allowedFrom'],
        message: "becomes `spec.network.policy.ingress`, which admits no ingress controller: add a peer for its namespace (e.g. `{namespaceSelector: " +
          "{matchLabels: {kubernetes.io/metadata.name: ingress-nginx}}}`) so the Ingress can reach the server",
      });
    }
  }
  const tls = networking.tls;
  if (tls?.enabled === true || tls?.secretName !== undefined) {
    if (tls.secretName !== undefined) out.tls = { secretName: tls.secretName };
    problems.push({
      severity: 'warning', code: 'ogx-conversion',
      path: ['spec', 'networking', 'tls', tls.enabled === true ? 'enabled' : 'secretName'],
      message:
        'has no working OGXServer counterpart: the operator reads no server TLS setting (`spec.network.tls` is ignored), so the server serves plain HTTP; ' +
          'terminate TLS in front of it (Ingress, service mesh), or write the whole config.yaml with `server.tls_certfile`/`tls_keyfile` in a ConfigMap for ' +
          '`spec.overrideConfig` and mount the Secret with `spec.workload.overrides`',
    });
  }
  return out;
}

/** The LLSD's NetworkPolicy peers (src/manifests/network-policy.ts), without the ones render options add. */
function policyPeers(allowedFrom: { namespaces?: string[] | undefined; labels?: string[] | undefined }): Plain[] {
  if (allowedFrom.namespaces?.includes('*')) return [{ namespaceSelector: {} }];
  const peers: Plain[] = [{ podSelector: {} }];
  for (const namespace of new Set(allowedFrom.namespaces ?? [])) {
    peers.push({ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': namespace } } });
  }
  for (const label of new Set(allowedFrom.labels ?? [])) peers.push({ namespaceSelector: { matchExpressions: [{ key: label, operator: 'Exists' }] } });
  return peers;
}

/** `networking.tls.caBundle` → `spec.tls.trust.caCertificates`, one entry per key (default `ca-bundle.crt`). */
export function convertTrust(llsd: Llsd): Plain | undefined {
  const bundle = llsd.spec.networking?.tls?.caBundle;
  if (!bundle) return undefined;
  const keys = bundle.configMapKeys ?? ['ca-bundle.crt'];
  return { trust: { caCertificates: keys.map((key) => ({ name: bundle.configMapName, key })) } };
}

export function convertWorkload(llsd: Llsd, env: Plain[], problems: FieldProblem[]): Plain | undefined {
  const workload = llsd.spec.workload ?? {};
  const out: Plain = {};
  for (const field of ['replicas', 'workers', 'resources', 'podDisruptionBudget', 'topologySpreadConstraints'] as const) {
    if (workload[field] !== undefined) setOwn(out, field, clonePlain(workload[field]));
  }
  const { autoscaling, storage, overrides } = workload;
  if (autoscaling) {
    const hpa: Plain = { maxReplicas: autoscaling.maxReplicas };
    if (autoscaling.minReplicas !== undefined) hpa.minReplicas = autoscaling.minReplicas;
    if (autoscaling.targetCPUUtilization !== undefined) hpa.targetCPUUtilizationPercentage = autoscaling.targetCPUUtilization;
    if (autoscaling.targetMemoryUtilization !== undefined) hpa.targetMemoryUtilizationPercentage = autoscaling.targetMemoryUtilization;
    out.autoscaling = hpa;
  }
  if (storage) out.storage = clonePlain(storage);
  const pod: Plain = {};
  for (const field of ['serviceAccountName', 'env', 'command', 'args', 'volumes', 'volumeMounts'] as const) {
    if (overrides?.[field] !== undefined) setOwn(pod, field, clonePlain(overrides[field]));
  }
  if (env.length > 0) {
    // Secrets of nested provider settings (withSecretsAsEnv); an env var the user set wins.
    const own = new Set(((pod.env as Plain[] | undefined) ?? []).map((e) => e.name));
    pod.env = [...((pod.env as Plain[] | undefined) ?? []), ...env.filter((e) => !own.has(e.name))];
  }
  if (Object.keys(pod).length > 0) out.overrides = pod;
  if (overrides?.terminationGracePeriodSeconds !== undefined) {
    problems.push({
      severity: 'warning', code: 'ogx-conversion',
      path: ['spec', 'workload', 'overrides', 'terminationGracePeriodSeconds'],
      message: 'is dropped: an OGXServer has no termination grace period, so the pod gets the Kubernetes default (30 s); patch the rendered Deployment (e.g. ' +
        'with kustomize) to keep it',
    });
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
