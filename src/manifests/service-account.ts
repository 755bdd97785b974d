// The ServiceAccount the server runs as: for an LLSD unless the CR names its own (DESIGN §6); for
// an OGXServer always, as the operator creates `<name>-sa` even when the pod uses another.
import type { KrmObject } from '../krm/item.js';
import type { OgxPlan } from '../ogx/plan.js';
import { ogxSource } from '../core/ogx-workload.js';
import type { Plan } from '../llsd/plan.js';
import { metadataFor, names, ogxMetadata, ogxNames } from './metadata.js';

export function renderServiceAccount(plan: Plan): KrmObject | undefined {
  if (plan.llsd.spec.workload?.overrides?.serviceAccountName) return undefined;
  return serviceAccount(metadataFor(plan.llsd, names.serviceAccount(plan.llsd), 'server'));
}

export function renderOgxServiceAccount(plan: OgxPlan): KrmObject {
  const source = ogxSource(plan);
  return serviceAccount(ogxMetadata(source, ogxNames.serviceAccount(source)));
}

const serviceAccount = (metadata: KrmObject['metadata']): KrmObject => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata });
