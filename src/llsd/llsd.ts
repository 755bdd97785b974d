// Parse, normalise and check one LLSD, in a fixed order that collects every problem (STYLE §4):
// zod schema → normalise polymorphic forms once → cross-field rules. A v1alpha1 LLSD is checked
// with its own schema first and converted (docs/api.md).
import { reservedKeys } from '../lib/reserved-keys.js';
import type { KrmObject } from '../krm/item.js';
import { isPlainObject, setOwn } from '../lib/objects.js';
import { quote } from '../lib/quote.js';
import { toV1alpha2, v1alpha1FieldsNotRendered, v1alpha1Problem } from './conversion.js';
import { v1alpha1Schemas } from './llsd-v1alpha1.js';
import { apiOfDisabled, checkRules } from './rules.js';
import { isError, isNear, problemsFromIssues, type FieldProblem } from '../lib/issues.js';
import { withShapeHints } from '../core/shape-hints.js';
import { jsonSchemaOf } from '../core/crd.js';
import { lazily } from '../lib/zod.js';
import {
  group,
  kind,
  llsdV1alpha2Schemas,
  providerApis,
  type ModelInput,
  type ProviderApi,
  type ProviderInput,
  type SpecInput,
} from './llsd-v1alpha2.js';

export const llsdKind = kind;
/** Is this object an LLSD, of any version (group llamastack.io, kind LlamaStackDistribution)? */
export const isLlsdObject = (object: Pick<KrmObject, 'apiVersion' | 'kind'>): boolean => object.kind === kind && object.apiVersion.startsWith(`${group}/`);
export const supportedLlsdVersions = [`${group}/v1alpha2`, `${group}/v1alpha1`] as const;
export type LlsdVersion = (typeof supportedLlsdVersions)[number];

/**
 * An object that is not an LLSD but was likely meant as one: a kind a typo away from
 * LlamaStackDistribution (any case), or that kind with a group a typo away from llamastack.io (or
 * none). Passed through unrendered it would make the render silently empty, and Argo CD would
 * prune what the LLSD generated before; so it is an error naming the right spelling. An LLSD with
 * an unknown version of the right group is an LLSD, and its reader reports the version.
 */
export function llsdNearMiss(object: Pick<KrmObject, 'apiVersion' | 'kind'>): FieldProblem | undefined {
  if (isLlsdObject(object)) return undefined;
  const slash = object.apiVersion.indexOf('/');
  const objectGroup = slash < 0 ? '' : object.apiVersion.slice(0, slash);
  const right = `\`${supportedLlsdVersions[0]}\``;
  if (object.kind !== kind && isNear(object.kind, kind)) {
    return {
      path: ['kind'],
      message: `must be \`${kind}\` (apiVersion ${right}) for llsd-render to render it, not "${object.kind}"; as a misspelt LLSD it would render nothing`,
    };
  }
  // No other group has this kind: written with any other, it is an LLSD that would render nothing.
  if (object.kind === kind) {
    const wrote = slash < 0 ? `"${object.apiVersion.slice(0, 40)}" is not <group>/<version>` : `the group "${objectGroup}" is not ${group}`;
    return {
      path: ['apiVersion'],
      message: `must be ${right} (or \`${supportedLlsdVersions[1]}\`) for llsd-render to render this ${kind}: ${wrote}, and the LLSD would render nothing`,
    };
  }
  // The group has one kind; anything else in it (the short name `LLSD`, say) is an LLSD written wrong.
  if (objectGroup === group) {
    return {
      path: ['kind'],
      message: `must be \`${kind}\`, the one kind of ${group}, not ${quote(object.kind)}; written otherwise the LLSD would render nothing`,
    };
  }
  return undefined;
}

export interface LlsdReader {
  /** Parses an LLSD of this version; its problems are at this version's field paths. */
  parse(object: KrmObject): ParsedLlsd;
  /** A problem found later (references, plan, config), told at this version's field path. */
  localise(problem: FieldProblem): FieldProblem;
}

/**
 * How each LLSD version is read (STYLE §5). A v1alpha1 LLSD renders as the operator deployed it:
 * checked with the v1alpha1 schema, converted to v1alpha2 (its `userConfig` becomes
 * `overrideConfig`), then read as v1alpha2, with every problem at its v1alpha1 field.
 */
export const llsdReaders: Record<LlsdVersion, LlsdReader> = {
  [`${group}/v1alpha2`]: { parse: parseLlsd, localise: (problem) => problem },
  [`${group}/v1alpha1`]: { parse: parseLlsdV1alpha1, localise: v1alpha1Problem },
};

/** A provider with its id settled and the path it was written at. */
export interface ProviderEntry extends ProviderInput {
  id: string;
  api: ProviderApi;
  path: Array<string | number>;
}

/** A model in object form, with the path it was written at. */
export type ModelEntry = Exclude<ModelInput, string> & { path: Array<string | number> };

/** What later stages read: the spec with every polymorphic field in one shape. */
export interface Llsd {
  name: string;
  namespace?: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  spec: SpecInput;
  providers: ProviderEntry[];
  models: ModelEntry[];
}

export type ParsedLlsd = { ok: true; llsd: Llsd; problems: FieldProblem[] } | { ok: false; problems: FieldProblem[] };

const requiredHints = {
  spec: 'add a `spec` with at least `distribution: {name: starter}`',
  'spec.distribution': 'set `spec.distribution.name` (for example `starter`) or `spec.distribution.image`',
  'spec.providers.inference.provider': 'name the provider type, for example `provider: vllm`',
};

/** The JSON Schema of the spec, for the examples of what to write (core/shape-hints.ts); made at the first error. */
const llsdSpecJsonSchema = lazily(() => jsonSchemaOf(llsdV1alpha2Schemas().specSchema));

