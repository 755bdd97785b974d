// The `llamastack.io/v1alpha2` LlamaStackDistribution: one zod schema, the single source of the
// types the later stages use, of the JSON Schema (`schema --json-schema`) and of the CRD
// (`schema --crd`). Field documentation lives in `.describe()`.
//
// Shape rules live here; rules across fields live in `rules.ts`, so each rule is written once and
// reported with its field path.
import { z } from 'zod';
import { envVar, quantity, volume, volumeMount } from './core-v1.js';

export const group = 'llamastack.io';
export const kind = 'LlamaStackDistribution';
export const version = 'v1alpha2';

export const dnsLabel = z
  .string()
  .max(63)
  .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, {
    error: 'must be a DNS label: lower-case letters, digits and "-", starting and ending with a letter or digit',
  });

/** A Kubernetes TopologySpreadConstraint, checked as the API server would, since it is copied into the Deployment. */
const topologySpreadConstraint = z
  .strictObject({
    maxSkew: z.int32().min(1).describe('How unevenly the pods may be spread (at least 1).'),
    topologyKey: z.string().min(1).describe('The node label whose values are the topology domains.'),
    whenUnsatisfiable: z.enum(['DoNotSchedule', 'ScheduleAnyway']).describe('`DoNotSchedule` or `ScheduleAnyway`.'),
    labelSelector: z
      .strictObject({
        matchLabels: z.record(z.string(), z.string()).optional().describe('Labels the pods must have.'),
        matchExpressions: z
          .array(
            z.strictObject({
              key: z.string().min(1).describe('The label key.'),
              operator: z.enum(['In', 'NotIn', 'Exists', 'DoesNotExist']).describe('`In`, `NotIn`, `Exists` or `DoesNotExist`.'),
              values: z.array(z.string()).optional().describe('Values for `In` and `NotIn`.'),
            }),
          )
          .optional()
          .describe('Label requirements the pods must meet.'),
      })
      .optional()
      .describe('The pods counted for spreading; default: this LLSD\'s pods.'),
    matchLabelKeys: z.array(z.string()).optional().describe('Pod label keys whose values further select the pods counted.'),
    minDomains: z.int32().min(1).optional().describe('Minimum number of eligible domains (with `DoNotSchedule`).'),
    nodeAffinityPolicy: z.enum(['Honor', 'Ignore']).optional().describe('`Honor` or `Ignore` node affinity when counting.'),
    nodeTaintsPolicy: z.enum(['Honor', 'Ignore']).optional().describe('`Honor` or `Ignore` node taints when counting.'),
  })
  .describe('A pod topology spread constraint (Kubernetes TopologySpreadConstraint).');

export const dnsSubdomain = z
  .string()
  .max(253)
  .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/, {
    error: 'must be a DNS subdomain: lower-case letters, digits, "-" and ".", starting and ending with a letter or digit',
  });

export const secretKeySelector = z
  .strictObject({
    name: dnsSubdomain.describe('Name of a Secret in the LLSD namespace.'),
    key: z
      .string()
      .min(1)
      .max(253)
      .regex(/^[-._a-zA-Z0-9]+$/, { error: 'must be a Secret key: letters, digits, "-", "_" and "."' })
      .describe('Key in that Secret.'),
  })
  .describe('A key of a Secret, read by the pod through an env var; its value never enters the rendered output.');

const secretRefMessage =
  'must reference a Secret, not hold the value: write `{secretKeyRef: {name: <secret>, key: <key>}}`; a value written here would end up in the ConfigMap';

/** `{secretKeyRef: {name, key}}`, or the short form `{name, key}`. */
export const secretRef = z
  .union([z.strictObject({ secretKeyRef: secretKeySelector }), secretKeySelector], {
    error: (issue) => (typeof issue.input === 'string' || typeof issue.input === 'number' ? secretRefMessage : undefined),
  })
  .describe('A Secret key: `{secretKeyRef: {name, key}}` or `{name, key}`.');
export type SecretRefInput = z.infer<typeof secretRef>;

/** A plain value, or a Secret key for values that must not be in the ConfigMap. */
const valueOrSecret = <T extends z.ZodType>(value: T) =>
  z.union([value, z.strictObject({ secretKeyRef: secretKeySelector })]).describe('A value, or `{secretKeyRef: {name, key}}`.');

