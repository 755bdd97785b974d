// The `ogx.io/v1beta1` OGXServer (ogx-ai/ogx-k8s-operator at 1784464): one zod schema, faithful to
// the CRD (../shared/reference/ogxserver/crd): every field, its type, enum, bounds and CRD default.
// The CRD's CEL rules and the admission webhook's checks live in `ogxserver-rules.ts`, so each rule
// is written once and reported at its field path. Defaults are applied as the API server applies
// them: only where the parent object is present.
//
// Built lazily (`ogxSchemas()`): a render without OGXServer items builds none of these schemas.
import type { KrmObject } from '../krm/item.js';
import { described, lazily, z } from '../lib/zod.js';
import {
  coreV1Schemas,
  objectMetadataSchema,
  networkPolicyEgressRule,
  networkPolicyIngressRule,
  podResourceClaim,
  resourceRequirements,
  topologySpreadConstraint,
} from '../core/core-v1.js';
import { isError, isNear, problemsFromIssues, type FieldProblem } from '../lib/issues.js';
import { quote } from '../lib/quote.js';
import { ogxLiteralCredentials } from './credentials.js';
import { checkOgxRules, type OgxRuleOptions } from './rules.js';
import { reservedKeys } from '../lib/reserved-keys.js';

export const ogxGroup = 'ogx.io';
export const ogxKind = 'OGXServer';
export const ogxVersion = 'v1beta1';
export const ogxApiVersion = `${ogxGroup}/${ogxVersion}`;

/** Is this object an OGXServer (group ogx.io, kind OGXServer), of any version? */
export const isOgxServerObject = (object: Pick<KrmObject, 'apiVersion' | 'kind'>): boolean =>
  object.kind === ogxKind && object.apiVersion.startsWith(`${ogxGroup}/`);

/**
 * An object that is not an OGXServer llsd-render reads but was likely meant as one: a kind a typo
 * away from OGXServer (any case); that kind with another group (`ogx.ai`) or none; another version
 * of ogx.io (`v1alpha1`); or another kind in ogx.io, which has only this one. Passed through
 * unrendered it would make the render silently empty (and Argo CD would prune what it generated
 * before), so it is an error naming the right spelling.
 */
export function ogxNearMiss(object: Pick<KrmObject, 'apiVersion' | 'kind'>): FieldProblem | undefined {
  if (object.kind === ogxKind && object.apiVersion === ogxApiVersion) return undefined;
  const slash = object.apiVersion.indexOf('/');
  const objectGroup = slash < 0 ? '' : object.apiVersion.slice(0, slash);
  const right = `\`${ogxApiVersion}\``;
  if (object.kind !== ogxKind && isNear(object.kind, ogxKind)) {
    return { path: ['kind'], message: `must be \`${ogxKind}\` (apiVersion ${right}) for llsd-render to render it, not ${quote(object.kind)}; as a misspelt OGXServer it would render nothing` };
  }
  if (object.kind === ogxKind && objectGroup === ogxGroup) {
    return {
      path: ['apiVersion'],
      message: `is not a version llsd-render reads: ${quote(object.apiVersion.slice(slash + 1))}; write ${right}, the one version of ${ogxKind} it renders (the operator serves only v1beta1)`,
    };
  }
  if (object.kind === ogxKind) {
    const wrote = slash < 0 ? `${quote(object.apiVersion.slice(0, 40))} is not <group>/<version>` : `the group ${quote(objectGroup)} is not ${ogxGroup}`;
    return { path: ['apiVersion'], message: `must be ${right} for llsd-render to render this ${ogxKind}: ${wrote}, and the OGXServer would render nothing` };
  }
  if (objectGroup === ogxGroup) {
    return { path: ['kind'], message: `must be \`${ogxKind}\`, the one kind of ${ogxGroup}, not ${quote(object.kind)}; written otherwise the OGXServer would render nothing` };
  }
  return undefined;
}

/** The API names `disabledAPIs` accepts, in the CRD's order. */
export const ogxDisableableApis = ['batches', 'file_processors', 'inference', 'responses', 'tool_runtime', 'vector_io', 'files'] as const;

/** The OGXServer schemas, built on first use. */
export const ogxSchemas = lazily(defineSchemas);

