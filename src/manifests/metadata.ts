// Names, labels and annotations shared by every generated object (DESIGN §4, §6).
import type { Llsd } from '../api/llsd.js';
import { annotation, type KrmObject } from '../krm/item.js';

export type Component = 'config' | 'server' | 'storage' | 'ca-bundle';

/** Object names, compatible with the v1alpha1 operator. */
export const names = {
  deployment: (llsd: Llsd) => llsd.name,
  service: (llsd: Llsd) => `${llsd.name}-service`,
  serviceAccount: (llsd: Llsd) => `${llsd.name}-sa`,
  roleBinding: (llsd: Llsd) => `${llsd.name}-rb`,
  configMap: (llsd: Llsd, configHash: string) => `${llsd.name}-config-${configHash.slice(0, 10)}`,
  persistentVolumeClaim: (llsd: Llsd) => `${llsd.name}-pvc`,
  horizontalPodAutoscaler: (llsd: Llsd) => `${llsd.name}-hpa`,
  podDisruptionBudget: (llsd: Llsd) => `${llsd.name}-pdb`,
  /** The operator's `<name>-ca-bundle`, with a content hash as the config ConfigMap has. */
  caBundle: (llsd: Llsd, bundleHash: string) => `${llsd.name}-ca-bundle-${bundleHash.slice(0, 10)}`,
};

/** `<namespace>/<name>` of the LLSD, the owner mark every generated object carries. */
export const ownerOf = (llsd: Llsd): string => (llsd.namespace ? `${llsd.namespace}/${llsd.name}` : llsd.name);

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
  const metadata: KrmObject['metadata'] = { name };
  if (llsd.namespace) metadata.namespace = llsd.namespace;
  metadata.labels = labelsFor(llsd, component);
  metadata.annotations = { [annotation.generatedFrom]: ownerOf(llsd), ...annotations };
  return metadata;
}

/**
 * The LLSD's own labels that generated objects inherit: everything but the prefixes tools own
 * (DESIGN §4: never copy kpt's, kustomize's or our own bookkeeping onto generated objects).
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
