// The OGXServer's mapping from config.yaml paths to its fields, for the walk in src/core/cr-fields.ts:
// a provider entry's id leads to the provider that wrote it, the models to `resources.models`, the
// port to `network.port`, storage to `storage`; what the base config holds maps to the item.
import type { FieldProblem } from '../lib/issues.js';
import { crFieldOf, type CrFieldMap } from '../core/cr-fields.js';
import type { OgxServerSpec } from './ogxserver.js';
import { ogxProviderIds } from './rules.js';

type Spec = Pick<OgxServerSpec, 'providers' | 'resources' | 'storage'>;

/** The OGXServer field behind a path of its generated config.yaml, or [] (the item) for what the base config holds. */
export function ogxFieldOf(configPath: string, spec: Spec, config: Record<string, unknown>): FieldProblem['path'] {
  const providers = ogxProviderIds(spec).map((p) => ({ api: p.api, id: p.id, path: p.path, settings: p.entry.settings }));
  return crFieldOf(configPath, config, { providers, others: others(spec) });
}

const others = (spec: Spec): CrFieldMap['others'] => [
  {
    pattern: /^registered_resources\.models\[(\d+)\](\.model_type)?/,
    field: ([, index, modelType]) => {
      const models = spec.resources?.models;
      if (models && Number(index) >= models.length) return ['spec', 'resources', 'models'];
      if (models) return ['spec', 'resources', 'models', Number(index), ...(modelType ? ['modelType'] : [])];
      // The base's own models: a problem with them comes from the inference providers that replaced the base's.
      return spec.providers?.inference ? ['spec', 'providers', 'inference'] : undefined;
    },
  },
  { pattern: /^server\.port$/, field: () => ['spec', 'network', 'port'] },
  { pattern: /^storage\b/, field: () => (spec.storage ? ['spec', 'storage'] : undefined) },
];
