// CR resources → `registered_resources` (DESIGN §5). Every model gets an explicit provider_id:
// the server silently skips entries without one.
import type { FieldProblem } from '../api/issues.js';
import type { ModelEntry } from '../api/llsd.js';
import { isPlainObject } from '../lib/objects.js';

export interface RegisteredModel {
  model_id: string;
  provider_id: string;
  provider_model_id: string;
  model_type: 'llm' | 'embedding' | 'rerank';
  metadata?: Record<string, unknown>;
}

/**
 * Models for `registered_resources.models`. `defaultProvider` is the first inference provider of the
 * CR (FR-040); `enabledProviders` are the inference provider ids the server will have.
 */
export function registerModels(
  models: readonly ModelEntry[],
  defaultProvider: string | undefined,
  enabledProviders: readonly string[],
  problems: FieldProblem[],
): RegisteredModel[] {
  const registered: RegisteredModel[] = [];
  for (const model of models) {
    const provider = model.provider ?? defaultProvider;
    const available = enabledProviders.length > 0 ? enabledProviders.join(', ') : 'none';
    if (provider === undefined) {
      problems.push({
        path: model.path,
        message: `needs an inference provider: configure \`spec.providers.inference\`, or write the model as \`{name: ${model.name}, provider: <id>}\` with one of the distribution's inference providers: ${available}`,
      });
      continue;
    }
    if (!enabledProviders.includes(provider)) {
      problems.push({
        path: model.provider === undefined ? model.path : [...model.path, 'provider'],
        message: `names the inference provider "${provider}", which the rendered config does not enable; use one of: ${available}`,
      });
      continue;
    }
    const entry: RegisteredModel = {
      model_id: model.name,
      provider_id: provider,
      provider_model_id: model.name,
      model_type: model.modelType ?? 'llm',
    };
    if (model.contextLength !== undefined) entry.metadata = { context_length: model.contextLength };
    if (model.quantization !== undefined) {
      problems.push({
        severity: 'warning',
        path: [...model.path, 'quantization'],
        message: 'is not read by the llama-stack server, so it was not written; choose the quantization on the model server',
      });
    }
    registered.push(entry);
  }
  return registered;
}

/** Registered models of the base that a CR model does not replace, then the CR's, by model_id. */
export function mergeModels(base: unknown, ours: readonly RegisteredModel[]): unknown[] {
  const ids = new Set(ours.map((m) => m.model_id));
  const kept = (Array.isArray(base) ? base : []).filter((m) => !(isPlainObject(m) && ids.has(String(m.model_id))));
  return [...kept, ...ours];
}
