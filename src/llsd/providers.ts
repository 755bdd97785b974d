// CR providers → config.yaml provider entries, laid over the base config by provider id (docs/config-generation.md).
import type { FieldProblem } from '../lib/issues.js';
import { closest } from '../lib/issues.js';
import { isCredentialName, shownUrl, urlCredential } from '../lib/url-credentials.js';
import type { ProviderEntry } from './llsd.js';
import { providerApis } from './llsd-v1alpha2.js';
import {
  providerFields,
  providerRegistry,
  providerSpec,
  providerTable,
  schemaOf,
  serverRelease,
  type ProviderFields,
  type ProviderRow,
  type ProviderSpec,
  type ReleaseProfile,
} from '../catalog/catalog.js';
import type { Plan } from './plan.js';
import { envName, isSecretLeaf, placeholder, selectorOf, type SecretEnv } from '../core/secrets.js';
import { formatFieldPath } from '../krm/item.js';
import { deepMerge, isPlainObject, setOwn } from '../lib/objects.js';
import { clip, code, listOf, quote } from '../lib/quote.js';
import { releaseName } from '../catalog/versions.js';

/** One entry of `providers.<api>` in config.yaml. */
export interface ConfigProvider {
  provider_id: string | null;
  provider_type: string;
  config?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface BuiltProvider {
  api: string;
  entry: ConfigProvider;
  env: SecretEnv[];
}

// ---------------------------------------------------------------------------------------------
// Provider types and their keys, from the catalog release's registry

/** A CR provider's type as the target release's registry has it. */
export interface ResolvedType {
  /** llama-stack API name (`vector_io`). */
  api: string;
  type: string;
  spec: ProviderSpec;
  /** The config keys the type reads in the catalog release. */
  fields: ProviderFields;
  /** llsd-render's key choices for the type (configs/providers.yaml); undefined when it has none. */
  choice: ProviderRow | undefined;
}

/** Single-value credentials, most common first, for literal-credential checks in `settings`. */
const credentialKeys = ['api_key', 'api_token', 'token', 'access_token', 'password'];
/** Keys that look like credentials, for messages when the release marks none as secret. */
const credentialLike = (key: string): boolean => /(key|token|password|secret)/.test(key) && !/^(allowed|refresh|max)_/.test(key);

export interface ProviderKeys {
  /** Config key of `endpoint` in this release, or null when the provider has none. */
  urlKey: string | null;
  /** Config key of `apiKey` in this release, or null when the provider has none. */
  credentialKey: string | null;
  /** Credential keys of the release when `credentialKey` is null, for the message. */
  otherCredentials: string[];
}

/**
 * The URL and credential keys of a provider type in its release (docs/config-generation.md): the first of
 * llsd-render's candidates (configs/providers.yaml) that the release's own config schema has. A
 * release with none of them gets null, so the CR field is an error instead of a key the server
 * would refuse or ignore.
 */
export function providerKeys(resolved: ResolvedType): ProviderKeys {
  const has = (key: string): boolean => resolved.fields.keys.includes(key);
  const urlKey = resolved.choice?.urlKeys?.find(has) ?? null;
  const credentialKey = resolved.choice?.credentialKeys?.find(has) ?? null;
  const secrets = resolved.spec.secretFields ?? resolved.fields.keys.filter(credentialLike);
  const otherCredentials = credentialKey === null ? [...new Set(secrets)].sort() : [];
  return { urlKey, credentialKey, otherCredentials };
}

/** llsd-render's key choices for a provider type, if configs/providers.yaml has any. */
const choiceFor = (api: string, type: string): ProviderRow | undefined => providerTable().find((row) => row.api === api && row.type === type);

/**
 * `vllm` → `remote::vllm` when the release's registry has it for the API, else `inline::vllm`;
 * `remote::x` / `inline::x` as written. The registry is the catalog release's, so every type the
 * release has is accepted, including ones with a second `::` (`remote::hf::endpoint`, or
 * `hf::endpoint` for short).
 */
export function resolveProviderType(
  provider: ProviderEntry,
  plan: Pick<Plan, 'release' | 'catalogRelease'>,
): { ok: true; resolved: ResolvedType } | { ok: false; problem: FieldProblem } {
  const api = providerApis[provider.api];
  const registry = providerRegistry(plan.catalogRelease)[api] ?? {};
  const wanted = /^(remote|inline)::/.test(provider.provider) ? [provider.provider] : [`remote::${provider.provider}`, `inline::${provider.provider}`];
  for (const type of wanted) {
    const spec = providerSpec(plan.catalogRelease, api, type);
    const fields = providerFields(plan.catalogRelease, api, type);
    if (spec && fields) return { ok: true, resolved: { api, type, spec, fields, choice: choiceFor(api, type) } };
  }
  const shortNames = [...new Set(Object.keys(registry).map(shortName))].sort();
  const near = closest(shortName(provider.provider), shortNames);
  const valid = shortNames.length > 0 ? `Valid ${api} providers: ${listOf(shortNames)}.` : `${releaseName(plan.release)} has no ${api} providers.`;
  return {
    ok: false,
    problem: {
      path: [...provider.path, 'provider'],
      message: `${quote(provider.provider)} is not ${/^[aeiou]/.test(api) ? 'an' : 'a'} ${api} provider in ` +
        `${releaseName(plan.release)}.${near ? ` Did you mean "${near}"?` : ''} ${valid}`,
    },
  };
}

const shortName = (type: string): string => type.replace(/^(remote|inline)::/, '');

/** Builds the config.yaml entry for one CR provider. */
export function buildProvider(
  provider: ProviderEntry,
  resolved: ResolvedType,
  plan: Pick<Plan, 'release' | 'profile'>,
  problems: FieldProblem[],
): BuiltProvider {
  const { release, profile } = plan;
  const { type, choice } = resolved;
  const keys = providerKeys(resolved);
  const config: Record<string, unknown> = {};
  const env: SecretEnv[] = [];
  /** Which CR field wrote each config key: two fields writing one key would silently overwrite. */
  const writtenBy = new Map<string, string>();
  const write = (key: string, value: unknown, path: Array<string | number>): void => {
    const earlier = writtenBy.get(key);
    if (earlier !== undefined) {
      problems.push({ path, message: `writes the config key ${clip(key)}, which ${code(earlier)} already writes; remove one of them` });
      return;
    }
    writtenBy.set(key, formatFieldPath(path.slice(provider.path.length)));
    setOwn(config, key, value);
  };
  const secret = (field: string[], ref: { name: string; key: string }, path: Array<string | number>): string => {
    const name = envName(provider.id, ...field);
    env.push({ name, secretName: ref.name, key: ref.key, path });
    return placeholder(name);
  };
  if (provider.settings) {
    problems.push(
      ...literalCredentials(provider.settings, [...provider.path, 'settings'], credentialKeysOf(resolved, keys), keys.credentialKey, resolved.fields.keys),
    );
    for (const [key, value] of Object.entries(settingsWithSecrets(provider.settings, [...provider.path, 'settings'], [], secret))) {
      write(key, value, [...provider.path, 'settings', key]);
    }
  }
  if (provider.endpoint !== undefined) {
    const path = [...provider.path, 'endpoint'];
    const inUrl = urlCredential(provider.endpoint);
    if (inUrl) problems.push({ path, message: urlPasswordMessage(inUrl, keys.credentialKey !== null) });
    if (!keys.urlKey) {
      const when = choice?.urlKeys ? ` in ${releaseName(release)}` : '';
      problems.push({
        path,
        message: `cannot be set for ${type}: it has no URL setting${when}; remove \`endpoint\` or pass the provider's own keys in \`settings\``,
      });
    } else {
      write(keys.urlKey, completeEndpoint(provider, resolved.api, keys.urlKey, profile, problems), path);
    }
  }
  if (provider.apiKey !== undefined) {
    const path = [...provider.path, 'apiKey'];
    if (!keys.credentialKey) {
      const when = choice?.credentialKeys ? ` in ${releaseName(release)}` : '';
      const own = keys.otherCredentials.length > 0 ? ` (${listOf(keys.otherCredentials)})` : '';
      problems.push({
        path,
        message: `cannot be set for ${type}: it takes no API key${when}; remove \`apiKey\` or use \`secretRefs\` with the provider's own keys${own}`,
      });
    } else {
      write(keys.credentialKey, secret(['API_KEY'], selectorOf(provider.apiKey), path), path);
    }
  }
  if (provider.host !== undefined) {
    const path = [...provider.path, 'host'];
    if (!choice?.connectionKeys?.includes('host') || !resolved.fields.keys.includes('host')) {
      const instead = keys.urlKey ? "give the server's URL in `endpoint`" : "pass the provider's own keys in `settings`";
      problems.push({ path, message: `cannot be set for ${type}: it has no host setting; remove \`host\` and ${instead}` });
    } else {
      write('host', typeof provider.host === 'string' ? provider.host : secret(['HOST'], provider.host.secretKeyRef, path), path);
    }
  }
  for (const [key, ref] of Object.entries(provider.secretRefs ?? {})) {
    const path = [...provider.path, 'secretRefs', key];
    write(key, secret([key], selectorOf(ref), path), path);
  }
  const entry: ConfigProvider = { provider_id: provider.id, provider_type: type };
  if (Object.keys(config).length > 0) entry.config = config;
  return { api: resolved.api, entry, env };
}

/**
 * Config keys of a provider that hold one secret value: llsd-render's credential candidates, the
 * keys the release marks as secrets (its `SecretStr` fields), and the common names of single
 * secrets (a key of another release written in `settings` is still a credential).
 */
function credentialKeysOf(resolved: ResolvedType, keys: ProviderKeys): Set<string> {
  const own = [...(resolved.choice?.credentialKeys ?? []), ...(keys.credentialKey === null ? [] : [keys.credentialKey])];
  return new Set([...own, ...credentialKeys, ...(resolved.spec.secretFields ?? [])]);
}

/**
 * A credential written as a value in `settings`, or a URL with a password anywhere in it, would be
 * in the ConfigMap for anyone who can read it, as a literal `apiKey` would (which the schema
 * refuses): the same error, with the way to take it from a Secret. Values are never quoted.
 */
function literalCredentials(
  settings: Record<string, unknown>,
  path: Array<string | number>,
  secretKeys: Set<string>,
  credentialKey: string | null,
  configKeys: readonly string[],
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const walk = (value: unknown, at: Array<string | number>): void => {
    if (Array.isArray(value)) return value.forEach((child, i) => walk(child, [...at, i]));
    const inUrl = urlCredential(value);
    if (inUrl) problems.push({ path: at, message: urlPasswordMessage(inUrl, credentialKey !== null) });
    if (!isPlainObject(value) || isSecretLeaf(value)) return;
    const topLevel = at.length === path.length;
    for (const [key, child] of Object.entries(value)) {
      if (isCredentialKey(key, secretKeys) && isLiteral(child)) {
        const unknownInstead = configKeys.includes(key) ? undefined : credentialKey;
        problems.push({ path: [...at, key], message: literalCredentialMessage(key, topLevel, key === credentialKey, unknownInstead) });
      } else walk(child, [...at, key]);
    }
  };
  walk(settings, path);
  return problems;
}

/**
 * A settings key that names a secret: one of the provider's own credential keys, or a name that
 * says so in any case and spelling (`Password`, `client_secret`, `hf_token`, `openai_api_key`,
 * `Authorization`). Plural `tokens` is a count (`max_tokens`), not a credential.
 */
function isCredentialKey(key: string, secretKeys: Set<string>): boolean {
  if (secretKeys.has(key)) return true;
  return isCredentialName(key);
}

/**
 * A value that would reach the ConfigMap as the secret itself: a number, or text that is not just
 * one `${env.X}` placeholder (with no default, or an empty one). A default (`${env.X:=sk-…}`),
 * text around a placeholder, a `:+` value or a name the server does not substitute would all put
 * the credential in the ConfigMap.
 */
const isLiteral = (value: unknown): boolean =>
  (typeof value === 'string' && value !== '' && !/^\$\{env\.[A-Z0-9_]+(?::=)?\}$/.test(value)) || typeof value === 'number';

/**
 * `unknownInstead`: the provider's credential key, when `key` is no setting of the provider (a new
 * user wrote `apikey` for vLLM, whose key is `api_token`; `secretRefs: {apikey: …}` was refused next).
 */
function literalCredentialMessage(key: string, topLevel: boolean, isApiKey: boolean, unknownInstead?: string | null): string {
  const ref = '{name: <secret>, key: <key>}';
  const instead = !topLevel
    ? `write \`{secretKeyRef: ${ref}}\` in its place`
    : isApiKey
      ? `remove it from \`settings\` and write \`apiKey: ${ref}\` (or \`secretRefs: {${key}: ${ref}}\`)`
      : unknownInstead
        ? `remove it from \`settings\` (${clip(key)} is no setting of this provider, whose credential is ${clip(unknownInstead)}) and write \`apiKey: ${ref}\``
        : `remove it from \`settings\` and write \`secretRefs: {${key}: ${ref}}\``;
  return `must reference a Secret, not hold the value: ${key} is a credential, and a value written here would end up in the ConfigMap; ${instead}`;
}

const urlPasswordMessage = (where: 'userinfo' | 'query', takesApiKey: boolean): string =>
  where === 'userinfo'
    ? `must not hold a password: the \`user:password@\` part of a URL would end up in the ConfigMap; remove it from the URL and give the credential from a ` +
      `Secret in ${takesApiKey ? '`apiKey` or ' : ''}\`secretRefs\``
    : `must not hold a credential: a URL query parameter named as one (\`token=\`, \`api_key=\`, …) would end up in the ConfigMap; remove it from the URL ` +
      `and give the credential from a Secret in ${takesApiKey ? '`apiKey` or ' : ''}\`secretRefs\``;

/**
 * Inference `base_url` holds the full URL including `/v1` since llama-stack 0.4.0, and nothing is
 * appended at run time. An endpoint given as a bare host gets `/v1`, with an info result saying so.
 */
function completeEndpoint(provider: ProviderEntry, api: string, urlKey: string, profile: ReleaseProfile, problems: FieldProblem[]): string {
  const endpoint = provider.endpoint as string;
  // base_url is a pydantic HttpUrl: anything but an absolute http(s) URL fails at startup.
  if (urlKey !== 'base_url') return endpoint;
  const url = URL.canParse(endpoint) ? new URL(endpoint) : undefined;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    problems.push({
      path: [...provider.path, 'endpoint'],
      message: `must be an absolute http(s) URL such as "http://vllm:8000/v1", not ${shownUrl(endpoint)}`,
    });
    return endpoint;
  }
  if (api !== 'inference' || !profile.inferenceUrlHasApiPrefix) return endpoint;
  if (url.pathname !== '/' && url.pathname !== '') return endpoint;
  const completed = `${endpoint.replace(/\/$/, '')}/v1`;
  problems.push({
    severity: 'info',
    path: [...provider.path, 'endpoint'],
    message: `wrote base_url ${shownUrl(completed)}: llama-stack reads the full OpenAI-compatible URL including /v1; write the path yourself to choose another`,
  });
  return completed;
}

