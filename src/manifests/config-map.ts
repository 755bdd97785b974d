// The ConfigMaps a server mounts: its config.yaml and its CA bundle, for either API.
// Hash-named ones are immutable; the OGX operator's `<name>-ca-bundle` is updated in place, so it
// is not (its pods roll on the `llamastack.io/ca-bundle-hash` annotation instead).
import type { GeneratedConfig } from '../core/config-file.js';
import type { RenderOptions } from '../core/render-config.js';
import { annotation } from '../krm/item.js';
import type { ConfigMap, Metadata } from './k8s.js';

export interface ConfigMapInput {
  metadata: Metadata;
  immutable: boolean;
  /** The one key of `data`, and its text. */
  key: string;
  text: string;
}

export function renderConfigMap({ metadata, immutable, key, text }: ConfigMapInput): ConfigMap {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata,
    ...(immutable ? { immutable: true } : {}),
    data: { [key]: text },
  };
}

/**
 * Flux's post-build substitution fails on `${env.X}` ("missing closing brace"), so a ConfigMap
 * holding `${` opts out of it; Argo CD prunes the old hash-named ConfigMap only after the rollout.
 */
export function gitopsAnnotations(config: GeneratedConfig, options: RenderOptions): Record<string, string> {
  if (!options.gitopsAnnotations) return {};
  const annotations = pruneLast(options);
  if (config.text.includes('${')) annotations[annotation.fluxSubstitute] = 'disabled';
  return annotations;
}

/** Argo CD's PruneLast alone: a hash-named ConfigMap that holds no config (the CA bundle). */
export const pruneLast = (options: RenderOptions): Record<string, string> =>
  options.gitopsAnnotations ? { [annotation.argoSyncOptions]: 'PruneLast=true' } : {};
