// The settings of a config.yaml that name a vector_io provider by its id (configs/startup-facts.yaml
// `resources.vectorProviderSettings`: `vector_stores.default_provider_id`, a provider's
// `vector_stores_config.default_provider_id` and `memory_config.default_vector_store_provider_id`).
// Both generators point them at the CR's first vector_io provider when the CR's vector providers
// replace the base's (an OGXServer) or join them (an LLSD); the startup rules check that each names
// an enabled provider.
import { startupFacts } from '../catalog/startup-facts.js';
import { isPlainObject } from '../lib/objects.js';
import { clip, code, listOf, quote } from '../lib/quote.js';

type Path = Array<string | number>;

/** One setting present in the config: where it is and the id it names (a string, or whatever was written). */
export interface VectorProviderSetting {
  path: Path;
  value: unknown;
  /** What fails when it names no provider of the config. */
  why: string;
  /** A run-config key whose presence replaces this setting at startup. */
  replacedBy?: string | undefined;
  /** The provider entry it sits in (`providers.<api>[i]`), undefined for a run-config setting. */
  provider?: { api: string; index: number };
}

/** The value at `path` under `node`, or undefined. */
function at(node: unknown, path: readonly string[]): unknown {
  let value = node;
  for (const step of path) value = isPlainObject(value) && Object.hasOwn(value, step) ? value[step] : undefined;
  return value;
}

/** Every setting of `config` that names a vector_io provider and is written (not null), in the order of the facts, then providers. */
export function vectorProviderSettings(config: Readonly<Record<string, unknown>>): VectorProviderSetting[] {
  const { runConfig, provider } = startupFacts().resources.vectorProviderSettings;
  const out: VectorProviderSetting[] = [];
  for (const { path, why } of runConfig) {
    const value = at(config, path);
    if (value !== undefined && value !== null) out.push({ path: [...path], value, why });
  }
  const providers = isPlainObject(config.providers) ? config.providers : {};
  for (const [api, list] of Object.entries(providers)) {
    if (!Array.isArray(list)) continue;
    list.forEach((entry: unknown, index) => {
      if (!isPlainObject(entry)) return;
      for (const { path, why, replacedBy } of provider) {
        const value = at(entry.config, path);
        if (value === undefined || value === null) continue;
        out.push({ path: ['providers', api, index, 'config', ...path], value, why, replacedBy, provider: { api, index } });
      }
    });
  }
  return out;
}

/**
 * Points every vector_io provider setting of `config` that names none of `keep` at `target`, in
 * place, except those `leave` says the CR wrote itself; returns what it changed (the path and the
 * id it named before).
 */
export function pointVectorSettingsAt(
  config: Record<string, unknown>,
  target: string,
  keep: ReadonlySet<string>,
  leave: (setting: VectorProviderSetting) => boolean = () => false,
): VectorProviderSetting[] {
  const changed = vectorProviderSettings(config).filter((s) => !(typeof s.value === 'string' && keep.has(s.value)) && !leave(s));
  for (const setting of changed) {
    let node: unknown = config;
    for (const step of setting.path.slice(0, -1)) node = (node as Record<string | number, unknown>)[step];
    (node as Record<string, unknown>)[setting.path.at(-1) as string] = target;
  }
  return changed;
}

/** `a.b[0].c` for a setting's path, as results name config keys. */
const settingName = (path: readonly (string | number)[]): string =>
  path.map((step, i) => (typeof step === 'number' ? `[${step}]` : i === 0 ? step : `.${step}`)).join('');

/** "`vector_stores.default_provider_id` (was "faiss") and …" for the settings a generator changed, for its info result. */
export function namedBefore(changed: readonly VectorProviderSetting[]): string {
  const each = changed.map((s) => `${code(settingName(s.path))} (was ${typeof s.value === 'string' ? quote(s.value) : clip(JSON.stringify(s.value))})`);
  return listOf(each, { each: (x) => x, last: 'and' });
}