/** Settings with every `{secretKeyRef: {name, key}}` leaf turned into an env placeholder. */
function settingsWithSecrets(
  value: Record<string, unknown>,
  path: Array<string | number>,
  keys: string[],
  secret: (field: string[], ref: { name: string; key: string }, path: Array<string | number>) => string,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (isSecretLeaf(child)) setOwn(out, key, secret([...keys, key], child.secretKeyRef, [...path, key]));
    else if (isPlainObject(child)) setOwn(out, key, settingsWithSecrets(child, [...path, key], [...keys, key], secret));
    else setOwn(out, key, child);
  }
  return out;
}

/**
 * The base's entry for a CR provider id, or -1. A base entry whose id is the conditional
 * `${env.X:+vllm}` (switched on by an env var) matches `vllm`.
 */
export function findBaseEntry(entries: readonly ConfigProvider[], id: string): number {
  return entries.findIndex((e) => e.provider_id === id || conditionalId(e.provider_id) === id);
}

/** `vllm` for the conditional id `${env.VLLM_URL:+vllm}`, else undefined. */
export const conditionalId = (id: unknown): string | undefined =>
  typeof id === 'string' ? /^\$\{env\.[A-Z0-9_]+:\+([^}]*)\}$/.exec(id)?.[1] : undefined;

