// The `llamastack.io/v1alpha2` LlamaStackDistribution: one zod schema, the single source of the
// types the later stages use. Field documentation lives in `.describe()` so the JSON Schema and the
// CRD can be generated from it.
import { z } from 'zod';

export const group = 'llamastack.io';
export const kind = 'LlamaStackDistribution';

const dnsLabel = z
  .string()
  .max(63)
  .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, {
    error: 'must be a DNS label: lower-case letters, digits and "-", starting and ending with a letter or digit',
  });

const dnsSubdomain = z
  .string()
  .max(253)
  .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/, {
    error: 'must be a DNS subdomain: lower-case letters, digits, "-" and ".", starting and ending with a letter or digit',
  });

export const secretKeySelector = z
  .strictObject({
    name: dnsSubdomain.describe('Name of a Secret in the LLSD namespace.'),
    key: z.string().min(1).describe('Key in that Secret.'),
  })
  .describe('A key of a Secret, read by the pod through an env var; its value never enters the rendered output.');

/** `{secretKeyRef: {name, key}}`, or the short form `{name, key}`. */
export const secretRef = z.union([z.strictObject({ secretKeyRef: secretKeySelector }), secretKeySelector], {
  error: (issue) =>
    typeof issue.input === 'string' || typeof issue.input === 'number'
      ? 'must reference a Secret, not hold the value: write `{secretKeyRef: {name: <secret>, key: <key>}}`; a value written here would end up in the ConfigMap'
      : undefined,
});
export type SecretRefInput = z.infer<typeof secretRef>;

export const providerSpec = z
  .strictObject({
    id: dnsLabel
      .optional()
      .describe('provider_id in config.yaml. Required when the API lists more than one provider; defaults to `provider`.'),
    provider: z
      .string()
      .min(1)
      .describe('Provider type: `vllm` resolves to `remote::vllm` (or `inline::…` when only that exists); `remote::x` is taken as is.'),
    endpoint: z.string().min(1).optional().describe("URL of the provider's service; written to that provider's URL key."),
    apiKey: secretRef.optional().describe("Secret holding the provider's credential; written to its credential key as an env placeholder."),
    secretRefs: z
      .record(z.string().min(1), secretRef)
      .optional()
      .describe('More provider config keys taken from Secrets, by config key.'),
    settings: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('Extra provider config, merged into `config`; a leaf `{secretKeyRef: {name, key}}` becomes an env placeholder.'),
  })
  .describe('One provider of an API.');
export type ProviderInput = z.infer<typeof providerSpec>;

const providerOneOrMany = z.union([providerSpec, z.array(providerSpec).min(1)]);

/** CR API name → llama-stack API name. */
export const providerApis = {
  inference: 'inference',
  safety: 'safety',
  vectorIo: 'vector_io',
  toolRuntime: 'tool_runtime',
  telemetry: 'telemetry',
} as const;
export type ProviderApi = keyof typeof providerApis;

export const providersSpec = z.strictObject({
  inference: providerOneOrMany.optional(),
  safety: providerOneOrMany.optional(),
  vectorIo: providerOneOrMany.optional(),
  toolRuntime: providerOneOrMany.optional(),
  telemetry: providerOneOrMany.optional(),
});

export const modelSpec = z.union([
  z.string().min(1),
  z.strictObject({
    name: z.string().min(1).describe('Model id as the provider knows it.'),
    provider: z.string().min(1).optional().describe('Inference provider id; defaults to the first inference provider.'),
    contextLength: z.number().int().positive().optional(),
    modelType: z.enum(['llm', 'embedding', 'rerank']).optional(),
    quantization: z.string().min(1).optional(),
  }),
]);
export type ModelInput = z.infer<typeof modelSpec>;

export const resourcesSpec = z.strictObject({
  models: z.array(modelSpec).optional().describe('Models to register; a string or an object with metadata.'),
  tools: z.array(z.string().min(1)).optional().describe('Tool groups to register.'),
  shields: z.array(z.string().min(1)).optional().describe('Shields to register with the safety provider.'),
});

