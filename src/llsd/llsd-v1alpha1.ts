// The `llamastack.io/v1alpha1` LlamaStackDistribution, exactly as the v1alpha1 operator's CRD
// defines it (llama-stack-k8s-operator's config/crd): every field, its type, its CRD
// default and its bounds, and no rule the CRD does not have. v1alpha1 LLSDs are checked with this
// schema, then converted to v1alpha2 (`convert.ts`) and rendered as such (docs/api.md).
//
// Plain zod only (no transforms): the CRD and JSON Schema are generated from it. The CRD's one
// CEL rule (not both `distribution.name` and `distribution.image`) is checked after conversion,
// by the v1alpha2 rule that says the same (`rules.ts`).
import { described, lazily, z } from '../lib/zod.js';
import { coreV1Schemas } from '../core/core-v1.js';
import { group, kind, llsdV1alpha2Schemas } from './llsd-v1alpha2.js';

export const version = 'v1alpha1';
export const apiVersion = `${group}/${version}`;

/**
 * The schemas, built on first use: only v1alpha1 LLSDs, conversion and the CRD need them, and
 * building them costs a render that has none a noticeable part of its start-up.
 */
function defineSchemas() {
  const { envVar, quantity, volume, volumeMount } = coreV1Schemas();
  const { metadataSchema } = llsdV1alpha2Schemas();
  const intOrString = described(z.union([z.int(), z.string()]), 'A number, or a string such as a percentage (`50%`).');

  /** Kubernetes ResourceRequirements (core/v1). */
  const resourceRequirements = described(
    z.strictObject({
      claims: described(
        z.optional(
          z.array(
            described(
              z.strictObject({
                name: described(z.string(), 'Name of an entry of the pod `resourceClaims`.'),
                request: described(z.optional(z.string()), 'A request of that claim.'),
              }),
              'A resource claim.',
            ),
          ),
        ),
        'Dynamic resource claims used by the container.',
      ),
      limits: described(z.optional(z.record(z.string(), quantity)), 'The most compute resources the container may use.'),
      requests: described(z.optional(z.record(z.string(), quantity)), 'The compute resources the container asks for.'),
    }),
    'Container resources (Kubernetes ResourceRequirements).',
  );

  /** Kubernetes TopologySpreadConstraint (core/v1). */
  const topologySpreadConstraint = described(
    z.strictObject({
      labelSelector: described(
        z.optional(
          z.strictObject({
            matchExpressions: described(
              z.optional(
                z.array(
                  described(
                    z.strictObject({
                      key: described(z.string(), 'The label key.'),
                      operator: described(z.string(), '`In`, `NotIn`, `Exists` or `DoesNotExist`.'),
                      values: described(z.optional(z.array(z.string())), 'Values for `In` and `NotIn`.'),
                    }),
                    'A label requirement.',
                  ),
                ),
              ),
              'Label requirements the pods must meet.',
            ),
            matchLabels: described(z.optional(z.record(z.string(), z.string())), 'Labels the pods must have.'),
          }),
        ),
        'The pods counted for spreading.',
      ),
      matchLabelKeys: described(z.optional(z.array(z.string())), 'Pod label keys whose values further select the pods counted.'),
      maxSkew: described(z.int32(), 'How unevenly the pods may be spread.'),
      minDomains: described(z.optional(z.int32()), 'Minimum number of eligible domains.'),
      nodeAffinityPolicy: described(z.optional(z.string()), '`Honor` or `Ignore` node affinity when counting.'),
      nodeTaintsPolicy: described(z.optional(z.string()), '`Honor` or `Ignore` node taints when counting.'),
      topologyKey: described(z.string(), 'The node label whose values are the topology domains.'),
      whenUnsatisfiable: described(z.string(), '`DoNotSchedule` or `ScheduleAnyway`.'),
    }),
    'A pod topology spread constraint (Kubernetes TopologySpreadConstraint).',
  );

  const distributionV1alpha1 = described(
    z.strictObject({
      name: described(z.optional(z.string()), 'A named distribution (e.g. `starter`), pinned to a release and an image.'),
      image: described(z.optional(z.string()), 'A distribution image reference, used as is.'),
    }),
    'Which llama-stack distribution to run: `name` or `image`, not both.',
  );

  const containerSpecV1alpha1 = described(
    z.strictObject({
      name: described(z._default(z.string(), 'llama-stack'), 'Name of the server container; default `llama-stack`.'),
      port: described(z.optional(z.int32()), 'Server port; 0 or unset means 8321.'),
      resources: z.optional(resourceRequirements),
      env: described(z.optional(z.array(envVar)), 'Env vars added after the generated ones.'),
      command: described(z.optional(z.array(z.string())), "Replaces the image's entrypoint."),
      args: described(z.optional(z.array(z.string())), "Replaces the image's arguments."),
    }),
    'The llama-stack server container.',
  );

  const serverV1alpha1 = described(
    z.strictObject({
      distribution: distributionV1alpha1,
      containerSpec: z.optional(containerSpecV1alpha1),
      workers: described(z.optional(z.int32().check(z.minimum(1))), 'Uvicorn worker processes; the CPU request is set to this many cores.'),
      podOverrides: described(
        z.optional(
          z.strictObject({
            serviceAccountName: described(z.optional(z.string()), 'Run as this ServiceAccount instead of `<name>-sa`.'),
            terminationGracePeriodSeconds: described(z.optional(z.int()), 'Time allowed for a graceful pod shutdown; Kubernetes defaults to 30 seconds.'),
            volumes: described(z.optional(z.array(volume)), 'Volumes added to the pod.'),
            volumeMounts: described(z.optional(z.array(volumeMount)), 'Volume mounts added to the container.'),
          }),
        ),
        'Pod-level customisation.',
      ),
      podDisruptionBudget: described(
        z.optional(
          z.strictObject({
            minAvailable: described(z.optional(intOrString), 'Pods that must stay available.'),
            maxUnavailable: described(z.optional(intOrString), 'Pods that may be disrupted at once.'),
          }),
        ),
        'A PodDisruptionBudget for the server pods.',
      ),
      topologySpreadConstraints: described(z.optional(z.array(topologySpreadConstraint)), 'Pod topology spread constraints.'),
      autoscaling: described(
        z.optional(
          z.strictObject({
            minReplicas: described(z.optional(z.int32()), 'Lower bound of the replica count.'),
            maxReplicas: described(z.int32(), 'Upper bound of the replica count.'),
            targetCPUUtilizationPercentage: described(z.optional(z.int32()), 'Target CPU utilisation, percent.'),
            targetMemoryUtilizationPercentage: described(z.optional(z.int32()), 'Target memory utilisation, percent.'),
          }),
        ),
        'A HorizontalPodAutoscaler for the server pods.',
      ),
      storage: described(
        z.optional(
          z.strictObject({
            size: described(z.optional(quantity), 'Size of the PersistentVolumeClaim; default 10Gi.'),
            mountPath: described(z.optional(z.string()), 'Where the volume is mounted; default `/.llama`.'),
          }),
        ),
        'A PersistentVolumeClaim for the server state.',
      ),
      userConfig: described(
        z.optional(
          z.strictObject({
            configMapName: described(z.string(), 'ConfigMap holding the whole config.yaml under the key `config.yaml`.'),
            configMapNamespace: described(z.optional(z.string()), "Namespace of the ConfigMap; default the LLSD's namespace."),
          }),
        ),
        'Run with this ConfigMap as config.yaml.',
      ),
      tlsConfig: described(
        z.optional(
          z.strictObject({
            caBundle: described(
              z.optional(
                z.strictObject({
                  configMapName: described(z.string(), 'ConfigMap holding PEM CA certificates.'),
                  configMapNamespace: described(z.optional(z.string()), "Namespace of the ConfigMap; default the LLSD's namespace."),
                  configMapKeys: described(
                    z.optional(z.array(z.string()).check(z.maxLength(50))),
                    'Keys whose certificates are joined into one bundle; default `[ca-bundle.crt]`.',
                  ),
                }),
              ),
              'CA certificates the server trusts for outbound TLS.',
            ),
          }),
        ),
        'TLS settings of the server.',
      ),
    }),
    'The llama-stack server.',
  );

  const networkV1alpha1 = described(
    z.strictObject({
      exposeRoute: described(z._default(z.boolean(), false), 'Create an Ingress for access from outside the cluster; default false.'),
      allowedFrom: described(
        z.optional(
          z.strictObject({
            namespaces: described(z.optional(z.array(z.string())), 'Namespaces allowed to connect; `"*"` means all.'),
            labels: described(z.optional(z.array(z.string())), 'Namespaces with any of these label keys may connect.'),
          }),
        ),
        'Who may reach the server besides its own namespace: a NetworkPolicy.',
      ),
    }),
    'Network access to the server.',
  );

  const specV1alpha1Schema = described(
    z.strictObject({
      replicas: described(z._default(z.int32(), 1), 'Pod replicas; default 1.'),
      server: serverV1alpha1,
      network: z.optional(networkV1alpha1),
    }),
    'LlamaStackDistribution spec (v1alpha1).',
  );

  const llsdV1alpha1Schema = z.looseObject({
    apiVersion: z.literal(apiVersion),
    kind: z.literal(kind),
    metadata: metadataSchema,
    spec: specV1alpha1Schema,
  });
  return { distributionV1alpha1, containerSpecV1alpha1, serverV1alpha1, networkV1alpha1, specV1alpha1Schema, llsdV1alpha1Schema };
}

export const v1alpha1Schemas = lazily(defineSchemas);

export type SpecV1alpha1 = z.infer<ReturnType<typeof defineSchemas>['specV1alpha1Schema']>;
export type LlsdV1alpha1 = z.infer<ReturnType<typeof defineSchemas>['llsdV1alpha1Schema']>;
