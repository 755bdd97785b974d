// What to write, for a field of the wrong shape (STYLE §8), shared by the LlamaStackDistribution and
// the OGXServer: "must be a list, not a string" gets an example of the expected shape, made from the
// JSON Schema of the spec at the field's path (its `examples`, else its required fields), and a
// YAML 1.1 boolean (`expose: yes`, a string in YAML 1.2) gets `true` or `false`. Only user values
// that cannot be secrets are quoted back.
import type { FieldProblem } from '../lib/issues.js';
import { quote } from '../lib/quote.js';
import type { JsonSchema } from './crd.js';

export type Path = Array<string | number>;

/** A message of zod's about a field of the wrong shape: a mapping, a list or a boolean was expected. */
export const shapeMessage = /^must be (?:a mapping|a list|true or false)(?: or (?:a mapping|a list|true or false))*, not [^:;]*$/;

/** Options of a front end: more words after a Secret reference's example (the OGXServer's `ogx.io/watch` label). */
export interface ShapeHintOptions {
  secretNote?: string;
}

/**
 * The problems of a spec's schema check, with what to write: every shape message gets an example.
 * `object` is the resource as written, `spec` the JSON Schema of its `spec`.
 */
export function withShapeHints(problems: readonly FieldProblem[], object: unknown, spec: JsonSchema, options: ShapeHintOptions = {}): FieldProblem[] {
  return withReferenceHints(problems, object, spec).map((problem) => {
    if (problem.path[0] !== 'spec' || !shapeMessage.test(problem.message)) return problem;
    return { ...problem, message: shapeHint(spec, problem.path, valueAt(object, problem.path), problem.message, options) };
  });
}

/**
 * A `{name, key}` reference to a Secret or ConfigMap key without its `name` or `key` (or both): one
 * problem, with the whole reference to write, the name the user gave in it (a name, never a value).
 */
export function withReferenceHints(problems: readonly FieldProblem[], object: unknown, spec: JsonSchema): FieldProblem[] {
  const refOf = (problem: FieldProblem): 'Secret' | 'ConfigMap' | undefined => {
    const last = problem.path.at(-1);
    if (problem.path[0] !== 'spec' || !problem.message.startsWith('is required') || (last !== 'name' && last !== 'key')) return undefined;
    const node = nodeAt(spec, problem.path.slice(1, -1));
    return node ? refKind(node) : undefined;
  };
  const missing = new Map<string, number>();
  for (const problem of problems) {
    const at = problem.path.slice(0, -1).join('.');
    if (refOf(problem)) missing.set(at, (missing.get(at) ?? 0) + 1);
  }
  const out: FieldProblem[] = [];
  for (const problem of problems) {
    const ref = refOf(problem);
    if (!ref) {
      out.push(problem);
      continue;
    }
    const at = problem.path.slice(0, -1);
    const both = missing.get(at.join('.')) === 2;
    // Both missing: one problem, at the reference, the first time only.
    if (both && problem.path.at(-1) === 'key') continue;
    const written = valueAt(object, at) as Record<string, unknown> | undefined;
    const name = typeof written?.name === 'string' && isQuotable(written.name) ? plain(written.name) : `<${ref.toLowerCase()}>`;
    const key = typeof written?.key === 'string' && isQuotable(written.key) ? plain(written.key) : '<key>';
    const field = typeof at.at(-1) === 'string' ? `${String(at.at(-1))}: ` : '';
    const example = `\`${field}{name: ${name}, key: ${key}}\``;
    const what = ref === 'Secret' ? 'the Secret (in the same namespace) and its key that holds the value' : 'the ConfigMap and its key';
    out.push(
      both
        ? { path: at, message: `must name ${what}: write ${example}` }
        : { ...problem, message: `is required: write ${example}, naming ${what}` },
    );
  }
  return out;
}

