// config.yaml against its release's own JSON Schemas (issue 16; docs/config-generation.md "never write a key the
// target release does not read"): the run-config schema section by section, and each provider's
// `config` against its type's schema, both from configs/catalog/schemas.json. A key the release
// does not define, a wrong type, a missing required field and a value outside an enum are found
// here; what no schema can say (references, dependencies, env vars) stays with the startup rules.
//
// Validator: @cfworker/json-schema, which interprets a schema. ajv compiles each one with
// `new Function` at run time (~70 ms for one release's run-config schema, more than the start-up
// budget of BENCHMARKS.md) and its precompiled code for the catalog is 2 MB. cfworker's `validate`
// is called with one lookup of every `$defs` entry (schemaLookup) rather than a `Validator` per
// schema key: each `new Validator` walks the whole catalog (10–20 ms). One validation of a whole
// config costs ~1 ms, too much for 1,000 LLSDs in 2 s (BENCHMARKS.md), so: a section deep-equal to
// one seen at the same place before (the configs of many LLSDs share most of their base config)
// takes its findings; else one with the same JSON text; else it is resolved and checked, by the
// fast check of release-schema-fast.ts first, by cfworker only when that is not sure it is valid.
//
// Pure: the config is read, never changed. Placeholders are resolved first, as the release's
// `replace_env_vars` would (configs/release-notes.yaml `envSubstitution`), where their value is known:
// a variable the container does not set takes its `:=` default or `:+` emptiness; one it sets, or
// a bare `${env.X}`, keeps the string, which the schemas accept wherever a scalar is expected.
import { Verbatim } from '../lib/exact-integer.js';
import { placeholdersIn } from './placeholders.js';
import { asPodEnv, type PodEnv } from './pod-env.js';
import { validate, type OutputUnit, type Schema } from '@cfworker/json-schema';
import { providerSpec, serverRelease } from '../catalog/catalog.js';
import { commaListKeys, substitutionOf, type Substitution } from '../catalog/schemas.js';
import type { WarningCode } from '../krm/result.js';
import { formatFieldPath } from '../krm/item.js';
import { clonePlain, isPlainObject, setOwn } from '../lib/objects.js';
import { clip, code, listOf } from '../lib/quote.js';
import { surelyValid } from './release-schema-fast.js';
import { defNode, explainAll, lookup, refNode, unknownKey, type Found, type Labels, type Segment } from './release-schema-explain.js';
import { releaseName } from '../catalog/versions.js';

export interface SchemaContext {
  /** The release named in messages (the plan's release). */
  release: string;
  /** The catalog release whose schemas answer for it. */
  catalogRelease: string;
  /** The container's env (pod-env.ts); a set of names: those are set (values unknown), no other. */
  containerEnv: PodEnv | ReadonlySet<string>;
  /**
   * `override`: the user's overrideConfig, where a key the server ignores is a warning (it still
   * starts); `generated`: ours, where every finding is an error.
   */
  source: 'generated' | 'override';
}

export interface SchemaProblem {
  severity: 'error' | 'warning';
  /** Config path, e.g. `providers.inference[0].config.max_tokens`. */
  path: string;
  message: string;
  /** A warning's class (docs/warnings.md). */
  code?: WarningCode;
  /** `unknown`: a key the release does not read (the server ignores it); `invalid`: a value it refuses. */
  kind: Found['kind'];
  /** The variables the finding hangs on: unset in the pod, or perhaps set (`env-conditional`). */
  envVars?: readonly string[];
}



// ---------------------------------------------------------------------------------------------
// What the check remembers between calls: a run renders the configs of many LLSDs (1,000 in 2 s,
// BENCHMARKS.md), which share most of their sections. Every entry is keyed by all a finding
// depends on (releases, labels, env names, the value), so a remembered answer is the one computing
// it again would give; the maps that grow with the input are bounded.

interface SchemaMemo {
  /** What checking one provider type's config needs, by release, catalog release, API and type (bounded by the catalog). */
  providerChecks: Map<string, ProviderCheck | undefined>;
  /** Findings by section (schema, labels, env names), then by value as written (memoKey); emptied past SECTIONS_LIMIT values. */
  sections: Map<string, Map<string, Found[]>>;
  sectionCount: number;
  /**
   * By place (release, env names and top-level key), the latest few values seen there, the most
   * recently matched first (SEEN_PER_PLACE); at most PLACES places, emptied when full.
   */
  places: Map<string, Seen[]>;
  /** The same by provider list (release, env names, API), one list of values per index in it. */
  listPlaces: Map<string, Seen[][]>;
  /** Places visited once: a place keeps copies from its second visit. */
  visited: WeakSet<Seen[]>;
}

