// Startup rules on APIs and their providers: the config's shape and distribution name, API names,
// provider types, ids, one provider for an API without a routing table, `apis`, and the APIs each
// provider depends on.
import { closest } from '../../lib/issues.js';
import { formatFieldPath } from '../../krm/item.js';
import { isPlainObject } from '../../lib/objects.js';
import { clip, code, listOf, quote } from '../../lib/quote.js';
import {
  firstProfileSince,
  inRange,
  providerRegistry,
  providerSpec,
  releaseNotes,
  releasesWithApi,
  releasesWithProvider,
  serverRelease,
} from '../../catalog/catalog.js';
import { compareVersions } from '../../catalog/versions.js';
import {
  idInfo,
  possiblyOn,
  problem,
  providersOf,
  severityOf,
  singleProviderApis,
  type Path,
  type Provider,
  type RuleContext,
  type Severity,
  type StartupProblem,
} from './context.js';
import { releaseName } from '../../catalog/versions.js';

// ---------------------------------------------------------------------------------------------
// `providers` and the distribution name

export function checkNameAndProviders(ctx: RuleContext): StartupProblem[] {
  const { config, profile, release } = ctx;
  const out: StartupProblem[] = [];
  if (!Object.hasOwn(config, 'providers')) {
    out.push(problem('error', ['providers'], 'config-shape', 'is missing: the server requires the key (it may be `{}`)'));
  } else if (!isPlainObject(config.providers)) {
    out.push(problem('error', ['providers'], 'config-shape', 'must be a mapping from API name to a list of providers'));
  }
  const present = (key: string): boolean => config[key] !== undefined && config[key] !== null && config[key] !== '';
  if (profile.nameKey === 'distro_name') {
    if (present('distro_name')) return out;
    if (present('image_name')) {
      const message = `is deprecated in ${releaseName(release)}: write \`distro_name\` (the server still reads image_name, with a warning)`;
      out.push(problem('warning', ['image_name'], 'config-shape', message, 'deprecated'));
    } else {
      const message = `is missing: ${releaseName(release)} does not start without \`distro_name\` (or the deprecated \`image_name\`)`;
      out.push(problem('error', ['distro_name'], 'config-shape', message));
    }
  } else if (!present('image_name')) {
    const from = firstProfileSince((p) => p.nameKey === 'distro_name');
    const hint = present('distro_name') && from ? `; \`distro_name\` is read from ${from} on` : '';
    out.push(problem('error', ['image_name'], 'config-shape', `is missing: ${releaseName(release)} does not start without \`image_name\`${hint}`));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// API names

/** Where an API the release lacks went, for messages: the catalog releases that have it, and the release notes. */
export function apiHistory(api: string, catalogRelease: string): string | undefined {
  const having = releasesWithApi(api);
  const note = Object.hasOwn(releaseNotes().apis, api) ? releaseNotes().apis[api] : undefined;
  const last = having[having.length - 1];
  const first = having[0];
  let when: string | undefined;
  if (last !== undefined && compareVersions(last, catalogRelease) < 0) when = `the ${api} API was last in ${releaseName(last)}`;
  else if (first !== undefined && compareVersions(first, catalogRelease) > 0) when = `the ${api} API arrives in ${first}`;
  const parts = [when, note].filter((p): p is string => p !== undefined);
  return parts.length > 0 ? parts.join('; ') : undefined;
}

/** The problems of one API name (a key of `providers` or an entry of `apis`): none when it takes providers in the release. */
function apiNameProblems(ctx: RuleContext, api: string, path: Path, where: 'providers' | 'apis'): StartupProblem[] {
  const { profile, release } = ctx;
  if (ctx.apis.includes(api)) return [];
  const renamed = profile.renamedApis[api];
  if (renamed !== undefined && ctx.apis.includes(renamed)) {
    return [problem('error', path, 'api-names', `the ${clip(api)} API is called \`${renamed}\` in ${releaseName(release)}: write \`${renamed}\``)];
  }
  const facts = serverRelease(ctx.catalogRelease)?.apis;
  const routingTable = facts !== undefined && Object.hasOwn(facts.routingTables, api);
  if (routingTable || facts?.internal.includes(api)) {
    const what = routingTable ? 'a routing table the server builds itself' : 'an internal API';
    if (where === 'providers') {
      return [problem('error', path, 'api-names', `${code(api)} is ${what}; it cannot take providers ("automatically provided and cannot be overridden")`)];
    }
    const message = `${code(api)} is ${what}, not an API that takes providers; listing it in \`apis\` has no effect`;
    return [problem('warning', path, 'api-names', message, 'apis-entry-no-effect')];
  }
  // An external API (external_apis_dir) may add names the release does not know.
  const severity: Severity = ctx.config.external_apis_dir ? 'warning' : 'error';
  const near = closest(api, ctx.apis);
  const history = apiHistory(api, ctx.catalogRelease);
  const message =
    `${code(api)} is not an API in ${releaseName(release)}${history ? ` (${history})` : ''}.${near ? ` Did you mean \`${near}\`?` : ''} ` +
    `APIs that take providers: ${listOf(ctx.apis)}`;
  return [problem(severity, path, 'api-names', message, 'external-api')];
}

// ---------------------------------------------------------------------------------------------
// Provider entries: the API names of `providers`, and each entry's shape

export function checkProviderEntries(ctx: RuleContext): StartupProblem[] {
  const providers = ctx.config.providers;
  if (!isPlainObject(providers)) return [];
  const out: StartupProblem[] = [];
  for (const [api, entries] of Object.entries(providers)) {
    const apiPath = ['providers', api];
    out.push(...apiNameProblems(ctx, api, apiPath, 'providers'));
    if (!Array.isArray(entries)) {
      out.push(problem('error', apiPath, 'config-shape', 'must be a list of providers (`- provider_id: …` entries)'));
      continue;
    }
    entries.forEach((entry: unknown, index) => {
      const path = [...apiPath, index];
      if (!isPlainObject(entry)) {
        out.push(problem('error', path, 'provider-ids', 'must be a mapping with `provider_id` and `provider_type`'));
        return;
      }
      if (!Object.hasOwn(entry, 'provider_id')) {
        out.push(problem('error', [...path, 'provider_id'], 'provider-ids', 'is missing: every provider entry needs the key (null disables the provider)'));
      } else if (entry.provider_id !== null && typeof entry.provider_id !== 'string') {
        out.push(problem('error', [...path, 'provider_id'], 'provider-ids', `must be a string or null, not ${clip(JSON.stringify(entry.provider_id))}`));
      }
      if (typeof entry.provider_type !== 'string' && idInfo(ctx, entry.provider_id).state !== 'removed') {
        const message = 'is missing: every provider entry needs `provider_type` (`inline::<name>` or `remote::<name>`)';
        out.push(problem('error', [...path, 'provider_type'], 'provider-types', message));
      }
    });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The provider type exists for the API in the release

/** Provider types of an API in the catalog release, for messages. */
const typesOf = (api: string, catalogRelease: string): string[] => Object.keys(providerRegistry(catalogRelease)[api] ?? {}).sort();

/** When a type the release lacks was there: "it was last in 0.4.4", "it arrives in 0.7.1" (from the catalog). */
function typeHistory(api: string, type: string, catalogRelease: string): string | undefined {
  const having = releasesWithProvider(api, type);
  const last = having[having.length - 1];
  const first = having[0];
  if (last !== undefined && compareVersions(last, catalogRelease) < 0) return `it was last in ${releaseName(last)}`;
  if (first !== undefined && compareVersions(first, catalogRelease) > 0) return `it arrives in ${first}`;
  return having.length > 0 ? `the release catalog has it in ${listOf(having)}` : undefined;
}

export function checkProviderTypes(ctx: RuleContext): StartupProblem[] {
  const out: StartupProblem[] = [];
  for (const p of ctx.providers) {
    // Disabled entries are skipped before the server looks their type up.
    if (!p.validApi || p.type === undefined || !possiblyOn(p) || p.external) continue;
    const type = p.type;
    const path = [...p.path, 'provider_type'];
    const severity = severityOf(p);
    const when = p.id.state === 'conditional' ? ` when ${clip(p.id.variable)} is set` : '';
    if (type.includes('${')) {
      out.push(problem('warning', path, 'provider-types', 'comes from an env var, so llsd-render cannot check that the type exists', 'provider-type-from-env'));
      continue;
    }
    if (p.spec) {
      out.push(...usableTypeProblems(ctx, p, type, p.spec, path, severity, when));
      continue;
    }
    const notes = releaseNotes().providerTypes;
    const key = `${p.api} ${type}`;
    const hint = Object.hasOwn(notes, key) ? notes[key] : undefined;
    const history = typeHistory(p.api, type, ctx.catalogRelease);
    const valid = typesOf(p.api, ctx.catalogRelease);
    const elsewhere = ctx.apis.find((api) => api !== p.api && providerSpec(ctx.catalogRelease, api, type) !== undefined);
    let message =
      `${clip(type)} is not available for the ${clip(p.api)} API in ${releaseName(ctx.release)}, so the server stops at startup${when} ` +
      `("Provider \`${clip(type)}\` is not available for API \`${clip(p.api)}\`")`;
    if (history) message += `; ${history}`;
    if (hint) message += `; ${hint}`;
    else if (elsewhere) message += `; it is a ${elsewhere} provider`;
    const near = hint ? undefined : closest(type, valid);
    if (near) message += `. Did you mean \`${near}\`?`;
    if (valid.length > 0) message += `${near ? '' : '.'} ${clip(p.api)} providers: ${listOf(valid)}`;
    out.push(problem(severity, path, 'provider-types', message, 'env-conditional'));
  }
  return out;
}

