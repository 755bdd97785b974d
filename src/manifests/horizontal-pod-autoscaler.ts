// `workload.autoscaling`: the HorizontalPodAutoscaler `<name>-hpa` (autoscaling/v2) of the
// Deployment, as the operators': minimum max(1, replicas, minReplicas), one Utilization target per
// resource given, CPU 80% when none is (DESIGN §6; OGXServer: reference OBJECTS.md §10).
import { ogxObjects, workloadDefaults } from '../catalog/catalog.js';
import type { KrmObject } from '../krm/item.js';
import type { OgxPlan } from '../ogx/plan.js';
import { ogxSource } from '../core/ogx-workload.js';
import type { Plan } from '../llsd/plan.js';
import { minReplicas } from '../core/workload.js';
import { metadataFor, names, ogxMetadata, ogxNames } from './metadata.js';

export function renderHorizontalPodAutoscaler(plan: Plan): KrmObject | undefined {
  const { llsd } = plan;
  const autoscaling = llsd.spec.workload?.autoscaling;
  if (!autoscaling) return undefined;
  return horizontalPodAutoscaler(metadataFor(llsd, names.horizontalPodAutoscaler(llsd), 'server'), names.deployment(llsd), {
    min: minReplicas(llsd.spec.workload),
    max: autoscaling.maxReplicas,
    cpu: autoscaling.targetCPUUtilization,
    memory: autoscaling.targetMemoryUtilization,
  });
}

/**
 * Labelled `app: ogx` and an empty `app.kubernetes.io/instance`, as the operator's base manifest
 * leaves it (nothing fills it in), besides the common labels.
 */
export function renderOgxHorizontalPodAutoscaler(plan: OgxPlan): KrmObject | undefined {
  const workload = plan.server.spec.workload;
  const autoscaling = workload?.autoscaling;
  if (!autoscaling) return undefined;
  const source = ogxSource(plan);
  return horizontalPodAutoscaler(ogxMetadata(source, ogxNames.horizontalPodAutoscaler(source), ogxBaseLabels()), ogxNames.deployment(source), {
    min: Math.max(1, workload?.replicas ?? 1, autoscaling.minReplicas ?? 1),
    max: autoscaling.maxReplicas,
    cpu: autoscaling.targetCPUUtilizationPercentage,
    memory: autoscaling.targetMemoryUtilizationPercentage,
  });
}

/** The labels of the operator's HPA and PDB base manifests, whose instance label stays empty. */
export const ogxBaseLabels = (): Record<string, string> => ({ ...ogxObjects().appLabel, 'app.kubernetes.io/instance': '' });

interface Scaling {
  min: number;
  max: number;
  cpu: number | undefined;
  memory: number | undefined;
}

function horizontalPodAutoscaler(metadata: KrmObject['metadata'], deployment: string, scaling: Scaling): KrmObject {
  const targets: Array<[string, number]> = [];
  if (scaling.cpu !== undefined) targets.push(['cpu', scaling.cpu]);
  if (scaling.memory !== undefined) targets.push(['memory', scaling.memory]);
  if (targets.length === 0) targets.push(['cpu', workloadDefaults().autoscaling.targetCPUUtilization]);
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata,
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: deployment },
      minReplicas: scaling.min,
      maxReplicas: scaling.max,
      metrics: targets.map(([name, averageUtilization]) => ({ type: 'Resource', resource: { name, target: { type: 'Utilization', averageUtilization } } })),
    },
  };
}
