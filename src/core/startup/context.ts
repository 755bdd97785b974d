// What every startup rule reads: the config, the release's facts, the container's env, and the
// providers, collected once. Read-only: each rule returns its problems and changes nothing here.
//
// Placeholders are judged with the pod's env (pod-env.ts), as the server substitutes them:
// `${env.X:+id}` is `id` when X is set and non-empty, else empty (the provider is off);
// `${env.X:=d}` is X's value, or `d` when X is unset or empty; a bare `${env.X}` aborts startup when
// X is unset. A variable the pod sets from a Secret counts as set, with an unknown value. A variable
// that may or may not be set (an optional reference, `envFrom` of an object not in the input) takes
// its default, and what hangs on it being set is `conditional`: a warning, never an error.
import { placeholdersIn, type Placeholder } from '../placeholders.js';
import { formatFieldPath } from '../../krm/item.js';
import type { WarningCode } from '../../krm/result.js';
import { isPlainObject } from '../../lib/objects.js';
import { clip } from '../../lib/quote.js';
import {
  firstProfileSince,
  providableApis,
  providerFields,
  providerSpec,
  serverRelease,
  type ProviderFields,
  type ProviderSpec,
  type ReleaseProfile,
} from '../../catalog/catalog.js';
import type { StartupRuleId } from './rule-ids.js';
import { asPodEnv, type PodEnv } from '../pod-env.js';

export interface StartupProblem {
  severity: 'error' | 'warning';
  /** Config path, e.g. `providers.inference[2].provider_type`. */
  path: string;
  message: string;
  /** The rule broken (rule-ids.ts). */
  rule: StartupRuleId;
  /** The warning's class; every call that may make a warning names one (the overloads of `problem`). */
  code?: WarningCode;
  /** A key the server reads past without effect (it ignores it): the base's own is an info, not the user's mistake. */
  ignoredKey?: true;
  /** An error the server starts with, running other than the config says (two providers of a one-provider API). */
  startsAnyway?: true;
}

export interface StartupContext {
  /** The llama-stack release the config is for, e.g. `0.7.1`. */
  release: string;
  /** The catalog release whose registry and schemas answer for `release` (plan.catalogRelease). */
  catalogRelease: string;
  profile: ReleaseProfile;
  /** The container's env (pod-env.ts); a set of names: those are set (values unknown), no other. */
  containerEnv: PodEnv | ReadonlySet<string>;
}

export type Path = ReadonlyArray<string | number>;
export type Severity = StartupProblem['severity'];

export function problem(severity: 'error', path: Path, rule: StartupRuleId, message: string): StartupProblem;
export function problem(severity: Severity, path: Path, rule: StartupRuleId, message: string, code: WarningCode): StartupProblem;
export function problem(severity: Severity, path: Path, rule: StartupRuleId, message: string, code?: WarningCode): StartupProblem {
  return { severity, path: formatFieldPath(path), message, rule, ...(severity === 'warning' && code !== undefined && { code }) };
}

/** What a provider_id (or a reference to one) comes to. */
export interface IdInfo {
  /** enabled: certainly on; conditional: on only when `variable` is set; disabled: null id; removed: `__disabled__`. */
  state: 'enabled' | 'conditional' | 'disabled' | 'removed';
  /** The id, when known (undefined: taken from an env var's value). */
  id?: string;
  /** The variable that switches a conditional id. */
  variable?: string;
}