/** Lays a built entry over the base entry of its id and type: the base config deep-merged under ours. */
export function overlay(base: ConfigProvider, built: ConfigProvider): ConfigProvider {
  const config = deepMerge(isPlainObject(base.config) ? base.config : {}, built.config ?? {});
  const merged: ConfigProvider = { ...base, provider_id: built.provider_id, provider_type: built.provider_type };
  if (Object.keys(config).length > 0) merged.config = config;
  return merged;
}

/**
 * The entry of a provider the CR adds (no base entry of its id, or one of another type). It starts
 * from the release's own sample config (`sample_run_config`: what the server needs at runtime even
 * where its schema makes a key optional, such as pgvector's `persistence`), takes the storage of a
 * base entry of the same type over the sample's (that entry's backends are the distribution's),
 * and gets the CR's fields laid over both. This replaces copying only the keys without a default
 * from a same-type entry: the sample covers types the base does not have, and a provider of a new
 * type is configured as upstream configures it. A storage location another entry of the API
 * already uses is renamed after the new id, so two providers never share state.
 */
export function newProviderEntry(
  others: readonly ConfigProvider[],
  built: ConfigProvider,
  resolved: ResolvedType,
  plan: Pick<Plan, 'profile' | 'baseConfig' | 'distributionName'>,
): ConfigProvider {
  const sample = sampleConfig(resolved.spec.sample, distributionDir(plan));
  const template = others.find((e) => e.provider_type === built.provider_type && isPlainObject(e.config))?.config;
  const stored = isPlainObject(template) ? storageOf(template, resolved.fields.required) : {};
  const config = deepMerge(deepMerge(sample, stored), built.config ?? {});
  const renamed = withOwnStorage(config, takenLocations(others), String(built.provider_id));
  const entry: ConfigProvider = { provider_id: built.provider_id, provider_type: built.provider_type };
  if (Object.keys(renamed).length > 0) entry.config = renamed;
  return entry;
}

