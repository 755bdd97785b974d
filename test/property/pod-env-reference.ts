// A small, independent reference of how OGX reads a config.yaml in a pod (no code from src/):
// substitute the env as the server does (server-catalog <release>/env-substitution.md), drop what
// the substitution switches off, and check what is left against the release's JSON schemas
// (stack-config.schema.json; providers.json `config_schema`) for required fields and types only,
// with pydantic's lax coercions. Its verdict is the sorted list of config paths with a problem.
// Left out on purpose (the property compares only required/type problems): formats, enums, consts,
// minimums, unknown provider types, cross references (a model's provider, storage backends, API
// dependencies), `~` expansion, and `${env.X}` without a default (no base here uses it).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = { [key: string]: unknown };

/** A value the render cannot know: a key of a Secret (set, not empty, opaque). */
export const OPAQUE = Symbol('opaque');
type Value = Json | typeof OPAQUE | Value[] | { [key: string]: Value };

/** The pod's env: a variable's value, or OPAQUE for one from a Secret; absent means unset. */
export type PodEnv = Readonly<Record<string, string | typeof OPAQUE>>;

const reference = join(import.meta.dirname, '..', 'fixtures', 'server-schemas');
const schemasOf = (release: string) => ({
  stack: JSON.parse(readFileSync(join(reference, release, 'stack-config.schema.json'), 'utf8')) as Schema,
  providers: JSON.parse(readFileSync(join(reference, release, 'providers.json'), 'utf8')) as Record<string, Record<string, { config_schema: Schema }>>,
});

const PLACEHOLDER = /\$\{env\.([A-Z0-9_]+)(?::([=+])([^}]*))?\}/g;
const INT = /^\s*[+-]?\d+(_\d+)*\s*$/;
const FLOAT = /^\s*[+-]?((\d+(_\d+)*)?\.?\d+([eE][+-]?\d+)?|inf|infinity|nan)\s*$/i;

/** One string as `replace_env_vars` leaves it: substituted, then typed when anything changed. */
function substitute(text: string, env: PodEnv): Value {
  let changed = false;
  let opaque = false;
  const out = text.replace(PLACEHOLDER, (_all, name: string, op: string | undefined, arg: string | undefined) => {
    changed = true;
    const v = env[name];
    const set = v !== undefined && v !== '';
    if (op === '+') return set ? (arg ?? '') : '';
    if (!set) return arg ?? '';
    if (v === OPAQUE) {
      opaque = true;
      return '';
    }
    return v;
  });
  if (opaque) return OPAQUE;
  if (!changed) return text;
  if (out === '') return null;
  if (/^(true|false)$/i.test(out)) return out.toLowerCase() === 'true';
  if (INT.test(out)) return Number(out.replace(/_/g, ''));
  if (FLOAT.test(out)) return Number(out);
  return out;
}

function substituteAll(value: Value, env: PodEnv): Value {
  if (typeof value === 'string') return substitute(value, env);
  if (Array.isArray(value)) return value.map((v) => substituteAll(v, env));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substituteAll(v, env)]));
  return value;
}

const isObject = (v: Value): v is { [key: string]: Value } => v !== null && typeof v === 'object' && !Array.isArray(v);
const off = (id: Value): boolean => id === null || id === '' || id === '__disabled__';

/** pydantic's lax mode: which JSON-schema type a value passes as. An opaque value passes as any. */
function typeOk(type: string, v: Value): boolean {
  if (v === OPAQUE) return true;
  switch (type) {
    case 'string':
      return typeof v === 'string';
    case 'integer':
      return (typeof v === 'number' && Number.isInteger(v)) || typeof v === 'boolean' || (typeof v === 'string' && INT.test(v));
    case 'number':
      return typeof v === 'number' || typeof v === 'boolean' || (typeof v === 'string' && FLOAT.test(v));
    case 'boolean':
      return typeof v === 'boolean' || v === 0 || v === 1 || (typeof v === 'string' && /^(true|false|yes|no|on|off|1|0|t|f|y|n)$/i.test(v));
    case 'null':
      return v === null;
    case 'object':
      return isObject(v);
    case 'array':
      return Array.isArray(v);
    default:
      return true;
  }
}

