// Startup rules on a provider's settings: keys its type needs at startup although its schema makes
// them optional, keys it has replaced, and the keys of its URL and credential, with the URL's value.
import { isPlainObject } from '../../lib/objects.js';
import { clip, quote } from '../../lib/quote.js';
import { firstProfileSince, inRange, releaseNotes, type ProviderFields } from '../../catalog/catalog.js';
import { startupFacts } from '../../catalog/startup-facts.js';
import {
  formOf,
  howToSet,
  possiblyOn,
  problem,
  severityOf,
  type Path,
  type Provider,
  type RuleContext,
  type Severity,
  type StartupProblem,
} from './context.js';
import { releaseName } from '../../catalog/versions.js';

export function checkProviderSettings(ctx: RuleContext): StartupProblem[] {
  const out: StartupProblem[] = [];
  for (const p of ctx.providers) {
    if (!p.validApi || !possiblyOn(p) || p.type === undefined || p.external || !p.fields) continue;
    const severity = severityOf(p);
    const configPath = [...p.path, 'config'];
    if (p.entry.config !== undefined && p.entry.config !== null && !isPlainObject(p.entry.config)) {
      out.push(problem(severity, configPath, 'provider-settings', 'must be a mapping of the provider\'s settings', 'env-conditional'));
      continue;
    }
    out.push(...runtimeKeyProblems(ctx, p, configPath, severity));
    out.push(...credentialKeyProblems(ctx, p, p.fields, configPath, severity));
    if (p.api === 'inference') out.push(...urlKeyProblems(ctx, p, p.fields, configPath, severity));
  }
  return out;
}

/** The value at a dotted path (`network.tls`) of a config mapping, or undefined. */
function valueAt(config: Record<string, unknown>, dotted: string): unknown {
  let value: unknown = config;
  for (const key of dotted.split('.')) value = isPlainObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;
  return value;
}

/** What the schema cannot say (configs/release-notes.yaml): keys needed at startup, keys replaced. */
function runtimeKeyProblems(ctx: RuleContext, p: Provider, configPath: Path, severity: Severity): StartupProblem[] {
  const notes = releaseNotes();
  const applies = (fact: { api: string; type: string; since: string; through?: string | undefined }): boolean =>
    fact.api === p.api && fact.type === p.type && inRange(ctx.catalogRelease, fact);
  const out: StartupProblem[] = [];
  for (const fact of notes.requiredAtRuntime.filter(applies)) {
    const value = p.config[fact.key];
    if (value !== undefined && value !== null) continue;
    const message = `is missing: ${clip(p.type)} in ${releaseName(ctx.release)} needs it although its schema makes it optional: ${fact.why}`;
    out.push(problem(severity, [...configPath, fact.key], 'provider-settings', message, 'env-conditional'));
  }
  for (const fact of notes.deprecatedKeys.filter(applies)) {
    if (!Object.hasOwn(p.config, fact.key)) continue;
    const replacement = fact.ignoredWhenSet === undefined ? undefined : valueAt(p.config, fact.ignoredWhenSet);
    if (replacement !== undefined && replacement !== null) {
      // Read only while its replacement is unset: here the key changes nothing (a base's `network.tls` kept TLS verified).
      const message =
        `has no effect in ${releaseName(ctx.release)}: \`${fact.ignoredWhenSet}\` is set in this provider's config, and the server then ignores ` +
        `${clip(fact.key)}: ${fact.instead}`;
      out.push(problem('warning', [...configPath, fact.key], 'provider-settings', message, 'ignored-by-release'));
      continue;
    }
    const message = `is deprecated in ${releaseName(ctx.release)}: ${fact.instead}`;
    out.push(problem('warning', [...configPath, fact.key], 'provider-settings', message, 'deprecated'));
  }
  return out;
}

function credentialKeyProblems(ctx: RuleContext, p: Provider, fields: ProviderFields, configPath: Path, severity: Severity): StartupProblem[] {
  const { credentialKeys } = startupFacts().inference;
  const expected = fields.keys.find((k) => credentialKeys.includes(k));
  if (expected === undefined) return [];
  const out: StartupProblem[] = [];
  for (const key of credentialKeys) {
    if (key === expected || !Object.hasOwn(p.config, key) || fields.keys.includes(key)) continue;
    const message = `is not a ${clip(p.type)} setting in ${releaseName(ctx.release)}; the server silently ignores it and sends no credential: its credential ` +
      `key is \`${expected}\``;
    out.push({ ...problem(severity, [...configPath, key], 'provider-settings', message, 'env-conditional'), ignoredKey: true });
  }
  return out;
}