/** `start` ("must be a list, not a string") with what to write at `path`. */
export function shapeHint(spec: JsonSchema, path: Path, value: unknown, start: string, options: ShapeHintOptions = {}): string {
  const node = nodeAt(spec, path.slice(1));
  if (!node) return start;
  const key = String(path.filter((p) => typeof p === 'string').at(-1) ?? 'spec');
  const field = typeof path.at(-1) === 'string' ? `${key}: ` : '';
  const ref = refKind(node);
  if (ref) {
    const note = ref === 'Secret' && options.secretNote ? `: ${options.secretNote}` : '';
    return `must be a ${ref} key \`{name: <${ref.toLowerCase()}>, key: <key>}\`${start.replace(/^must be [^,]*/, '')}${note}`;
  }
  const branches = node.anyOf ? node.anyOf.filter((b): b is JsonSchema => typeof b === 'object') : [node];
  const boolean = branches.some((b) => b.type === 'boolean');
  const object = branches.find((b) => b.type === 'object');
  const list = branches.find((b) => b.type === 'array');
  const orObject = object ? ` or \`${field}${exampleOf(object, key, 0)}\`` : '';
  const word = typeof value === 'string' ? yaml11Booleans[value.toLowerCase()] : undefined;
  if (boolean && typeof value === 'string') {
    if (value === 'true' || value === 'false') return `${start}: write it without quotes: \`${field}${value}\``;
    if (word !== undefined) {
      return `${start}: YAML reads ${quote(value)} as a string (it was a boolean only in YAML 1.1); write \`${field}${String(word)}\`${word ? orObject : ''}`;
    }
  }
  // `monitoring: yes` where only a mapping goes: the example below, and why `yes` is a string.
  if (word !== undefined) start = `${start} (YAML reads ${quote(String(value))} as a string, not a boolean)`;
  if (object && typeof value === 'string') {
    const single = singleRequired(object);
    if (single && isQuotable(value) && !mayHoldSecret(path)) return `${start}: write \`${field}{${single}: ${quote(value)}}\``;
  }
  if (list && typeof value === 'string') {
    const items = typeof list.items === 'object' && !Array.isArray(list.items) ? list.items : undefined;
    const kinds = items?.anyOf ? items.anyOf.filter((b): b is JsonSchema => typeof b === 'object') : items ? [items] : [];
    const shown = isQuotable(value) && !mayHoldSecret(path) ? value : undefined;
    const strings = kinds.find((b) => b.type === 'string');
    const mappings = kinds.find((b) => b.type === 'object');
    if (strings && shown !== undefined) {
      const or = mappings ? `, a list of names or of mappings such as \`${exampleOf(mappings, key, 1)}\`` : '';
      return `${start}: write \`${key}: [${plain(shown)}]\`${or}`;
    }
    const single = mappings && singleRequired(mappings);
    if (single && shown !== undefined) return `${start}: write \`${key}: [{${single}: ${quote(shown)}}]\``;
  }
  if (list && !object && value !== null && typeof value === 'object' && !Array.isArray(value)) {
    return `${start}: put it in a list, one item each: \`${key}: ${exampleOf(list, key, 0)}\``;
  }
  const examples = [object, list].filter((b): b is JsonSchema => b !== undefined).map((b) => `\`${key}: ${exampleOf(b, key, 0)}\``);
  if (boolean) examples.unshift(`\`${key}: true\``);
  if (examples.length === 0) return start;
  return `${start}: write ${examples.join(' or ')}`;
}

/** The YAML 1.1 words for true and false that YAML 1.2 (and so the API server) reads as strings. */
const yaml11Booleans: Record<string, boolean> = { yes: true, y: true, on: true, no: false, n: false, off: false };

/** Under a Secret reference, an env var or a credential-named field, a string given in place of a mapping may be the secret itself: never shown back. */
export const mayHoldSecret = (path: Path): boolean => path.some((p) => typeof p === 'string' && /secret|valueFrom|env|token|key|password|credential/i.test(p));

/** A user value shown back: a short name, never one that could hold a credential. */
export const isQuotable = (value: string): boolean => value.length <= 100 && !/[@\s]/.test(value);

/** A name as a YAML plain scalar when it is one, else in double quotes. */
const plain = (value: string): string =>
  /^[A-Za-z0-9][A-Za-z0-9._/-]*$/.test(value) && !/^(?:true|false|null|yes|no|on|off|y|n)$/i.test(value) && !readsAsNumber(value) ? value : quote(value);

