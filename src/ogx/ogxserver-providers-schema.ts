// The `spec.providers` part of the OGXServer schema (src/ogx/ogxserver-schema.ts), and the field
// helpers the whole schema shares: every typed provider with its fields, docs and bounds as the CRD
// declares them. configs/ogx-providers.yaml holds the same providers and fields for the generation,
// the id check and the conversion; test/unit/ogx-providers-table.test.ts keeps the two equal.
import { described, z } from '../lib/zod.js';

/** The field helpers of the OGXServer schema: its integers, strings, lists, maps and key references. */
export function ogxSchemaHelpers() {
  /** A whole number of at least `min` (and at most `max`). */
  const int = (min: number, max?: number) => z.int().check(z.minimum(min), ...(max === undefined ? [] : [z.maximum(max)]));
  const int32 = (min: number, max?: number) => z.int32().check(z.minimum(min), ...(max === undefined ? [] : [z.maximum(max)]));
  const nonEmpty = () => z.string().check(z.minLength(1));
  /** A list of at least one non-empty string. */
  const nonEmptyStrings = () => z.array(nonEmpty()).check(z.minLength(1));
  /** A string the CRD checks with CEL "must not be empty if specified" (rules.ts), not in its schema. */
  const optionalString = (doc: string) => described(z.optional(z.string()), doc);
  const id = () => optionalString('Provider id; defaults to the type\'s default id (`remote-vllm`, …).');
  /** Every typed provider list: 1 to 100 entries. */
  const providerList = <T extends z.ZodMiniType>(entry: T, doc: string) => described(z.optional(z.array(entry).check(z.minLength(1), z.maxLength(100))), doc);

  /**
   * A map of at least one entry (the CRD's `minProperties: 1`). zod has no such check, so it is a
   * refinement, and the bound is added to the field's JSON Schema through its registry entry.
   */
  const nonEmptyMap = <T extends z.ZodMiniType>(value: T, doc: string) => {
    const map = z.record(z.string(), value).check(z.refine((entries) => Object.keys(entries).length > 0, { error:
      'must have at least one entry; remove the field, or add an entry' }));
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
            z.regex(/^[a-zA-Z0-9]([a-zA-Z0-9\-_.]*[a-zA-Z0-9])?$/, { error:
              `must be a ${what} key: letters, digits, "-", "_" and ".", starting and ending with a letter or digit` }),
          ),
          `Key in the ${what}.`,
        ),
        name: described(nonEmpty(), `Name of a ${what} in the OGXServer's namespace, labelled \`ogx.io/watch: "true"\`.`),
      }),
      doc,
    );
  const secretRef = (doc: string) => keyRef('Secret', doc);
  const configMapRef = (doc: string) => keyRef('ConfigMap', doc);
  return { int, int32, nonEmpty, nonEmptyStrings, optionalString, id, providerList, nonEmptyMap, secretRef, configMapRef };
}