export const providerSpec = z
  .strictObject({
    id: dnsLabel
      .optional()
      .describe('provider_id in config.yaml. Required when the API lists more than one provider; defaults to `provider`.'),
    provider: z
      .string()
      .min(1)
      .regex(/^((remote|inline)::)?[a-z0-9][-a-z0-9_.]*$/, {
        error: 'must be a provider name such as `vllm`, or a provider type such as `remote::vllm` or `inline::llama-guard`',
      })
      .describe('Provider type: `vllm` resolves to `remote::vllm` (or `inline::…` when only that exists); `remote::x` is taken as is.'),
    endpoint: z.string().min(1).optional().describe("URL of the provider's service; written to that provider's URL key."),
    apiKey: secretRef.optional().describe("Secret holding the provider's credential; written to its credential key as an env placeholder."),
    host: valueOrSecret(z.string().min(1))
      .optional()
      .describe('Host of providers that take host/port instead of a URL (pgvector); a value or a Secret key.'),
    secretRefs: z
      .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_.-]*$/, { error: 'must be a provider config key: letters, digits, "_", "." and "-", starting with a letter or "_"' }), secretRef)
      .optional()
      .describe('More provider config keys taken from Secrets, by config key.'),
    settings: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('Extra provider config, merged into `config`; a leaf `{secretKeyRef: {name, key}}` becomes an env placeholder.'),
  })
  .describe('One provider of an API.');
export type ProviderInput = z.infer<typeof providerSpec>;

const providerOneOrMany = z
  .union([providerSpec, z.array(providerSpec).min(1)])
  .describe('One provider, or a list of providers each with an `id`.');

/** CR API name → llama-stack API name. */
export const providerApis = {
  inference: 'inference',
  safety: 'safety',
  vectorIo: 'vector_io',
  toolRuntime: 'tool_runtime',
  telemetry: 'telemetry',
} as const;
export type ProviderApi = keyof typeof providerApis;

export const providersSpec = z
  .strictObject({
    inference: providerOneOrMany.optional().describe('Inference providers (vllm, ollama, openai, …).'),
    safety: providerOneOrMany.optional().describe('Safety providers (llama-guard, …).'),
    vectorIo: providerOneOrMany.optional().describe('Vector store providers (faiss, pgvector, chromadb, …).'),
    toolRuntime: providerOneOrMany.optional().describe('Tool runtime providers (brave-search, model-context-protocol, …).'),
    telemetry: providerOneOrMany.optional().describe('Telemetry providers (llama-stack 0.2 only).'),
  })
  .describe('Providers per API, laid over the distribution config by provider id.');

export const modelSpec = z.union([
  z.string().min(1).describe('A model id, registered with the first inference provider.'),
  z.strictObject({
    name: z.string().min(1).describe('Model id as the provider knows it.'),
    provider: dnsLabel.optional().describe('Inference provider id; defaults to the first inference provider.'),
    contextLength: z.number().int().positive().optional().describe('Context length, written to the model metadata.'),
    modelType: z.enum(['llm', 'embedding', 'rerank']).optional().describe('Model type; default `llm`.'),
    embeddingDimension: z.number().int().positive().optional().describe('Embedding dimension; required for `modelType: embedding`.'),
    quantization: z.string().min(1).optional().describe('Quantization, for documentation: llama-stack does not read it.'),
  }),
]);
export type ModelInput = z.infer<typeof modelSpec>;

export const resourcesSpec = z
  .strictObject({
    models: z.array(modelSpec).min(1).optional().describe('Models to register; a string or an object with metadata.'),
    tools: z.array(z.string().min(1)).min(1).optional().describe('Tool groups to register (e.g. `websearch`, `rag`).'),
    shields: z.array(z.string().min(1)).min(1).optional().describe('Shields to register with the safety provider.'),
  })
  .describe('Resources registered at startup.');

export const storageBackend = z
  .strictObject({
    type: z.enum(['sqlite', 'redis', 'postgres']).optional().describe('Backend type; default `sqlite`.'),
    endpoint: z.string().min(1).optional().describe('redis: `redis://host:port` (or host and port).'),
    host: valueOrSecret(z.string().min(1)).optional().describe('redis, postgres: server host.'),
    port: valueOrSecret(z.number().int().min(1).max(65535)).optional().describe('redis, postgres: server port.'),
    database: valueOrSecret(z.string().min(1)).optional().describe('postgres: database name.'),
    user: valueOrSecret(z.string().min(1)).optional().describe('postgres: user name.'),
    password: secretRef.optional().describe('redis, postgres: password, from a Secret.'),
    connectionString: secretRef
      .optional()
      .describe('Not supported: llama-stack takes host, port, database, user and password, not a connection string.'),
  })
  .describe('A storage backend.');
