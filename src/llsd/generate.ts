// Generate config.yaml: the distribution's base config with the CR laid over it (docs/config-generation.md).
import { isError, type FieldProblem } from '../lib/issues.js';
import { formatFieldPath } from '../krm/item.js';
import { freshCopy, isPlainObject, setOwn } from '../lib/objects.js';
import { configHash, writeConfig, type GenerateOutcome } from '../core/config-file.js';
import { envNameClashes } from '../core/env-names.js';
import { placeholdersIn } from '../core/placeholders.js';
import { clip, code, quote } from '../lib/quote.js';
import type { Plan } from './plan.js';
import { applyDisabled } from './disabled.js';
import { mergeExternalProviders } from './external-providers.js';
import { refuseRemovedApis } from './removed-apis.js';
import type { ProviderEntry } from './llsd.js';
import {
  buildProvider,
  defaultUrlEntry,
  findBaseEntry,
  newProviderEntry,
  overlay,
  providerConfigRequired,
  providerKeys,
  resolveProviderType,
  type ConfigProvider,
  type ResolvedType,
} from './providers.js';
import {
  mergeById,
  mergeModels,
  registerModels,
  resourceListsOf,
  registerShields,
  registerTools,
  resourceList,
  setResourceList,
  settleDefaultShield,
} from './resources.js';
import type { SecretEnv } from '../core/secrets.js';
import { applyServerSettings, checkOverrideServerSettings, checkScaling } from '../core/server-settings.js';
import { applyStorage } from './storage.js';
import { providerApis } from './llsd-v1alpha2.js';
import { namedBefore, pointVectorSettingsAt, type VectorProviderSetting } from '../core/vector-defaults.js';

// The shapes both front ends' generation returns, declared once in core; named here for the
// objects and tests that read an LLSD's.

export function generateConfig(plan: Plan): GenerateOutcome {
  if (plan.overrideConfig) {
    const { configMapName, text, value: parsed } = plan.overrideConfig;
    const problems = [...checkOverrideServerSettings(parsed, plan, configMapName), ...checkScaling(parsed, plan)];
    if (problems.some(isError)) return { ok: false, problems };
    return {
      ok: true,
      config: { text, value: parsed, hash: configHash(text), env: [], providerCount: { fromLlsd: 0, total: 0 }, modelCount: 0, fromConfigMap: configMapName },
      problems,
    };
  }
  const problems: FieldProblem[] = [];
  if (refuseRemovedApis(plan, problems)) return { ok: false, problems };
  const config = freshCopy(plan.baseConfig);
  const providers = isPlainObject(config.providers) ? config.providers : {};
  setOwn(config, 'providers', providers);
  const env: SecretEnv[] = [];
  // Providers refused here: what names them gets no error of its own (the provider's is the cause).
  const failed = new Set<string>();

  for (const provider of plan.llsd.providers) {
    const resolved = resolveProviderType(provider, plan);
    if (!resolved.ok) {
      problems.push(resolved.problem);
      failed.add(`${provider.api}/${provider.id}`);
      continue;
    }
    const built = buildProvider(provider, resolved.resolved, plan, problems);
    const entries = (Array.isArray(providers[built.api]) ? providers[built.api] : []) as ConfigProvider[];
    placeProvider(config, entries, provider, built.entry, resolved.resolved, plan, problems);
    setOwn(providers, built.api, entries);
    addApi(config, built.api);
    env.push(...built.env);
  }

  // After the CR's providers (their dependencies count) and before the resources (a disabled API's
  // providers are no fallback for them).
  const disabled = applyDisabled(config, plan, problems);
  applyStorage(config, plan, env, problems);
  applyServerSettings(config, plan, problems);
  checkEnvNames(env, problems);

  const { profile } = plan;
  const crIds = (api: string): string[] => plan.llsd.providers.filter((p) => p.api === api).map((p) => p.id);
  const failedIds = (api: string): Set<string> => new Set(crIds(api).filter((id) => failed.has(`${api}/${id}`)));
  const inferenceIds = enabledIds(providers.inference, plan.profile.envSyntax === 'bash');
  const models = registerModels(plan.llsd.models, crIds('inference')[0], inferenceIds, problems, crIds('inference'), failedIds('inference'));
  if (models.length > 0) setResourceList(config, profile, 'models', mergeModels(resourceList(config, profile, 'models'), models));

  const resources = plan.llsd.spec.resources;
  if (resources?.shields) {
    // A CR model left out for an error of its own: a shield named after it is not a second mistake.
    const refusedModels = new Set(plan.llsd.models.map((m) => m.name).filter((name) => !models.some((m) => m.model_id === name)));
    const shields = registerShields(
      {
        config,
        profile,
        shields: resources.shields,
        crProviders: crIds('safety'),
        disabled: disabled.has('safety'),
        providerFailed: failedIds('safety').size > 0,
        refusedModels,
      },
      problems,
    );
    if (shields.length > 0) {
      setResourceList(config, profile, 'shields', mergeById(resourceList(config, profile, 'shields'), shields, 'shield_id'));
      settleDefaultShield(config, profile, shields, problems);
    }
  }
  if (resources?.tools) {
    const groups = registerTools(
      { config, profile, release: plan.release, tools: resources.tools, crProviders: crIds('toolRuntime'), disabled: disabled.has('tool_runtime') },
      problems,
    );
    if (groups.length > 0) {
      setResourceList(config, profile, 'tool_groups', mergeById(resourceList(config, profile, 'tool_groups'), groups, 'toolgroup_id'));
    }
  }

  // External providers are laid over the generated config last: one with a provider's id replaces it (docs/config-generation.md).
  const external = mergeExternalProviders(config, plan.llsd, problems);
  followVectorProviders(config, plan, failed, problems);

  if (providerConfigRequired(plan.catalogRelease)) addEmptyConfigs(providers);
  problems.push(...checkScaling(config, plan));
  const written = writeConfig(config, problems);
  if (!written.ok) return written;
  const { text, hash } = written;
  return {
    ok: true,
    config: {
      text,
      value: config,
      hash,
      env,
      providerCount: {
        fromLlsd: plan.llsd.providers.length + external,
        total: Object.values(providers).reduce((n: number, list) => n + (Array.isArray(list) ? list.length : 0), 0),
      },
      modelCount: models.length,
    },
    problems,
  };
}

