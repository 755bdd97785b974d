// The ServiceMonitor (monitoring.coreos.com/v1) of a server with monitoring on, as the OGX
// operator's; only where the prometheus-operator CRDs exist (the `monitoringCrds` option).
import { ogxObjects } from '../catalog/catalog.js';
import type { Metadata, ServiceMonitor } from './k8s.js';

/**
 * Its selector is the operator's managed-by and part-of labels, not the instance: as upstream, it
 * scrapes every OGX Service of the namespace, on the Service port named `metrics`.
 */
export function renderServiceMonitor(metadata: Metadata): ServiceMonitor {
  const { serviceMonitor, commonLabels, container } = ogxObjects();
  const selector = Object.fromEntries(Object.entries(commonLabels).filter(([key]) => selectorKeys.includes(key)));
  return {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'ServiceMonitor',
    metadata,
    spec: {
      selector: { matchLabels: selector },
      endpoints: [{ targetPort: container.metricsPortName, path: serviceMonitor.path, interval: serviceMonitor.interval }],
    },
  };
}

const selectorKeys = ['app.kubernetes.io/managed-by', 'app.kubernetes.io/part-of'];
