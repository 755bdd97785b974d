// Where in the CR (an LLSD or an OGXServer) a problem of the generated config.yaml comes from, so
// its result points at the field (and file line) the user wrote: a provider entry the CR added or
// laid over is its `spec.providers` entry, and a key its `settings` wrote is that setting.
import type { FieldProblem } from './lib/issues.js';
import { providerApis } from './llsd/llsd-v1alpha2.js';
import { isPlainObject } from './lib/objects.js';
import type { Plan } from './llsd/plan.js';
import type { OgxServerSpec } from './ogx/ogxserver.js';
import { ogxProviderIds } from './ogx/rules.js';

const PROVIDER_PATH = /^providers\.([a-z_]+)\[(\d+)\](?:\.config\.([^.[]+))?/;

/** The LLSD field a config.yaml path (`providers.inference[2].config.max_tokenz`) comes from, or [] when the LLSD did not write it. */
export function crFieldOf(configPath: string, plan: Plan, config: Record<string, unknown>): FieldProblem['path'] {
  const match = PROVIDER_PATH.exec(configPath);
  if (!match) return [];
  const [, api, index, key] = match as unknown as [string, string, string, string | undefined];
  const entries = isPlainObject(config.providers) ? config.providers[api] : undefined;
  const entry = Array.isArray(entries) ? entries[Number(index)] : undefined;
  if (!isPlainObject(entry)) return [];
  const provider = plan.llsd.providers.find((p) => providerApis[p.api] === api && p.id === entry.provider_id);
  if (!provider) return [];
  const settings = provider.settings;
  return key !== undefined && isPlainObject(settings) && Object.hasOwn(settings, key) ? [...provider.path, 'settings', key] : provider.path;
}

/**
 * The OGXServer field behind a path of its generated config.yaml: a provider entry's id leads to the
 * provider that wrote it (a key of its `settings` when that wrote the key), the models to
 * `resources.models`, storage to `storage`; [] (the item) for what the base config holds.
 */
export function ogxFieldOf(configPath: string, spec: Pick<OgxServerSpec, 'providers' | 'resources' | 'storage'>, config: Record<string, unknown>): FieldProblem['path'] {
  const match = PROVIDER_PATH.exec(configPath);
  if (match) {
    const [, api, index, key] = match as unknown as [string, string, string, string | undefined];
    const entries = isPlainObject(config.providers) ? config.providers[api] : undefined;
    const entry = Array.isArray(entries) ? entries[Number(index)] : undefined;
    const provider = isPlainObject(entry) ? ogxProviderIds(spec).find((p) => p.api === api && p.id === entry.provider_id) : undefined;
    if (!provider) return [];
    const settings = provider.entry.settings;
    return key !== undefined && isPlainObject(settings) && Object.hasOwn(settings, key) ? [...provider.path, 'settings', key] : provider.path;
  }
  const model = /^registered_resources\.models\[(\d+)\](\.model_type)?/.exec(configPath);
  if (model && spec.resources?.models) {
    if (Number(model[1]) >= spec.resources.models.length) return ['spec', 'resources', 'models'];
    return ['spec', 'resources', 'models', Number(model[1]), ...(model[2] ? ['modelType'] : [])];
  }
  // The base's own models: a problem with them comes from the inference providers that replaced the base's.
  if (model && spec.providers?.inference) return ['spec', 'providers', 'inference'];
  if (configPath === 'server.port') return ['spec', 'network', 'port'];
  if (/^storage\b/.test(configPath) && spec.storage) return ['spec', 'storage'];
  return [];
}
