// The ClusterIP Service in front of the server (DESIGN §6; OGXServer: reference OBJECTS.md §7).
import { ogxObjects, workloadDefaults } from '../catalog/catalog.js';
import type { KrmObject } from '../krm/item.js';
import type { OgxPlan } from '../ogx/plan.js';
import { adoptedFromLabel, ogxAdoptedNetworking, ogxMetricsPort, ogxPort, ogxSource } from '../core/ogx-workload.js';
import type { Plan } from '../llsd/plan.js';
import { serverPort } from './deployment.js';
import { metadataFor, names, ogxMetadata, ogxNames, ogxSelectorLabels, selectorLabels } from './metadata.js';

export function renderService(plan: Plan): KrmObject {
  const { portName } = workloadDefaults().container;
  return service(metadataFor(plan.llsd, names.service(plan.llsd), 'server'), selectorLabels(plan.llsd), [
    { name: portName, protocol: 'TCP', port: serverPort(plan), targetPort: portName },
  ]);
}

/**
 * The API port by number (the container port has no name); with monitoring on, the metrics port
 * too, unless it is the API port (the operator's service transformer).
 */
export function renderOgxService(plan: OgxPlan, name = ogxNames.service(ogxSource(plan)), labels: Record<string, string> = {}): KrmObject {
  const source = ogxSource(plan);
  const c = ogxObjects().container;
  const port = ogxPort(plan);
  const metrics = ogxMetricsPort(plan);
  const ports = [{ name: c.servicePortName, protocol: 'TCP', port, targetPort: port }];
  if (metrics !== undefined && metrics !== port) ports.push({ name: c.metricsPortName, protocol: 'TCP', port: metrics, targetPort: metrics });
  return service(ogxMetadata(source, name, labels), ogxSelectorLabels(source), ports);
}

/**
 * With `ogx.io/adopt-networking: <llsd>`, the legacy LLSD's Service `<llsd>-service` selecting this
 * server's pods, next to `<name>-service`, as the operator leaves it after adopting it (MIGRATION.md
 * §5.2): clients keep its DNS name, and a GitOps prune of the LLSD's render does not delete it.
 */
export function renderOgxAdoptedService(plan: OgxPlan): KrmObject | undefined {
  const adopted = ogxAdoptedNetworking(plan);
  return adopted === undefined ? undefined : renderOgxService(plan, `${adopted}-service`, { [adoptedFromLabel]: adopted });
}

const service = (metadata: KrmObject['metadata'], selector: Record<string, string>, ports: Array<Record<string, unknown>>): KrmObject => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata,
  spec: { type: 'ClusterIP', selector, ports },
});