const memo: SchemaMemo = {
  providerChecks: new Map(),
  sections: new Map(),
  sectionCount: 0,
  places: new Map(),
  listPlaces: new Map(),
  visited: new WeakSet(),
};
const SECTIONS_LIMIT = 20_000;

export function checkReleaseSchema(config: unknown, context: SchemaContext): SchemaProblem[] {
  const runKey = serverRelease(context.catalogRelease)?.runConfigSchema;
  const root = runKey === undefined ? undefined : defNode(runKey);
  // Not a mapping: the startup rules say so (config-shape).
  if (!root || runKey === undefined || !isPlainObject(config)) return [];
  const sub = substitutionOf(context.catalogRelease);
  const env = asPodEnv(context.containerEnv);
  const properties = (root.properties ?? {}) as Record<string, Schema>;
  // Where a value sits: findings of the same value at the same place are kept (see remembered).
  const place = `${context.release}\t${context.catalogRelease}\t${env.key}`;
  const found: Found[] = [];
  for (const [key, raw] of Object.entries(config)) {
    if (!Object.hasOwn(properties, key)) {
      found.push(unknownKey([key], Object.keys(properties), 'a top-level setting', context.release));
    } else if (key === 'providers' && isPlainObject(raw)) {
      found.push(...providerProblems(raw, properties.providers as Schema, context, sub, env, place));
    } else {
      found.push(
        ...remembered(seenAt(`${place}\t${key}`), raw, () => {
          const labels: Labels = { release: context.release, setting: `a ${code(key)} setting`, owner: `${releaseName(context.release)}`, secrets: noSecrets };
          return section(`${runKey}/${key}`, properties[key] as Schema, raw, [key], labels, sub, env);
        }),
      );
    }
  }
  for (const key of (root.required ?? []) as string[]) {
    if (Object.hasOwn(config, key)) continue;
    const message = `is missing: ${releaseName(context.release)} has no default for it, so the server rejects the config at startup`;
    found.push({ path: [key], kind: 'invalid', message });
  }
  return found.map((f): SchemaProblem => {
    const envVars = f.maybe ?? f.unset;
    const finding = { path: formatFieldPath(f.path), message: f.message, kind: f.kind, ...(envVars && { envVars }) };
    if (context.source === 'override' && f.kind === 'unknown') return { severity: 'warning', code: 'unknown-config-key', ...finding };
    if (f.maybe !== undefined) return { severity: 'warning', code: 'env-conditional', ...finding };
    return { severity: 'error', ...finding };
  });
}

// ---------------------------------------------------------------------------------------------
// Providers: each entry (without its config) against the entry schema, its config against its type's

function providerProblems(
  providers: Record<string, unknown>,
  providersNode: Schema,
  context: SchemaContext,
  sub: Substitution,
  env: Env,
  place: string,
): Found[] {
  const entryNode = (providersNode.additionalProperties as Schema | undefined)?.items as Schema | undefined;
  const entryKey = `${runKeyOf(context)}/providers/entry`;
  const entryLabels: Labels = { release: context.release, setting: 'a key of a provider entry', owner: `${releaseName(context.release)}`, secrets: noSecrets };
  const found: Found[] = [];
  for (const [api, entries] of Object.entries(providers)) {
    // Not a list: the startup rules say so (config-shape).
    if (!Array.isArray(entries)) continue;
    // Each entry (its config with it) by its place: one deep comparison for an entry as before.
    const places = seenInList(`${place}\t${api}`);
    entries.forEach((entry: unknown, index) => {
      const compute = (): Found[] => entryProblems(api, entry, index, entryNode, entryKey, entryLabels, context, sub, env);
      found.push(...remembered((places[index] ??= []), entry, compute));
    });
  }
  return found;
}

