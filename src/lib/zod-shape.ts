// A zod schema as plain data (a "shape"), and zod's parse of a value that surely passes it.
//
// Why: building the LLSD's zod schemas (several hundred objects) was a tenth of a render's
// start-up, and every render parses at least one LLSD. The build takes each shape from its
// schema (src/api/schema-facts.ts) and embeds it; a render parses through the shape and builds
// the zod schema only when the shape is not sure, so that zod reports what is wrong in its own
// words. zod stays the one judge: the shape answers only "valid, and this is zod's output", for
// the part of zod the schemas use (string, number, boolean, unknown, enum, literal, optional,
// default, object, record, array, union; length, regex, bound and integer checks), with zod 4's
// semantics (node_modules/zod/v4/core/schemas.js, checks.js). Anything else in a schema becomes
// `unsure`, and so does any value that is not plain data: the caller then asks zod.
// test/property/zod-shape.property.test.ts checks that both agree, output and key order included.
import type { z } from './zod.js';

type Primitive = string | number | boolean | null;

/** One check of a string, number or array, as zod runs it. */
export type ShapeCheck =
  | { check: 'minLength' | 'maxLength'; length: number }
  | { check: 'regex'; source: string; flags: string }
  | { check: 'greaterThan' | 'lessThan'; value: number; inclusive: boolean }
  | { check: 'integer'; minimum: number; maximum: number };

/** A shape node whose child shapes are `C`: shapes themselves, or indices of a packed table. */
type Node<C> = LeafNode | ParentNode<C>;
type LeafNode =
  | { type: 'string' | 'number'; checks?: ShapeCheck[] }
  | { type: 'boolean' | 'unknown' | 'unsure' }
  | { type: 'values'; values: Primitive[] };
type ParentNode<C> =
  | { type: 'array'; element: C; checks?: ShapeCheck[] }
  | { type: 'optional'; inner: C }
  | { type: 'default'; inner: C; value: unknown }
  | { type: 'object'; properties: Array<[key: string, shape: C]>; rest: 'strict' | 'loose' | 'strip' }
  | { type: 'record'; key: C; item: C }
  | { type: 'union'; options: C[] };

// A recursive alias cannot be written `Node<Shape>`; an interface for each parent kind can.
export type Shape = LeafNode | ArrayShape | OptionalShape | DefaultShape | ObjectShape | RecordShape | UnionShape;
interface ArrayShape extends Extract<ParentNode<Shape>, { type: 'array' }> {}
interface OptionalShape extends Extract<ParentNode<Shape>, { type: 'optional' }> {}
interface DefaultShape extends Extract<ParentNode<Shape>, { type: 'default' }> {}
interface ObjectShape extends Extract<ParentNode<Shape>, { type: 'object' }> {}
interface RecordShape extends Extract<ParentNode<Shape>, { type: 'record' }> {}
interface UnionShape extends Extract<ParentNode<Shape>, { type: 'union' }> {}

const unsure: Shape = { type: 'unsure' };

type Def = Record<string, unknown> & { type: string };
const defOf = (schema: unknown): Def => (schema as z.core.$ZodType)._zod.def as unknown as Def;

/** The shape of a zod schema (at build time, and in tests). */
export function shapeOf(schema: z.core.$ZodType): Shape {
  const def = defOf(schema);
  if (def.coerce) return unsure;
  // A schema that is itself a check (z.int(), z.int32()) runs that check before its others.
  const checkDefs = [...(typeof def.check === 'string' ? [def] : []), ...((def.checks as unknown[] | undefined) ?? []).map(defOf)];
  const checks = checkDefs.map(checkOf);
  if (checks.includes(undefined)) return unsure;
  const sureChecks = checks as ShapeCheck[];
  if (sureChecks.length > 0 && !['string', 'number', 'array'].includes(def.type)) return unsure;
  const withChecks = sureChecks.length > 0 ? { checks: sureChecks } : {};
  switch (def.type) {
    case 'string':
    case 'number':
      return { type: def.type, ...withChecks };
    case 'boolean':
    case 'unknown':
      return { type: def.type };
    case 'enum':
      return valuesShape(Object.values(def.entries as Record<string, unknown>));
    case 'literal':
      return valuesShape(def.values as unknown[]);
    case 'optional':
      return { type: 'optional', inner: shapeOf(def.innerType as z.core.$ZodType) };
    case 'default': {
      // zod computes a default given as a function at each parse (its def's getter calls it): one
      // that gives another value the second time, or a value that is not JSON data, is not a
      // constant the shape can carry.
      const value = def.defaultValue;
      if (!isJsonData(value) || JSON.stringify(def.defaultValue) !== JSON.stringify(value)) return unsure;
      return { type: 'default', inner: shapeOf(def.innerType as z.core.$ZodType), value };
    }
    case 'object': {
      const catchall = def.catchall === undefined ? undefined : defOf(def.catchall).type;
      const rest = catchall === undefined ? 'strip' : catchall === 'never' ? 'strict' : catchall === 'unknown' ? 'loose' : undefined;
      if (rest === undefined) return unsure;
      const shape = def.shape as Record<string, z.core.$ZodType>;
      return { type: 'object', properties: Object.keys(shape).map((key) => [key, shapeOf(shape[key] as z.core.$ZodType)]), rest };
    }
    case 'record':
      // Keys from an enum or literal make a record exhaustive; a loose record passes bad keys through.
      if (def.mode === 'loose' || (def.keyType as z.core.$ZodType)._zod.values !== undefined) return unsure;
      return { type: 'record', key: shapeOf(def.keyType as z.core.$ZodType), item: shapeOf(def.valueType as z.core.$ZodType) };
    case 'array':
      return { type: 'array', element: shapeOf(def.element as z.core.$ZodType), ...withChecks };
    case 'union':
      // A discriminated or exclusive union chooses its option otherwise than "the first that passes".
      if (def.discriminator !== undefined || def.inclusive === false) return unsure;
      return { type: 'union', options: (def.options as z.core.$ZodType[]).map(shapeOf) };
    default:
      return unsure;
  }
}

