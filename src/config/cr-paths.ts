// Where in the LLSD a problem of the generated config.yaml comes from, so its result points at
// the field (and file line) the user wrote: a provider entry the CR added or laid over is its
// `spec.providers.<api>` entry, and a key its `settings` wrote is that setting.
import type { FieldProblem } from '../api/issues.js';
import { providerApis } from '../api/llsd-v1alpha2.js';
import { isPlainObject } from '../lib/objects.js';
import type { Plan } from '../plan/plan.js';

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
