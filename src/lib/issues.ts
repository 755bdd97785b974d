// zod issues → user-facing problems with a field path (STYLE §4, §8): one message per problem,
// written for the user, field names in back-quotes, "did you mean" where a near name exists.
import { Verbatim } from './exact-integer.js';
import { clip, count, listOf, quote } from './quote.js';
import type { WarningCode } from '../krm/result.js';
import type { z } from './zod.js';

/**
 * Something to tell the user about one field of an LLSD; an error unless `severity` says otherwise.
 * A warning names its class (`code`), so the user can silence it; the type makes every warning site say which.
 */
export type FieldProblem = { path: Array<string | number>; message: string } & (
  | { severity?: 'error' | 'info'; code?: WarningCode }
  | { severity: 'warning'; code: WarningCode }
);

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
      // An integer beyond 2^53, read as written (exact-integer.ts): no number field holds it.
      if (issue.input instanceof Verbatim && (issue.expected === 'number' || issue.expected === 'int')) {
        const negative = issue.input.text.startsWith('-');
        return [{ path, message: negative ? `must be at least ${-Number.MAX_SAFE_INTEGER}` : `must be at most ${Number.MAX_SAFE_INTEGER}` }];
      }
      const expected = `${withArticle(issue.expected)}${typeExamples[path.join('.')] ?? ''}`;
      return [{ path, message: `must be ${expected}, not ${describeValue(issue.input)}${quotingHint(issue.expected, issue.input)}` }];
    }
    case 'unrecognized_keys':
    {
      const known = knownKeys(schema, path);
      // One mapping can hold thousands of unknown keys (each result costs a line lookup): the first
      // few are named, the rest counted in one result.
      const shown = issue.keys.slice(0, MAX_UNKNOWN_KEYS).map((key): FieldProblem => {
        const near = closest(key, known);
        const suggestion = near ? `; did you mean \`${near}\`?` : known.length > 0 ? `; known fields: ${listOf(known)}` : '';
        return { path: [...path, key], message: `is not a known field${suggestion}` };
      });
      const more = issue.keys.length - shown.length;
      if (more > 0)
        shown.push({
          path,
          message: `has ${count(more)} more fields that are not known besides the ${MAX_UNKNOWN_KEYS} named; remove ` +
            `them${known.length > 0 ? ` (known fields: ${listOf(known)})` : ''}`,
        });
      return shown;
    }
    case 'invalid_key':
      // A map key of the wrong form: the key schema's own message says what a key must be.
      return issue.issues.map((inner) => ({
        path,
        message: inner.code === 'invalid_format' || inner.code === 'custom' ? inner.message : `has an invalid key: ${inner.message}`,
      }));
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
      const list = values.length === 1 ? `\`${values[0]}\`` : `one of ${listOf(values, { each: (v) => `\`${v}\`` })}`;
      // Enum values are names, never secrets, so the user's value can be shown.
      const given = typeof issue.input === 'string' ? quote(issue.input) : describeValue(issue.input);
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
    return chosen.flatMap((e) => fromIssue({ ...e, path: [...issue.path, ...e.path] }, schema, hints));
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

/**
 * The longest word that gets a "did you mean": longer input is no typo of a name, and comparing it
 * would cost time with its length (a 5 MB name took 31 s).
 */
const MAX_SUGGESTED = 100;

/** How many unknown keys of one mapping are named, each in a result of its own. */
const MAX_UNKNOWN_KEYS = 20;

/** A likely typo of `name`: the same letters in another case, or a few edits away (the length is compared first, so a long input costs nothing). */
export function isNear(word: string, name: string): boolean {
  if (word.toLowerCase() === name.toLowerCase()) return true;
  return Math.abs(word.length - name.length) <= Math.floor(name.length / 3) && closest(word, [name]) === name;
}

/** The known name closest to `word`, if it is close enough to be a likely typo. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  if (word.length === 0 || word.length > MAX_SUGGESTED) return undefined;
  const lower = word.toLowerCase();
  const bare = lower.replace(/[_-]/g, '');
  const limit = Math.max(1, Math.floor(word.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    // A name more than `limit` characters longer or shorter is at least that many edits away.
    if (Math.abs(candidate.length - word.length) > limit) continue;
    const c = candidate.toLowerCase();
    const d = c === bare || c.replace(/[_-]/g, '') === bare ? 0 : distance(lower, c, bestDistance - 1);
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate;
    }
  }
  return best;
}

/**
 * Edit distance where swapping two neighbouring letters (`prot` → `port`) counts as one edit, or
 * `bound + 1` as soon as it must exceed `bound`. Three rows, not a matrix: memory linear in `b`.
 */
function distance(a: string, b: string, bound: number): number {
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let current = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, (before[j - 2] as number) + 1);
      current[j] = d;
      if (d < rowMin) rowMin = d;
    }
    // No later cell is below this row's minimum: a transposition reaches back two rows, but costs
    // no less than the diagonal step into this row from the same cell.
    if (rowMin > bound) return bound + 1;
    [before, previous, current] = [previous, current, before];
  }
  return Math.min(previous[b.length] as number, bound + 1);
}

/** An example after "must be a string" where the type alone says little (issue 29: `metadata.namespace: {a: b}`). */
const typeExamples: Record<string, string> = { 'metadata.namespace': ' such as "ai"' };

/**
 * "quote it" for a number or boolean where text goes. The value is what YAML read (`0755` is 755):
 * the CLI, which has the files, puts the text as written in its place (cli/as-written.ts, by `quoteItHint`).
 */
export const quoteIt = (value: number | boolean): string => `; quote it: "${clip(String(value))}"`;

/** A message's "quote it" hint, the quoted text in group 1. */
export const quoteItHint = /; quote it: "([^"]*)"$/;

/** YAML typed the scalar the other way: `0.7` became a number, `"8080"` a string. Say how to write it. */
function quotingHint(expected: string, input: unknown): string {
  if (expected === 'string' && (typeof input === 'number' || typeof input === 'boolean')) return quoteIt(input);
  if ((expected === 'number' || expected === 'int') && typeof input === 'string' && input.trim() !== '' && Number.isFinite(Number(input))) {
    return `; write it without quotes: ${clip(input.trim())}`;
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
      return value instanceof Verbatim ? 'an integer' : 'a mapping';
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

/** The unknown-field issues, those inside a union's options too (`providers.inference` is one provider or a list), with paths from the top. */
export function unknownKeyIssues(issues: readonly Issue[], base: PropertyKey[]): Issue[] {
  return issues.flatMap((issue): Issue[] => {
    const path = [...base, ...issue.path];
    if (issue.code === 'unrecognized_keys') return [{ ...issue, path }];
    if (issue.code !== 'invalid_union') return [];
    // A key is unknown to the union when every option of the value's shape calls it unknown (another may know it).
    const options = issue.errors.filter((option) => !option.some((i) => i.code === 'invalid_type' && i.path.length === 0));
    const found = options.map((option) => unknownKeyIssues(option, path));
    const name = (i: Issue, key: string): string => JSON.stringify([...i.path.map(String), key]);
    const everywhere = (i: Issue, key: string): boolean =>
      found.every((list) => list.some((j) => j.code === 'unrecognized_keys' && j.keys.some((k) => name(j, k) === name(i, key))));
    return (found[0] ?? []).flatMap((i): Issue[] => {
      if (i.code !== 'unrecognized_keys') return [];
      const keys = i.keys.filter((key) => everywhere(i, key));
      return keys.length === 0 ? [] : [{ ...i, keys }];
    });
  });
}
