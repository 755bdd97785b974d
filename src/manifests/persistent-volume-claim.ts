// `workload.storage`: the PersistentVolumeClaim `<name>-pvc` for the server state (DESIGN §6), as
// the operators': ReadWriteOnce, 10Gi unless `size` says otherwise, the cluster's default class.
import { workloadDefaults } from '../catalog/catalog.js';
import type { KrmObject } from '../krm/item.js';
import type { OgxPlan } from '../ogx/plan.js';
import { adoptedFromLabel, ogxAdoptedStorage, ogxHasStorage, ogxSource } from '../core/ogx-workload.js';
import type { Plan } from '../llsd/plan.js';
import { hasPersistentVolume } from '../core/workload.js';
import { metadataFor, names, ogxMetadata, ogxNames } from './metadata.js';

export function renderPersistentVolumeClaim(plan: Plan): KrmObject | undefined {
  const { llsd } = plan;
  if (!hasPersistentVolume(llsd)) return undefined;
  return persistentVolumeClaim(metadataFor(llsd, names.persistentVolumeClaim(llsd), 'storage'), llsd.spec.workload?.storage?.size);
}

/**
 * `<name>-pvc`, or with `ogx.io/adopt-storage: <llsd>` the legacy LLSD's `<llsd>-pvc`, which the pod
 * mounts instead (OBJECTS.md §4, MIGRATION.md §5.1). The operator adopts that PVC in the cluster;
 * a render keeps it in its output, labelled as the operator labels it: the LLSD's render made it,
 * and a GitOps prune of what that render no longer makes would delete it and the data on it.
 */
export function renderOgxPersistentVolumeClaim(plan: OgxPlan): KrmObject | undefined {
  if (!ogxHasStorage(plan)) return undefined;
  const source = ogxSource(plan);
  const adopted = ogxAdoptedStorage(plan);
  if (adopted !== undefined) return persistentVolumeClaim(ogxMetadata(source, `${adopted}-pvc`, { [adoptedFromLabel]: adopted }), plan.server.spec.workload?.storage?.size);
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
