// CR resources → registered resources (docs/config-generation.md; docs/config-generation.md "The generated config.yaml"): models, shields and tool
// groups, under `registered_resources` (0.3.0+) or as top-level lists (≤ 0.2). Every entry gets an
// explicit provider_id: the server silently skips entries without one.
import type { FieldProblem } from '../lib/issues.js';
import { closest } from '../lib/issues.js';
import type { ModelEntry } from './llsd.js';
import { isPlainObject, setOwn } from '../lib/objects.js';
import { clip, listOf, quote } from '../lib/quote.js';
import type { ReleaseProfile } from '../catalog/catalog.js';
import { compareVersions } from '../catalog/versions.js';
import { providerTable, toolGroupTable, type ToolGroupTable } from '../catalog/catalog.js';
import { releaseName } from '../catalog/versions.js';

export interface RegisteredModel {
  model_id: string;
  provider_id: string;
  provider_model_id: string;
  model_type: 'llm' | 'embedding' | 'rerank';
  metadata?: Record<string, unknown>;
}

export interface RegisteredShield {
  shield_id: string;
  provider_id: string;
  provider_shield_id: string;
}

export interface RegisteredToolGroup {
  toolgroup_id: string;
  provider_id: string;
}

/** The resource lists each API's providers serve, by the list's key (both layouts). */
export const resourceListsOf: Readonly<Record<string, readonly string[]>> = {
  inference: ['models'],
  safety: ['shields'],
  vector_io: ['vector_stores', 'vector_dbs'],
  tool_runtime: ['tool_groups'],
  datasetio: ['datasets'],
  scoring: ['scoring_fns'],
  eval: ['benchmarks'],
};

/** Where registered resources live: `registered_resources` (0.3.0+) or the top level (≤ 0.2). */
function resourceHome(config: Record<string, unknown>, profile: ReleaseProfile, create: boolean): Record<string, unknown> | undefined {
  if (profile.layout === 'top-level-stores') return config;
  if (isPlainObject(config.registered_resources)) return config.registered_resources;
  if (!create) return undefined;
  const home: Record<string, unknown> = {};
  setOwn(config, 'registered_resources', home);
  return home;
}

/** The registered list `key` (`models`, `shields`, …) of the config, or [] when it has none. */
export function resourceList(config: Record<string, unknown>, profile: ReleaseProfile, key: string): unknown[] {
  const list = resourceHome(config, profile, false)?.[key];
  return Array.isArray(list) ? list : [];
}

export function setResourceList(config: Record<string, unknown>, profile: ReleaseProfile, key: string, list: unknown[]): void {
  setOwn(resourceHome(config, profile, true) as Record<string, unknown>, key, list);
}

/** Base entries that none of `ours` replaces (same `idKey`), then ours: a CR resource wins over the base's. */
export function mergeById<T extends object>(base: unknown, ours: readonly T[], idKey: keyof T & string): unknown[] {
  const ids = new Set(ours.map((entry) => String(entry[idKey])));
  const kept = (Array.isArray(base) ? base : []).filter((entry) => !(isPlainObject(entry) && ids.has(String(entry[idKey]))));
  return [...kept, ...ours];
}

/** Registered models of the base that a CR model does not replace, then the CR's, by model_id. */
export const mergeModels = (base: unknown, ours: readonly RegisteredModel[]): unknown[] => mergeById(base, ours, 'model_id');

/**
 * Models to register. `defaultProvider` is the first inference provider of the CR (FR-040);
 * `enabledProviders` are the inference provider ids the server will have; `ownProviders` the CR's
 * own, listed first when a model names none of them (the user looks for theirs, not the base's);
 * `failedProviders` the CR's own that were refused (a misspelt type): a model naming one is left
 * out without an error of its own, since the provider's error is the one to fix.
 */