function defineSchemas() {
  const { envVar, quantity, volume, volumeMount } = coreV1Schemas();
  const metadataSchema = objectMetadataSchema();
  /** A whole number of at least `min` (and at most `max`). */
  const int = (min: number, max?: number) => z.int().check(z.minimum(min), ...(max === undefined ? [] : [z.maximum(max)]));
  const int32 = (min: number, max?: number) => z.int32().check(z.minimum(min), ...(max === undefined ? [] : [z.maximum(max)]));
  const nonEmpty = () => z.string().check(z.minLength(1));
  /** A list of at least one non-empty string. */
  const nonEmptyStrings = () => z.array(nonEmpty()).check(z.minLength(1));
  /** A string the CRD checks with CEL "must not be empty if specified" (ogxserver-rules.ts), not in its schema. */
  const optionalString = (doc: string) => described(z.optional(z.string()), doc);
  const id = () => optionalString('Provider id; defaults to the type\'s default id (`remote-vllm`, …).');
  /** Every typed provider list: 1 to 100 entries. */
  const providerList = <T extends z.ZodMiniType>(entry: T, doc: string) => described(z.optional(z.array(entry).check(z.minLength(1), z.maxLength(100))), doc);

  /**
   * A map of at least one entry (the CRD's `minProperties: 1`). zod has no such check, so it is a
   * refinement, and the bound is added to the field's JSON Schema through its registry entry.
   */
  const nonEmptyMap = <T extends z.ZodMiniType>(value: T, doc: string) => {
    const map = z.record(z.string(), value).check(z.refine((entries) => Object.keys(entries).length > 0, { error: 'must have at least one entry; remove the field, or add an entry' }));
    z.globalRegistry.add(map, { description: doc, minProperties: 1 });
    return map;
  };

  const keyRef = (what: 'Secret' | 'ConfigMap', doc: string) =>
    described(
      z.strictObject({
        key: described(
          z.string().check(
            z.minLength(1),
            z.maxLength(253),
            z.regex(/^[a-zA-Z0-9]([a-zA-Z0-9\-_.]*[a-zA-Z0-9])?$/, { error: `must be a ${what} key: letters, digits, "-", "_" and ".", starting and ending with a letter or digit` }),
          ),
          `Key in the ${what}.`,
        ),
        name: described(nonEmpty(), `Name of a ${what} in the OGXServer's namespace, labelled \`ogx.io/watch: "true"\`.`),
      }),
      doc,
    );
  const secretRef = (doc: string) => keyRef('Secret', doc);
  const configMapRef = (doc: string) => keyRef('ConfigMap', doc);

  const customProvider = described(
    z.strictObject({
      id: id(),
      type: described(nonEmpty(), 'provider_type, with a `remote::` or `inline::` prefix (e.g. `remote::llama-guard`).'),
      secretRefs: z.optional(nonEmptyMap(secretRef('A Secret key, written to this config key as an env placeholder.'), 'Provider config keys taken from Secrets, by config key.')),
      settings: described(z.optional(z.unknown()), 'Provider config (an object), merged into `config`.'),
    }),
    'A provider of any type, configured as written.',
  );
  const custom = () => providerList(customProvider, 'Providers of any type.');

  const providerNetwork = described(
    z.strictObject({
      headers: z.optional(nonEmptyMap(z.string(), 'HTTP headers sent with every request.')),
      proxy: described(
        z.optional(
          z.strictObject({
            cacert: optionalString('CA certificate file of the proxy.'),
            http: optionalString('Proxy for HTTP.'),
            https: optionalString('Proxy for HTTPS.'),
            noProxy: described(z.optional(nonEmptyStrings()), 'Hosts reached without the proxy.'),
            url: optionalString('Proxy for all traffic.'),
          }),
        ),
        'Outbound proxy.',
      ),
      timeout: described(
        z.optional(z.strictObject({ connect: described(z.optional(int(1)), 'Connect timeout, seconds.'), read: described(z.optional(int(1)), 'Read timeout, seconds.') })),
        'Timeouts.',
      ),
      tls: described(
        z.optional(
          z.strictObject({
            ciphers: described(z.optional(nonEmptyStrings()), 'Allowed cipher suites.'),
            minVersion: described(z.optional(z.enum(['TLSv1.2', 'TLSv1.3'])), 'Minimum TLS version.'),
            verify: described(z.optional(z.boolean()), 'Verify the server certificate.'),
          }),
        ),
        'TLS to the provider.',
      ),
    }),
    'Network settings of the provider client.',
  );
  /** The fields every typed remote inference provider has. */
  const inferenceCommon = {
    allowedModels: described(z.optional(nonEmptyStrings()), 'Only these models are offered.'),
    id: id(),
    network: z.optional(providerNetwork),
    refreshModels: described(z.optional(z.boolean()), 'Refresh the model list from the provider periodically.'),
  };

  const inference = described(
    z.strictObject({
      inline: described(z.optional(z.strictObject({ custom: custom() })), 'Inline inference providers.'),
      remote: described(
        z.optional(
          z.strictObject({
            azure: providerList(
              z.strictObject({
                ...inferenceCommon,
                apiKey: secretRef('Azure API key.'),
                apiType: optionalString('Azure API type.'),
                apiVersion: optionalString('Azure API version.'),
                endpoint: described(nonEmpty(), 'Azure OpenAI endpoint URL.'),
              }),
              'Azure OpenAI providers.',
            ),
            bedrock: providerList(
              z.strictObject({
                ...inferenceCommon,
                apiKey: z.optional(secretRef('Bedrock API key.')),
                awsAccessKeyId: z.optional(secretRef('AWS access key id.')),
                awsRoleArn: optionalString('AWS role to assume.'),
                awsRoleSessionName: optionalString('Session name for the assumed role.'),
                awsSecretAccessKey: z.optional(secretRef('AWS secret access key.')),
                awsSessionToken: z.optional(secretRef('AWS session token.')),
                awsWebIdentityTokenFile: optionalString('Web identity token file.'),
                connectTimeout: described(z.optional(int(1)), 'Connect timeout, seconds.'),
                profileName: optionalString('AWS profile name.'),
                readTimeout: described(z.optional(int(1)), 'Read timeout, seconds.'),
                region: described(nonEmpty(), 'AWS region.'),
                retryMode: optionalString('boto retry mode.'),
                sessionTTL: described(z.optional(int(1)), 'Session TTL, seconds.'),
                totalMaxAttempts: described(z.optional(int(1)), 'Maximum attempts per request.'),
              }),
              'AWS Bedrock providers.',
            ),
            custom: custom(),
            openai: providerList(
              z.strictObject({ ...inferenceCommon, apiKey: secretRef('OpenAI API key.'), endpoint: optionalString('OpenAI-compatible endpoint URL.') }),
              'OpenAI providers.',
            ),
            vertexai: providerList(
              z.strictObject({ ...inferenceCommon, location: optionalString('Google Cloud location.'), project: described(nonEmpty(), 'Google Cloud project.') }),
              'Google Vertex AI providers (credentials from the pod env or volumes).',
            ),
            vllm: providerList(
              z.strictObject({
                ...inferenceCommon,
                apiToken: z.optional(secretRef('vLLM API token.')),
                endpoint: described(nonEmpty(), 'vLLM server URL, such as `http://vllm:8000/v1`.'),
                maxTokens: described(z.optional(int(1)), 'Maximum tokens per request.'),
              }),
              'vLLM providers.',
            ),
            watsonx: providerList(
              z.strictObject({
                ...inferenceCommon,
                apiKey: secretRef('watsonx API key.'),
                endpoint: optionalString('watsonx endpoint URL.'),
                projectId: optionalString('watsonx project id.'),
                timeout: described(z.optional(int(1)), 'Request timeout, seconds.'),
              }),
              'IBM watsonx providers.',
            ),
          }),
        ),
        'Remote inference providers.',
      ),
    }),
    'Inference providers.',
  );

  const vectorIo = described(
    z.strictObject({
      inline: described(z.optional(z.strictObject({ custom: custom() })), 'Inline vector_io providers.'),
      remote: described(
        z.optional(
          z.strictObject({
            custom: custom(),
            milvus: providerList(
              z.strictObject({
                consistencyLevel: optionalString('Milvus consistency level.'),
                id: id(),
                token: z.optional(secretRef('Milvus token.')),
                uri: described(nonEmpty(), 'Milvus URI.'),
              }),
              'Milvus providers.',
            ),
            pgvector: providerList(
              z.strictObject({
                db: optionalString('Database name.'),
                distanceMetric: described(z.optional(z.enum(['COSINE', 'L2', 'L1', 'INNER_PRODUCT'])), 'Distance metric.'),
                host: optionalString('PostgreSQL host.'),
                id: id(),
                password: secretRef('PostgreSQL password.'),
                port: described(z.optional(int(1, 65535)), 'PostgreSQL port.'),
                user: optionalString('PostgreSQL user.'),
                vectorIndex: described(
                  z.optional(
                    z.strictObject({
                      hnsw: described(
                        z.optional(
                          z.strictObject({
                            efConstruction: z.optional(int(1)),
                            efSearch: z.optional(int(1)),
                            m: z.optional(int(1)),
                          }),
                        ),
                        'An HNSW index.',
                      ),
                      ivfFlat: described(z.optional(z.strictObject({ nlist: z.optional(int(1)), nprobe: z.optional(int(1)) })), 'An IVFFlat index.'),
                    }),
                  ),
                  'The vector index: `hnsw` or `ivfFlat`.',
                ),
              }),
              'pgvector providers.',
            ),
            qdrant: providerList(
              z.strictObject({
                apiKey: z.optional(secretRef('Qdrant API key.')),
                grpcPort: described(z.optional(int(1, 65535)), 'gRPC port.'),
                host: optionalString('Qdrant host.'),
                https: described(z.optional(z.boolean()), 'Use HTTPS.'),
                id: id(),
                location: optionalString('Qdrant location.'),
                port: described(z.optional(int(1, 65535)), 'HTTP port.'),
                preferGrpc: described(z.optional(z.boolean()), 'Prefer gRPC.'),
                prefix: optionalString('URL path prefix.'),
                timeout: described(z.optional(int(1)), 'Timeout, seconds.'),
                url: optionalString('Qdrant URL.'),
              }),
              'Qdrant providers.',
            ),
          }),
        ),
        'Remote vector_io providers.',
      ),
    }),
    'Vector store providers.',
  );

  const modelRef = (doc: string, dimensions: boolean) =>
    described(
      z.strictObject({
        ...(dimensions ? { embeddingDimensions: described(z.optional(int(1)), 'Embedding dimensions.') } : {}),
        modelId: described(nonEmpty(), 'Model id.'),
        providerId: described(nonEmpty(), 'Provider id.'),
      }),
      doc,
    );
  /** `vectorStoresConfig`, built per use (fileSearch, builtin responses) so each place has its own field docs. */
  const vectorStoresConfig = () =>
    described(
      z.optional(
        z.strictObject({
          annotationPromptParams: z.optional(
            z.strictObject({
              annotationInstructionTemplate: z.optional(z.string()),
              chunkAnnotationTemplate: z.optional(z.string()),
              enableAnnotations: z.optional(z.boolean()),
            }),
          ),
          chunkRetrievalParams: z.optional(
            z.strictObject({
              chunkMultiplier: z.optional(int(1)),
              defaultRerankerStrategy: z.optional(z.enum(['rrf', 'weighted', 'normalized'])),
              defaultSearchMode: z.optional(z.enum(['vector', 'keyword', 'hybrid'])),
              maxTokensInContext: z.optional(int(1)),
              rrfImpactFactor: described(z.optional(z.string()), 'A decimal number, as a string.'),
              weightedSearchAlpha: described(z.optional(z.string()), 'A decimal number, as a string.'),
            }),
          ),
          contextPromptParams: z.optional(z.strictObject({ chunkAnnotationTemplate: z.optional(z.string()), contextTemplate: z.optional(z.string()) })),
          contextualRetrievalParams: z.optional(
            z.strictObject({
              defaultMaxConcurrency: z.optional(int(1)),
              defaultTimeoutSeconds: z.optional(int(1)),
              maxDocumentTokens: z.optional(int(1)),
              model: z.optional(modelRef('The model that writes chunk context.', true)),
            }),
          ),
          defaultEmbeddingModel: z.optional(modelRef('Default embedding model of new vector stores.', true)),
          defaultProviderId: optionalString('Default vector_io provider id of new vector stores.'),
          defaultRerankerModel: z.optional(modelRef('Default reranker model.', false)),
          fileBatchParams: z.optional(
            z.strictObject({
              cleanupIntervalSeconds: z.optional(int(1)),
              fileBatchChunkSize: z.optional(int(1)),
              maxConcurrentFilesPerBatch: z.optional(int(1)),
            }),
          ),
          fileIngestionParams: z.optional(z.strictObject({ defaultChunkOverlapTokens: z.optional(int(0)), defaultChunkSizeTokens: z.optional(int(1)) })),
          fileSearchParams: z.optional(z.strictObject({ footerTemplate: z.optional(z.string()), headerTemplate: z.optional(z.string()) })),
          rewriteQueryParams: z.optional(
            z.strictObject({
              maxTokens: z.optional(int(1)),
              model: z.optional(modelRef('The model that rewrites queries.', true)),
              prompt: described(z.optional(z.string()), 'Prompt; must contain `{query}`.'),
              temperature: described(z.optional(z.string()), 'A decimal number from 0 to 2, as a string.'),
            }),
          ),
        }),
      ),
      'Vector store settings (OGX `vector_stores`).',
    );

  const toolRuntime = described(
    z.strictObject({
      inline: described(
        z.optional(
          z.strictObject({
            custom: custom(),
            fileSearch: providerList(z.strictObject({ id: id(), vectorStoresConfig: vectorStoresConfig() }), 'File search tool providers.'),
          }),
        ),
        'Inline tool_runtime providers.',
      ),
      remote: described(
        z.optional(
          z.strictObject({
            braveSearch: providerList(
              z.strictObject({ apiKey: secretRef('Brave Search API key.'), id: id(), maxResults: described(z.optional(int(1)), 'Results per search.') }),
              'Brave Search providers.',
            ),
            custom: custom(),
            modelContextProtocol: providerList(z.strictObject({ id: id() }), 'Model Context Protocol providers.'),
            tavilySearch: providerList(
              z.strictObject({ apiKey: secretRef('Tavily API key.'), id: id(), maxResults: described(z.optional(int(1)), 'Results per search.') }),
              'Tavily Search providers.',
            ),
          }),
        ),
        'Remote tool_runtime providers.',
      ),
    }),
    'Tool runtime providers.',
  );

  const files = described(
    z.strictObject({
      inline: described(
        z.optional(z.strictObject({ custom: custom(), localfs: described(z.optional(z.strictObject({ ttlSecs: z.optional(int(1)) })), 'Local files (id `inline-localfs`).') })),
        'Inline files providers.',
      ),
      remote: described(
        z.optional(
          z.strictObject({
            custom: custom(),
            s3: described(
              z.optional(
                z.strictObject({
                  autoCreateBucket: z.optional(z.boolean()),
                  awsAccessKeyId: z.optional(secretRef('AWS access key id.')),
                  awsSecretAccessKey: z.optional(secretRef('AWS secret access key.')),
                  bucketName: described(nonEmpty(), 'Bucket name.'),
                  endpointUrl: optionalString('S3 endpoint URL.'),
                  region: optionalString('Region.'),
                }),
              ),
              'S3 files (id `remote-s3`).',
            ),
          }),
        ),
        'Remote files providers.',
      ),
    }),
    'Files providers.',
  );

  const batches = described(
    z.strictObject({
      inline: described(
        z.optional(
          z.strictObject({
            custom: custom(),
            reference: described(
              z.optional(z.strictObject({ maxConcurrentBatches: z.optional(int(1)), maxConcurrentRequestsPerBatch: z.optional(int(1)) })),
              'The reference batches provider (id `inline-reference`).',
            ),
          }),
        ),
        'Inline batches providers.',
      ),
      remote: described(z.optional(z.strictObject({ custom: custom() })), 'Remote batches providers.'),
    }),
    'Batches providers.',
  );

  const responses = described(
    z.strictObject({
      inline: described(
        z.optional(
          z.strictObject({
            builtin: described(
              z.optional(
                z.strictObject({
                  compactionConfig: described(
                    z.optional(
                      z.strictObject({
                        defaultCompactThreshold: z.optional(int(1)),
                        summarizationModel: optionalString('Model that summarises.'),
                        summarizationPrompt: optionalString('Summarisation prompt.'),
                        summaryPrefix: optionalString('Prefix of the summary.'),
                        tokenizerEncoding: optionalString('Tokenizer encoding.'),
                      }),
                    ),
                    'Conversation compaction.',
                  ),
                  vectorStoresConfig: vectorStoresConfig(),
                }),
              ),
              'The built-in responses provider (id `inline-builtin`).',
            ),
            custom: custom(),
          }),
        ),
        'Inline responses providers.',
      ),
      remote: described(z.optional(z.strictObject({ custom: custom() })), 'Remote responses providers.'),
    }),
    'Responses providers.',
  );

  const chunkFields = {
    defaultChunkOverlapTokens: described(z.optional(int(0, 2048)), 'Chunk overlap, tokens.'),
    defaultChunkSizeTokens: described(z.optional(int(100, 4096)), 'Chunk size, tokens.'),
  };
  const fileProcessors = described(
    z.strictObject({
      inline: described(
        z.optional(
          z.strictObject({
            auto: described(
              z.optional(z.strictObject({ ...chunkFields, cleanText: z.optional(z.boolean()), extractMetadata: z.optional(z.boolean()) })),
              'Automatic file processor (id `inline-auto`).',
            ),
            custom: custom(),
            docling: described(z.optional(z.strictObject({ ...chunkFields, doOcr: z.optional(z.boolean()) })), 'Docling (id `inline-docling`).'),
            markitdown: described(z.optional(z.strictObject({ ...chunkFields })), 'MarkItDown (id `inline-markitdown`).'),
            pypdf: described(
              z.optional(z.strictObject({ ...chunkFields, cleanText: z.optional(z.boolean()), extractMetadata: z.optional(z.boolean()) })),
              'pypdf (id `inline-pypdf`).',
            ),
          }),
        ),
        'Inline file processors.',
      ),
      remote: described(
        z.optional(
          z.strictObject({
            custom: custom(),
            doclingServe: described(
              z.optional(
                z.strictObject({
                  apiKey: z.optional(secretRef('docling-serve API key.')),
                  baseUrl: described(nonEmpty(), 'docling-serve URL.'),
                  defaultChunkSizeTokens: described(z.optional(int(100, 4096)), 'Chunk size, tokens.'),
                }),
              ),
              'docling-serve (id `remote-docling-serve`).',
            ),
          }),
        ),
        'Remote file processors.',
      ),
    }),
    'File processors.',
  );

  const providers = described(
    z.strictObject({ batches: z.optional(batches), fileProcessors: z.optional(fileProcessors), files: z.optional(files), inference: z.optional(inference), responses: z.optional(responses), toolRuntime: z.optional(toolRuntime), vectorIo: z.optional(vectorIo) }),
    'Providers per API; they replace the base config\'s providers of that API.',
  );

  const model = described(
    z.strictObject({
      contextLength: described(z.optional(z.int()), 'Context length (OGX ignores it).'),
      modelType: optionalString('`llm` (default), `embedding` or `rerank`.'),
      name: described(nonEmpty(), 'Model id (`model_id`).'),
      provider: optionalString('Inference provider id; default: the smallest inference provider id.'),
      quantization: optionalString('Quantization (OGX ignores it).'),
    }),
    'A model to register.',
  );

  const storage = described(
    z.strictObject({
      kv: described(
        z.optional(
          z.strictObject({
            endpoint: described(z.optional(z.string()), 'redis: server URL.'),
            password: z.optional(secretRef('redis password.')),
            type: described(z._default(z.enum(['sqlite', 'redis']), 'sqlite'), 'Backend; default `sqlite`.'),
          }),
        ),
        'Key-value store.',
      ),
      sql: described(
        z.optional(
          z.strictObject({
            connectionString: z.optional(secretRef('postgres connection string.')),
            type: described(z._default(z.enum(['sqlite', 'postgres']), 'sqlite'), 'Backend; default `sqlite`.'),
          }),
        ),
        'SQL store.',
      ),
    }),
    'State storage; replaces the base config\'s storage, even when empty.',
  );

  const network = described(
    z.strictObject({
      externalAccess: described(
        z.optional(
          z.strictObject({
            enabled: described(z._default(z.boolean(), false), 'Create an Ingress.'),
            hostname: optionalString('Host name (the operator ignores it).'),
          }),
        ),
        'Access from outside the cluster.',
      ),
      policy: described(
        z.optional(
          z.strictObject({
            egress: described(z.optional(z.array(networkPolicyEgressRule())), 'Egress rules; used only with `ingress`.'),
            enabled: described(z._default(z.boolean(), true), 'Create a NetworkPolicy.'),
            ingress: described(z.optional(z.array(networkPolicyIngressRule())), 'Ingress rules; replace the default ones.'),
            policyTypes: described(z.optional(z.array(z.enum(['Ingress', 'Egress']))), 'Policy types (the operator ignores it).'),
          }),
        ),
        'The NetworkPolicy.',
      ),
      port: described(z._default(int32(1, 65535), 8321), 'Server port; default 8321.'),
      tls: described(z.optional(z.strictObject({ secretName: described(nonEmpty(), 'TLS Secret (the operator ignores it).') })), 'Server TLS.'),
    }),
    'Networking.',
  );

  const workload = described(
    z.strictObject({
      autoscaling: described(
        z.optional(
          z.strictObject({
            maxReplicas: described(int32(1), 'Most replicas.'),
            minReplicas: described(z.optional(int32(1)), 'Fewest replicas.'),
            targetCPUUtilizationPercentage: described(z.optional(int32(1, 100)), 'Target CPU utilisation, percent.'),
            targetMemoryUtilizationPercentage: described(z.optional(int32(1, 100)), 'Target memory utilisation, percent.'),
          }),
        ),
        'A HorizontalPodAutoscaler.',
      ),
      overrides: described(
        z.optional(
          z.strictObject({
            args: described(z.optional(nonEmptyStrings()), 'Container args.'),
            command: described(z.optional(nonEmptyStrings()), 'Container command.'),
            env: described(z.optional(z.array(envVar).check(z.minLength(1))), 'Extra env vars, last; they win over the operator\'s.'),
            serviceAccountName: optionalString('Pod ServiceAccount.'),
            volumeMounts: described(z.optional(z.array(volumeMount).check(z.minLength(1))), 'Extra volume mounts.'),
            volumes: described(z.optional(z.array(volume).check(z.minLength(1))), 'Extra volumes.'),
          }),
        ),
        'Pod and container fields set as written.',
      ),
      podDisruptionBudget: described(
        z.optional(
          z.strictObject({
            maxUnavailable: described(z.optional(z.union([z.int(), z.string()])), 'A number of pods or a percentage.'),
            minAvailable: described(z.optional(z.union([z.int(), z.string()])), 'A number of pods or a percentage.'),
          }),
        ),
        'A PodDisruptionBudget.',
      ),
      replicas: described(z._default(int32(0), 1), 'Pod replicas; default 1.'),
      resourceClaims: described(z.optional(z.array(podResourceClaim()).check(z.minLength(1))), 'Pod resource claims (DRA).'),
      resources: z.optional(resourceRequirements()),
      storage: described(
        z.optional(
          z.strictObject({
            mountPath: described(z._default(z.string(), '/.ogx'), 'Mount path; default `/.ogx`.'),
            size: described(z.optional(quantity.clone()), 'PVC size; default 10Gi.'),
          }),
        ),
        'A PersistentVolumeClaim for the server state.',
      ),
      topologySpreadConstraints: described(z.optional(z.array(topologySpreadConstraint()).check(z.minLength(1))), 'Topology spread constraints; replace the defaults.'),
      workers: described(z.optional(int32(1)), 'Server worker processes.'),
    }),
    'Kubernetes workload settings.',
  );

  const spec = described(
    z.strictObject({
      baseConfig: z.optional(configMapRef('A ConfigMap key with the config.yaml to generate from.')),
      disabledAPIs: described(z.optional(z.array(z.enum(ogxDisableableApis)).check(z.minLength(1), z.maxLength(7))), 'APIs to remove from `apis`.'),
      distribution: described(
        z.strictObject({
          image: described(z.optional(z.string()), 'An image, used as written.'),
          name: described(z.optional(z.string()), 'A named distribution, such as `starter`.'),
        }),
        'Which OGX distribution to run: `name` or `image`.',
      ),
      monitoring: described(
        z.optional(
          z.strictObject({
            enabled: described(z._default(z.boolean(), true), 'Metrics, ServiceMonitor and PrometheusRule; default on (also when `monitoring` is absent).'),
            metricsPort: described(z.optional(int32(1, 65535)), 'Metrics port; the operator uses 9464 when unset.'),
          }),
        ),
        'Metrics.',
      ),
      network: z.optional(network),
      overrideConfig: z.optional(configMapRef('A ConfigMap key with the whole config.yaml, used instead of generating one.')),
      providers: z.optional(providers),
      registryRefreshIntervalSeconds: described(z.optional(int32(1)), 'Registry refresh interval, seconds (OGX ignores it).'),
      resources: described(z.optional(z.strictObject({ models: described(z.optional(z.array(model).check(z.minLength(1))), 'Models to register.') })), 'Resources registered at startup.'),
      storage: z.optional(storage),
      tls: described(
        z.optional(
          z.strictObject({
            identity: described(
              z.optional(z.strictObject({ cert: configMapRef('Client certificate.'), key: secretRef('Client key.') })),
              'Client identity (the operator ignores it).',
            ),
            trust: described(
              z.optional(z.strictObject({ caCertificates: described(z.optional(z.array(configMapRef('A ConfigMap key with PEM CA certificates.')).check(z.minLength(1))), 'CA certificates.') })),
              'CA certificates the server trusts for outbound TLS.',
            ),
          }),
        ),
        'Outbound TLS.',
      ),
      workload: z.optional(workload),
    }),
    'OGXServer spec (ogx.io/v1beta1).',
  );

  // `status` is written by the operator; a renderer ignores it, so it is accepted as anything.
  const server = z.looseObject({
    apiVersion: z.literal(ogxApiVersion),
    kind: z.literal(ogxKind),
    metadata: metadataSchema,
    spec,
  });
  return { server, spec, providers, customProvider, model, storage, network, workload, vectorStoresConfig: vectorStoresConfig(), providerNetwork };
}