export function parseLlsd(object: KrmObject): ParsedLlsd {
  const reserved = reservedKeys(object);
  if (reserved.length > 0) return { ok: false, problems: reserved };
  const { llsdSchema } = llsdV1alpha2Schemas();
  const parsed = llsdSchema.safeParse(object, { reportInput: true });
  if (!parsed.success) {
    return { ok: false, problems: withShapeHints(problemsFromIssues(parsed.error.issues, llsdSchema, requiredHints), object, llsdSpecJsonSchema()) };
  }
  const { metadata } = parsed.data;
  // The order of a mapping's keys carries no meaning (a reformat may change it), so it must not
  // reach the output: every mapping of the spec, the labels and the annotations are read in key
  // order. Lists keep theirs (env, models, args are ordered).
  const spec = sortedKeys(parsed.data.spec);
  const problems: FieldProblem[] = [];
  const providers = normaliseProviders(spec, problems);
  const llsd: Llsd = {
    name: metadata.name,
    labels: sortedKeys(metadata.labels ?? {}),
    annotations: sortedKeys(metadata.annotations ?? {}),
    spec,
    providers: withoutDisabled(providers, spec, problems),
    models: normaliseModels(spec),
  };
  if (metadata.namespace) llsd.namespace = metadata.namespace;
  problems.push(...checkRules({ ...llsd, providers }));
  if (problems.some(isError)) return { ok: false, problems };
  return { ok: true, llsd, problems };
}

/**
 * A copy with every mapping's keys in code-unit order (the same on every machine), `name` first as
 * Kubernetes writes it (a volume, a container port); lists as they are.
 */
function sortedKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(sortedKeys) as T;
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort(byCodeUnit)) setOwn(out, key, sortedKeys(value[key]));
  return out as T;
}

const byCodeUnit = (a: string, b: string): number => (a === b ? 0 : a === 'name' ? -1 : b === 'name' ? 1 : a < b ? -1 : 1);

const requiredHintsV1alpha1 = {
  spec: 'add a `spec` with at least `server: {distribution: {name: starter}}`',
  'spec.server': 'add `server` with at least `distribution: {name: starter}`',
  'spec.server.distribution': 'set `spec.server.distribution.name` (for example `starter`) or `spec.server.distribution.image`',
};


function parseLlsdV1alpha1(object: KrmObject): ParsedLlsd {
  const reserved = reservedKeys(object);
  if (reserved.length > 0) return { ok: false, problems: reserved };
  const { llsdV1alpha1Schema } = v1alpha1Schemas();
  const checked = llsdV1alpha1Schema.safeParse(object, { reportInput: true });
  if (!checked.success) {
    return { ok: false, problems: problemsFromIssues(checked.error.issues, llsdV1alpha1Schema, requiredHintsV1alpha1) };
  }
  const converted = toV1alpha2(object);
  if (converted.problems.some(isError)) return { ok: false, problems: converted.problems };
  const parsed = parseLlsd(converted.object as KrmObject);
  const problems = [...converted.problems, ...v1alpha1FieldsNotRendered(object), ...parsed.problems.map(v1alpha1Problem)];
  return parsed.ok && !problems.some(isError) ? { ...parsed, problems } : { ok: false, problems };
}

/**
 * FR-035: the provider name, without a `remote::`/`inline::` prefix (`remote::vllm` → `vllm`); a
 * second `::` becomes `-` (`remote::hf::endpoint` → `hf-endpoint`), as ids are DNS labels.
 */
const defaultId = (provider: string): string => provider.replace(/^(remote|inline)::/, '').replaceAll('::', '-');

/** Single object or list → a list with ids: a single provider's id defaults to its `provider` (FR-035). */
function normaliseProviders(spec: SpecInput, problems: FieldProblem[]): ProviderEntry[] {
  const entries: ProviderEntry[] = [];
  for (const api of Object.keys(providerApis) as ProviderApi[]) {
    const value = spec.providers?.[api];
    if (value === undefined) continue;
    const base = ['spec', 'providers', api];
    if (!Array.isArray(value)) {
      entries.push({ ...value, id: value.id ?? defaultId(value.provider), api, path: base });
      continue;
    }
    value.forEach((provider, i) => {
      const path = [...base, i];
      if (provider.id === undefined && value.length > 1) {
        problems.push({
          path: [...path, 'id'],
          message: `is required because \`spec.providers.${api}\` lists ${value.length} providers; give each one a unique \`id\`, for example \`id: ` +
            `${provider.provider}-${i + 1}\``,
        });
        return;
      }
      entries.push({ ...provider, id: provider.id ?? defaultId(provider.provider), api, path });
    });
  }
  return entries;
}

/** The spec's edge case: a provider under a disabled API (either spelling) is ignored with a warning; disabled wins. */
function withoutDisabled(providers: ProviderEntry[], spec: SpecInput, problems: FieldProblem[]): ProviderEntry[] {
  const disabled = new Set((spec.disabled ?? []).map(apiOfDisabled));
  return providers.filter((provider) => {
    const api = providerApis[provider.api];
    if (!disabled.has(api)) return true;
    problems.push({
      severity: 'warning', code: 'provider-of-disabled-api',
      path: provider.path,
      message: `is ignored because \`spec.disabled\` lists ${api}; remove it from \`disabled\` to use this provider`,
    });
    return false;
  });
}

function normaliseModels(spec: SpecInput): ModelEntry[] {
  return (spec.resources?.models ?? []).map((model, i) => {
    const path = ['spec', 'resources', 'models', i];
    return typeof model === 'string' ? { name: model, path } : { ...model, path };
  });
}
