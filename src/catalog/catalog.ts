// What llsd-render knows about llama-stack / OGX releases and its own defaults: the data in
// configs/, read through files.ts. The release catalog (configs/catalog/<release>/, imported from
// each release's own code by scripts/import-catalog.mjs) says what a release's server reads; the
// hand-written files say what llsd-render chooses (distributions.yaml, releases.yaml,
// workload.yaml, …). test/unit/embedded-data.test.ts checks every file against its shape in
// schema.ts, so nothing is checked at start-up.
import { configFile, configPaths } from './files.js';
import type {
  DistributionCatalog,
  ExternalProviderSettings,
  OgxObjects,
  OgxDivergences,
  OgxLlsdFields,
  ProviderRow,
  ProviderSpec,
  ReleaseNotes,
  ReleaseProfile,
  ServerRelease,
  ToolGroupTable,
  WorkloadDefaults,
} from './schema.js';
import { compareVersions } from '../lib/compare-versions.js';
import { releaseLine } from '../lib/release-number.js';

export type {
  DistributionCatalog,
  ExternalProviderSettings,
  OgxDivergences,
  OgxLlsdFields,
  OgxObjects,
  ProviderRow,
  ProviderSpec,
  ReleaseNotes,
  ReleaseProfile,
  ServerRelease,
  ToolGroupTable,
  WorkloadDefaults,
};

const file = <T>(path: string): T => {
  const value = configFile(path);
  if (value === undefined) throw new Error(`configs/${path} is not embedded`);
  return value as T;
};

export const distributions = (): DistributionCatalog => file('distributions.yaml');
export const providerTable = (): ProviderRow[] => file('providers.yaml');
export const releaseProfiles = (): ReleaseProfile[] => file('releases.yaml');
export const workloadDefaults = (): WorkloadDefaults => file('workload.yaml');
/** What the OGX operator writes into an OGXServer's objects (read only when rendering one). */
export const ogxObjects = (): OgxObjects => file('ogx-objects.yaml');
export const toolGroupTable = (): ToolGroupTable => file('tool-groups.yaml');
export const externalProviderSettings = (): ExternalProviderSettings => file('external-providers.yaml');
export const releaseNotes = (): ReleaseNotes => file('release-notes.yaml');
/** Where the OGXServer config differs from the OGX operator's, and the data the differences need. */
export const ogxDivergences = (): OgxDivergences => file('ogx-divergences.yaml');
/** LLSD fields and where an OGXServer has them, for "did you mean" (read only when an OGXServer has an unknown field). */
export const ogxLlsdFields = (): OgxLlsdFields => file('ogx-llsd-fields.yaml');

/** The first release of the first profile with `has` (profiles are in release order), for "read from X on" messages. */
export function firstProfileSince(has: (profile: ReleaseProfile) => boolean): string | undefined {
  return [...releaseProfiles()].sort((a, b) => compareVersions(a.since, b.since)).find(has)?.since;
}

/** Paths (under configs/) of every embedded base config a named distribution uses. */
export const baseConfigPaths = (): string[] =>
  [...new Set(Object.values(distributions()).flatMap((d) => Object.values(d.releases).map((r) => r.config)))].sort();

/** A shipped base config (its path under configs/), or undefined when no such file is embedded. */
export const baseConfig = (path: string): unknown => configFile(path);

// ---------------------------------------------------------------------------------------------
// The release catalog

let releases: string[] | undefined;
/** The releases in the catalog, oldest first. */
export function catalogReleases(): string[] {
  releases ??= [...new Set(configPaths('catalog/').map((p) => p.split('/')[1] as string).filter((r) => /^\d+\.\d+\.\d+$/.test(r)))].sort(compareVersions);
  return releases;
}

/** The catalog releases an OGXServer renders against (configs/ogx-divergences.yaml `releases`), oldest first. */
export const ogxServerReleases = (): string[] => catalogReleases().filter((r) => compareVersions(r, ogxDivergences().releases.since) >= 0);

/** The newest release of the catalog, for examples in messages. */
export const newestRelease = (): string => catalogReleases().at(-1) ?? '';

/**
 * The catalog release that answers for `version`: the same release, or the catalog's release of
 * the same major.minor (config schemas do not change in patch releases); undefined when the
 * catalog has neither.
 */
