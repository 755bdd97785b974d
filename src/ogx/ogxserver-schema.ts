// The `ogx.io/v1beta1` OGXServer schema (ogx-ai/ogx-k8s-operator at 1784464): one zod schema,
// faithful to the operator's CRD (config/crd in that repository): every field, its type, enum, bounds
// and CRD default. `spec.providers` is in ogxserver-providers-schema.ts. The CRD's CEL rules and the
// admission webhook's checks live in rules.ts, so each rule is written once and reported at its
// field path. Defaults are applied as the API server applies them: only where the parent object is
// present.
//
// Built lazily (`ogxSchemas()`): a render without OGXServer items builds none of these schemas.
import { lazily, described, z } from '../lib/zod.js';
import {
  coreV1Schemas,
  labelSelector,
  objectMetadataSchema,
  networkPolicyEgressRule,
  networkPolicyIngressRule,
  podResourceClaim,
  resourceRequirements,
  topologySpreadConstraint,
} from '../core/core-v1.js';
import { ogxProviderSchemas, ogxSchemaHelpers } from './ogxserver-providers-schema.js';

export const ogxGroup = 'ogx.io';
export const ogxKind = 'OGXServer';
export const ogxVersion = 'v1beta1';
export const ogxApiVersion = `${ogxGroup}/${ogxVersion}`;

/**
 * The API names `disabledAPIs` accepts, in the CRD's order: those of 1784464, and `conversations`,
 * added on the operator's main (OPERATOR-MAIN-2026-09.md §2.3), which has no providers to configure.
 */
export const ogxDisableableApis = ['batches', 'file_processors', 'inference', 'responses', 'tool_runtime', 'vector_io', 'files', 'conversations'] as const;

/** The OGXServer schemas, built on first use. */
export const ogxSchemas = lazily(defineSchemas);

