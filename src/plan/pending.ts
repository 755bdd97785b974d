// Fields the schema accepts but this version does not render yet (an error each, never ignored).
import type { FieldProblem } from '../api/issues.js';
import type { Llsd } from '../api/llsd.js';
import { isPlainObject } from '../lib/objects.js';
import { version } from '../version.js';

/**
 * Fields the schema accepts but this version does not render yet. They are errors, not silently
 * ignored: a deployment without the storage or network policy the CR asks for is worse than none.
 */
const pendingFields: ReadonlyArray<readonly string[]> = [
  ['spec', 'networking', 'tls'],
  ['spec', 'networking', 'expose'],
  ['spec', 'networking', 'allowedFrom'],
  ['spec', 'workload', 'workers'],
  ['spec', 'workload', 'autoscaling'],
  ['spec', 'workload', 'storage'],
  ['spec', 'workload', 'podDisruptionBudget'],
  ['spec', 'workload', 'topologySpreadConstraints'],
];

export function notRenderedYet(llsd: Llsd): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const path of pendingFields) {
    let value: unknown = { spec: llsd.spec };
    for (const key of path) value = isPlainObject(value) ? value[key] : undefined;
    // `false` and `{}` are how "off" is written (`expose: false`, `tls: {}` from a v1alpha1 CR);
    // but `expose: {}` means exposed (DESIGN §8).
    const off = value === false || (isPlainObject(value) && Object.keys(value).length === 0 && path.at(-1) !== 'expose');
    if (value !== undefined && !off) {
      problems.push({ path: [...path], message: `is valid but not rendered by llsd-render ${version} yet; remove it, or render this LLSD with a later version` });
    }
  }
  return problems;
}

