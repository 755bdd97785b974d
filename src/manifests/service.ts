// The ClusterIP Service in front of the server, its ports as each API names them.
import type { Metadata, Service, ServicePort } from './k8s.js';

export interface ServiceInput {
  metadata: Metadata;
  selector: Record<string, string>;
  ports: ServicePort[];
}

export function renderService({ metadata, selector, ports }: ServiceInput): Service {
  return { apiVersion: 'v1', kind: 'Service', metadata, spec: { type: 'ClusterIP', selector, ports } };
}
