// CR providers → config.yaml provider entries, laid over the base config by provider id (DESIGN §5).
import type { FieldProblem } from '../api/issues.js';
import { closest } from '../api/issues.js';
import { isCredentialName, shownUrl, urlCredential } from '../lib/url-credentials.js';
import type { ProviderEntry } from '../api/llsd.js';
import { providerApis } from '../api/llsd-v1alpha2.js';
import { providerTable, type ProviderRow, type ReleaseProfile } from '../catalog/catalog.js';
import { envName, isSecretLeaf, placeholder, selectorOf, type SecretEnv } from './secrets.js';
import { compareVersions } from '../catalog/versions.js';
import { formatFieldPath } from '../krm/item.js';
import { deepMerge, isPlainObject, setOwn } from '../lib/objects.js';
import { clip, code, listOf, quote } from '../lib/quote.js';

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

/**
 * Does this provider type exist in `release`? Judged from the releases the table saw it in: a
 * release between two it was seen in has it. The table's oldest release stands for the releases
 * before it too (0.2.14 has what 0.2.24 has), and a removed provider the table saw in none of its
 * releases (its row was read from its last release) is taken to exist in every release before
 * its removal.
 */
export function existsIn(row: ProviderRow, release: string): boolean {
  if (row.presentIn.includes(release)) return true;
  if (row.removedIn && compareVersions(row.removedIn, release) <= 0) return false;
  if (row.removedIn && row.presentIn.length === 0) return true;
  const seen = [...row.presentIn].sort(compareVersions);
  const oldest = seen[0];
  const newest = seen[seen.length - 1];
  if (oldest === undefined || newest === undefined || compareVersions(release, newest) > 0) return false;
  return compareVersions(oldest, release) <= 0 || oldest === tableReleases()[0];
}

let presentReleases: string[] | undefined;
/** Releases the table was read from, oldest first. */
const tableReleases = (): string[] => (presentReleases ??= [...new Set(providerTable().flatMap((row) => row.presentIn))].sort(compareVersions));

/** The config keys a provider row has in `release`, or undefined when they are the newest release's. */
export function fieldsIn(row: ProviderRow, release: string): readonly string[] | undefined {
  // The table records a release's field list only where it differs from the newest release. A
  // release in between takes the list of the next recorded release at or after it (0.4.4 → 0.7.1,
  // 0.2.14 → 0.2.24), since field names only changed at releases the table was read from or before.
  const snapshot = fieldSnapshots().find((s) => compareVersions(release, s) <= 0);
  return snapshot === undefined ? undefined : row.fieldsInOlderReleases?.[snapshot];
}

let snapshots: string[] | undefined;
/** Releases the table holds older field lists for, oldest first. */
const fieldSnapshots = (): string[] =>
  (snapshots ??= [...new Set(providerTable().flatMap((row) => Object.keys(row.fieldsInOlderReleases ?? {})))].sort(compareVersions));

/** Keys of a URL in older releases: `url`, `api_base`, `openai_compat_api_base`, `*_url`, `*_uri`. */
const urlLike = (key: string): boolean => /(^|_)(url|uri|base)$/.test(key);
/** Single-value credentials, most common first; AWS key pairs are not one value and are left to `secretRefs`. */
const credentialKeys = ['api_key', 'api_token', 'token', 'access_token', 'password'];
/** Keys that look like credentials, for messages. */
const credentialLike = (key: string): boolean => /(key|token|password|secret)/.test(key) && !/^(allowed|refresh)_/.test(key);

export interface ProviderKeys {
  /** Config key of `endpoint` in this release, or null when the provider has none. */
  urlKey: string | null;
  /** Config key of `apiKey` in this release, or null when the provider has none. */
  credentialKey: string | null;
  /** Credential-looking keys of the release when `credentialKey` is null, for the message. */
  otherCredentials: string[];
}