function defineSchemas() {
  const { envVar, quantity, volume, volumeMount } = coreV1Schemas();
  const metadataSchema = objectMetadataSchema();
  const helpers = ogxSchemaHelpers();
  const { int32, nonEmpty, nonEmptyStrings, optionalString, secretRef, configMapRef } = helpers;
  const { providers, customProvider, providerNetwork, vectorStoresConfig } = ogxProviderSchemas(helpers);

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
            endpoint: described(z.optional(z.string()), 'The redis server URL, such as `redis://redis:6379`; only with `type: redis`.'),
            password: z.optional(secretRef('The redis password; only with `type: redis`.')),
            type: described(z._default(z.enum(['sqlite', 'redis']), 'sqlite'), 'Backend; default `sqlite`.'),
          }),
        ),
        'Key-value store.',
      ),
      sql: described(
        z.optional(
          z.strictObject({
            connectionString: z.optional(
              secretRef('A postgres connection string; only with `type: postgres`; OGX cannot read one, so llsd-render refuses it (docs/ogxserver.md, A11).'),
            ),
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
            enabled: described(z._default(z.boolean(), false), 'Create an Ingress; needs `hostname` and `tls`.'),
            hostname: optionalString('Host name of the Ingress; required when `enabled` is true.'),
            tls: described(
              z.optional(z.strictObject({ secretName: described(nonEmpty(), 'A kubernetes.io/tls Secret with the certificate for `hostname`.') })),
              'TLS of the Ingress; required when `enabled` is true.',
            ),
          }),
        ),
        'Access from outside the cluster.',
        { enabled: true, hostname: 'ogx.example.com', tls: { secretName: 'ogx-tls' } },
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
      tls: described(
        z.optional(z.strictObject({ secretName: described(nonEmpty(), 'A kubernetes.io/tls Secret for the server (the operator does not read it).') })),
        'Server TLS.',
      ),
    }),
    'The server port, access from outside the cluster, and the NetworkPolicy.',
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
      topologySpreadConstraints: described(z.optional(z.array(topologySpreadConstraint()).check(z.minLength(1))),
        'Topology spread constraints; replace the defaults.'),
      workers: described(z.optional(int32(1)), 'Server worker processes.'),
    }),
    'Kubernetes workload settings.',
  );

  // `spec.praxisMode` (operator main after v0.14.0, PRs #359/#367/#373; Tech Preview): OGX behind
  // the Praxis gateway. api/v1beta1/ogxserver_types.go @ 2580c378 (PraxisModeSpec); its CEL rules
  // (podSelector not empty, fallbackOwnerSubject not blank) are in rules.ts.
  const praxisMode = described(
    z.strictObject({
      enabled: described(z._default(z.boolean(), true), 'Praxis mode on; default true when `praxisMode` is present.'),
      migrationJob: described(
        z.optional(
          z.strictObject({
            enabled: described(z._default(z.boolean(), true), 'Render the migration Job; default true when `migrationJob` is present.'),
            fallbackOwnerSubject: described(z.optional(z.string().check(z.minLength(1))), 'Owner for source rows with an empty owner_principal.'),
            fallbackTenant: described(
              z.optional(z.string().check(z.maxLength(128), z.regex(/^[a-z0-9][a-z0-9_-]{0,127}$/))),
              'Tenant for source rows with an empty tenant_id, such as `team-a`.',
            ),
            targetConnectionString: secretRef('The Praxis PostgreSQL connection string (PRAXIS_DATABASE_URL); not the OGX database.'),
          }),
        ),
        'The Job `<name>-praxis-migration-<hash>` that moves Responses and Conversations to Praxis.',
      ),
      praxisSelector: described(
        z.optional(
          z.strictObject({
            namespace: described(nonEmpty(), 'Namespace of the Praxis pods.'),
            podSelector: labelSelector('the Praxis pods (not empty)'),
          }),
        ),
        'The Praxis pods the NetworkPolicy admits; default `app: payload-processing` in `openshift-ingress`.',
      ),
    }),
    'Praxis-fronted mode (Tech Preview): OGX internal-only behind the Praxis gateway, which serves Responses and Conversations.',
  );

  const spec = described(
    z.strictObject({
      baseConfig: z.optional(configMapRef('A ConfigMap key with the config.yaml to generate from.')),
      disabledAPIs: described(
        z.optional(z.array(z.enum(ogxDisableableApis)).check(z.minLength(1), z.maxLength(ogxDisableableApis.length))),
        'APIs to remove from the config\'s `apis` list; their providers stay in the config.',
      ),
      distribution: described(
        z.strictObject({
          image: described(z.optional(z.string()), 'A distribution image, used as written; its OGX release comes from its tag or labels.'),
          name: described(
            z.optional(z.string()),
            'A named distribution, `starter` or `postgres-demo`, at its default OGX release (the annotation `llamastack.io/release` picks another).',
          ),
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
        'Metrics: a `metrics` port, a ServiceMonitor and a PrometheusRule.',
      ),
      network: z.optional(network),
      overrideConfig: z.optional(configMapRef('A ConfigMap key with the whole config.yaml, used instead of generating one.')),
      praxisMode: z.optional(praxisMode),
      providers: z.optional(providers),
      registryRefreshIntervalSeconds: described(z.optional(int32(1)), 'Registry refresh interval, seconds (OGX ignores it).'),
      resources: described(
        z.optional(z.strictObject({ models: described(z.optional(z.array(model).check(z.minLength(1))), 'Models to register.') })),
        'Resources registered at startup.',
      ),
      storage: z.optional(storage),
      tls: described(
        z.optional(
          z.strictObject({
            identity: described(
              z.optional(z.strictObject({ cert: configMapRef('Client certificate.'), key: secretRef('Client key.') })),
              'Client identity (the operator ignores it).',
            ),
            trust: described(
              z.optional(z.strictObject({ caCertificates: described(z.optional(z.array(configMapRef(
                'A ConfigMap key with PEM CA certificates.')).check(z.minLength(1))), 'CA certificates.') })),
              'CA certificates the server trusts for outbound TLS.',
            ),
          }),
        ),
        'Outbound TLS: the CA certificates the server trusts (`trust`).',
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
  return { server, spec, praxisMode, providers, customProvider, model, storage, network, workload, vectorStoresConfig: vectorStoresConfig(), providerNetwork };
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
export type OgxPraxisMode = z.output<Schemas['praxisMode']>;
export type OgxSecretRef = { name: string; key: string };
export type OgxConfigMapRef = { name: string; key: string };
export type OgxWorkload = z.output<Schemas['workload']>;
export type OgxNetwork = z.output<Schemas['network']>;
/** Absent `monitoring` means enabled: the operator creates the metrics objects unless `enabled: false`. */
export type OgxMonitoring = NonNullable<OgxServerSpec['monitoring']>;
export type OgxStorage = z.output<Schemas['storage']>;
export type OgxModel = z.output<Schemas['model']>;
export type OgxCustomProvider = z.output<Schemas['customProvider']>;
export type OgxVectorStoresConfig = NonNullable<z.output<Schemas['vectorStoresConfig']>>;
export type OgxProviderNetwork = z.output<Schemas['providerNetwork']>;
