// The release schemas' side of the check of release-schema.ts: cfworker's lookup of the catalog's
// `$defs`, and its errors turned into findings with messages that say what to write (each keyword
// resolved in the schema itself; cfworker's English messages are not parsed).
import type { OutputUnit, Schema } from '@cfworker/json-schema';
import { schemaOf } from '../catalog/catalog.js';
import { formatFieldPath } from '../krm/item.js';
import { closest } from '../lib/issues.js';
import { isPlainObject } from '../lib/objects.js';
import { clip, code, listOf, quote } from '../lib/quote.js';
import { isCredentialName } from '../lib/url-credentials.js';
import { releaseName } from '../catalog/versions.js';

/** A path segment: a key or a list index. */
export type Segment = string | number;

/** One finding, its path relative to the section validated. `unknown`: a key the server ignores. */
export interface Found {
  path: Segment[];
  kind: 'unknown' | 'invalid';
  message: string;
  /** Variables that may or may not be set in the pod, on which the finding hangs: a warning, never an error. */
  maybe?: readonly string[];
  /** Variables the pod leaves unset or empty that make the value nothing: set in `workload.overrides.env`. */
  unset?: readonly string[];
}

/** How a section is named in messages. */
export interface Labels {
  release: string;
  /** What a key here is, in "is not <setting> in llama-stack R". */
  setting: string;
  /** Who has no default for a missing key. */
  owner: string;
  secrets: ReadonlySet<string>;
}

// cfworker's lookup, by `$ref` as written (`#/$defs/<key>`): every ref of the catalog has that form,
// so the nodes need no indexing (cfworker's `dereference` walks and marks every node: ~60 ms for
// the catalog, ~20 ms for one release, on every start) and the catalog's data is never changed.
// A proxy, so that a schema is parsed when a ref first names it, not all of them at start-up.
export const lookup = new Proxy({} as Record<string, Schema | boolean>, {
  get: (_, ref) => (typeof ref === 'string' ? refNode(ref) : undefined),
});

export const defNode = (key: string): Schema | undefined => schemaOf(key) as Schema | undefined;

const DEFS = '#/$defs/';
export const refNode = (ref: string): Schema | undefined => (ref.startsWith(DEFS) ? defNode(ref.slice(DEFS.length)) : undefined);

// ---------------------------------------------------------------------------------------------
// cfworker's errors → findings: grouped by (keywordLocation, instanceLocation) prefix, each keyword
// resolved in the schema itself (its English messages are not parsed)

interface Walk {
  errors: readonly OutputUnit[];
  labels: Labels;
  out: Found[];
}

