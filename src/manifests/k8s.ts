// The Kubernetes wire types of the objects llsd-render writes: from the kubernetes-models and
// @kubernetes-models/gateway-api packages, imported as types only (nothing of them enters the
// bundle), and for the kinds they lack (the prometheus-operator's and OpenShift's) written here,
// as narrow as what is emitted. Not edited by hand beyond that: the builders read their types here.
import type { IHTTPRoute } from '@kubernetes-models/gateway-api/gateway.networking.k8s.io/v1/HTTPRoute';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IJob } from 'kubernetes-models/batch/v1/Job';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { IIngress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import type { IRoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1/RoleBinding';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IPersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import type { IService } from 'kubernetes-models/v1/Service';
import type { IServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import type { KrmObject } from '../krm/item.js';

export type { IContainer as Container } from 'kubernetes-models/v1/Container';
export type { IEnvVar as EnvVar } from 'kubernetes-models/v1/EnvVar';
export type { IProbe as Probe } from 'kubernetes-models/v1/Probe';
export type { IPodResourceClaim as PodResourceClaim } from 'kubernetes-models/v1/PodResourceClaim';
export type { IPodSecurityContext as PodSecurityContext } from 'kubernetes-models/v1/PodSecurityContext';
export type { IResourceRequirements as ResourceRequirements } from 'kubernetes-models/v1/ResourceRequirements';
export type { ISecurityContext as SecurityContext } from 'kubernetes-models/v1/SecurityContext';
export type { IServicePort as ServicePort } from 'kubernetes-models/v1/ServicePort';
export type { ITopologySpreadConstraint as TopologySpreadConstraint } from 'kubernetes-models/v1/TopologySpreadConstraint';
export type { IVolume as Volume } from 'kubernetes-models/v1/Volume';
export type { IVolumeMount as VolumeMount } from 'kubernetes-models/v1/VolumeMount';
export type { INetworkPolicyEgressRule as NetworkPolicyEgressRule } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicyEgressRule';
export type { INetworkPolicyIngressRule as NetworkPolicyIngressRule } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicyIngressRule';
export type { INetworkPolicyPeer as NetworkPolicyPeer } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicyPeer';
export type { IPodDisruptionBudgetSpec as PodDisruptionBudgetSpec } from 'kubernetes-models/policy/v1/PodDisruptionBudgetSpec';
export type { IPersistentVolumeClaimSpec as PersistentVolumeClaimSpec } from 'kubernetes-models/v1/PersistentVolumeClaimSpec';

/** The metadata every generated object carries: a name, and labels and annotations as plain maps. */
export type Metadata = KrmObject['metadata'];

/**
 * `T` as a plain object type with the generated metadata: unlike the package's interfaces, such a
 * type is assignable to KrmObject, whose index signature takes any further field.
 */
type Emitted<T> = { [K in keyof T]: T[K] } & { metadata: Metadata };

export type ConfigMap = Emitted<IConfigMap>;
export type Deployment = Emitted<IDeployment>;
export type HorizontalPodAutoscaler = Emitted<IHorizontalPodAutoscaler>;
export type HTTPRoute = Emitted<IHTTPRoute>;
export type Ingress = Emitted<IIngress>;
export type Job = Emitted<IJob>;
export type NetworkPolicy = Emitted<INetworkPolicy>;
export type PersistentVolumeClaim = Emitted<IPersistentVolumeClaim>;
export type PodDisruptionBudget = Emitted<IPodDisruptionBudget>;
export type RoleBinding = Emitted<IRoleBinding>;
export type Service = Emitted<IService>;
export type ServiceAccount = Emitted<IServiceAccount>;

/** `monitoring.coreos.com/v1` ServiceMonitor (prometheus-operator): the fields written. */
export type ServiceMonitor = {
  apiVersion: 'monitoring.coreos.com/v1';
  kind: 'ServiceMonitor';
  metadata: Metadata;
  spec: {
    selector: { matchLabels: Record<string, string> };
    endpoints: Array<{ targetPort: string | number; path: string; interval: string }>;
  };
};

/** `monitoring.coreos.com/v1` PrometheusRule (prometheus-operator): groups of recording rules. */
export type PrometheusRule = {
  apiVersion: 'monitoring.coreos.com/v1';
  kind: 'PrometheusRule';
  metadata: Metadata;
  spec: { groups: Array<{ name: string; interval: string; rules: Array<{ record: string; labels: Record<string, string>; expr: string }> }> };
};

/** `route.openshift.io/v1` Route (OpenShift): the fields written. */
export type Route = {
  apiVersion: 'route.openshift.io/v1';
  kind: 'Route';
  metadata: Metadata;
  spec: {
    host?: string;
    to: { kind: 'Service'; name: string; weight: number };
    port: { targetPort: string | number };
    tls?: { termination: 'edge' | 'passthrough' | 'reencrypt'; insecureEdgeTerminationPolicy: 'Redirect' };
  };
};
