// OGXServer `spec.providers` → config.yaml provider entries, as the OGX operator expands them
// (reference GENERATION.md §4, §6, §7; pkg/config/provider.go). Pure: the spec has passed its schema,
// so the walk reads it as data; what a release rejects is fixed later (ogx-generate.ts adaptToRelease).
import type { FieldProblem } from '../lib/issues.js';
import { isPlainObject, setOwn } from '../lib/objects.js';
import { quote } from '../lib/quote.js';
import type { SecretEnv } from '../core/secrets.js';

type Obj = Record<string, unknown>;
type Path = Array<string | number>;

/** One expanded provider: the 3-key entry upstream writes, where it came from and its CR type. */
export interface OgxProviderEntry {
  api: string;
  entry: { config: Obj; provider_id: string; provider_type: string };
  path: Path;
  /** The CR field (`vllm`, `custom`, …): the divergence rules act on typed providers only. */
  crType: string;
}

export interface OgxExpansion {
  /** config API key → entries, in the operator's fixed type order. */
  providers: Map<string, OgxProviderEntry[]>;
  env: SecretEnv[];
  problems: FieldProblem[];
}

/**
 * GENERATION.md §7.1: upper case, every run of characters outside A–Z/0–9 one `_`, trimmed; empty
 * becomes `_`, a leading digit gets `_` in front.
 */
export function normEnv(text: string): string {
  const upper = text.toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_+|_+$/g, '');
  if (upper === '') return '_';
  return /^[0-9]/.test(upper) ? `_${upper}` : upper;
}

/** `OGX_<norm(id)>_<field>`: the env var of a provider's secret. */
export const ogxEnvName = (providerId: string, field: string): string => `OGX_${normEnv(providerId)}_${field}`;
/** The fixed env vars of the storage secrets (§7.1). */
export const storageEnv = { kvPassword: 'OGX_STORAGE_KV_PASSWORD', sqlConnection: 'OGX_STORAGE_SQL_CONNECTION_STRING' } as const;

const placeholder = (name: string): string => `\${env.${name}}`;

/** What one typed provider writes into its config: copies, renames and secrets. */
type Builder = (ctx: BuildContext) => void;

interface BuildContext {
  p: Obj;
  config: Obj;
  /** Copies CR field `from` to config key `to` when set. */
  copy(from: string, to: string): void;
  /** Writes `${env.OGX_<ID>_<field>}` at `to` for the secret ref at `from`, when set. */
  secret(from: string, to: string, field: string): void;
}

interface TypedRule {
  side: 'remote' | 'inline';
  field: string;
  type: string;
  /** Default id of a list type; fixed id of a single one. */
  id: string;
  single?: boolean;
  build: Builder;
}

const custom = (side: 'remote' | 'inline'): TypedRule => ({ side, field: 'custom', type: '', id: '', build: () => undefined });

const copyAll = (pairs: Array<[string, string]>): Builder => (c) => pairs.forEach(([from, to]) => c.copy(from, to));

/** `applyCommonInferenceConfig` + `applyNetworkConfig` (§4.1 "Common"). */
const inferenceCommon: Builder = (c) => {
  c.copy('refreshModels', 'refresh_models');
  if (Array.isArray(c.p.allowedModels) && c.p.allowedModels.length > 0) c.config.allowed_models = [...c.p.allowedModels];
  const network = networkConfig(c.p.network);
  if (network) c.config.network = network;
};

function networkConfig(network: unknown): Obj | undefined {
  if (!isPlainObject(network)) return undefined;
  const out: Obj = {};
  const sub = (key: string, source: unknown, pairs: Array<[string, string]>): void => {
    if (!isPlainObject(source)) return;
    const mapped = mapKeys(source, pairs);
    if (Object.keys(mapped).length > 0) out[key] = mapped;
  };
  sub('tls', network.tls, [['verify', 'verify'], ['minVersion', 'min_version'], ['ciphers', 'ciphers']]);
  sub('timeout', network.timeout, [['connect', 'connect'], ['read', 'read']]);
  if (isPlainObject(network.headers) && Object.keys(network.headers).length > 0) out.headers = { ...network.headers };
  sub('proxy', network.proxy, [['url', 'url'], ['http', 'http'], ['https', 'https'], ['cacert', 'ca_cert'], ['noProxy', 'no_proxy']]);
  return Object.keys(out).length > 0 ? out : undefined;
}