/**
 * The URL and credential keys of a provider in `release` (DESIGN §5, notes §3.2). The table's
 * `urlKey`/`credentialKey` are the newest release's; an older release that lacks them used
 * another key: inference `url` before 0.4.0, `openai_compat_api_base` for llama-openai-compat,
 * `api_base` for azure. A release whose field list has neither gets null, so the CR field is an
 * error instead of a key the server would silently ignore.
 */
export function providerKeys(row: ProviderRow, release: string): ProviderKeys {
  const fields = fieldsIn(row, release);
  if (!fields) return { urlKey: row.urlKey, credentialKey: row.credentialKey, otherCredentials: [] };
  let urlKey: string | null = null;
  if (row.urlKey !== null) {
    const older = fields.filter(urlLike).sort((a, b) => (a === 'url' ? -1 : b === 'url' ? 1 : a.localeCompare(b)));
    urlKey = fields.includes(row.urlKey) ? row.urlKey : (older[0] ?? null);
  }
  let credentialKey: string | null = null;
  if (row.credentialKey !== null) {
    credentialKey = fields.includes(row.credentialKey) ? row.credentialKey : (credentialKeys.find((key) => fields.includes(key)) ?? null);
  }
  const otherCredentials = credentialKey === null ? [...new Set(fields.filter(credentialLike))].sort() : [];
  return { urlKey, credentialKey, otherCredentials };
}

const rowsFor = (api: string, release: string): ProviderRow[] =>
  providerTable().filter((row) => row.api === api && existsIn(row, release));

/** `vllm` → `remote::vllm` when that exists for the API and release, else `inline::vllm`; `x::y` as is. */
export function resolveProviderType(
  provider: ProviderEntry,
  release: string,
): { ok: true; row: ProviderRow } | { ok: false; problem: FieldProblem } {
  const api = providerApis[provider.api];
  const rows = rowsFor(api, release);
  const wanted = provider.provider.includes('::') ? [provider.provider] : [`remote::${provider.provider}`, `inline::${provider.provider}`];
  for (const type of wanted) {
    const row = rows.find((r) => r.type === type);
    if (row) return { ok: true, row };
  }
  const shortNames = [...new Set(rows.map((r) => r.type.replace(/^(remote|inline)::/, '')))].sort();
  const near = closest(provider.provider.replace(/^(remote|inline)::/, ''), shortNames);
  const valid = shortNames.length > 0 ? `Valid ${api} providers: ${listOf(shortNames)}.` : `llama-stack ${release} has no ${api} providers.`;
  return {
    ok: false,
    problem: {
      path: [...provider.path, 'provider'],
      message: `${quote(provider.provider)} is not ${/^[aeiou]/.test(api) ? 'an' : 'a'} ${api} provider in llama-stack ${release}.${near ? ` Did you mean "${near}"?` : ''} ${valid}`,
    },
  };
}

