// The RoleBinding that lets the server's ServiceAccount use OpenShift's anyuid SCC, as the v1alpha1
// operator created it and the OGX operator creates `<name>-rb` wherever that ClusterRole exists;
// only when the RenderConfig asks (`openshiftAnyuid`: the ClusterRole exists only on OpenShift).
import type { Metadata, RoleBinding } from './k8s.js';

export interface RoleBindingInput {
  metadata: Metadata;
  /** The ServiceAccount bound, in the namespace of the CR (none: the namespace the objects are applied to). */
  account: string;
  namespace: string | undefined;
  clusterRole: string;
}

export function renderRoleBinding({ metadata, account, namespace, clusterRole }: RoleBindingInput): RoleBinding {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata,
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: clusterRole },
    subjects: [{ kind: 'ServiceAccount', name: account, ...(namespace ? { namespace } : {}) }],
  };
}