/** A type the release registers: its own deprecation, or a release note that it cannot start there. */
function usableTypeProblems(
  ctx: RuleContext,
  p: Provider,
  type: string,
  spec: NonNullable<Provider['spec']>,
  path: Path,
  severity: Severity,
  when: string,
): StartupProblem[] {
  if (spec.deprecationError !== undefined) {
    const message = `${clip(type)} is deprecated in ${releaseName(ctx.release)} and refuses to start${when}: ${quote(clip(spec.deprecationError))}`;
    return [problem(severity, path, 'provider-types', message, 'env-conditional')];
  }
  const broken = releaseNotes().brokenProviders.find((b) => b.api === p.api && b.type === type && inRange(ctx.catalogRelease, b));
  if (broken) {
    return [problem(severity, path, 'provider-types', `${clip(type)} cannot start in ${releaseName(ctx.release)}${when}: ${broken.why}`, 'env-conditional')];
  }
  if (spec.deprecationWarning !== undefined) {
    const message = `${clip(type)} is deprecated in ${releaseName(ctx.release)}: ${quote(clip(spec.deprecationWarning))}`;
    return [problem('warning', path, 'provider-types', message, 'deprecated')];
  }
  return [];
}

// ---------------------------------------------------------------------------------------------
// Provider ids unique within an API

