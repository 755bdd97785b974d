// Startup rules on registered resources: models; shields, vector stores and tool groups; and the
// defaults that name them (vector_stores defaults, safety.default_shield_id). Each names a provider
// the server must have, or it stops at startup ("Provider not found").
import { vectorProviderSettings } from '../vector-defaults.js';
import { closest } from '../../lib/issues.js';
import { placeholdersIn } from '../placeholders.js';
import { isPlainObject } from '../../lib/objects.js';
import { clip, listOf, quote } from '../../lib/quote.js';
import { catalogReleases, runConfigKeys } from '../../catalog/catalog.js';
import { substitutionOf } from '../../catalog/schemas.js';
import { startupFacts } from '../../catalog/startup-facts.js';
import { compareVersions } from '../../catalog/versions.js';
import { apiHistory } from './apis.js';
import {
  firstWith,
  howToSet,
  idInfo,
  isNonEmptyList,
  problem,
  providersOf,
  storageLayoutSince,
  type Path,
  type RuleContext,
  type Severity,
  type StartupProblem,
} from './context.js';
import type { StartupRuleId } from './rule-ids.js';
import { releaseName } from '../../catalog/versions.js';

/** Where the resource lists live: registered_resources (0.3.0+) or the top level (≤ 0.2). */
function resources(ctx: RuleContext): { home: Readonly<Record<string, unknown>>; path: string[] } {
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

function referenceOf(ctx: RuleContext, raw: unknown): Reference | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- an id the YAML gave as a number or boolean, shown as the server reads it
  if (typeof raw !== 'string') return { id: String(raw) };
  const info = idInfo(ctx, raw);
  if (info.state === 'disabled' || info.state === 'removed') return undefined;
  if (info.id === undefined) return info.variable ? { variable: info.variable, unknown: true } : { unknown: true };
  return info.variable ? { id: info.id, variable: info.variable } : { id: info.id };
}

/**
 * A resource's provider_id must name a provider of `api` the server will have: an unknown id is
 * fatal at startup ("Provider not found"); one switched by an env var is a warning.
 */
function referenceProblems(ctx: RuleContext, api: string, raw: unknown, path: Path, rule: StartupRuleId, resourceConditional: boolean): StartupProblem[] {
  const ref = referenceOf(ctx, raw);
  if (!ref || ref.unknown || ref.id === undefined) return [];
  const candidates = providersOf(ctx, api);
  const matches = candidates.filter((p) => p.id.id === ref.id);
  const conditional = resourceConditional || ref.variable !== undefined;
  if (matches.length === 0) {
    // A provider whose id comes from an env var might be the one.
    if (candidates.some((p) => p.id.id === undefined)) return [];
    const ids = candidates.map((p) => p.id.id as string);
    const near = closest(ref.id, ids);
    const switchedOff = switchOf(ctx, api, ref.id);
    if (switchedOff !== undefined) {
      // Set to nothing (`value: ""`, an optional key a ConfigMap lacks) is off too: "set it" was no help where it is set.
      const empty = ctx.env.has(switchedOff) && ctx.env.value(switchedOff) === '';
      const state = empty ? 'it is set to an empty value' : 'it is unset';
      const fix = empty ? `give ${clip(switchedOff)} a value` : howToSet(switchedOff);
      const message =
        `names the ${clip(api)} provider ${quote(ref.id)}, which is off in this pod: ${clip(switchedOff)} switches it on, and ${state}; the server stops ` +
        `at startup ("Provider not found")${conditional ? ' once this entry is registered' : ''}: ${fix}, or name another provider`;
      return [problem(conditional ? 'warning' : 'error', path, rule, message, 'env-conditional')];
    }
    const state = ctx.providers.some((p) => p.api === api && p.entry.provider_id === ref.id) ? 'enabled' : 'configured';
    const message =
      `names the ${clip(api)} provider ${quote(ref.id)}, which is not ${state}: the server stops at startup ("Provider not found")` +
      `${conditional ? ' once this entry is registered' : ''}.${near ? ` Did you mean ${quote(near)}?` : ''} ` +
      `${ids.length ? `${clip(api)} providers: ${listOf(ids)}` : `There is no ${clip(api)} provider`}`;
    return [problem(conditional ? 'warning' : 'error', path, rule, message, 'env-conditional')];
  }
  if (!conditional && matches.every((p) => p.id.state === 'conditional')) {
    const vars = [...new Set(matches.map((p) => p.id.variable as string))];
    const message = `names the ${clip(api)} provider ${quote(ref.id)}, which is enabled only when ${listOf(vars, { last: 'or' })} is set; without it the ` +
      `server stops at startup ("Provider not found")`;
    return [problem('warning', path, rule, message, 'env-conditional')];
  }
  return [];
}