/** The findings of one provider entry and its config, paths from the config's top. */
function entryProblems(
  api: string,
  entry: unknown,
  index: number,
  entryNode: Schema | undefined,
  entryKey: string,
  entryLabels: Labels,
  context: SchemaContext,
  sub: Substitution,
  env: Env,
): Found[] {
  if (!isPlainObject(entry) || droppedProvider(entry.provider_id, sub, env)) return [];
  const found: Found[] = [];
  const path: Segment[] = ['providers', api, index];
  // A provider switched on by `${env.X:+id}` runs only when X is set: judge its config so.
  const switched = withSwitches(entry.provider_id, env);
  if (entryNode) {
    const { config, ...rest } = entry;
    const shell = config === undefined ? rest : { ...rest, config: isPlainObject(config) ? {} : config };
    found.push(...section(entryKey, entryNode, shell, path, entryLabels, sub, switched));
  }
  // External providers bring their own config class; unknown types are the provider-types rule's.
  const external = typeof entry.module === 'string' && entry.module !== '';
  // An entry without `config` gets the server's default, `{}` (a release whose Provider requires the
  // key says so above): its provider's required keys are still missing.
  const providerConfig = entry.config === undefined || entry.config === null ? {} : entry.config;
  if (external || typeof entry.provider_type !== 'string' || !isPlainObject(providerConfig)) return found;
  const checked = providerCheck(context, api, entry.provider_type);
  if (checked) found.push(...section(checked.schemaKey, checked.node, providerConfig, [...path, 'config'], checked.labels, sub, switched, checked.split));
  return withSwitchNote(found, entry.provider_id, env);
}

/**
 * A finding in a provider that the pod's env switches on (`${env.ENABLE_S3:+s3}` with ENABLE_S3
 * set) says so: any non-empty value switches it on, `"false"` too, which a user turning it off
 * with "false" would not guess. (New objects: `section`'s findings are shared through its memo.)
 */
function withSwitchNote(found: Found[], id: unknown, env: Env): Found[] {
  if (found.length === 0 || typeof id !== 'string') return found;
  const on = [...new Set(placeholdersIn(id).filter((p) => p.op === ':+' && env.has(p.name)).map((p) => p.name))];
  if (on.length === 0) return found;
  const names = listOf(on.map((name) => clip(name)));
  const note =
    ` (this provider is on because the pod sets ${names}: any non-empty value switches it on, "false" too; ` +
    `leave ${names} unset or empty to switch it off)`;
  return found.map((f) => ({ ...f, message: `${f.message}${note}` }));
}

interface ProviderCheck {
  schemaKey: string;
  node: Schema;
  labels: Labels;
  split: readonly string[];
}

/** What checking one provider type's config needs, once per type; undefined when the release has no such type. */
function providerCheck(context: SchemaContext, api: string, type: string): ProviderCheck | undefined {
  const key = `${context.release}\t${context.catalogRelease}\t${api}\t${type}`;
  if (memo.providerChecks.has(key)) return memo.providerChecks.get(key);
  const spec = providerSpec(context.catalogRelease, api, type);
  const node = spec ? defNode(spec.schema) : undefined;
  const checked = spec && node
    ? {
        schemaKey: spec.schema,
        node,
        labels: { release: context.release, setting: `a ${clip(type)} setting`, owner: clip(type), secrets: new Set(spec.secretFields ?? []) },
        split: commaListKeys(context.catalogRelease, api, type),
      }
    : undefined;
  memo.providerChecks.set(key, checked);
  return checked;
}

/**
 * provider_id null, empty or `__disabled__` in the pod (`${env.ENABLE_S3:+s3}` with ENABLE_S3
 * unset): the server skips the provider and never reads its config. One switched by a variable that
 * may or may not be set is judged as on (withSwitches).
 */
function droppedProvider(id: unknown, sub: Substitution, env: Env): boolean {
  if (id === null || id === '' || id === '__disabled__') return true;
  if (typeof id !== 'string' || !id.includes('${')) return false;
  const resolved = resolveString(id, sub, env);
  return resolved === null || resolved === '' || resolved === '__disabled__';
}

/** The pod's env (pod-env.ts): memoized results are keyed by `key`. */
type Env = PodEnv;

