// `workload.podDisruptionBudget`: the PodDisruptionBudget (policy/v1) of the server pods; without
// one, and with more than one pod, the operators' `maxUnavailable: 1`.
import { workloadDefaults } from '../catalog/catalog.js';
import type { Metadata, PodDisruptionBudget, PodDisruptionBudgetSpec } from './k8s.js';

export interface PodDisruptionBudgetInput {
  metadata: Metadata;
  /** `workload.podDisruptionBudget` (its rules allow exactly one of the two fields). */
  given: PodDisruptionBudgetSpec | undefined;
  /** More than one pod may run: the default budget applies when none is given. */
  several: boolean;
  selector: Record<string, string>;
}

/** Undefined when no budget is given and one pod runs. */
export function renderPodDisruptionBudget({ metadata, given, several, selector }: PodDisruptionBudgetInput): PodDisruptionBudget | undefined {
  const budget = given ?? (several ? workloadDefaults().podDisruptionBudget : undefined);
  if (!budget) return undefined;
  return { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata, spec: { ...budget, selector: { matchLabels: selector } } };
}
