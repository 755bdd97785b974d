// The `llamastack.io/v1alpha1` LlamaStackDistribution, exactly as the v1alpha1 operator's CRD
// defines it (../shared/reference/crd, notes/operator.md §1b): every field, its type, its CRD
// default and its bounds, and no rule the CRD does not have. v1alpha1 LLSDs are checked with this
// schema, then converted to v1alpha2 (`convert.ts`) and rendered as such (DESIGN §9).
//
// Plain zod only (no transforms): the CRD and JSON Schema are generated from it. The CRD's one
// CEL rule (not both `distribution.name` and `distribution.image`) is checked after conversion,
// by the v1alpha2 rule that says the same (`rules.ts`).
import { z } from 'zod';
import { envVar, quantity, volume, volumeMount } from './core-v1.js';
import { group, kind, metadataSchema } from './llsd-v1alpha2.js';

export const version = 'v1alpha1';
export const apiVersion = `${group}/${version}`;

/**
 * The schemas, built on first use: only v1alpha1 LLSDs, conversion and the CRD need them, and
 * building them costs a render that has none a noticeable part of its start-up.
 */
function defineSchemas() {

  const intOrString = z.union([z.int(), z.string()]).describe('A number, or a string such as a percentage (`50%`).');

  /** Kubernetes ResourceRequirements (core/v1). */
  const resourceRequirements = z
    .strictObject({
      claims: z
        .array(
          z
            .strictObject({
              name: z.string().describe('Name of an entry of the pod `resourceClaims`.'),
              request: z.string().optional().describe('A request of that claim.'),
            })
            .describe('A resource claim.'),
        )
        .optional()
        .describe('Dynamic resource claims used by the container.'),
      limits: z.record(z.string(), quantity).optional().describe('The most compute resources the container may use.'),
      requests: z.record(z.string(), quantity).optional().describe('The compute resources the container asks for.'),
    })
    .describe('Container resources (Kubernetes ResourceRequirements).');

  /** Kubernetes TopologySpreadConstraint (core/v1). */
  const topologySpreadConstraint = z
    .strictObject({
      labelSelector: z
        .strictObject({
          matchExpressions: z
            .array(
              z
                .strictObject({
                  key: z.string().describe('The label key.'),
                  operator: z.string().describe('`In`, `NotIn`, `Exists` or `DoesNotExist`.'),
                  values: z.array(z.string()).optional().describe('Values for `In` and `NotIn`.'),
                })
                .describe('A label requirement.'),
            )
            .optional()
            .describe('Label requirements the pods must meet.'),
          matchLabels: z.record(z.string(), z.string()).optional().describe('Labels the pods must have.'),
        })
        .optional()
        .describe('The pods counted for spreading.'),
      matchLabelKeys: z.array(z.string()).optional().describe('Pod label keys whose values further select the pods counted.'),
      maxSkew: z.int32().describe('How unevenly the pods may be spread.'),
      minDomains: z.int32().optional().describe('Minimum number of eligible domains.'),
      nodeAffinityPolicy: z.string().optional().describe('`Honor` or `Ignore` node affinity when counting.'),
      nodeTaintsPolicy: z.string().optional().describe('`Honor` or `Ignore` node taints when counting.'),
      topologyKey: z.string().describe('The node label whose values are the topology domains.'),
      whenUnsatisfiable: z.string().describe('`DoNotSchedule` or `ScheduleAnyway`.'),
    })
    .describe('A pod topology spread constraint (Kubernetes TopologySpreadConstraint).');

  const distributionV1alpha1 = z
    .strictObject({
      name: z.string().optional().describe('A named distribution (e.g. `starter`), pinned to a release and an image.'),
      image: z.string().optional().describe('A distribution image reference, used as is.'),
    })
    .describe('Which llama-stack distribution to run: `name` or `image`, not both.');

  const containerSpecV1alpha1 = z
    .strictObject({
      name: z.string().default('llama-stack').describe('Name of the server container; default `llama-stack`.'),
      port: z.int32().optional().describe('Server port; 0 or unset means 8321.'),
      resources: resourceRequirements.optional(),
      env: z.array(envVar).optional().describe('Env vars added after the generated ones.'),
      command: z.array(z.string()).optional().describe("Replaces the image's entrypoint."),
      args: z.array(z.string()).optional().describe("Replaces the image's arguments."),
    })
    .describe('The llama-stack server container.');

  const serverV1alpha1 = z
    .strictObject({
      distribution: distributionV1alpha1,
      containerSpec: containerSpecV1alpha1.optional(),
      workers: z.int32().min(1).optional().describe('Uvicorn worker processes; the CPU request is set to this many cores.'),
      podOverrides: z
        .strictObject({
          serviceAccountName: z.string().optional().describe('Run as this ServiceAccount instead of `<name>-sa`.'),
          terminationGracePeriodSeconds: z.int().optional().describe('Time allowed for a graceful pod shutdown; Kubernetes defaults to 30 seconds.'),
          volumes: z.array(volume).optional().describe('Volumes added to the pod.'),
          volumeMounts: z.array(volumeMount).optional().describe('Volume mounts added to the container.'),
        })
        .optional()
        .describe('Pod-level customisation.'),
      podDisruptionBudget: z
        .strictObject({
          minAvailable: intOrString.optional().describe('Pods that must stay available.'),
          maxUnavailable: intOrString.optional().describe('Pods that may be disrupted at once.'),
        })
        .optional()
        .describe('A PodDisruptionBudget for the server pods.'),
      topologySpreadConstraints: z.array(topologySpreadConstraint).optional().describe('Pod topology spread constraints.'),
      autoscaling: z
        .strictObject({
          minReplicas: z.int32().optional().describe('Lower bound of the replica count.'),
          maxReplicas: z.int32().describe('Upper bound of the replica count.'),
          targetCPUUtilizationPercentage: z.int32().optional().describe('Target CPU utilisation, percent.'),
          targetMemoryUtilizationPercentage: z.int32().optional().describe('Target memory utilisation, percent.'),
        })
        .optional()
        .describe('A HorizontalPodAutoscaler for the server pods.'),
      storage: z
        .strictObject({
          size: quantity.optional().describe('Size of the PersistentVolumeClaim; default 10Gi.'),
          mountPath: z.string().optional().describe('Where the volume is mounted; default `/.llama`.'),
        })
        .optional()
        .describe('A PersistentVolumeClaim for the server state.'),
      userConfig: z
        .strictObject({
          configMapName: z.string().describe('ConfigMap holding the whole config.yaml under the key `config.yaml`.'),
          configMapNamespace: z.string().optional().describe("Namespace of the ConfigMap; default the LLSD's namespace."),
        })
        .optional()
        .describe('Run with this ConfigMap as config.yaml.'),
      tlsConfig: z
        .strictObject({
          caBundle: z
            .strictObject({
              configMapName: z.string().describe('ConfigMap holding PEM CA certificates.'),
              configMapNamespace: z.string().optional().describe("Namespace of the ConfigMap; default the LLSD's namespace."),
              configMapKeys: z.array(z.string()).max(50).optional().describe('Keys whose certificates are joined into one bundle; default `[ca-bundle.crt]`.'),
            })
            .optional()
            .describe('CA certificates the server trusts for outbound TLS.'),
        })
        .optional()
        .describe('TLS settings of the server.'),
    })
    .describe('The llama-stack server.');

  const networkV1alpha1 = z
    .strictObject({
      exposeRoute: z.boolean().default(false).describe('Create an Ingress for access from outside the cluster; default false.'),
      allowedFrom: z
        .strictObject({
          namespaces: z.array(z.string()).optional().describe('Namespaces allowed to connect; `"*"` means all.'),
          labels: z.array(z.string()).optional().describe('Namespaces with any of these label keys may connect.'),
        })
        .optional()
        .describe('Who may reach the server besides its own namespace: a NetworkPolicy.'),
    })
    .describe('Network access to the server.');

  const specV1alpha1Schema = z
    .strictObject({
      replicas: z.int32().default(1).describe('Pod replicas; default 1.'),
      server: serverV1alpha1,
      network: networkV1alpha1.optional(),
    })
    .describe('LlamaStackDistribution spec (v1alpha1).');

  const llsdV1alpha1Schema = z.looseObject({
    apiVersion: z.literal(apiVersion),
    kind: z.literal(kind),
    metadata: metadataSchema,
    spec: specV1alpha1Schema,
  });
  return { distributionV1alpha1, containerSpecV1alpha1, serverV1alpha1, networkV1alpha1, specV1alpha1Schema, llsdV1alpha1Schema };
}

let schemas: ReturnType<typeof defineSchemas> | undefined;
export const v1alpha1Schemas = (): ReturnType<typeof defineSchemas> => (schemas ??= defineSchemas());

export type SpecV1alpha1 = z.infer<ReturnType<typeof defineSchemas>['specV1alpha1Schema']>;
export type LlsdV1alpha1 = z.infer<ReturnType<typeof defineSchemas>['llsdV1alpha1Schema']>;
