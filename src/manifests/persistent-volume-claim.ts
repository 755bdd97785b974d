// `workload.storage`: the PersistentVolumeClaim `<name>-pvc` for the server state (DESIGN §6), as
// the operators': ReadWriteOnce, 10Gi unless `size` says otherwise, the cluster's default class.
import { workloadDefaults } from '../catalog/catalog.js';
import type { KrmObject } from '../krm/item.js';
import type { OgxPlan } from '../plan/ogx-plan.js';
import { ogxAdoptedStorage, ogxHasStorage, ogxSource } from '../plan/ogx-workload.js';
import type { Plan } from '../plan/plan.js';
import { hasPersistentVolume } from '../plan/workload.js';
import { metadataFor, names, ogxMetadata, ogxNames } from './metadata.js';

export function renderPersistentVolumeClaim(plan: Plan): KrmObject | undefined {
  const { llsd } = plan;
  if (!hasPersistentVolume(llsd)) return undefined;
  return persistentVolumeClaim(metadataFor(llsd, names.persistentVolumeClaim(llsd), 'storage'), llsd.spec.workload?.storage?.size);
}

/** Not when the pod uses a legacy LLSD's PVC (`ogx.io/adopt-storage`, OBJECTS.md §4). */
export function renderOgxPersistentVolumeClaim(plan: OgxPlan): KrmObject | undefined {
  if (!ogxHasStorage(plan) || ogxAdoptedStorage(plan) !== undefined) return undefined;
  const source = ogxSource(plan);
  return persistentVolumeClaim(ogxMetadata(source, ogxNames.persistentVolumeClaim(source)), plan.server.spec.workload?.storage?.size);
}

function persistentVolumeClaim(metadata: KrmObject['metadata'], size: string | number | undefined): KrmObject {
  const defaults = workloadDefaults().storage;
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata,
    spec: {
      accessModes: [defaults.accessMode],
      resources: { requests: { storage: String(size ?? defaults.size) } },
    },
  };
}