type Schemas = ReturnType<typeof defineSchemas>;
/** The spec after CRD defaults. */
export type OgxServerSpec = z.output<Schemas['spec']>;
/** An OGXServer after CRD defaults: `status` and unknown metadata dropped. */
export interface OgxServer {
  apiVersion: typeof ogxApiVersion;
  kind: typeof ogxKind;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: OgxServerSpec;
}
export type OgxProviders = z.output<Schemas['providers']>;
export type OgxSecretRef = { name: string; key: string };
export type OgxConfigMapRef = { name: string; key: string };
export type OgxWorkload = z.output<Schemas['workload']>;
export type OgxNetwork = z.output<Schemas['network']>;
/** Absent `monitoring` means enabled (API.md §11). */
export type OgxMonitoring = NonNullable<OgxServerSpec['monitoring']>;
export type OgxStorage = z.output<Schemas['storage']>;
export type OgxModel = z.output<Schemas['model']>;
export type OgxCustomProvider = z.output<Schemas['customProvider']>;
export type OgxVectorStoresConfig = NonNullable<z.output<Schemas['vectorStoresConfig']>>;
export type OgxProviderNetwork = z.output<Schemas['providerNetwork']>;

export type ParsedOgxServer = { ok: true; server: OgxServer; problems: FieldProblem[] } | { ok: false; problems: FieldProblem[] };

