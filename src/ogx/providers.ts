// OGXServer `spec.providers` → config.yaml provider entries, as the OGX operator expands them
// (pkg/config/provider.go of ogx-ai/ogx-k8s-operator; the typed providers' fields and config keys are
// configs/ogx-providers.yaml). Pure: the spec has passed its schema, so the walk reads it as data;
// what a release rejects is fixed later (generate.ts adaptToRelease). § numbers: generate.ts's.
import type { FieldProblem } from '../lib/issues.js';
import { clonePlain, isPlainObject, setOwn } from '../lib/objects.js';
import { quote } from '../lib/quote.js';
import type { SecretEnv } from '../core/secrets.js';
import { ogxTypedApis, ogxTypedProvidersOf, type OgxTypedField, type OgxTypedProvider } from '../catalog/ogx-providers.js';

type Obj = Record<string, unknown>;
type Path = Array<string | number>;

/** One expanded provider: the 3-key entry upstream writes, where it came from and its CR type. */
export interface OgxProviderEntry {
  api: string;
  entry: { config: Obj; provider_id: string; provider_type: string };
  path: Path;
  /** The CR field (`vllm`, `custom`, …): the divergence rules act on typed providers only. */
  crType: string;
}

export interface OgxExpansion {
  /** config API key → entries, in the operator's fixed type order. */
  providers: Map<string, OgxProviderEntry[]>;
  env: SecretEnv[];
  problems: FieldProblem[];
}

/**
 * The operator's env name of a value (§7): upper case, every run of characters outside A–Z/0–9 one `_`, trimmed; empty
 * becomes `_`, a leading digit gets `_` in front.
 */
export function normEnv(text: string): string {
  const upper = text.toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_+|_+$/g, '');
  if (upper === '') return '_';
  return /^[0-9]/.test(upper) ? `_${upper}` : upper;
}

/** `OGX_<norm(id)>_<field>`: the env var of a provider's secret. */
export const ogxEnvName = (providerId: string, field: string): string => `OGX_${normEnv(providerId)}_${field}`;

const placeholder = (name: string): string => `\${env.${name}}`;

/** Expands `spec.providers` (§4); custom settings and env var collisions are checked here (§4.8, §7.3). */
export function expandOgxProviders(providers: unknown): OgxExpansion {
  const out: OgxExpansion = { providers: new Map(), env: [], problems: [] };
  if (!isPlainObject(providers)) return out;
  for (const { field: crApi, api } of ogxTypedApis()) {
    const block = providers[crApi];
    if (!isPlainObject(block)) continue;
    const entries: OgxProviderEntry[] = [];
    for (const side of ['remote', 'inline'] as const) {
      const group = block[side];
      if (!isPlainObject(group)) continue;
      // The operator's order: the typed providers of the placement, then its `custom` list.
      for (const typed of [...ogxTypedProvidersOf(crApi, side), undefined]) {
        const field = typed?.field ?? 'custom';
        if (group[field] === undefined || group[field] === null) continue;
        const base: Path = ['spec', 'providers', crApi, side, field];
        const items: Array<[unknown, Path]> = typed?.single ? [[group[field], base]] : (group[field] as unknown[]).map((p, i) => [p, [...base, i]]);
        for (const [item, path] of items) {
          if (!isPlainObject(item)) continue;
          const built = typed ? expandTyped(typed, item, path, out) : expandCustom(item, path, out);
          if (built) entries.push({ api, entry: built, path, crType: field });
        }
      }
    }
    // §5: an API whose expansion is empty does not replace the base's list.
    if (entries.length > 0) out.providers.set(api, entries);
  }
  return out;
}

/** A typed provider's config (§4.1–§4.7): each field of the table that is set, under its config key. */
function expandTyped(typed: OgxTypedProvider, p: Obj, path: Path, out: OgxExpansion): OgxProviderEntry['entry'] {
  const id = !typed.single && typeof p.id === 'string' && p.id !== '' ? p.id : typed.id;
  const secret = (ref: SecretRef, key: string, at: Path): string => {
    const name = ogxEnvName(id, key.toUpperCase());
    out.env.push({ name, secretName: ref.name, key: ref.key, path: at });
    return placeholder(name);
  };
  return { config: mapFields(typed.fields, p, path, secret), provider_id: id, provider_type: typed.type };
}

/**
 * The config of `fields` for the CR object `source`: a field that is not set (or null) is left out,
 * an object mapped by its own fields, a secret written as its env placeholder; the rest copied.
 */
function mapFields(fields: readonly OgxTypedField[], source: Obj, path: Path, secret: (ref: SecretRef, key: string, at: Path) => string): Obj {
  const config: Obj = {};
  for (const f of fields) {
    const value = source[f.field];
    if (value === undefined || value === null) continue;
    if (f.kind === 'secret') {
      if (isSecretRef(value)) config[f.key] = secret(value, f.key, [...path, f.field]);
    } else if (f.kind === 'object') {
      if (!isPlainObject(value)) continue;
      const mapped = mapFields(f.fields ?? [], value, [...path, f.field], secret);
      if (!f.omitEmpty || Object.keys(mapped).length > 0) config[f.key] = mapped;
    } else if (!f.omitEmpty || isNonEmpty(value)) config[f.key] = clonePlain(value);
  }
  return config;
}

/** A list or mapping with something in it. */
const isNonEmpty = (value: unknown): boolean => (Array.isArray(value) ? value.length > 0 : isPlainObject(value) && Object.keys(value).length > 0);

/** §4.8: secretRefs then settings; a key in both is an error, settings must be a mapping. */
function expandCustom(p: Obj, path: Path, out: OgxExpansion): OgxProviderEntry['entry'] | undefined {
  const type = String(p.type);
  const id = typeof p.id === 'string' && p.id !== '' ? p.id : type.replaceAll('::', '-');
  const config: Obj = {};
  const refs = isPlainObject(p.secretRefs) ? p.secretRefs : {};
  for (const key of Object.keys(refs).sort()) {
    const ref = refs[key];
    if (!isSecretRef(ref)) continue;
    const name = ogxEnvName(id, normEnv(key));
    setOwn(config, key, placeholder(name));
    out.env.push({ name, secretName: ref.name, key: ref.key, path: [...path, 'secretRefs', key] });
  }
  const settings = p.settings;
  if (settings !== undefined && settings !== null) {
    if (!isPlainObject(settings)) {
      out.problems.push({ path: [...path, 'settings'], message:
        `must be a mapping of config keys to values (the operator fails: failed to unmarshal settings JSON for provider ${quote(id)}); write e.g. ` +
        `\`settings: {base_url: …}\`` });
      return undefined;
    }
    for (const [key, value] of Object.entries(settings)) {
      if (Object.hasOwn(config, key)) {
        out.problems.push({
          path: [...path, 'settings', key],
          message: `is also a key of \`secretRefs\` (the operator fails: key ${quote(key)} appears in both secretRefs and settings); keep it in one of them`,
        });
        continue;
      }
      setOwn(config, key, clonePlain(value));
    }
  }
  return { config, provider_id: id, provider_type: type };
}

type SecretRef = { name: string; key: string };
const isSecretRef = (value: unknown): value is SecretRef => isPlainObject(value) && typeof value.name === 'string' && typeof value.key === 'string';
