// The ServiceMonitor `<name>-service-monitor` (monitoring.coreos.com/v1) of an OGXServer with
// monitoring on, as the OGX operator's (reference OBJECTS.md §12); only where the prometheus-operator
// CRDs exist (the `monitoringCrds` option).
import type { RenderOptions } from '../core/render-config.js';
import { ogxObjects } from '../catalog/catalog.js';
import type { KrmObject } from '../krm/item.js';
import type { OgxPlan } from '../ogx/plan.js';
import { ogxMetricsPort, ogxSource } from '../core/ogx-workload.js';
import { ogxMetadata, ogxNames } from './metadata.js';

/**
 * Its selector is the operator's managed-by and part-of labels, not the instance: as upstream, it
 * scrapes every OGX Service of the namespace, on the Service port named `metrics`.
 */
export function renderServiceMonitor(plan: OgxPlan, options: RenderOptions): KrmObject | undefined {
  if (!ogxMonitoringObjects(plan, options)) return undefined;
  const source = ogxSource(plan);
  const { serviceMonitor, commonLabels, container } = ogxObjects();
  const selector = Object.fromEntries(Object.entries(commonLabels).filter(([key]) => selectorKeys.includes(key)));
  return {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'ServiceMonitor',
    metadata: ogxMetadata(source, ogxNames.serviceMonitor(source), serviceMonitor.labels),
    spec: {
      selector: { matchLabels: selector },
      endpoints: [{ targetPort: container.metricsPortName, path: serviceMonitor.path, interval: serviceMonitor.interval }],
    },
  };
}

/** Monitoring is on (absent `monitoring` included) and the cluster has the CRDs. */
export const ogxMonitoringObjects = (plan: OgxPlan, options: RenderOptions): boolean => options.monitoringCrds && ogxMetricsPort(plan) !== undefined;

const selectorKeys = ['app.kubernetes.io/managed-by', 'app.kubernetes.io/part-of'];