export function registerModels(
  models: readonly ModelEntry[],
  defaultProvider: string | undefined,
  enabledProviders: readonly string[],
  problems: FieldProblem[],
  ownProviders: readonly string[] = [],
  failedProviders: ReadonlySet<string> = new Set(),
): RegisteredModel[] {
  const registered: RegisteredModel[] = [];
  const own = ownProviders.filter((id) => enabledProviders.includes(id));
  const ordered = [...own, ...enabledProviders.filter((id) => !own.includes(id))];
  for (const model of models) {
    const provider = model.provider ?? defaultProvider;
    const available = ordered.length > 0 ? listOf(ordered) : 'none';
    if (provider === undefined) {
      problems.push({
        path: model.path,
        message: `needs an inference provider: configure \`spec.providers.inference\`, or write the model as \`{name: ${clip(model.name)}, provider: <id>}\` ` +
          `with one of the distribution's inference providers: ${available}`,
      });
      continue;
    }
    if (failedProviders.has(provider)) continue;
    if (!enabledProviders.includes(provider)) {
      problems.push({
        path: model.provider === undefined ? model.path : [...model.path, 'provider'],
        message: `names the inference provider ${quote(provider)}, which the rendered config does not enable;${nearest(provider, ordered)} use one of: ` +
          `${available}`,
      });
      continue;
    }
    const entry: RegisteredModel = {
      model_id: model.name,
      provider_id: provider,
      provider_model_id: model.name,
      model_type: model.modelType ?? 'llm',
    };
    const metadata: Record<string, unknown> = {};
    if (model.contextLength !== undefined) metadata.context_length = model.contextLength;
    // The server refuses an embedding model without it (rules.ts makes the CR give it).
    if (model.embeddingDimension !== undefined) metadata.embedding_dimension = model.embeddingDimension;
    if (Object.keys(metadata).length > 0) entry.metadata = metadata;
    if (model.quantization !== undefined) {
      problems.push({
        severity: 'warning', code: 'field-has-no-effect',
        path: [...model.path, 'quantization'],
        message: 'is not read by the llama-stack server, so it was not written; choose the quantization on the model server',
      });
    }
    registered.push(entry);
  }
  return registered;
}

/**
 * The id a client (and a llama-guard shield) uses for a registered model: `model_id` in ≤ 0.2;
 * `provider_id/provider_model_id` in 0.3–0.7 and `provider_id/model_id` in 0.8, which are the same
 * for the models matched here (their provider_model_id is their model_id).
 */
function modelIdentifier(model: { model_id: string; provider_id: string }, profile: ReleaseProfile): string {
  return profile.layout === 'top-level-stores' ? model.model_id : `${model.provider_id}/${model.model_id}`;
}

/** Registered models the server will certainly have, by model_id: ours and the base's literal ones. */
function certainModels(config: Record<string, unknown>, profile: ReleaseProfile): Array<{ model_id: string; provider_id: string }> {
  return resourceList(config, profile, 'models').flatMap((m) => {
    if (!isPlainObject(m) || typeof m.model_id !== 'string' || typeof m.provider_id !== 'string') return [];
    if (m.model_id.includes('${') || m.provider_id.includes('${')) return [];
    if (m.provider_model_id !== undefined && m.provider_model_id !== m.model_id) return [];
    return [{ model_id: m.model_id, provider_id: m.provider_id }];
  });
}

interface ProviderChoice {
  id: string;
  type: string;
}

/** Literal provider entries of an API (not switched by an env var), in config order. */
export function literalProviders(entries: unknown): ProviderChoice[] {
  if (!Array.isArray(entries)) return [];
  return entries.flatMap((e) =>
    isPlainObject(e) && typeof e.provider_id === 'string' && e.provider_id !== '' && !e.provider_id.includes('${') && typeof e.provider_type === 'string'
      ? [{ id: e.provider_id, type: e.provider_type }]
      : [],
  );
}

export interface ShieldInput {
  config: Record<string, unknown>;
  profile: ReleaseProfile;
  shields: readonly string[];
  /** Ids of the CR's safety providers, in CR order. */
  crProviders: readonly string[];
  /** `spec.disabled` lists safety. */
  disabled: boolean;
  /** A CR safety provider was refused: its error is the one to fix, so the shields get none (nor infos about a fallback). */
  providerFailed?: boolean;
  /** Names of CR models refused with an error of their own: a shield named after one gets no second error. */
  refusedModels?: ReadonlySet<string>;
}

