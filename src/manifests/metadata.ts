// Names, labels and annotations shared by every generated object: the v1alpha1 operator's names
// for an LLSD, the OGX operator's for an OGXServer, and the owner mark of both.
import { fitName } from '../lib/names.js';
import type { Llsd } from '../llsd/llsd.js';
import { ogxObjects } from '../catalog/catalog.js';
import { annotation, type KrmObject } from '../krm/item.js';

export type Component = 'config' | 'server' | 'storage' | 'ca-bundle';


/** Object names, compatible with the v1alpha1 operator (shortened by fitName only where that would exceed 63 characters). */
export const names = {
  deployment: (llsd: Llsd) => llsd.name,
  service: (llsd: Llsd) => fitName(llsd.name, '-service'),
  serviceAccount: (llsd: Llsd) => fitName(llsd.name, '-sa'),
  roleBinding: (llsd: Llsd) => fitName(llsd.name, '-rb'),
  configMap: (llsd: Llsd, configHash: string) => fitName(llsd.name, `-config-${configHash.slice(0, 10)}`),
  persistentVolumeClaim: (llsd: Llsd) => fitName(llsd.name, '-pvc'),
  horizontalPodAutoscaler: (llsd: Llsd) => fitName(llsd.name, '-hpa'),
  podDisruptionBudget: (llsd: Llsd) => fitName(llsd.name, '-pdb'),
  networkPolicy: (llsd: Llsd) => fitName(llsd.name, '-network-policy'),
  ingress: (llsd: Llsd) => fitName(llsd.name, '-ingress'),
  httpRoute: (llsd: Llsd) => fitName(llsd.name, '-httproute'),
  /** The operator's `<name>-ca-bundle`, with a content hash as the config ConfigMap has. */
  caBundle: (llsd: Llsd, bundleHash: string) => fitName(llsd.name, `-ca-bundle-${bundleHash.slice(0, 10)}`),
};

/** The name and namespace of the item (LLSD or OGXServer) objects are generated from. */
export interface Source {
  name: string;
  namespace?: string | undefined;
}

/** `<namespace>/<name>` of the LLSD or OGXServer, the owner mark every generated object carries. */
export const ownerOf = (source: Source): string => (source.namespace ? `${source.namespace}/${source.name}` : source.name);

/** Selectors use name + instance only, so adding a label never orphans pods. */
export const selectorLabels = (llsd: Llsd): Record<string, string> => ({
  'app.kubernetes.io/name': 'llama-stack',
  'app.kubernetes.io/instance': llsd.name,
});

export function labelsFor(llsd: Llsd, component: Component): Record<string, string> {
  return {
    ...userLabels(llsd),
    ...selectorLabels(llsd),
    'app.kubernetes.io/component': component,
    'app.kubernetes.io/part-of': 'llama-stack',
    'app.kubernetes.io/managed-by': 'llsd-render',
  };
}

export function metadataFor(llsd: Llsd, name: string, component: Component, annotations: Record<string, string> = {}): KrmObject['metadata'] {
  return markedMetadata(llsd, name, labelsFor(llsd, component), annotations);
}

/**
 * Metadata of an object generated from `source`: its namespace, the labels given, and the owner
 * mark that the next render drops and regenerates it by, whatever the input API.
 */
export function markedMetadata(source: Source, name: string, labels: Record<string, string>, annotations: Record<string, string> = {}): KrmObject['metadata'] {
  const metadata: KrmObject['metadata'] = { name };
  if (source.namespace) metadata.namespace = source.namespace;
  metadata.labels = labels;
  metadata.annotations = { [annotation.generatedFrom]: ownerOf(source), ...annotations };
  return metadata;
}

/**
 * The LLSD's own labels that generated objects inherit: everything but the prefixes tools own
 * (never copy kpt's, kustomize's or our own bookkeeping onto generated objects).
 */
function userLabels(llsd: Llsd): Record<string, string> {
  return Object.fromEntries(Object.entries(llsd.labels).filter(([key]) => !reservedPrefixes.some((p) => key.startsWith(p))));
}

const reservedPrefixes = [
  'app.kubernetes.io/',
  'config.kubernetes.io/',
  'internal.config.kubernetes.io/',
  'config.k8s.io/',
  'kustomize.config.k8s.io/',
  'llamastack.io/',
];

// ---------------------------------------------------------------------------------------------
// OGXServer: the operator's names and labels, so that its ServiceMonitor selector
// (`managed-by: ogx-operator`, `part-of: ogx`, and the instance: not upstream) finds the Service.

/** `<name>-<suffix>`: the operator's kustomize name prefix; the API's 46-character limit keeps each a DNS label. */
export const ogxNames = {
  deployment: (s: Source) => s.name,
  service: (s: Source) => fitName(s.name, '-service'),
  serviceAccount: (s: Source) => fitName(s.name, '-sa'),
  roleBinding: (s: Source) => fitName(s.name, '-rb'),
  configMap: (s: Source, configHash: string) => fitName(s.name, `-config-${configHash.slice(0, ogxObjects().configHashLength)}`),
  caBundle: (s: Source) => fitName(s.name, '-ca-bundle'),
  persistentVolumeClaim: (s: Source) => fitName(s.name, '-pvc'),
  horizontalPodAutoscaler: (s: Source) => fitName(s.name, '-hpa'),
  podDisruptionBudget: (s: Source) => fitName(s.name, '-pdb'),
  networkPolicy: (s: Source) => fitName(s.name, '-network-policy'),
  ingress: (s: Source) => fitName(s.name, '-ingress'),
  serviceMonitor: (s: Source) => fitName(s.name, '-service-monitor'),
  prometheusRule: (s: Source) => fitName(s.name, '-prometheus-rules'),
};

/** `{app: ogx, app.kubernetes.io/instance: <name>}`: Deployment selector, pod labels, Service and policy selectors. */
export const ogxSelectorLabels = (s: Source): Record<string, string> => ({ ...ogxObjects().appLabel, [instanceLabel]: s.name });

/** `{app.kubernetes.io/instance: <name>}`, the label that tells one OGXServer's objects from another's. */
export const ogxInstanceLabel = (s: Source): Record<string, string> => ({ [instanceLabel]: s.name });

/** Metadata with the operator's common labels (managed-by, part-of, ogx.io/watch) and `extra` labels first. */
export const ogxMetadata = (s: Source, name: string, extra: Record<string, string> = {}, annotations: Record<string, string> = {}): KrmObject['metadata'] =>
  markedMetadata(s, name, { ...extra, ...ogxObjects().commonLabels }, annotations);

/** Metadata of the objects the operator builds outside kustomize: managed-by and instance, and `extra`. */
export const ogxOwnMetadata = (s: Source, name: string, extra: Record<string, string>, annotations: Record<string, string> = {}): KrmObject['metadata'] =>
  markedMetadata(s, name, { ...ogxObjects().managedBy, [instanceLabel]: s.name, ...extra }, annotations);

const instanceLabel = 'app.kubernetes.io/instance';