const storageBackend = z.strictObject({
  type: z.enum(['sqlite', 'redis', 'postgres']).optional(),
  endpoint: z.string().optional(),
  host: z.union([z.string(), secretRef]).optional(),
  port: z.union([z.number().int(), secretRef]).optional(),
  database: z.union([z.string(), secretRef]).optional(),
  user: z.union([z.string(), secretRef]).optional(),
  password: secretRef.optional(),
  connectionString: secretRef.optional(),
});

const quantity = z.union([z.string(), z.number()]);
const resourceRequirements = z.strictObject({
  requests: z.record(z.string(), quantity).optional(),
  limits: z.record(z.string(), quantity).optional(),
});

/** Kubernetes objects we hand through to the pod spec untouched (EnvVar, Volume, …). */
const kubeObject = z.record(z.string(), z.unknown());

export const workloadSpec = z.strictObject({
  replicas: z.number().int().min(0).optional().describe('Pod replicas; default 1.'),
  workers: z.number().int().min(1).optional(),
  resources: resourceRequirements.optional(),
  autoscaling: z
    .strictObject({
      minReplicas: z.number().int().min(1).optional(),
      maxReplicas: z.number().int().min(1),
      targetCPUUtilization: z.number().int().min(1).max(100).optional(),
      targetMemoryUtilization: z.number().int().min(1).max(100).optional(),
    })
    .optional(),
  storage: z.strictObject({ size: quantity.optional(), mountPath: z.string().optional() }).optional(),
  podDisruptionBudget: z
    .strictObject({ minAvailable: quantity.optional(), maxUnavailable: quantity.optional() })
    .optional(),
  topologySpreadConstraints: z.array(kubeObject).optional(),
  overrides: z
    .strictObject({
      serviceAccountName: z.string().optional(),
      env: z.array(kubeObject).optional().describe('Extra container env vars (Kubernetes EnvVar objects).'),
      command: z.array(z.string()).optional(),
      args: z.array(z.string()).optional(),
      volumes: z.array(kubeObject).optional(),
      volumeMounts: z.array(kubeObject).optional(),
    })
    .optional(),
});

export const networkingSpec = z.strictObject({
  port: z.number().int().min(1).max(65535).optional().describe('Server port; default 8321.'),
  tls: z
    .strictObject({
      enabled: z.boolean().optional(),
      secretName: z.string().optional(),
      caBundle: z.strictObject({ configMapName: z.string(), configMapKeys: z.array(z.string()).optional() }).optional(),
    })
    .optional(),
  expose: z.union([z.boolean(), z.strictObject({ hostname: z.string().optional() })]).optional(),
  allowedFrom: z
    .strictObject({ namespaces: z.array(z.string()).optional(), labels: z.array(z.string()).optional() })
    .optional(),
});

export const distributionSpec = z
  .strictObject({
    name: z.string().min(1).optional().describe('A named distribution (e.g. `starter`), pinned to a release and an image.'),
    image: z.string().min(1).optional().describe('A distribution image reference.'),
  })
  .describe('Which llama-stack distribution to run: `name` or `image`.');

export const specSchema = z.strictObject({
  distribution: distributionSpec,
  providers: providersSpec.optional(),
  resources: resourcesSpec.optional(),
  storage: z.strictObject({ kv: storageBackend.optional(), sql: storageBackend.optional() }).optional(),
  disabled: z.array(z.string().min(1)).optional(),
  networking: networkingSpec.optional(),
  workload: workloadSpec.optional(),
  externalProviders: z.record(z.string(), z.array(kubeObject)).optional(),
  overrideConfig: z.strictObject({ configMapName: z.string().min(1) }).optional(),
});
export type SpecInput = z.infer<typeof specSchema>;

export const metadataSchema = z.looseObject({
  name: dnsLabel,
  namespace: dnsLabel.optional(),
  labels: z.record(z.string(), z.string()).optional(),
  annotations: z.record(z.string(), z.string()).optional(),
});

export const llsdSchema = z.looseObject({
  apiVersion: z.literal(`${group}/v1alpha2`),
  kind: z.literal(kind),
  metadata: metadataSchema,
  spec: specSchema,
});
export type LlsdInput = z.infer<typeof llsdSchema>;
