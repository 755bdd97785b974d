// The Ingress `<name>-ingress` for `spec.networking.expose` (FR-064/065) with the default
// `exposeKind: ingress`: one rule, path `/` to the Service's `http` port.
import type { RenderOptions } from '../api/render-config.js';
import { workloadDefaults } from '../catalog/catalog.js';
import type { KrmObject } from '../krm/item.js';
import type { Plan } from '../plan/plan.js';
import { exposeNames, exposureOf, type Exposure } from './exposure.js';
import { metadataFor, names } from './metadata.js';

export function renderIngress(plan: Plan, options: RenderOptions): KrmObject | undefined {
  const exposure = exposureOf(plan, options);
  if (exposure?.kind !== 'ingress') return undefined;
  const { llsd } = plan;
  const spec: Record<string, unknown> = {};
  if (options.ingressClass !== undefined) spec.ingressClassName = options.ingressClass;
  if (exposure.tls) spec.tls = [tlsEntry(exposure)];
  spec.rules = [rule(plan, exposure)];
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: metadataFor(llsd, exposeNames.ingress(llsd), 'server', exposure.annotations),
    spec,
  };
}

function rule(plan: Plan, exposure: Exposure): Record<string, unknown> {
  const backend = { service: { name: names.service(plan.llsd), port: { name: workloadDefaults().container.portName } } };
  const http = { paths: [{ path: '/', pathType: 'Prefix', backend }] };
  return exposure.host === undefined ? { http } : { host: exposure.host, http };
}

/** Without a Secret the controller serves its default certificate; without a host, for every host. */
function tlsEntry(exposure: Exposure): Record<string, unknown> {
  const entry: Record<string, unknown> = {};
  if (exposure.host !== undefined) entry.hosts = [exposure.host];
  if (exposure.tls?.secretName !== undefined) entry.secretName = exposure.tls.secretName;
  return entry;
}
