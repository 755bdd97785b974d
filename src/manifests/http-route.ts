// The Gateway API HTTPRoute `<name>-httproute` for `spec.networking.expose` with
// `exposeKind: httproute`, attached to the Gateway of the `gateway` option. TLS is the Gateway
// listener's business; exposureProblems says so when `ingressTls` or server HTTPS is set.
import type { RenderOptions } from '../core/render-config.js';
import type { KrmObject } from '../krm/item.js';
import type { Plan } from '../llsd/plan.js';
import { serverPort } from './deployment.js';
import { exposeNames, exposureOf } from './exposure.js';
import { metadataFor, names } from './metadata.js';

/** Undefined without a `gateway` option too: exposureProblems has reported that as an error. */
export function renderHttpRoute(plan: Plan, options: RenderOptions): KrmObject | undefined {
  const exposure = exposureOf(plan, options);
  if (exposure?.kind !== 'httproute' || !options.gateway) return undefined;
  const { llsd } = plan;
  const { name, namespace, sectionName } = options.gateway;
  const parentRef: Record<string, unknown> = { name };
  if (namespace !== undefined) parentRef.namespace = namespace;
  if (sectionName !== undefined) parentRef.sectionName = sectionName;
  const spec: Record<string, unknown> = { parentRefs: [parentRef] };
  if (exposure.host !== undefined) spec.hostnames = [exposure.host];
  spec.rules = [
    {
      matches: [{ path: { type: 'PathPrefix', value: '/' } }],
      // A Service backend needs the port number; the Service's port equals the server port.
      backendRefs: [{ name: names.service(llsd), port: serverPort(plan) }],
    },
  ];
  return {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'HTTPRoute',
    metadata: metadataFor(llsd, exposeNames.httproute(llsd), 'server', exposure.annotations),
    spec,
  };
}
