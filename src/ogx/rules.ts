// Rules across fields of one OGXServer, each written once: the CRD's CEL rules (its
// `x-kubernetes-validations`) with the CRD's own message, and the operator's admission webhook's
// checks with upstream's message.
// Each is reported at the field to change, with what to write instead where the message does not
// say it. The operator's id derivation (`ogxProviderIds`) is here too: the webhook's uniqueness
// check and the config generator read the same list.
import { overrideEnvEntryProblems } from '../core/override-env.js';
import { shippedCatalog, type Catalog } from '../catalog/distributions.js';
import { isOgxServerRelease } from '../catalog/versions.js';
import { ogxTypedApis, ogxTypedProvidersOf } from '../catalog/ogx-providers.js';
import { formatFieldPath } from '../krm/item.js';
import { closest, type FieldProblem } from '../lib/issues.js';
import type { OgxServer, OgxServerSpec } from './ogxserver.js';

type Path = Array<string | number>;
type Obj = Record<string, unknown>;

/** What the checks need from outside the object: the distribution names known to the renderer. */
export interface OgxRuleOptions {
  /** Known distribution names; default: the names of `catalog`. */
  distributions?: readonly string[];
  /** The named distributions of the render (the shipped ones with the RenderConfig `distributions` laid over them); default: the shipped ones. */
  catalog?: Catalog;
}

export function checkOgxRules(server: OgxServer, options: OgxRuleOptions = {}): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const spec = server.spec as unknown as Obj;
  for (const rule of celRules) problems.push(...rule(spec));
  problems.push(...checkWebhook(server, options));
  // As an LLSD's: no credential in the open, no name the API server refuses.
  problems.push(...overrideEnvEntryProblems(server.spec.workload?.overrides?.env));
  return problems;
}

// --- CEL rules -------------------------------------------------------------------------------

type CelRule = (spec: Obj) => FieldProblem[];

/**
 * Every value at `pattern` below `spec`, with its path: `*` is every key of a mapping, `[]` every
 * item of a list (the CRD's rules sit on list items as well as on objects).
 */
function select(spec: Obj, pattern: string): Array<{ value: Obj; path: Path }> {
  let found: Array<{ value: unknown; path: Path }> = [{ value: spec, path: ['spec'] }];
  for (const segment of pattern.split('.').filter((s) => s !== '')) {
    const next: Array<{ value: unknown; path: Path }> = [];
    const [key, each] = segment.endsWith('[]') ? [segment.slice(0, -2), true] : [segment, false];
    for (const { value, path } of found) {
      if (!isObj(value)) continue;
      const keys = key === '*' ? Object.keys(value) : [key];
      for (const k of keys) {
        const child = value[k];
        if (child === undefined) continue;
        if (!each) next.push({ value: child, path: [...path, k] });
        else if (Array.isArray(child)) child.forEach((item, i) => next.push({ value: item, path: [...path, k, i] }));
      }
    }
    found = next;
  }
  return found.filter((f): f is { value: Obj; path: Path } => isObj(f.value));
}

const isObj = (value: unknown): value is Obj => value !== null && typeof value === 'object' && !Array.isArray(value);
const has = (object: Obj, field: string): boolean => object[field] !== undefined;

/** CEL `!has(self.f) || self.f.size() > 0` with upstream's message, at the field. */
const notEmptyIfSpecified =
  (pattern: string, fields: readonly string[]): CelRule =>
  (spec) =>
    select(spec, pattern).flatMap(({ value, path }) =>
      fields
        .filter((field) => value[field] === '')
        .map((field) => ({ path: [...path, field], message: `${field} must not be empty if specified: give it a value, or remove \`${field}\`` })),
    );

/** A rule on every object at `pattern`: `check` returns the problems of one object at its path. */
const on =
  (pattern: string, check: (object: Obj, path: Path) => FieldProblem[]): CelRule =>
  (spec) =>
    select(spec, pattern).flatMap(({ value, path }) => check(value, path));

const overrideExcludes = ['providers', 'resources', 'storage', 'disabledAPIs', 'baseConfig'] as const;