/** The problems of `v` against `schema`: the paths with a missing required field or a wrong type. */
function check(schema: Schema, v: Value, path: string, root: Schema): string[] {
  const ref = schema.$ref as string | undefined;
  if (ref) return check((root.$defs as Record<string, Schema>)[ref.replace('#/$defs/', '')] ?? {}, v, path, root);
  const branches = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (branches) {
    const discriminator = schema.discriminator as { propertyName: string; mapping: Record<string, string> } | undefined;
    if (discriminator && isObject(v)) {
      const tag = v[discriminator.propertyName];
      const target = typeof tag === 'string' ? discriminator.mapping[tag] : undefined;
      return target ? check({ $ref: target }, v, path, root) : [path];
    }
    const results = branches.map((b) => check(b, v, path, root));
    if (results.some((r) => r.length === 0)) return [];
    // Say where inside the one branch of the value's own shape (an object, a list) it goes wrong.
    const shaped = branches.filter((b) => shallowType(b, root) === shapeOf(v));
    return shaped.length === 1 && shapeOf(v) !== 'scalar' ? check(shaped[0] as Schema, v, path, root) : [path];
  }
  if (typeof schema.type === 'string' && !typeOk(schema.type, v)) return [path];
  const problems: string[] = [];
  if (isObject(v)) {
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    for (const key of (schema.required ?? []) as string[]) if (!(key in v)) problems.push(`${path}.${key}`);
    for (const [key, child] of Object.entries(v)) {
      const sub = properties[key] ?? (typeof schema.additionalProperties === 'object' ? (schema.additionalProperties as Schema) : undefined);
      if (sub) problems.push(...check(sub, child, `${path}.${key}`, root));
    }
  }
  const items = schema.items as Schema | undefined;
  if (Array.isArray(v) && typeof items === 'object') v.forEach((item, i) => problems.push(...check(items, item, `${path}[${i}]`, root)));
  return problems;
}

const shapeOf = (v: Value): string => (Array.isArray(v) ? 'array' : isObject(v) ? 'object' : 'scalar');
function shallowType(schema: Schema, root: Schema): string {
  const ref = schema.$ref as string | undefined;
  if (ref) return shallowType((root.$defs as Record<string, Schema>)[ref.replace('#/$defs/', '')] ?? {}, root);
  if (schema.type === 'object' || schema.properties || schema.oneOf) return 'object';
  return schema.type === 'array' ? 'array' : 'scalar';
}

/**
 * The config paths OGX `release` refuses (required or type) when the pod with `env` reads `base`:
 * sorted. Paths count providers and models by their place in the base's lists.
 */
export function referenceVerdict(base: Json, env: PodEnv, release: string): string[] {
  const { stack, providers: catalog } = schemasOf(release);
  const config = structuredClone(base) as { [key: string]: Value };
  // provider_id first: `__disabled__` drops the entry before anything else of it is substituted.
  const enabled: Array<{ api: string; index: number; type: string; config: Value }> = [];
  const providers = isObject(config.providers ?? null) ? (config.providers as Record<string, Value[]>) : {};
  for (const [api, list] of Object.entries(providers)) {
    if (!Array.isArray(list)) continue;
    list.forEach((entry, index) => {
      if (!isObject(entry)) return;
      const id = substituteAll(entry.provider_id ?? null, env);
      if (off(id)) return; // the resolver skips a provider without an id: its config is never validated
      enabled.push({ api, index, type: typeof entry.provider_type === 'string' ? entry.provider_type : '', config: substituteAll(entry.config ?? {}, env) });
    });
  }
  const rest = substituteAll(Object.fromEntries(Object.entries(config).filter(([k]) => k !== 'providers')), env) as { [key: string]: Value };
  // A registered resource whose id comes to nothing is dropped from its list.
  const resources = rest.registered_resources ?? null;
  if (isObject(resources)) {
    for (const [kind, list] of Object.entries(resources)) {
      if (!Array.isArray(list)) continue;
      resources[kind] = list.filter((item) => !isObject(item) || !['model_id', 'vector_store_id'].some((k) => k in item && off(item[k] ?? null)));
    }
  }
  // server.auth whose provider type comes to nothing: auth off.
  const auth = isObject(rest.server ?? null) ? ((rest.server as { [key: string]: Value }).auth ?? null) : null;
  const providerConfig = isObject(auth) ? (auth.provider_config ?? null) : null;
  if (isObject(auth) && isObject(providerConfig) && off(providerConfig.type ?? null)) auth.provider_config = null;
  // OGX 1.x migrates a KV-form prompts or connectors store ({backend, namespace}) to its SQL form
  // before validating (`_migrate_kv_to_sql`: kv_ → sql_; server-catalog changes.md, 0.8.0 → 1.0.0).
  const stores = isObject(rest.storage ?? null) ? ((rest.storage as { [key: string]: Value }).stores ?? null) : null;
  if (isObject(stores)) {
    for (const key of ['prompts', 'connectors']) {
      const store = stores[key] ?? null;
      if (isObject(store) && 'namespace' in store && !('table_name' in store)) {
        stores[key] = { backend: typeof store.backend === 'string' ? store.backend.replace(/^kv_/, 'sql_') : (store.backend ?? null), table_name: key };
      }
    }
  }
  const kept = { ...rest, providers: Object.fromEntries(Object.keys(providers).map((api) => [api, [] as Value[]])) };
  const problems = check(stack, kept, '', stack).map((p) => p.replace(/^\./, ''));
  for (const p of enabled) {
    const schema = catalog[p.api]?.[p.type]?.config_schema;
    if (schema) problems.push(...check(schema, p.config, `providers.${p.api}[${p.index}].config`, schema));
  }
  return [...new Set(problems)].sort();
}