export function catalogReleaseFor(version: string): string | undefined {
  if (catalogReleases().includes(version)) return version;
  const line = releaseLine(version);
  return [...catalogReleases()].reverse().find((r) => releaseLine(r) === line);
}

/**
 * `known`'s value for `key`, read once: the startup rules ask for the same facts (by release, by
 * schema key) thousands of times a render, and a file's path made anew each time (and hashed for
 * the lookup) cost ~2% of 1,000 LLSDs. Declared functions below, so stack traces name them.
 */
function readOnce<T>(known: Map<string, T>, key: string, read: () => T): T {
  if (known.has(key)) return known.get(key) as T;
  const value = read();
  known.set(key, value);
  return value;
}

const serverReleases = new Map<string, ServerRelease | undefined>();
/** The facts of a catalog release (its APIs, its run-config schema); undefined when it is not in the catalog. */
export function serverRelease(release: string): ServerRelease | undefined {
  return readOnce(serverReleases, release, () => configFile(`catalog/${release}/release.yaml`) as ServerRelease | undefined);
}

const registries = new Map<string, Record<string, Record<string, ProviderSpec>>>();
/** The provider registry of a catalog release: API → provider type → spec. */
export function providerRegistry(release: string): Record<string, Record<string, ProviderSpec>> {
  return readOnce(
    registries,
    release,
    () => (configFile(`catalog/${release}/providers.yaml`) as Record<string, Record<string, ProviderSpec>> | undefined) ?? {},
  );
}

/** One provider type of one API in a catalog release, or undefined when the release has no such provider. */
export function providerSpec(release: string, api: string, type: string): ProviderSpec | undefined {
  const types = providerRegistry(release)[api];
  return types && Object.hasOwn(types, type) ? types[type] : undefined;
}

const schemaPrefix = 'catalog/schemas/';

/**
 * The JSON Schema stored under `key` (`<Model>.<hash>`) in configs/catalog/schemas.json, or
 * undefined; a release and its providers name theirs. The build embeds each schema on its own
 * (scripts/embed-yaml.mjs), so a render parses only those it reads.
 */
const schemas = new Map<string, Record<string, unknown> | undefined>();
export function schemaOf(key: string): Record<string, unknown> | undefined {
  return readOnce(schemas, key, () => configFile(`${schemaPrefix}${key}`) as Record<string, unknown> | undefined);
}

/** Every schema of the catalog, by key: all of them parsed (the tests, and tools that walk the catalog). */
export const schemaDefs = (): Record<string, unknown> =>
  Object.fromEntries(configPaths(schemaPrefix).map((path) => [path.slice(schemaPrefix.length), configFile(path)]));

/** The config keys a provider type reads in a catalog release (with their accepted aliases), and those without a default. */
export interface ProviderFields {
  keys: string[];
  required: string[];
}

const fieldsCache = new Map<string, ProviderFields | undefined>();
/** What a provider's config schema says about its top-level keys; undefined when the release has no such provider. */
export function providerFields(release: string, api: string, type: string): ProviderFields | undefined {
  return readOnce(fieldsCache, `${release} ${api} ${type}`, () => {
    const spec = providerSpec(release, api, type);
    const schema = spec ? schemaOf(spec.schema) : undefined;
    return schema
      ? {
          keys: Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {}),
          required: [...((schema.required as string[] | undefined) ?? [])],
        }
      : undefined;
  });
}

/** The APIs a provider type needs in a catalog release (the server stops without them); empty when it has no such provider. */
export const providerDependencies = (release: string, api: string, type: string): string[] => providerSpec(release, api, type)?.dependencies ?? [];

/** The APIs of a catalog release that take providers; empty when it is not in the catalog. */
export const providableApis = (release: string): string[] => serverRelease(release)?.apis.providable ?? [];

/** The catalog releases whose registry has `type` for `api`, oldest first. */
export const releasesWithProvider = (api: string, type: string): string[] => catalogReleases().filter((r) => providerSpec(r, api, type) !== undefined);

/** The catalog releases in which `api` takes providers, oldest first. */
export const releasesWithApi = (api: string): string[] => catalogReleases().filter((r) => providableApis(r).includes(api));

/** Is `release` within a release-notes range (catalog releases, inclusive)? */
export const inRange = (release: string, range: { since: string; through?: string | undefined }): boolean =>
  compareVersions(release, range.since) >= 0 && (range.through === undefined || compareVersions(release, range.through) <= 0);

