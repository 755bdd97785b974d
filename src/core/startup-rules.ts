// The server's startup rules, checked at render time (DESIGN §5 "Startup rules"; reference
// notes/llamastack-config.md §6 rules 1–15, with §1 for the schema, §2 for `${env.…}` and §3 for
// providers). A config that breaks one of them makes the server stop at startup, or start and
// quietly misbehave; here it becomes an error (or a warning) at render time instead of a pod that
// crash-loops.
//
// Pure: the config is read, never changed, and nothing is substituted. Placeholders are judged by
// their form (notes §2): `${env.X:+id}` is `id` when X is set and null otherwise, `${env.X:=d}` is
// `d` when X is unset, a bare `${env.X}` aborts startup when X is unset. A variable in
// `containerEnv` counts as set, with an unknown value. For one outside it, `${env.X:=d}` is taken
// as `d`, and `${env.X:+id}` as possibly set (the pod may get X another way, e.g. `envFrom`), so
// what hangs on such a conditional id is a warning; a bare `${env.X}` (or vLLM's URL defaulting
// to empty) is an error: the container must set X.
import { placeholdersIn, type Placeholder } from './placeholders.js';
import { isCredentialName } from '../lib/url-credentials.js';
import { closest } from '../lib/issues.js';
import { formatFieldPath } from '../krm/item.js';
import type { WarningCode } from '../krm/result.js';
import { isPlainObject } from '../lib/objects.js';
import { clip, code, listOf, quote } from '../lib/quote.js';
import {
  authProviderTypes,
  catalogReleases,
  firstProfileSince,
  inRange,
  providableApis,
  providerFields,
  providerRegistry,
  providerSpec,
  releaseNotes,
  releasesWithApi,
  releasesWithProvider,
  runConfigKeys,
  runConfigStores,
  serverRelease,
  type ProviderFields,
  type ProviderSpec,
  type ReleaseProfile,
  type StoreSpec,
} from '../catalog/catalog.js';
import { compareVersions } from '../catalog/versions.js';

export interface StartupProblem {
  severity: 'error' | 'warning';
  /** Config path, e.g. `providers.inference[2].provider_type`. */
  path: string;
  message: string;
  /** The rule of notes §6 (1–15). */
  rule: number;
  /** The warning's class; every call that may add a warning names one (the overloads of `add`). */
  code?: WarningCode;
}

export interface StartupContext {
  /** The llama-stack release the config is for, e.g. `0.7.1`. */
  release: string;
  /** The catalog release whose registry and schemas answer for `release` (plan.catalogRelease). */
  catalogRelease: string;
  profile: ReleaseProfile;
  /** Names of the env vars the container sets. */
  containerEnv: ReadonlySet<string>;
}

type Path = ReadonlyArray<string | number>;
type Severity = StartupProblem['severity'];

export function checkStartupRules(config: Record<string, unknown>, context: StartupContext): StartupProblem[] {
  const ctx = new Checker(config, context);
  if (!isPlainObject(config)) {
    ctx.add('error', [], 1, 'the config must be a mapping with `providers` and the distribution name');
    return ctx.problems;
  }
  checkNameAndProviders(ctx);
  collectProviders(ctx);
  checkProviderTypes(ctx);
  checkProviderIds(ctx);
  checkSingleProviderApis(ctx);
  checkApisList(ctx);
  checkDependencies(ctx);
  checkProviderConfigs(ctx);
  if (ctx.newLayout) checkStorage(ctx);
  else checkOldStores(ctx);
  checkModels(ctx);
  checkOtherResources(ctx);
  checkDefaults(ctx);
  checkServer(ctx);
  checkPlaceholders(ctx);
  checkPaths(ctx);
  // Stable: the order of the rules, then the order found.
  return ctx.problems.map((p, i) => ({ p, i })).sort((a, b) => a.p.rule - b.p.rule || a.i - b.i).map(({ p }) => p);
}

// ---------------------------------------------------------------------------------------------
// Env placeholders (notes §2)

/** The form of a scalar: literal text, exactly one placeholder, or a mix. */
type Form =
  | { kind: 'literal'; value: string }
  | { kind: 'placeholder'; placeholder: Placeholder }
  | { kind: 'mixed'; placeholders: readonly Placeholder[] };

// ---------------------------------------------------------------------------------------------
// The checker's state

/** What a provider_id (or a reference to one) comes to. */
interface IdInfo {
  /** enabled: certainly on; conditional: on only when `variable` is set; disabled: null id; removed: `__disabled__`. */
  state: 'enabled' | 'conditional' | 'disabled' | 'removed';
  /** The id, when known (undefined: taken from an env var's value). */
  id?: string;
  /** The variable that switches a conditional id. */
  variable?: string;
}

interface Provider {
  api: string;
  index: number;
  path: Path;
  entry: Record<string, unknown>;
  config: Record<string, unknown>;
  type: string | undefined;
  /** The type's entry in the registry of the catalog release; undefined when the release has no such type for the API. */
  spec: ProviderSpec | undefined;
  /** The config keys of the type in the catalog release (its schema's properties). */
  fields: ProviderFields | undefined;
  id: IdInfo;
  /** The API takes providers in this release. */
  validApi: boolean;
  /** An external provider (`module:`): its type is not in the table. */
  external: boolean;
}

const possiblyOn = (p: Provider): boolean => p.id.state === 'enabled' || p.id.state === 'conditional';

class Checker {
  readonly problems: StartupProblem[] = [];
  readonly providers: Provider[] = [];
  readonly release: string;
  readonly catalogRelease: string;
  readonly profile: ReleaseProfile;
  /** APIs that take providers in the release. */
  readonly apis: readonly string[];
  readonly env: ReadonlySet<string>;
  readonly bash: boolean;
  readonly newLayout: boolean;
  /** APIs with a routing table: several providers, and a router other providers depend on. */
  readonly routed: Set<string>;
  /** The non-empty `apis` list, or undefined (serve everything configured). */
  apisListed: string[] | undefined;

  constructor(
    readonly config: Record<string, unknown>,
    context: StartupContext,
  ) {
    this.release = context.release;
    this.catalogRelease = context.catalogRelease;
    this.profile = context.profile;
    this.apis = providableApis(context.catalogRelease);
    this.env = context.containerEnv;
    this.bash = context.profile.envSyntax === 'bash';
    this.newLayout = context.profile.layout === 'storage-backends';
    this.routed = new Set(serverRelease(context.catalogRelease)?.apis.routed ?? []);
  }

  /** Providable APIs without a routing table: the server keeps one provider each. */
  singleProviderApis(): string[] {
    return this.apis.filter((api) => !this.routed.has(api));
  }

  add(severity: 'error', path: Path, rule: number, message: string): void;
  add(severity: Severity, path: Path, rule: number, message: string, code: WarningCode): void;
  add(severity: Severity, path: Path, rule: number, message: string, code?: WarningCode): void {
    this.problems.push({ severity, path: formatFieldPath(path), message, rule, ...(severity === 'warning' && code !== undefined && { code }) });
  }


  form(text: string): Form {
    const placeholders = placeholdersIn(text, this.bash);
    const only = placeholders[0];
    if (!only) return { kind: 'literal', value: text };
    if (placeholders.length === 1 && only.raw === text) return { kind: 'placeholder', placeholder: only };
    return { kind: 'mixed', placeholders };
  }

  /**
   * The value `text` takes when the variables outside containerEnv are unset, or undefined when
   * it depends on the value of a variable (one the container sets, or a bare unset one).
   */
  whenUnset(text: string): string | undefined {
    let out = '';
    let last = 0;
    for (const p of placeholdersIn(text, this.bash)) {
      out += text.slice(last, p.index);
      last = p.index + p.raw.length;
      const set = this.env.has(p.name);
      if (p.op === ':+') out += set ? p.text : '';
      else if (p.op === ':=' && !set) out += p.text;
      else return undefined;
    }
    return out + text.slice(last);
  }

  idInfo(raw: unknown): IdInfo {
    if (raw === null || raw === undefined) return { state: 'disabled' };
    if (typeof raw !== 'string') return { state: 'enabled', id: String(raw) };
    const form = this.form(raw);
    if (form.kind === 'literal') {
      if (raw === '') return { state: 'disabled' };
      if (raw === '__disabled__') return { state: 'removed' };
      return { state: 'enabled', id: raw };
    }
    if (form.kind === 'placeholder') {
      const { name, op, text } = form.placeholder;
      const set = this.env.has(name);
      if (op === ':+') {
        if (text === '') return { state: 'disabled' };
        return set ? { state: 'enabled', id: text } : { state: 'conditional', id: text, variable: name };
      }
      if (op === ':=') {
        if (set) return { state: 'enabled' };
        if (text === '') return { state: 'conditional', variable: name };
        if (text === '__disabled__') return { state: 'removed', variable: name };
        return { state: 'enabled', id: text };
      }
      return { state: 'enabled' };
    }
    const value = this.whenUnset(raw);
    if (value === undefined) return { state: 'enabled' };
    return value === '' ? { state: 'disabled' } : value === '__disabled__' ? { state: 'removed' } : { state: 'enabled', id: value };
  }

  providersOf(api: string): Provider[] {
    return this.providers.filter((p) => p.api === api && p.validApi && possiblyOn(p));
  }
}