/**
 * Puts a CR provider into its API's entries: over the base entry of its id and type; else as a new
 * entry from the release's sample, in place of the base entry of that id (another type), or of a
 * base entry it stands in for (defaultUrlEntry: the base's resources follow it, with an info
 * result), or at the end.
 */
function placeProvider(
  config: Record<string, unknown>,
  entries: ConfigProvider[],
  provider: ProviderEntry,
  built: ConfigProvider,
  resolved: ResolvedType,
  plan: Plan,
  problems: FieldProblem[],
): void {
  const at = findBaseEntry(entries, provider.id);
  const base = at >= 0 ? entries[at] : undefined;
  if (base && base.provider_type === built.provider_type) {
    entries[at] = overlay(base, built);
    return;
  }
  const entry = newProviderEntry(
    entries.filter((_, i) => i !== at),
    built,
    resolved,
    plan,
  );
  if (at >= 0) {
    entries[at] = entry;
    return;
  }
  const urlKey = providerKeys(resolved).urlKey;
  // Only an entry of the base: one the CR wrote (earlier in its list, from the sample's localhost
  // default) is a provider of its own, not one this provider stands in for.
  const own = new Set(plan.llsd.providers.filter((p) => p.api === provider.api).map((p) => p.id));
  const stoodIn = defaultUrlEntry(entries, built, urlKey, own);
  if (!stoodIn) {
    entries.push(entry);
    return;
  }
  const oldId = String((entries[stoodIn.index] as ConfigProvider).provider_id);
  entries[stoodIn.index] = entry;
  const moved = repointResources(config, plan, resolved.api, oldId, provider.id);
  problems.push({
    severity: 'info',
    path: provider.path,
    message:
      `replaces the base config's provider ${quote(oldId)} (${resolved.type} at ${clip(stoodIn.url)}, a default address nothing in the pod serves, ` +
      `which would stop the server at startup)${moved > 0 ? `; resources registered with it now use ${quote(provider.id)}` : ''}; ` +
      `to configure that entry instead, give this provider \`id: ${oldId}\``,
  });
}

/**
 * The CR's vector_io providers are the ones it wants used: every setting of the base that names a
 * vector_io provider (`vector_stores.default_provider_id`, the responses provider's
 * `memory_config.default_vector_store_provider_id`, a `vector_stores_config.default_provider_id`)
 * and names none of the CR's is pointed at the CR's first (docs/config-generation.md), with an
 * info result there. A setting the CR's own `settings` write stays as written.
 */
