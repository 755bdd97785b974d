// The field-line index (src/krm/field-lines.ts) must answer as `lineOf` answers on the parsed
// nodes, for the paths results really use and for paths that leave the document anywhere.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Node } from 'yaml';
import { fieldLine, fieldLinesOf } from '../../src/krm/field-lines.js';
import { lineOf, parseYamlStream } from '../../src/krm/yaml.js';

const testDir = join(import.meta.dirname, '..');

/** Every document of the invalid cases and of the goldens' inputs (ResourceList items are documents too). */
function corpus(): Array<{ name: string; node: Node; lines: ReturnType<typeof parseYamlStream>['lines']; value: unknown }> {
  const files = [
    ...readdirSync(join(testDir, 'invalid', 'cases'))
      .filter((f) => f.endsWith('.yaml') && !f.endsWith('.expected.yaml'))
      .map((f) => join(testDir, 'invalid', 'cases', f)),
    ...readdirSync(join(testDir, 'golden')).map((d) => join(testDir, 'golden', d, 'input.yaml')),
  ];
  return files.flatMap((file) => {
    const parsed = parseYamlStream(readFileSync(file, 'utf8'));
    return parsed.documents.filter((d) => d.node !== null).map((d) => ({ name: file, node: d.node as Node, lines: parsed.lines, value: d.value }));
  });
}

/** Every path to a value in `value`, keys as written and indexes as numbers. */
function pathsOf(value: unknown, path: Array<string | number> = [], out: Array<Array<string | number>> = []): Array<Array<string | number>> {
  out.push(path);
  if (Array.isArray(value)) value.forEach((v, i) => pathsOf(v, [...path, i], out));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) pathsOf(v, [...path, k], out);
  return out;
}

describe('fieldLine', () => {
  const documents = corpus();

  it('gives the line lineOf gives, for every path of every test document', () => {
    let checked = 0;
    for (const { name, node, lines, value } of documents) {
      const index = fieldLinesOf(node, lines);
      for (const path of pathsOf(value)) {
        expect(fieldLine(index, path), `${name}: ${JSON.stringify(path)}`).toBe(lineOf(node, path, lines));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(2000);
  });

  it('and for paths that turn off anywhere: unknown keys, indexes past the end, numbers as map keys, strings as indexes', () => {
    const segment = fc.oneof(fc.constantFrom('spec', 'metadata', 'providers', 'inference', 'name', '0', '1', 'x.y', 'a b', '"q"', ''), fc.nat(4));
    fc.assert(
      fc.property(fc.constantFrom(...documents), fc.array(segment, { maxLength: 7 }), ({ node, lines }, path) => {
        expect(fieldLine(fieldLinesOf(node, lines), path)).toBe(lineOf(node, path, lines));
      }),
      { numRuns: 3000 },
    );
  });

  it('keys with quotes, commas, tabs, line breaks and numbers', () => {
    const text = 'a:\n  "x,y": 1\n  "t\\tab": 2\n  "n\\nl": 3\n  \'"k"\': 4\n  7: 5\n  list:\n    - 6\n    - {"8": 9}\n';
    const parsed = parseYamlStream(text);
    const node = parsed.documents[0]?.node as Node;
    const index = fieldLinesOf(node, parsed.lines);
    for (const path of [
      ['a', 'x,y'],
      ['a', 't\tab'],
      ['a', 'n\nl'],
      ['a', '"k"'],
      ['a', 7],
      ['a', '7'],
      ['a', 'list', 1, '8'],
      ['a', 'list', 1, 8],
      ['a', 'list', '1'],
    ]) {
      expect(fieldLine(index, path), JSON.stringify(path)).toBe(lineOf(node, path, parsed.lines));
    }
    expect(fieldLine(index, ['a', 'n\nl'])).toBe(4);
    expect(fieldLine(index, ['a', 'list', 1, '8'])).toBe(9);
  });
});
