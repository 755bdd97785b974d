// The shape a render reads LLSDs through (src/lib/zod-shape.ts) against zod itself: wherever the
// shape is sure, zod accepts the value and gives the same output (key order included); every
// LLSD of the repository (examples, goldens, fixtures) is one the shape is sure of, so renders
// do not build the schema; and the shape of each zod construct it does not model is "not sure".
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { llsdShapes, llsdShapesFromSchemas, llsdV1alpha2Schemas } from '../../src/llsd/llsd-v1alpha2.js';
import { parseYamlStream } from '../../src/krm/yaml.js';
import { notSure, packShapes, parseSurely, shapeOf, unpackShapes, type Shape } from '../../src/lib/zod-shape.js';
import { z } from '../../src/lib/zod.js';

const numRuns = Number(process.env.LLSD_PROPERTY_RUNS ?? 300);
const repoRoot = join(import.meta.dirname, '..', '..');

/** JSON text with `undefined` kept apart from a missing key, so that key order and presence both count. */
const exact = (value: unknown): string => JSON.stringify(value, (_key, v: unknown) => (v === undefined ? '<undefined>' : v));

/** The property: where the shape is sure, zod agrees and gives the same output. Returns whether it was sure. */
function agrees(schema: z.ZodMiniType, shape: Shape, value: unknown): boolean {
  const sure = parseSurely(shape, value);
  if (sure === notSure) return false;
  const parsed = schema.safeParse(value);
  expect(parsed.error?.issues ?? [], `zod refuses what the shape is sure of: ${exact(value)}`).toEqual([]);
  expect(exact(sure)).toBe(exact(parsed.data));
  return true;
}

/**
 * Values for a shape. `fits` makes values the shape should be sure of (and zod accept); with
 * `strays`, any node may instead get a near miss or a value of another type.
 */
function valuesOf(shape: Shape, strays: boolean, depth = 0): fc.Arbitrary<unknown> {
  const fitting = fits(shape, strays, depth);
  if (!strays) return fitting;
  const stray = fc.oneof(
    fc.constant(null),
    fc.string({ maxLength: 300 }),
    fc.constantFrom('', 'A', 'a'.repeat(64)),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant([]),
    fc.constant({}),
  );
  return fc.oneof({ arbitrary: fitting, weight: 30 }, { arbitrary: stray, weight: 1 });
}
const near = (shape: Shape): fc.Arbitrary<unknown> => valuesOf(shape, true);

