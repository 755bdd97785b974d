// Kubernetes core/v1 shapes that both LLSD versions embed and hand to the pod as written (EnvVar,
// VolumeMount, Volume), checked as the CRD checks them so that what reaches the Deployment is
// valid for its kind. Shared by llsd-v1alpha2.ts and llsd-v1alpha1.ts.
import { described, lazily, z } from '../lib/zod.js';

/** The volume sources a Kubernetes Volume (core/v1) may name; each is passed to the pod as written. */
const volumeSources = [
  'awsElasticBlockStore',
  'azureDisk',
  'azureFile',
  'cephfs',
  'cinder',
  'configMap',
  'csi',
  'downwardAPI',
  'emptyDir',
  'ephemeral',
  'fc',
  'flexVolume',
  'flocker',
  'gcePersistentDisk',
  'gitRepo',
  'glusterfs',
  'hostPath',
  'image',
  'iscsi',
  'nfs',
  'persistentVolumeClaim',
  'photonPersistentDisk',
  'portworxVolume',
  'projected',
  'quobyte',
  'rbd',
  'scaleIO',
  'secret',
  'storageos',
  'vsphereVolume',
] as const;

/**
 * The shapes both LLSD versions (and OGXServer) embed, built on first use (with the schema of the
 * first object that embeds them).
 */
function defineSchemas() {
  /** A Kubernetes quantity as the CRD types it: an integer, or a string such as `500m` or `4Gi`. */
  const quantity = described(
    z.union([
      z.int(),
      z.string().check(
        z.regex(/^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$/, {
          error: 'must be a Kubernetes quantity such as `500m`, `2` or `4Gi`',
        }),
      ),
    ]),
    'A Kubernetes quantity.',
  );

  const keySelector = (what: string) =>
    described(
      z.strictObject({
        key: described(z.string(), `The key of the ${what}.`),
        name: described(z._default(z.string(), ''), `Name of the ${what}, in the pod's namespace.`),
        optional: described(z.optional(z.boolean()), `Whether the ${what} or its key need not exist.`),
      }),
      `A key of a ${what}.`,
    );

  /** A Kubernetes EnvVar (core/v1), as the CRD embeds it. */
  const envVar = described(
    z.strictObject({
      name: described(z.string(), 'Name of the environment variable.'),
      value: described(z.optional(z.string()), 'The value; ignored when `valueFrom` is set.'),
      valueFrom: described(
        z.optional(
          z.strictObject({
            configMapKeyRef: described(z.optional(keySelector('ConfigMap')), 'A key of a ConfigMap.'),
            fieldRef: described(
              z.optional(
                z.strictObject({
                  apiVersion: described(z.optional(z.string()), 'Version of the schema `fieldPath` is written in; default `v1`.'),
                  fieldPath: described(z.string(), 'Path of the pod field, such as `metadata.name`.'),
                }),
              ),
              'A field of the pod.',
            ),
            fileKeyRef: described(
              z.optional(
                z.strictObject({
                  key: described(z.string(), 'The key in the env file.'),
                  optional: described(z._default(z.boolean(), false), 'Whether the file or key need not exist.'),
                  path: described(z.string(), 'Path of the env file inside the volume.'),
                  volumeName: described(z.string(), 'Name of the volume holding the file.'),
                }),
              ),
              'A key of an env file in a volume.',
            ),
            resourceFieldRef: described(
              z.optional(
                z.strictObject({
                  containerName: described(z.optional(z.string()), 'The container; default this one.'),
                  divisor: described(z.optional(quantity), 'The value is divided by this; default 1.'),
                  resource: described(z.string(), 'The resource, such as `limits.cpu`.'),
                }),
              ),
              'A resource limit or request of a container.',
            ),
            secretKeyRef: described(z.optional(keySelector('Secret')), 'A key of a Secret.'),
          }),
        ),
        'Where the value comes from.',
      ),
    }),
    'A container environment variable (Kubernetes EnvVar).',
  );

  /** Kubernetes VolumeMount (core/v1). */
  const volumeMount = described(
    z.strictObject({
      name: described(z.string(), 'Name of a volume.'),
      mountPath: described(z.string(), 'Path in the container.'),
      readOnly: described(z.optional(z.boolean()), 'Mount read-only.'),
      subPath: described(z.optional(z.string()), 'Path inside the volume to mount instead of its root.'),
      subPathExpr: described(z.optional(z.string()), 'Like `subPath`, with `$(VAR)` expanded from the env.'),
      mountPropagation: described(z.optional(z.string()), '`None`, `HostToContainer` or `Bidirectional`.'),
      recursiveReadOnly: described(z.optional(z.string()), '`Disabled`, `IfPossible` or `Enabled`.'),
    }),
    'A volume mount (Kubernetes VolumeMount).',
  );
  const volumeSource = described(
    z.optional(z.record(z.string(), z.unknown())),
    'A volume source (one per volume), passed to the pod as written (the API server checks its fields).',
  );

  const volume = described(
    z.strictObject({
      name: described(z.string(), 'Name of the volume, as volume mounts refer to it.'),
      // One schema for every source: building (and describing) thirty was a tenth of start-up.
      ...Object.fromEntries(volumeSources.map((source) => [source, volumeSource])),
    }),
    'A pod volume (Kubernetes Volume).',
  );
  return { quantity, envVar, volumeMount, volume };
}

