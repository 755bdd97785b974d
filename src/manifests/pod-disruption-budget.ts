// `workload.podDisruptionBudget`: the PodDisruptionBudget `<name>-pdb` (policy/v1) of the server
// pods; without one, and with more than one pod, the operator's `maxUnavailable: 1` (DESIGN §6;
// OGXServer: reference OBJECTS.md §11).
import { workloadDefaults } from '../catalog/catalog.js';
import type { KrmObject } from '../krm/item.js';
import type { OgxPlan } from '../ogx/plan.js';
import { ogxReplicas, ogxSource } from '../core/ogx-workload.js';
import type { Plan } from '../llsd/plan.js';
import { maxPods } from '../core/workload.js';
import { ogxBaseLabels } from './horizontal-pod-autoscaler.js';
import { metadataFor, names, ogxMetadata, ogxNames, ogxSelectorLabels, selectorLabels } from './metadata.js';

export function renderPodDisruptionBudget(plan: Plan): KrmObject | undefined {
  const { llsd } = plan;
  const given = llsd.spec.workload?.podDisruptionBudget;
  // rules.ts has checked that exactly one of the two is set.
  const budget = given ?? (maxPods(llsd.spec.workload) > 1 ? workloadDefaults().podDisruptionBudget : undefined);
  if (!budget) return undefined;
  return podDisruptionBudget(metadataFor(llsd, names.podDisruptionBudget(llsd), 'server'), budget, selectorLabels(llsd));
}

/** Given, or for `workload.replicas` > 1 (not the HPA's bounds); the CRD's CEL allows exactly one of the two fields. */
export function renderOgxPodDisruptionBudget(plan: OgxPlan): KrmObject | undefined {
  const given = plan.server.spec.workload?.podDisruptionBudget;
  const budget = given ?? (ogxReplicas(plan) > 1 ? workloadDefaults().podDisruptionBudget : undefined);
  if (!budget) return undefined;
  const source = ogxSource(plan);
  return podDisruptionBudget(ogxMetadata(source, ogxNames.podDisruptionBudget(source), ogxBaseLabels()), budget, ogxSelectorLabels(source));
}

const podDisruptionBudget = (metadata: KrmObject['metadata'], budget: Record<string, unknown>, selector: Record<string, string>): KrmObject => ({
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  metadata,
  spec: { ...budget, selector: { matchLabels: selector } },
});
