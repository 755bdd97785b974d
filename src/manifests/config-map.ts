// The immutable, content-hash-named ConfigMap holding config.yaml (DESIGN §6).
import type { RenderOptions } from '../api/render-config.js';
import type { GeneratedConfig } from '../config/generate.js';
import { workloadDefaults } from '../config/catalog.js';
import { annotation, type KrmObject } from '../krm/item.js';
import type { Plan } from '../plan/plan.js';
import { metadataFor, names } from './metadata.js';

export function renderConfigMap(plan: Plan, config: GeneratedConfig, options: RenderOptions): KrmObject | undefined {
  if (config.fromConfigMap) return undefined;
  const { configFileName } = workloadDefaults().container;
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: metadataFor(plan.llsd, names.configMap(plan.llsd, config.hash), 'config', gitopsAnnotations(config, options)),
    immutable: true,
    data: { [configFileName]: config.text },
  };
}

/**
 * Flux's post-build substitution fails on `${env.X}` ("missing closing brace"), so a ConfigMap
 * holding `${` opts out of it; Argo CD prunes the old hash-named ConfigMap only after the rollout.
 */
function gitopsAnnotations(config: GeneratedConfig, options: RenderOptions): Record<string, string> {
  if (!options.gitopsAnnotations) return {};
  const annotations: Record<string, string> = { [annotation.argoSyncOptions]: 'PruneLast=true' };
  if (config.text.includes('${')) annotations[annotation.fluxSubstitute] = 'disabled';
  return annotations;
}
