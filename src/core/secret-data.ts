// The `data` and `stringData` of a Secret passed through, as the API server reads them: `data`
// values are base64 text (Go decodes them into bytes), `stringData` values text. Anything else
// is refused when applied, so it is an error at the field here. A value is never quoted back, nor
// described beyond its type: it is a secret.
import type { FieldProblem } from '../lib/issues.js';
import { isPlainObject } from '../lib/objects.js';
import { Verbatim } from '../lib/exact-integer.js';

/** How many bad values of one Secret are named; the rest are counted. */
const MAX_NAMED = 20;

/** Problems of a core/v1 Secret's `data` and `stringData`; none for a valid one. */
export function secretDataProblems(object: Record<string, unknown>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const field of ['data', 'stringData'] as const) {
    const map = object[field];
    if (map === undefined || map === null) continue;
    if (!isPlainObject(map)) {
      const values = field === 'data' ? 'base64-encoded values' : 'text values';
      problems.push({ path: [field], message: `must be a mapping of keys to ${values}, such as \`${field}: {token: …}\`` });
      continue;
    }
    // null is no value (the API server reads it as empty).
    const bad = Object.entries(map).filter(([, value]) => value !== null && !(typeof value === 'string' && (field === 'stringData' || isBase64(value))));
    for (const [key, value] of bad.slice(0, MAX_NAMED)) problems.push({ path: [field, key], message: messageFor(field, value) });
    if (bad.length > MAX_NAMED) {
      problems.push({ path: [field], message: `has ${bad.length - MAX_NAMED} more values the API server would refuse besides the ${MAX_NAMED} named` });
    }
  }
  return problems;
}

function messageFor(field: 'data' | 'stringData', value: unknown): string {
  // A number beyond 2^53 is held as written (a Verbatim), not as a JavaScript number.
  const type = Array.isArray(value)
    ? 'a list'
    : value instanceof Verbatim || typeof value === 'number'
      ? 'a number'
      : isPlainObject(value)
        ? 'a mapping'
        : typeof value === 'string'
          ? 'text'
          : `a ${typeof value}`;
  if (field === 'data') {
    return typeof value === 'string'
      ? 'must be base64-encoded, and this value is not base64 (the API server refuses the Secret): encode it (`printf %s "$VALUE" | base64 -w0`), ' +
          'or move it under `stringData`, which takes text as it is'
      : `must be base64-encoded text, not ${type} (the API server refuses the Secret): write the value as text under \`stringData\`, or ` +
          'base64-encoded here';
  }
  return `must be text, not ${type} (the API server refuses the Secret): write the value as one string, quoted if YAML would read it as ` +
    'another type, or as a block (`|`) for several lines';
}

/** Base64 as Go's StdEncoding decodes a Secret's data: padded, line breaks ignored. */
const isBase64 = (value: string): boolean => /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(value.replace(/[\r\n]/g, ''));
