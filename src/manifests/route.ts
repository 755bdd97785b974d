// The OpenShift Route for an exposed server (`exposeKind: route`). TLS, by what is asked:
// `ingressTls` alone → `edge` (the router's certificate); server HTTPS alone → `passthrough`
// (clients see the server's certificate, which must cover the host); both → `reencrypt` (the
// router trusts OpenShift service-serving certificates by default, so the server's certificate
// should come from the service CA). HTTP is redirected to HTTPS.
import type { Metadata, Route } from './k8s.js';

export interface RouteInput {
  metadata: Metadata;
  /** No host: OpenShift gives it `<route name>-<namespace>.<router domain>`. */
  host: string | undefined;
  service: string;
  /** The Service port's name. */
  targetPort: string;
  /** TLS at the router (the `ingressTls` option). */
  routerTls: boolean;
  /** The server itself serves HTTPS. */
  backendTls: boolean;
}

export function renderRoute({ metadata, host, service, targetPort, routerTls, backendTls }: RouteInput): Route {
  const termination = backendTls ? (routerTls ? 'reencrypt' : 'passthrough') : routerTls ? 'edge' : undefined;
  return {
    apiVersion: 'route.openshift.io/v1',
    kind: 'Route',
    metadata,
    spec: {
      ...(host !== undefined ? { host } : {}),
      to: { kind: 'Service', name: service, weight: 100 },
      port: { targetPort },
      ...(termination ? { tls: { termination, insecureEdgeTerminationPolicy: 'Redirect' as const } } : {}),
    },
  };
}