function mapKeys(source: Obj, pairs: Array<[string, string]>): Obj {
  const out: Obj = {};
  for (const [from, to] of pairs) if (source[from] !== undefined && source[from] !== null) out[to] = structuredClone(source[from]);
  return out;
}

const both = (...builders: Builder[]): Builder => (c) => builders.forEach((b) => b(c));

/** `vectorStoresConfig` → `vector_stores_config` (§4.9). */
function vectorStoresConfig(v: Obj): Obj {
  const model = (m: unknown): Obj | undefined => (isPlainObject(m) ? mapKeys(m, [['providerId', 'provider_id'], ['modelId', 'model_id'], ['embeddingDimensions', 'embedding_dimensions']]) : undefined);
  const out: Obj = mapKeys(v, [['defaultProviderId', 'default_provider_id']]);
  const nested: Array<[string, string, Array<[string, string]>, string?]> = [
    ['defaultEmbeddingModel', 'default_embedding_model', [['providerId', 'provider_id'], ['modelId', 'model_id'], ['embeddingDimensions', 'embedding_dimensions']]],
    ['defaultRerankerModel', 'default_reranker_model', [['providerId', 'provider_id'], ['modelId', 'model_id']]],
    ['rewriteQueryParams', 'rewrite_query_params', [['prompt', 'prompt'], ['maxTokens', 'max_tokens'], ['temperature', 'temperature']], 'model'],
    ['fileSearchParams', 'file_search_params', [['headerTemplate', 'header_template'], ['footerTemplate', 'footer_template']]],
    ['contextPromptParams', 'context_prompt_params', [['chunkAnnotationTemplate', 'chunk_annotation_template'], ['contextTemplate', 'context_template']]],
    [
      'annotationPromptParams',
      'annotation_prompt_params',
      [['enableAnnotations', 'enable_annotations'], ['annotationInstructionTemplate', 'annotation_instruction_template'], ['chunkAnnotationTemplate', 'chunk_annotation_template']],
    ],
    ['fileIngestionParams', 'file_ingestion_params', [['defaultChunkSizeTokens', 'default_chunk_size_tokens'], ['defaultChunkOverlapTokens', 'default_chunk_overlap_tokens']]],
    [
      'chunkRetrievalParams',
      'chunk_retrieval_params',
      [
        ['chunkMultiplier', 'chunk_multiplier'],
        ['maxTokensInContext', 'max_tokens_in_context'],
        ['defaultRerankerStrategy', 'default_reranker_strategy'],
        ['rrfImpactFactor', 'rrf_impact_factor'],
        ['weightedSearchAlpha', 'weighted_search_alpha'],
        ['defaultSearchMode', 'default_search_mode'],
      ],
    ],
    ['fileBatchParams', 'file_batch_params', [['maxConcurrentFilesPerBatch', 'max_concurrent_files_per_batch'], ['fileBatchChunkSize', 'file_batch_chunk_size'], ['cleanupIntervalSeconds', 'cleanup_interval_seconds']]],
    [
      'contextualRetrievalParams',
      'contextual_retrieval_params',
      [['defaultTimeoutSeconds', 'default_timeout_seconds'], ['defaultMaxConcurrency', 'default_max_concurrency'], ['maxDocumentTokens', 'max_document_tokens']],
      'model',
    ],
  ];
  for (const [from, to, pairs, withModel] of nested) {
    const source = v[from];
    if (!isPlainObject(source)) continue;
    const inner = mapKeys(source, pairs);
    if (withModel && source.model !== undefined) {
      const m = model(source.model);
      if (m) inner.model = m;
    }
    out[to] = inner;
  }
  return out;
}

