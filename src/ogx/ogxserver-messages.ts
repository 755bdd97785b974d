// What to write, added to the schema's problems of an OGXServer (STYLE §8): a field of the wrong
// shape gets an example of the expected one, made from the schema at its path (its `examples`, else
// its required fields); an LlamaStackDistribution field name gets "did you mean" the OGXServer field
// (configs/ogx-llsd-fields.yaml). Only user values that cannot be secrets are quoted back.
import { ogxLlsdFields } from '../catalog/catalog.js';
import { jsonSchemaOf, type JsonSchema } from '../core/crd.js';
import type { FieldProblem } from '../lib/issues.js';
import { lazily } from '../lib/zod.js';
import { quote } from '../lib/quote.js';
import { ogxSchemas } from './ogxserver-schema.js';

type Path = Array<string | number>;

/** The problems of the schema check, with what to write; `object` is the OGXServer as written. */
export function withOgxHints(problems: readonly FieldProblem[], object: unknown): FieldProblem[] {
  // A value of the wrong type is one problem: zod's checks of the other type (a length) are noise.
  const typed = new Set(problems.filter((p) => shapeMessage.test(p.message)).map((p) => p.path.join('.')));
  // An LLSD's Secret form, `{secretKeyRef: {name, key}}`, is one problem: at `secretKeyRef`, not also `name` and `key` missing.
  const llsdRefs = new Set(problems.filter((p) => p.path.at(-1) === 'secretKeyRef' && isRefAt(p.path.slice(0, -1))).map((p) => p.path.slice(0, -1).join('.')));
  return problems
    .filter((p) => shapeMessage.test(p.message) || !typed.has(p.path.join('.')))
    .filter((p) => !(p.message.startsWith('is required') && llsdRefs.has(p.path.slice(0, -1).join('.'))))
    .map((problem) => {
      if (llsdRefs.has(problem.path.slice(0, -1).join('.'))) {
        const key = String(problem.path.at(-2));
        return { ...problem, message: 'is how a LlamaStackDistribution names a Secret key; an OGXServer names it directly: write ' +
          `\`${key}: {name: <secret>, key: <key>}\`` };
      }
      if (problem.message.startsWith('is not a known field')) return llsdFieldHint(problem) ?? problem;
      if (problem.message === 'is required') return requiredHint(problem);
      const shape = shapeMessage.exec(problem.message);
      if (shape) return { ...problem, message: shapeHint(problem.path, shape[1] as 'mapping' | 'list', valueAt(object, problem.path)) };
      return problem;
    });
}

const shapeMessage = /^must be (?:a )?(mapping|list), not /;

const isRefAt = (path: Path): boolean => {
  const node = path[0] === 'spec' ? nodeAt(specSchema(), path.slice(1)) : undefined;
  return node !== undefined && refKind(node) === 'Secret';
};

// ---- "did you mean" for LLSD field names -------------------------------------------------------

function llsdFieldHint(problem: FieldProblem): FieldProblem | undefined {
  const keys = problem.path.slice(1).filter((p): p is string => typeof p === 'string');
  const key = keys.at(-1);
  if (problem.path[0] !== 'spec' || key === undefined) return undefined;
  const at = keys.join('.');
  const parent = keys.slice(0, -1).join('.');
  const { fields } = ogxLlsdFields();
  // As written at the LLSD's place; under an OGXServer field whose LLSD name the table gives
  // (`network.expose`: `networking.expose`); else the one LLSD field of that name, wherever it sits.
  const parents = fields.filter((f) => f.ogx === parent).map((f) => f.llsd);
  const byName = fields.filter((f) => f.llsd.split('.').at(-1) === key);
  const entry =
    fields.find((f) => f.llsd === at) ??
    fields.find((f) => parents.some((p) => f.llsd === `${p}.${key}`)) ??
    (new Set(byName.map((f) => f.ogx)).size === 1 ? byName[0] : undefined);
  if (!entry) return undefined;
  const note = entry.note === undefined ? '' : `: ${entry.note}`;
  if (entry.ogx === null) {
    return { ...problem, message: `is a LlamaStackDistribution field (\`${entry.llsd}\`), not an OGXServer one${note}` };
  }
  return {
    ...problem,
    message: `is not an OGXServer field; did you mean \`spec.${entry.ogx}\`? (a LlamaStackDistribution's \`${entry.llsd}\`)${note}`,
  };
}

/** A missing field: what to add, with an example value. */
function requiredHint(problem: FieldProblem): FieldProblem {
  const key = problem.path.at(-1);
  const node = problem.path[0] === 'spec' ? nodeAt(specSchema(), problem.path.slice(1)) : undefined;
  if (typeof key !== 'string' || !node) return problem;
  return { ...problem, message: `is required: add \`${key}: ${exampleOf(node, key, 1)}\`` };
}

