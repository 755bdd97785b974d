// `workload.autoscaling`: the HorizontalPodAutoscaler `<name>-hpa` (autoscaling/v2) of the
// Deployment, as the operator's: minimum max(1, replicas, minReplicas), one Utilization target per
// resource given, CPU 80% when none is (DESIGN §6).
import { workloadDefaults } from '../catalog/catalog.js';
import type { KrmObject } from '../krm/item.js';
import type { Plan } from '../plan/plan.js';
import { minReplicas } from '../plan/workload.js';
import { metadataFor, names } from './metadata.js';

export function renderHorizontalPodAutoscaler(plan: Plan): KrmObject | undefined {
  const { llsd } = plan;
  const autoscaling = llsd.spec.workload?.autoscaling;
  if (!autoscaling) return undefined;
  const targets: Array<[string, number]> = [];
  if (autoscaling.targetCPUUtilization !== undefined) targets.push(['cpu', autoscaling.targetCPUUtilization]);
  if (autoscaling.targetMemoryUtilization !== undefined) targets.push(['memory', autoscaling.targetMemoryUtilization]);
  if (targets.length === 0) targets.push(['cpu', workloadDefaults().autoscaling.targetCPUUtilization]);
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: metadataFor(llsd, names.horizontalPodAutoscaler(llsd), 'server'),
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: names.deployment(llsd) },
      minReplicas: minReplicas(llsd),
      maxReplicas: autoscaling.maxReplicas,
      metrics: targets.map(([name, averageUtilization]) => ({ type: 'Resource', resource: { name, target: { type: 'Utilization', averageUtilization } } })),
    },
  };
}