/** The typed providers of each CR API in the operator's fixed order (§4), with their config API key. */
const rules: Array<{ crApi: string; api: string; types: TypedRule[] }> = [
  {
    crApi: 'inference',
    api: 'inference',
    types: [
      { side: 'remote', field: 'vllm', type: 'remote::vllm', id: 'remote-vllm', build: both((c) => { c.copy('endpoint', 'base_url'); c.copy('maxTokens', 'max_tokens'); c.secret('apiToken', 'api_token', 'API_TOKEN'); }, inferenceCommon) },
      { side: 'remote', field: 'openai', type: 'remote::openai', id: 'remote-openai', build: both((c) => { c.secret('apiKey', 'api_key', 'API_KEY'); c.copy('endpoint', 'base_url'); }, inferenceCommon) },
      {
        side: 'remote',
        field: 'azure',
        type: 'remote::azure',
        id: 'remote-azure',
        build: both((c) => { c.copy('endpoint', 'base_url'); c.secret('apiKey', 'api_key', 'API_KEY'); c.copy('apiVersion', 'api_version'); c.copy('apiType', 'api_type'); }, inferenceCommon),
      },
      {
        side: 'remote',
        field: 'bedrock',
        type: 'remote::bedrock',
        id: 'remote-bedrock',
        build: both(
          (c) => {
            c.copy('region', 'region_name');
            c.secret('apiKey', 'api_key', 'API_KEY');
            c.secret('awsAccessKeyId', 'aws_access_key_id', 'AWS_ACCESS_KEY_ID');
            c.secret('awsSecretAccessKey', 'aws_secret_access_key', 'AWS_SECRET_ACCESS_KEY');
            c.secret('awsSessionToken', 'aws_session_token', 'AWS_SESSION_TOKEN');
          },
          copyAll([
            ['awsRoleArn', 'aws_role_arn'],
            ['awsWebIdentityTokenFile', 'aws_web_identity_token_file'],
            ['awsRoleSessionName', 'aws_role_session_name'],
            ['profileName', 'profile_name'],
            ['retryMode', 'retry_mode'],
            ['totalMaxAttempts', 'total_max_attempts'],
            ['connectTimeout', 'connect_timeout'],
            ['readTimeout', 'read_timeout'],
            ['sessionTTL', 'session_ttl'],
          ]),
          inferenceCommon,
        ),
      },
      { side: 'remote', field: 'vertexai', type: 'remote::vertexai', id: 'remote-vertexai', build: both(copyAll([['project', 'project'], ['location', 'location']]), inferenceCommon) },
      {
        side: 'remote',
        field: 'watsonx',
        type: 'remote::watsonx',
        id: 'remote-watsonx',
        build: both((c) => { c.secret('apiKey', 'api_key', 'API_KEY'); c.copy('endpoint', 'base_url'); c.copy('projectId', 'project_id'); c.copy('timeout', 'timeout'); }, inferenceCommon),
      },
      custom('remote'),
      custom('inline'),
    ],
  },
  {
    crApi: 'vectorIo',
    api: 'vector_io',
    types: [
      {
        side: 'remote',
        field: 'pgvector',
        type: 'remote::pgvector',
        id: 'remote-pgvector',
        build: (c) => {
          copyAll([['host', 'host'], ['port', 'port'], ['db', 'db'], ['user', 'user']])(c);
          c.secret('password', 'password', 'PASSWORD');
          c.copy('distanceMetric', 'distance_metric');
          const index = c.p.vectorIndex;
          if (isPlainObject(index)) {
            const out: Obj = {};
            if (isPlainObject(index.hnsw)) out.hnsw = mapKeys(index.hnsw, [['m', 'm'], ['efConstruction', 'ef_construction'], ['efSearch', 'ef_search']]);
            if (isPlainObject(index.ivfFlat)) out.ivf_flat = mapKeys(index.ivfFlat, [['nlist', 'nlist'], ['nprobe', 'nprobe']]);
            for (const key of Object.keys(out)) if (Object.keys(out[key] as Obj).length === 0) delete out[key];
            if (Object.keys(out).length > 0) c.config.vector_index = out;
          }
        },
      },
      { side: 'remote', field: 'milvus', type: 'remote::milvus', id: 'remote-milvus', build: (c) => { c.copy('uri', 'uri'); c.secret('token', 'token', 'TOKEN'); c.copy('consistencyLevel', 'consistency_level'); } },
      {
        side: 'remote',
        field: 'qdrant',
        type: 'remote::qdrant',
        id: 'remote-qdrant',
        build: (c) => {
          copyAll([['url', 'url'], ['host', 'host'], ['port', 'port'], ['location', 'location']])(c);
          c.secret('apiKey', 'api_key', 'API_KEY');
          copyAll([['grpcPort', 'grpc_port'], ['preferGrpc', 'prefer_grpc'], ['https', 'https'], ['prefix', 'prefix'], ['timeout', 'timeout']])(c);
        },
      },
      custom('remote'),
      custom('inline'),
    ],
  },
  {
    crApi: 'toolRuntime',
    api: 'tool_runtime',
    types: [
      { side: 'remote', field: 'braveSearch', type: 'remote::brave-search', id: 'remote-brave-search', build: (c) => { c.secret('apiKey', 'api_key', 'API_KEY'); c.copy('maxResults', 'max_results'); } },
      { side: 'remote', field: 'tavilySearch', type: 'remote::tavily-search', id: 'remote-tavily-search', build: (c) => { c.secret('apiKey', 'api_key', 'API_KEY'); c.copy('maxResults', 'max_results'); } },
      { side: 'remote', field: 'modelContextProtocol', type: 'remote::model-context-protocol', id: 'remote-model-context-protocol', build: () => undefined },
      custom('remote'),
      {
        side: 'inline',
        field: 'fileSearch',
        type: 'inline::rag-runtime',
        id: 'inline-file-search',
        build: (c) => { if (isPlainObject(c.p.vectorStoresConfig)) c.config.vector_stores_config = vectorStoresConfig(c.p.vectorStoresConfig); },
      },
      custom('inline'),
    ],
  },
  {
    crApi: 'files',
    api: 'files',
    types: [
      {
        side: 'remote',
        field: 's3',
        type: 'remote::s3',
        id: 'remote-s3',
        single: true,
        build: (c) => {
          copyAll([['bucketName', 'bucket_name'], ['region', 'region'], ['endpointUrl', 'endpoint_url']])(c);
          c.secret('awsAccessKeyId', 'aws_access_key_id', 'AWS_ACCESS_KEY_ID');
          c.secret('awsSecretAccessKey', 'aws_secret_access_key', 'AWS_SECRET_ACCESS_KEY');
          c.copy('autoCreateBucket', 'auto_create_bucket');
        },
      },
      custom('remote'),
      { side: 'inline', field: 'localfs', type: 'inline::localfs', id: 'inline-localfs', single: true, build: copyAll([['ttlSecs', 'ttl_secs']]) },
      custom('inline'),
    ],
  },
  {
    crApi: 'batches',
    api: 'batches',
    types: [
      custom('remote'),
      {
        side: 'inline',
        field: 'reference',
        type: 'inline::batch-reference',
        id: 'inline-reference',
        single: true,
        build: copyAll([['maxConcurrentBatches', 'max_concurrent_batches'], ['maxConcurrentRequestsPerBatch', 'max_concurrent_requests_per_batch']]),
      },
      custom('inline'),
    ],
  },
  {
    crApi: 'responses',
    api: 'responses',
    types: [
      custom('remote'),
      {
        side: 'inline',
        field: 'builtin',
        type: 'inline::responses',
        id: 'inline-builtin',
        single: true,
        build: (c) => {
          if (isPlainObject(c.p.vectorStoresConfig)) c.config.vector_stores_config = vectorStoresConfig(c.p.vectorStoresConfig);
          if (isPlainObject(c.p.compactionConfig)) {
            c.config.compaction_config = mapKeys(c.p.compactionConfig, [
              ['summarizationPrompt', 'summarization_prompt'],
              ['summaryPrefix', 'summary_prefix'],
              ['summarizationModel', 'summarization_model'],
              ['defaultCompactThreshold', 'default_compact_threshold'],
              ['tokenizerEncoding', 'tokenizer_encoding'],
            ]);
          }
        },
      },
      custom('inline'),
    ],
  },
  {
    crApi: 'fileProcessors',
    api: 'file_processors',
    types: [
      {
        side: 'remote',
        field: 'doclingServe',
        type: 'remote::docling-serve',
        id: 'remote-docling-serve',
        single: true,
        build: (c) => { c.copy('baseUrl', 'base_url'); c.secret('apiKey', 'api_key', 'API_KEY'); c.copy('defaultChunkSizeTokens', 'default_chunk_size_tokens'); },
      },
      custom('remote'),
      ...(['auto', 'pypdf'] as const).map((field): TypedRule => ({ side: 'inline', field, type: `inline::${field}`, id: `inline-${field}`, single: true, build: copyAll(chunkPairs(true)) })),
      { side: 'inline', field: 'markitdown', type: 'inline::markitdown', id: 'inline-markitdown', single: true, build: copyAll(chunkPairs(false)) },
      { side: 'inline', field: 'docling', type: 'inline::docling', id: 'inline-docling', single: true, build: copyAll([...chunkPairs(false), ['doOcr', 'do_ocr']]) },
      custom('inline'),
    ],
  },
];