/** Text YAML would read as a number (`123`, `1.5`, `0x1F`, `1e3`, `0o17`): written plain in a hint, it was refused next as one. */
const readsAsNumber = (value: string): boolean => /^[-+]?(?:[0-9][0-9_]*(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|0x[0-9a-fA-F_]+|0o[0-7_]+|0b[01_]+)$/.test(value);

/** The one required string field of an object (`name` of a model), when it has exactly one; else its `name`, when it requires none. */
export function singleRequired(node: JsonSchema): string | undefined {
  const required = node.required ?? [];
  const field = required.length === 0 && node.properties?.name ? 'name' : required[0];
  if (required.length > 1 || field === undefined) return undefined;
  const child = node.properties?.[field];
  return typeof child === 'object' && child.type === 'string' ? field : undefined;
}

/** A `{name, key}` reference to a Secret or ConfigMap key. */
export function refKind(node: JsonSchema): 'Secret' | 'ConfigMap' | undefined {
  const names = Object.keys(node.properties ?? {}).sort().join(',');
  if (node.type !== 'object' || names !== 'key,name' || node.required?.length !== 2) return undefined;
  const name = node.properties?.name;
  return typeof name === 'object' && /ConfigMap/.test(name.description ?? '') ? 'ConfigMap' : 'Secret';
}

/** The schema of the field at `path` (below `spec`); in a union, the branch of the shape the path walks into. */
export function nodeAt(root: JsonSchema, path: Path): JsonSchema | undefined {
  let node: JsonSchema | undefined = root;
  for (const segment of path) {
    if (!node) return undefined;
    if (node.anyOf) {
      const wanted = typeof segment === 'number' ? 'array' : 'object';
      node = node.anyOf.find((branch): branch is JsonSchema => typeof branch === 'object' && branch.type === wanted);
    }
    if (typeof segment === 'number') node = typeof node?.items === 'object' && !Array.isArray(node.items) ? node.items : undefined;
    else {
      const child: unknown = node?.properties?.[segment] ?? node?.additionalProperties;
      node = typeof child === 'object' && child !== null ? (child as JsonSchema) : undefined;
    }
  }
  return node;
}

/** The fields an example shows first, when an object requires none. */
const preferred = ['inference', 'remote', 'vllm', 'enabled', 'name', 'hostname'];

/** A YAML flow example of `node`: its `examples`, else its required fields (or one), a level or three deep. */
export function exampleOf(node: JsonSchema, key: string, depth: number): string {
  if (node.examples?.[0] !== undefined) return flow(node.examples[0]);
  const ref = refKind(node);
  if (ref) return `{name: <${ref.toLowerCase()}>, key: <key>}`;
  if (node.anyOf) {
    const branches = node.anyOf.filter((b): b is JsonSchema => typeof b === 'object');
    const branch = branches.find((b) => b.type === 'object') ?? branches[0];
    return branch ? exampleOf(branch, key, depth) : '…';
  }
  switch (node.type) {
    case 'array':
      return typeof node.items === 'object' && !Array.isArray(node.items) ? `[${exampleOf(node.items, key, depth + 1)}]` : '[…]';
    case 'object': {
      if (depth > 3) return '{…}';
      const properties = Object.entries(node.properties ?? {}).filter((e): e is [string, JsonSchema] => typeof e[1] === 'object');
      const required = properties.filter(([name]) => node.required?.includes(name));
      const first = preferred.find((p) => node.properties?.[p]) ?? properties[0]?.[0];
      const shown = required.length > 0 ? required : properties.filter(([name]) => name === first);
      if (shown.length === 0) return '{…}';
      const more = shown.length < properties.length ? ', …' : '';
      return `{${shown.map(([name, child]) => `${name}: ${exampleOf(child, name, depth + 1)}`).join(', ')}${more}}`;
    }
    case 'integer':
    case 'number':
      return String(node.minimum !== undefined && node.minimum > 1 ? node.minimum : 1);
    case 'boolean':
      return 'true';
    case 'string':
      if (node.enum?.[0] !== undefined) return String(node.enum[0]);
      return stringExamples[key] ?? '…';
    default:
      return '…';
  }
}

/** Example strings by field name, where `…` would not say what kind of value goes there. */
const stringExamples: Record<string, string> = {
  endpoint: 'http://…',
  url: 'http://…',
  baseUrl: 'http://…',
  uri: 'http://…',
  hostname: 'ai.example.com',
  secretName: '<secret>',
  key: '<key>',
  type: 'remote::…',
  name: '<name>',
};

/** A plain value as YAML flow text: `{a: [b]}`. */
function flow(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(flow).join(', ')}]`;
  if (value !== null && typeof value === 'object') return `{${Object.entries(value).map(([k, v]) => `${k}: ${flow(v)}`).join(', ')}}`;
  return String(value);
}

export function valueAt(object: unknown, path: Path): unknown {
  let value = object;
  for (const segment of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string | number, unknown>)[segment];
  }
  return value;
}
