// Names, labels and annotations shared by every generated object (DESIGN §4, §6).
import { createHash } from 'node:crypto';
import type { Llsd } from '../api/llsd.js';
import { annotation, type KrmObject } from '../krm/item.js';

export type Component = 'config' | 'server' | 'storage' | 'ca-bundle';

/** The longest generated name: a DNS-1123 label (the Service needs it; the others keep to it too). */
export const maxNameLength = 63;

/**
 * `<base><suffix>` when it fits in `max` characters; otherwise `base` cut short, then `-` and 8 hex
 * of the sha256 of the whole name, then `suffix`. The same input always gives the same name, and
 * two long names that share a prefix do not meet.
 */
export function fitName(base: string, suffix: string, max = maxNameLength): string {
  const whole = `${base}${suffix}`;
  if (whole.length <= max) return whole;
  const hash = createHash('sha256').update(whole).digest('hex').slice(0, 8);
  return `${base.slice(0, Math.max(0, max - suffix.length - hash.length - 1)).replace(/-+$/, '')}-${hash}${suffix}`;
}

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