/**
 * Shields (FR-044) go to the CR's first safety provider, else the distribution's first enabled one.
 * `provider_shield_id` is what the provider runs: for a guard-model provider (`shieldIsModel` in
 * configs/providers.yaml: llama-guard) a guard model served by an inference provider, so the shield
 * must be named after a registered model (the spec's shields are plain names, and upstream's configs
 * name the shield after its guard model too); for the other safety providers it is the shield's own
 * name (the server's default when left out).
 */
export function registerShields(input: ShieldInput, problems: FieldProblem[]): RegisteredShield[] {
  const { config, profile } = input;
  const path = ['spec', 'resources', 'shields'];
  const providers = isPlainObject(config.providers) ? config.providers : {};
  const enabled = literalProviders(providers.safety);
  if (input.disabled) {
    problems.push({ path, message: 'cannot be registered because `spec.disabled` lists safety; remove safety from `disabled`, or remove the shields' });
    return [];
  }
  if (input.providerFailed) return [];
  const chosen = enabled.find((p) => p.id === input.crProviders[0]) ?? enabled[0];
  if (!chosen) {
    problems.push({
      path,
      message: 'needs a safety provider, and the distribution enables none: configure `spec.providers.safety`, for example `{provider: llama-guard}`',
    });
    return [];
  }
  if (chosen.id !== input.crProviders[0] && enabled.length > 1) {
    problems.push({
      severity: 'info',
      path,
      message: `registered with the distribution's safety provider ${quote(chosen.id)}, the first of ${listOf(enabled.map((p) => p.id))}; configure ` +
        `\`spec.providers.safety\` to choose another`,
    });
  }
  const models = certainModels(config, profile);
  const runsModel = providerTable().some((row) => row.api === 'safety' && row.type === chosen.type && row.shieldIsModel === true);
  const registered: RegisteredShield[] = [];
  input.shields.forEach((name, i) => {
    if (registered.some((s) => s.shield_id === name)) return;
    let providerShieldId = name;
    if (runsModel) {
      const model = models.find((m) => m.model_id === name);
      if (!model && input.refusedModels?.has(name)) return;
      if (!model) {
        problems.push({
          path: [...path, i],
          message: `names no registered model: the safety provider ${quote(chosen.id)} (${chosen.type}) runs each shield's guard model through inference, so ` +
            `register the guard model under the shield's name in \`spec.resources.models\`, for example \`models: [{name: meta-llama/Llama-Guard-3-8B, ` +
            `provider: <inference provider id>}]\` and \`shields: [meta-llama/Llama-Guard-3-8B]\``,
        });
        return;
      }
      providerShieldId = modelIdentifier(model, profile);
    }
    registered.push({ shield_id: name, provider_id: chosen.id, provider_shield_id: providerShieldId });
  });
  return registered;
}

/**
 * With shields of its own registered, a base `safety.default_shield_id` must name one the server
 * certainly registers, or startup fails; one that names a shield switched by an env var (starter's
 * `llama-guard` with SAFETY_MODEL) is moved to the CR's first shield, with an info result.
 */
export function settleDefaultShield(
  config: Record<string, unknown>,
  profile: ReleaseProfile,
  ours: readonly RegisteredShield[],
  problems: FieldProblem[],
): void {
  const safety = config.safety;
  const first = ours[0];
  if (!profile.defaultShieldId || !isPlainObject(safety) || typeof safety.default_shield_id !== 'string' || !first) return;
  const certain = resourceList(config, profile, 'shields').flatMap((s) =>
    isPlainObject(s) && typeof s.shield_id === 'string' && typeof s.provider_id === 'string' && !s.provider_id.includes('${') ? [s.shield_id] : [],
  );
  if (certain.includes(safety.default_shield_id)) return;
  problems.push({
    severity: 'info',
    path: ['spec', 'resources', 'shields', 0],
    message: `set safety.default_shield_id to ${quote(first.shield_id)}: the distribution's default ${quote(safety.default_shield_id)} is not a shield the ` +
      `server will certainly register, and a default that names no registered shield stops the server`,
  });
  setOwn(safety, 'default_shield_id', first.shield_id);
}

const toolGroups = (): ToolGroupTable => toolGroupTable();

