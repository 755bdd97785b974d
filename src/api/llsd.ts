// Parse, normalise and check one LLSD, in a fixed order that collects every problem (STYLE §4):
// zod schema → normalise polymorphic forms once → cross-field rules.
import { formatFieldPath, type KrmObject } from '../krm/item.js';
import { problemsFromIssues, type FieldProblem } from './issues.js';
import {
  group,
  kind,
  llsdSchema,
  providerApis,
  type ModelInput,
  type ProviderApi,
  type ProviderInput,
  type SpecInput,
} from './llsd-v1alpha2.js';

export const llsdKind = kind;
export const supportedLlsdVersions = [`${group}/v1alpha2`] as const;

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

export function parseLlsd(object: KrmObject): ParsedLlsd {
  const parsed = llsdSchema.safeParse(object, { reportInput: true });
  if (!parsed.success) {
    return { ok: false, problems: problemsFromIssues(parsed.error.issues, llsdSchema, requiredHints) };
  }
  const { metadata, spec } = parsed.data;
  const problems: FieldProblem[] = [];
  const providers = normaliseProviders(spec, problems);
  const models = normaliseModels(spec);
  checkDistribution(spec, problems);
  checkUniqueProviderIds(providers, problems);
  if (problems.length > 0) return { ok: false, problems };
  const llsd: Llsd = {
    name: metadata.name,
    labels: metadata.labels ?? {},
    annotations: metadata.annotations ?? {},
    spec,
    providers,
    models,
  };
  if (metadata.namespace) llsd.namespace = metadata.namespace;
  return { ok: true, llsd, problems };
}

/** Single object or list → a list with ids: a single provider's id defaults to its `provider` (FR-035). */
function normaliseProviders(spec: SpecInput, problems: FieldProblem[]): ProviderEntry[] {
  const entries: ProviderEntry[] = [];
  for (const api of Object.keys(providerApis) as ProviderApi[]) {
    const value = spec.providers?.[api];
    if (value === undefined) continue;
    const base = ['spec', 'providers', api];
    if (!Array.isArray(value)) {
      entries.push({ ...value, id: value.id ?? value.provider, api, path: base });
      continue;
    }
    value.forEach((provider, i) => {
      const path = [...base, i];
      if (provider.id === undefined && value.length > 1) {
        problems.push({
          path: [...path, 'id'],
          message: `is required because \`spec.providers.${api}\` lists ${value.length} providers; give each one a unique \`id\`, for example \`id: ${provider.provider}-${i + 1}\``,
        });
        return;
      }
      entries.push({ ...provider, id: provider.id ?? provider.provider, api, path });
    });
  }
  return entries;
}

function normaliseModels(spec: SpecInput): ModelEntry[] {
  return (spec.resources?.models ?? []).map((model, i) => {
    const path = ['spec', 'resources', 'models', i];
    return typeof model === 'string' ? { name: model, path } : { ...model, path };
  });
}

function checkDistribution(spec: SpecInput, problems: FieldProblem[]): void {
  const { name, image } = spec.distribution;
  if ((name === undefined) === (image === undefined)) {
    problems.push({
      path: ['spec', 'distribution'],
      message:
        name === undefined
          ? 'must set `name` (a named distribution such as `starter`) or `image` (a distribution image)'
          : 'must set only one of `name` and `image`: a named distribution already pins its image',
    });
  }
}

/** FR-072: ids are unique across every provider API, not only within one. */
function checkUniqueProviderIds(providers: ProviderEntry[], problems: FieldProblem[]): void {
  const first = new Map<string, ProviderEntry>();
  for (const provider of providers) {
    const earlier = first.get(provider.id);
    if (!earlier) {
      first.set(provider.id, provider);
      continue;
    }
    problems.push({
      path: [...provider.path, 'id'],
      message: `duplicates the provider id "${provider.id}" of \`${formatFieldPath(earlier.path)}\`; provider ids must be unique across all APIs`,
    });
  }
}
