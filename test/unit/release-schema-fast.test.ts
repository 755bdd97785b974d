// The fast "surely valid" check must never call valid what cfworker calls invalid, and must cover
// the catalog (a node it gives up on sends every config through cfworker: slow, not wrong).
import { readdirSync, readFileSync } from 'node:fs';
import { validate, type Schema } from '@cfworker/json-schema';
import { describe, expect, it } from 'vitest';
import { catalogReleases, providerRegistry, schemaDefs, serverRelease } from '../../src/catalog/catalog.js';
import { surelyValid } from '../../src/core/release-schema-fast.js';
import { parseYaml11 } from '../../src/krm/yaml.js';

const lookup: Record<string, Schema> = Object.create(null) as Record<string, Schema>;
for (const [key, node] of Object.entries(schemaDefs())) lookup[`#/$defs/${key}`] = node as Schema;
const def = (key: string): Schema => lookup[`#/$defs/${key}`] as Schema;
const refNode = (ref: string): Schema | undefined => lookup[ref];
const cfworker = (value: unknown, node: Schema): boolean => validate(value, node, '2020-12', lookup, true).valid;

const read = (path: string): unknown => {
  const parsed = parseYaml11(readFileSync(path, 'utf8'));
  if (parsed.problem) throw new Error(parsed.problem.message);
  return parsed.value;
};

/** Each (schema, value) the release-schema check validates in the shipped configs, and provider samples. */
function shippedSections(): Array<{ label: string; node: Schema; value: unknown }> {
  const out: Array<{ label: string; node: Schema; value: unknown }> = [];
  for (const release of catalogReleases()) {
    const run = def(serverRelease(release)?.runConfigSchema as string);
    const properties = run.properties as Record<string, Schema>;
    const root = `configs/catalog/${release}/distributions`;
    for (const dist of readdirSync(root)) {
      for (const file of readdirSync(`${root}/${dist}`).filter((f) => /^(config|run.*)\.yaml$/.test(f))) {
        const config = read(`${root}/${dist}/${file}`) as Record<string, unknown>;
        for (const [key, value] of Object.entries(config)) {
          if (properties[key]) out.push({ label: `${release}/${dist}/${file} ${key}`, node: properties[key], value });
        }
      }
    }
    for (const [api, types] of Object.entries(providerRegistry(release))) {
      for (const [type, spec] of Object.entries(types)) {
        if (spec.sample !== undefined && def(spec.schema)) out.push({ label: `${release} ${api} ${type} sample`, node: def(spec.schema), value: spec.sample });
      }
    }
  }
  return out;
}

/** Wrong values put in turn in place of each key of a mapping, and an unknown key added. */
function mutations(value: unknown): unknown[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  const out: unknown[] = [{ ...value, zz_not_a_setting: 1 }];
  for (const key of Object.keys(value)) {
    for (const wrong of [{}, [], 12345, -1, 2.5, true, null, 'x', '', [1]]) out.push({ ...value, [key]: wrong });
  }
  return out;
}

describe('release schema, fast check: agrees with cfworker', () => {
  const sections = shippedSections();

  it('on every shipped distribution config section and provider sample of every release', () => {
    expect(sections.length).toBeGreaterThan(500);
    const disagree = sections.filter((s) => surelyValid(s.value, s.node, refNode) !== cfworker(s.value, s.node)).map((s) => s.label);
    expect(disagree).toEqual([]);
  });

  it('on those values with a wrong value in place of each key, or an unknown key', () => {
    let invalid = 0;
    const disagree: string[] = [];
    for (const s of sections) {
      for (const m of mutations(s.value)) {
        const theirs = cfworker(m, s.node);
        if (!theirs) invalid++;
        if (surelyValid(m, s.node, refNode) !== theirs) disagree.push(`${s.label}: ${JSON.stringify(m).slice(0, 200)}`);
      }
    }
    expect(disagree).toEqual([]);
    // The mutations do reach the checks (most are invalid).
    expect(invalid).toBeGreaterThan(5000);
  });
});

describe('release schema, fast check: what it leaves to cfworker', () => {
  const node: Schema = {
    type: 'object',
    properties: { n: { type: 'integer', minimum: 1 }, s: { type: 'string', maxLength: 2, pattern: '^a' } },
    additionalProperties: false,
  };

  it('judges the keywords it knows as cfworker does', () => {
    const cases: unknown[] = [{ n: 1 }, { n: 1.5 }, { n: 0 }, { n: 2.0 }, { s: 'ab' }, { s: 'abc' }, { s: 'ba' }, { s: 'a\u{1F600}' }, { x: 1 }, []];
    expect(cases.map((c) => surelyValid(c, node, refNode))).toEqual(cases.map((c) => cfworker(c, node)));
    // A surrogate pair is one character, as cfworker counts.
    expect(surelyValid({ s: 'a\u{1F600}' }, node, refNode)).toBe(true);
  });

  it('is never sure of a value that is not plain JSON data', () => {
    const anything: Schema = {};
    expect(surelyValid(new Date(0), anything, refNode)).toBe(false);
    expect(surelyValid(Number.NaN, anything, refNode)).toBe(false);
    expect(surelyValid(undefined, anything, refNode)).toBe(false);
    expect(surelyValid({ when: new Date(0) }, { type: 'object' }, refNode)).toBe(true);
    expect(surelyValid({ when: new Date(0) }, { type: 'object', additionalProperties: {} }, refNode)).toBe(false);
  });

  it('is never sure under a keyword it does not handle, or an unresolved $ref', () => {
    expect(surelyValid(3, { multipleOf: 2 }, refNode)).toBe(false);
    expect(surelyValid('x', { format: 'uri' }, refNode)).toBe(false);
    expect(surelyValid('x', { $ref: '#/$defs/NoSuchDefinition' }, refNode)).toBe(false);
    expect(surelyValid('x', { type: 'string', default: 'y', description: 'annotations only' }, refNode)).toBe(true);
  });
});