/** A provider switched on by `${env.X:+id}` with X possibly set is judged as it runs: with X set (its value unknown). */
function withSwitches(id: unknown, env: Env): Env {
  if (typeof id !== 'string') return env;
  const switches = placeholdersIn(id).filter((p) => p.op === ':+' && env.maybe(p.name)).map((p) => p.name);
  if (switches.length === 0) return env;
  const on = (name: string): boolean => switches.includes(name);
  return {
    has: (name) => env.has(name) || on(name),
    maybe: (name) => !on(name) && env.maybe(name),
    value: (name) => (on(name) ? undefined : env.value(name)),
    key: `${env.key}+${switches.join(',')}`,
    unknownSources: env.unknownSources,
  };
}

// ---------------------------------------------------------------------------------------------
// One section: resolved, validated (memoized), explained

const noSecrets: ReadonlySet<string> = new Set();

function section(
  schemaKey: string,
  node: Schema,
  raw: unknown,
  base: Segment[],
  labels: Labels,
  sub: Substitution,
  env: Env,
  commaLists: readonly string[] = [],
): Found[] {
  // Keyed by the section as written: a hit skips resolving and validating (sections of many LLSDs
  // that are not where they were in an earlier one); what the value resolves to depends only on
  // the env names.
  const scope = `${labels.release}\t${labels.setting}\t${schemaKey}\t${env.key}`;
  let byValue = memo.sections.get(scope);
  if (!byValue) {
    byValue = new Map();
    memo.sections.set(scope, byValue);
  }
  const json = memoKey(raw);
  let relative = byValue.get(json);
  if (relative === undefined) {
    relative = findings(node, raw, base, labels, sub, env, commaLists);
    if (++memo.sectionCount > SECTIONS_LIMIT) {
      memo.sections.clear();
      memo.sectionCount = 0;
    }
    byValue.set(json, relative);
  }
  return relative.length === 0 ? [] : relative.map((f) => ({ ...f, path: [...base, ...f.path] }));
}

// ---------------------------------------------------------------------------------------------
// Values seen before at the same place: the configs of many LLSDs repeat their base config's
// sections and provider lists, and a deep comparison with a kept copy costs a fraction of the
// JSON text of a section (≈170 sections an LLSD, ~20 MB of text for 1,000 LLSDs).

interface Seen {
  /** A copy: the caller's config may change after the check. */
  value: unknown;
  found: Found[];
}
const SEEN_PER_PLACE = 4;
const PLACES = 2_000;

/** The entry of `place` in a bounded map (emptied when it grows large), made on first use. */
function entryOf<T>(map: Map<string, T[]>, place: string): T[] {
  let seen = map.get(place);
  if (!seen) {
    if (map.size >= PLACES) map.clear();
    seen = [];
    map.set(place, seen);
  }
  return seen;
}
const seenAt = (place: string): Seen[] => entryOf(memo.places, place);
const seenInList = (place: string): Seen[][] => entryOf(memo.listPlaces, place);

/** The findings kept for a value deep-equal to one seen at this place, else `compute()`'s, kept there. */
function remembered(seen: Seen[], value: unknown, compute: () => Found[]): Found[] {
  for (let i = 0; i < seen.length; i++) {
    const hit = seen[i] as Seen;
    if (!sameData(hit.value, value)) continue;
    if (i > 0) seen.unshift(...seen.splice(i, 1));
    return hit.found;
  }
  const found = compute();
  // A place is kept from its second visit: one config (a KRM run for one LLSD) copies nothing.
  if (seen.length === 0 && !memo.visited.has(seen)) {
    memo.visited.add(seen);
    return found;
  }
  seen.unshift({ value: clonePlain(value), found });
  if (seen.length > SEEN_PER_PLACE) seen.pop();
  return found;
}

/**
 * The same plain data, keys in the same order (findings follow key order). Anything else (a
 * Date, NaN) is never the same: its findings are computed again, so an answer here is never wrong.
 */