export function checkProviderIds(ctx: RuleContext): StartupProblem[] {
  const out: StartupProblem[] = [];
  const seen = new Map<string, Provider>();
  for (const p of ctx.providers) {
    if (!possiblyOn(p) || p.id.id === undefined) continue;
    const key = `${p.api}\u0000${p.id.id}`;
    const earlier = seen.get(key);
    if (!earlier) {
      seen.set(key, p);
      continue;
    }
    const message =
      `repeats the ${clip(p.api)} provider id ${quote(p.id.id)} of ${code(formatFieldPath(earlier.path))}: ` +
      'the server keys providers by id, so one would silently replace the other; give each a distinct provider_id';
    out.push(problem('error', [...p.path, 'provider_id'], 'provider-ids', message));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// APIs without a routing table take one provider

export function checkSingleProviderApis(ctx: RuleContext): StartupProblem[] {
  const out: StartupProblem[] = [];
  for (const api of singleProviderApis(ctx)) {
    const on = providersOf(ctx, api);
    const enabled = on.filter((p) => p.id.state === 'enabled');
    const conditional = on.filter((p) => p.id.state === 'conditional');
    if (enabled.length > 1) {
      for (const p of enabled.slice(1)) {
        const message = `is a second ${clip(api)} provider, but ${clip(api)} takes exactly one: the server keeps one implementation per API and the last one ` +
          `silently wins; remove all but one`;
        out.push({ ...problem('error', p.path, 'single-provider-apis', message), startsAnyway: true });
      }
    } else if (on.length > 1) {
      const vars = [...new Set(conditional.map((p) => p.id.variable as string))];
      const message = `${clip(api)} takes exactly one provider, but ${on.length} are enabled when ${listOf(vars, { last: 'and' })} ` +
        `${vars.length > 1 ? 'are' : 'is'} set: the server would keep only the last one`;
      out.push(problem('warning', ['providers', api], 'single-provider-apis', message, 'env-conditional'));
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// `apis` agrees with `providers`

export function checkApisList(ctx: RuleContext): StartupProblem[] {
  const apis = ctx.config.apis;
  if (apis === undefined || apis === null) return [];
  if (!Array.isArray(apis)) return [problem('error', ['apis'], 'apis-list', 'must be a list of API names')];
  const out: StartupProblem[] = [];
  apis.forEach((api: unknown, index) => {
    if (typeof api !== 'string') {
      out.push(problem('error', ['apis', index], 'apis-list', `must be an API name, not ${clip(JSON.stringify(api))}`));
      return;
    }
    if (!ctx.apis.includes(api)) {
      out.push(...apiNameProblems(ctx, api, ['apis', index], 'apis'));
      return;
    }
    if (ctx.routed.has(api)) return;
    const on = providersOf(ctx, api);
    if (on.length === 0) {
      const message = `lists ${clip(api)}, which has no enabled provider: the server stops while setting up its routes (KeyError); add a ${clip(api)} ` +
        `provider or remove it from \`apis\``;
      out.push(problem('error', ['apis', index], 'apis-list', message));
    } else if (on.every((p) => p.id.state === 'conditional')) {
      const vars = [...new Set(on.map((p) => p.id.variable as string))];
      const message = `lists ${clip(api)}, whose providers are enabled only when ${listOf(vars, { last: 'or' })} is set; without one the server stops while ` +
        `setting up its routes`;
      out.push(problem('warning', ['apis', index], 'apis-list', message, 'env-conditional'));
    }
  });
  const names = ctx.apisListed;
  if (names === undefined) return out;
  const providers = isPlainObject(ctx.config.providers) ? ctx.config.providers : {};
  for (const api of Object.keys(providers)) {
    if (names.includes(api) || !ctx.apis.includes(api) || providersOf(ctx, api).length === 0) continue;
    const router = ctx.routed.has(api) ? ' or build its router, so providers that depend on it cannot start' : '';
    const message = `has providers, but \`apis\` does not list ${clip(api)}: the server does not serve its routes${router}; add it to \`apis\``;
    out.push(problem('warning', ['providers', api], 'apis-list', message, 'api-not-listed'));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// API dependencies

/**
 * The APIs the provider needs in the catalog release (its registry entry's dependencies): only
 * providable ones, as the server serves routing tables and internal APIs itself.
 */
function dependenciesOf(ctx: RuleContext, p: Provider): string[] {
  return (p.spec?.dependencies ?? []).filter((api) => api !== p.api && ctx.apis.includes(api));
}

/**
 * A dependency on a routed API is met by its router, which the server builds for every routed API
 * when `apis` is empty and for the listed ones otherwise, with or without providers behind it. A
 * dependency on any other API is met only by an enabled provider of that API (resolver.py
 * `resolve_impls`: "required dependency 'files' is not available").
 */
export function checkDependencies(ctx: RuleContext): StartupProblem[] {
  const out: StartupProblem[] = [];
  for (const p of ctx.providers) {
    if (!p.validApi || !possiblyOn(p) || p.type === undefined || p.external) continue;
    for (const api of dependenciesOf(ctx, p)) {
      const severity = severityOf(p);
      const who = `${clip(p.type)}${p.id.state === 'conditional' ? ` (enabled when ${clip(p.id.variable)} is set)` : ''}`;
      const on = providersOf(ctx, api);
      if (ctx.routed.has(api)) {
        if (ctx.apisListed && !ctx.apisListed.includes(api)) {
          const message =
            `${who} needs the ${api} API, but \`apis\` does not list ${api}, so the server builds no ${api} router and stops at startup ` +
            `("required dependency '${api}' is not available"); add ${api} to \`apis\``;
          out.push(problem(severity, p.path, 'api-dependencies', message, 'env-conditional'));
        } else if (on.length === 0) {
          const message = `${who} needs the ${api} API, which has no provider: the server starts, but whatever ${clip(p.type)} asks of ${api} fails`;
          out.push(problem('warning', p.path, 'api-dependencies', message, 'missing-api-dependency'));
        }
        continue;
      }
      if (on.length === 0) {
        const message = `${who} needs the ${api} API, and no ${api} provider is enabled: the server stops at startup ("required dependency '${api}' is not ` +
          `available"); add a ${api} provider`;
        out.push(problem(severity, p.path, 'api-dependencies', message, 'env-conditional'));
      } else if (on.every((d) => d.id.state === 'conditional')) {
        const vars = [...new Set(on.map((d) => d.id.variable as string))];
        const message = `${who} needs the ${api} API, whose providers are enabled only when ${listOf(vars, { last: 'or' })} is set; without one the server ` +
          `stops at startup`;
        out.push(problem('warning', p.path, 'api-dependencies', message, 'env-conditional'));
      }
    }
  }
  return out;
}