function chunkPairs(extra: boolean): Array<[string, string]> {
  const pairs: Array<[string, string]> = [['defaultChunkSizeTokens', 'default_chunk_size_tokens'], ['defaultChunkOverlapTokens', 'default_chunk_overlap_tokens']];
  return extra ? [...pairs, ['extractMetadata', 'extract_metadata'], ['cleanText', 'clean_text']] : pairs;
}

/** The config API keys the CR's provider APIs map to (`vectorIo` → `vector_io`), for disabledAPIs messages and merges. */
export const ogxApiOfCrKey: Readonly<Record<string, string>> = Object.fromEntries(rules.map((r) => [r.crApi, r.api]));

/** Expands `spec.providers` (§4); custom settings and env var collisions are checked here (§4.8, §7.3). */
export function expandOgxProviders(providers: unknown): OgxExpansion {
  const out: OgxExpansion = { providers: new Map(), env: [], problems: [] };
  if (!isPlainObject(providers)) return out;
  for (const { crApi, api, types } of rules) {
    const block = providers[crApi];
    if (!isPlainObject(block)) continue;
    const entries: OgxProviderEntry[] = [];
    for (const rule of types) {
      const group = block[rule.side];
      if (!isPlainObject(group) || group[rule.field] === undefined || group[rule.field] === null) continue;
      const base: Path = ['spec', 'providers', crApi, rule.side, rule.field];
      const items: Array<[unknown, Path]> = rule.single ? [[group[rule.field], base]] : (group[rule.field] as unknown[]).map((p, i) => [p, [...base, i]]);
      for (const [item, path] of items) {
        if (!isPlainObject(item)) continue;
        const built = rule.field === 'custom' ? expandCustom(item, path, out) : expandTyped(rule, item, path, out);
        if (built) entries.push({ api, entry: built, path, crType: rule.field });
      }
    }
    // §5: an API whose expansion is empty does not replace the base's list.
    if (entries.length > 0) out.providers.set(api, entries);
  }
  return out;
}

