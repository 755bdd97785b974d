// The ClusterIP Service in front of the server (DESIGN §6).
import { workloadDefaults } from '../catalog/catalog.js';
import type { KrmObject } from '../krm/item.js';
import type { Plan } from '../plan/plan.js';
import { serverPort } from './deployment.js';
import { metadataFor, names, selectorLabels } from './metadata.js';

export function renderService(plan: Plan): KrmObject {
  const { portName } = workloadDefaults().container;
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: metadataFor(plan.llsd, names.service(plan.llsd), 'server'),
    spec: {
      type: 'ClusterIP',
      selector: selectorLabels(plan.llsd),
      ports: [{ name: portName, protocol: 'TCP', port: serverPort(plan), targetPort: portName }],
    },
  };
}
