// The RoleBinding that lets the server's ServiceAccount use OpenShift's anyuid SCC, as the v1alpha1
// operator created it and the OGX operator creates `<name>-rb` wherever that ClusterRole exists;
// only when the RenderConfig asks (`openshiftAnyuid`: the ClusterRole exists only on OpenShift).
import type { RenderOptions } from '../core/render-config.js';
import { ogxObjects } from '../catalog/catalog.js';
import type { KrmObject } from '../krm/item.js';
import type { OgxPlan } from '../ogx/plan.js';
import { ogxSource } from '../core/ogx-workload.js';
import type { Plan } from '../llsd/plan.js';
import { metadataFor, names, ogxMetadata, ogxNames, type Source } from './metadata.js';

export function renderRoleBinding(plan: Plan, options: RenderOptions): KrmObject | undefined {
  if (!options.openshiftAnyuid) return undefined;
  const { llsd } = plan;
  const account = llsd.spec.workload?.overrides?.serviceAccountName ?? names.serviceAccount(llsd);
  return roleBinding(metadataFor(llsd, names.roleBinding(llsd), 'server'), llsd, account, anyuidClusterRole);
}

/** Always for `<name>-sa`, even when the pod runs as `overrides.serviceAccountName` (OBJECTS.md §6). */
export function renderOgxRoleBinding(plan: OgxPlan, options: RenderOptions): KrmObject | undefined {
  if (!options.openshiftAnyuid) return undefined;
  const source = ogxSource(plan);
  return roleBinding(ogxMetadata(source, ogxNames.roleBinding(source)), source, ogxNames.serviceAccount(source), ogxObjects().roleBindingClusterRole);
}

function roleBinding(metadata: KrmObject['metadata'], source: Source, account: string, clusterRole: string): KrmObject {
  const subject: Record<string, string> = { kind: 'ServiceAccount', name: account };
  if (source.namespace) subject.namespace = source.namespace;
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata,
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: clusterRole },
    subjects: [subject],
  };
}

const anyuidClusterRole = 'system:openshift:scc:anyuid';