/** Builds the config.yaml entry for one CR provider. */
export function buildProvider(
  provider: ProviderEntry,
  row: ProviderRow,
  release: string,
  profile: ReleaseProfile,
  problems: FieldProblem[],
): BuiltProvider {
  const keys = providerKeys(row, release);
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
    problems.push(...literalCredentials(provider.settings, [...provider.path, 'settings'], credentialKeysOf(row, keys), keys.credentialKey));
    for (const [key, value] of Object.entries(settingsWithSecrets(provider.settings, [...provider.path, 'settings'], [], secret))) {
      write(key, value, [...provider.path, 'settings', key]);
    }
  }
  if (provider.endpoint !== undefined) {
    const path = [...provider.path, 'endpoint'];
    const inUrl = urlCredential(provider.endpoint);
    if (inUrl) problems.push({ path, message: urlPasswordMessage(inUrl, keys.credentialKey !== null) });
    if (!keys.urlKey) {
      const when = row.urlKey ? ` in llama-stack ${release}` : '';
      problems.push({ path, message: `cannot be set for ${row.type}: it has no URL setting${when}; remove \`endpoint\` or pass the provider's own keys in \`settings\`` });
    } else {
      write(keys.urlKey, completeEndpoint(provider, row, keys.urlKey, profile, problems), path);
    }
  }
  if (provider.apiKey !== undefined) {
    const path = [...provider.path, 'apiKey'];
    if (!keys.credentialKey) {
      const when = row.credentialKey ? ` in llama-stack ${release}` : '';
      const own = keys.otherCredentials.length > 0 ? ` (${listOf(keys.otherCredentials)})` : '';
      problems.push({ path, message: `cannot be set for ${row.type}: it takes no API key${when}; remove \`apiKey\` or use \`secretRefs\` with the provider's own keys${own}` });
    } else {
      write(keys.credentialKey, secret(['API_KEY'], selectorOf(provider.apiKey), path), path);
    }
  }
  if (provider.host !== undefined) {
    const path = [...provider.path, 'host'];
    if (!row.connectionKeys?.includes('host')) {
      const instead = row.urlKey ? "give the server's URL in `endpoint`" : "pass the provider's own keys in `settings`";
      problems.push({ path, message: `cannot be set for ${row.type}: it has no host setting; remove \`host\` and ${instead}` });
    } else {
      write('host', typeof provider.host === 'string' ? provider.host : secret(['HOST'], provider.host.secretKeyRef, path), path);
    }
  }
  for (const [key, ref] of Object.entries(provider.secretRefs ?? {})) {
    const path = [...provider.path, 'secretRefs', key];
    write(key, secret([key], selectorOf(ref), path), path);
  }
  const entry: ConfigProvider = { provider_id: provider.id, provider_type: row.type };
  if (Object.keys(config).length > 0) entry.config = config;
  return { api: row.api, entry, env };
}

/**
 * Config keys of a provider that hold one secret value: its credential key (the table's, and the
 * release's when it differs) and the names llama-stack gives single secrets (the `SecretStr` fields
 * of its provider schemas, server-catalog/<release>/providers.json).
 */
function credentialKeysOf(row: ProviderRow, keys: ProviderKeys): Set<string> {
  const own = [row.credentialKey, keys.credentialKey].filter((key): key is string => key !== null);
  return new Set([...own, ...credentialKeys, ...secretKeyNames]);
}

/** Further `SecretStr` keys of the server's provider schemas: the AWS pair's secret half and session token, Weaviate's `auth_credential`. */
const secretKeyNames = ['aws_access_key_id', 'aws_secret_access_key', 'aws_session_token', 'auth_credential'];

/**
 * A credential written as a value in `settings`, or a URL with a password anywhere in it, would be
 * in the ConfigMap for anyone who can read it, as a literal `apiKey` would (which the schema
 * refuses): the same error, with the way to take it from a Secret. Values are never quoted.
 */