// ---------------------------------------------------------------------------------------------
// The run-config schema of a catalog release, read for the facts the startup rules need

type SchemaNode = Record<string, unknown>;
const isNode = (value: unknown): value is SchemaNode => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The object schemas `node` may be, through `$ref` and `anyOf`/`oneOf`/`allOf` (the placeholder and
 * null branches the import adds to every optional value are not objects, so they drop out).
 */
function objectsOf(node: unknown, depth = 0): SchemaNode[] {
  if (!isNode(node) || depth > 8) return [];
  if (typeof node.$ref === 'string') return objectsOf(schemaOf(node.$ref.replace('#/$defs/', '')), depth + 1);
  const branches = [node.anyOf, node.oneOf, node.allOf].filter(Array.isArray).flat();
  if (branches.length > 0) return branches.flatMap((b) => objectsOf(b, depth + 1));
  return isNode(node.properties) ? [node] : [];
}

/** The schema of the property `key` of an object `node` may be, or undefined. */
function propertyOf(node: unknown, key: string): unknown {
  for (const object of objectsOf(node)) {
    const properties = object.properties as SchemaNode;
    if (Object.hasOwn(properties, key)) return properties[key];
  }
  return undefined;
}

/** The schema at `path` (keys of nested objects) of a release's run config, or undefined. */
function runConfigNode(release: string, path: readonly string[]): unknown {
  const key = serverRelease(release)?.runConfigSchema;
  let node: unknown = key ? schemaOf(key) : undefined;
  for (const step of path) node = node === undefined ? undefined : propertyOf(node, step);
  return node;
}

const keysCache = new Map<string, readonly string[] | undefined>();
/** The keys the run config reads at `path` (e.g. ['vector_stores']); undefined when the release has no such object. */
export function runConfigKeys(release: string, path: readonly string[]): readonly string[] | undefined {
  return readOnce(keysCache, `${release}\t${path.join('\t')}`, () => {
    const node = runConfigNode(release, path);
    const objects = objectsOf(node);
    return node === undefined || objects.length === 0 ? undefined : [...new Set(objects.flatMap((o) => Object.keys(o.properties as SchemaNode)))];
  });
}

/** A store of `storage.stores`: its family (a KV or an SQL store reference) and the backend it names when omitted. */
export interface StoreSpec {
  name: string;
  family: 'kv' | 'sql';
  /** The backend of the store's default (schema `default`); undefined when an omitted store is off. */
  defaultBackend?: string;
  /** The table of an SQL store's default. */
  defaultTable?: string;
}

const storesCache = new Map<string, StoreSpec[]>();
/** The stores of `storage.stores` in a catalog release; empty when it has no `storage` (the old layout). */
export function runConfigStores(release: string): StoreSpec[] {
  const known = storesCache.get(release);
  if (known) return known;
  const node = runConfigNode(release, ['storage', 'stores']);
  const properties = objectsOf(node)[0]?.properties as SchemaNode | undefined;
  const stores: StoreSpec[] = [];
  for (const [name, schema] of Object.entries(properties ?? {})) {
    const ref = objectsOf(schema)[0]?.properties as SchemaNode | undefined;
    const family = ref && Object.hasOwn(ref, 'namespace') ? 'kv' : 'sql';
    const fallback = isNode(schema) && isNode(schema.default) && typeof schema.default.backend === 'string' ? schema.default.backend : undefined;
    const table = isNode(schema) && isNode(schema.default) && typeof schema.default.table_name === 'string' ? schema.default.table_name : undefined;
    stores.push({ name, family, ...(fallback !== undefined && { defaultBackend: fallback }), ...(table !== undefined && { defaultTable: table }) });
  }
  storesCache.set(release, stores);
  return stores;
}

/** The auth provider types of `server.auth.provider_config` (the `type` consts of its union); empty when the release has none. */
export function authProviderTypes(release: string): string[] {
  const types: string[] = [];
  for (const object of objectsOf(runConfigNode(release, ['server', 'auth', 'provider_config']))) {
    const type = (object.properties as SchemaNode).type;
    for (const branch of [type, ...(isNode(type) && Array.isArray(type.anyOf) ? type.anyOf : [])]) {
      if (isNode(branch) && typeof branch.const === 'string') types.push(branch.const);
    }
  }
  return [...new Set(types)];
}