// ---- shapes --------------------------------------------------------------------------------------

const specSchema = lazily((): JsonSchema => jsonSchemaOf(ogxSchemas().spec));

function shapeHint(path: Path, expected: 'mapping' | 'list', value: unknown): string {
  const node = nodeAt(specSchema(), path.slice(1));
  const key = String(path.filter((p) => typeof p === 'string').at(-1) ?? 'spec');
  const given = describe(value);
  if (!node) return `must be a ${expected}, not ${given}`;
  const ref = refKind(node);
  if (ref) {
    const secret = ref === 'Secret' ? `: put the value in a Secret labelled \`ogx.io/watch: "true"\` and name its key here` : '';
    return `must be a ${ref} key \`{name: <${ref.toLowerCase()}>, key: <key>}\`, not ${given}${secret}`;
  }
  const example = exampleOf(node, key, 0);
  const start = `must be a ${expected}, not ${given}`;
  if (key === 'providers' && Array.isArray(value)) {
    return `${start}: an OGXServer groups providers by API, placement and type, with no \`provider:\` entries; write \`providers: ${example}\``;
  }
  if (Array.isArray(value) && isProviderGroup(path)) {
    return `${start}: an OGXServer groups providers by placement (\`remote\`, \`inline\`) and type; write \`${key}: ${example}\``;
  }
  const single = singleRequired(node);
  if (single && typeof value === 'string' && isQuotable(value) && !mayHoldSecret(path)) {
    const field = typeof path.at(-1) === 'string' ? `${key}: ` : '';
    return `${start}: write \`${field}{${single}: ${quote(value)}}\``;
  }
  const items = typeof node.items === 'object' && !Array.isArray(node.items) ? node.items : undefined;
  if (expected === 'list' && typeof value === 'string' && items?.enum && isQuotable(value)) return `${start}: write \`${key}: [${value}]\``;
  if (expected === 'list' && value !== null && typeof value === 'object') return `${start}: put it in a list, one item each: \`${key}: ${example}\``;
  return `${start}: write \`${key}: ${example}\``;
}

/** `spec.providers.<api>` or `.<api>.<placement>`: where an LLSD's provider list would go. */
const isProviderGroup = (path: Path): boolean => path[1] === 'providers' && (path.length === 3 || path.length === 4);

/** Under a Secret reference, an env var or a credential-named field, a string given in place of a mapping may be the secret itself: never shown back. */
const mayHoldSecret = (path: Path): boolean => path.some((p) => typeof p === 'string' && /secret|valueFrom|env|token|key|password|credential/i.test(p));

/** A user value shown back: a short name, never one that could hold a credential. */
const isQuotable = (value: string): boolean => value.length <= 100 && !/[@\s]/.test(value);

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'boolean') return `\`${String(value)}\``;
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a number';
  return typeof value === 'object' ? 'a mapping' : 'a string';
}

/** The one required string field of an object (`name` of a model), when it has exactly one; else its `name`, when it requires none. */
function singleRequired(node: JsonSchema): string | undefined {
  const required = node.required ?? [];
  const field = required.length === 0 && node.properties?.name ? 'name' : required[0];
  if (required.length > 1 || field === undefined) return undefined;
  const child = node.properties?.[field];
  return typeof child === 'object' && child.type === 'string' ? field : undefined;
}

function refKind(node: JsonSchema): 'Secret' | 'ConfigMap' | undefined {
  const names = Object.keys(node.properties ?? {}).sort().join(',');
  if (node.type !== 'object' || names !== 'key,name' || node.required?.length !== 2) return undefined;
  const name = node.properties?.name;
  return typeof name === 'object' && /ConfigMap/.test(name.description ?? '') ? 'ConfigMap' : 'Secret';
}

function nodeAt(root: JsonSchema, path: Path): JsonSchema | undefined {
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
const preferred = ['inference', 'remote', 'vllm', 'enabled', 'name'];

/** A YAML flow example of `node`: its `examples`, else its required fields (or one), a level or three deep. */
function exampleOf(node: JsonSchema, key: string, depth: number): string {
  if (node.examples?.[0] !== undefined) return flow(node.examples[0]);
  const ref = refKind(node);
  if (ref) return `{name: <${ref.toLowerCase()}>, key: <key>}`;
  if (node.anyOf) {
    const branch = node.anyOf.find((b): b is JsonSchema => typeof b === 'object');
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
  hostname: 'ogx.example.com',
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

function valueAt(object: unknown, path: Path): unknown {
  let value = object;
  for (const segment of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string | number, unknown>)[segment];
  }
  return value;
}