/**
 * The release's sample config for this distribution: `DISTRO` is the distribution directory
 * (`~/.llama/distributions/DISTRO` → the state home of the release profile, as the shipped configs
 * write it), and a value that is a required env var (`${env.X}` with no default) is left out: the
 * container does not set it, so the server would stop; without it the provider's default applies,
 * or the schema check names the key the CR must give.
 */
function sampleConfig(sample: Record<string, unknown>, dir: string): Record<string, unknown> {
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return value.replace(distroPath, dir).replace(/\bDISTRO\b/g, dir.replace(/^.*\//, ''));
    if (Array.isArray(value)) return value.map(walk);
    if (!isPlainObject(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) if (!needsEnv(child)) setOwn(out, key, walk(child));
    return out;
  };
  return walk(sample) as Record<string, unknown>;
}

/** `~/.llama/distributions/DISTRO`, also written doubled by some samples (`~/.llama/~/.llama/distributions/DISTRO`). */
const distroPath = /~\/\.[A-Za-z0-9_-]+\/(?:~\/\.[A-Za-z0-9_-]+\/)?distributions\/DISTRO\b/g;

/** A string with an `${env.X}` that has no default: the server stops when X is unset. */
const needsEnv = (value: unknown): boolean => typeof value === 'string' && /\$\{env\.[A-Z0-9_]+\}/.test(value);

/** `~/<home>/distributions/<name>`: the state directory the release's configs use for this distribution. */
function distributionDir(plan: Pick<Plan, 'profile' | 'baseConfig' | 'distributionName'>): string {
  const named = plan.baseConfig[plan.profile.nameKey];
  const name = typeof named === 'string' && named !== '' && !named.includes('${') ? named : plan.distributionName;
  return `~${plan.profile.image.home}/distributions/${name}`;
}

/** Keys of a same-type entry that say where the provider keeps state, or that the schema requires. */
function storageOf(config: Record<string, unknown>, required: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config)) {
    const storage = isPlainObject(value) ? ['backend', 'namespace', 'db_path', 'table_name'].some((k) => Object.hasOwn(value, k)) : /db_path$/.test(key);
    if (storage || required.includes(key)) setOwn(out, key, value);
  }
  return out;
}