const specRules: CelRule[] = [
  (spec) =>
    has(spec, 'overrideConfig')
      ? overrideExcludes
          .filter((field) => has(spec, field))
          .map((field) => ({
            path: ['spec', field],
            message: `overrideConfig and ${field} are mutually exclusive: \`overrideConfig\` supplies the whole config.yaml, so remove \`${field}\` (put it ` +
              `in that ConfigMap's config.yaml instead), or remove \`overrideConfig\` to have the config generated`,
          }))
      : [],
  (spec) => {
    const disabled = (spec.disabledAPIs ?? []) as string[];
    const providers = (spec.providers ?? {}) as Obj;
    return ogxTypedApis()
      .map(({ api, field }) => [api, field] as const)
      .filter(([api, field]) => disabled.includes(api) && has(providers, field))
      .map(([api, field]) => ({
        path: ['spec', 'providers', field],
        message: `${api} cannot be both in providers and disabledAPIs: remove \`providers.${field}\`, or take \`${api}\` out of \`disabledAPIs\``,
      }));
  },
];

const distributionRule = on('distribution', (distribution, path) => {
  const name = has(distribution, 'name');
  const image = has(distribution, 'image');
  if (name && image) return [{ path, message:
    'only one of name or image can be specified: keep `name` (a named distribution already has its image) or `image`' }];
  if (!name && !image) return [{ path, message: 'one of name or image must be specified: set `name` (for example `starter`) or `image`' }];
  return [];
});

// The two provider types in the message are the CRD's own examples, quoted as its CEL rule words
// them (the message is upstream's, byte for byte); they are no facts llsd-render acts on.
const customTypeRule = on('providers.*.*.custom[]', (custom, path) => {
  const type = custom.type as string;
  if (type.startsWith('remote::') || type.startsWith('inline::')) return [];
  return [{ path: [...path, 'type'], message: "type must have a 'remote::' or 'inline::' prefix (e.g., 'remote::llama-guard', 'inline::my-provider')" }];
});

const vectorIndexRule = on('providers.vectorIo.remote.pgvector[].vectorIndex', (index, path) => {
  const hnsw = has(index, 'hnsw');
  const ivfFlat = has(index, 'ivfFlat');
  if (!hnsw && !ivfFlat) return [{ path, message: 'one of hnsw or ivfFlat must be specified: add `hnsw: {}` or `ivfFlat: {}`, or remove `vectorIndex`' }];
  if (hnsw && ivfFlat) return [{ path, message: 'only one of hnsw or ivfFlat can be specified: remove one of them' }];
  return [];
});

const qdrantRule = on('providers.vectorIo.remote.qdrant[]', (qdrant, path) =>
  has(qdrant, 'url') || has(qdrant, 'host') ? [] : [{ path, message:
    'at least one of url or host must be specified: add `url` (for example `http://qdrant:6333`) or `host`' }],
);

const kvRule = on('storage.kv', (kv, path) => {
  const redis = kv.type === 'redis';
  const problems: FieldProblem[] = [];
  if (redis && !has(kv, 'endpoint')) problems.push({ path: [...path, 'endpoint'], message:
    'endpoint is required when type is redis: add `endpoint`, for example `redis://redis:6379`' });
  if (!redis && has(kv, 'endpoint')) problems.push({ path: [...path, 'endpoint'], message:
    'endpoint is only valid when type is redis: remove `endpoint`, or set `type: redis`' });
  if (!redis && has(kv, 'password')) problems.push({ path: [...path, 'password'], message:
    'password is only valid when type is redis: remove `password`, or set `type: redis`' });
  return problems;
});

const sqlRule = on('storage.sql', (sql, path) => {
  const postgres = sql.type === 'postgres';
  if (postgres && !has(sql, 'connectionString')) {
    return [{ path: [...path, 'connectionString'], message:
      'connectionString is required when type is postgres: add `connectionString: {name: <secret>, key: <key>}`' }];
  }
  if (!postgres && has(sql, 'connectionString')) {
    return [{ path: [...path, 'connectionString'], message:
      'connectionString is only valid when type is postgres: remove `connectionString`, or set `type: postgres`' }];
  }
  return [];
});

