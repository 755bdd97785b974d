// The OpenShift Route `<name>` for `spec.networking.expose` with `exposeKind: route`. TLS, by what
// is asked: `ingressTls` alone → `edge` (the router's certificate); server HTTPS alone →
// `passthrough` (clients see the server's certificate, which must cover the host); both →
// `reencrypt` (the router trusts OpenShift service-serving certificates by default, so the
// server's certificate should come from the service CA). HTTP is redirected to HTTPS.
import type { RenderOptions } from '../core/render-config.js';
import { workloadDefaults } from '../catalog/catalog.js';
import type { KrmObject } from '../krm/item.js';
import type { Plan } from '../llsd/plan.js';
import { exposeNames, exposureOf, type Exposure } from './exposure.js';
import { metadataFor, names } from './metadata.js';

export function renderRoute(plan: Plan, options: RenderOptions): KrmObject | undefined {
  const exposure = exposureOf(plan, options);
  if (exposure?.kind !== 'route') return undefined;
  const { llsd } = plan;
  const spec: Record<string, unknown> = {};
  if (exposure.host !== undefined) spec.host = exposure.host;
  spec.to = { kind: 'Service', name: names.service(llsd), weight: 100 };
  spec.port = { targetPort: workloadDefaults().container.portName };
  const termination = terminationOf(exposure);
  if (termination) spec.tls = { termination, insecureEdgeTerminationPolicy: 'Redirect' };
  return {
    apiVersion: 'route.openshift.io/v1',
    kind: 'Route',
    metadata: metadataFor(llsd, exposeNames.route(llsd), 'server', exposure.annotations),
    spec,
  };
}

function terminationOf(exposure: Exposure): 'edge' | 'passthrough' | 'reencrypt' | undefined {
  if (exposure.backendTls) return exposure.tls ? 'reencrypt' : 'passthrough';
  return exposure.tls ? 'edge' : undefined;
}
