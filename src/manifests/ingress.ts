// The Ingress `<name>-ingress` for `spec.networking.expose` (FR-064/065) with the default
// `exposeKind: ingress`: one rule, path `/` to the Service's `http` port. For an OGXServer with
// `network.externalAccess.enabled`, the OGX operator's (reference OBJECTS.md §9).
import type { FieldProblem } from '../lib/issues.js';
import type { RenderOptions } from '../core/render-config.js';
import { workloadDefaults } from '../catalog/catalog.js';
import type { KrmObject } from '../krm/item.js';
import { quote } from '../lib/quote.js';
import type { OgxPlan } from '../ogx/plan.js';
import { ogxPort, ogxSource } from '../core/ogx-workload.js';
import type { Plan } from '../llsd/plan.js';
import { exposeNames, exposureOf, type Exposure } from './exposure.js';
import { metadataFor, names, ogxNames, ogxOwnMetadata } from './metadata.js';

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

/**
 * One rule without a host (the operator ignores `externalAccess.hostname`), `/` to the Service's
 * port by number; no TLS. The `ingressClass` and `ingressAnnotations` options apply (none by
 * default, as upstream); `exposeKind`, `ingressDomain` and `ingressTls` are the LLSD's.
 */
export function renderOgxIngress(plan: OgxPlan, options: RenderOptions): KrmObject | undefined {
  if (plan.server.spec.network?.externalAccess?.enabled !== true) return undefined;
  const source = ogxSource(plan);
  const spec: Record<string, unknown> = {};
  if (options.ingressClass !== undefined) spec.ingressClassName = options.ingressClass;
  const backend = { service: { name: ogxNames.service(source), port: { number: ogxPort(plan) } } };
  spec.rules = [{ http: { paths: [{ path: '/', pathType: 'Prefix', backend }] } }];
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: ogxOwnMetadata(source, ogxNames.ingress(source), {}, options.ingressAnnotations),
    spec,
  };
}

/** As upstream, `externalAccess.hostname` sets no host: said, so that nobody counts on it. */
export function ogxIngressProblems(plan: OgxPlan): FieldProblem[] {
  const access = plan.server.spec.network?.externalAccess;
  if (access?.enabled !== true || access.hostname === undefined) return [];
  return [
    {
      severity: 'warning', code: 'field-has-no-effect',
      path: ['spec', 'network', 'externalAccess', 'hostname'],
      message: `is ignored, as by the OGX operator: the Ingress ${quote(ogxNames.ingress(ogxSource(plan)))} has no host, so it answers on every host name its controller serves`,
    },
  ];
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