export function explainAll(node: Schema, value: unknown, errors: readonly OutputUnit[], labels: Labels): Found[] {
  const walk: Walk = { errors, labels, out: [] };
  explain(walk, node, '#', value, '#', []);
  // One message per path and text.
  const seen = new Set<string>();
  return walk.out.filter((f) => {
    const key = `${formatFieldPath(f.path)}\n${f.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const under = (location: string, prefix: string): boolean => location === prefix || location.startsWith(`${prefix}/`);
const pointer = (key: string | number): string => encodePointer(String(key));
const encodePointer = (p: string): string => encodeURI(p.replace(/~/g, '~0').replace(/\//g, '~1')).replace(/#/g, '%23');

function explain(walk: Walk, node: Schema, at: string, value: unknown, instance: string, path: Segment[]): void {
  const errors = walk.errors.filter((e) => under(e.keywordLocation, at) && under(e.instanceLocation, instance));
  if (errors.length === 0) return;
  const failed = (keyword: string): boolean => errors.some((e) => e.keywordLocation === `${at}/${keyword}` && e.instanceLocation === instance);
  const before = walk.out.length;
  const add = (message: string, where: Segment[] = path, kind: Found['kind'] = 'invalid'): void => {
    walk.out.push({ path: where, kind, message });
  };

  if (node.$ref !== undefined) explain(walk, refTarget(node), `${at}/$ref`, value, instance, path);
  if (failed('type')) {
    add(`must be ${expected(node)}, not ${shown(value, path, walk.labels)}`);
    return;
  }
  if (failed('anyOf')) explainUnion(walk, node, at, value, instance, path);
  if (failed('const') || failed('enum')) add(enumMessage(node.const !== undefined ? [node.const] : (node.enum as unknown[]), value, path, walk.labels));
  if (failed('required') && isPlainObject(value)) {
    for (const key of (node.required ?? []) as string[]) {
      if (Object.hasOwn(value, key)) continue;
      add(`is missing: ${walk.labels.owner} has no default for it, so the server rejects the config at startup`, [...path, key]);
    }
  }
  const properties = (node.properties ?? {}) as Record<string, Schema>;
  if (isPlainObject(value)) {
    for (const key of Object.keys(value)) {
      if (Object.hasOwn(properties, key)) {
        explain(walk, properties[key] as Schema, `${at}/properties/${pointer(key)}`, value[key], `${instance}/${pointer(key)}`, [...path, key]);
      } else if (node.additionalProperties === false) {
        if (failed('additionalProperties')) walk.out.push(unknownKey([...path, key], Object.keys(properties), walk.labels.setting, walk.labels.release));
      } else if (isPlainObject(node.additionalProperties)) {
        explain(walk, node.additionalProperties as Schema, `${at}/additionalProperties`, value[key], `${instance}/${pointer(key)}`, [...path, key]);
      }
    }
  }
  if (Array.isArray(value)) {
    value.forEach((item: unknown, i) => {
      const prefix = node.prefixItems as Schema[] | undefined;
      if (prefix && i < prefix.length) explain(walk, prefix[i] as Schema, `${at}/prefixItems/${i}`, item, `${instance}/${i}`, [...path, i]);
      else if (isPlainObject(node.items)) explain(walk, node.items as Schema, `${at}/items`, item, `${instance}/${i}`, [...path, i]);
    });
  }
  ((node.allOf ?? []) as Schema[]).forEach((branch, j) => explain(walk, branch, `${at}/allOf/${j}`, value, instance, path));
  for (const [keyword, words] of Object.entries(BOUNDS)) {
    if (failed(keyword)) add(words(node[keyword], value, path, walk.labels));
  }
  // Nothing named: a keyword this module does not word; still one message, never silence.
  if (walk.out.length === before && errors.some((e) => e.instanceLocation === instance)) {
    add(`is not what ${releaseName(walk.labels.release)} accepts here (${shown(value, path, walk.labels)})`);
  }
}

const BOUNDS: Record<string, (bound: unknown, value: unknown, path: Segment[], labels: Labels) => string> = {
  minimum: (n, v, p, l) => `must be at least ${String(n)}, not ${shown(v, p, l)}`,
  maximum: (n, v, p, l) => `must be at most ${String(n)}, not ${shown(v, p, l)}`,
  exclusiveMinimum: (n, v, p, l) => `must be greater than ${String(n)}, not ${shown(v, p, l)}`,
  exclusiveMaximum: (n, v, p, l) => `must be less than ${String(n)}, not ${shown(v, p, l)}`,
  multipleOf: (n, v, p, l) => `must be a multiple of ${String(n)}, not ${shown(v, p, l)}`,
  minLength: (n) => (n === 1 ? 'must not be empty' : `must be at least ${String(n)} characters long`),
  maxLength: (n) => `must be at most ${String(n)} characters long`,
  pattern: (pattern, v, p, l) => `must match the pattern ${code(String(pattern))}, not ${shown(v, p, l)}`,
  minItems: (n) => `must list at least ${String(n)} item${n === 1 ? '' : 's'}`,
  maxItems: (n) => `must list at most ${String(n)} item${n === 1 ? '' : 's'}`,
  uniqueItems: () => 'must not list the same item twice',
  minProperties: (n) => `must have at least ${String(n)} key${n === 1 ? '' : 's'}`,
  maxProperties: (n) => `must have at most ${String(n)} key${n === 1 ? '' : 's'}`,
};

/** `anyOf`: report the branch the value was meant for, or what the union accepts. */
function explainUnion(walk: Walk, node: Schema, at: string, value: unknown, instance: string, path: Segment[]): void {
  const branches = flatten((node.anyOf ?? []) as Schema[], `${at}/anyOf`);
  const placeholder = typeof value === 'string' && value.includes('${env.');
  const meant = branches.filter((b) => fits(b.target, value) && tagFits(b.target, value) && (!b.placeholder || placeholder));
  if (meant.length === 1) return explain(walk, (meant[0] as Branch).node, (meant[0] as Branch).at, value, instance, path);
  // Several mappings could be meant (no tag tells): the one with the fewest errors.
  if (meant.length > 1 && isPlainObject(value)) {
    const count = (b: Branch): number => walk.errors.filter((e) => under(e.keywordLocation, b.at)).length;
    const best = [...meant].sort((a, b) => count(a) - count(b))[0] as Branch;
    return explain(walk, best.node, best.at, value, instance, path);
  }
  const offered = branches.filter((b) => !b.placeholder);
  const tags = offered.map((b) => tagOf(b.target)).filter((t): t is string => typeof t === 'string');
  const mappings = offered.filter((b) => typeIncludes(b.target, 'object')).length;
  if (isPlainObject(value) && typeof value.type === 'string' && tags.length > 0 && tags.length === mappings) {
    walk.out.push({ path: [...path, 'type'], kind: 'invalid', message: enumMessage(tags, value.type, [...path, 'type'], walk.labels) });
    return;
  }
  const accepted = [...new Set(offered.flatMap((b) => describe(b.target)))];
  walk.out.push({ path, kind: 'invalid', message: `must be ${listOf(accepted, { each: (s) => s, last: 'or' })}, not ${shown(value, path, walk.labels)}` });
}

interface Branch {
  node: Schema;
  at: string;
  /** The branch with its `$ref` followed, for its type and tag. */
  target: Schema;
  placeholder: boolean;
}

/** Nested `anyOf` branches (pydantic's Optional of a union) as one list. */
function flatten(nodes: readonly Schema[], at: string): Branch[] {
  return nodes.flatMap((node, j): Branch[] => {
    const here = `${at}/${j}`;
    const target = node.$ref !== undefined ? refTarget(node) : node;
    const nested = node.$ref === undefined && Array.isArray(node.anyOf) && node.type === undefined && node.properties === undefined;
    if (nested) return flatten(node.anyOf as Schema[], `${here}/anyOf`);
    return [{ node, at: here, target, placeholder: node.$ref === '#/$defs/EnvPlaceholder' }];
  });
}

const refTarget = (node: Schema): Schema => (lookup[String(node.$ref)] ?? {}) as Schema;

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value === 'object' ? 'object' : typeof value;
}

const typesOf = (node: Schema): string[] => (node.type === undefined ? [] : [node.type as string | string[]].flat());
const typeIncludes = (node: Schema, type: string): boolean => typesOf(node).includes(type);

function fits(node: Schema, value: unknown): boolean {
  const types = typesOf(node);
  const actual = jsonType(value);
  if (types.length === 0) {
    if (node.const !== undefined) return jsonType(node.const) === actual;
    if (Array.isArray(node.enum)) return node.enum.some((v) => jsonType(v) === actual);
    return true;
  }
  return types.includes(actual) || (actual === 'integer' && types.includes('number'));
}

/** The const of a discriminator `type` property (also behind the placeholder wrapper). */
function tagOf(node: Schema): unknown {
  const tag = (node.properties as Record<string, Schema> | undefined)?.type;
  if (!tag) return undefined;
  if (tag.const !== undefined) return tag.const;
  if (Array.isArray(tag.enum) && tag.enum.length === 1) return tag.enum[0];
  const inner = ((tag.anyOf ?? []) as Schema[]).find((b) => b.const !== undefined);
  return inner?.const;
}

function tagFits(node: Schema, value: unknown): boolean {
  if (!isPlainObject(value) || value.type === undefined) return true;
  const tag = tagOf(node);
  return tag === undefined || tag === value.type;
}

const ARTICLE: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean (true or false)',
  null: 'null',
  object: 'a mapping',
  array: 'a list',
};

function describe(node: Schema): string[] {
  if (node.const !== undefined) return [code(String(node.const))];
  if (Array.isArray(node.enum)) return node.enum.map((v) => code(String(v)));
  const tag = tagOf(node);
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a YAML tag name, shown as written
  if (tag !== undefined && typeIncludes(node, 'object')) return [`a mapping with \`type: ${String(tag)}\``];
  const types = typesOf(node);
  return types.length === 0 ? ['a value of another form'] : types.map((t) => ARTICLE[t] ?? t);
}

function expected(node: Schema): string {
  return listOf(typesOf(node).map((t) => ARTICLE[t] ?? t), { each: (s) => s, last: 'or' });
}

function enumMessage(values: readonly unknown[], value: unknown, path: Segment[], labels: Labels): string {
  const names = values.map((v) => String(v));
  const near = typeof value === 'string' && !isSecret(path, labels) ? closest(value, names) : undefined;
  const list = names.length === 1 ? code(names[0]) : `one of ${listOf(names, { each: (v) => code(v) })}`;
  return `must be ${list}, not ${shown(value, path, labels)}${near ? `; did you mean \`${near}\`?` : ''}`;
}

export function unknownKey(path: Segment[], known: readonly string[], setting: string, release: string): Found {
  const key = String(path.at(-1));
  const near = closest(key, known);
  const instead = near ? ` Did you mean \`${near}\`?` : known.length > 0 ? ` It reads: ${listOf(known)}` : ' It reads no settings here';
  return { path, kind: 'unknown', message: `is not ${setting} in ${releaseName(release)}; the server silently ignores it.${instead}` };
}

const isSecret = (path: Segment[], labels: Labels): boolean =>
  path.some((s) => typeof s === 'string' && (labels.secrets.has(s) || isCredentialName(s)));

/** A value as a message may show it: never a secret's. */
function shown(value: unknown, path: Segment[], labels: Labels): string {
  if (isSecret(path, labels)) return 'the value';
  if (typeof value === 'string') return quote(value);
  if (Array.isArray(value)) return 'a list';
  if (isPlainObject(value)) return 'a mapping';
  // As YAML writes them (JSON has no infinity and would say `null`).
  if (typeof value === 'number' && !Number.isFinite(value)) return Number.isNaN(value) ? '.nan' : value > 0 ? '.inf' : '-.inf';
  return clip(JSON.stringify(value) ?? String(value));
}