function checkOf(def: Def): ShapeCheck | undefined {
  switch (def.check) {
    case 'min_length':
      return { check: 'minLength', length: def.minimum as number };
    case 'max_length':
      return { check: 'maxLength', length: def.maximum as number };
    case 'string_format':
      return def.format === 'regex' && def.pattern instanceof RegExp && !def.pattern.global && !def.pattern.sticky
        ? { check: 'regex', source: def.pattern.source, flags: def.pattern.flags }
        : undefined;
    case 'greater_than':
    case 'less_than':
      return typeof def.value === 'number' ? { check: def.check === 'greater_than' ? 'greaterThan' : 'lessThan', value: def.value, inclusive: def.inclusive === true } : undefined;
    case 'number_format':
      if (def.format === 'safeint') return { check: 'integer', minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER };
      if (def.format === 'int32') return { check: 'integer', minimum: -2147483648, maximum: 2147483647 };
      return undefined;
    default:
      return undefined;
  }
}

function valuesShape(values: unknown[]): Shape {
  const primitive = (v: unknown): v is Primitive => v === null || ['string', 'number', 'boolean'].includes(typeof v);
  return values.every(primitive) ? { type: 'values', values } : unsure;
}

/** Strings, finite numbers, booleans, null, and lists and plain mappings of them. */
function isJsonData(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isJsonData);
  return isPlainData(value) && Object.values(value).every(isJsonData);
}

/** What `parseSurely` returns when the shape cannot say: ask zod. */
export const notSure: unique symbol = Symbol('not sure');

/**
 * zod's output for `value` when it surely passes `shape`, else `notSure`. The output is built as
 * zod builds it: new objects and arrays, properties in the schema's order then the rest in the
 * input's, defaults filled in, `unknown` values passed as they are.
 */
export function parseSurely(shape: Shape, value: unknown): unknown {
  switch (shape.type) {
    case 'string':
      return typeof value === 'string' && checksPass(shape.checks, value) ? value : notSure;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) && checksPass(shape.checks, value) ? value : notSure;
    case 'boolean':
      return typeof value === 'boolean' ? value : notSure;
    case 'unknown':
      return value;
    case 'values':
      return shape.values.includes(value as Primitive) ? value : notSure;
    case 'optional':
      return value === undefined ? undefined : parseSurely(shape.inner, value);
    case 'default':
      return value === undefined ? structuredClone(shape.value) : parseSurely(shape.inner, value);
    case 'object':
      return isPlainData(value) ? objectOf(shape, value) : notSure;
    case 'record':
      return isPlainData(value) ? recordOf(shape, value) : notSure;
    case 'array': {
      if (!Array.isArray(value) || !checksPass(shape.checks, value)) return notSure;
      const out: unknown[] = [];
      for (const item of value) {
        const parsed = parseSurely(shape.element, item);
        if (parsed === notSure) return notSure;
        out.push(parsed);
      }
      return out;
    }
    case 'union':
      for (const option of shape.options) {
        const parsed = parseSurely(option, value);
        if (parsed !== notSure) return parsed;
      }
      return notSure;
    default:
      return notSure;
  }
}

/** A mapping as YAML and JSON make them: no prototype but Object's (or none), and no `__proto__` key (zod would set the output's prototype). */
function isPlainData(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return (prototype === Object.prototype || prototype === null) && !Object.hasOwn(value, '__proto__');
}

function objectOf(shape: Extract<Shape, { type: 'object' }>, input: Record<string, unknown>): unknown {
  const out: Record<string, unknown> = {};
  let present = 0;
  for (const [key, property] of shape.properties) {
    const own = Object.hasOwn(input, key);
    // zod reads `input[key]`, which an inherited property (`constructor`) would answer.
    if (!own && key in input) return notSure;
    if (own) present++;
    const parsed = parseSurely(property, input[key]);
    if (parsed === notSure) return notSure;
    if (parsed !== undefined) out[key] = parsed;
    else if (own) out[key] = undefined;
  }
  // zod goes through the input's keys (`for … in`) for those the schema does not name.
  const keys = Object.keys(input);
  if (keys.length === present || shape.rest === 'strip') return out;
  if (shape.rest === 'strict') return notSure;
  const named = new Set(shape.properties.map(([key]) => key));
  for (const key of keys) if (!named.has(key)) out[key] = input[key];
  return out;
}