export type StorageBackendInput = z.infer<typeof storageBackend>;

/** Every API name `disabled` accepts, in both spellings (DESIGN §5). */
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

const intOrPercent = z
  .union([z.number().int().min(0), z.string().regex(/^[0-9]+%$/, { error: 'must be a number or a percentage such as `50%`' })])
  .describe('A number of pods or a percentage.');

const resourceRequirements = z
  .strictObject({
    requests: z.record(z.string(), quantity).optional(),
    limits: z.record(z.string(), quantity).optional(),
  })
  .describe('Container resources (requests and limits).');

export const workloadSpec = z
  .strictObject({
    replicas: z.number().int().min(0).optional().describe('Pod replicas; default 1. Left out when autoscaling is set.'),
    workers: z.number().int().min(1).optional().describe('Server worker processes (`server.workers`, llama-stack 0.3.1+); requests one CPU each by default.'),
    resources: resourceRequirements.optional(),
    autoscaling: z
      .strictObject({
        minReplicas: z.number().int().min(1).optional(),
        maxReplicas: z.number().int().min(1),
        targetCPUUtilization: z.number().int().min(1).max(100).optional().describe('Target CPU utilisation, percent.'),
        targetMemoryUtilization: z.number().int().min(1).max(100).optional().describe('Target memory utilisation, percent.'),
      })
      .optional()
      .describe('A HorizontalPodAutoscaler.'),
    storage: z
      .strictObject({
        size: quantity.optional().describe('PVC size; default 10Gi.'),
        mountPath: z.string().regex(/^\//, { error: 'must be an absolute path' }).optional().describe("Mount path; default the image's state directory (`/.llama`, `/.ogx` from 0.8.0)."),
      })
      .optional()
      .describe('A PersistentVolumeClaim for the server state.'),
    podDisruptionBudget: z
      .strictObject({ minAvailable: intOrPercent.optional(), maxUnavailable: intOrPercent.optional() })
      .optional()
      .describe('A PodDisruptionBudget: `minAvailable` or `maxUnavailable`.'),
    topologySpreadConstraints: z.array(topologySpreadConstraint).min(1).optional().describe('Pod topology spread constraints, as written.'),
    overrides: z
      .strictObject({
        serviceAccountName: dnsSubdomain.optional().describe('Run as this ServiceAccount instead of `<name>-sa` (none is generated).'),
        terminationGracePeriodSeconds: z.number().int().min(0).optional(),
        env: z.array(envVar).min(1).optional().describe('Extra container env vars; an entry wins over a generated one of the same name.'),
        command: z.array(z.string().min(1)).min(1).optional(),
        args: z.array(z.string().min(1)).min(1).optional(),
        volumes: z.array(volume).min(1).optional(),
        volumeMounts: z.array(volumeMount).min(1).optional(),
      })
      .optional()
      .describe('Pod and container fields set as written.'),
  })
  .describe('Kubernetes workload settings.');

export const caBundleSpec = z
  .strictObject({
    configMapName: dnsSubdomain.describe('ConfigMap holding PEM CA certificates.'),
    configMapKeys: z
      .array(z.string().regex(/^[a-zA-Z0-9]([a-zA-Z0-9\-_.]*[a-zA-Z0-9])?$/, { error: 'must be a ConfigMap key' }).max(253))
      .min(1)
      .max(50)
      .optional()
      .describe('Keys to use; default `[ca-bundle.crt]`.'),
  })
  .describe('CA certificates the server trusts for outbound TLS.');

export const networkingSpec = z
  .strictObject({
    port: z.number().int().min(1).max(65535).optional().describe('Server port; default 8321.'),
    tls: z
      .strictObject({
        enabled: z.boolean().optional().describe('Serve HTTPS with the certificate in `secretName`.'),
        secretName: dnsSubdomain.optional().describe('A kubernetes.io/tls Secret with the server certificate.'),
        caBundle: caBundleSpec.optional(),
      })
      .optional(),
    expose: z
      .union([z.boolean(), z.strictObject({ hostname: z.string().min(1).optional().describe('Host name of the Ingress rule.') })])
      .optional()
      .describe('Expose the server outside the cluster: `true`, or `{hostname: …}`; `{}` means exposed with defaults.'),
    allowedFrom: z
      .strictObject({
        namespaces: z.array(z.string().min(1)).min(1).optional().describe('Namespaces allowed to connect; `"*"` means all.'),
        labels: z.array(z.string().min(1)).min(1).optional().describe('Namespaces with any of these labels may connect.'),
      })
      .optional()
      .describe('Who may reach the server: a NetworkPolicy.'),
  })
  .describe('Networking.');

export const externalProviderSpec = z
  .strictObject({
    providerId: dnsLabel.describe('provider_id in config.yaml; an external provider replaces a provider of the same id (with a warning).'),
    image: z.string().min(1).describe('Image holding the provider package: wheels under /lls-provider/packages/ (spec 001).'),
    providerType: z
      .string()
      .regex(/^(remote|inline)::[a-z0-9][-a-z0-9_.]*$/, { error: 'must be a provider type such as `remote::my-provider`' })
      .optional()
      .describe("provider_type in config.yaml, from the image's lls-provider-spec.yaml (it cannot be read at render time). Required to render."),
    module: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/, { error: 'must be a Python module name such as `my_provider`' })
      .optional()
      .describe("Python module of the provider, from the image's lls-provider-spec.yaml. Required to render."),
    config: z.record(z.string(), z.unknown()).optional().describe('The provider config, as written.'),
  })
  .describe('A provider installed from its own image (spec 001).');