// The operator's main (OPERATOR-MAIN-2026-09.md §2.3, PR #330): an Ingress needs a host and a
// certificate. Reported at the missing field, with what to write.
const externalAccessRule = on('network.externalAccess', (access, path) => {
  if (access.enabled !== true) return [];
  const problems: FieldProblem[] = [];
  if (!has(access, 'hostname')) problems.push({ path: [...path, 'hostname'], message:
    'hostname is required when external access is enabled: add the host name the Ingress answers on, for example `hostname: ogx.example.com`, ' +
    'or set `enabled: false`' });
  if (!has(access, 'tls')) problems.push({ path: [...path, 'tls'], message:
    'tls is required when external access is enabled: name the kubernetes.io/tls Secret with the certificate for the host, for example ' +
    '`tls: {secretName: ogx-tls}`, or set `enabled: false`' });
  return problems;
});

const autoscalingRule = on('workload.autoscaling', (autoscaling, path) =>
  has(autoscaling, 'minReplicas') && (autoscaling.maxReplicas as number) < (autoscaling.minReplicas as number)
    ? [{ path: [...path, 'maxReplicas'], message:
      `maxReplicas must be greater than or equal to minReplicas: raise \`maxReplicas\` to at least ${String(autoscaling.minReplicas)}, or lower ` +
      `\`minReplicas\`` }]
    : [],
);

const pdbRule = on('workload.podDisruptionBudget', (pdb, path) => {
  const min = has(pdb, 'minAvailable');
  const max = has(pdb, 'maxUnavailable');
  if (!min && !max) return [{ path, message:
    'at least one of minAvailable or maxUnavailable must be specified: add `minAvailable: 1` or `maxUnavailable: 1`, or remove `podDisruptionBudget`' }];
  if (min && max) return [{ path, message: 'minAvailable and maxUnavailable are mutually exclusive: remove one of them' }];
  return [];
});

const storageSizeRule = on('workload.storage', (storage, path) =>
  has(storage, 'size') && !isPositiveQuantity(storage.size as number | string)
    ? [{ path: [...path, 'size'], message: 'size must be a positive quantity: write a size such as `10Gi`' }]
    : [],
);

/**
 * CEL `quantity(size).isGreaterThan(quantity('0'))`. The schema has already checked the quantity
 * form; its suffix only scales the number, so the sign and the digits decide.
 */
function isPositiveQuantity(size: number | string): boolean {
  if (typeof size === 'number') return size > 0;
  const number = /^([+-]?)([0-9]*\.?[0-9]*)/.exec(size);
  return number !== null && number[1] !== '-' && Number(number[2]) > 0;
}

// PraxisSelector and MigrationJobSpec (api/v1beta1/ogxserver_types.go @ 2580c378), messages as upstream's.
const praxisSelectorRule = on('praxisMode.praxisSelector', (selector, path) => {
  const pods = isObj(selector.podSelector) ? selector.podSelector : {};
  const labels = isObj(pods.matchLabels) ? Object.keys(pods.matchLabels).length : 0;
  const expressions = Array.isArray(pods.matchExpressions) ? pods.matchExpressions.length : 0;
  return labels > 0 || expressions > 0 ? [] : [{ path: [...path, 'podSelector'], message:
    'podSelector must not be empty: select the Praxis pods, for example `podSelector: {matchLabels: {app: payload-processing}}`, or remove ' +
    '`praxisSelector` for that default' }];
});

const fallbackOwnerRule = on('praxisMode.migrationJob', (job, path) =>
  typeof job.fallbackOwnerSubject === 'string' && job.fallbackOwnerSubject.trim() === ''
    ? [{ path: [...path, 'fallbackOwnerSubject'], message: 'must contain a non-whitespace character: write the owner subject, or remove the field' }]
    : [],
);
/**
 * The CRD's "<field> must not be empty if specified" rules (CEL `!has(self.f) || self.f.size() > 0`):
 * the objects (a `select` pattern) and their optional string fields. The CRD (crd.ts) writes each
 * as CEL on its node; `celRules` checks them here.
 */
