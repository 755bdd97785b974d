// The LLSD's mapping from config.yaml paths to its fields, for the walk in src/core/cr-fields.ts:
// only its providers write config paths a problem can be traced to.
import type { FieldProblem } from '../lib/issues.js';
import { crFieldOf as walk } from '../core/cr-fields.js';
import { providerApis } from './llsd-v1alpha2.js';
import type { Plan } from './plan.js';

/** The LLSD field a config.yaml path (`providers.inference[2].config.max_tokenz`) comes from, or [] when the LLSD did not write it. */
export function crFieldOf(configPath: string, plan: Plan, config: Record<string, unknown>): FieldProblem['path'] {
  const providers = plan.llsd.providers.map((p) => ({ api: providerApis[p.api], id: p.id, path: p.path, settings: p.settings }));
  return walk(configPath, config, { providers });
}
