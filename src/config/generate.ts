// Generate config.yaml: the distribution's base config with the CR laid over it (DESIGN §5).
import { createHash } from 'node:crypto';
import { isError, type FieldProblem } from '../api/issues.js';
import { formatFieldPath } from '../krm/item.js';
import { stringifyPlainYaml } from '../krm/yaml.js';
import { clonePlain, isPlainObject, setOwn } from '../lib/objects.js';
import { clip, code } from '../lib/quote.js';
import type { Plan } from '../plan/plan.js';
import { applyDisabled } from './disabled.js';
import { mergeExternalProviders } from './external-providers.js';
import { buildProvider, findBaseEntry, overlay, seedFromSameType, resolveProviderType, type ConfigProvider } from './providers.js';
import { refuseRemovedApis } from './removed-apis.js';
import { mergeById, mergeModels, registerModels, registerShields, registerTools, resourceList, setResourceList, settleDefaultShield } from './resources.js';
import type { SecretEnv } from './secrets.js';
import { applyServerSettings, checkOverrideServerSettings, checkScaling } from './server-settings.js';
import { applyStorage } from './storage.js';

export interface GeneratedConfig {
  /** config.yaml as written to the ConfigMap. */
  text: string;
  /** `text` as the server parses it (YAML 1.1), for the startup check; not to be changed. */
  value: Record<string, unknown>;
  /** sha256 of `text`, hex. */
  hash: string;
  /** Env vars the container needs for the secret placeholders, in the order they appear. */
  env: SecretEnv[];
  /** Providers the LLSD configures, and all provider entries of the config (the base's included). */
  providerCount: { fromLlsd: number; total: number };
  modelCount: number;
  /** `spec.overrideConfig`: the user's ConfigMap holds `text`; no ConfigMap is generated. */
  fromConfigMap?: string;
}

export type GenerateOutcome =
  | { ok: true; config: GeneratedConfig; problems: FieldProblem[] }
  | { ok: false; problems: FieldProblem[] };

export function generateConfig(plan: Plan): GenerateOutcome {
  if (plan.overrideConfig) {
    const { configMapName, text, value: parsed } = plan.overrideConfig;
    const problems = [...checkOverrideServerSettings(parsed, plan, configMapName), ...checkScaling(parsed, plan)];
    if (problems.some(isError)) return { ok: false, problems };
    return {
      ok: true,
      config: { text, value: parsed, hash: sha256(text), env: [], providerCount: { fromLlsd: 0, total: 0 }, modelCount: 0, fromConfigMap: configMapName },
      problems,
    };
  }
  const problems: FieldProblem[] = [];
  if (refuseRemovedApis(plan, problems)) return { ok: false, problems };
  const config = clonePlain(plan.baseConfig);
  const providers = isPlainObject(config.providers) ? config.providers : {};
  setOwn(config, 'providers', providers);
  const env: SecretEnv[] = [];

  for (const provider of plan.llsd.providers) {
    const resolved = resolveProviderType(provider, plan.release);
    if (!resolved.ok) {
      problems.push(resolved.problem);
      continue;
    }
    const built = buildProvider(provider, resolved.row, plan.release, plan.profile, problems);
    const entries = (Array.isArray(providers[built.api]) ? providers[built.api] : []) as ConfigProvider[];
    const at = findBaseEntry(entries, provider.id);
    if (at >= 0) entries[at] = overlay(entries[at], built.entry);
    else entries.push(seedFromSameType(entries, built.entry, resolved.row));
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
  const models = registerModels(plan.llsd.models, crIds('inference')[0], enabledIds(providers.inference), problems);
  if (models.length > 0) setResourceList(config, profile, 'models', mergeModels(resourceList(config, profile, 'models'), models));

  const resources = plan.llsd.spec.resources;
  if (resources?.shields) {
    const shields = registerShields({ config, profile, shields: resources.shields, crProviders: crIds('safety'), disabled: disabled.has('safety') }, problems);
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

  // Spec 001: external providers are laid over the generated config last (FR-090–FR-092).
  const external = mergeExternalProviders(config, plan.llsd, problems);

  problems.push(...checkScaling(config, plan));
  if (problems.some(isError)) return { ok: false, problems };
  const text = stringifyPlainYaml(config);
  const hash = sha256(text);
  return {
    ok: true,
    config: {
      text,
      // What stringifyPlainYaml writes reads back as this under YAML 1.1 (test/unit/config.test.ts).
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

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** A provider for an API the base does not serve adds the API to `apis` (when the base lists them). */
function addApi(config: Record<string, unknown>, api: string): void {
  const apis = config.apis;
  if (Array.isArray(apis) && apis.length > 0 && !apis.includes(api)) apis.push(api);
}

/** Provider ids the server will certainly have: literal ids, not ones switched by an env var. */
function enabledIds(entries: unknown): string[] {
  if (!Array.isArray(entries)) return [];
  return entries
    .map((e) => (isPlainObject(e) ? e.provider_id : undefined))
    .filter((id): id is string => typeof id === 'string' && id !== '' && !id.includes('${'));
}

/** Two references that would share an env var name are an error: one would silently win. */
function checkEnvNames(env: readonly SecretEnv[], problems: FieldProblem[]): void {
  const seen = new Map<string, SecretEnv>();
  for (const entry of env) {
    const earlier = seen.get(entry.name);
    if (earlier) {
      problems.push({
        path: entry.path,
        message: `would use the env var ${clip(entry.name)}, which already carries the secret of ${code(formatFieldPath(earlier.path))}; rename a provider id or settings key so the names differ`,
      });
    } else {
      seen.set(entry.name, entry);
    }
  }
}
