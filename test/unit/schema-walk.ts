// Walking a CR spec's JSON Schema for the tests that give every object and list field the wrong
// shape (LLSD: shape-hints.test.ts; OGXServer: ogxserver-messages.test.ts).
import type { JsonSchema } from '../../src/core/crd.js';

export type Step = string | number;
/** Every object (with fields) and list of the spec, as a path; Kubernetes types and map values are not entered. */
export function shapedFields(node: JsonSchema, path: Step[], out: Array<{ path: Step[]; kind: 'object' | 'array' }>): typeof out {
  const kubernetes = /\(Kubernetes /.test(node.description ?? '');
  if (node.type === 'array' && typeof node.items === 'object' && !Array.isArray(node.items)) {
    out.push({ path, kind: 'array' });
    if (!kubernetes) shapedFields(node.items, [...path, 0], out);
  } else if (node.type === 'object' && node.properties) {
    if (path.length > 0) out.push({ path, kind: 'object' });
    if (!kubernetes) for (const [key, child] of Object.entries(node.properties)) if (typeof child === 'object') shapedFields(child, [...path, key], out);
  }
  return out;
}

/** A spec with `value` at `path`, the objects and lists on the way created. */
export function specWith(path: Step[], value: unknown): Record<string, unknown> {
  const spec: Record<string, unknown> = { distribution: { name: 'starter' } };
  let at: Record<string | number, unknown> = spec;
  path.forEach((step, i) => {
    const next = path[i + 1];
    if (i === path.length - 1) at[step] = value;
    else at = (at[step] ??= typeof next === 'number' ? [] : {}) as Record<string | number, unknown>;
  });
  return spec;
}