function fits(shape: Shape, strays: boolean, depth: number): fc.Arbitrary<unknown> {
  const child = (s: Shape) => valuesOf(s, strays, depth + 1);
  const checks = 'checks' in shape ? (shape.checks ?? []) : [];
  const bound = (name: 'minLength' | 'maxLength') => checks.flatMap((c) => (c.check === name ? [c.length] : []))[0];
  switch (shape.type) {
    case 'string': {
      const [first, ...others] = checks.flatMap((c) => (c.check === 'regex' ? [new RegExp(c.source, c.flags)] : []));
      const minLength = bound('minLength') ?? 0;
      const maxLength = bound('maxLength') ?? 20;
      const text = first ? fc.stringMatching(first) : fc.string({ minLength, maxLength: Math.min(maxLength, minLength + 20) });
      return text.filter((t) => others.every((r) => r.test(t)) && t.length >= minLength && t.length <= maxLength);
    }
    case 'number': {
      const integer = checks.find((c) => c.check === 'integer');
      let min = integer && integer.check === 'integer' ? integer.minimum : -1e6;
      let max = integer && integer.check === 'integer' ? integer.maximum : 1e6;
      for (const c of checks) {
        if (c.check === 'greaterThan') min = Math.max(min, c.inclusive ? c.value : c.value + (integer ? 1 : 1e-9));
        if (c.check === 'lessThan') max = Math.min(max, c.inclusive ? c.value : c.value - (integer ? 1 : 1e-9));
      }
      return integer ? fc.integer({ min, max }) : fc.double({ min, max, noNaN: true });
    }
    case 'boolean':
      return fc.boolean();
    case 'unknown':
      return fc.jsonValue({ maxDepth: 2 });
    case 'values':
      return fc.constantFrom(...shape.values);
    case 'optional':
    case 'default':
      return fc.option(child(shape.inner), { nil: undefined, freq: 2 });
    case 'array':
      return fc.array(child(shape.element), { minLength: bound('minLength') ?? 0, maxLength: Math.min(bound('maxLength') ?? 3, depth > 4 ? 1 : 3) });
    case 'record':
      return fc.dictionary(child(shape.key).filter((k): k is string => typeof k === 'string' && k !== '__proto__'), child(shape.item), { maxKeys: 2 });
    case 'union':
      return fc.oneof(...shape.options.map(child));
    case 'object': {
      const model = Object.fromEntries(shape.properties.map(([key, property]) => [key, child(property)]));
      const required = shape.properties.filter(([, p]) => p.type !== 'optional' && p.type !== 'default').map(([key]) => key);
      const object = fc.record(model, { requiredKeys: required });
      if (!strays && shape.rest === 'strict') return object;
      return fc
        .tuple(object, fc.option(fc.constantFrom('extra', 'status', 'name'), { freq: 6 }), fc.jsonValue({ maxDepth: 1 }))
        .map(([o, extraKey, extraValue]) => (extraKey === null ? o : { ...o, [extraKey]: extraValue }));
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Every v1alpha2 LLSD written in the repository, read as a render reads a file. */
function repositoryLlsds(): Array<{ file: string; object: unknown }> {
  const found: Array<{ file: string; object: unknown }> = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.ya?ml$/.test(name)) {
        const text = readFileSync(path, 'utf8');
        if (!text.includes('llamastack.io/v1alpha2')) continue;
        for (const document of parseYamlStream(text).documents) {
          const value = document.value as Record<string, unknown> | null;
          const objects = value?.kind === 'ResourceList' && Array.isArray(value.items) ? (value.items as Array<Record<string, unknown> | null>) : [value];
          for (const object of objects) {
            if (object?.apiVersion === 'llamastack.io/v1alpha2' && object.kind === 'LlamaStackDistribution') found.push({ file: path, object });
          }
        }
      }
    }
  };
  for (const dir of ['examples', 'test/golden', 'test/fixtures']) walk(join(repoRoot, dir));
  return found;
}

describe('the LLSD shape agrees with zod', () => {
  const { llsdSchema, secretLeaf } = llsdV1alpha2Schemas();
  const shapes = llsdShapes();

  it('on every LLSD of the repository, and it is sure of each one zod accepts (so renders build no schema)', () => {
    const llsds = repositoryLlsds();
    expect(llsds.length).toBeGreaterThan(40);
    const unsure: string[] = [];
    for (const { file, object } of llsds) {
      if (!agrees(llsdSchema, shapes.llsd, object) && llsdSchema.safeParse(object).success) unsure.push(file);
    }
    expect(unsure).toEqual([]);
  });

  it('on generated LLSDs and near misses at every field', () => {
    let sure = 0;
    fc.assert(
      fc.property(fc.oneof(valuesOf(shapes.llsd, false), near(shapes.llsd)), (value) => {
        if (agrees(llsdSchema, shapes.llsd, value)) sure++;
      }),
      { numRuns },
    );
    // A generator that never made a value the shape is sure of would test nothing.
    expect(sure).toBeGreaterThan(numRuns / 4);
  });

  it('on Secret leaves of provider settings', () => {
    fc.assert(fc.property(near(shapes.secretLeaf), (value) => void agrees(secretLeaf, shapes.secretLeaf, value)), { numRuns });
  });

  it('packs into a table and back unchanged, and the table is much smaller than the tree', () => {
    const tree = { llsd: shapeOf(llsdSchema), secretLeaf: shapeOf(secretLeaf) };
    const packed = packShapes(tree);
    expect(unpackShapes(packed)).toEqual(tree);
    expect(llsdShapesFromSchemas()).toEqual(packed);
    expect(JSON.stringify(packed).length).toBeLessThan(JSON.stringify(tree).length / 3);
  });
});

