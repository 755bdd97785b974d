// The RoleBinding that lets the server's ServiceAccount use OpenShift's anyuid SCC, as the v1alpha1
// operator created it; only when the RenderConfig asks (the ClusterRole exists only on OpenShift).
import type { RenderOptions } from '../api/render-config.js';
import type { KrmObject } from '../krm/item.js';
import type { Plan } from '../plan/plan.js';
import { metadataFor, names } from './metadata.js';

export function renderRoleBinding(plan: Plan, options: RenderOptions): KrmObject | undefined {
  if (!options.openshiftAnyuid) return undefined;
  const { llsd } = plan;
  const subject: Record<string, string> = {
    kind: 'ServiceAccount',
    name: llsd.spec.workload?.overrides?.serviceAccountName ?? names.serviceAccount(llsd),
  };
  if (llsd.namespace) subject.namespace = llsd.namespace;
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: metadataFor(llsd, names.roleBinding(llsd), 'server'),
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: anyuidClusterRole },
    subjects: [subject],
  };
}

const anyuidClusterRole = 'system:openshift:scc:anyuid';