export const coreV1Schemas = lazily(defineSchemas);

// Builders for the native shapes only OGXServer embeds. They are functions, not constants, so
// that a render without OGXServer items builds none of them (each call builds fresh schemas).

/** Kubernetes LabelSelector (meta/v1). */
export const labelSelector = (of: string) =>
  described(
    z.strictObject({
      matchExpressions: described(
        z.optional(
          z.array(
            z.strictObject({
              key: described(z.string(), 'The label key.'),
              operator: described(z.string(), '`In`, `NotIn`, `Exists` or `DoesNotExist`.'),
              values: described(z.optional(z.array(z.string())), 'Values for `In` and `NotIn`.'),
            }),
          ),
        ),
        'Label requirements, all of which must hold.',
      ),
      matchLabels: described(z.optional(z.record(z.string(), z.string())), 'Labels that must all be present.'),
    }),
    `A label selector of ${of}.`,
  );

const networkPolicyPeer = () =>
  z.strictObject({
    ipBlock: described(
      z.optional(
        z.strictObject({
          cidr: described(z.string(), 'The CIDR allowed, such as `10.0.0.0/8`.'),
          except: described(z.optional(z.array(z.string())), 'CIDRs inside `cidr` that are not allowed.'),
        }),
      ),
      'An IP block.',
    ),
    namespaceSelector: z.optional(labelSelector('namespaces')),
    podSelector: z.optional(labelSelector('pods')),
  });

const networkPolicyPort = () =>
  z.strictObject({
    endPort: described(z.optional(z.int32()), 'The last port of a range starting at `port`.'),
    port: described(z.optional(z.union([z.int(), z.string()])), 'A port number or name.'),
    protocol: described(z.optional(z.string()), '`TCP`, `UDP` or `SCTP`; default `TCP`.'),
  });

/** Kubernetes NetworkPolicyIngressRule (networking/v1). */
export const networkPolicyIngressRule = () =>
  described(
    z.strictObject({
      from: described(z.optional(z.array(networkPolicyPeer())), 'Sources allowed; all when empty.'),
      ports: described(z.optional(z.array(networkPolicyPort())), 'Ports allowed; all when empty.'),
    }),
    'A NetworkPolicy ingress rule (Kubernetes NetworkPolicyIngressRule).',
  );

/** Kubernetes NetworkPolicyEgressRule (networking/v1). */
export const networkPolicyEgressRule = () =>
  described(
    z.strictObject({
      ports: described(z.optional(z.array(networkPolicyPort())), 'Ports allowed; all when empty.'),
      to: described(z.optional(z.array(networkPolicyPeer())), 'Destinations allowed; all when empty.'),
    }),
    'A NetworkPolicy egress rule (Kubernetes NetworkPolicyEgressRule).',
  );