export interface Provider {
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

/** How placeholders read: the container's env, and the release's syntax. */
export interface EnvView {
  readonly env: PodEnv;
  /** `${env.X:=d}` / `${env.X:+v}` (bash); else `${env.X:d}` / `${env.X+v}`. */
  readonly bash: boolean;
}

export interface RuleContext extends EnvView {
  readonly config: Readonly<Record<string, unknown>>;
  readonly release: string;
  readonly catalogRelease: string;
  readonly profile: ReleaseProfile;
  /** APIs that take providers in the release. */
  readonly apis: readonly string[];
  /** The 0.3.0+ layout: storage.backends and registered_resources. */
  readonly newLayout: boolean;
  /** APIs with a routing table: several providers, and a router other providers depend on. */
  readonly routed: ReadonlySet<string>;
  /** The non-empty list of names in `apis`, or undefined (serve everything configured). */
  readonly apisListed: readonly string[] | undefined;
  /** Every mapping entry of every list in `providers`, in order. */
  readonly providers: readonly Provider[];
}

/** A rule: the context in, its problems out. */
export type Rule = (ctx: RuleContext) => StartupProblem[];

export function ruleContext(config: Record<string, unknown>, context: StartupContext): RuleContext {
  const env = asPodEnv(context.containerEnv);
  const bash = context.profile.envSyntax === 'bash';
  const apis = providableApis(context.catalogRelease);
  return {
    env,
    bash,
    config,
    release: context.release,
    catalogRelease: context.catalogRelease,
    profile: context.profile,
    apis,
    newLayout: context.profile.layout === 'storage-backends',
    routed: new Set(serverRelease(context.catalogRelease)?.apis.routed ?? []),
    apisListed: apisListed(config.apis),
    providers: collectProviders(config.providers, apis, context.catalogRelease, { env, bash }),
  };
}

/** The names in `apis`, when it is a list that has any. */
function apisListed(apis: unknown): string[] | undefined {
  if (!Array.isArray(apis)) return undefined;
  const names = apis.filter((api): api is string => typeof api === 'string');
  return names.length > 0 ? names : undefined;
}

function collectProviders(providers: unknown, apis: readonly string[], catalogRelease: string, view: EnvView): Provider[] {
  if (!isPlainObject(providers)) return [];
  const out: Provider[] = [];
  for (const [api, entries] of Object.entries(providers)) {
    if (!Array.isArray(entries)) continue;
    entries.forEach((entry: unknown, index) => {
      if (!isPlainObject(entry)) return;
      const type = typeof entry.provider_type === 'string' ? entry.provider_type : undefined;
      const spec = type === undefined ? undefined : providerSpec(catalogRelease, api, type);
      out.push({
        api,
        index,
        path: ['providers', api, index],
        entry,
        config: isPlainObject(entry.config) ? entry.config : {},
        type,
        spec,
        fields: spec && type !== undefined ? providerFields(catalogRelease, api, type) : undefined,
        id: idInfo(view, entry.provider_id),
        validApi: apis.includes(api),
        external: typeof entry.module === 'string' && entry.module !== '',
      });
    });
  }
  return out;
}

export const possiblyOn = (p: Provider): boolean => p.id.state === 'enabled' || p.id.state === 'conditional';

/** The providers of `api` that may be on. */
export const providersOf = (ctx: RuleContext, api: string): Provider[] => ctx.providers.filter((p) => p.api === api && p.validApi && possiblyOn(p));

/** Providable APIs without a routing table: the server keeps one provider each. */
export const singleProviderApis = (ctx: RuleContext): string[] => ctx.apis.filter((api) => !ctx.routed.has(api));

/** An error where the provider is surely on, a warning where it hangs on a variable. */
export const severityOf = (p: Provider): Severity => (p.id.state === 'enabled' ? 'error' : 'warning');

// ---------------------------------------------------------------------------------------------
// Env placeholders

/** The form of a scalar: literal text, exactly one placeholder, or a mix. */
export type Form =
  | { kind: 'literal'; value: string }
  | { kind: 'placeholder'; placeholder: Placeholder }
  | { kind: 'mixed'; placeholders: readonly Placeholder[] };

export function formOf(view: EnvView, text: string): Form {
  const placeholders = placeholdersIn(text, view.bash);
  const only = placeholders[0];
  if (!only) return { kind: 'literal', value: text };
  if (placeholders.length === 1 && only.raw === text) return { kind: 'placeholder', placeholder: only };
  return { kind: 'mixed', placeholders };
}

/**
 * The value `text` takes in the pod: known values substituted, unset variables giving their `:=`
 * default or `:+` emptiness; undefined when it depends on a value the render cannot see (a
 * Secret's, a variable that may or may not be set, a bare one that is unset).
 */
export function whenUnset(view: EnvView, text: string): string | undefined {
  let out = '';
  let last = 0;
  for (const p of placeholdersIn(text, view.bash)) {
    out += text.slice(last, p.index);
    last = p.index + p.raw.length;
    const value = valueIn(view.env, p.name);
    if (value === undefined) return undefined;
    // The server's forms: `:=` takes the default for an unset or empty variable, `:+` the text for a set, non-empty one.
    if (p.op === ':+') out += value === null || value === '' ? '' : p.text;
    else if (p.op === ':=') out += value === null || value === '' ? p.text : value;
    else if (value === null) return undefined;
    else out += value;
  }
  return out + text.slice(last);
}

/**
 * A variable's value in the pod: null when unset, undefined when unknown (a Secret's). One that may
 * or may not be set counts as unset here, so its default is judged; what hangs on it being set is
 * `conditional` (idInfo).
 */
function valueIn(env: PodEnv, name: string): string | null | undefined {
  return env.has(name) ? env.value(name) : null;
}

export function idInfo(view: EnvView, raw: unknown): IdInfo {
  if (raw === null || raw === undefined) return { state: 'disabled' };
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a provider_id the YAML gave as a number or boolean, shown as the server reads it
  if (typeof raw !== 'string') return { state: 'enabled', id: String(raw) };
  const form = formOf(view, raw);
  if (form.kind === 'literal') {
    if (raw === '') return { state: 'disabled' };
    if (raw === '__disabled__') return { state: 'removed' };
    return { state: 'enabled', id: raw };
  }
  if (form.kind === 'placeholder') {
    const { name, op, text } = form.placeholder;
    const value = valueIn(view.env, name);
    const empty = value === null || value === '';
    if (op === ':+') {
      if (text === '' || (empty && !view.env.maybe(name))) return { state: 'disabled' };
      return empty ? { state: 'conditional', id: text, variable: name } : { state: 'enabled', id: text };
    }
    if (op === ':=') {
      if (value === undefined) return { state: 'enabled' };
      if (!empty) return { state: 'enabled', id: value };
      if (text === '') return view.env.maybe(name) ? { state: 'conditional', variable: name } : { state: 'disabled' };
      if (text === '__disabled__') return { state: 'removed', variable: name };
      return { state: 'enabled', id: text };
    }
    return value === undefined || value === null || value === '' ? { state: 'enabled' } : { state: 'enabled', id: value };
  }
  const value = whenUnset(view, raw);
  if (value === undefined) return { state: 'enabled' };
  return value === '' ? { state: 'disabled' } : value === '__disabled__' ? { state: 'removed' } : { state: 'enabled', id: value };
}

// ---------------------------------------------------------------------------------------------
// Message helpers shared by the rules

/** "set INFERENCE_MODEL in `spec.workload.overrides.env` (name: INFERENCE_MODEL, value: …)". */
export const howToSet = (name: string): string => `set ${clip(name)} in \`spec.workload.overrides.env\` (name: ${clip(name)}, value: …)`;

export const isNonEmptyList = (value: unknown): value is unknown[] => Array.isArray(value) && value.length > 0;

/** The first release whose profile has `has`, for "is read from X on" (configs/releases.yaml). */
export const firstWith = (has: (profile: ReleaseProfile) => boolean): string => firstProfileSince(has) ?? 'a later release';
export const storageLayoutSince = (): string => firstWith((p) => p.layout === 'storage-backends');
