// The ServiceMonitor (monitoring.coreos.com/v1) of a server with monitoring on, as the OGX
// operator's; only where the prometheus-operator CRDs exist (the `monitoringCrds` option).
import { ogxObjects } from '../catalog/catalog.js';
import type { Metadata, ServiceMonitor } from './k8s.js';

export interface ServiceMonitorInput {
  metadata: Metadata;
  /** The labels of the one Service whose pods it scrapes, on their port named `metrics`. */
  selector: Record<string, string>;
}

export function renderServiceMonitor({ metadata, selector }: ServiceMonitorInput): ServiceMonitor {
  const { serviceMonitor, container } = ogxObjects();
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