export interface ToolInput {
  config: Record<string, unknown>;
  profile: ReleaseProfile;
  release: string;
  tools: readonly string[];
  /** Ids of the CR's tool_runtime providers, in CR order. */
  crProviders: readonly string[];
  /** `spec.disabled` lists tool_runtime. */
  disabled: boolean;
}

/**
 * Tools are llama-stack's built-in tool groups. Releases with `toolGroups: registered` (≤ 0.6) get a
 * `tool_groups` entry naming a tool_runtime provider that serves the group (the CR's first, else the
 * distribution's first); `auto` releases (0.7.0+) register the groups of their tool_runtime
 * providers themselves and ignore `tool_groups`, so nothing is written, but a provider that serves
 * the group must be enabled.
 */
export function registerTools(input: ToolInput, problems: FieldProblem[]): RegisteredToolGroup[] {
  const { config, profile, release } = input;
  const path = ['spec', 'resources', 'tools'];
  if (input.disabled) {
    problems.push({
      path,
      message: 'cannot be registered because `spec.disabled` lists tool_runtime; remove tool_runtime from `disabled`, or remove the tools',
    });
    return [];
  }
  const providers = isPlainObject(config.providers) ? config.providers : {};
  const enabled = literalProviders(providers.tool_runtime);
  const ours = enabled.filter((p) => input.crProviders.includes(p.id)).sort((a, b) => input.crProviders.indexOf(a.id) - input.crProviders.indexOf(b.id));
  const candidates = [...ours, ...enabled.filter((p) => !input.crProviders.includes(p.id))];
  const known = toolGroups().flatMap((t) => t.names);
  const baseGroups = resourceList(config, profile, 'tool_groups').filter(isPlainObject);
  const registered: RegisteredToolGroup[] = [];
  input.tools.forEach((tool, i) => {
    const name = tool.replace(/^builtin::/, '');
    const entry = toolGroups().find((t) => t.names.includes(name));
    if (!entry) {
      const near = closest(name, known);
      problems.push({
        path: [...path, i],
        message: `${quote(tool)} is not a built-in tool group.${near ? ` Did you mean "${near}"?` : ''} Known tools: ` +
          `${listOf(toolGroups().map((t) => t.names[0] as string))}`,
      });
      return;
    }
    const variant = entry.variants.find(
      (v) => (v.since === undefined || compareVersions(v.since, release) <= 0) && (v.until === undefined || compareVersions(release, v.until) < 0),
    );
    if (!variant) {
      problems.push({ path: [...path, i], message: `${quote(tool)} has no built-in tool group in ${releaseName(release)}; remove it` });
      return;
    }
    const provider = candidates.find((p) => variant.providers.includes(p.type));
    if (!provider) {
      const short = variant.providers.map((t) => t.replace(/^(remote|inline)::/, ''));
      const example = variant.providers[0]?.startsWith('remote::')
        ? `{provider: ${short[0]}, apiKey: {secretKeyRef: {name: <secret>, key: <key>}}}`
        : `{provider: ${short[0]}}`;
      problems.push({
        path: [...path, i],
        message: `needs a tool_runtime provider that serves ${variant.toolGroup} (${orList(short)}), and the rendered config enables none: add one to ` +
          `\`spec.providers.toolRuntime\`, for example \`${example}\``,
      });
      return;
    }
    if (profile.toolGroups === 'auto' || registered.some((t) => t.toolgroup_id === variant.toolGroup)) return;
    // The distribution's own entry for the group stays, when its provider serves it, unless the CR
    // configured a provider for the group.
    const kept = baseGroups.find(
      (g) => g.toolgroup_id === variant.toolGroup && candidates.some((p) => p.id === g.provider_id && variant.providers.includes(p.type)),
    );
    if (kept && !input.crProviders.includes(provider.id)) return;
    registered.push({ toolgroup_id: variant.toolGroup, provider_id: provider.id });
  });
  return registered;
}

const orList = (items: readonly string[]): string => listOf(items, { last: 'or' });

const nearest = (word: string, candidates: readonly string[]): string => {
  const near = closest(word, candidates);
  return near ? ` did you mean ${quote(near)}?` : '';
};
