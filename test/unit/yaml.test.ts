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
    expect(problems[0]?.message).toBe(
      'the key "a" appears twice at the top of this document: a `---` line is probably missing before this line, between two documents (objects); ' +
        'add `---` on a line of its own above it. If it is one object, keep only one "a"',
    );
    expect(problems[0]?.line).toBe(3);
  });

  it('reports a syntax error with its line and no source excerpt', () => {
    const { problems } = parseYamlStream('a: [1, 2\nb: 3\n');
    expect(problems.length).toBeGreaterThan(0);
    expect(problems[0]?.message).not.toContain('\n');
  });

  it('bounds alias expansion', () => {
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 12; i++)
      bomb.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(',')}]`,
      );
    const { documents, problems } = parseYamlStream(bomb.join('\n'));
    expect(documents).toEqual([]);
    expect(problems).toEqual([{ message: expect.stringMatching(/^an anchor is used by more than 100 aliases/), line: 1 }]);
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

describe('aliases, merges and tags that would hang, crash or change a value (issue 15)', () => {
  it('an alias inside the node of its own anchor: one problem at the alias, in YAML 1.2 and 1.1 (where `<<` merges)', () => {
    const cyclic = 'metadata: &A\n  <<: *A\n  name: x\n';
    const message =
      'this alias (`*`) is inside the node its anchor (`&`) names, so the value would contain itself without end; write the value out instead (column 7)';
    expect(parseYamlStream(cyclic)).toMatchObject({ documents: [], problems: [{ message, line: 2 }] });
    expect(parseYaml11(cyclic)).toEqual({ value: undefined, problem: { message, line: 2 } });
    expect(parseYamlStream('a: &L\n  - [1, *L]\n').problems).toEqual([{ message: message.replace('column 7', 'column 9'), line: 2 }]);
  });

  it('an alias after its anchor closed is no cycle; one naming no anchor is said so without its name', () => {
    expect(parseYamlStream('a: &A {k: v}\nb: {c: *A}\n').documents[0]?.value).toEqual({ a: { k: 'v' }, b: { c: { k: 'v' } } });
    const { problems } = parseYamlStream('password: *Xy9secret\n');
    expect(problems).toEqual([
      {
        message:
          'this alias (`*`) names no anchor (`&`) set before it in this document; quote the value if the `*` is part of the text, or set the anchor first ' +
            '(column 11)',
        line: 1,
      },
    ]);
  });

  it('YAML 1.1 merges still work, and a merge of something that is not a mapping is an error at the key', () => {
    expect(parseYaml11('base: &b {a: 1}\nc:\n  <<: [*b, {d: 2}]\n').value).toEqual({ base: { a: 1 }, c: { a: 1, d: 2 } });
    expect(parseYaml11('c:\n  <<: 5\n').problem).toEqual({
      message: 'a merge key `<<` must be followed by a mapping, an alias of one, or a list of them (column 3)',
      line: 2,
    });
  });

  it('!!binary is its base64 text, and is written back without the tag', () => {
    const { documents } = parseYamlStream('x: !!binary |\n  aGVs\n  bG8=\n');
    expect(documents[0]?.value).toEqual({ x: 'aGVsbG8=' });
    const node = documents[0]?.node;
    if (!node) throw new Error('no node');
    prepareForOutput(node);
    expect(stringifyYaml(node)).toBe('x: aGVsbG8=\n');
  });

  it.each([
    ['a: !!bool v1\n', '!!bool', 'a boolean', 4],
    ['a: !!int "7"\n', '!!int', 'a number', 4],
    ['a: !!float 1\n', '!!float', 'a number', 4],
  ])('%j: the tag changes the value, an error naming it and the field', (text, tag, type, column) => {
    expect(parseYamlStream(text).problems).toEqual([
      {
        message: `the tag ${tag} makes the value of \`a\` ${type}, not what its text says; remove the tag, and quote the value if it is meant as text ` +
          `(column ${column})`,
        line: 1,
      },
    ]);
  });

  it.each([
    ['- !Xy9local 5\n', '`[0]`', 'text', 3],
    ['a:\n  b: [x, !Xy9secret]\n', '`a.b[1]`', 'text', 10],
    ['a: !Xy9secret\n', '`a`', 'text', 4],
  ])('%j: a tag of the user\'s own is not named (it is text written on a value): the field and column instead', (text, field, type, column) => {
    const problems = parseYamlStream(text).problems;
    expect(problems).toEqual([
      {
        message:
          `the value of ${field} starts with \`!\`, which YAML reads as a tag (not repeated here: it may be part of a secret) that makes it ${type}, not ` +
          `what its text says; if the \`!\` is part of the text, quote the whole value ('!…' or "!…"), else remove the tag (column ${column})`,
        line: text.split('\n').length - 1,
      },
    ]);
    expect(JSON.stringify(problems)).not.toContain('Xy9');
  });

  it('a collection under an unknown !! tag: the tag not named either', () => {
    expect(parseYamlStream('a: !!Xy9secret [x]\n').problems.map((p) => p.message)).toEqual([
      'the value of `a` has a tag (`!` and a name, not repeated here) that makes it a collection of a kind JSON does not have; remove the tag (column 4)',
    ]);
  });

  it('tags that keep the value pass, and plain tagged numbers are written as read', () => {
    const { documents, problems } = parseYamlStream('a: !!str 5\nb: !!int 0x10\nc: !!float 1.5\nd: !!null ~\ne: !!map {k: v}\n');
    expect(problems).toEqual([]);
    expect(documents[0]?.value).toEqual({ a: '5', b: 16, c: 1.5, d: null, e: { k: 'v' } });
    const node = documents[0]?.node;
    if (!node) throw new Error('no node');
    prepareForOutput(node);
    expect(stringifyYaml(node)).toBe('a: !!str "5"\nb: 0x10\nc: 1.5\nd: ~\ne: !!map { k: v }\n');
  });

  it('syntax errors keep none of the input text', () => {
    for (const text of ['a: b\n... Xy9secret\n', 'x: "Xy9\\q"\n', 'x: |Xy9secret\n  y\n', '- a\nXy9: secret\n', 'a: @Xy9secret\n']) {
      const { problems } = parseYamlStream(text);
      expect(problems.length, text).toBeGreaterThan(0);
      for (const problem of problems) {
        expect(problem.message).not.toMatch(/Xy9|secret/);
        expect(problem.message).toMatch(/ \(column \d+\)$/);
        expect(problem.line).toBeGreaterThan(0);
      }
    }
  });
});