/** Namespaces and database files the other entries of the API use. */
function takenLocations(entries: readonly ConfigProvider[]): Set<string> {
  const taken = new Set<string>();
  const walk = (value: unknown, key: string): void => {
    if (isPlainObject(value)) for (const [k, v] of Object.entries(value)) walk(v, k);
    else if (typeof value === 'string' && isLocationKey(key)) taken.add(value);
  };
  for (const entry of entries) walk(entry.config, '');
  return taken;
}

const isLocationKey = (key: string): boolean => key === 'namespace' || /(^|_)path$/.test(key);

/** A taken namespace gets the id as its last `::` part; a taken `….db` file is named after the id. */
function withOwnStorage(config: Record<string, unknown>, taken: ReadonlySet<string>, id: string): Record<string, unknown> {
  const rename = (value: unknown, key: string): unknown => {
    if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rename(v, k)]));
    if (typeof value !== 'string' || !isLocationKey(key) || !taken.has(value)) return value;
    if (key === 'namespace') return value.includes('::') ? value.replace(/::[^:]*$/, `::${id}`) : `${value}::${id}`;
    return value.replace(/\/[^/]*\.db$/, `/${id}.db`);
  };
  return rename(config, '') as Record<string, unknown>;
}

/**
 * A base entry the CR's provider stands in for: an enabled entry of the same type whose URL is
 * the base's localhost default (`${env.VLLM_URL:=http://localhost:8000/v1}`). Nothing in the pod
 * serves that URL, and a release that contacts the provider at startup (remote-vllm 0.2.14 lists
 * vLLM's models) would not start; a user who declares their vLLM under a new id means that one.
 * Returns its index and that URL, or undefined.
 */
