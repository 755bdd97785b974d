// Parse, normalise and check one LLSD, in a fixed order that collects every problem (STYLE §4):
// zod schema → normalise polymorphic forms once → cross-field rules.
import type { KrmObject } from '../krm/item.js';
import { apiOfDisabled, checkRules } from './rules.js';
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
  const llsd: Llsd = {
    name: metadata.name,
    labels: metadata.labels ?? {},
    annotations: metadata.annotations ?? {},
    spec,
    providers: withoutDisabled(providers, spec, problems),
    models: normaliseModels(spec),
  };
  if (metadata.namespace) llsd.namespace = metadata.namespace;
  problems.push(...checkRules({ ...llsd, providers }));
  if (problems.some((p) => (p.severity ?? 'error') === 'error')) return { ok: false, problems };
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

/** The spec's edge case: a provider under a disabled API (either spelling) is ignored with a warning; disabled wins. */
function withoutDisabled(providers: ProviderEntry[], spec: SpecInput, problems: FieldProblem[]): ProviderEntry[] {
  const disabled = new Set((spec.disabled ?? []).map(apiOfDisabled));
  return providers.filter((provider) => {
    const api = providerApis[provider.api];
    if (!disabled.has(api)) return true;
    problems.push({
      severity: 'warning',
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
