// The metadata every object of the input shares: what Kubernetes (and kubectl, kustomize, kpt)
// take only as text. An LLSD's or OGXServer's schema checks its own (core-v1.ts
// `objectMetadataSchema`); this checks the objects passed through, whose `metadata.namespace:
// {a: b}` would otherwise reach names and messages as "[object Object]" (issue 29, M1). Pure.
import { describeValue, quoteIt, type FieldProblem } from '../lib/issues.js';
import { isPlainObject } from '../lib/objects.js';

/** How many non-text labels or annotations of one object are named; the rest are counted. */
const MAX_NAMED = 20;

/** Problems of `metadata.namespace`, `labels` and `annotations` of an object passed through; none for a valid one. */
export function metadataProblems(metadata: Record<string, unknown>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const namespace = metadata.namespace;
  if (namespace !== undefined && namespace !== null && typeof namespace !== 'string') {
    problems.push({ path: ['metadata', 'namespace'], message: `must be a string such as "ai", not ${describeValue(namespace)}${quoteHint(namespace)}` });
  }
  for (const key of ['labels', 'annotations'] as const) {
    const map = metadata[key];
    if (map === undefined || map === null) continue;
    if (!isPlainObject(map)) {
      problems.push({ path: ['metadata', key], message: `must be a mapping of names to strings, such as \`${key}: {team: ai}\`, not ${describeValue(map)}` });
      continue;
    }
    // null is no value (the API server reads it as empty), not a mistake of type.
    const bad = Object.entries(map).filter(([, value]) => typeof value !== 'string' && value !== null);
    for (const [name, value] of bad.slice(0, MAX_NAMED)) {
      problems.push({ path: ['metadata', key, name], message: `must be a string, not ${describeValue(value)}${quoteHint(value)}` });
    }
    if (bad.length > MAX_NAMED) {
      const more = bad.length - MAX_NAMED;
      problems.push({ path: ['metadata', key], message: `has ${more} more values that are not strings besides the ${MAX_NAMED} named; write each as text` });
    }
  }
  return problems;
}

/** A number or boolean YAML read as one: how to write it as text. A mapping or list has no such hint. */
const quoteHint = (value: unknown): string => (typeof value === 'number' || typeof value === 'boolean' ? quoteIt(value) : '');