describe('each zod construct, on any JSON value', () => {
  const anyValue = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.constantFrom(
      '',
      'a',
      'ab',
      'abc',
      'x1',
      'A',
      '42',
      -1,
      0,
      -0,
      1,
      1.5,
      5,
      2 ** 31 - 1,
      2 ** 31,
      2 ** 53,
      Infinity,
      NaN,
      true,
      null,
      undefined,
      [],
      {},
      ['a'],
      { a: 'x' },
    ),
  );
  const constructs: Record<string, z.ZodMiniType> = {
    'string with length and regex checks': z.string().check(z.minLength(1), z.maxLength(2), z.regex(/^[a-z]/)),
    'safe integer, at least 1': z.int().check(z.minimum(1)),
    'int32 above 0 and at most 5': z.int32().check(z.positive(), z.maximum(5)),
    'number below 2 (exclusive)': z.number().check(z.lt(2)),
    enum: z.enum(['a', 'b']),
    literal: z.literal(5),
    boolean: z.boolean(),
    'optional and default in a strict object': z.strictObject({
      a: z.optional(z.string()),
      b: z._default(z.array(z.string()), ['d']),
      c: z._default(z.boolean(), true),
    }),
    'loose object with a required key': z.looseObject({ a: z.string() }),
    'stripping object': z.object({ a: z.optional(z.int()) }),
    'record with checked keys': z.record(z.string().check(z.regex(/^[a-z]+$/)), z.unknown()),
    'union, first option wins': z.union([z.strictObject({ a: z.string() }), z.looseObject({ a: z.unknown() }), z.string()]),
    'non-empty array': z.array(z.union([z.int(), z.string()])).check(z.minLength(1), z.maxLength(2)),
  };
  for (const [name, schema] of Object.entries(constructs)) {
    it(name, () => {
      const shape = shapeOf(schema);
      expect(shape.type).not.toBe('unsure');
      let sure = 0;
      fc.assert(
        fc.property(fc.oneof(anyValue, near(shape)), (value) => {
          if (agrees(schema, shape, value)) sure++;
        }),
        { numRuns },
      );
      expect(sure).toBeGreaterThan(0);
    });
  }

  // What the shape does not model: zod decides every value (the fast path never answers).
  const unmodelled: Record<string, z.ZodMiniType> = {
    refine: z.string().check(z.refine((s) => s.length > 1)),
    transform: z.pipe(z.string(), z.transform((s) => s.length)),
    nullable: z.nullable(z.string()),
    'discriminated union': z.discriminatedUnion('k', [z.strictObject({ k: z.literal('a') }), z.strictObject({ k: z.literal('b') })]),
    'record with enum keys': z.record(z.enum(['a', 'b']), z.string()),
    'a format such as email': z.email(),
    'a default computed anew at each parse': z._default(z.number(), (() => {
      let calls = 0;
      return () => calls++;
    })()),
    'a number format other than int32 and safeint': z.float32(),
  };
  for (const [name, schema] of Object.entries(unmodelled)) {
    it(`${name}: never sure`, () => {
      const shape = shapeOf(schema);
      fc.assert(fc.property(anyValue, (value) => parseSurely(shape, value) === notSure), { numRuns: 100 });
      expect(parseSurely(shapeOf(z.strictObject({ inner: schema })), { inner: 'ab' })).toBe(notSure);
    });
  }

  it('values that are not plain data go to zod: class instances, a __proto__ key, inherited keys, symbol keys of a record', () => {
    const shape = shapeOf(z.looseObject({ name: z.optional(z.string()) }));
    const withProtoKey = JSON.parse('{"__proto__": {"x": 1}}') as unknown;
    for (const value of [new Date(0), new Map(), withProtoKey, Object.create({ name: 'inherited' }) as unknown]) {
      expect(parseSurely(shape, value)).toBe(notSure);
    }
    expect(parseSurely(shapeOf(z.strictObject({ toString: z.optional(z.string()) })), {})).toBe(notSure);
    expect(parseSurely(shapeOf(z.record(z.string(), z.string())), { [Symbol('s')]: 'x' })).toBe(notSure);
    // An object's symbol keys: zod does not read them (for … in), and neither does the shape.
    expect(agrees(z.looseObject({ name: z.optional(z.string()) }), shape, { name: 'a', [Symbol('s')]: 1 })).toBe(true);
  });
});
