// `workload.podDisruptionBudget`: the PodDisruptionBudget `<name>-pdb` (policy/v1) of the server
// pods; without one, and with more than one pod, the operator's `maxUnavailable: 1` (DESIGN §6).
import { workloadDefaults } from '../catalog/catalog.js';
import type { KrmObject } from '../krm/item.js';
import type { Plan } from '../plan/plan.js';
import { maxPods } from '../plan/workload.js';
import { metadataFor, names, selectorLabels } from './metadata.js';

export function renderPodDisruptionBudget(plan: Plan): KrmObject | undefined {
  const { llsd } = plan;
  const given = llsd.spec.workload?.podDisruptionBudget;
  // rules.ts has checked that exactly one of the two is set.
  const budget = given ?? (maxPods(llsd) > 1 ? workloadDefaults().podDisruptionBudget : undefined);
  if (!budget) return undefined;
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: metadataFor(llsd, names.podDisruptionBudget(llsd), 'server'),
    spec: { ...budget, selector: { matchLabels: selectorLabels(llsd) } },
  };
}