function expandTyped(rule: TypedRule, p: Obj, path: Path, out: OgxExpansion): OgxProviderEntry['entry'] {
  const id = !rule.single && typeof p.id === 'string' && p.id !== '' ? p.id : rule.id;
  const config: Obj = {};
  const ctx: BuildContext = {
    p,
    config,
    copy: (from, to) => {
      if (p[from] !== undefined && p[from] !== null) config[to] = structuredClone(p[from]);
    },
    secret: (from, to, field) => {
      const ref = p[from];
      if (!isSecretRef(ref)) return;
      const name = ogxEnvName(id, field);
      config[to] = placeholder(name);
      out.env.push({ name, secretName: ref.name, key: ref.key, path: [...path, from] });
    },
  };
  rule.build(ctx);
  return { config, provider_id: id, provider_type: rule.type };
}

/** §4.8: secretRefs then settings; a key in both is an error, settings must be a mapping. */
function expandCustom(p: Obj, path: Path, out: OgxExpansion): OgxProviderEntry['entry'] | undefined {
  const type = String(p.type);
  const id = typeof p.id === 'string' && p.id !== '' ? p.id : type.replaceAll('::', '-');
  const config: Obj = {};
  const refs = isPlainObject(p.secretRefs) ? p.secretRefs : {};
  for (const key of Object.keys(refs).sort()) {
    const ref = refs[key];
    if (!isSecretRef(ref)) continue;
    const name = ogxEnvName(id, normEnv(key));
    setOwn(config, key, placeholder(name));
    out.env.push({ name, secretName: ref.name, key: ref.key, path: [...path, 'secretRefs', key] });
  }
  const settings = p.settings;
  if (settings !== undefined && settings !== null) {
    if (!isPlainObject(settings)) {
      out.problems.push({ path: [...path, 'settings'], message: `must be a mapping of config keys to values (the operator fails: failed to unmarshal settings JSON for provider ${quote(id)}); write e.g. \`settings: {base_url: …}\`` });
      return undefined;
    }
    for (const [key, value] of Object.entries(settings)) {
      if (Object.hasOwn(config, key)) {
        out.problems.push({
          path: [...path, 'settings', key],
          message: `is also a key of \`secretRefs\` (the operator fails: key ${quote(key)} appears in both secretRefs and settings); keep it in one of them`,
        });
        continue;
      }
      setOwn(config, key, structuredClone(value));
    }
  }
  return { config, provider_id: id, provider_type: type };
}

const isSecretRef = (value: unknown): value is { name: string; key: string } => isPlainObject(value) && typeof value.name === 'string' && typeof value.key === 'string';