export const ogxNotEmptyFields: ReadonlyArray<readonly [pattern: string, fields: readonly string[]]> = [
  ['providers.*.*.*[]', ['id']],
  ['providers.inference.remote.openai[]', ['endpoint']],
  ['providers.inference.remote.azure[]', ['apiVersion', 'apiType']],
  ['providers.inference.remote.bedrock[]', ['awsRoleArn', 'awsWebIdentityTokenFile', 'awsRoleSessionName', 'profileName', 'retryMode']],
  ['providers.inference.remote.vertexai[]', ['location']],
  ['providers.inference.remote.watsonx[]', ['endpoint', 'projectId']],
  ['providers.inference.remote.*[].network.proxy', ['url', 'http', 'https', 'cacert']],
  ['providers.vectorIo.remote.pgvector[]', ['host', 'db', 'user']],
  ['providers.vectorIo.remote.milvus[]', ['consistencyLevel']],
  ['providers.vectorIo.remote.qdrant[]', ['url', 'host', 'location', 'prefix']],
  ['providers.toolRuntime.inline.fileSearch[].vectorStoresConfig', ['defaultProviderId']],
  ['providers.files.remote.s3', ['region', 'endpointUrl']],
  ['providers.responses.inline.builtin.compactionConfig', ['summarizationPrompt', 'summaryPrefix', 'summarizationModel', 'tokenizerEncoding']],
  ['providers.responses.inline.builtin.vectorStoresConfig', ['defaultProviderId']],
  ['providers.fileProcessors.remote.doclingServe', ['baseUrl']],
  ['resources.models[]', ['provider', 'modelType', 'quantization']],
  ['network.externalAccess', ['hostname']],
  ['workload.storage', ['mountPath']],
  ['workload.overrides', ['serviceAccountName']],
];

const celRules: CelRule[] = [
  ...specRules,
  praxisSelectorRule,
  fallbackOwnerRule,
  distributionRule,
  ...ogxNotEmptyFields.map(([pattern, fields]) => notEmptyIfSpecified(pattern, fields)),
  customTypeRule,
  vectorIndexRule,
  qdrantRule,
  kvRule,
  sqlRule,
  externalAccessRule,
  autoscalingRule,
  storageSizeRule,
  pdbRule,
];

// --- Provider ids (upstream `ProvidersSpec.IDs`) ----------------------------------------------

/** One provider of `spec.providers`, with the id the operator derives for it. */
export interface OgxProviderId {
  /** The provider id: `id`, else the type's default id (configs/ogx-providers.yaml), compared as written. */
  id: string;
  /** The llama-stack API (`inference`, `vector_io`, …). */
  api: string;
  /** The field under `spec.providers` (`inference`, `vectorIo`, …). */
  apiField: string;
  placement: 'remote' | 'inline';
  /** The field of the provider under its placement (`vllm`, `s3`, `custom`, …). */
  field: string;
  /** provider_type as the operator writes it (custom: its `type`). */
  providerType: string;
  /** Where it is written: a list item, or the single object. */
  path: Path;
  /** The provider as written (after CRD defaults). */
  entry: Record<string, unknown>;
}

/**
 * Every provider of `spec.providers` with its derived id, in upstream's order (inference remote
 * vllm … custom, inference inline custom, vectorIo …). A custom provider's default id is its
 * `type` with every `::` replaced by `-`.
 */
export function ogxProviderIds(spec: Pick<OgxServerSpec, 'providers'>): OgxProviderId[] {
  const ids: OgxProviderId[] = [];
  const providers = (spec.providers ?? {}) as Obj;
  for (const { field: apiField, api } of ogxTypedApis()) {
    const groups = (providers[apiField] ?? {}) as Obj;
    for (const placement of ['remote', 'inline'] as const) {
      const group = (groups[placement] ?? {}) as Obj;
      const base: Path = ['spec', 'providers', apiField, placement];
      const add = (field: string, providerType: string, id: string, path: Path, entry: Obj) =>
        ids.push({ id, api, apiField, placement, field, providerType, path, entry });
      for (const { field, type, id: defaultId, single } of ogxTypedProvidersOf(apiField, placement)) {
        const value = group[field];
        if (value === undefined) continue;
        if (single) add(field, type, defaultId, [...base, field], value as Obj);
        else (value as Obj[]).forEach((entry, i) => add(field, type, (entry.id as string | undefined) ?? defaultId, [...base, field, i], entry));
      }
      ((group.custom ?? []) as Obj[]).forEach((entry, i) => {
        const type = entry.type as string;
        add('custom', type, (entry.id as string | undefined) ?? type.replaceAll('::', '-'), [...base, 'custom', i], entry);
      });
    }
  }
  return ids;
}

// --- Admission webhook --------------------------------------------------------------------------

