// ConfigMap keys the server's env takes (`workload.overrides.env[].valueFrom.configMapKeyRef`, either
// API): like a Secret's, a ConfigMap or key that is not there keeps the pod in
// CreateContainerConfigError. The ConfigMap may be made elsewhere (another package, the cluster),
// so its absence is a warning; a key missing from a ConfigMap that is in the input is one too.
import type { Inventory } from '../krm/inventory.js';
import type { FieldProblem } from '../lib/issues.js';
import { closest } from '../lib/issues.js';
import { isPlainObject } from '../lib/objects.js';
import { clip, listOf, quote } from '../lib/quote.js';

const envPath = ['spec', 'workload', 'overrides', 'env'];

export function configMapReferenceProblems(namespace: string | undefined, env: unknown, inventory: Inventory): FieldProblem[] {
  if (!Array.isArray(env) || inventory.generator) return [];
  const problems: FieldProblem[] = [];
  const told = new Set<string>();
  env.forEach((entry: unknown, i) => {
    const from = isPlainObject(entry) && isPlainObject(entry.valueFrom) ? entry.valueFrom : undefined;
    const ref = from && isPlainObject(from.configMapKeyRef) ? from.configMapKeyRef : undefined;
    // An optional reference lets the pod start without it.
    if (!ref || typeof ref.name !== 'string' || typeof ref.key !== 'string' || ref.optional === true) return;
    const path = [...envPath, i, 'valueFrom', 'configMapKeyRef'];
    const configMap = inventory.find('', 'ConfigMap', namespace, ref.name)?.object;
    if (!configMap) {
      if (told.has(ref.name)) return;
      told.add(ref.name);
      const message =
        `refers to the ConfigMap ${quote(ref.name)}, which is not in the input; the pod will not start until it exists` +
        `${namespace ? ` in namespace ${clip(namespace)}` : ''} (add it to the input, or write \`optional: true\` if the pod may start without it)`;
      problems.push({ severity: 'warning', code: 'configmap-not-in-input', path: [...path, 'name'], message });
      return;
    }
    const keys = [configMap.data, configMap.binaryData].flatMap((map) => (isPlainObject(map) ? Object.keys(map) : []));
    if (keys.includes(ref.key) || keys.includes('<<')) return;
    const near = closest(ref.key, keys);
    const has = keys.length > 0 ? `its keys: ${listOf(keys)}` : 'it has no keys';
    const message =
      `names the key ${quote(ref.key)}, which the ConfigMap ${quote(ref.name)} does not have (${has}); the pod would wait in ` +
      `CreateContainerConfigError${near ? `: did you mean ${quote(near)}?` : ''}`;
    problems.push({ severity: 'warning', code: 'configmap-key-missing', path: [...path, 'key'], message });
  });
  return problems;
}
