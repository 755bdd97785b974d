// The immutable, content-hash-named ConfigMaps: config.yaml (DESIGN §6), and the CA bundle
// gathered from `networking.tls.caBundle` (FR-063). For an OGXServer, the operator's generated
// `<name>-config-<hash16>` and its `<name>-ca-bundle` (reference OBJECTS.md §1, §2).
import { createHash } from 'node:crypto';
import type { RenderOptions } from '../core/render-config.js';
import type { GeneratedConfig } from '../llsd/generate.js';
import { ogxObjects, workloadDefaults } from '../catalog/catalog.js';
import { annotation, type KrmObject } from '../krm/item.js';
import type { OgxPlan } from '../ogx/plan.js';
import { ogxSource } from '../core/ogx-workload.js';
import type { Plan } from '../llsd/plan.js';
import { metadataFor, names, ogxNames, ogxOwnMetadata } from './metadata.js';

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

/** Generated mode only: the override ConfigMap is the user's, and with no config the image runs its own. */
export function renderOgxConfigMap(plan: OgxPlan, config: GeneratedConfig | undefined, options: RenderOptions): KrmObject | undefined {
  if (plan.mode !== 'generated' || !config) return undefined;
  const source = ogxSource(plan);
  const { generatedConfigLabel, watchLabel, container } = ogxObjects();
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: ogxOwnMetadata(source, ogxNames.configMap(source, config.hash), { ...generatedConfigLabel, ...watchLabel }, gitopsAnnotations(config, options)),
    immutable: true,
    data: { [container.configFileName]: config.text },
  };
}

/**
 * `spec.tls.trust.caCertificates` as the operator's `<name>-ca-bundle`. Its name has no hash and
 * the operator updates it in place, so it is not immutable; the Deployment's pod annotation
 * `llamastack.io/ca-bundle-hash` rolls the pods when it changes.
 */
export function renderOgxCaBundle(plan: OgxPlan): KrmObject | undefined {
  if (!plan.caBundle) return undefined;
  const source = ogxSource(plan);
  const { caBundle, caBundleComponent, watchLabel } = ogxObjects();
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: ogxOwnMetadata(source, ogxNames.caBundle(source), { 'app.kubernetes.io/component': caBundleComponent, ...watchLabel }),
    data: { [caBundle.fileName]: plan.caBundle.pem },
  };
}

/**
 * The certificates of `networking.tls.caBundle`, in one key, as the operator's `<name>-ca-bundle`;
 * named by their hash, so that a changed bundle is a new ConfigMap and rolls the pods.
 */
export function renderCaBundle(plan: Plan, options: RenderOptions): KrmObject | undefined {
  if (!plan.caBundle) return undefined;
  const annotations: Record<string, string> = options.gitopsAnnotations ? { [annotation.argoSyncOptions]: 'PruneLast=true' } : {};
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: metadataFor(plan.llsd, caBundleName(plan) as string, 'ca-bundle', annotations),
    immutable: true,
    data: { [workloadDefaults().caBundle.fileName]: plan.caBundle.pem },
  };
}

/** The name of the CA bundle ConfigMap, when the LLSD has one. */
export function caBundleName(plan: Plan): string | undefined {
  return plan.caBundle && names.caBundle(plan.llsd, createHash('sha256').update(plan.caBundle.pem).digest('hex'));
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