export const distributionSpec = z
  .strictObject({
    name: z.string().min(1).optional().describe('A named distribution (e.g. `starter`), pinned to a release and an image.'),
    image: z.string().min(1).optional().describe('A distribution image reference.'),
  })
  .describe('Which llama-stack distribution to run: `name` or `image`.');

export const specSchema = z
  .strictObject({
    distribution: distributionSpec,
    providers: providersSpec.optional(),
    resources: resourcesSpec.optional(),
    storage: z
      .strictObject({
        kv: storageBackend.optional().describe('Key-value store (registry, agents state): sqlite, redis or postgres.'),
        sql: storageBackend.optional().describe('SQL store (inference, conversations, responses): sqlite or postgres.'),
      })
      .optional()
      .describe('State storage; the distribution default when absent.'),
    disabled: z.array(z.enum(disableableApis)).min(1).optional().describe('APIs to remove from the distribution.'),
    networking: networkingSpec.optional(),
    workload: workloadSpec.optional(),
    externalProviders: z
      .strictObject({
        inference: z.array(externalProviderSpec).min(1).optional(),
        safety: z.array(externalProviderSpec).min(1).optional(),
        vectorIo: z.array(externalProviderSpec).min(1).optional(),
        toolRuntime: z.array(externalProviderSpec).min(1).optional(),
      })
      .optional()
      .describe('Providers installed from images (spec 001).'),
    overrideConfig: z
      .strictObject({ configMapName: dnsSubdomain.describe('ConfigMap with the whole config.yaml under the key `config.yaml`.') })
      .optional()
      .describe('Use this ConfigMap as config.yaml instead of generating one.'),
  })
  .describe('LlamaStackDistribution spec (v1alpha2).');
export type SpecInput = z.infer<typeof specSchema>;

export const metadataSchema = z.looseObject({
  // The Service `<name>-service` must be a DNS-1035 label, which starts with a letter.
  name: z
    .string()
    .max(63)
    .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, { error: 'must be a DNS label: lower-case letters, digits and "-", starting and ending with a letter or digit', abort: true })
    .regex(/^[a-z]/, { error: 'must start with a letter: the Service `<name>-service` is a DNS-1035 label, which cannot start with a digit; rename it, e.g. `llama-` followed by the name' }),
  namespace: dnsLabel.optional(),
  labels: z.record(z.string(), z.string()).optional(),
  annotations: z.record(z.string(), z.string()).optional(),
});

export const llsdSchema = z.looseObject({
  apiVersion: z.literal(`${group}/${version}`),
  kind: z.literal(kind),
  metadata: metadataSchema,
  spec: specSchema,
});
export type LlsdInput = z.infer<typeof llsdSchema>;
