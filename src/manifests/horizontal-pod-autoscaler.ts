// `workload.autoscaling`: the HorizontalPodAutoscaler (autoscaling/v2) of the Deployment, as both
// operators make it: one Utilization target per resource given, CPU 80% when none is.
import { workloadDefaults } from '../catalog/catalog.js';
import type { HorizontalPodAutoscaler, Metadata } from './k8s.js';

export interface HorizontalPodAutoscalerInput {
  metadata: Metadata;
  /** The Deployment scaled. */
  deployment: string;
  /** The minimum as the operators compute it: max(1, replicas, autoscaling.minReplicas). */
  min: number;
  max: number;
  /** Target utilizations in percent. */
  cpu: number | undefined;
  memory: number | undefined;
}

export function renderHorizontalPodAutoscaler({ metadata, deployment, min, max, cpu, memory }: HorizontalPodAutoscalerInput): HorizontalPodAutoscaler {
  const targets: Array<[string, number]> = [];
  if (cpu !== undefined) targets.push(['cpu', cpu]);
  if (memory !== undefined) targets.push(['memory', memory]);
  if (targets.length === 0) targets.push(['cpu', workloadDefaults().autoscaling.targetCPUUtilization]);
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata,
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: deployment },
      minReplicas: min,
      maxReplicas: max,
      metrics: targets.map(([name, averageUtilization]) => ({ type: 'Resource', resource: { name, target: { type: 'Utilization', averageUtilization } } })),
    },
  };
}
