// A fast "surely valid" check for the release-schema check (issue 16, BENCHMARKS.md targets):
// cfworker's `validate` builds a location string and an error list at every node (~0.1 ms for one
// small provider config), most of the check's time before. This check answers only "valid for
// sure", for the keywords the catalog's schemas use (configs/catalog/schemas.json: type, anyOf,
// $ref, properties, additionalProperties, items, required, const, enum, minimum, maximum,
// exclusiveMinimum, minLength, maxLength, pattern), with cfworker's semantics for draft 2020-12.
// Any other keyword, or a value that is not plain JSON data, makes it answer false, and so does a
// value it finds invalid: the caller then asks cfworker, which stays the one judge of what is
// wrong and how it is reported. It interprets the schema (no compiled closures): most nodes are
// visited once in a process, and a compile step cost more than it saved at start-up.
import type { Schema } from '@cfworker/json-schema';

/** The node a `$ref` names (as written), or undefined: cfworker's lookup, without building it. */
export type RefNode = (ref: string) => Schema | boolean | undefined;

/** True only when cfworker's `validate(value, node, '2020-12', lookup)` would say valid, `lookup[ref]` being `lookup(ref)`. */
export function surelyValid(value: unknown, node: Schema | boolean | undefined, lookup: RefNode): boolean {
  if (node === true) return true;
  if (typeof node !== 'object' || node === null || !isPlainData(value) || !handled(node)) return false;
  if (node.$ref !== undefined && !surelyValid(value, lookup(String(node.$ref)), lookup)) return false;
  if (node.type !== undefined && !typeFits(node.type as string | string[], value)) return false;
  // const and enum hold primitives only (handled): strict equality, as cfworker compares them.
  if (node.const !== undefined && value !== node.const) return false;
  if (node.enum !== undefined && !(node.enum as unknown[]).includes(value)) return false;
  if (node.anyOf !== undefined && !(node.anyOf as Schema[]).some((branch) => surelyValid(value, branch, lookup))) return false;
  if (Array.isArray(value)) return node.items === undefined || value.every((item) => surelyValid(item, node.items as Schema | boolean, lookup));
  if (typeof value === 'object' && value !== null) return objectFits(node, value as Record<string, unknown>, lookup);
  if (typeof value === 'number') return numberFits(node, value);
  if (typeof value === 'string') return stringFits(node, value);
  return true;
}

// cfworker throws on undefined, functions and bigints, and reads Dates and other objects as
// mappings with no keys: such values go to it. NaN and ±Infinity too (YAML `.nan`, `.inf`).
function isPlainData(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object': {
      if (value === null || Array.isArray(value)) return true;
      const prototype = Object.getPrototypeOf(value);
      return prototype === Object.prototype || prototype === null;
    }
    default:
      return false;
  }
}

// Keywords that only annotate (cfworker reads none of them); `env` is the catalog's own note.
const ANNOTATIONS = new Set(['default', 'title', 'description', 'examples', 'deprecated', 'readOnly', 'writeOnly', '$comment', 'env']);
const HANDLED = new Set([
  '$ref',
  'type',
  'anyOf',
  'const',
  'enum',
  'required',
  'properties',
  'additionalProperties',
  'items',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'minLength',
  'maxLength',
  'pattern',
]);
/** Per node (the catalog's nodes never change): only handled keywords, in the forms handled. */
const handledNodes = new WeakMap<object, boolean>();

function handled(node: Schema): boolean {
  let known = handledNodes.get(node);
  if (known === undefined) {
    known =
      Object.keys(node).every((k) => HANDLED.has(k) || ANNOTATIONS.has(k)) &&
      (node.const === undefined || isPrimitive(node.const)) &&
      (node.enum === undefined || (Array.isArray(node.enum) && node.enum.every(isPrimitive))) &&
      (node.items === undefined || !Array.isArray(node.items)) &&
      (node.pattern === undefined || regexOf(String(node.pattern)) !== null);
    handledNodes.set(node, known);
  }
  return known;
}

const isPrimitive = (v: unknown): boolean => v === null || (typeof v !== 'object' && typeof v !== 'function');

/** cfworker's instance types: number (an integer too), string, boolean, null, array, object. */
function typeFits(type: string | string[], value: unknown): boolean {
  const actual = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  const fits = (t: string): boolean => t === actual || (t === 'integer' && actual === 'number' && Number.isInteger(value));
  return typeof type === 'string' ? fits(type) : type.some(fits);
}

/** required, properties, additionalProperties (a key of `properties` is not an additional one). */
function objectFits(node: Schema, object: Record<string, unknown>, lookup: RefNode): boolean {
  for (const key of (node.required ?? []) as string[]) if (!Object.hasOwn(object, key)) return false;
  const properties = node.properties as Record<string, Schema | boolean> | undefined;
  const additional = node.additionalProperties as Schema | boolean | undefined;
  if (properties === undefined && additional === undefined) return true;
  for (const key of Object.keys(object)) {
    const sub = properties !== undefined && Object.hasOwn(properties, key) ? properties[key] : additional;
    if (sub !== undefined && !surelyValid(object[key], sub, lookup)) return false;
  }
  return true;
}

function numberFits(node: Schema, value: number): boolean {
  const { minimum, maximum, exclusiveMinimum } = node as { minimum?: number; maximum?: number; exclusiveMinimum?: number };
  if (minimum !== undefined && value < minimum) return false;
  if (maximum !== undefined && value > maximum) return false;
  return !(exclusiveMinimum !== undefined && value <= exclusiveMinimum);
}

function stringFits(node: Schema, value: string): boolean {
  const { minLength, maxLength, pattern } = node as { minLength?: number; maxLength?: number; pattern?: string };
  if (minLength !== undefined || maxLength !== undefined) {
    const length = codePoints(value);
    if (minLength !== undefined && length < minLength) return false;
    if (maxLength !== undefined && length > maxLength) return false;
  }
  return pattern === undefined || (regexOf(pattern) as RegExp).test(value);
}

/** cfworker builds `new RegExp(pattern, 'u')` (no g or y flag: test keeps no state); null if that throws. */
const regexes = new Map<string, RegExp | null>();
function regexOf(pattern: string): RegExp | null {
  let regex = regexes.get(pattern);
  if (regex === undefined) {
    try {
      regex = new RegExp(pattern, 'u');
    } catch {
      regex = null;
    }
    regexes.set(pattern, regex);
  }
  return regex;
}

/** A string's length in code points, as cfworker's ucs2length counts it: a surrogate pair is one. */
function codePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++, count++) {
    const high = text.charCodeAt(i);
    if (high >= 0xd800 && high <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
  }
  return count;
}
