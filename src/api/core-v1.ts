// Kubernetes core/v1 shapes that both LLSD versions embed and hand to the pod as written (EnvVar,
// VolumeMount, Volume), checked as the CRD checks them so that what reaches the Deployment is
// valid for its kind. Shared by llsd-v1alpha2.ts and llsd-v1alpha1.ts.
import { z } from 'zod';

/** A Kubernetes quantity as the CRD types it: an integer, or a string such as `500m` or `4Gi`. */
export const quantity = z
  .union([
    z.int(),
    z.string().regex(/^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$/, {
      error: 'must be a Kubernetes quantity such as `500m`, `2` or `4Gi`',
    }),
  ])
  .describe('A Kubernetes quantity.');

const keySelector = (what: string) =>
  z
    .strictObject({
      key: z.string().describe(`The key of the ${what}.`),
      name: z.string().default('').describe(`Name of the ${what}, in the pod's namespace.`),
      optional: z.boolean().optional().describe(`Whether the ${what} or its key need not exist.`),
    })
    .describe(`A key of a ${what}.`);

/** A Kubernetes EnvVar (core/v1), as the CRD embeds it. */
export const envVar = z
  .strictObject({
    name: z.string().describe('Name of the environment variable.'),
    value: z.string().optional().describe('The value; ignored when `valueFrom` is set.'),
    valueFrom: z
      .strictObject({
        configMapKeyRef: keySelector('ConfigMap').optional().describe('A key of a ConfigMap.'),
        fieldRef: z
          .strictObject({
            apiVersion: z.string().optional().describe('Version of the schema `fieldPath` is written in; default `v1`.'),
            fieldPath: z.string().describe('Path of the pod field, such as `metadata.name`.'),
          })
          .optional()
          .describe('A field of the pod.'),
        fileKeyRef: z
          .strictObject({
            key: z.string().describe('The key in the env file.'),
            optional: z.boolean().default(false).describe('Whether the file or key need not exist.'),
            path: z.string().describe('Path of the env file inside the volume.'),
            volumeName: z.string().describe('Name of the volume holding the file.'),
          })
          .optional()
          .describe('A key of an env file in a volume.'),
        resourceFieldRef: z
          .strictObject({
            containerName: z.string().optional().describe('The container; default this one.'),
            divisor: quantity.optional().describe('The value is divided by this; default 1.'),
            resource: z.string().describe('The resource, such as `limits.cpu`.'),
          })
          .optional()
          .describe('A resource limit or request of a container.'),
        secretKeyRef: keySelector('Secret').optional().describe('A key of a Secret.'),
      })
      .optional()
      .describe('Where the value comes from.'),
  })
  .describe('A container environment variable (Kubernetes EnvVar).');

/** Kubernetes VolumeMount (core/v1). */
export const volumeMount = z
  .strictObject({
    name: z.string().describe('Name of a volume.'),
    mountPath: z.string().describe('Path in the container.'),
    readOnly: z.boolean().optional().describe('Mount read-only.'),
    subPath: z.string().optional().describe('Path inside the volume to mount instead of its root.'),
    subPathExpr: z.string().optional().describe('Like `subPath`, with `$(VAR)` expanded from the env.'),
    mountPropagation: z.string().optional().describe('`None`, `HostToContainer` or `Bidirectional`.'),
    recursiveReadOnly: z.string().optional().describe('`Disabled`, `IfPossible` or `Enabled`.'),
  })
  .describe('A volume mount (Kubernetes VolumeMount).');

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

const volumeSource = z
  .record(z.string(), z.unknown())
  .optional()
  .describe('A volume source (one per volume), passed to the pod as written (the API server checks its fields).');

export const volume = z
  .strictObject({
    name: z.string().describe('Name of the volume, as volume mounts refer to it.'),
    // One schema for every source: building (and describing) thirty was a tenth of start-up.
    ...Object.fromEntries(volumeSources.map((source) => [source, volumeSource])),
  })
  .describe('A pod volume (Kubernetes Volume).');
