// `workload.storage`: the PersistentVolumeClaim for the server state, as both
// operators make it: ReadWriteOnce, 10Gi unless `size` says otherwise, the cluster's default class.
import { workloadDefaults } from '../catalog/catalog.js';
import type { Metadata, PersistentVolumeClaim, PersistentVolumeClaimSpec } from './k8s.js';

export interface PersistentVolumeClaimInput {
  metadata: Metadata;
  /** `workload.storage.size`. */
  size: string | number | undefined;
}

export function renderPersistentVolumeClaim({ metadata, size }: PersistentVolumeClaimInput): PersistentVolumeClaim {
  const defaults = workloadDefaults().storage;
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata,
    spec: {
      // configs/ names one of the API's access modes; its schema reads it as a string.
      accessModes: [defaults.accessMode] as PersistentVolumeClaimSpec['accessModes'],
      resources: { requests: { storage: String(size ?? defaults.size) } },
    },
  };
}
