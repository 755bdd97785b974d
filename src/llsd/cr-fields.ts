// The LLSD's mapping from config.yaml paths to its fields, for the walk in src/core/cr-fields.ts:
// its providers, and the models it registers (by model_id, as they sit among the base's).
import type { FieldProblem } from '../lib/issues.js';
import { isPlainObject } from '../lib/objects.js';
import { crFieldOf as walk, type CrFieldMap } from '../core/cr-fields.js';
import { providerApis } from './llsd-v1alpha2.js';
import type { Plan } from './plan.js';

/** The LLSD field a config.yaml path (`providers.inference[2].config.max_tokenz`) comes from, or [] when the LLSD did not write it. */
export function crFieldOf(configPath: string, plan: Plan, config: Record<string, unknown>): FieldProblem['path'] {
  const providers = plan.llsd.providers.map((p) => ({ api: providerApis[p.api], id: p.id, path: p.path, settings: p.settings }));
  return walk(configPath, config, { providers, others: others(plan, config) });
}

const others = (plan: Plan, config: Record<string, unknown>): CrFieldMap['others'] => [
  {
    // `registered_resources.models` from 0.3.0, top-level `models` before.
    pattern: /^((?:registered_resources\.)?models)\[(\d+)\](\.provider_id)?/,
    field: ([, list, index, providerId]) => {
      const home = list === 'models' ? config : config.registered_resources;
      const models = isPlainObject(home) ? home.models : undefined;
      const entry = Array.isArray(models) ? models[Number(index)] : undefined;
      const model = isPlainObject(entry) ? plan.llsd.models.find((m) => m.name === entry.model_id) : undefined;
      if (!model) return undefined;
      return providerId && model.provider !== undefined ? [...model.path, 'provider'] : model.path;
    },
  },
];