export function defaultUrlEntry(
  entries: readonly ConfigProvider[],
  built: ConfigProvider,
  urlKey: string | null,
  crIds: ReadonlySet<string> = new Set(),
): { index: number; url: string } | undefined {
  if (urlKey === null || built.config?.[urlKey] === undefined) return undefined;
  for (const [index, e] of entries.entries()) {
    if (e.provider_type !== built.provider_type || typeof e.provider_id !== 'string' || e.provider_id === '' || e.provider_id.includes('${')) continue;
    if (crIds.has(e.provider_id)) continue;
    const url = isPlainObject(e.config) ? localDefault(e.config[urlKey]) : undefined;
    if (url !== undefined) return { index, url };
  }
  return undefined;
}

/** The URL of `http://localhost…` (or 127.0.0.1), written as is or as the default of an env placeholder; else undefined. */
function localDefault(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const url = /^\$\{env\.[A-Z0-9_]+:=([^}]*)\}$/.exec(value)?.[1] ?? value;
  return /^https?:\/\/(localhost|127\.0\.0\.1)([:/]|$)/.test(url) ? url : undefined;
}

/**
 * Does the release's run-config schema require `config` in every provider entry (0.2.x's
 * `Provider.config` has no default)? Then an entry with nothing to configure gets `config: {}`.
 */
export function providerConfigRequired(catalogRelease: string): boolean {
  const release = serverRelease(catalogRelease);
  const runConfig = release ? schemaOf(release.runConfigSchema) : undefined;
  const providers = (runConfig?.properties as Record<string, { additionalProperties?: { items?: { $ref?: string } } }> | undefined)?.providers;
  const ref = providers?.additionalProperties?.items?.$ref?.replace('#/$defs/', '');
  const required = ref ? schemaOf(ref)?.required : undefined;
  return Array.isArray(required) && required.includes('config');
}