function sameData(a: unknown, b: unknown): boolean {
  if (a === b && (typeof a !== 'object' || a === null)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameData(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b) || !isData(a) || !isData(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  for (let i = 0; i < keysA.length; i++) {
    const key = keysA[i] as string;
    if (key !== keysB[i] || !sameData((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}

/** A mapping or list of plain data (a YAML 1.1 timestamp, binary or set is not). */
function isData(value: object): boolean {
  if (Array.isArray(value)) return true;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** The findings in one section, relative to it. */
function findings(node: Schema, raw: unknown, base: Segment[], labels: Labels, sub: Substitution, env: Env, commaLists: readonly string[]): Found[] {
  const dropped: Segment[][] = [];
  const value = splitAtCommas(resolve(raw, base, sub, env, dropped), commaLists);
  const checked = infinitiesAsNaN(value);
  // Most sections are valid: the fast check says so for most (release-schema-fast.ts), cfworker's
  // first pass, which stops at the first error, for the rest; only an invalid one is validated
  // again for all its errors.
  if (surelyValid(checked, node, refNode) || validate(checked, node, '2020-12', lookup, true).valid) return [];
  let errors = validate(checked, node, '2020-12', lookup, false).errors;
  const lax = laxRead(checked, node, errors);
  if (lax !== undefined) {
    errors = validate(lax, node, '2020-12', lookup, false).errors;
    if (errors.length === 0) return [];
  }
  const found = explainAll(node, lax ?? value, errors, labels);
  const kept = dropped.length === 0 ? found : found.filter((f) => !dropped.some((d) => d.slice(base.length).every((s, i) => f.path[i] === s)));
  return kept.map((f) => asInThePod(f, raw, labels, sub, env));
}

// Pydantic's lax mode, which the server's models use: a string where a field wants a number or a
// boolean is read as one when it spells one (`version: "2"`, as the OGX operator writes it; a
// port "8321"; "yes"); a boolean where it wants a number is 0 or 1 (a substituted "true" for a
// port), and a number 0 or 1 where it wants a boolean is one. JSON Schema has no such reading, so
// a value at a type error is tried as each value it stands for, and kept where that clears the
// error. Numbers and booleans are never read as strings (pydantic's str is strict about them).
const LAX_BOOLEANS: Readonly<Record<string, boolean>> = {
  '0': false, off: false, f: false, false: false, n: false, no: false,
  '1': true, on: true, t: true, true: true, y: true, yes: true,
};
const LAX_INT = /^[+-]?\d+(?:_\d+)*$/;
const LAX_FLOAT = /^[+-]?(?:\d+(?:_\d+)*)?\.?\d+(?:_\d+)*(?:[eE][+-]?\d+)?$|^[+-]?\d+\.$/;
const LAX_LOCATIONS = 50;

/** What pydantic's lax mode may read `value` as, when a field wants a number or a boolean. */
function laxValues(value: unknown): unknown[] {
  if (typeof value === 'boolean') return [value ? 1 : 0];
  if (typeof value === 'number') return value === 0 || value === 1 ? [value === 1] : [];
  if (typeof value !== 'string') return [];
  const t = value.trim();
  const out: unknown[] = [];
  if (LAX_INT.test(t) || LAX_FLOAT.test(t)) out.push(Number(t.replace(/_/g, '')));
  // Own keys only: `constructor` would find Object's (a function, which the validator throws on).
  const flag = Object.hasOwn(LAX_BOOLEANS, t.toLowerCase()) ? LAX_BOOLEANS[t.toLowerCase()] : undefined;
  if (flag !== undefined) out.push(flag);
  return out;
}

/** `value` with the strings at type errors read as pydantic's lax mode reads them, or undefined when none is. */
function laxRead(value: unknown, node: Schema, errors: readonly OutputUnit[]): unknown {
  const locations = [...new Set(errors.filter((e) => e.keyword === 'type').map((e) => e.instanceLocation))].slice(0, LAX_LOCATIONS);
  let out: unknown;
  for (const location of locations) {
    const path = pointerPath(location);
    for (const candidate of laxValues(path.reduce<unknown>(childAt, out ?? value))) {
      const tried = withValueAt(out ?? value, path, candidate);
      const stillWrong = validate(tried, node, '2020-12', lookup, false).errors.some((e) => e.keyword === 'type' && e.instanceLocation === location);
      if (!stillWrong) {
        out = tried;
        break;
      }
    }
  }
  return out;
}

const childAt = (here: unknown, key: string): unknown =>
  Array.isArray(here) ? here[Number(key)] : isPlainObject(here) && Object.hasOwn(here, key) ? here[key] : undefined;

/** cfworker's instance location (`#/providers/0/port`, keys escaped and URI-encoded) as a path. */
function pointerPath(location: string): string[] {
  if (location === '#') return [];
  return location
    .slice(2)
    .split('/')
    .map((part) => decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** A copy of `root` with `replacement` at `path` (list indexes as strings, as pointers have them). */
function withValueAt(root: unknown, path: readonly string[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(root)) {
    const copy = [...root];
    copy[Number(head)] = withValueAt(root[Number(head)], rest, replacement);
    return copy;
  }
  if (!isPlainObject(root) || head === undefined) return root;
  const copy = { ...root };
  setOwn(copy, head, withValueAt(root[head], rest, replacement));
  return copy;
}

/**
 * A finding at a value that comes from placeholders, told as the pod makes it: one that hangs on a
 * variable that may or may not be set is marked (a warning); a value the pod's env leaves empty
 * names the variables and where to set them, not just "must be a string, not null".
 */
function asInThePod(found: Found, raw: unknown, labels: Labels, sub: Substitution, env: Env): Found {
  const text = valueAt(raw, found.path);
  if (typeof text !== 'string' || !text.includes('${')) return found;
  const placeholders = placeholdersIn(text);
  const maybe = [...new Set(placeholders.filter((p) => env.maybe(p.name)).map((p) => p.name))];
  if (maybe.length > 0) {
    const names = listOf(maybe.map((name) => clip(name)));
    const which = maybe.length > 1 ? 'are' : 'is';
    const message =
      `hangs on ${names}, which the pod may or may not set (an optional reference, or env from something not in the input): ` +
      `while ${names} ${which} unset or empty, ${found.message}; make the reference required, or set ${names} in \`spec.workload.overrides.env\``;
    return { ...found, maybe, message };
  }
  if (resolveString(text, sub, env) !== null) return found;
  const unset = [...new Set(placeholders.filter((p) => !env.has(p.name) || env.value(p.name) === '').map((p) => p.name))];
  if (unset.length === 0) return found;
  const key = found.path[found.path.length - 1];
  // A credential's placeholder is not quoted: its default may be the secret.
  const shown = typeof key === 'string' && labels.secrets.has(key) ? 'its placeholder' : code(text);
  const names = listOf(unset.map((name) => clip(name)));
  const message =
    `is empty in the pod: ${shown} comes to nothing while ${names} ${unset.length > 1 ? 'are' : 'is'} unset or empty, and ${found.message}; ` +
    `set ${names} in \`spec.workload.overrides.env\` (name: ${clip(unset[0] as string)}, value: …)`;
  return { ...found, message, unset };
}

/** The value at `path` under `root`, or undefined. */
function valueAt(root: unknown, path: readonly Segment[]): unknown {
  let at = root;
  for (const segment of path) {
    if (Array.isArray(at) && typeof segment === 'number') at = at[segment];
    else if (isPlainObject(at) && typeof segment === 'string' && Object.hasOwn(at, segment)) at = at[segment];
    else return undefined;
  }
  return at;
}

/**
 * `value` with ±Infinity (YAML `.inf`) as NaN, for cfworker, which takes infinity for an integer
 * (`Infinity % 1` is NaN, so not a remainder): the server's int fields refuse it, its float fields
 * take both. NaN fails `integer` and passes `number` there, as the server does. Unchanged (the same
 * object) when there is none.
 */
function infinitiesAsNaN(value: unknown): unknown {
  if (typeof value === 'number') return Number.isFinite(value) || Number.isNaN(value) ? value : Number.NaN;
  // An integer beyond 2^53, kept as written (B1), is the integer it is to the schema (Python's int is exact).
  if (value instanceof Verbatim) return Number(value.text);
  if (Array.isArray(value)) {
    const items = value.map(infinitiesAsNaN);
    return items.every((item, i) => item === value[i]) ? value : items;
  }
  if (!isPlainObject(value)) return value;
  let out: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    const changed = infinitiesAsNaN(item);
    if (changed === item) continue;
    out ??= { ...value };
    setOwn(out, key, changed);
  }
  return out ?? value;
}

/** A before-validator's split of `a,b` into a list; a string still holding a placeholder is one unknown item. */
function splitAtCommas(value: unknown, keys: readonly string[]): unknown {
  if (keys.length === 0 || !isPlainObject(value)) return value;
  const out = { ...value };
  for (const key of keys) {
    const text = out[key];
    if (typeof text === 'string') out[key] = text.includes('${env.') ? [text] : text.split(',').map((s) => s.trim());
  }
  return out;
}

/**
 * The memo's key of a value: its JSON text, where JSON writes NaN and ±Infinity as `null` too; a
 * text with `null` in it is made again with those told apart (rare: a replacer costs every value).
 */
function memoKey(raw: unknown): string {
  const json = JSON.stringify(raw) ?? 'undefined';
  if (!json.includes('null')) return json;
  return JSON.stringify(raw, (_, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? `\u0000${String(v)}` : v));
}


// ---------------------------------------------------------------------------------------------
// Placeholders, resolved as the release would where the value is known

/**
 * The value the server validates, or the string itself when a variable's value is unknown (set from
 * a Secret, or a bare `${env.X}`, whose absence the startup rules report). A variable that may or
 * may not be set takes its default here: what depends on it is told apart in `findings`.
 */
function resolveString(text: string, sub: Substitution, env: Env): unknown {
  const placeholders = placeholdersIn(text);
  if (placeholders.length === 0) return sub.convertsEveryString ? converted(text) : text;
  let out = '';
  let last = 0;
  for (const p of placeholders) {
    const set = env.has(p.name);
    const value = set ? env.value(p.name) : '';
    // `:+` needs only that the variable is set (a Secret's key: set, its value unseen, taken as non-empty).
    if (value === undefined && p.op === ':+') {
      out += text.slice(last, p.index) + p.text;
      last = p.index + p.raw.length;
      continue;
    }
    if (value === undefined || (p.op === '' && value === '')) return text;
    const empty = value === '';
    out += text.slice(last, p.index) + (p.op === ':=' ? (empty ? p.text : value) : p.op === ':+' ? (empty ? '' : p.text) : value);
    last = p.index + p.raw.length;
  }
  return converted(out + text.slice(last));
}

// Python's int() / float() on a substituted string (`_convert_string_to_proper_type`).
const INT = /^\s*[+-]?\d+(?:_\d+)*\s*$/;
const FLOAT = /^\s*[+-]?(?:(?:\d+(?:_\d+)*)?\.?\d+(?:_\d+)*(?:[eE][+-]?\d+)?|\d+\.|inf(?:inity)?|nan)\s*$/i;

function converted(text: string): unknown {
  if (text === '') return null;
  const lower = text.toLowerCase();
  if (lower === 'true' || lower === 'false') return lower === 'true';
  if (INT.test(text) || FLOAT.test(text)) {
    const t = text.trim().replace(/_/g, '').toLowerCase().replace(/^([+-]?)inf(inity)?$/, '$1Infinity');
    return t.endsWith('nan') ? Number.NaN : Number(t);
  }
  return text;
}

/** `raw` as the server validates it; list entries it drops before validating are recorded in `dropped`. */
function resolve(raw: unknown, path: Segment[], sub: Substitution, env: Env, dropped: Segment[][]): unknown {
  if (typeof raw === 'string') return resolveString(raw, sub, env);
  if (Array.isArray(raw)) {
    return raw.map((item: unknown, i) => {
      if (isPlainObject(item) && droppedEntry(item, sub, env)) dropped.push([...path, i]);
      return resolve(item, [...path, i], sub, env, dropped);
    });
  }
  if (!isPlainObject(raw)) return raw;
  if (sub.authTypeEmptyDisables && path.length === 3 && path[0] === 'server' && path[1] === 'auth' && path[2] === 'provider_config') {
    const type = typeof raw.type === 'string' ? resolveString(raw.type, sub, env) : raw.type;
    if (type === null || type === '') return null;
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) out[key] = resolve(value, [...path, key], sub, env, dropped);
  return out;
}

function droppedEntry(item: Record<string, unknown>, sub: Substitution, env: Env): boolean {
  if (typeof item.provider_id === 'string' && !sub.convertsEveryString && resolveString(item.provider_id, sub, env) === '__disabled__') return true;
  return sub.droppedWhenEmpty.some((field) => {
    const id = item[field];
    if (typeof id !== 'string') return false;
    const value = resolveString(id, sub, env);
    return value === null || value === '';
  });
}

const runKeyOf = (context: SchemaContext): string => serverRelease(context.catalogRelease)?.runConfigSchema ?? '';