function recordOf(shape: Extract<Shape, { type: 'record' }>, input: Record<string, unknown>): unknown {
  const out: Record<string, unknown> = {};
  // zod reads every own key (Reflect.ownKeys): a symbol one is not data the shape knows.
  for (const key of Reflect.ownKeys(input)) {
    if (typeof key !== 'string' || parseSurely(shape.key, key) !== key) return notSure;
    const parsed = parseSurely(shape.item, input[key]);
    if (parsed === notSure) return notSure;
    out[key] = parsed;
  }
  return out;
}

function checksPass(checks: readonly ShapeCheck[] | undefined, value: string | number | unknown[]): boolean {
  for (const check of checks ?? []) {
    switch (check.check) {
      case 'minLength':
        if (typeof value === 'number' || value.length < check.length) return false;
        break;
      case 'maxLength':
        if (typeof value === 'number' || value.length > check.length) return false;
        break;
      case 'regex':
        if (typeof value !== 'string' || !regexOf(check).test(value)) return false;
        break;
      case 'greaterThan':
        if (typeof value !== 'number' || !(check.inclusive ? value >= check.value : value > check.value)) return false;
        break;
      case 'lessThan':
        if (typeof value !== 'number' || !(check.inclusive ? value <= check.value : value < check.value)) return false;
        break;
      case 'integer':
        if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < check.minimum || value > check.maximum) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

/** Each pattern compiled once per process (neither global nor sticky, so `test` keeps no state). */
const regexes = new Map<string, RegExp>();
function regexOf({ source, flags }: { source: string; flags: string }): RegExp {
  const key = `${flags}/${source}`;
  let regex = regexes.get(key);
  if (regex === undefined) regexes.set(key, (regex = new RegExp(source, flags)));
  return regex;
}

/**
 * `schema().safeParse(value, params)`, through `shape` when it is sure of the value: then the
 * schema is not built (`schema` is called only for a value the shape is not sure of).
 */
export function safeParseVia<S extends z.ZodMiniType>(shape: Shape, schema: () => S, value: unknown, params?: z.core.ParseContext<z.core.$ZodIssue>): z.core.util.SafeParseResult<z.output<S>> {
  const sure = parseSurely(shape, value);
  if (sure !== notSure) return { success: true, data: sure as z.output<S> };
  return schema().safeParse(value, params);
}

/**
 * Shapes as one table of distinct nodes, children by index, for the build to embed: a schema
 * repeats small parts (a non-empty string, a Secret key) hundreds of times, so the table is a
 * fifth of the tree's JSON text.
 */
export interface PackedShapes<K extends string> {
  nodes: Array<Node<number>>;
  roots: Record<K, number>;
}

export function packShapes<K extends string>(shapes: Record<K, Shape>): PackedShapes<K> {
  const nodes: Array<Node<number>> = [];
  const indexOfText = new Map<string, number>();
  const pack = (shape: Shape): number => {
    const node = withChildren(shape, pack);
    const text = JSON.stringify(node);
    let index = indexOfText.get(text);
    if (index === undefined) indexOfText.set(text, (index = nodes.push(node) - 1));
    return index;
  };
  const roots = Object.fromEntries(Object.entries<Shape>(shapes).map(([name, shape]) => [name, pack(shape)])) as Record<K, number>;
  return { nodes, roots };
}

/** The shapes of `packShapes`; a node used in several places is one object (shapes are never changed). */
export function unpackShapes<K extends string>({ nodes, roots }: PackedShapes<K>): Record<K, Shape> {
  // Children come before their parents in the table, so one pass resolves every index.
  const resolved: Shape[] = [];
  for (const node of nodes) resolved.push(withChildren(node, (index) => resolved[index] ?? unsure));
  return Object.fromEntries(Object.entries<number>(roots).map(([name, index]) => [name, resolved[index] ?? unsure])) as Record<K, Shape>;
}

/** `node` with each child shape replaced by `child(it)`. */
function withChildren<A, B>(node: Node<A>, child: (c: A) => B): Node<B> {
  switch (node.type) {
    case 'array':
      return { ...node, element: child(node.element) };
    case 'optional':
      return { ...node, inner: child(node.inner) };
    case 'default':
      return { ...node, inner: child(node.inner) };
    case 'object':
      return { ...node, properties: node.properties.map(([key, shape]) => [key, child(shape)]) };
    case 'record':
      return { ...node, key: child(node.key), item: child(node.item) };
    case 'union':
      return { ...node, options: node.options.map(child) };
    default:
      return node;
  }
}
