// `workload.storage`: the PersistentVolumeClaim `<name>-pvc` for the server state (DESIGN §6), as
// the operator's: ReadWriteOnce, 10Gi unless `size` says otherwise, the cluster's default class.
import { workloadDefaults } from '../catalog/catalog.js';
import type { KrmObject } from '../krm/item.js';
import type { Plan } from '../plan/plan.js';
import { hasPersistentVolume } from '../plan/workload.js';
import { metadataFor, names } from './metadata.js';

export function renderPersistentVolumeClaim(plan: Plan): KrmObject | undefined {
  const { llsd } = plan;
  if (!hasPersistentVolume(llsd)) return undefined;
  const defaults = workloadDefaults().storage;
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: metadataFor(llsd, names.persistentVolumeClaim(llsd), 'storage'),
    spec: {
      accessModes: [defaults.accessMode],
      resources: { requests: { storage: String(llsd.spec.workload?.storage?.size ?? defaults.size) } },
    },
  };
}
