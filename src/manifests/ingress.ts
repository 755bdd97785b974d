// The Ingress in front of the Service: one rule, path `/` to the server port. An LLSD's
// `spec.networking.expose` (with the default `exposeKind: ingress`) may give it a host and TLS
// (the render options'); an OGXServer's `network.externalAccess` its `hostname` and `tls.secretName`.
import type { Ingress, Metadata } from './k8s.js';

export interface IngressInput {
  metadata: Metadata;
  /** The `ingressClass` option. */
  className: string | undefined;
  /** No host: the rule answers on every host name its controller serves. */
  host: string | undefined;
  /** TLS at the controller: without a Secret it serves its default certificate. */
  tls: { secretName?: string } | undefined;
  service: string;
  /** The Service port, by name or by number. */
  port: { name: string } | { number: number };
}

export function renderIngress({ metadata, className, host, tls, service, port }: IngressInput): Ingress {
  const http = { paths: [{ path: '/', pathType: 'Prefix' as const, backend: { service: { name: service, port } } }] };
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata,
    spec: {
      ...(className !== undefined ? { ingressClassName: className } : {}),
      ...(tls ? { tls: [tlsEntry(host, tls)] } : {}),
      rules: [host === undefined ? { http } : { host, http }],
    },
  };
}

function tlsEntry(host: string | undefined, tls: { secretName?: string }) {
  return { ...(host !== undefined ? { hosts: [host] } : {}), ...(tls.secretName !== undefined ? { secretName: tls.secretName } : {}) };
}
