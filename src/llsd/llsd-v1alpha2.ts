// The `llamastack.io/v1alpha2` LlamaStackDistribution: one zod schema, the single source of the
// types the later stages use, of the JSON Schema (`schema --json-schema`) and of the CRD
// (`schema --crd`). Field documentation lives in `described()`.
//
// Shape rules live here; rules across fields live in `rules.ts`, so each rule is written once and
// reported with its field path.
import { described, lazily, z } from '../lib/zod.js';
import { coreV1Schemas, dnsLabelSchema, dnsSubdomainSchema, objectMetadataSchema } from '../core/core-v1.js';

export const group = 'llamastack.io';
export const kind = 'LlamaStackDistribution';
export const version = 'v1alpha2';

/** A whole number of at least `min` (and at most `max`). */
const int = (min: number, max?: number) => z.number().check(z.int(), z.minimum(min), ...(max === undefined ? [] : [z.maximum(max)]));
/** The most a Kubernetes int32 field (replicas, a PodDisruptionBudget count) holds: the API server refuses more. */
const INT32_MAX = 2_147_483_647;
/** A whole number greater than zero. */
const positiveInt = () => z.number().check(z.int(), z.positive());
/** A list of at least one item. */
const nonEmptyArray = <T extends z.ZodMiniType>(element: T) => z.array(element).check(z.minLength(1));
/** A list of at least one non-empty string. */
const names = () => nonEmptyArray(z.string().check(z.minLength(1)));

/** CR API name → llama-stack API name. */
export const providerApis = {
  inference: 'inference',
  safety: 'safety',
  vectorIo: 'vector_io',
  toolRuntime: 'tool_runtime',
  telemetry: 'telemetry',
} as const;
export type ProviderApi = keyof typeof providerApis;

/** Every API name `disabled` accepts, in both spellings (docs/config-generation.md). */
export const disableableApis = [
  'inference',
  'safety',
  'agents',
  'responses',
  'vector_io',
  'vectorIo',
  'tool_runtime',
  'toolRuntime',
  'telemetry',
  'files',
  'file_processors',
  'fileProcessors',
  'batches',
  'datasetio',
  'scoring',
  'eval',
  'post_training',
  'postTraining',
] as const;

/**
 * The schemas, built on first use: a command that reads no LLSD (the webhook, `schema`, an
 * OGXServer render) does not build them.
 */