/** The variable whose `${env.X:+id}` would give a provider of `api` the id `id`, when that provider is off in the pod. */
function switchOf(ctx: RuleContext, api: string, id: string): string | undefined {
  for (const p of ctx.providers) {
    if (p.api !== api || p.id.state !== 'disabled' || typeof p.entry.provider_id !== 'string') continue;
    const on = placeholdersIn(p.entry.provider_id, ctx.bash).find((ph) => ph.op === ':+' && ph.text === id);
    if (on) return on.name;
  }
  return undefined;
}

/** Is the entry conditional on its id (`model_id: ${env.X:+…}` with X possibly unset drops it)? */
function entryConditional(ctx: RuleContext, raw: unknown): boolean {
  return typeof raw === 'string' && raw.includes('${') && idInfo(ctx, raw).state === 'conditional';
}

/**
 * The server drops a resource whose id comes to empty in the pod (`model_id: ${env.EMBEDDING_MODEL:=}`
 * with the variable unset) before it reads the rest: nothing of it is judged. Only placeholders: a
 * literal empty id is the entry's own mistake.
 */
function droppedEntry(ctx: RuleContext, entry: Readonly<Record<string, unknown>>, idKey: string): boolean {
  const raw = entry[idKey];
  if (typeof raw !== 'string' || !raw.includes('${') || !substitutionOf(ctx.catalogRelease).droppedWhenEmpty.includes(idKey)) return false;
  return idInfo(ctx, raw).state === 'disabled';
}

// ---------------------------------------------------------------------------------------------
// Registered models

