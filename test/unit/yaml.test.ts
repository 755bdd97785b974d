import { describe, expect, it } from 'vitest';
import { parseYaml11, parseYamlStream, prepareForOutput, stringifyPlainYaml, stringifyYaml } from '../../src/krm/yaml.js';

const roundTrip = (text: string): string => {
  const { documents, problems } = parseYamlStream(text);
  expect(problems).toEqual([]);
  const node = documents[0]?.node;
  if (!node) throw new Error('no node');
  prepareForOutput(node);
  return stringifyYaml(node);
};

describe('pass-through scalars', () => {
  it('keeps plain non-string scalars as written, so every reader sees what it saw before', () => {
    const out = roundTrip('mode: 0755\nexp: 1e3\nfloat: 1.0\nhex: 0x1F\nbig: 12345678901234567890123\nnull1: ~\nyes: true\n');
    expect(out).toBe('mode: 0755\nexp: 1e3\nfloat: 1.0\nhex: 0x1F\nbig: 12345678901234567890123\nnull1: ~\n"yes": true\n');
  });

  it('keeps quoted strings quoted and quotes plain strings a YAML 1.1 reader would take for another type', () => {
    const out = roundTrip(`a: 'on'\nb: on\nc: "0755"\nd: 2024-01-01\ne: plain text\nf: 'single'\n`);
    expect(out).toBe(`a: 'on'\nb: "on"\nc: "0755"\nd: "2024-01-01"\ne: plain text\nf: 'single'\n`);
  });

  it('drops comments: kpt restores them by id, and writing them too would duplicate them', () => {
    const out = roundTrip('# head\na: 1 # trailing\n# before b\nb: x\n');
    expect(out).toBe('a: 1\nb: x\n');
  });

  it('does not fold long strings', () => {
    const long = 'x'.repeat(200);
    expect(roundTrip(`a: ${long}\n`)).toBe(`a: ${long}\n`);
  });
});

describe('parseYamlStream', () => {
  it('reports duplicate keys with their line', () => {
    const { problems } = parseYamlStream('a: 1\nb: 2\na: 3\n');
    expect(problems).toHaveLength(1);
    expect(problems[0]?.message).toBe('the key "a" appears twice in one mapping; keep only one');
    expect(problems[0]?.line).toBe(3);
  });

  it('reports a syntax error with its line and no source excerpt', () => {
    const { problems } = parseYamlStream('a: [1, 2\nb: 3\n');
    expect(problems.length).toBeGreaterThan(0);
    expect(problems[0]?.message).not.toContain('\n');
  });

  it('bounds alias expansion', () => {
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 12; i++) bomb.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill(`*${String.fromCharCode(96 + i)}`).join(',')}]`);
    const { documents, problems } = parseYamlStream(bomb.join('\n'));
    expect(documents).toEqual([]);
    expect(problems).toEqual([{ message: expect.stringMatching(/^aliases expand to more than 100 nodes/), line: 1 }]);
  });
});

describe('generated YAML', () => {
  it('quotes strings that YAML 1.1 or 1.2 readers would read as numbers, booleans, nulls or dates', () => {
    const out = stringifyPlainYaml({ a: 'on', b: 'yes', c: '0755', d: '2024-01-01', e: '1e3', f: 'null', g: '8321', h: 'text' });
    const parsed11 = parseYaml11(out).value as Record<string, unknown>;
    expect(parsed11).toEqual({ a: 'on', b: 'yes', c: '0755', d: '2024-01-01', e: '1e3', f: 'null', g: '8321', h: 'text' });
    expect(out).toContain('h: text\n');
  });

  it('never writes anchors or aliases for repeated objects', () => {
    const shared = { x: 1 };
    expect(stringifyPlainYaml({ a: shared, b: shared })).toBe('a:\n  x: 1\nb:\n  x: 1\n');
  });
});