function defineSchemas() {
  const { envVar, quantity, volume, volumeMount } = coreV1Schemas();
  const dnsLabel = dnsLabelSchema();

  /** A Kubernetes TopologySpreadConstraint, checked as the API server would, since it is copied into the Deployment. */
  const topologySpreadConstraint = described(
    z.strictObject({
      maxSkew: described(z.int32().check(z.minimum(1)), 'How unevenly the pods may be spread (at least 1).'),
      topologyKey: described(z.string().check(z.minLength(1)), 'The node label whose values are the topology domains.'),
      whenUnsatisfiable: described(z.enum(['DoNotSchedule', 'ScheduleAnyway']), '`DoNotSchedule` or `ScheduleAnyway`.'),
      labelSelector: described(
        z.optional(
          z.strictObject({
            matchLabels: described(z.optional(z.record(z.string(), z.string())), 'Labels the pods must have.'),
            matchExpressions: described(
              z.optional(
                z.array(
                  z.strictObject({
                    key: described(z.string().check(z.minLength(1)), 'The label key.'),
                    operator: described(z.enum(['In', 'NotIn', 'Exists', 'DoesNotExist']), '`In`, `NotIn`, `Exists` or `DoesNotExist`.'),
                    values: described(z.optional(z.array(z.string())), 'Values for `In` and `NotIn`.'),
                  }),
                ),
              ),
              'Label requirements the pods must meet.',
            ),
          }),
        ),
        'The pods counted for spreading; default: this LLSD\'s pods.',
      ),
      matchLabelKeys: described(z.optional(z.array(z.string())), 'Pod label keys whose values further select the pods counted.'),
      minDomains: described(z.optional(z.int32().check(z.minimum(1))), 'Minimum number of eligible domains (with `DoNotSchedule`).'),
      nodeAffinityPolicy: described(z.optional(z.enum(['Honor', 'Ignore'])), '`Honor` or `Ignore` node affinity when counting.'),
      nodeTaintsPolicy: described(z.optional(z.enum(['Honor', 'Ignore'])), '`Honor` or `Ignore` node taints when counting.'),
    }),
    'A pod topology spread constraint (Kubernetes TopologySpreadConstraint).',
  );

  const dnsSubdomain = dnsSubdomainSchema();

  const secretKeySelector = described(
    z.strictObject({
      name: described(dnsSubdomain.clone(), 'Name of a Secret in the LLSD namespace.'),
      key: described(
        z.string().check(z.minLength(1), z.maxLength(253), z.regex(/^[-._a-zA-Z0-9]+$/, { error: 'must be a Secret key: letters, digits, "-", "_" and "."' })),
        'Key in that Secret.',
      ),
    }),
    'A key of a Secret, read by the pod through an env var; its value never enters the rendered output.',
  );

  const secretRefMessage =
    'must reference a Secret, not hold the value: write `{secretKeyRef: {name: <secret>, key: <key>}}`; a value written here would end up in the ConfigMap';

  /** `{secretKeyRef: {name, key}}`, or the short form `{name, key}`. */
  const secretRef = described(
    z.union([z.strictObject({ secretKeyRef: secretKeySelector }), secretKeySelector], {
      error: (issue) => (typeof issue.input === 'string' || typeof issue.input === 'number' ? secretRefMessage : undefined),
    }),
    'A Secret key: `{secretKeyRef: {name, key}}` or `{name, key}`.',
  );

  /** A plain value, or a Secret key for values that must not be in the ConfigMap. */
  const valueOrSecret = <T extends z.ZodMiniType>(value: T) =>
    described(z.union([value, z.strictObject({ secretKeyRef: secretKeySelector })]), 'A value, or `{secretKeyRef: {name, key}}`.');

  const providerSpec = described(
    z.strictObject({
      id: described(z.optional(dnsLabel), 'provider_id in config.yaml. Required when the API lists more than one provider; defaults to `provider`.'),
      provider: described(
        z.string().check(
          z.minLength(1),
          // A registry name may have a second `::` part (`remote::hf::endpoint`, `hf::serverless`).
          z.regex(/^((remote|inline)::)?[a-z0-9][-a-z0-9_.]*(::[a-z0-9][-a-z0-9_.]*)?$/, {
            error: 'must be a provider name such as `vllm`, or a provider type such as `remote::vllm` or `inline::llama-guard`',
          }),
        ),
        "Provider type: `vllm` resolves to `remote::vllm` (or `inline::…` when only that exists) in the release's provider registry; `remote::x` is taken " +
          "as is.",
      ),
      endpoint: described(z.optional(z.string().check(z.minLength(1))), "URL of the provider's service; written to that provider's URL key."),
      apiKey: described(z.optional(secretRef), "Secret holding the provider's credential; written to its credential key as an env placeholder."),
      host: described(
        z.optional(valueOrSecret(z.string().check(z.minLength(1)))),
        'Host of providers that take host/port instead of a URL (pgvector); a value or a Secret key.',
      ),
      secretRefs: described(
        z.optional(
          z.record(
            z.string().check(
              z.regex(/^[A-Za-z_][A-Za-z0-9_.-]*$/, {
                error: 'must be a provider config key: letters, digits, "_", "." and "-", starting with a letter or "_"',
              }),
            ),
            secretRef,
          ),
        ),
        'More provider config keys taken from Secrets, by config key.',
      ),
      settings: described(
        z.optional(z.record(z.string(), z.unknown())),
        'Extra provider config, merged into `config`; a leaf `{secretKeyRef: {name, key}}` becomes an env placeholder.',
      ),
    }),
    'One provider of an API.',
  );

  const providerOneOrMany = described(
    z.union([providerSpec, nonEmptyArray(providerSpec)]),
    'One provider, or a list of providers each with an `id`.',
  );

  const providersSpec = described(
    z.strictObject({
      inference: described(z.optional(providerOneOrMany), 'Inference providers (vllm, ollama, openai, …).'),
      safety: described(z.optional(providerOneOrMany), 'Safety providers (llama-guard, …).'),
      vectorIo: described(z.optional(providerOneOrMany), 'Vector store providers (faiss, pgvector, chromadb, …).'),
      toolRuntime: described(z.optional(providerOneOrMany), 'Tool runtime providers (brave-search, model-context-protocol, …).'),
      telemetry: described(z.optional(providerOneOrMany), 'Telemetry providers (llama-stack 0.2 only).'),
    }),
    'Providers per API, laid over the distribution config by provider id.',
  );

  const modelSpec = z.union([
    described(z.string().check(z.minLength(1)), 'A model id, registered with the first inference provider.'),
    z.strictObject({
      name: described(z.string().check(z.minLength(1)), 'Model id as the provider knows it.'),
      provider: described(z.optional(dnsLabel), 'Inference provider id; defaults to the first inference provider.'),
      contextLength: described(z.optional(positiveInt()), 'Context length, written to the model metadata.'),
      modelType: described(z.optional(z.enum(['llm', 'embedding', 'rerank'])), 'Model type; default `llm`.'),
      embeddingDimension: described(z.optional(positiveInt()), 'Embedding dimension; required for `modelType: embedding`.'),
      quantization: described(z.optional(z.string().check(z.minLength(1))), 'Quantization, for documentation: llama-stack does not read it.'),
    }),
  ]);

  const resourcesSpec = described(
    z.strictObject({
      models: described(z.optional(nonEmptyArray(modelSpec)), 'Models to register; a string or an object with metadata.'),
      tools: described(z.optional(names()), 'Tool groups to register (e.g. `websearch`, `rag`).'),
      shields: described(z.optional(names()), 'Shields to register with the safety provider.'),
    }),
    'Resources registered at startup.',
  );

  const storageBackend = described(
    z.strictObject({
      type: described(z.optional(z.enum(['sqlite', 'redis', 'postgres'])), 'Backend type; default `sqlite`.'),
      endpoint: described(z.optional(z.string().check(z.minLength(1))), 'redis: `redis://host:port` (or host and port).'),
      host: described(z.optional(valueOrSecret(z.string().check(z.minLength(1)))), 'redis, postgres: server host.'),
      port: described(z.optional(valueOrSecret(int(1, 65535))), 'redis, postgres: server port.'),
      database: described(z.optional(valueOrSecret(z.string().check(z.minLength(1)))), 'postgres: database name.'),
      user: described(z.optional(valueOrSecret(z.string().check(z.minLength(1)))), 'postgres: user name.'),
      password: described(z.optional(secretRef), 'redis, postgres: password, from a Secret.'),
      connectionString: described(
        z.optional(secretRef),
        'Not supported: llama-stack takes host, port, database, user and password, not a connection string.',
      ),
    }),
    'A storage backend.',
  );

  const intOrPercent = described(
    z.union([int(0, INT32_MAX), z.string().check(z.regex(/^[0-9]+%$/, { error: 'must be a number or a percentage such as `50%`' }))]),
    'A number of pods or a percentage.',
  );

  const resourceRequirements = described(
    z.strictObject({
      requests: z.optional(z.record(z.string(), quantity)),
      limits: z.optional(z.record(z.string(), quantity)),
    }),
    'Container resources (requests and limits).',
  );

  const workloadSpec = described(
    z.strictObject({
      replicas: described(z.optional(int(0, INT32_MAX)), 'Pod replicas; default 1. Left out when autoscaling is set.'),
      workers: described(z.optional(int(1)), 'Server worker processes (`server.workers`, where the release reads it); requests one CPU each by default.'),
      resources: z.optional(resourceRequirements),
      autoscaling: described(
        z.optional(
          z.strictObject({
            minReplicas: z.optional(int(1, INT32_MAX)),
            maxReplicas: int(1, INT32_MAX),
            targetCPUUtilization: described(z.optional(int(1, 100)), 'Target CPU utilisation, percent.'),
            targetMemoryUtilization: described(z.optional(int(1, 100)), 'Target memory utilisation, percent.'),
          }),
        ),
        'A HorizontalPodAutoscaler.',
      ),
      storage: described(
        z.optional(
          z.strictObject({
            size: described(z.optional(quantity), 'PVC size; default 10Gi.'),
            mountPath: described(
              z.optional(z.string().check(z.regex(/^\//, { error: 'must be an absolute path' }))),
              "Mount path; default the image's state directory (`/.llama`, or `/.ogx` for OGX releases).",
            ),
          }),
        ),
        'A PersistentVolumeClaim for the server state.',
      ),
      podDisruptionBudget: described(
        z.optional(z.strictObject({ minAvailable: z.optional(intOrPercent), maxUnavailable: z.optional(intOrPercent) })),
        'A PodDisruptionBudget: `minAvailable` or `maxUnavailable`.',
      ),
      topologySpreadConstraints: described(z.optional(nonEmptyArray(topologySpreadConstraint)), 'Pod topology spread constraints, as written.'),
      overrides: described(
        z.optional(
          z.strictObject({
            serviceAccountName: described(z.optional(dnsSubdomain), 'Run as this ServiceAccount instead of `<name>-sa` (none is generated).'),
            terminationGracePeriodSeconds: z.optional(int(0)),
            env: described(z.optional(nonEmptyArray(envVar)), 'Extra container env vars; an entry wins over a generated one of the same name.'),
            command: z.optional(names()),
            args: z.optional(names()),
            volumes: z.optional(nonEmptyArray(volume)),
            volumeMounts: z.optional(nonEmptyArray(volumeMount)),
          }),
        ),
        'Pod and container fields set as written.',
      ),
    }),
    'Kubernetes workload settings.',
  );

  const caBundleSpec = described(
    z.strictObject({
      configMapName: described(dnsSubdomain.clone(), 'ConfigMap holding PEM CA certificates.'),
      configMapKeys: described(
        z.optional(
          z
            .array(z.string().check(z.regex(/^[a-zA-Z0-9]([a-zA-Z0-9\-_.]*[a-zA-Z0-9])?$/, { error: 'must be a ConfigMap key' }), z.maxLength(253)))
            .check(z.minLength(1), z.maxLength(50)),
        ),
        'Keys to use; default `[ca-bundle.crt]`.',
      ),
    }),
    'CA certificates the server trusts for outbound TLS.',
  );

  const networkingSpec = described(
    z.strictObject({
      port: described(z.optional(int(1, 65535)), 'Server port; default 8321.'),
      tls: z.optional(
        z.strictObject({
          enabled: described(z.optional(z.boolean()), 'Serve HTTPS with the certificate in `secretName`.'),
          secretName: described(z.optional(dnsSubdomain), 'A kubernetes.io/tls Secret with the server certificate.'),
          caBundle: z.optional(caBundleSpec),
        }),
      ),
      expose: described(
        z.optional(
          z.union([z.boolean(), z.strictObject({ hostname: described(z.optional(z.string().check(z.minLength(1))), 'Host name of the Ingress rule.') })]),
        ),
        'Expose the server outside the cluster: `true`, or `{hostname: …}`; `{}` means exposed with defaults.',
      ),
      allowedFrom: described(
        z.optional(
          z.strictObject({
            namespaces: described(z.optional(names()), 'Namespaces allowed to connect; `"*"` means all.'),
            labels: described(z.optional(names()), 'Namespaces with any of these labels may connect.'),
          }),
        ),
        'Who may reach the server: a NetworkPolicy.',
      ),
    }),
    'Networking.',
  );

  const externalProviderSpec = described(
    z.strictObject({
      providerId: described(dnsLabel.clone(), 'provider_id in config.yaml; an external provider replaces a provider of the same id (with a warning).'),
      image: described(z.string().check(z.minLength(1)), 'Image holding the provider package: wheels under /lls-provider/packages/ (spec 001).'),
      providerType: described(
        z.optional(z.string().check(z.regex(/^(remote|inline)::[a-z0-9][-a-z0-9_.]*$/, { error: 'must be a provider type such as `remote::my-provider`' }))),
        "provider_type in config.yaml, from the image's lls-provider-spec.yaml (it cannot be read at render time). Required to render.",
      ),
      module: described(
        z.optional(
          z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/, { error: 'must be a Python module name such as `my_provider`' })),
        ),
        "Python module of the provider, from the image's lls-provider-spec.yaml. Required to render.",
      ),
      config: described(z.optional(z.record(z.string(), z.unknown())), 'The provider config, as written.'),
    }),
    'A provider installed from its own image (spec 001).',
  );

  const distributionSpec = described(
    z.strictObject({
      name: described(z.optional(z.string().check(z.minLength(1))), 'A named distribution (e.g. `starter`), pinned to a release and an image.'),
      image: described(z.optional(z.string().check(z.minLength(1))), 'A distribution image reference.'),
    }),
    'Which llama-stack distribution to run: `name` or `image`.',
  );

  const specSchema = described(
    z.strictObject({
      distribution: distributionSpec,
      providers: z.optional(providersSpec),
      resources: z.optional(resourcesSpec),
      storage: described(
        z.optional(
          z.strictObject({
            kv: described(z.optional(storageBackend), 'Key-value store (registry, agents state): sqlite, redis or postgres.'),
            sql: described(z.optional(storageBackend), 'SQL store (inference, conversations, responses): sqlite or postgres.'),
          }),
        ),
        'State storage; the distribution default when absent.',
      ),
      disabled: described(z.optional(nonEmptyArray(z.enum(disableableApis))), 'APIs to remove from the distribution.'),
      networking: z.optional(networkingSpec),
      workload: z.optional(workloadSpec),
      externalProviders: described(
        z.optional(
          z.strictObject({
            inference: z.optional(nonEmptyArray(externalProviderSpec)),
            safety: z.optional(nonEmptyArray(externalProviderSpec)),
            vectorIo: z.optional(nonEmptyArray(externalProviderSpec)),
            toolRuntime: z.optional(nonEmptyArray(externalProviderSpec)),
          }),
        ),
        'Providers installed from images (spec 001).',
      ),
      overrideConfig: described(
        z.optional(z.strictObject({ configMapName: described(dnsSubdomain.clone(), 'ConfigMap with the whole config.yaml under the key `config.yaml`.') })),
        'Use this ConfigMap as config.yaml instead of generating one.',
      ),
    }),
    'LlamaStackDistribution spec (v1alpha2).',
  );

  const metadataSchema = objectMetadataSchema();

  const llsdSchema = z.looseObject({
    apiVersion: z.literal(`${group}/${version}`),
    kind: z.literal(kind),
    metadata: metadataSchema,
    spec: specSchema,
  });
  /** A leaf of provider `settings` that names a Secret key (rules.ts). */
  const secretLeaf = z.strictObject({ secretKeyRef: secretKeySelector });
  return {
    secretLeaf,
    dnsLabel,
    dnsSubdomain,
    secretKeySelector,
    secretRef,
    providerSpec,
    providersSpec,
    modelSpec,
    resourcesSpec,
    storageBackend,
    workloadSpec,
    caBundleSpec,
    networkingSpec,
    externalProviderSpec,
    distributionSpec,
    specSchema,
    metadataSchema,
    llsdSchema,
  };
}

export const llsdV1alpha2Schemas = lazily(defineSchemas);

type Schemas = ReturnType<typeof defineSchemas>;

export type SecretRefInput = z.infer<Schemas['secretRef']>;
export type ProviderInput = z.infer<Schemas['providerSpec']>;
export type ModelInput = z.infer<Schemas['modelSpec']>;
export type StorageBackendInput = z.infer<Schemas['storageBackend']>;
export type SpecInput = z.infer<Schemas['specSchema']>;
export type LlsdInput = z.infer<Schemas['llsdSchema']>;