const requiredHints = {
  spec: 'add a `spec` with at least `distribution: {name: starter}`',
  'spec.distribution': 'set `spec.distribution.name` (for example `starter`) or `spec.distribution.image`',
};

/**
 * Parses an OGXServer: the CRD's schema with its defaults, then its CEL rules and the admission
 * webhook's checks (`ogxserver-rules.ts`). Every problem has its field path in the item.
 */
export function parseOgxServer(object: KrmObject, options: OgxRuleOptions = {}): ParsedOgxServer {
  const reserved = reservedKeys(object);
  if (reserved.length > 0) return { ok: false, problems: reserved };
  const { server: schema } = ogxSchemas();
  const parsed = schema.safeParse(object, { reportInput: true });
  if (!parsed.success) return { ok: false, problems: problemsFromIssues(parsed.error.issues, schema, requiredHints) };
  const { metadata, spec } = parsed.data;
  const server: OgxServer = { apiVersion: ogxApiVersion, kind: ogxKind, metadata: pickMetadata(metadata), spec };
  const problems = [...checkOgxRules(server, options), ...ogxLiteralCredentials(spec)];
  if (problems.some(isError)) return { ok: false, problems };
  return { ok: true, server, problems };
}

function pickMetadata(metadata: z.output<ReturnType<typeof objectMetadataSchema>>): OgxServer['metadata'] {
  const out: OgxServer['metadata'] = { name: metadata.name };
  if (metadata.namespace !== undefined) out.namespace = metadata.namespace;
  if (metadata.labels !== undefined) out.labels = metadata.labels;
  if (metadata.annotations !== undefined) out.annotations = metadata.annotations;
  return out;
}