const adoptionAnnotations = ['ogx.io/adopt-storage', 'ogx.io/adopt-networking'] as const;
/** The longest suffix the operator adds to the name (`-prometheus-rules`), in a 63-character DNS label. */
const maxNameLength = 63 - '-prometheus-rules'.length;

function checkWebhook(server: OgxServer, options: OgxRuleOptions): FieldProblem[] {
  const catalog = options.catalog ?? shippedCatalog();
  return [
    ...checkDistributionName(server.spec, options.distributions ?? Object.keys(catalog), options.distributions ?? ogxDistributionNames(catalog)),
    ...checkUniqueIds(server.spec),
    ...checkModelProviders(server.spec),
    ...checkAdoption(server),
    ...checkNameLength(server),
  ];
}

/**
 * `known`: every name of the catalog (one without an OGX release is the plan's to explain);
 * `offered`: those listed and suggested, the ones an OGXServer can use.
 */
function checkDistributionName(spec: OgxServerSpec, known: readonly string[], offered: readonly string[]): FieldProblem[] {
  const { name } = spec.distribution;
  // Upstream skips the check when its registry is empty.
  if (name === undefined || known.length === 0 || known.includes(name)) return [];
  const available = [...offered].sort().join(', ');
  const near = closest(name, offered);
  return [{ path: ['spec', 'distribution', 'name'], message:
    `unknown distribution "${name}"${near ? ` (did you mean "${near}"?)` : ''}; available distributions: ${available}; or set \`image\` instead of \`name\`` }];
}

/** The named distributions of the catalog that have an OGX release (the others render only as LLSDs). */
const ogxDistributionNames = (catalog: Catalog): string[] =>
  Object.entries(catalog)
    .filter(([, entry]) => Object.keys(entry.releases).some((release) => isOgxServerRelease(release)))
    .map(([name]) => name);

/** One problem per repeated occurrence, at that occurrence (upstream reports them all at `spec.providers`). */
function checkUniqueIds(spec: OgxServerSpec): FieldProblem[] {
  const first = new Map<string, OgxProviderId>();
  const problems: FieldProblem[] = [];
  for (const provider of ogxProviderIds(spec)) {
    const earlier = first.get(provider.id);
    if (!earlier) {
      first.set(provider.id, provider);
      continue;
    }
    const explicit = provider.entry.id !== undefined;
    problems.push({
      path: explicit ? [...provider.path, 'id'] : provider.path,
      message: `duplicate provider ID "${provider.id}": \`${formatFieldPath(earlier.path)}\` has it already; provider ids are unique across all APIs, so ` +
        `give this provider a different \`id\``,
    });
  }
  return problems;
}

function checkModelProviders(spec: OgxServerSpec): FieldProblem[] {
  if (spec.resources === undefined || spec.providers === undefined) return [];
  const ids = [...new Set(ogxProviderIds(spec).map((p) => p.id))].sort();
  return (spec.resources.models ?? []).flatMap((model, i) =>
    model.provider === undefined || model.provider === '' || ids.includes(model.provider)
      ? []
      : [
          {
            path: ['spec', 'resources', 'models', i, 'provider'],
            message: `references unknown provider ID; available: [${ids.join(' ')}]${didYouMean(model.provider, ids)} (a provider without \`id\` has its ` +
              `type's default id, such as \`remote-vllm\`)`,
          },
        ],
  );
}

function checkAdoption(server: OgxServer): FieldProblem[] {
  const annotations = server.metadata.annotations ?? {};
  return adoptionAnnotations
    .filter((key) => annotations[key] === server.metadata.name)
    .map((key) => ({
      path: ['metadata', 'annotations', key],
      message: 'adoption annotation value must not equal the CR name; same-name adoption causes resource conflicts: write the name of the ' +
        'LlamaStackDistribution to adopt from, or remove the annotation',
    }));
}

function checkNameLength(server: OgxServer): FieldProblem[] {
  const { name } = server.metadata;
  if (name.length <= maxNameLength) return [];
  return [
    {
      path: ['metadata', 'name'],
      message: `must be at most ${maxNameLength} characters, not ${name.length}: the operator names objects \`<name>-prometheus-rules\`, which must be a DNS ` +
        `label of at most 63 characters; choose a shorter name`,
    },
  ];
}

const didYouMean = (word: string, candidates: readonly string[]): string => {
  const near = closest(word, candidates);
  return near ? `. Did you mean "${near}"?` : '';
};
