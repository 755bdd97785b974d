// The Gateway API HTTPRoute for an exposed server (`exposeKind: httproute`), attached to the
// Gateway of the `gateway` option. TLS is the Gateway listener's business (the LLSD's
// exposureProblems says so when `ingressTls` or server HTTPS is set).
import type { RenderOptions } from '../core/render-config.js';
import type { HTTPRoute, Metadata } from './k8s.js';

export interface HttpRouteInput {
  metadata: Metadata;
  gateway: NonNullable<RenderOptions['gateway']>;
  /** No host names: it takes every host name of the Gateway listener. */
  host: string | undefined;
  service: string;
  /** A Service backend needs the port number; the Service's port equals the server port. */
  port: number;
}

export function renderHttpRoute({ metadata, gateway, host, service, port }: HttpRouteInput): HTTPRoute {
  const { name, namespace, sectionName } = gateway;
  const parentRef = { name, ...(namespace !== undefined ? { namespace } : {}), ...(sectionName !== undefined ? { sectionName } : {}) };
  return {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'HTTPRoute',
    metadata,
    spec: {
      parentRefs: [parentRef],
      ...(host !== undefined ? { hostnames: [host] } : {}),
      rules: [{ matches: [{ path: { type: 'PathPrefix', value: '/' } }], backendRefs: [{ name: service, port }] }],
    },
  };
}
