import type { FieldProblem } from './issues.js';

/**
 * `__proto__` anywhere in an LLSD (or an OGXServer): YAML keeps it as a key, but a JavaScript object cannot hold it
 * as one without special care at every copy, so it would be dropped on the way to config.yaml. No
 * Kubernetes field and no llama-stack setting has that name: it is refused, with its path.
 */
export function reservedKeys(object: unknown): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const stack: Array<[unknown, Array<string | number>]> = [[object, []]];
  while (stack.length > 0) {
    const [value, path] = stack.pop() as [unknown, Array<string | number>];
    if (Array.isArray(value)) value.forEach((v, i) => stack.push([v, [...path, i]]));
    else if (value !== null && typeof value === 'object') {
      for (const key of Object.keys(value)) {
        if (key === '__proto__')
          problems.push({
            path: [...path, key],
            message: 'is not a key llsd-render can carry (JavaScript reserves it) and no llama-stack setting has this name; remove it',
          });
        else stack.push([(value as Record<string, unknown>)[key], [...path, key]]);
      }
    }
  }
  return problems;
}
