// A fast "surely valid" check for the release-schema check (issue 16, BENCHMARKS.md targets):
// cfworker's `validate` interprets every node anew (~0.1 ms for one small provider config, a
// section of a busy base config in ms), which is most of the check's time over 1,000 LLSDs.
// This closure-compiled check answers only "valid for sure" for the keywords the catalog's
// schemas use (configs/catalog/schemas.json: type, anyOf, $ref, properties, additionalProperties,
// items, required, const, enum, minimum, maximum, exclusiveMinimum, minLength, maxLength,
// pattern), with cfworker's semantics for draft 2020-12. Any other keyword, or a value that is not
// plain JSON data, makes it answer false, and so does a value it finds invalid: the caller then
// asks cfworker, which stays the one judge of what is wrong and how it is reported.
import type { Schema } from '@cfworker/json-schema';

export type SchemaLookup = Record<string, Schema | boolean>;

type Check = (value: unknown) => boolean;

/** True only when cfworker's `validate(value, node, '2020-12', lookup)` would say valid. */
export function surelyValid(value: unknown, node: Schema | boolean, lookup: SchemaLookup): boolean {
  return checkOf(node, lookup)(value);
}

// Compiled once per node object: the catalog's nodes are shared and never changed.
const compiled = new WeakMap<object, Check>();

function checkOf(node: Schema | boolean, lookup: SchemaLookup): Check {
  if (node === true) return always;
  if (node === false || typeof node !== 'object' || node === null) return never;
  let check = compiled.get(node);
  if (!check) {
    check = compile(node, lookup);
    compiled.set(node, check);
  }
  return check;
}

const always: Check = () => true;
const never: Check = () => false;

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

/** The node's keywords as a conjunction of small checks; never when a keyword is not handled. */
function compile(node: Schema, lookup: SchemaLookup): Check {
  if (Object.keys(node).some((k) => !HANDLED.has(k) && !ANNOTATIONS.has(k))) return never;
  if (node.enum !== undefined && !(Array.isArray(node.enum) && node.enum.every(isPrimitive))) return never;
  if (node.const !== undefined && !isPrimitive(node.const)) return never;
  if (node.items !== undefined && typeof node.items !== 'boolean' && Array.isArray(node.items)) return never;
  const parts: Check[] = [];
  if (node.$ref !== undefined) parts.push(refCheck(String(node.$ref), lookup));
  if (node.type !== undefined) parts.push(typeCheck(node.type as string | string[]));
  if (node.const !== undefined) parts.push((v) => v === node.const);
  if (node.enum !== undefined) parts.push(enumCheck(node.enum as unknown[]));
  if (node.anyOf !== undefined) parts.push(anyOfCheck(node.anyOf as Schema[], lookup));
  if (node.required !== undefined || node.properties !== undefined || node.additionalProperties !== undefined) parts.push(objectCheck(node, lookup));
  if (node.items !== undefined) parts.push(itemsCheck(node.items as Schema | boolean, lookup));
  if (node.minimum !== undefined || node.maximum !== undefined || node.exclusiveMinimum !== undefined) parts.push(boundsCheck(node));
  if (node.minLength !== undefined || node.maxLength !== undefined || node.pattern !== undefined) parts.push(stringCheck(node));
  return (value) => {
    if (!isPlainData(value)) return false;
    for (const part of parts) if (!part(value)) return false;
    return true;
  };
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

const isPrimitive = (v: unknown): boolean => v === null || (typeof v !== 'object' && typeof v !== 'function');

/** `$ref` as written (`#/$defs/<key>`), looked up when first used: refs may be recursive. */
function refCheck(ref: string, lookup: SchemaLookup): Check {
  let target: Check | undefined;
  return (value) => {
    if (!target) {
      const node = lookup[ref];
      // cfworker throws on an unresolved ref: leave that to it.
      target = node === undefined ? never : checkOf(node, lookup);
    }
    return target(value);
  };
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** cfworker's instance types: number (an integer too), string, boolean, null, array, object. */
function typeCheck(type: string | string[]): Check {
  const types = [type].flat();
  return (value) => {
    const actual = jsonType(value);
    return types.some((t) => t === actual || (t === 'integer' && actual === 'number' && Number.isInteger(value)));
  };
}

/** Primitive values only (compile checks): a Set's equality is `===` here, NaN never reaching it. */
function enumCheck(values: readonly unknown[]): Check {
  const set = new Set(values);
  return (value) => set.has(value);
}

function anyOfCheck(branches: readonly Schema[], lookup: SchemaLookup): Check {
  let checks: Check[] | undefined;
  return (value) => {
    checks ??= branches.map((b) => checkOf(b, lookup));
    for (const check of checks) if (check(value)) return true;
    return false;
  };
}

/** required, properties, additionalProperties: only a mapping is checked, as in cfworker. */
function objectCheck(node: Schema, lookup: SchemaLookup): Check {
  const required = (node.required ?? []) as string[];
  const properties = (node.properties ?? {}) as Record<string, Schema | boolean>;
  const additional = node.additionalProperties as Schema | boolean | undefined;
  let propertyChecks: Map<string, Check> | undefined;
  let additionalCheck: Check | undefined;
  return (value) => {
    if (jsonType(value) !== 'object') return true;
    const object = value as Record<string, unknown>;
    for (const key of required) if (!Object.hasOwn(object, key)) return false;
    propertyChecks ??= new Map(Object.keys(properties).map((k) => [k, checkOf(properties[k] as Schema | boolean, lookup)]));
    if (additional !== undefined) additionalCheck ??= checkOf(additional, lookup);
    for (const key of Object.keys(object)) {
      const check = Object.hasOwn(properties, key) ? propertyChecks.get(key) : additionalCheck;
      if (check && !check(object[key])) return false;
    }
    return true;
  };
}

/** `items` as one schema for every item (draft 2020-12 without prefixItems). */
function itemsCheck(items: Schema | boolean, lookup: SchemaLookup): Check {
  let check: Check | undefined;
  return (value) => {
    if (!Array.isArray(value)) return true;
    check ??= checkOf(items, lookup);
    for (const item of value) if (!check(item)) return false;
    return true;
  };
}

function boundsCheck(node: Schema): Check {
  const { minimum, maximum, exclusiveMinimum } = node as { minimum?: number; maximum?: number; exclusiveMinimum?: number };
  return (value) => {
    if (typeof value !== 'number') return true;
    if (minimum !== undefined && value < minimum) return false;
    if (maximum !== undefined && value > maximum) return false;
    return !(exclusiveMinimum !== undefined && value <= exclusiveMinimum);
  };
}

function stringCheck(node: Schema): Check {
  const { minLength, maxLength, pattern } = node as { minLength?: number; maxLength?: number; pattern?: string };
  const regex = pattern === undefined ? undefined : regexOf(pattern);
  if (regex === null) return never;
  return (value) => {
    if (typeof value !== 'string') return true;
    if (minLength !== undefined || maxLength !== undefined) {
      const length = codePoints(value);
      if (minLength !== undefined && length < minLength) return false;
      if (maxLength !== undefined && length > maxLength) return false;
    }
    return regex === undefined || regex.test(value);
  };
}

/** cfworker builds `new RegExp(pattern, 'u')` (no g or y: test keeps no state); null if it would throw. */
function regexOf(pattern: string): RegExp | null {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return null;
  }
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