function followVectorProviders(config: Record<string, unknown>, plan: Plan, failed: ReadonlySet<string>, problems: FieldProblem[]): void {
  const own = plan.llsd.providers.filter((p) => providerApis[p.api] === 'vector_io' && !failed.has(`${p.api}/${p.id}`));
  const first = own[0];
  const providers = isPlainObject(config.providers) ? (config.providers as Record<string, unknown>) : {};
  const entries = Array.isArray(providers.vector_io) ? providers.vector_io.filter(isPlainObject) : [];
  // Disabled, or replaced by an external provider of another id: nothing of the CR's to point at.
  if (!first || !entries.some((e) => e.provider_id === first.id)) return;
  const written = (setting: VectorProviderSetting): boolean => {
    if (!setting.provider) return false;
    const { api, index } = setting.provider;
    const list = providers[api];
    const entry = Array.isArray(list) ? (list[index] as unknown) : undefined;
    const cr = plan.llsd.providers.find((p) => providerApis[p.api] === api && isPlainObject(entry) && p.id === entry.provider_id);
    let node: unknown = cr?.settings;
    for (const step of setting.path.slice(4)) node = isPlainObject(node) && Object.hasOwn(node, step) ? node[step] : undefined;
    return node !== undefined;
  };
  const changed = pointVectorSettingsAt(config, first.id, new Set(own.map((p) => p.id)), written);
  if (changed.length === 0) return;
  problems.push({
    severity: 'info',
    path: first.path,
    message: `is the default vector_io provider of the generated config.yaml: ${namedBefore(changed)} of the base config now ` +
      `name${changed.length === 1 ? 's' : ''} it; list another vector_io provider first to make it the default`,
  });
}

/** Registered resources of the API's provider `from` are moved to `to`; returns how many. */
function repointResources(config: Record<string, unknown>, plan: Plan, api: string, from: string, to: string): number {
  let moved = 0;
  for (const key of resourceListsOf[api] ?? []) {
    for (const resource of resourceList(config, plan.profile, key)) {
      if (isPlainObject(resource) && resource.provider_id === from) {
        resource.provider_id = to;
        moved += 1;
      }
    }
  }
  return moved;
}

/** Every provider entry gets a `config` mapping, for releases whose run-config schema requires one. */
function addEmptyConfigs(providers: Record<string, unknown>): void {
  for (const list of Object.values(providers)) {
    if (!Array.isArray(list)) continue;
    for (const entry of list) if (isPlainObject(entry) && !Object.hasOwn(entry, 'config')) setOwn(entry, 'config', {});
  }
}

/** A provider for an API the base does not serve adds the API to `apis` (when the base lists them). */
function addApi(config: Record<string, unknown>, api: string): void {
  const apis = config.apis;
  if (Array.isArray(apis) && apis.length > 0 && !apis.includes(api)) apis.push(api);
}

/**
 * Provider ids a model may name: literal ids, and the id an env var gives a provider it switches
 * (`${env.OLLAMA_URL:+ollama}`, as the starter and rh bases write theirs). Whether the pod sets
 * that variable is judged later with the Deployment's env (core/startup/resources.ts says "off in
 * this pod" and how to set it): here, refusing such a model made `workload.overrides.env`
 * useless for switching a base provider on.
 */
function enabledIds(entries: unknown, bash: boolean): string[] {
  if (!Array.isArray(entries)) return [];
  const literal: string[] = [];
  const switched: string[] = [];
  for (const entry of entries) {
    const id = isPlainObject(entry) ? entry.provider_id : undefined;
    if (typeof id !== 'string' || id === '') continue;
    if (!id.includes('${')) {
      literal.push(id);
      continue;
    }
    const [whole] = placeholdersIn(id, bash);
    // Only an id that is one placeholder giving a literal id: what else it could be is unknown.
    if (whole && whole.raw === id && whole.op !== '' && whole.text !== '' && !whole.text.includes('$')) switched.push(whole.text);
  }
  // The ones always on first: a message listing them offers those before the switched ones.
  return [...literal, ...switched];
}

/** Two references that would share an env var name are an error: one would silently win. */
function checkEnvNames(env: readonly SecretEnv[], problems: FieldProblem[]): void {
  for (const { entry, earlier } of envNameClashes(env, false)) {
    problems.push({
      path: entry.path,
      message:
        `would use the env var ${clip(entry.name)}, which already carries the secret of ${code(formatFieldPath(earlier.path))}; ` +
        'rename a provider id or settings key so the names differ',
    });
  }
}