/** "set INFERENCE_MODEL in `spec.workload.overrides.env` (name: INFERENCE_MODEL, value: …)". */
const howToSet = (name: string): string => `set ${clip(name)} in \`spec.workload.overrides.env\` (name: ${clip(name)}, value: …)`;

const isNonEmptyList = (value: unknown): value is unknown[] => Array.isArray(value) && value.length > 0;

/** The first release whose profile has `has`, for "is read from X on" (configs/releases.yaml). */
const firstWith = (has: (profile: ReleaseProfile) => boolean): string => firstProfileSince(has) ?? 'a later release';
const storageLayoutSince = (): string => firstWith((p) => p.layout === 'storage-backends');

// ---------------------------------------------------------------------------------------------
// Rule 1: `providers` and the distribution name

function checkNameAndProviders(ctx: Checker): void {
  const { config, profile, release } = ctx;
  if (!Object.hasOwn(config, 'providers')) {
    ctx.add('error', ['providers'], 1, 'is missing: the server requires the key (it may be `{}`)');
  } else if (!isPlainObject(config.providers)) {
    ctx.add('error', ['providers'], 1, 'must be a mapping from API name to a list of providers');
  }
  const present = (key: string): boolean => config[key] !== undefined && config[key] !== null && config[key] !== '';
  if (profile.nameKey === 'distro_name') {
    if (present('distro_name')) return;
    if (present('image_name')) {
      ctx.add('warning', ['image_name'], 1, `is deprecated in llama-stack ${release}: write \`distro_name\` (the server still reads image_name, with a warning)`, 'deprecated');
    } else {
      ctx.add('error', ['distro_name'], 1, `is missing: llama-stack ${release} does not start without \`distro_name\` (or the deprecated \`image_name\`)`);
    }
  } else if (!present('image_name')) {
    const from = firstProfileSince((p) => p.nameKey === 'distro_name');
    const hint = present('distro_name') && from ? `; \`distro_name\` is read from ${from} on` : '';
    ctx.add('error', ['image_name'], 1, `is missing: llama-stack ${release} does not start without \`image_name\`${hint}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Rule 2: API names

/** Where an API the release lacks went, for messages: the catalog releases that have it, and the release notes. */
function apiHistory(api: string, catalogRelease: string): string | undefined {
  const having = releasesWithApi(api);
  const note = Object.hasOwn(releaseNotes().apis, api) ? releaseNotes().apis[api] : undefined;
  const last = having[having.length - 1];
  const first = having[0];
  let when: string | undefined;
  if (last !== undefined && compareVersions(last, catalogRelease) < 0) when = `the ${api} API was last in llama-stack ${last}`;
  else if (first !== undefined && compareVersions(first, catalogRelease) > 0) when = `the ${api} API arrives in ${first}`;
  const parts = [when, note].filter((p): p is string => p !== undefined);
  return parts.length > 0 ? parts.join('; ') : undefined;
}

/** Checks one API name (a key of `providers` or an entry of `apis`); true when it takes providers in the release. */
function checkApiName(ctx: Checker, api: string, path: Path, where: 'providers' | 'apis'): boolean {
  const { profile, release } = ctx;
  if (ctx.apis.includes(api)) return true;
  const renamed = profile.renamedApis[api];
  if (renamed !== undefined && ctx.apis.includes(renamed)) {
    ctx.add('error', path, 2, `the ${clip(api)} API is called \`${renamed}\` in llama-stack ${release}: write \`${renamed}\``);
    return false;
  }
  const facts = serverRelease(ctx.catalogRelease)?.apis;
  const routingTable = facts !== undefined && Object.hasOwn(facts.routingTables, api);
  if (routingTable || facts?.internal.includes(api)) {
    const what = routingTable ? 'a routing table the server builds itself' : 'an internal API';
    if (where === 'providers') {
      ctx.add('error', path, 2, `${code(api)} is ${what}; it cannot take providers ("automatically provided and cannot be overridden")`);
    } else {
      ctx.add('warning', path, 2, `${code(api)} is ${what}, not an API that takes providers; listing it in \`apis\` has no effect`, 'apis-entry-no-effect');
    }
    return false;
  }
  // An external API (external_apis_dir) may add names the release does not know.
  const severity: Severity = ctx.config.external_apis_dir ? 'warning' : 'error';
  const near = closest(api, ctx.apis);
  const history = apiHistory(api, ctx.catalogRelease);
  ctx.add(
    severity,
    path,
    2,
    `${code(api)} is not an API in llama-stack ${release}${history ? ` (${history})` : ''}.${near ? ` Did you mean \`${near}\`?` : ''} APIs that take providers: ${listOf(ctx.apis)}`, 'external-api',
  );
  return false;
}

// ---------------------------------------------------------------------------------------------
// Providers: collected once, with rule 2 (API names) and the entry shape of rules 3 and 4

function collectProviders(ctx: Checker): void {
  const providers = ctx.config.providers;
  if (!isPlainObject(providers)) return;
  for (const [api, entries] of Object.entries(providers)) {
    const apiPath = ['providers', api];
    const validApi = checkApiName(ctx, api, apiPath, 'providers');
    if (!Array.isArray(entries)) {
      ctx.add('error', apiPath, 1, 'must be a list of providers (`- provider_id: …` entries)');
      continue;
    }
    entries.forEach((entry: unknown, index) => {
      const path = [...apiPath, index];
      if (!isPlainObject(entry)) {
        ctx.add('error', path, 4, 'must be a mapping with `provider_id` and `provider_type`');
        return;
      }
      if (!Object.hasOwn(entry, 'provider_id')) {
        ctx.add('error', [...path, 'provider_id'], 4, 'is missing: every provider entry needs the key (null disables the provider)');
      } else if (entry.provider_id !== null && typeof entry.provider_id !== 'string') {
        ctx.add('error', [...path, 'provider_id'], 4, `must be a string or null, not ${clip(JSON.stringify(entry.provider_id))}`);
      }
      const type = typeof entry.provider_type === 'string' ? entry.provider_type : undefined;
      const id = ctx.idInfo(entry.provider_id);
      if (type === undefined && id.state !== 'removed') {
        ctx.add('error', [...path, 'provider_type'], 3, 'is missing: every provider entry needs `provider_type` (`inline::<name>` or `remote::<name>`)');
      }
      const external = typeof entry.module === 'string' && entry.module !== '';
      const spec = type === undefined ? undefined : providerSpec(ctx.catalogRelease, api, type);
      ctx.providers.push({
        api,
        index,
        path,
        entry,
        config: isPlainObject(entry.config) ? entry.config : {},
        type,
        spec,
        fields: spec && type !== undefined ? providerFields(ctx.catalogRelease, api, type) : undefined,
        id,
        validApi,
        external,
      });
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Rule 3: the provider type exists for the API in the release

/** Provider types of an API in the catalog release, for messages. */
const typesOf = (api: string, catalogRelease: string): string[] => Object.keys(providerRegistry(catalogRelease)[api] ?? {}).sort();

/** When a type the release lacks was there: "it was last in 0.4.4", "it arrives in 0.7.1" (from the catalog). */
function typeHistory(api: string, type: string, catalogRelease: string): string | undefined {
  const having = releasesWithProvider(api, type);
  const last = having[having.length - 1];
  const first = having[0];
  if (last !== undefined && compareVersions(last, catalogRelease) < 0) return `it was last in llama-stack ${last}`;
  if (first !== undefined && compareVersions(first, catalogRelease) > 0) return `it arrives in ${first}`;
  return having.length > 0 ? `the release catalog has it in ${listOf(having)}` : undefined;
}

function checkProviderTypes(ctx: Checker): void {
  for (const p of ctx.providers) {
    // Disabled entries are skipped before the server looks their type up.
    if (!p.validApi || p.type === undefined || !possiblyOn(p) || p.external) continue;
    const path = [...p.path, 'provider_type'];
    const severity: Severity = p.id.state === 'enabled' ? 'error' : 'warning';
    const when = p.id.state === 'conditional' ? ` when ${clip(p.id.variable)} is set` : '';
    if (p.type.includes('${')) {
      ctx.add('warning', path, 3, 'comes from an env var, so llsd-render cannot check that the type exists', 'provider-type-from-env');
      continue;
    }
    if (p.spec) {
      checkUsableType(ctx, p, p.spec, path, severity, when);
      continue;
    }
    const notes = releaseNotes().providerTypes;
    const key = `${p.api} ${p.type}`;
    const hint = Object.hasOwn(notes, key) ? notes[key] : undefined;
    const history = typeHistory(p.api, p.type, ctx.catalogRelease);
    const valid = typesOf(p.api, ctx.catalogRelease);
    const elsewhere = ctx.apis.find((api) => api !== p.api && providerSpec(ctx.catalogRelease, api, p.type as string) !== undefined);
    let message = `${clip(p.type)} is not available for the ${clip(p.api)} API in llama-stack ${ctx.release}, so the server stops at startup${when} ("Provider \`${clip(p.type)}\` is not available for API \`${clip(p.api)}\`")`;
    if (history) message += `; ${history}`;
    if (hint) message += `; ${hint}`;
    else if (elsewhere) message += `; it is a ${elsewhere} provider`;
    const near = hint ? undefined : closest(p.type, valid);
    if (near) message += `. Did you mean \`${near}\`?`;
    if (valid.length > 0) message += `${near ? '' : '.'} ${clip(p.api)} providers: ${listOf(valid)}`;
    ctx.add(severity, path, 3, message, 'env-conditional');
  }
}

