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
  ProviderRow,
  ProviderSpec,
  ReleaseProfile,
  ServerRelease,
  ToolGroupTable,
  WorkloadDefaults,
} from './schema.js';
import { compareVersions } from './versions.js';

export type { DistributionCatalog, ExternalProviderSettings, ProviderRow, ProviderSpec, ReleaseProfile, ServerRelease, ToolGroupTable, WorkloadDefaults };

const file = <T>(path: string): T => {
  const value = configFile(path);
  if (value === undefined) throw new Error(`configs/${path} is not embedded`);
  return value as T;
};

export const distributions = (): DistributionCatalog => file('distributions.yaml');
export const providerTable = (): ProviderRow[] => file('providers.yaml');
export const releaseProfiles = (): ReleaseProfile[] => file('releases.yaml');
export const workloadDefaults = (): WorkloadDefaults => file('workload.yaml');
export const toolGroupTable = (): ToolGroupTable => file('tool-groups.yaml');
export const externalProviderSettings = (): ExternalProviderSettings => file('external-providers.yaml');

/** Paths (under configs/) of every embedded base config a named distribution uses. */
export const baseConfigPaths = (): string[] => [...new Set(Object.values(distributions()).flatMap((d) => Object.values(d.releases).map((r) => r.config)))].sort();

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

/**
 * The catalog release that answers for `version`: the same release, or the catalog's release of
 * the same major.minor (config schemas do not change in patch releases); undefined when the
 * catalog has neither.
 */
export function catalogReleaseFor(version: string): string | undefined {
  if (catalogReleases().includes(version)) return version;
  const minor = version.split('.').slice(0, 2).join('.');
  return [...catalogReleases()].reverse().find((r) => r.split('.').slice(0, 2).join('.') === minor);
}

/** The facts of a catalog release (its APIs, its run-config schema); undefined when it is not in the catalog. */
export const serverRelease = (release: string): ServerRelease | undefined => configFile(`catalog/${release}/release.yaml`) as ServerRelease | undefined;

/** The provider registry of a catalog release: API → provider type → spec. */
export const providerRegistry = (release: string): Record<string, Record<string, ProviderSpec>> =>
  (configFile(`catalog/${release}/providers.yaml`) as Record<string, Record<string, ProviderSpec>> | undefined) ?? {};

/** One provider type of one API in a catalog release, or undefined when the release has no such provider. */
export function providerSpec(release: string, api: string, type: string): ProviderSpec | undefined {
  const types = providerRegistry(release)[api];
  return types && Object.hasOwn(types, type) ? types[type] : undefined;
}

/** The JSON Schemas of every catalog release, by key (`<Model>.<hash>`); a release and its providers name theirs. */
export const schemaDefs = (): Record<string, unknown> => (file('catalog/schemas.json') as { $defs: Record<string, unknown> }).$defs;

/** The schema stored under `key` in configs/catalog/schemas.json, or undefined. */
export const schemaOf = (key: string): Record<string, unknown> | undefined => {
  const defs = schemaDefs();
  return Object.hasOwn(defs, key) ? (defs[key] as Record<string, unknown>) : undefined;
};

/** The config keys a provider type reads in a catalog release (with their accepted aliases), and those without a default. */
export interface ProviderFields {
  keys: string[];
  required: string[];
}

const fieldsCache = new Map<string, ProviderFields | undefined>();
/** What a provider's config schema says about its top-level keys; undefined when the release has no such provider. */
export function providerFields(release: string, api: string, type: string): ProviderFields | undefined {
  const cacheKey = `${release} ${api} ${type}`;
  if (fieldsCache.has(cacheKey)) return fieldsCache.get(cacheKey);
  const spec = providerSpec(release, api, type);
  const schema = spec ? schemaOf(spec.schema) : undefined;
  const fields = schema
    ? { keys: Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {}), required: [...((schema.required as string[] | undefined) ?? [])] }
    : undefined;
  fieldsCache.set(cacheKey, fields);
  return fields;
}

/** The APIs a provider type needs in a catalog release (the server stops without them); empty when it has no such provider. */
export const providerDependencies = (release: string, api: string, type: string): string[] => providerSpec(release, api, type)?.dependencies ?? [];