/** `spec.providers`, with the parts other schemas and types name. */
export function ogxProviderSchemas(h: ReturnType<typeof ogxSchemaHelpers>) {
  const { int, nonEmpty, nonEmptyStrings, optionalString, id, providerList, nonEmptyMap, secretRef } = h;
  const customProvider = described(
    z.strictObject({
      id: id(),
      type: described(nonEmpty(), 'provider_type, with a `remote::` or `inline::` prefix (e.g. `remote::llama-guard`).'),
      secretRefs: z.optional(nonEmptyMap(secretRef(
        'A Secret key, written to this config key as an env placeholder.'), 'Provider config keys taken from Secrets, by config key.')),
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
        z.optional(
          z.strictObject({
            connect: described(z.optional(int(1)), 'Connect timeout, seconds.'),
            read: described(z.optional(int(1)), 'Read timeout, seconds.'),
          }),
        ),
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
              z.strictObject({
                ...inferenceCommon,
                location: optionalString('Google Cloud location.'),
                project: described(nonEmpty(), 'Google Cloud project.'),
              }),
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
                            efConstruction: described(z.optional(int(1)), 'Candidate list size while building (`ef_construction`).'),
                            efSearch: described(z.optional(int(1)), 'Candidate list size while searching (`ef_search`).'),
                            m: described(z.optional(int(1)), 'Links per node (`m`).'),
                          }),
                        ),
                        'An HNSW index.',
                      ),
                      ivfFlat: described(
                        z.optional(
                          z.strictObject({
                            nlist: described(z.optional(int(1)), 'Lists (`lists`).'),
                            nprobe: described(z.optional(int(1)), 'Lists searched per query (`probes`).'),
                          }),
                        ),
                        'An IVFFlat index.',
                      ),
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
          annotationPromptParams: described(
            z.optional(
              z.strictObject({
                annotationInstructionTemplate: described(z.optional(z.string()), 'Instruction that asks the model to cite the files.'),
                chunkAnnotationTemplate: described(z.optional(z.string()), 'Template of one cited chunk.'),
                enableAnnotations: described(z.optional(z.boolean()), 'Add file citations to answers.'),
              }),
            ),
            'File citations in answers.',
          ),
          chunkRetrievalParams: described(z.optional(
            z.strictObject({
              chunkMultiplier: described(z.optional(int(1)), 'Chunks fetched per chunk returned, before reranking.'),
              defaultRerankerStrategy: described(z.optional(z.enum(['rrf', 'weighted', 'normalized'])), 'Reranker of hybrid search.'),
              defaultSearchMode: described(z.optional(z.enum(['vector', 'keyword', 'hybrid'])), 'Search mode when a request names none.'),
              maxTokensInContext: described(z.optional(int(1)), 'Most tokens of retrieved chunks in the context.'),
              rrfImpactFactor: described(z.optional(z.string()), 'A decimal number, as a string.'),
              weightedSearchAlpha: described(z.optional(z.string()), 'A decimal number, as a string.'),
            }),
          ), 'How chunks are retrieved and ranked.'),
          contextPromptParams: described(
            z.optional(
              z.strictObject({
                chunkAnnotationTemplate: described(z.optional(z.string()), 'Template of one chunk; OGX requires `{chunk.content}` and `{index}`.'),
                contextTemplate: described(z.optional(z.string()), 'Template around the chunks; OGX requires `{query}`.'),
              }),
            ),
            'How retrieved chunks are put into the prompt.',
          ),
          contextualRetrievalParams: described(z.optional(
            z.strictObject({
              defaultMaxConcurrency: described(z.optional(int(1)), 'Chunks given context at once.'),
              defaultTimeoutSeconds: described(z.optional(int(1)), 'Timeout per chunk, seconds.'),
              maxDocumentTokens: described(z.optional(int(1)), 'Largest document, in tokens, that is given context.'),
              model: z.optional(modelRef('The model that writes chunk context.', true)),
            }),
          ), 'Contextual retrieval: a model writes context for each chunk at ingestion.'),
          defaultEmbeddingModel: z.optional(modelRef('Default embedding model of new vector stores.', true)),
          defaultProviderId: optionalString('Default vector_io provider id of new vector stores.'),
          defaultRerankerModel: z.optional(modelRef('Default reranker model.', false)),
          fileBatchParams: described(z.optional(
            z.strictObject({
              cleanupIntervalSeconds: described(z.optional(int(1)), 'Interval between cleanups of finished batches, seconds.'),
              fileBatchChunkSize: described(z.optional(int(1)), 'Files processed per chunk of a batch.'),
              maxConcurrentFilesPerBatch: described(z.optional(int(1)), 'Files of one batch processed at once.'),
            }),
          ), 'File batches.'),
          fileIngestionParams: described(
            z.optional(
              z.strictObject({
                defaultChunkOverlapTokens: described(z.optional(int(0)), 'Chunk overlap, tokens.'),
                defaultChunkSizeTokens: described(z.optional(int(1)), 'Chunk size, tokens.'),
              }),
            ),
            'Chunking of ingested files.',
          ),
          fileSearchParams: described(
            z.optional(
              z.strictObject({
                footerTemplate: described(z.optional(z.string()), 'Text after the results.'),
                headerTemplate: described(z.optional(z.string()), 'Text before the results; OGX requires `{num_chunks}` and the word `file_search`.'),
              }),
            ),
            'Text around file search results.',
          ),
          rewriteQueryParams: described(z.optional(
            z.strictObject({
              maxTokens: described(z.optional(int(1)), 'Most tokens of the rewritten query; OGX allows at most 4096.'),
              model: z.optional(modelRef('The model that rewrites queries.', true)),
              prompt: described(z.optional(z.string()), 'Prompt; must contain `{query}`.'),
              temperature: described(z.optional(z.string()), 'A decimal number from 0 to 2, as a string.'),
            }),
          ), 'Query rewriting before search.'),
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
        z.optional(
          z.strictObject({
            custom: custom(),
            localfs: described(
              z.optional(z.strictObject({ ttlSecs: described(z.optional(int(1)), 'Time files are kept, seconds.') })),
              'Local files (id `inline-localfs`).',
            ),
          }),
        ),
        'Inline files providers.',
      ),
      remote: described(
        z.optional(
          z.strictObject({
            custom: custom(),
            s3: described(
              z.optional(
                z.strictObject({
                  autoCreateBucket: described(z.optional(z.boolean()), 'Create the bucket when it does not exist.'),
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
              z.optional(
                z.strictObject({
                  maxConcurrentBatches: described(z.optional(int(1)), 'Batches processed at once.'),
                  maxConcurrentRequestsPerBatch: described(z.optional(int(1)), 'Requests of one batch sent at once.'),
                }),
              ),
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
                        defaultCompactThreshold: described(z.optional(int(1)), 'Tokens at which a conversation is compacted.'),
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
  const textFields = () => ({
    cleanText: described(z.optional(z.boolean()), 'Tidy the extracted text.'),
    extractMetadata: described(z.optional(z.boolean()), 'Extract document metadata.'),
  });
  const fileProcessors = described(
    z.strictObject({
      inline: described(
        z.optional(
          z.strictObject({
            auto: described(
              z.optional(z.strictObject({ ...chunkFields, ...textFields() })),
              'Automatic file processor (id `inline-auto`).',
            ),
            custom: custom(),
            docling: described(
              z.optional(z.strictObject({ ...chunkFields, doOcr: described(z.optional(z.boolean()), 'Run OCR on images and scanned pages.') })),
              'Docling (id `inline-docling`).',
            ),
            markitdown: described(z.optional(z.strictObject({ ...chunkFields })), 'MarkItDown (id `inline-markitdown`).'),
            pypdf: described(
              z.optional(z.strictObject({ ...chunkFields, ...textFields() })),
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
    z.strictObject({
      batches: z.optional(batches),
      fileProcessors: z.optional(fileProcessors),
      files: z.optional(files),
      inference: z.optional(inference),
      responses: z.optional(responses),
      toolRuntime: z.optional(toolRuntime),
      vectorIo: z.optional(vectorIo),
    }),
    'Providers per API; they replace the base config\'s providers of that API.',
    { inference: { remote: { vllm: [{ endpoint: 'http://vllm:8000/v1' }] } } },
  );
  return { providers, customProvider, providerNetwork, vectorStoresConfig };
}