function urlKeyProblems(ctx: RuleContext, p: Provider, fields: ProviderFields, configPath: Path, severity: Severity): StartupProblem[] {
  const { urlKeys, urlRequired } = startupFacts().inference;
  const urlPrefix = ctx.profile.inferenceUrlHasApiPrefix;
  const expected = fields.keys.find((k) => urlKeys.includes(k));
  const out: StartupProblem[] = [];
  for (const key of urlKeys) {
    if (key === expected || !Object.hasOwn(p.config, key) || fields.keys.includes(key)) continue;
    const instead = expected
      ? `its URL key is \`${expected}\`${expected === 'base_url' && urlPrefix ? ' (the full URL including /v1)' : ''}`
      : `${clip(p.type)} takes no URL setting`;
    const message = `is not a ${clip(p.type)} setting in ${releaseName(ctx.release)}; the server silently ignores it: ${instead}`;
    out.push({ ...problem(severity, [...configPath, key], 'provider-settings', message, 'env-conditional'), ignoredKey: true });
  }
  if (expected === undefined) return out;
  const value = p.config[expected];
  const at = [...configPath, expected];
  // A provider without a default URL refuses to start without one (vLLM's).
  const needsUrl = p.type !== undefined && urlRequired.includes(p.type);
  if (value === undefined || value === null || value === '') {
    if (needsUrl) {
      const message = `is missing: ${clip(p.type)} has no default URL and refuses to start without one; write the server's full ` +
        `URL${urlPrefix ? ', including /v1' : ''}`;
      out.push(problem(severity, at, 'provider-settings', message, 'env-conditional'));
    }
    return out;
  }
  if (typeof value !== 'string' || expected !== 'base_url' || !urlPrefix) {
    if (needsUrl && typeof value === 'string') out.push(...urlDefaultProblems(ctx, p, at, value, severity, false));
    return out;
  }
  out.push(...urlDefaultProblems(ctx, p, at, value, severity, true));
  return out;
}

/** base_url is a pydantic HttpUrl (0.4.0+) and nothing is appended to it at run time. */
function urlDefaultProblems(ctx: RuleContext, p: Provider, at: Path, value: string, severity: Severity, httpUrl: boolean): StartupProblem[] {
  const facts = startupFacts().inference;
  const form = formOf(ctx, value);
  let url: string;
  let which = '';
  if (form.kind === 'literal') {
    url = value;
  } else if (form.kind === 'placeholder' && form.placeholder.op === ':=' && !ctx.env.has(form.placeholder.name)) {
    const { name, text } = form.placeholder;
    if (text === '') {
      // Empty unless the variable is set: a provider without a default URL then has none.
      if (p.type === undefined || !facts.urlRequired.includes(p.type) || p.id.variable === name) return [];
      const on = p.id.state === 'conditional' ? ` (enabled when ${clip(p.id.variable)} is set)` : '';
      const message = `is empty unless ${clip(name)} is set, and ${clip(p.type)}${on} refuses to start without a URL: ${howToSet(name)}`;
      return [problem(severity, at, 'provider-settings', message, 'env-conditional')];
    }
    url = text;
    which = ` (the default used while ${clip(name)} is unset)`;
  } else {
    return [];
  }
  if (!httpUrl) return [];
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    const message = `${quote(url)}${which} is not an absolute http(s) URL, and base_url must be one: the server rejects the config at startup`;
    return [problem(severity, at, 'provider-settings', message, 'env-conditional')];
  }
  if ((parsed.pathname === '/' || parsed.pathname === '') && p.type && facts.v1BaseUrl.includes(p.type)) {
    const since = firstProfileSince((f) => f.inferenceUrlHasApiPrefix) ?? ctx.release;
    const message =
      `${quote(url)}${which} has no path, but from ${releaseName(since)} on base_url is the full OpenAI-compatible URL and nothing is appended at run time: ` +
      `write ${quote(`${url.replace(/\/$/, '')}/v1`)}`;
    return [problem('warning', at, 'provider-settings', message, 'base-url-without-path')];
  }
  return [];
}
