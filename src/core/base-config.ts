// The config.yaml a plan starts from, for both front ends: a catalog release's base, a ConfigMap's
// key in the input (an LLSD's overrideConfig, an OGXServer's baseConfig or overrideConfig), or the
// config in an image's labels; each parsed as the server parses it (YAML 1.1). What a missing or
// broken one is called stays with each front end: these return why, never a message.
import type { CatalogRelease } from '../catalog/distributions.js';
import type { Inventory } from '../krm/inventory.js';
import { parseYaml11 } from '../krm/yaml.js';
import { isPlainObject } from '../lib/objects.js';

type Obj = Record<string, unknown>;

/** A config.yaml text as the server parses it. `detail`: why it is no mapping, as ` (line 3: …)`, or '' when it parses to something else. */
export type ParsedConfig = { ok: true; value: Obj } | { ok: false; detail: string };

export function parseConfigYaml(text: string): ParsedConfig {
  const parsed = parseYaml11(text);
  if (!parsed.problem && isPlainObject(parsed.value)) return { ok: true, value: parsed.value };
  return { ok: false, detail: parsed.problem ? ` (line ${parsed.problem.line ?? '?'}: ${parsed.problem.message})` : '' };
}

/** A catalog release's base config (the shipped ones parsed on first use; shared: never changed). One that does not parse is a bug. */
export function catalogBase(pinned: CatalogRelease): Obj {
  if ('value' in pinned.config) return pinned.config.value;
  const parsed = parseConfigYaml(pinned.config.text);
  if (!parsed.ok) throw new Error(`${pinned.source} does not parse`);
  return parsed.value;
}

/**
 * The config.yaml under `key` of the ConfigMap `name` of `namespace` in the input, parsed; or what
 * is missing (the ConfigMap, or the key: then the keys it has, sorted), or why it is no mapping.
 */
export type ConfigMapConfig =
  | { ok: true; text: string; value: Obj }
  | { ok: false; missing: 'configMap' }
  | { ok: false; missing: 'key'; keys: string[] }
  | { ok: false; missing?: undefined; detail: string };

export function configMapConfig(inventory: Inventory, namespace: string | undefined, name: string, key: string): ConfigMapConfig {
  const configMap = inventory.find('', 'ConfigMap', namespace, name);
  if (!configMap) return { ok: false, missing: 'configMap' };
  const data = (configMap.object.data ?? {}) as Obj;
  const text = Object.hasOwn(data, key) ? data[key] : undefined;
  if (typeof text !== 'string') return { ok: false, missing: 'key', keys: Object.keys(data).sort() };
  const parsed = parseConfigYaml(text);
  return parsed.ok ? { ok: true, text, value: parsed.value } : parsed;
}

/**
 * The OGX operator's check of a base config (an OGXServer's): without `version` it refuses it. The
 * message is upstream's words, then what to do.
 */
export function baseVersionProblem(base: Obj): string | undefined {
  const version = base.version;
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a label value read from YAML: a scalar; any other value is refused before this
  if (version !== undefined && version !== null && String(version) !== '') return undefined;
  return "failed to validate base config: missing required 'version' field; the base config.yaml must start with `version: 2`";
}
