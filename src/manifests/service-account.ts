// The ServiceAccount the server runs as, unless the CR names its own (DESIGN §6).
import type { KrmObject } from '../krm/item.js';
import type { Plan } from '../plan/plan.js';
import { metadataFor, names } from './metadata.js';

export function renderServiceAccount(plan: Plan): KrmObject | undefined {
  if (plan.llsd.spec.workload?.overrides?.serviceAccountName) return undefined;
  return {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: metadataFor(plan.llsd, names.serviceAccount(plan.llsd), 'server'),
  };
}
