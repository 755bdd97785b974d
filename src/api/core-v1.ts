// Kubernetes core/v1 shapes that both LLSD versions embed and hand to the pod as written (EnvVar,
// VolumeMount, Volume), checked as the CRD checks them so that what reaches the Deployment is
// valid for its kind. Shared by llsd-v1alpha2.ts and llsd-v1alpha1.ts.
import { described, z } from '../lib/zod.js';

/** A Kubernetes quantity as the CRD types it: an integer, or a string such as `500m` or `4Gi`. */
export const quantity = described(
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
export const envVar = described(
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
export const volumeMount = described(
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

const volumeSource = described(
  z.optional(z.record(z.string(), z.unknown())),
  'A volume source (one per volume), passed to the pod as written (the API server checks its fields).',
);

export const volume = described(
  z.strictObject({
    name: described(z.string(), 'Name of the volume, as volume mounts refer to it.'),
    // One schema for every source: building (and describing) thirty was a tenth of start-up.
    ...Object.fromEntries(volumeSources.map((source) => [source, volumeSource])),
  }),
  'A pod volume (Kubernetes Volume).',
);