export function checkModels(ctx: RuleContext): StartupProblem[] {
  const { home, path: base } = resources(ctx);
  const out: StartupProblem[] = [];
  if (ctx.newLayout && isNonEmptyList(ctx.config.models)) {
    const message = `is the ≤ 0.2 layout; ${releaseName(ctx.release)} ignores it and registers \`registered_resources.models\``;
    out.push(problem('warning', ['models'], 'models', message, 'ignored-by-release'));
  }
  if (!ctx.newLayout && ctx.config.registered_resources !== undefined && ctx.config.registered_resources !== null) {
    const message =
      `is read from ${storageLayoutSince()} on; ${releaseName(ctx.release)} ignores it and registers the top-level ` +
      '`models`, `shields`, `vector_dbs` and `tool_groups`';
    out.push(problem('warning', ['registered_resources'], 'models', message, 'ignored-by-release'));
  }
  const models = home.models;
  if (models === undefined || models === null) return out;
  if (!Array.isArray(models)) return [...out, problem('error', [...base, 'models'], 'models', 'must be a list of models')];
  const modelTypes = startupFacts().resources.modelTypes;
  models.forEach((model: unknown, index) => {
    const path = [...base, 'models', index];
    if (!isPlainObject(model)) {
      out.push(problem('error', path, 'models', 'must be a mapping with model_id and provider_id'));
      return;
    }
    if (droppedEntry(ctx, model, 'model_id')) return;
    const conditional = entryConditional(ctx, model.model_id);
    const severity: Severity = conditional ? 'warning' : 'error';
    if (model.model_id === undefined || model.model_id === null || model.model_id === '') {
      out.push(problem('error', [...path, 'model_id'], 'models', 'is missing: every registered model needs a model_id'));
    }
    if (model.provider_id === undefined || model.provider_id === null || model.provider_id === '') {
      const message = 'is missing: the server silently skips a model without provider_id; name its inference provider';
      out.push(problem('warning', [...path, 'provider_id'], 'models', message, 'missing-provider-id'));
    } else if (!(model.provider_id === 'all' && ctx.profile.modelsForAllProviders)) {
      out.push(...referenceProblems(ctx, 'inference', model.provider_id, [...path, 'provider_id'], 'models', conditional));
    }
    const type = model.model_type ?? 'llm';
    if (typeof type === 'string' && !type.includes('${') && !modelTypes.includes(type)) {
      out.push(problem(severity, [...path, 'model_type'], 'models', `${quote(type)} is not a model type: one of ${listOf(modelTypes)}`, 'env-conditional'));
    }
    if (type === 'embedding') {
      const metadata = model.metadata;
      if (!isPlainObject(metadata) || metadata.embedding_dimension === undefined || metadata.embedding_dimension === null) {
        const message = 'is missing: an embedding model needs metadata.embedding_dimension, or the server stops at startup';
        out.push(problem(severity, [...path, 'metadata', 'embedding_dimension'], 'models', message, 'env-conditional'));
      }
    }
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Shields, vector stores, tool groups; lists of APIs the release lacks

export function checkOtherResources(ctx: RuleContext): StartupProblem[] {
  const { home, path: base } = resources(ctx);
  const release = ctx.release;
  const out: StartupProblem[] = [];
  if (ctx.newLayout) {
    for (const key of ['shields', 'vector_dbs', 'tool_groups']) {
      if (!isNonEmptyList(ctx.config[key])) continue;
      const message = `is the ≤ 0.2 layout; ${releaseName(release)} ignores it and reads ` +
        `\`registered_resources.${key === 'vector_dbs' ? 'vector_stores' : key}\``;
      out.push(problem('warning', [key], 'resources', message, 'ignored-by-release'));
    }
    if (isNonEmptyList(home.vector_dbs)) {
      const message = `is not read by ${releaseName(release)} (ignored): vector DBs became \`registered_resources.vector_stores\` in ${storageLayoutSince()}`;
      out.push(problem('warning', [...base, 'vector_dbs'], 'resources', message, 'ignored-by-release'));
    }
    for (const [key, api] of Object.entries(startupFacts().resources.apiOfList)) {
      if (isNonEmptyList(home[key]) && !ctx.apis.includes(api)) {
        const history = apiHistory(api, ctx.catalogRelease);
        const message = `is ignored by ${releaseName(release)}: it has no ${clip(api)} API, and so none of its resources${history ? ` (${history})` : ''}`;
        out.push(problem('warning', [...base, key], 'resources', message, 'ignored-by-release'));
      }
    }
  }
  out.push(
    ...eachEntry(home, [...base, 'shields'], (entry, path) => {
      if (droppedEntry(ctx, entry, 'shield_id')) return [];
      const conditional = entryConditional(ctx, entry.shield_id);
      const missing = entry.shield_id === undefined || entry.shield_id === null || entry.shield_id === '';
      return [
        ...(missing ? [problem('error', [...path, 'shield_id'], 'resources', 'is missing: every registered shield needs a shield_id')] : []),
        ...resourceProvider(ctx, entry, path, 'safety', 'shield', conditional),
      ];
    }),
  );
  const storesKey = ctx.newLayout ? 'vector_stores' : 'vector_dbs';
  const idKey = ctx.newLayout ? 'vector_store_id' : 'vector_db_id';
  const required = ctx.newLayout ? [idKey, 'embedding_model', 'embedding_dimension'] : [idKey, 'embedding_model'];
  out.push(
    ...eachEntry(home, [...base, storesKey], (entry, path) => {
      if (droppedEntry(ctx, entry, idKey)) return [];
      const conditional = entryConditional(ctx, entry[idKey]);
      const message = `is missing: a registered vector store needs ${listOf(required)}`;
      const missing = required
        .filter((key) => entry[key] === undefined || entry[key] === null)
        .map((key) => problem(conditional ? 'warning' : 'error', [...path, key], 'resources', message, 'env-conditional'));
      return [...missing, ...resourceProvider(ctx, entry, path, 'vector_io', 'vector store', conditional)];
    }),
  );
  const toolGroups = home.tool_groups;
  if (ctx.profile.toolGroups === 'auto') {
    if (isNonEmptyList(toolGroups)) {
      const message =
        `is ignored by ${releaseName(release)} (emptied with a warning): tool groups are registered from the tool_runtime providers; ` +
        'configure those, and MCP servers under `connectors`';
      out.push(problem('warning', [...base, 'tool_groups'], 'resources', message, 'ignored-by-release'));
    }
    return out;
  }
  out.push(
    ...eachEntry(home, [...base, 'tool_groups'], (entry, path) => {
      if (droppedEntry(ctx, entry, 'toolgroup_id')) return [];
      const missing = entry.toolgroup_id === undefined || entry.toolgroup_id === null || entry.toolgroup_id === '';
      return [
        ...(missing ? [problem('error', [...path, 'toolgroup_id'], 'resources', 'is missing: every tool group needs a toolgroup_id')] : []),
        ...resourceProvider(ctx, entry, path, 'tool_runtime', 'tool group', entryConditional(ctx, entry.toolgroup_id)),
      ];
    }),
  );
  return out;
}

/** The problems of each entry of the list at `path` (its last key, under `home`), and of the list's shape. */
function eachEntry(
  home: Readonly<Record<string, unknown>>,
  path: Array<string | number>,
  check: (entry: Record<string, unknown>, path: Path) => StartupProblem[],
): StartupProblem[] {
  const entries = home[path[path.length - 1] as string];
  if (entries === undefined || entries === null) return [];
  if (!Array.isArray(entries)) return [problem('error', path, 'resources', 'must be a list')];
  return entries.flatMap((entry: unknown, index) =>
    isPlainObject(entry) ? check(entry, [...path, index]) : [problem('error', [...path, index], 'resources', 'must be a mapping')],
  );
}

function resourceProvider(ctx: RuleContext, entry: Record<string, unknown>, path: Path, api: string, what: string, conditional: boolean): StartupProblem[] {
  if (entry.provider_id === undefined || entry.provider_id === null || entry.provider_id === '') {
    const message = `is missing: the server silently skips a ${what} without provider_id; name its ${clip(api)} provider`;
    return [problem('warning', [...path, 'provider_id'], 'resources', message, 'missing-provider-id')];
  }
  return referenceProblems(ctx, api, entry.provider_id, [...path, 'provider_id'], 'resources', conditional);
}

// ---------------------------------------------------------------------------------------------
// Defaults that name registered resources

export function checkDefaults(ctx: RuleContext): StartupProblem[] {
  const { home } = resources(ctx);
  const models = Array.isArray(home.models) ? home.models.filter(isPlainObject) : [];
  const out: StartupProblem[] = [];
  const vectorStores = ctx.config.vector_stores;
  if (ctx.newLayout && isPlainObject(vectorStores)) {
    const readKeys = runConfigKeys(ctx.catalogRelease, ['vector_stores']) ?? [];
    for (const [key, type] of Object.entries(startupFacts().resources.vectorStoreDefaults)) {
      const value = vectorStores[key];
      if (value === undefined || value === null) continue;
      const path = ['vector_stores', key];
      if (!readKeys.includes(key)) {
        const from = catalogReleases().find((r) => compareVersions(r, ctx.catalogRelease) > 0 && runConfigKeys(r, ['vector_stores'])?.includes(key));
        const message = `is not read by ${releaseName(ctx.release)}, which ignores it${from ? ` (read from ${from} on)` : ''}`;
        out.push(problem('warning', path, 'resource-defaults', message, 'ignored-by-release'));
        continue;
      }
      if (!isPlainObject(value) || typeof value.model_id !== 'string' || value.provider_id === undefined || value.provider_id === null) {
        out.push(problem('error', path, 'resource-defaults', `must name a registered ${clip(type)} model: {provider_id: …, model_id: …}`));
        continue;
      }
      out.push(...referenceProblems(ctx, 'inference', value.provider_id, [...path, 'provider_id'], 'resource-defaults', false));
      // A model the provider lists itself (sentence-transformers, transformers) is registered at
      // run time and cannot be checked here; one registered in the config must have the right type.
      const registered = models.find((m) => m.provider_id === value.provider_id && (m.model_id === value.model_id || m.provider_model_id === value.model_id));
      const registeredType = registered ? (registered.model_type ?? 'llm') : undefined;
      if (registered && typeof registeredType === 'string' && !registeredType.includes('${') && registeredType !== type) {
        const message =
          `names the model ${quote(value.model_id)}, which is registered as model_type ${clip(registeredType)}; ` +
          `the ${key.replace(/_/g, ' ')} must be a ${clip(type)} model`;
        out.push(problem('error', [...path, 'model_id'], 'resource-defaults', message));
      }
    }
  }
  if (ctx.newLayout) out.push(...vectorProviderDefaults(ctx));
  return [...out, ...defaultShieldProblems(ctx, home)];
}

/** Each setting that names a vector_io provider (configs/startup-facts.yaml `vectorProviderSettings`) names an enabled one. */
function vectorProviderDefaults(ctx: RuleContext): StartupProblem[] {
  const vectorIo = providersOf(ctx, 'vector_io');
  const out: StartupProblem[] = [];
  for (const setting of vectorProviderSettings(ctx.config)) {
    const { value, path } = setting;
    if (typeof value !== 'string' || value.includes('${')) continue;
    // Replaced at startup by a run-config section the config has (a provider's `vector_stores_config` by `vector_stores`).
    if (setting.replacedBy !== undefined && isPlainObject(ctx.config[setting.replacedBy])) continue;
    if (vectorIo.some((p) => p.id.id === value || p.id.id === undefined)) continue;
    const ids = vectorIo.map((p) => String(p.id.id));
    const fix = ids.length > 0 ? `name one of the enabled vector_io providers instead: ${listOf(ids)}` : 'the config has no enabled vector_io provider';
    const message = `names ${quote(value)}, which is not an enabled vector_io provider: ${setting.why}; ${fix}`;
    out.push(problem('warning', path, 'resource-defaults', message, 'default-provider-not-enabled'));
  }
  return out;
}

function defaultShieldProblems(ctx: RuleContext, home: Readonly<Record<string, unknown>>): StartupProblem[] {
  const safety = ctx.config.safety;
  if (!isPlainObject(safety) || safety.default_shield_id === undefined || safety.default_shield_id === null) return [];
  const path = ['safety', 'default_shield_id'];
  if (!ctx.profile.defaultShieldId) {
    const message = `is read from ${firstWith((p) => p.defaultShieldId)} on; ${releaseName(ctx.release)} ignores it`;
    return [problem('warning', path, 'resource-defaults', message, 'ignored-by-release')];
  }
  const wanted = safety.default_shield_id;
  if (typeof wanted !== 'string' || wanted.includes('${')) return [];
  const shields = Array.isArray(home.shields) ? home.shields.filter(isPlainObject) : [];
  const registered = shields.filter((s) => referenceOf(ctx, s.provider_id) !== undefined);
  if (registered.length === 0) return [];
  if (shields.some((s) => s.shield_id === wanted)) return [];
  const certain = registered.some((s) => {
    const ref = referenceOf(ctx, s.provider_id);
    return ref !== undefined && ref.variable === undefined && !entryConditional(ctx, s.shield_id);
  });
  const message =
    `names the shield ${quote(wanted)}, which is not registered: with shields registered, the server stops at startup unless the default is one of them ` +
    `(${listOf(shields.map((s) => String(s.shield_id)))})`;
  return [problem(certain ? 'error' : 'warning', path, 'resource-defaults', message, 'env-conditional')];
}
