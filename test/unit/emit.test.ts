// The fast YAML writer must write exactly what the `yaml` package writes with the same options,
// byte for byte: checked on every object of every golden and on generated values full of the
// strings YAML treats specially. So must the ResourceList writer that writes item by item.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Document, parse, type Node } from 'yaml';
import { emitPlainYaml, numberNeedsOwnText, numberText } from '../../src/krm/emit.js';
import { readWholeList, resourceListChunks, writeResourceList, type OutputItem } from '../../src/krm/resource-list.js';
import { toWire, type Result } from '../../src/krm/result.js';
import { parseYamlStream, prepareForOutput, stringifyYaml } from '../../src/krm/yaml.js';

const byYaml = (value: unknown): string =>
  new Document(value, { compat: 'yaml-1.1', version: '1.2', aliasDuplicateObjects: false }).toString({ lineWidth: 0, indentSeq: true });

const tricky = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    'yes',
    'No',
    'on',
    'OFF',
    'y',
    'n',
    '~',
    'null',
    'true',
    '1:20',
    '012',
    '0o12',
    '0x1F',
    '1e3',
    '.inf',
    '-.5',
    '+1',
    '- a',
    '? a',
    ': a',
    'a: b',
    'a #b',
    '#c',
    '@x',
    '`x',
    '!t',
    '&a',
    '*a',
    '|',
    '>',
    "'q'",
    '"q"',
    '%x',
    '{a}',
    '[a]',
    'a,b',
    '${env.X:=}',
    '${env.X:+y}',
    'tab\tin',
    'trailing ',
    ' leading',
    'ünïcödé',
    '日本',
    '\u0085',
    '\u2028',
  ),
  fc.constantFrom(
    'a\nb',
    'a\nb\n',
    'a\nb\n\n',
    '\na',
    ' lead\nx\n',
    'x\n  y\n',
    'x\n\ny\n',
    'x \ny\n',
    'x\ty\nz',
    '#a\nb',
    'a\r\nb',
    'a\n b\n',
    'a\n\n\nb\n',
    'a\n\t\n',
    '---\nx\n',
    'x\n...\n',
    '- a\n- b\n',
    'k: v\nl: w\n',
    '"q\nr"',
    'a\u0085b\nc',
    'é\nü\n',
    '  \n',
    '\t\tx\ny',
  ),
  fc.array(fc.constantFrom('a', 'b c', '', ' d', 'e ', '#', '- x', 'k: v', '\t'), { minLength: 2, maxLength: 5 }).map((lines) => lines.join('\n')),
  fc.string({ maxLength: 12 }),
  fc.stringMatching(/^[A-Za-z][A-Za-z0-9_./-]{0,6}$/),
  fc.stringMatching(/^([a-z]{0,3}:?\/{0,2})?\$\{env\.[A-Z_]{1,4}(:[=+:#~ -]?[a-z0-9_./:~ #-]{0,8})?\}[a-z0-9_./: -]{0,4}$/),
  fc.constantFrom(
    '${env.X:=~/.llama/x}/kv.db',
    '${env.URL:=http://localhost:11434/v1}',
    '${env.X:+vllm}',
    '${env.X}',
    'http://${env.HOST:=a}:8000/v1',
    '${env.X:=}',
    '${env.X:= }',
    '${env.X:=#}',
    '${env.X:=a #b}',
    '${env.X:=-1}',
  ),
  fc.constantFrom(
    'remote::vllm',
    'inline::x',
    'https://api.x.ai/v1',
    'http://h:8000/v1',
    'a:b',
    'a::',
    'a:',
    'a: b',
    'a:#b',
    'a #b:c',
    'e1:x',
    'E-1:2',
    'x:1:20',
    'y:',
    'on:off',
    'no::',
    'sqlite:///x.db',
    'redis://:p@h:6379/0',
    'a:\tb',
    'a:-b',
  ),
  fc.stringMatching(/^[A-Za-z][A-Za-z0-9_./:#-]{0,10}$/),
  fc.constantFrom(
    'Y',
    'YES',
    'yEs',
    'Yes',
    'N',
    'NO',
    'True',
    'TRUE',
    'tRUE',
    'Null',
    'NULL',
    'On',
    'ON',
    'Off',
    'Nan',
    'NaN',
    'Inf',
    'inf',
    'infinity',
    'a.',
    'x/-',
    'v1.2.3',
    'e10',
    'E1',
    'e-1',
    'E+5',
    'e-12',
    '---x',
    '...y',
    '%z',
    'a\u2028b',
  ),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  // Digests and hex that YAML could read as numbers (`0b1`, `1e5`, `0x1`): emit.ts's hexPlain.
  fc.stringMatching(/^[0-9a-f]{1,64}$/),
  fc.constantFrom('0b101', '0b1a', '1e5', '1e5a', '0e0', '12d', 'a1', 'deadbeef', '0', '00a', 'ff', 'e', 'b', 'be', 'c0ffee'),
);
const scalar = fc.oneof(tricky, fc.integer(), fc.double({ noNaN: false }), fc.boolean(), fc.constant(null));
const value = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    scalar,
    fc.array(tie('node'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(tricky, fc.string({ maxLength: 6 })), tie('node'), { maxKeys: 4 }),
  ),
})).node;

/** A string emit.ts writes double-quoted and escaped where `yaml` would not (src/krm/emit.ts needsEscapes). */
const escapedString = (s: string): boolean => s === '=' || /[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff]/.test(s);
/** Numbers emit.ts writes as YAML 1.1 reads them back (numberText), where `yaml` writes `1e+21` or `-0`. */
const holdsEscaped = (v: unknown): boolean =>
  typeof v === 'number'
    ? numberNeedsOwnText(v)
    : typeof v === 'string'
    ? escapedString(v)
    : Array.isArray(v)
      ? v.some(holdsEscaped)
      : v !== null && typeof v === 'object'
        ? Object.entries(v).some(([key, child]) => escapedString(key) || holdsEscaped(child))
        : false;
const rawControl = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff]/;

describe('emitPlainYaml writes what yaml writes', () => {
  it('for generated values (or declines, and yaml writes them); strings a YAML 1.1 reader would misread are escaped instead', () => {
    fc.assert(
      fc.property(value, (v) => {
        const fast = emitPlainYaml(v);
        if (fast === undefined) return;
        if (!holdsEscaped(v)) {
          expect(fast).toBe(byYaml(v));
          return;
        }
        expect(fast).not.toMatch(rawControl);
        expect(parse(fast, { version: '1.1' })).toEqual(v);
        expect(parse(fast)).toEqual(v);
      }),
      { numRuns: Number(process.env.EMIT_RUNS ?? 3000) },
    );
  });

  it('for every object of every golden, and declines none of them', () => {
    const root = join(import.meta.dirname, '..', 'golden');
    let checked = 0;
    for (const name of readdirSync(root)) {
      const list = parse(readFileSync(join(root, name, 'expected.yaml'), 'utf8')) as { items?: unknown[] } | null;
      for (const object of list?.items ?? []) {
        expect(emitPlainYaml(object), name).toBe(byYaml(object));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('`=`, tabs, DEL, C1 controls, NEL and line separators are written double-quoted and escaped, which PyYAML (YAML 1.1) reads back (attacker probe)', () => {
    for (const text of ['=', 'a\tb', 'a\x7fb', 'a\u2028b', 'a\x85b', 'x\ufeffy', 'a\tb\nc']) {
      const out = emitPlainYaml({ k: text }) as string;
      expect(out, JSON.stringify(text)).not.toMatch(rawControl);
      expect(out).toMatch(/^k: "/);
      expect(parse(out, { version: '1.1' })).toEqual({ k: text });
    }
    expect(emitPlainYaml({ k: '=' })).toBe('k: "="\n');
    expect(emitPlainYaml({ k: 'a\x7fb' })).toBe('k: "a\\u007fb"\n');
  });

  // PyYAML's resolver (yaml/resolver.py, YAML 1.1): a float needs a point, and an exponent a sign.
  const pyyamlFloat = /^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
  const pyyamlInt = /^[-+]?(?:0|[1-9][0-9_]*)$/;
  it('numbers are written as PyYAML reads them back: an integer as digits, a float with a point (`1.0e+21`, not `1e+21`), -0 as `-0.0`', () => {
    fc.assert(
      fc.property(fc.double(), (n) => {
        const text = numberText(n);
        const float = !Number.isInteger(n) || Object.is(n, -0) || text.includes('e') || !Number.isFinite(n);
        expect(text).toMatch(float ? pyyamlFloat : pyyamlInt);
        if (Number.isFinite(n)) expect(Object.is(Number(text), n)).toBe(true);
        expect(emitPlainYaml({ k: [n, { x: n }] })).toBe(`k:\n  - ${text}\n  - x: ${text}\n`);
        // A key with a line break makes the fast writer decline: `yaml` writes the number the same way.
        expect(emitPlainYaml({ 'a\nb': n })).toBeUndefined();
        expect(stringifyYaml({ 'a\nb': n, k: [n] })).toBe(`"a\\nb": ${text}\nk:\n  - ${text}\n`);
      }),
      { numRuns: 2000 },
    );
    expect([1e21, 5e-7, -0, 1.5e300, 0.25, Infinity, -Infinity, NaN].map(numberText)).toEqual(
      ['1.0e+21', '5.0e-7', '-0.0', '1.5e+300', '0.25', '.inf', '-.inf', '.nan'],
    );
  });

  it('keys that read as document markers only at the top level are left to yaml (found by review)', () => {
    for (const value of [{ spec: { '---x': 'v' } }, { '...y': { '---': 1 } }, { a: [{ '%d': 'e-1' }] }])
      expect(emitPlainYaml(value) ?? byYaml(value)).toBe(byYaml(value));
  });

  it('declines what it cannot write itself: a key with a line break, a Date', () => {
    expect(emitPlainYaml({ 'a\nb': 1 })).toBeUndefined();
    expect(emitPlainYaml({ when: new Date(0) })).toBeUndefined();
  });
});

describe('resourceListChunks: the ResourceList in parts, so KRM mode never holds the whole text', () => {
  it('2,000 objects: parts of about 64 kB (under 64 kB plus one item), which together are writeResourceList', () => {
    const items = Array.from({ length: 2000 }, (_, i) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `c${i}` },
      data: { text: 'x'.repeat(200) },
    }));
    const results: Result[] = [{ severity: 'info', message: 'done' }];
    const chunks = [...resourceListChunks(items, results)];
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) expect(chunk.length).toBeLessThan(64 * 1024 + 400);
    expect(chunks.join('')).toBe(writeResourceList(items, results));
    expect(chunks.join('').endsWith('results:\n  - message: done\n    severity: info\n')).toBe(true);
  });
});

describe('writeResourceList writes what yaml writes for the whole list', () => {
  /** The old way: the whole ResourceList as one `yaml` document, read nodes and all. */
  const wholeList = (items: unknown[], results: Result[]): string => {
    const list: Record<string, unknown> = { apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList', items };
    if (results.length > 0) list.results = results.map(toWire);
    return stringifyYaml(list);
  };
  const objectOf = (v: unknown): Record<string, unknown> => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: v });

  it('for generated objects and for read nodes (block scalars, empty lines, kept trailing newlines, flow maps)', () => {
    fc.assert(
      fc.property(fc.array(value, { maxLength: 3 }), fc.boolean(), (values, asNodes) => {
        const objects = values.map(objectOf);
        const items = asNodes
          ? objects.map((o) => {
              const { documents } = parseYamlStream(byYaml(o));
              const node = documents[0]?.node as Node;
              prepareForOutput(node);
              return node;
            })
          : objects;
        if (holdsEscaped(values)) expect(parse(writeResourceList(items as OutputItem[], []))).toEqual(parse(wholeList(items, [])));
        else expect(writeResourceList(items as OutputItem[], [])).toBe(wholeList(items, []));
      }),
      { numRuns: Number(process.env.EMIT_RUNS ?? 1000) },
    );
  });

  // Read whole (with a node for every item): reading item by item keeps only the text of an item passed through.
  it('for every golden input read as nodes, with results, and for an empty list', () => {
    const root = join(import.meta.dirname, '..', 'golden');
    const results: Result[] = [{ severity: 'warning', message: 'a\nb', field: { path: 'spec.x' } }];
    let checked = 0;
    for (const name of readdirSync(root)) {
      const read = readWholeList(readFileSync(join(root, name, 'input.yaml'), 'utf8'));
      if (read.items.length === 0) continue;
      const nodes = read.items.map((i) => i.node);
      expect(writeResourceList(nodes, results), name).toBe(wholeList(nodes, results));
      checked++;
    }
    expect(checked).toBeGreaterThan(10);
    expect(writeResourceList([], [])).toBe(wholeList([], []));
    expect(
      writeResourceList(
        [
          { apiVersion: 'v1', kind: 'A', metadata: { name: 'a' } },
          parseYamlStream('apiVersion: v1\nkind: B\nmetadata: {name: b}\ndata:\n  k: |+\n    x\n\n\n').documents[0]?.node as Node,
        ],
        [],
      ),
    ).toBe(
      'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n  - apiVersion: v1\n    kind: A\n    metadata:\n      name: a\n  - apiVersion: v1\n ' +
        '   kind: B\n    metadata: { name: b }\n    data:\n      k: |+\n        x\n\n\n',
    );
  });
});