function literalCredentials(settings: Record<string, unknown>, path: Array<string | number>, secretKeys: Set<string>, credentialKey: string | null): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const walk = (value: unknown, at: Array<string | number>): void => {
    if (Array.isArray(value)) return value.forEach((child, i) => walk(child, [...at, i]));
    const inUrl = urlCredential(value);
    if (inUrl) problems.push({ path: at, message: urlPasswordMessage(inUrl, credentialKey !== null) });
    if (!isPlainObject(value) || isSecretLeaf(value)) return;
    const topLevel = at.length === path.length;
    for (const [key, child] of Object.entries(value)) {
      if (isCredentialKey(key, secretKeys) && isLiteral(child)) problems.push({ path: [...at, key], message: literalCredentialMessage(key, topLevel, key === credentialKey) });
      else walk(child, [...at, key]);
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

/** A value that would reach the ConfigMap as the secret itself: text (not an `${env.X}` placeholder) or a number. */
const isLiteral = (value: unknown): boolean => (typeof value === 'string' && value !== '' && !value.includes('${env.')) || typeof value === 'number';

function literalCredentialMessage(key: string, topLevel: boolean, isApiKey: boolean): string {
  const ref = '{name: <secret>, key: <key>}';
  const instead = !topLevel
    ? `write \`{secretKeyRef: ${ref}}\` in its place`
    : isApiKey
      ? `remove it from \`settings\` and write \`apiKey: ${ref}\` (or \`secretRefs: {${key}: ${ref}}\`)`
      : `remove it from \`settings\` and write \`secretRefs: {${key}: ${ref}}\``;
  return `must reference a Secret, not hold the value: ${key} is a credential, and a value written here would end up in the ConfigMap; ${instead}`;
}

const urlPasswordMessage = (where: 'userinfo' | 'query', takesApiKey: boolean): string =>
  where === 'userinfo'
    ? `must not hold a password: the \`user:password@\` part of a URL would end up in the ConfigMap; remove it from the URL and give the credential from a Secret in ${takesApiKey ? '`apiKey` or ' : ''}\`secretRefs\``
    : `must not hold a credential: a URL query parameter named as one (\`token=\`, \`api_key=\`, …) would end up in the ConfigMap; remove it from the URL and give the credential from a Secret in ${takesApiKey ? '`apiKey` or ' : ''}\`secretRefs\``;

/**
 * Inference `base_url` holds the full URL including `/v1` since llama-stack 0.4.0, and nothing is
 * appended at run time. An endpoint given as a bare host gets `/v1`, with an info result saying so.
 */
function completeEndpoint(provider: ProviderEntry, row: ProviderRow, urlKey: string, profile: ReleaseProfile, problems: FieldProblem[]): string {
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
  if (row.api !== 'inference' || !profile.inferenceUrlHasApiPrefix) return endpoint;
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

/** Lays a built entry over the base: same type → the base config deep-merged under ours; another type → replaced. */
export function overlay(base: ConfigProvider | undefined, built: ConfigProvider): ConfigProvider {
  if (!base || base.provider_type !== built.provider_type) return built;
  const config = deepMerge(isPlainObject(base.config) ? base.config : {}, built.config ?? {});
  const merged: ConfigProvider = { ...base, provider_id: built.provider_id, provider_type: built.provider_type };
  if (Object.keys(config).length > 0) merged.config = config;
  return merged;
}

/**
 * A provider with a new id whose type the base also has (a second faiss, say) takes the keys the
 * server requires with no default (`persistence`, `db_path`) from that entry, when the CR does not
 * give them. Its storage is its own: a persistence namespace or a sqlite file named after the base
 * id is renamed after the new id, so two providers never share state.
 */
export function seedFromSameType(entries: readonly ConfigProvider[], built: ConfigProvider, row: ProviderRow): ConfigProvider {
  const missing = (row.requiredKeys ?? []).filter((key) => built.config?.[key] === undefined);
  const template = entries.find((e) => e.provider_type === built.provider_type && isPlainObject(e.config));
  if (missing.length === 0 || !template || !isPlainObject(template.config)) return built;
  const baseId = String(conditionalId(template.provider_id) ?? template.provider_id);
  const id = String(built.provider_id);
  const rename = (value: unknown, key: string): unknown => {
    if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rename(v, k)]));
    if (typeof value !== 'string') return value;
    if (key === 'namespace') return value.replace(new RegExp(`::${escape(baseId.replace(/-/g, '_'))}$|::${escape(baseId)}$`), `::${id}`);
    if (key.endsWith('db_path')) return value.replace(/\/[^/]*\.db$/, `/${id}.db`);
    return value;
  };
  const templateConfig = template.config;
  const seeded = Object.fromEntries(missing.filter((key) => key in templateConfig).map((key) => [key, rename(templateConfig[key], key)]));
  return { ...built, config: deepMerge(built.config ?? {}, seeded) };
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