/** A type the release registers: its own deprecation, or a release note that it cannot start there. */
function checkUsableType(ctx: Checker, p: Provider, spec: ProviderSpec, path: Path, severity: Severity, when: string): void {
  const type = p.type as string;
  if (spec.deprecationError !== undefined) {
    ctx.add(severity, path, 3, `${clip(type)} is deprecated in llama-stack ${ctx.release} and refuses to start${when}: ${quote(clip(spec.deprecationError))}`, 'env-conditional');
    return;
  }
  const broken = releaseNotes().brokenProviders.find((b) => b.api === p.api && b.type === type && inRange(ctx.catalogRelease, b));
  if (broken) {
    ctx.add(severity, path, 3, `${clip(type)} cannot start in llama-stack ${ctx.release}${when}: ${broken.why}`, 'env-conditional');
    return;
  }
  if (spec.deprecationWarning !== undefined) {
    ctx.add('warning', path, 3, `${clip(type)} is deprecated in llama-stack ${ctx.release}: ${quote(clip(spec.deprecationWarning))}`, 'deprecated');
  }
}

// ---------------------------------------------------------------------------------------------
// Rule 4: provider ids unique within an API

function checkProviderIds(ctx: Checker): void {
  const seen = new Map<string, Provider>();
  for (const p of ctx.providers) {
    if (!possiblyOn(p) || p.id.id === undefined) continue;
    const key = `${p.api}\u0000${p.id.id}`;
    const earlier = seen.get(key);
    if (!earlier) {
      seen.set(key, p);
      continue;
    }
    ctx.add(
      'error',
      [...p.path, 'provider_id'],
      4,
      `repeats the ${clip(p.api)} provider id ${quote(p.id.id)} of ${code(formatFieldPath(earlier.path))}: the server keys providers by id, so one would silently replace the other; give each a distinct provider_id`,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Rule 5: APIs without a routing table take one provider

function checkSingleProviderApis(ctx: Checker): void {
  for (const api of ctx.singleProviderApis()) {
    const on = ctx.providersOf(api);
    const enabled = on.filter((p) => p.id.state === 'enabled');
    const conditional = on.filter((p) => p.id.state === 'conditional');
    if (enabled.length > 1) {
      for (const p of enabled.slice(1)) {
        ctx.add(
          'error',
          p.path,
          5,
          `is a second ${clip(api)} provider, but ${clip(api)} takes exactly one: the server keeps one implementation per API and the last one silently wins; remove all but one`,
        );
      }
    } else if (on.length > 1) {
      const vars = [...new Set(conditional.map((p) => p.id.variable as string))];
      ctx.add(
        'warning',
        ['providers', api],
        5,
        `${clip(api)} takes exactly one provider, but ${on.length} are enabled when ${listOf(vars, { last: 'and' })} ${vars.length > 1 ? 'are' : 'is'} set: the server would keep only the last one`, 'env-conditional',
      );
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Rule 6: `apis` agrees with `providers`

function checkApisList(ctx: Checker): void {
  const apis = ctx.config.apis;
  if (apis === undefined || apis === null) return;
  if (!Array.isArray(apis)) {
    ctx.add('error', ['apis'], 6, 'must be a list of API names');
    return;
  }
  const names: string[] = [];
  apis.forEach((api: unknown, index) => {
    if (typeof api !== 'string') {
      ctx.add('error', ['apis', index], 6, `must be an API name, not ${clip(JSON.stringify(api))}`);
      return;
    }
    names.push(api);
    if (!checkApiName(ctx, api, ['apis', index], 'apis')) return;
    if (ctx.routed.has(api)) return;
    const on = ctx.providersOf(api);
    if (on.length === 0) {
      ctx.add('error', ['apis', index], 6, `lists ${clip(api)}, which has no enabled provider: the server stops while setting up its routes (KeyError); add a ${clip(api)} provider or remove it from \`apis\``);
    } else if (on.every((p) => p.id.state === 'conditional')) {
      const vars = [...new Set(on.map((p) => p.id.variable as string))];
      ctx.add('warning', ['apis', index], 6, `lists ${clip(api)}, whose providers are enabled only when ${listOf(vars, { last: 'or' })} is set; without one the server stops while setting up its routes`, 'env-conditional');
    }
  });
  if (names.length === 0) return;
  ctx.apisListed = names;
  const providers = isPlainObject(ctx.config.providers) ? ctx.config.providers : {};
  for (const api of Object.keys(providers)) {
    if (names.includes(api) || !ctx.apis.includes(api) || ctx.providersOf(api).length === 0) continue;
    ctx.add(
      'warning',
      ['providers', api],
      6,
      `has providers, but \`apis\` does not list ${clip(api)}: the server does not serve its routes${ctx.routed.has(api) ? ' or build its router, so providers that depend on it cannot start' : ''}; add it to \`apis\``, 'api-not-listed',
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Rule 7: API dependencies

/**
 * The APIs the provider needs in the catalog release (its registry entry's dependencies): only
 * providable ones, as the server serves routing tables and internal APIs itself.
 */
function dependenciesOf(ctx: Checker, p: Provider): string[] {
  return (p.spec?.dependencies ?? []).filter((api) => api !== p.api && ctx.apis.includes(api));
}

/**
 * A dependency on a routed API is met by its router, which the server builds for every routed API
 * when `apis` is empty and for the listed ones otherwise, with or without providers behind it. A
 * dependency on any other API is met only by an enabled provider of that API (resolver.py
 * `resolve_impls`: "required dependency 'files' is not available").
 */
function checkDependencies(ctx: Checker): void {
  for (const p of ctx.providers) {
    if (!p.validApi || !possiblyOn(p) || p.type === undefined || p.external) continue;
    for (const api of dependenciesOf(ctx, p)) {
      const severity: Severity = p.id.state === 'enabled' ? 'error' : 'warning';
      const who = `${clip(p.type)}${p.id.state === 'conditional' ? ` (enabled when ${clip(p.id.variable)} is set)` : ''}`;
      const on = ctx.providersOf(api);
      if (ctx.routed.has(api)) {
        if (ctx.apisListed && !ctx.apisListed.includes(api)) {
          ctx.add(
            severity,
            p.path,
            7,
            `${who} needs the ${api} API, but \`apis\` does not list ${api}, so the server builds no ${api} router and stops at startup ("required dependency '${api}' is not available"); add ${api} to \`apis\``, 'env-conditional',
          );
        } else if (on.length === 0) {
          ctx.add('warning', p.path, 7, `${who} needs the ${api} API, which has no provider: the server starts, but whatever ${clip(p.type)} asks of ${api} fails`, 'missing-api-dependency');
        }
        continue;
      }
      if (on.length === 0) {
        ctx.add(
          severity,
          p.path,
          7,
          `${who} needs the ${api} API, and no ${api} provider is enabled: the server stops at startup ("required dependency '${api}' is not available"); add a ${api} provider`, 'env-conditional',
        );
      } else if (on.every((d) => d.id.state === 'conditional')) {
        const vars = [...new Set(on.map((d) => d.id.variable as string))];
        ctx.add('warning', p.path, 7, `${who} needs the ${api} API, whose providers are enabled only when ${listOf(vars, { last: 'or' })} is set; without one the server stops at startup`, 'env-conditional');
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Rule 8: provider config keys

/** Keys that have held an inference provider's URL (notes §7 "URL key"). */
const URL_KEYS = ['base_url', 'url', 'openai_compat_api_base', 'api_base'];
/** The credential pair that differs between providers: vLLM, Databricks and RunPod read api_token. */
const CREDENTIAL_KEYS = ['api_key', 'api_token'];
/** OpenAI-compatible inference providers whose base_url ends in /v1 (or …/openai/v1, …/inference/v1). */
const V1_PROVIDERS = new Set([
  'remote::vllm',
  'remote::ollama',
  'remote::llama-cpp-server',
  'remote::openai',
  'remote::cerebras',
  'remote::nvidia',
  'remote::sambanova',
  'remote::together',
  'remote::fireworks',
  'remote::groq',
  'remote::llama-openai-compat',
  'remote::runpod',
]);

function checkProviderConfigs(ctx: Checker): void {
  for (const p of ctx.providers) {
    if (!p.validApi || !possiblyOn(p) || p.type === undefined || p.external || !p.fields) continue;
    const severity: Severity = p.id.state === 'enabled' ? 'error' : 'warning';
    const configPath = [...p.path, 'config'];
    if (p.entry.config !== undefined && p.entry.config !== null && !isPlainObject(p.entry.config)) {
      ctx.add(severity, configPath, 8, 'must be a mapping of the provider\'s settings', 'env-conditional');
      continue;
    }
    checkRuntimeKeys(ctx, p, configPath, severity);
    checkCredentialKey(ctx, p, p.fields, configPath, severity);
    if (p.api === 'inference') checkUrlKey(ctx, p, p.fields, configPath, severity);
  }
}

/** What the schema cannot say (configs/release-notes.yaml): keys needed at startup, keys replaced. */
function checkRuntimeKeys(ctx: Checker, p: Provider, configPath: Path, severity: Severity): void {
  const notes = releaseNotes();
  const applies = (fact: { api: string; type: string; since: string; through?: string | undefined }): boolean => fact.api === p.api && fact.type === p.type && inRange(ctx.catalogRelease, fact);
  for (const fact of notes.requiredAtRuntime.filter(applies)) {
    const value = p.config[fact.key];
    if (value !== undefined && value !== null) continue;
    ctx.add(severity, [...configPath, fact.key], 8, `is missing: ${clip(p.type)} in llama-stack ${ctx.release} needs it although its schema makes it optional: ${fact.why}`, 'env-conditional');
  }
  for (const fact of notes.deprecatedKeys.filter(applies)) {
    if (Object.hasOwn(p.config, fact.key)) ctx.add('warning', [...configPath, fact.key], 8, `is deprecated in llama-stack ${ctx.release}: ${fact.instead}`, 'deprecated');
  }
}

function checkCredentialKey(ctx: Checker, p: Provider, fields: ProviderFields, configPath: Path, severity: Severity): void {
  const expected = fields.keys.find((k) => CREDENTIAL_KEYS.includes(k));
  if (expected === undefined) return;
  for (const key of CREDENTIAL_KEYS) {
    if (key === expected || !Object.hasOwn(p.config, key) || fields.keys.includes(key)) continue;
    ctx.add(
      severity,
      [...configPath, key],
      8,
      `is not a ${clip(p.type)} setting in llama-stack ${ctx.release}; the server silently ignores it and sends no credential: its credential key is \`${expected}\``, 'env-conditional',
    );
  }
}

function checkUrlKey(ctx: Checker, p: Provider, fields: ProviderFields, configPath: Path, severity: Severity): void {
  const expected = fields.keys.find((k) => URL_KEYS.includes(k));
  for (const key of URL_KEYS) {
    if (key === expected || !Object.hasOwn(p.config, key) || fields.keys.includes(key)) continue;
    const instead = expected
      ? `its URL key is \`${expected}\`${expected === 'base_url' && ctx.profile.inferenceUrlHasApiPrefix ? ' (the full URL including /v1)' : ''}`
      : `${clip(p.type)} takes no URL setting`;
    ctx.add(severity, [...configPath, key], 8, `is not a ${clip(p.type)} setting in llama-stack ${ctx.release}; the server silently ignores it: ${instead}`, 'env-conditional');
  }
  if (expected === undefined) return;
  const value = p.config[expected];
  const at = [...configPath, expected];
  // vLLM has no default URL: its provider refuses to start without one (notes §3.2).
  const needsUrl = p.type === 'remote::vllm';
  if (value === undefined || value === null || value === '') {
    if (needsUrl) {
      ctx.add(severity, at, 8, `is missing: ${clip(p.type)} has no default URL and refuses to start without one; write the server's full URL${ctx.profile.inferenceUrlHasApiPrefix ? ', including /v1' : ''}`, 'env-conditional');
    }
    return;
  }
  if (typeof value !== 'string' || expected !== 'base_url' || !ctx.profile.inferenceUrlHasApiPrefix) {
    if (needsUrl && typeof value === 'string') checkUrlDefault(ctx, p, at, value, severity, false);
    return;
  }
  checkUrlDefault(ctx, p, at, value, severity, true);
}

/** base_url is a pydantic HttpUrl (0.4.0+) and nothing is appended to it at run time. */
function checkUrlDefault(ctx: Checker, p: Provider, at: Path, value: string, severity: Severity, httpUrl: boolean): void {
  const form = ctx.form(value);
  let url: string;
  let which = '';
  if (form.kind === 'literal') {
    url = value;
  } else if (form.kind === 'placeholder' && form.placeholder.op === ':=' && !ctx.env.has(form.placeholder.name)) {
    const { name, text } = form.placeholder;
    if (text === '') {
      // Empty unless the variable is set: vLLM then has no URL.
      if (p.type !== 'remote::vllm' || p.id.variable === name) return;
      const on = p.id.state === 'conditional' ? ` (enabled when ${clip(p.id.variable)} is set)` : '';
      ctx.add(severity, at, 8, `is empty unless ${clip(name)} is set, and ${clip(p.type)}${on} refuses to start without a URL: ${howToSet(name)}`, 'env-conditional');
      return;
    }
    url = text;
    which = ` (the default used while ${clip(name)} is unset)`;
  } else {
    return;
  }
  if (!httpUrl) return;
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    ctx.add(severity, at, 8, `${quote(url)}${which} is not an absolute http(s) URL, and base_url must be one: the server rejects the config at startup`, 'env-conditional');
    return;
  }
  if ((parsed.pathname === '/' || parsed.pathname === '') && p.type && V1_PROVIDERS.has(p.type)) {
    ctx.add(
      'warning',
      at,
      8,
      `${quote(url)}${which} has no path, but from llama-stack ${firstProfileSince((f) => f.inferenceUrlHasApiPrefix) ?? ctx.release} on base_url is the full OpenAI-compatible URL and nothing is appended at run time: write ${quote(`${url.replace(/\/$/, '')}/v1`)}`, 'base-url-without-path',
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Rule 9: storage (0.3.0+: storage.backends and storage.stores)

type Family = 'kv' | 'sql';
const KV_BACKENDS = ['kv_sqlite', 'kv_postgres', 'kv_redis', 'kv_mongodb'];
const SQL_BACKENDS = ['sql_sqlite', 'sql_postgres'];

function checkStorage(ctx: Checker): void {
  const { config, release } = ctx;
  // The stores of the release's run-config schema; where they have defaults, so do the backends
  // they name (sqlite kv_default and sql_default under $SQLITE_STORE_DIR or the config dir).
  const stores = runConfigStores(ctx.catalogRelease);
  const defaults = stores.some((store) => store.defaultBackend !== undefined);
  for (const key of ['metadata_store', 'inference_store']) {
    if (config[key] !== undefined && config[key] !== null) {
      ctx.add('warning', [key], 9, `is the ≤ 0.2 layout; llama-stack ${release} ignores it and reads \`storage.stores.${key === 'metadata_store' ? 'metadata' : 'inference'}\``, 'ignored-by-release');
    }
  }
  const backends = new Map<string, Family>();
  const storage = config.storage;
  if (storage === undefined || storage === null) {
    if (!defaults) {
      ctx.add('error', ['storage'], 9, `is missing: llama-stack ${release} has no default storage; write storage.backends and storage.stores (metadata, inference, conversations)`);
      return;
    }
    // 0.4.0+: sqlite kv_default and sql_default under $SQLITE_STORE_DIR (or the config dir).
    backends.set('kv_default', 'kv').set('sql_default', 'sql');
  } else if (!isPlainObject(storage)) {
    ctx.add('error', ['storage'], 9, 'must be a mapping with `backends` and `stores`');
    return;
  } else {
    readBackends(ctx, storage, backends, defaults);
    checkStores(ctx, storage, stores, backends, defaults);
  }
  for (const p of ctx.providers) {
    if (!p.validApi || !possiblyOn(p)) continue;
    const severity: Severity = p.id.state === 'enabled' ? 'error' : 'warning';
    for (const ref of providerStoreRefs(p)) checkBackendRef(ctx, ref.path, ref.value, ref.family, backends, severity, `the ${ref.key} of ${p.type ?? 'this provider'}`);
  }
  const server = config.server;
  if (isPlainObject(server) && isPlainObject(server.quota) && server.quota.kvstore !== undefined && server.quota.kvstore !== null) {
    checkBackendRef(ctx, ['server', 'quota', 'kvstore'], server.quota.kvstore, 'kv', backends, 'error', 'the quota store');
  }
}

function readBackends(ctx: Checker, storage: Record<string, unknown>, backends: Map<string, Family>, defaults: boolean): void {
  const raw = storage.backends;
  if (raw === undefined || raw === null) {
    if (defaults) {
      ctx.add('warning', ['storage', 'backends'], 9, 'is missing: write the backends the stores name (kv_default and sql_default unless you name them otherwise)', 'storage-backends-missing');
      backends.set('kv_default', 'kv').set('sql_default', 'sql');
    } else {
      ctx.add('error', ['storage', 'backends'], 9, `is missing: llama-stack ${ctx.release} has no default backends`);
    }
    return;
  }
  if (!isPlainObject(raw)) {
    ctx.add('error', ['storage', 'backends'], 9, 'must be a mapping from backend name to backend');
    return;
  }
  for (const [name, backend] of Object.entries(raw)) {
    const path = ['storage', 'backends', name];
    if (!isPlainObject(backend)) {
      ctx.add('error', path, 9, `must be a backend: {type: ${[...KV_BACKENDS, ...SQL_BACKENDS].join('|')}, …}`);
      continue;
    }
    const type = backend.type;
    if (typeof type === 'string' && type.includes('${')) continue;
    const family: Family | undefined = KV_BACKENDS.includes(type as string) ? 'kv' : SQL_BACKENDS.includes(type as string) ? 'sql' : undefined;
    if (!family) {
      const old = type === 'sqlite' || type === 'postgres' || type === 'redis' || type === 'mongodb' ? ` (the ≤ 0.2 store type; write kv_${type}${type === 'sqlite' || type === 'postgres' ? ` or sql_${type}` : ''})` : '';
      ctx.add('error', [...path, 'type'], 9, `${type === undefined ? 'is missing' : `${quote(String(type))} is not a backend type${old}`}: one of ${listOf([...KV_BACKENDS, ...SQL_BACKENDS])}`);
      continue;
    }
    backends.set(name, family);
    if (type === 'kv_sqlite' || type === 'sql_sqlite') {
      if (!Object.hasOwn(backend, 'db_path')) ctx.add('error', [...path, 'db_path'], 9, `is missing: a ${clip(type)} backend needs the path of its database file`);
    } else if (type === 'kv_postgres' || type === 'sql_postgres') {
      if (!Object.hasOwn(backend, 'user')) ctx.add('error', [...path, 'user'], 9, `is missing: a ${clip(type)} backend has no default user, so the server rejects the config at startup`);
    }
  }
}

function checkStores(ctx: Checker, storage: Record<string, unknown>, specs: readonly StoreSpec[], backends: Map<string, Family>, defaults: boolean): void {
  const raw = storage.stores;
  if (raw !== undefined && raw !== null && !isPlainObject(raw)) {
    ctx.add('error', ['storage', 'stores'], 9, 'must be a mapping from store name to a backend reference');
    return;
  }
  const stores = isPlainObject(raw) ? raw : {};
  const inferenceServed = ctx.providersOf('inference').length > 0 || (ctx.apisListed?.includes('inference') ?? false);
  for (const spec of specs) {
    const path = ['storage', 'stores', spec.name];
    const value = stores[spec.name];
    if (value !== undefined && value !== null) {
      checkBackendRef(ctx, path, value, spec.family, backends, 'error', `the ${spec.name} store`);
      continue;
    }
    if (!defaults) {
      // A release without store defaults (0.3.x): every store is null unless written.
      if (spec.name === 'responses' || (spec.name === 'inference' && !inferenceServed)) continue;
      const ref = spec.family === 'kv' ? '{backend: <a kv_* backend>, namespace: …}' : '{backend: <a sql_* backend>, table_name: …}';
      ctx.add('error', path, 9, `is missing: llama-stack ${ctx.release} has no default for the ${spec.name} store; write ${ref}`);
      continue;
    }
    if (value === null && spec.name === 'metadata') {
      ctx.add('error', path, 9, 'is null: the server needs the metadata store (registry) and stops at startup without it');
      continue;
    }
    if (value === null || !spec.defaultBackend) continue;
    if (backends.get(spec.defaultBackend) !== spec.family) {
      ctx.add(
        'error',
        path,
        9,
        `is omitted, so it defaults to the backend \`${spec.defaultBackend}\`, which storage.backends does not define${backends.has(spec.defaultBackend) ? ` as a ${spec.family}_* backend` : ''}: write storage.stores.${spec.name} naming one of your ${spec.family}_* backends`,
      );
    }
  }
  for (const name of Object.keys(stores)) {
    if (specs.some((s) => s.name === name)) continue;
    ctx.add('warning', ['storage', 'stores', name], 9, `is not a store in llama-stack ${ctx.release}; the server ignores it. Stores: ${listOf(specs.map((s) => s.name))}`, 'ignored-by-release');
  }
}

function checkBackendRef(ctx: Checker, path: Path, value: unknown, family: Family, backends: Map<string, Family>, severity: Severity, what: string): void {
  if (!isPlainObject(value)) {
    ctx.add(severity, path, 9, `must be a backend reference {backend: <a ${family}_* backend>, ${family === 'kv' ? 'namespace' : 'table_name'}: …}`, 'env-conditional');
    return;
  }
  const backend = value.backend;
  if (backend === undefined || backend === null) {
    const old = value.type !== undefined ? ` (a full store config {type: …} is the ≤ 0.2 layout; llama-stack ${ctx.release} names a storage backend)` : '';
    ctx.add(severity, [...path, 'backend'], 9, `is missing: ${what} must name a ${family}_* backend of storage.backends${old}`, 'env-conditional');
    return;
  }
  if (typeof backend !== 'string' || backend.includes('${')) return;
  const found = backends.get(backend);
  if (found === undefined) {
    const names = [...backends].filter(([, f]) => f === family).map(([n]) => n);
    ctx.add(
      severity,
      [...path, 'backend'],
      9,
      `names the backend ${code(backend)}, which storage.backends does not define ("unknown backend" at startup)${names.length ? `; ${family}_* backends: ${listOf(names)}` : ''}`, 'env-conditional',
    );
  } else if (found !== family) {
    ctx.add(severity, [...path, 'backend'], 9, `names ${code(backend)}, a ${found}_* backend, but ${what} needs a ${family}_* backend`, 'env-conditional');
  }
}

/** Store references in a provider's config (notes §1.4): persistence / kvstore / metadata_store. */
function providerStoreRefs(p: Provider): Array<{ key: string; path: Path; value: unknown; family: Family }> {
  const out: Array<{ key: string; path: Path; value: unknown; family: Family }> = [];
  const configPath = [...p.path, 'config'];
  const { persistence, kvstore } = p.config;
  const metadataStore = p.config.metadata_store;
  if (isPlainObject(persistence) && (Object.hasOwn(persistence, 'agent_state') || Object.hasOwn(persistence, 'responses'))) {
    // responses (and ≤ 0.6 agents): {agent_state: kv ref, responses: sql ref}.
    for (const [key, family] of [
      ['agent_state', 'kv'],
      ['responses', 'sql'],
    ] as const) {
      if (persistence[key] !== undefined && persistence[key] !== null) out.push({ key: `persistence.${key}`, path: [...configPath, 'persistence', key], value: persistence[key], family });
    }
  } else if (persistence !== undefined && persistence !== null) {
    out.push({ key: 'persistence', path: [...configPath, 'persistence'], value: persistence, family: 'kv' });
  }
  if (kvstore !== undefined && kvstore !== null) out.push({ key: 'kvstore', path: [...configPath, 'kvstore'], value: kvstore, family: 'kv' });
  const sqlstore = p.config.sqlstore;
  if (sqlstore !== undefined && sqlstore !== null) out.push({ key: 'sqlstore', path: [...configPath, 'sqlstore'], value: sqlstore, family: 'sql' });
  if (metadataStore !== undefined && metadataStore !== null) out.push({ key: 'metadata_store', path: [...configPath, 'metadata_store'], value: metadataStore, family: 'sql' });
  return out;
}

// Rule 9 for the ≤ 0.2 layout: full store configs {type: sqlite|postgres|…} everywhere.

const OLD_KV_TYPES = ['sqlite', 'postgres', 'redis', 'mongodb'];
const OLD_SQL_TYPES = ['sqlite', 'postgres'];
/** Store configs inside ≤ 0.2 provider configs, and their family. */
const OLD_PROVIDER_STORES: Record<string, Family> = {
  kvstore: 'kv',
  persistence_store: 'kv',
  responses_store: 'sql',
  metadata_store: 'sql',
};

function checkOldStores(ctx: Checker): void {
  const { config, release } = ctx;
  if (config.storage !== undefined && config.storage !== null) {
    ctx.add('warning', ['storage'], 9, `is read from ${storageLayoutSince()} on; llama-stack ${release} ignores it and reads \`metadata_store\`, \`inference_store\` and each provider's own store config`, 'ignored-by-release');
  }
  if (config.metadata_store !== undefined && config.metadata_store !== null) checkOldStore(ctx, ['metadata_store'], config.metadata_store, 'kv', 'error');
  const inference = config.inference_store;
  if (inference !== undefined && inference !== null) {
    if (isPlainObject(inference) && isPlainObject(inference.sql_store_config)) checkOldStore(ctx, ['inference_store', 'sql_store_config'], inference.sql_store_config, 'sql', 'error');
    else checkOldStore(ctx, ['inference_store'], inference, 'sql', 'error');
  }
  for (const p of ctx.providers) {
    if (!p.validApi || !possiblyOn(p)) continue;
    const severity: Severity = p.id.state === 'enabled' ? 'error' : 'warning';
    for (const [key, family] of Object.entries(OLD_PROVIDER_STORES)) {
      const value = p.config[key];
      if (value !== undefined && value !== null) checkOldStore(ctx, [...p.path, 'config', key], value, family, severity);
    }
  }
}

function checkOldStore(ctx: Checker, path: Path, value: unknown, family: Family, severity: Severity): void {
  const types = family === 'kv' ? OLD_KV_TYPES : OLD_SQL_TYPES;
  if (!isPlainObject(value)) {
    ctx.add(severity, path, 9, `must be a store config {type: ${types.join('|')}, …}`, 'env-conditional');
    return;
  }
  if (value.backend !== undefined && value.type === undefined) {
    ctx.add(severity, path, 9, `is a {backend, …} reference, which is read from ${storageLayoutSince()} on; llama-stack ${ctx.release} needs a full store config such as {type: sqlite, db_path: …}`, 'env-conditional');
    return;
  }
  const type = value.type;
  if (typeof type === 'string' && type.includes('${')) return;
  if (typeof type !== 'string' || !types.includes(type)) {
    ctx.add(severity, [...path, 'type'], 9, `${type === undefined ? 'is missing' : `${quote(String(type))} is not a ${family === 'kv' ? 'key-value' : 'SQL'} store type`}: one of ${listOf(types)}`, 'env-conditional');
    return;
  }
  if (type === 'postgres' && !Object.hasOwn(value, 'user')) {
    ctx.add(severity, [...path, 'user'], 9, 'is missing: a postgres store has no default user, so the server rejects the config at startup', 'env-conditional');
  }
}

// ---------------------------------------------------------------------------------------------
// Rules 10–12: registered resources and defaults

/** Where the resource lists live: registered_resources (0.3.0+) or the top level (≤ 0.2). */
function resources(ctx: Checker): { home: Record<string, unknown>; path: string[] } {
  if (!ctx.newLayout) return { home: ctx.config, path: [] };
  const home = ctx.config.registered_resources;
  return { home: isPlainObject(home) ? home : {}, path: ['registered_resources'] };
}

/** A reference to a provider id: `${env.X:+id}` makes the whole resource conditional. */
interface Reference {
  id?: string;
  /** The entry is registered only when this variable is set. */
  variable?: string;
  /** The reference comes from an env var's value: nothing to check. */
  unknown?: boolean;
}

function referenceOf(ctx: Checker, raw: unknown): Reference | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (typeof raw !== 'string') return { id: String(raw) };
  const info = ctx.idInfo(raw);
  if (info.state === 'disabled' || info.state === 'removed') return undefined;
  if (info.id === undefined) return info.variable ? { variable: info.variable, unknown: true } : { unknown: true };
  return info.variable ? { id: info.id, variable: info.variable } : { id: info.id };
}

/**
 * Checks that a resource's provider_id names a provider of `api` the server will have: an
 * unknown id is fatal at startup ("Provider not found"); one switched by an env var is a warning.
 */
function checkReference(ctx: Checker, api: string, raw: unknown, path: Path, rule: number, resourceConditional: boolean): void {
  const ref = referenceOf(ctx, raw);
  if (!ref || ref.unknown || ref.id === undefined) return;
  const candidates = ctx.providersOf(api);
  const matches = candidates.filter((p) => p.id.id === ref.id);
  const conditional = resourceConditional || ref.variable !== undefined;
  if (matches.length === 0) {
    // A provider whose id comes from an env var might be the one.
    if (candidates.some((p) => p.id.id === undefined)) return;
    const ids = candidates.map((p) => p.id.id as string);
    const near = closest(ref.id, ids);
    ctx.add(
      conditional ? 'warning' : 'error',
      path,
      rule,
      `names the ${clip(api)} provider ${quote(ref.id)}, which is not ${ctx.providers.some((p) => p.api === api && p.entry.provider_id === ref.id) ? 'enabled' : 'configured'}: the server stops at startup ("Provider not found")${conditional ? ' once this entry is registered' : ''}.${near ? ` Did you mean ${quote(near)}?` : ''} ${ids.length ? `${clip(api)} providers: ${listOf(ids)}` : `There is no ${clip(api)} provider`}`, 'env-conditional',
    );
    return;
  }
  if (!conditional && matches.every((p) => p.id.state === 'conditional')) {
    const vars = [...new Set(matches.map((p) => p.id.variable as string))];
    ctx.add('warning', path, rule, `names the ${clip(api)} provider ${quote(ref.id)}, which is enabled only when ${listOf(vars, { last: 'or' })} is set; without it the server stops at startup ("Provider not found")`, 'env-conditional');
  }
}

/** Is the entry conditional on its id (`model_id: ${env.X:+…}` with X unset drops it)? */
function entryConditional(ctx: Checker, raw: unknown): boolean {
  if (typeof raw !== 'string') return false;
  const form = ctx.form(raw);
  return form.kind === 'placeholder' && form.placeholder.op === ':+' && !ctx.env.has(form.placeholder.name);
}

const MODEL_TYPES = ['llm', 'embedding', 'rerank'];

function checkModels(ctx: Checker): void {
  const { home, path: base } = resources(ctx);
  if (ctx.newLayout && isNonEmptyList(ctx.config.models)) {
    ctx.add('warning', ['models'], 10, `is the ≤ 0.2 layout; llama-stack ${ctx.release} ignores it and registers \`registered_resources.models\``, 'ignored-by-release');
  }
  if (!ctx.newLayout && ctx.config.registered_resources !== undefined && ctx.config.registered_resources !== null) {
    ctx.add('warning', ['registered_resources'], 10, `is read from ${storageLayoutSince()} on; llama-stack ${ctx.release} ignores it and registers the top-level \`models\`, \`shields\`, \`vector_dbs\` and \`tool_groups\``, 'ignored-by-release');
  }
  const models = home.models;
  if (models === undefined || models === null) return;
  if (!Array.isArray(models)) {
    ctx.add('error', [...base, 'models'], 10, 'must be a list of models');
    return;
  }
  models.forEach((model: unknown, index) => {
    const path = [...base, 'models', index];
    if (!isPlainObject(model)) {
      ctx.add('error', path, 10, 'must be a mapping with model_id and provider_id');
      return;
    }
    const conditional = entryConditional(ctx, model.model_id);
    const severity: Severity = conditional ? 'warning' : 'error';
    if (model.model_id === undefined || model.model_id === null || model.model_id === '') {
      ctx.add('error', [...path, 'model_id'], 10, 'is missing: every registered model needs a model_id');
    }
    if (model.provider_id === undefined || model.provider_id === null || model.provider_id === '') {
      ctx.add('warning', [...path, 'provider_id'], 10, 'is missing: the server silently skips a model without provider_id; name its inference provider', 'missing-provider-id');
    } else if (!(model.provider_id === 'all' && ctx.profile.modelsForAllProviders)) {
      checkReference(ctx, 'inference', model.provider_id, [...path, 'provider_id'], 10, conditional);
    }
    const type = model.model_type ?? 'llm';
    if (typeof type === 'string' && !type.includes('${') && !MODEL_TYPES.includes(type)) {
      ctx.add(severity, [...path, 'model_type'], 10, `${quote(type)} is not a model type: one of ${listOf(MODEL_TYPES)}`, 'env-conditional');
    }
    if (type === 'embedding') {
      const metadata = model.metadata;
      if (!isPlainObject(metadata) || metadata.embedding_dimension === undefined || metadata.embedding_dimension === null) {
        ctx.add(severity, [...path, 'metadata', 'embedding_dimension'], 10, 'is missing: an embedding model needs metadata.embedding_dimension, or the server stops at startup', 'env-conditional');
      }
    }
  });
}

function checkOtherResources(ctx: Checker): void {
  const { home, path: base } = resources(ctx);
  const release = ctx.release;
  if (ctx.newLayout) {
    for (const key of ['shields', 'vector_dbs', 'tool_groups']) {
      if (isNonEmptyList(ctx.config[key])) ctx.add('warning', [key], 11, `is the ≤ 0.2 layout; llama-stack ${release} ignores it and reads \`registered_resources.${key === 'vector_dbs' ? 'vector_stores' : key}\``, 'ignored-by-release');
    }
    if (isNonEmptyList(home.vector_dbs)) ctx.add('warning', [...base, 'vector_dbs'], 11, `is not read by llama-stack ${release} (ignored): vector DBs became \`registered_resources.vector_stores\` in ${storageLayoutSince()}`, 'ignored-by-release');
    for (const [key, api] of [
      ['datasets', 'datasetio'],
      ['scoring_fns', 'scoring'],
      ['benchmarks', 'eval'],
    ] as const) {
      if (isNonEmptyList(home[key]) && !ctx.apis.includes(api)) {
        const history = apiHistory(api, ctx.catalogRelease);
        ctx.add('warning', [...base, key], 11, `is ignored by llama-stack ${release}: it has no ${clip(api)} API, and so none of its resources${history ? ` (${history})` : ''}`, 'ignored-by-release');
      }
    }
  }
  eachEntry(ctx, home, [...base, 'shields'], (entry, path) => {
    const conditional = entryConditional(ctx, entry.shield_id);
    if (entry.shield_id === undefined || entry.shield_id === null || entry.shield_id === '') ctx.add('error', [...path, 'shield_id'], 11, 'is missing: every registered shield needs a shield_id');
    resourceProvider(ctx, entry, path, 'safety', 'shield', conditional);
  });
  const storesKey = ctx.newLayout ? 'vector_stores' : 'vector_dbs';
  const idKey = ctx.newLayout ? 'vector_store_id' : 'vector_db_id';
  const required = ctx.newLayout ? [idKey, 'embedding_model', 'embedding_dimension'] : [idKey, 'embedding_model'];
  eachEntry(ctx, home, [...base, storesKey], (entry, path) => {
    const conditional = entryConditional(ctx, entry[idKey]);
    for (const key of required) {
      if (entry[key] === undefined || entry[key] === null) ctx.add(conditional ? 'warning' : 'error', [...path, key], 11, `is missing: a registered vector store needs ${listOf(required)}`, 'env-conditional');
    }
    resourceProvider(ctx, entry, path, 'vector_io', 'vector store', conditional);
  });
  const toolGroups = home.tool_groups;
  if (ctx.profile.toolGroups === 'auto') {
    if (isNonEmptyList(toolGroups)) {
      ctx.add(
        'warning',
        [...base, 'tool_groups'],
        11,
        `is ignored by llama-stack ${release} (emptied with a warning): tool groups are registered from the tool_runtime providers; configure those, and MCP servers under \`connectors\``, 'ignored-by-release',
      );
    }
    return;
  }
  eachEntry(ctx, home, [...base, 'tool_groups'], (entry, path) => {
    if (entry.toolgroup_id === undefined || entry.toolgroup_id === null || entry.toolgroup_id === '') ctx.add('error', [...path, 'toolgroup_id'], 11, 'is missing: every tool group needs a toolgroup_id');
    resourceProvider(ctx, entry, path, 'tool_runtime', 'tool group', entryConditional(ctx, entry.toolgroup_id));
  });
}

function eachEntry(ctx: Checker, home: Record<string, unknown>, path: Array<string | number>, check: (entry: Record<string, unknown>, path: Path) => void): void {
  const entries = home[path[path.length - 1] as string];
  if (entries === undefined || entries === null) return;
  if (!Array.isArray(entries)) {
    ctx.add('error', path, 11, 'must be a list');
    return;
  }
  entries.forEach((entry: unknown, index) => {
    if (isPlainObject(entry)) check(entry, [...path, index]);
    else ctx.add('error', [...path, index], 11, 'must be a mapping');
  });
}

function resourceProvider(ctx: Checker, entry: Record<string, unknown>, path: Path, api: string, what: string, conditional: boolean): void {
  if (entry.provider_id === undefined || entry.provider_id === null || entry.provider_id === '') {
    ctx.add('warning', [...path, 'provider_id'], 11, `is missing: the server silently skips a ${what} without provider_id; name its ${clip(api)} provider`, 'missing-provider-id');
    return;
  }
  checkReference(ctx, api, entry.provider_id, [...path, 'provider_id'], 11, conditional);
}

function checkDefaults(ctx: Checker): void {
  const { home } = resources(ctx);
  const models = Array.isArray(home.models) ? home.models.filter(isPlainObject) : [];
  const vectorStores = ctx.config.vector_stores;
  if (ctx.newLayout && isPlainObject(vectorStores)) {
    const readKeys = runConfigKeys(ctx.catalogRelease, ['vector_stores']) ?? [];
    for (const [key, type] of [
      ['default_embedding_model', 'embedding'],
      ['default_reranker_model', 'rerank'],
    ] as const) {
      const value = vectorStores[key];
      if (value === undefined || value === null) continue;
      const path = ['vector_stores', key];
      if (!readKeys.includes(key)) {
        const from = catalogReleases().find((r) => compareVersions(r, ctx.catalogRelease) > 0 && runConfigKeys(r, ['vector_stores'])?.includes(key));
        ctx.add('warning', path, 12, `is not read by llama-stack ${ctx.release}, which ignores it${from ? ` (read from ${from} on)` : ''}`, 'ignored-by-release');
        continue;
      }
      if (!isPlainObject(value) || typeof value.model_id !== 'string' || value.provider_id === undefined || value.provider_id === null) {
        ctx.add('error', path, 12, `must name a registered ${clip(type)} model: {provider_id: …, model_id: …}`);
        continue;
      }
      checkReference(ctx, 'inference', value.provider_id, [...path, 'provider_id'], 12, false);
      // A model the provider lists itself (sentence-transformers, transformers) is registered at
      // run time and cannot be checked here; one registered in the config must have the right type.
      const registered = models.find((m) => m.provider_id === value.provider_id && (m.model_id === value.model_id || m.provider_model_id === value.model_id));
      const registeredType = registered ? (registered.model_type ?? 'llm') : undefined;
      if (registered && typeof registeredType === 'string' && !registeredType.includes('${') && registeredType !== type) {
        ctx.add('error', [...path, 'model_id'], 12, `names the model ${quote(value.model_id)}, which is registered as model_type ${clip(registeredType)}; the ${key.replace(/_/g, ' ')} must be a ${clip(type)} model`);
      }
    }
    const defaultProvider = vectorStores.default_provider_id;
    const vectorIo = ctx.providersOf('vector_io');
    if (typeof defaultProvider === 'string' && !defaultProvider.includes('${')) {
      if (!vectorIo.some((p) => p.id.id === defaultProvider || p.id.id === undefined)) {
        ctx.add(
          'warning',
          ['vector_stores', 'default_provider_id'],
          12,
          `names ${quote(defaultProvider)}, which is not an enabled vector_io provider: creating a vector store without naming a provider fails. vector_io providers: ${listOf(vectorIo.map((p) => String(p.id.id))) || 'none'}`, 'default-provider-not-enabled',
        );
      }
    }
  }
  const safety = ctx.config.safety;
  if (!isPlainObject(safety) || safety.default_shield_id === undefined || safety.default_shield_id === null) return;
  const path = ['safety', 'default_shield_id'];
  if (!ctx.profile.defaultShieldId) {
    ctx.add('warning', path, 12, `is read from ${firstWith((p) => p.defaultShieldId)} on; llama-stack ${ctx.release} ignores it`, 'ignored-by-release');
    return;
  }
  const wanted = safety.default_shield_id;
  if (typeof wanted !== 'string' || wanted.includes('${')) return;
  const shields = Array.isArray(home.shields) ? home.shields.filter(isPlainObject) : [];
  const registered = shields.filter((s) => referenceOf(ctx, s.provider_id) !== undefined);
  if (registered.length === 0) return;
  if (shields.some((s) => s.shield_id === wanted)) return;
  const certain = registered.some((s) => {
    const ref = referenceOf(ctx, s.provider_id);
    return ref !== undefined && ref.variable === undefined && !entryConditional(ctx, s.shield_id);
  });
  ctx.add(
    certain ? 'error' : 'warning',
    path,
    12,
    `names the shield ${quote(wanted)}, which is not registered: with shields registered, the server stops at startup unless the default is one of them (${listOf(shields.map((s) => String(s.shield_id)))})`, 'env-conditional',
  );
}

// ---------------------------------------------------------------------------------------------
// Rule 13: server

function checkServer(ctx: Checker): void {
  const server = ctx.config.server;
  if (server === undefined || server === null) return;
  if (!isPlainObject(server)) {
    ctx.add('error', ['server'], 13, 'must be a mapping');
    return;
  }
  const port = server.port;
  if (port !== undefined && port !== null && !(typeof port === 'string' && port.includes('${'))) {
    const n = typeof port === 'number' ? port : typeof port === 'string' && /^\d+$/.test(port.trim()) ? Number(port) : NaN;
    if (!Number.isInteger(n) || n < 1024 || n > 65535) {
      ctx.add('error', ['server', 'port'], 13, `${clip(JSON.stringify(port))} is not a port the server accepts: an integer from 1024 to 65535`);
    }
  }
  const cert = server.tls_certfile;
  const key = server.tls_keyfile;
  const has = (v: unknown): boolean => v !== undefined && v !== null && v !== '';
  if (has(cert) !== has(key)) {
    ctx.add('error', ['server', has(cert) ? 'tls_keyfile' : 'tls_certfile'], 13, 'is missing: the server needs both tls_certfile and tls_keyfile for HTTPS, or neither');
  }
  if (has(server.workers) && !ctx.profile.serverWorkers) {
    ctx.add('warning', ['server', 'workers'], 13, `is read from ${firstWith((p) => p.serverWorkers)} on; llama-stack ${ctx.release} ignores it`, 'ignored-by-release');
  }
  const cors = server.cors;
  if (isPlainObject(cors) && cors.allow_credentials === true && Array.isArray(cors.allow_origins) && cors.allow_origins.includes('*')) {
    ctx.add('error', ['server', 'cors', 'allow_origins'], 13, 'a wildcard origin together with allow_credentials is rejected at startup; list the origins');
  }
  const auth = server.auth;
  if (!isPlainObject(auth) || auth.provider_config === undefined || auth.provider_config === null) return;
  const providerConfig = auth.provider_config;
  const path = ['server', 'auth', 'provider_config'];
  if (!isPlainObject(providerConfig)) {
    ctx.add('error', path, 13, 'must be a mapping with `type`');
    return;
  }
  // The auth types of the release's run-config schema; a release without provider_config (0.2.x reads `provider_type`) has none to check.
  const types = authProviderTypes(ctx.catalogRelease);
  if (types.length === 0) return;
  const raw = providerConfig.type;
  let type: string | undefined;
  let severity: Severity = 'error';
  if (typeof raw === 'string') {
    const form = ctx.form(raw);
    if (form.kind === 'literal') type = raw;
    else if (form.kind === 'placeholder' && form.placeholder.op === ':+') {
      type = form.placeholder.text;
      if (!ctx.env.has(form.placeholder.name)) severity = 'warning';
    } else if (form.kind === 'placeholder' && form.placeholder.op === ':=' && !ctx.env.has(form.placeholder.name)) type = form.placeholder.text;
  } else if (raw === undefined || raw === null) {
    ctx.add('error', [...path, 'type'], 13, `is missing: one of ${listOf(types)}`);
    return;
  }
  if (type === undefined || type === '') return;
  if (!types.includes(type)) {
    ctx.add(severity, [...path, 'type'], 13, `${quote(type)} is not an auth provider type in llama-stack ${ctx.release}: one of ${listOf(types)}`, 'env-conditional');
    return;
  }
  if (type === 'oauth2_token') {
    const jwks = has(providerConfig.jwks);
    const introspection = has(providerConfig.introspection);
    if (jwks === introspection) {
      ctx.add(severity, path, 13, `${jwks ? 'sets both' : 'sets neither of'} \`jwks\` and \`introspection\`: an oauth2_token provider takes exactly one`, 'env-conditional');
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Rule 14: env placeholders

function checkPlaceholders(ctx: Checker): void {
  // Entries the server drops before expanding them, and where it stops expanding.
  const skipped = new Set<unknown>();
  const byPath = new Map<string, Provider>();
  for (const p of ctx.providers) {
    byPath.set(formatFieldPath(p.path), p);
    if (p.id.state === 'removed' && p.id.variable === undefined) skipped.add(p.entry);
    else if (p.id.state === 'removed') skipped.add(p.config); // `${env.X:=__disabled__}` with X unset
  }
  const server = ctx.config.server;
  let authConfig: Record<string, unknown> | undefined;
  if (isPlainObject(server) && isPlainObject(server.auth) && isPlainObject(server.auth.provider_config)) {
    const type = server.auth.provider_config.type;
    // A type that resolves to empty switches auth off, and the rest is not expanded (notes §1.3).
    if (typeof type === 'string' && ctx.whenUnset(type) === '') authConfig = server.auth.provider_config;
  }
  // One path, pushed and popped on the way down (problems format it when they are added).
  const path: Array<string | number> = [];
  const visit = (value: unknown, provider: Provider | undefined): void => {
    if (typeof value === 'string') {
      checkString(ctx, value, path, provider);
      return;
    }
    // Only entries and configs are skipped: no string is looked up.
    if (value === null || typeof value !== 'object' || skipped.has(value)) return;
    if (Array.isArray(value)) {
      const providerList = provider === undefined && path.length === 2 && path[0] === 'providers';
      value.forEach((item: unknown, index) => {
        path.push(index);
        visit(item, providerList ? byPath.get(formatFieldPath(path)) : provider);
        path.pop();
      });
      return;
    }
    if (!isPlainObject(value)) return;
    for (const key of Object.keys(value)) {
      path.push(key);
      if (key.includes('${')) ctx.add('warning', path, 14, 'is a key with a placeholder; the server substitutes values only, so the key stays literally as written', 'placeholder-form');
      if (value !== authConfig || key === 'type') visit(value[key], provider);
      path.pop();
    }
  };
  visit(ctx.config, undefined);
}

function checkString(ctx: Checker, text: string, path: Path, provider: Provider | undefined): void {
  if (!text.includes('${')) return;
  const placeholders = placeholdersIn(text, ctx.bash);
  // A credential's text is never quoted, not even in a placeholder (its default may be the secret).
  const secret = (): boolean => isCredentialName(String(path[path.length - 1] ?? ''));
  const shown = (raw: string): string => (secret() ? 'the placeholder of this credential' : code(raw));
  for (const p of placeholders) {
    if (p.op === '' && !ctx.env.has(p.name)) {
      const inDisabled =
        provider && provider.id.state === 'conditional'
          ? ` The provider is switched by ${provider.id.variable}, but the server expands its config even while it is disabled.`
          : '';
      ctx.add(
        'error',
        path,
        14,
        `${shown(p.raw)} has no default, so the server stops at startup when ${clip(p.name)} is unset: ${howToSet(p.name)}, or write \`\${env.${clip(p.name)}${ctx.bash ? ':=' : ':'}<default>}\`.${inDisabled}`,
      );
    }
    if (p.op !== '' && p.text.includes('{')) {
      ctx.add('warning', path, 14, `${shown(p.raw)}: a default ends at the first \`}\`, so the rest of the text after it stays literal; a default cannot contain \`}\``, 'placeholder-form');
    }
    if (!ctx.bash && p.op === ':=' && (p.text.startsWith('=') || p.text.startsWith('+'))) {
      ctx.add('warning', path, 14, `${shown(p.raw)}: llama-stack ${ctx.release} reads \`\${env.X:default}\` and \`\${env.X+value}\` (\`:=\` and \`:+\` arrived in ${firstWith((f) => f.envSyntax === 'bash')}), so the default here starts with ${quote(p.text[0])}`, 'placeholder-form');
    }
  }
  // `${…}` that is not a placeholder the server recognises stays in the value literally.
  for (const snippet of strayDollarBraces(text, placeholders)) {
    ctx.add('warning', path, 14, `${shown(snippet)} is not a placeholder the server substitutes, so it stays in the value literally: ${secret() ? 'the forms are `${env.NAME}`, `${env.NAME:=default}` and `${env.NAME:+value}`, and a credential comes from a Secret' : whyNotPlaceholder(snippet, ctx.bash)}`, 'placeholder-form');
  }
}

/** Each `${…}` of `text` outside its placeholders, to its first `}`; none for almost every text, so the empty list is shared. */
function strayDollarBraces(text: string, placeholders: readonly Placeholder[]): readonly string[] {
  // Every `${` of a text made of placeholders alone starts one of them: nothing to scan for.
  if (placeholders.length === 1 && placeholders[0]?.raw === text) return noStrays;
  const covered = placeholders.map((p) => [p.index, p.index + p.raw.length] as const);
  const strays: string[] = [];
  for (const m of text.matchAll(/\$\{/g)) {
    if (covered.some(([from, to]) => m.index >= from && m.index < to)) continue;
    const end = text.indexOf('}', m.index);
    strays.push(end < 0 ? text.slice(m.index) : text.slice(m.index, end + 1));
  }
  return strays.length === 0 ? noStrays : strays;
}
const noStrays: readonly string[] = [];

function whyNotPlaceholder(snippet: string, bash: boolean): string {
  const m = /^\$\{env\.([^:+}]*)(.*)\}$/.exec(snippet);
  if (!m) return 'only `${env.NAME}` placeholders are substituted';
  const [, name = '', rest = ''] = m;
  if (!/^[A-Z0-9_]+$/.test(name)) return `the name must be upper case letters, digits and _ (\`\${env.${clip(name.toUpperCase().replace(/[^A-Z0-9_]/g, '_'))}}\`)`;
  if (!bash) return 'this release reads `${env.NAME}`, `${env.NAME:default}` and `${env.NAME+value}`';
  if (rest.startsWith(':-')) return `\`:-\` is not supported; write \`\${env.${clip(name)}${clip(':=' + rest.slice(2))}}\``;
  if (rest === ':') return `write \`\${env.${clip(name)}:=}\` for an empty default`;
  if (rest.startsWith('+')) return `the older \`+\` form; write \`\${env.${clip(name)}${clip(':+' + rest.slice(1))}}\``;
  if (rest.startsWith(':')) return `write \`\${env.${clip(name)}${clip(':=' + rest.slice(1))}}\` for a default`;
  return 'the forms are `${env.NAME}`, `${env.NAME:=default}` and `${env.NAME:+value}`';
}

// ---------------------------------------------------------------------------------------------
// Rule 15: paths on the server's filesystem

const PATH_KEYS = new Set(['db_path', 'storage_dir', 'sqlite_db_path']);

function checkPaths(ctx: Checker): void {
  const home = ctx.profile.image.home.replace(/\/+$/, '');
  const skipped = new Set<unknown>(ctx.providers.filter((p) => !possiblyOn(p)).map((p) => p.entry));
  const qdrant = new Set<unknown>(ctx.providers.filter((p) => p.type === 'inline::qdrant').map((p) => p.config));
  const path: Array<string | number> = [];
  const visit = (value: unknown): void => {
    if (value === null || typeof value !== 'object' || skipped.has(value)) return;
    if (Array.isArray(value)) {
      value.forEach((item: unknown, index) => {
        path.push(index);
        visit(item);
        path.pop();
      });
    }
    if (!isPlainObject(value)) return;
    for (const key of Object.keys(value)) {
      const child = value[key];
      path.push(key);
      if (typeof child === 'string' && (PATH_KEYS.has(key) || (key === 'path' && qdrant.has(value)))) checkPath(ctx, child, path, home);
      else visit(child);
      path.pop();
    }
  };
  visit(ctx.config);
}

function checkPath(ctx: Checker, text: string, path: Path, home: string): void {
  const value = ctx.whenUnset(text);
  if (value === undefined || value === '' || value.startsWith('/') || value === ':memory:') return;
  const unset = placeholdersIn(text, ctx.bash)
    .filter((p) => !ctx.env.has(p.name))
    .map((p) => p.name);
  const when = unset.length > 0 ? ` (with ${listOf(unset)} unset)` : '';
  if (value === '~' || value.startsWith('~/')) {
    const resolved = `/${value.slice(2)}`;
    if (resolved === home || resolved.startsWith(`${home}/`)) return;
    ctx.add(
      'warning',
      path,
      15,
      `${quote(value)}${when} resolves against the server's HOME (/: the image or the Deployment sets it) to ${clip(resolved)}, outside the state volume at ${home}: the data is lost when the pod restarts; write a path under ${home}`, 'path-outside-state-volume',
    );
    return;
  }
  ctx.add(
    'warning',
    path,
    15,
    `${quote(value)}${when} is a relative path, which resolves against the server's working directory, not the state volume at ${home}: the data is lost when the pod restarts; write an absolute path under ${home}`, 'path-outside-state-volume',
  );
}
