// CR providers → config.yaml provider entries, laid over the base config by provider id (DESIGN §5).
import type { FieldProblem } from '../api/issues.js';
import { closest } from '../api/issues.js';
import type { ProviderEntry } from '../api/llsd.js';
import { providerApis } from '../api/llsd-v1alpha2.js';
import { providerTable, type ProviderRow, type ReleaseProfile } from './catalog.js';
import { envName, isSecretLeaf, placeholder, selectorOf, type SecretEnv } from './secrets.js';
import { compareVersions } from './versions.js';
import { formatFieldPath } from '../krm/item.js';
import { deepMerge, isPlainObject, setOwn } from '../lib/objects.js';

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

/** Does this provider type exist in `release`? Judged from the releases the table saw it in. */
export function existsIn(row: ProviderRow, release: string): boolean {
  if (row.presentIn.includes(release)) return true;
  if (row.removedIn && compareVersions(row.removedIn, release) <= 0) return false;
  const seen = [...row.presentIn].sort(compareVersions);
  const oldest = seen[0];
  const newest = seen[seen.length - 1];
  return oldest !== undefined && newest !== undefined && compareVersions(oldest, release) <= 0 && compareVersions(release, newest) <= 0;
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
  const valid = shortNames.length > 0 ? `Valid ${api} providers: ${shortNames.join(', ')}.` : `llama-stack ${release} has no ${api} providers.`;
  return {
    ok: false,
    problem: {
      path: [...provider.path, 'provider'],
      message: `"${provider.provider}" is not ${/^[aeiou]/.test(api) ? 'an' : 'a'} ${api} provider in llama-stack ${release}.${near ? ` Did you mean "${near}"?` : ''} ${valid}`,
    },
  };
}

/** Builds the config.yaml entry for one CR provider. */
export function buildProvider(
  provider: ProviderEntry,
  row: ProviderRow,
  profile: ReleaseProfile,
  problems: FieldProblem[],
): BuiltProvider {
  const config: Record<string, unknown> = {};
  const env: SecretEnv[] = [];
  /** Which CR field wrote each config key: two fields writing one key would silently overwrite. */
  const writtenBy = new Map<string, string>();
  const write = (key: string, value: unknown, path: Array<string | number>): void => {
    const earlier = writtenBy.get(key);
    if (earlier !== undefined) {
      problems.push({ path, message: `writes the config key ${key}, which \`${earlier}\` already writes; remove one of them` });
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
    for (const [key, value] of Object.entries(settingsWithSecrets(provider.settings, [...provider.path, 'settings'], [], secret))) {
      write(key, value, [...provider.path, 'settings', key]);
    }
  }
  if (provider.endpoint !== undefined) {
    const path = [...provider.path, 'endpoint'];
    if (!row.urlKey) {
      problems.push({ path, message: `cannot be set for ${row.type}: it has no URL setting; remove \`endpoint\` or pass the provider's own keys in \`settings\`` });
    } else {
      write(row.urlKey, completeEndpoint(provider, row, profile, problems), path);
    }
  }
  if (provider.apiKey !== undefined) {
    const path = [...provider.path, 'apiKey'];
    if (!row.credentialKey) {
      problems.push({ path, message: `cannot be set for ${row.type}: it takes no API key; remove \`apiKey\` or use \`secretRefs\` with the provider's own keys` });
    } else {
      write(row.credentialKey, secret(['API_KEY'], selectorOf(provider.apiKey), path), path);
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
 * Inference `base_url` holds the full URL including `/v1` since llama-stack 0.4.0, and nothing is
 * appended at run time. An endpoint given as a bare host gets `/v1`, with an info result saying so.
 */
function completeEndpoint(provider: ProviderEntry, row: ProviderRow, profile: ReleaseProfile, problems: FieldProblem[]): string {
  const endpoint = provider.endpoint as string;
  // base_url is a pydantic HttpUrl: anything but an absolute http(s) URL fails at startup.
  if (row.urlKey !== 'base_url') return endpoint;
  const url = URL.canParse(endpoint) ? new URL(endpoint) : undefined;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    problems.push({
      path: [...provider.path, 'endpoint'],
      message: `must be an absolute http(s) URL such as "http://vllm:8000/v1", not "${endpoint}"`,
    });
    return endpoint;
  }
  if (row.api !== 'inference' || !profile.inferenceUrlHasApiPrefix) return endpoint;
  if (url.pathname !== '/' && url.pathname !== '') return endpoint;
  const completed = `${endpoint.replace(/\/$/, '')}/v1`;
  problems.push({
    severity: 'info',
    path: [...provider.path, 'endpoint'],
    message: `wrote base_url "${completed}": llama-stack reads the full OpenAI-compatible URL including /v1; write the path yourself to choose another`,
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

const conditionalId = (id: unknown): string | undefined =>
  typeof id === 'string' ? /^\$\{env\.[A-Z0-9_]+:\+([^}]*)\}$/.exec(id)?.[1] : undefined;

/** Lays a built entry over the base: same type → the base config deep-merged under ours; another type → replaced. */
export function overlay(base: ConfigProvider | undefined, built: ConfigProvider): ConfigProvider {
  if (!base || base.provider_type !== built.provider_type) return built;
  const config = deepMerge(isPlainObject(base.config) ? base.config : {}, built.config ?? {});
  const merged: ConfigProvider = { ...base, provider_id: built.provider_id, provider_type: built.provider_type };
  if (Object.keys(config).length > 0) merged.config = config;
  return merged;
}