/** Kubernetes ResourceRequirements (core/v1), with DRA `claims`. */
export const resourceRequirements = () =>
  described(
    z.strictObject({
      claims: described(
        z.optional(
          z.array(
            z.strictObject({
              name: described(z.string(), 'Name of an entry of the pod `resourceClaims`.'),
              request: described(z.optional(z.string()), 'A request of that claim.'),
            }),
          ),
        ),
        'Dynamic resource claims used by the container.',
      ),
      limits: described(z.optional(z.record(z.string(), coreV1Schemas().quantity)), 'The most compute resources the container may use.'),
      requests: described(z.optional(z.record(z.string(), coreV1Schemas().quantity)), 'The compute resources the container asks for.'),
    }),
    'Container resources (Kubernetes ResourceRequirements).',
  );

/** Kubernetes PodResourceClaim (core/v1). */
export const podResourceClaim = () =>
  described(
    z.strictObject({
      name: described(z.string(), 'Name of the claim in the pod, as container `resources.claims` refer to it.'),
      resourceClaimName: described(z.optional(z.string()), 'An existing ResourceClaim in the namespace.'),
      resourceClaimTemplateName: described(z.optional(z.string()), 'A ResourceClaimTemplate to make a claim from.'),
    }),
    'A pod resource claim (Kubernetes PodResourceClaim).',
  );

/** Kubernetes TopologySpreadConstraint (core/v1), as the CRD embeds it (no enums). */
export const topologySpreadConstraint = () =>
  described(
    z.strictObject({
      labelSelector: z.optional(labelSelector('the pods counted for spreading')),
      matchLabelKeys: described(z.optional(z.array(z.string())), 'Pod label keys whose values further select the pods counted.'),
      maxSkew: described(z.int32(), 'How unevenly the pods may be spread.'),
      minDomains: described(z.optional(z.int32()), 'Minimum number of eligible domains (with `DoNotSchedule`).'),
      nodeAffinityPolicy: described(z.optional(z.string()), '`Honor` or `Ignore` node affinity when counting.'),
      nodeTaintsPolicy: described(z.optional(z.string()), '`Honor` or `Ignore` node taints when counting.'),
      topologyKey: described(z.string(), 'The node label whose values are the topology domains.'),
      whenUnsatisfiable: described(z.string(), '`DoNotSchedule` or `ScheduleAnyway`.'),
    }),
    'A pod topology spread constraint (Kubernetes TopologySpreadConstraint).',
  );

/** A DNS-1123 label: names and namespaces. */
export const dnsLabelSchema = () =>
  z.string().check(
    z.maxLength(63),
    z.regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, {
      error: 'must be a DNS label: lower-case letters, digits and "-", starting and ending with a letter or digit',
    }),
  );

/** A DNS-1123 subdomain: ConfigMap and Secret names. */
export const dnsSubdomainSchema = () =>
  z.string().check(
    z.maxLength(253),
    z.regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/, {
      error: 'must be a DNS subdomain: lower-case letters, digits, "-" and ".", starting and ending with a letter or digit',
    }),
  );

/** The metadata of a CR llsd-render renders (LLSD or OGXServer). */
export const objectMetadataSchema = () =>
  z.looseObject({
    // The Service `<name>-service` must be a DNS-1035 label, which starts with a letter.
    name: z.string().check(
      z.maxLength(63),
      z.regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, {
        error: 'must be a DNS label: lower-case letters, digits and "-", starting and ending with a letter or digit',
        abort: true,
      }),
      z.regex(/^[a-z]/, {
        error:
          'must start with a letter: the Service `<name>-service` is a DNS-1035 label, which cannot start with a digit; rename it, e.g. `llama-` followed ' +
            'by the name',
      }),
    ),
    namespace: z.optional(dnsLabelSchema()),
    labels: z.optional(z.record(z.string(), z.string())),
    annotations: z.optional(z.record(z.string(), z.string())),
  });
