// zod issues → user-facing problems with a field path (STYLE §4, §8): one message per problem,
// written for the user, field names in back-quotes, "did you mean" where a near name exists.
import type { z } from '../lib/zod.js';

/** Something to tell the user about one field of an LLSD; an error unless `severity` says otherwise. */
export interface FieldProblem {
  path: Array<string | number>;
  message: string;
  severity?: 'error' | 'warning' | 'info';
}

/** A problem without a severity is an error. */
export const isError = (problem: FieldProblem): boolean => (problem.severity ?? 'error') === 'error';

type Issue = z.core.$ZodIssue;
type Schema = z.core.$ZodType;

/** Extra words for a required field, keyed by its dotted path without indexes. */
export type RequiredHints = Record<string, string>;

export function problemsFromIssues(issues: readonly Issue[], schema: Schema, hints: RequiredHints = {}): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const issue of issues) problems.push(...fromIssue(issue, schema, hints));
  return dedupe(problems);
}

function fromIssue(issue: Issue, schema: Schema, hints: RequiredHints): FieldProblem[] {
  const path = issue.path.map((p) => (typeof p === 'number' ? p : String(p)));
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.input === undefined) {
        const hint = hints[path.filter((p) => typeof p === 'string').join('.')];
        return [{ path, message: hint ? `is required: ${hint}` : 'is required' }];
      }
      return [{ path, message: `must be ${withArticle(issue.expected)}, not ${describeValue(issue.input)}${quotingHint(issue.expected, issue.input)}` }];
    }
    case 'unrecognized_keys':
      return issue.keys.map((key) => {
        const known = knownKeys(schema, path);
        const near = closest(key, known);
        const suggestion = near ? `; did you mean \`${near}\`?` : known.length > 0 ? `; known fields: ${known.join(', ')}` : '';
        return { path: [...path, key], message: `is not a known field${suggestion}` };
      });
    case 'invalid_key':
      // A map key of the wrong form: the key schema's own message says what a key must be.
      return issue.issues.map((inner) => ({ path, message: inner.code === 'invalid_format' || inner.code === 'custom' ? inner.message : `has an invalid key: ${inner.message}` }));
    case 'invalid_union':
      return fromUnion(issue, schema, hints, path);
    case 'too_small':
      if (issue.origin === 'string') return [{ path, message: 'must not be empty' }];
      if (issue.origin === 'array') return [{ path, message: `must list at least ${String(issue.minimum)} item${issue.minimum === 1 ? '' : 's'}` }];
      return [{ path, message: issue.inclusive ? `must be at least ${String(issue.minimum)}` : `must be greater than ${String(issue.minimum)}` }];
    case 'too_big':
      if (issue.origin === 'string') return [{ path, message: `must be at most ${String(issue.maximum)} characters long` }];
      if (issue.origin === 'array') return [{ path, message: `must list at most ${String(issue.maximum)} items` }];
      return [{ path, message: issue.inclusive ? `must be at most ${String(issue.maximum)}` : `must be less than ${String(issue.maximum)}` }];
    case 'invalid_value': {
      const values = issue.values.map((v) => String(v));
      const near = typeof issue.input === 'string' ? closest(issue.input, values) : undefined;
      const list = values.length === 1 ? `\`${values[0]}\`` : `one of ${values.map((v) => `\`${v}\``).join(', ')}`;
      // Enum values are names, never secrets, so the user's value can be shown.
      const given = typeof issue.input === 'string' ? `"${issue.input}"` : describeValue(issue.input);
      return [{ path, message: `must be ${list}, not ${given}${near ? `; did you mean \`${near}\`?` : ''}` }];
    }
    default:
      return [{ path, message: issue.message }];
  }
}

/**
 * A polymorphic field (string or object, one or many) fails every branch. Report the branch that
 * matches the shape the user wrote; when none does, name the accepted shapes.
 */
function fromUnion(issue: z.core.$ZodIssueInvalidUnion, schema: Schema, hints: RequiredHints, path: Array<string | number>): FieldProblem[] {
  const branches = issue.errors.filter((errors) => errors.length > 0);
  const shapeMatches = branches.filter((errors) => !errors.every((e) => e.code === 'invalid_type' && e.path.length === 0));
  const chosen = shapeMatches[0];
  if (shapeMatches.length >= 1 && chosen) {
    return chosen.flatMap((e) => fromIssue({ ...e, path: [...issue.path, ...e.path] } as Issue, schema, hints));
  }
  // A union with its own message (set in the schema) says best what the accepted forms are.
  if (issue.message && issue.message !== 'Invalid input') return [{ path, message: issue.message }];
  const expected = [...new Set(branches.flatMap((errors) => errors.map((e) => (e.code === 'invalid_type' ? e.expected : undefined))))].filter(
    (e): e is string => typeof e === 'string',
  );
  const shapes = expected.length > 0 ? expected.map(withArticle).join(' or ') : 'one of the accepted forms';
  return [{ path, message: `must be ${shapes}, not ${describeValue(issue.input)}` }];
}

/** The keys an object schema accepts at `path`, for "did you mean". */
function knownKeys(schema: Schema, path: ReadonlyArray<string | number>): string[] {
  const found = new Set<string>();
  const walk = (s: Schema | undefined, rest: ReadonlyArray<string | number>): void => {
    if (!s) return;
    const def = s._zod.def as unknown as Record<string, unknown> & { type: string };
    switch (def.type) {
      case 'optional':
      case 'nullable':
      case 'default':
      case 'prefault':
      case 'readonly':
      case 'nonoptional':
        return walk(def.innerType as Schema, rest);
      case 'pipe':
        return walk(def.in as Schema, rest);
      case 'union':
        for (const option of def.options as Schema[]) walk(option, rest);
        return;
      case 'array':
        return walk(def.element as Schema, typeof rest[0] === 'number' ? rest.slice(1) : rest);
      case 'record':
        return rest.length === 0 ? undefined : walk(def.valueType as Schema, rest.slice(1));
      case 'object': {
        const shape = def.shape as Record<string, Schema>;
        if (rest.length === 0) {
          for (const key of Object.keys(shape)) found.add(key);
          return;
        }
        return walk(shape[String(rest[0])], rest.slice(1));
      }
      default:
        return;
    }
  };
  walk(schema, path);
  return [...found];
}

/** The known name closest to `word`, if it is close enough to be a likely typo. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const c = candidate.toLowerCase();
    const d = c === lower.replace(/[_-]/g, '') || c.replace(/[_-]/g, '') === lower.replace(/[_-]/g, '') ? 0 : distance(lower, c);
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate;
    }
  }
  const limit = Math.max(1, Math.floor(word.length / 3));
  return bestDistance <= limit ? best : undefined;
}

/** Edit distance where swapping two neighbouring letters (`prot` → `port`) counts as one edit. */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  const at = (i: number, j: number): number => (d[i] as number[])[j] as number;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      (d[i] as number[])[j] = best;
    }
  }
  return at(a.length, b.length);
}

/** YAML typed the scalar the other way: `0.7` became a number, `"8080"` a string. Say how to write it. */
function quotingHint(expected: string, input: unknown): string {
  if (expected === 'string' && (typeof input === 'number' || typeof input === 'boolean')) return `; quote it: "${String(input)}"`;
  if ((expected === 'number' || expected === 'int') && typeof input === 'string' && input.trim() !== '' && Number.isFinite(Number(input))) {
    return `; write it without quotes: ${input.trim()}`;
  }
  if (expected === 'boolean' && (input === 'true' || input === 'false')) return `; write it without quotes: ${input}`;
  return '';
}

function withArticle(expected: string): string {
  const words: Record<string, string> = {
    object: 'a mapping',
    array: 'a list',
    string: 'a string',
    number: 'a number',
    int: 'an integer',
    boolean: 'true or false',
    record: 'a mapping',
  };
  return words[expected] ?? `a ${expected}`;
}

/** What the user wrote, in a few words; never the value of something that may be a secret. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  switch (typeof value) {
    case 'string':
      return 'a string';
    case 'number':
      return Number.isInteger(value) ? 'an integer' : 'a number';
    case 'boolean':
      return value ? '`true`' : '`false`';
    case 'object':
      return 'a mapping';
    default:
      return typeof value;
  }
}

function dedupe(problems: FieldProblem[]): FieldProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${JSON.stringify(p.path)}\0${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
