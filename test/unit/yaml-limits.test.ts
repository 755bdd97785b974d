// Hostile input at the parser: keys checked in one pass (not pairwise), a bound on the errors
// `yaml` builds for garbage, and keys that are collections. The same inputs through the built
// bundle are in test/cli/hostile.test.ts.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseYaml11, parseYamlStream } from '../../src/krm/yaml.js';

// Every document `yaml` composes, to count the errors it built (the bound is on those, not only on what is shown).
const composed = vi.hoisted(() => [] as Array<{ errors: unknown[] }>);
vi.mock('yaml', async (importOriginal) => {
  const yaml = await importOriginal<typeof import('yaml')>();
  class RecordingComposer extends yaml.Composer {
    override *next(token: Parameters<InstanceType<typeof yaml.Composer>['next']>[0]) {
      for (const doc of super.next(token)) yield record(doc);
    }
    override *end(forceDoc?: boolean, endOffset?: number) {
      for (const doc of super.end(forceDoc, endOffset)) yield record(doc);
    }
  }
  const record = <T extends { errors: unknown[] }>(doc: T): T => {
    composed.push(doc);
    return doc;
  };
  return { ...yaml, Composer: RecordingComposer };
});

const errorsBuilt = (): number => {
  expect(composed.length, 'documents were recorded').toBeGreaterThan(0);
  return composed.reduce((sum, doc) => sum + doc.errors.length, 0);
};
afterEach(() => {
  composed.length = 0;
});

const wideMap = (keys: number, extra = ''): string => `data:\n${Array.from({ length: keys }, (_, i) => `  k${i}: v${i}\n`).join('')}${extra}`;

describe('duplicate keys, found in one pass', () => {
  it('100,000 distinct keys: no problem', () => {
    const { documents, problems } = parseYamlStream(wideMap(100_000));
    expect(problems).toEqual([]);
    expect(Object.keys((documents[0]?.value as { data: object }).data)).toHaveLength(100_000);
  });

  it('the last of 100,000 keys repeats the first: one problem, at the line of the repeat', () => {
    expect(parseYamlStream(wideMap(100_000, '  k0: again\n')).problems).toEqual([
      { message: 'the key "k0" appears twice in one mapping; keep only one', line: 100_002 },
    ]);
  });

  it('in flow mappings, nested mappings and sequences of mappings, each at its own line', () => {
    const { documents, problems } = parseYamlStream('a: {x: 1, y: 2, x: 3}\nb:\n  - c: 1\n    d: 2\n    c: 3\n"e": 1\ne: 2\n');
    expect(documents).toEqual([]);
    expect(problems).toEqual([
      { message: 'the key "x" appears twice in one mapping; keep only one', line: 1 },
      { message: 'the key "c" appears twice in one mapping; keep only one', line: 5 },
      {
        message:
          'the key "e" appears twice at the top of this document: a `---` line is probably missing before this line, between two documents (objects); ' +
          'add `---` on a line of its own above it. If it is one object, keep only one "e"',
        line: 7,
      },
    ]);
  });

  it('keys are compared by value, as yaml compares them: 1 and 1.0 are the same key, 1 and "1" are not', () => {
    expect(parseYamlStream('k:\n  1: a\n  1.0: b\n').problems).toEqual([{ message: 'the key "1.0" appears twice in one mapping; keep only one', line: 3 }]);
    expect(parseYamlStream('1: a\n"1": b\n').problems).toEqual([]);
  });

  it('the same key in two mappings is not a duplicate', () => {
    expect(parseYamlStream('a: {k: 1}\nb: {k: 2}\n---\nk: 3\n').problems).toEqual([]);
  });

  it('YAML 1.1: merge keys `<<` may repeat, a quoted "<<" may not; other duplicates are found with their line', () => {
    expect(parseYaml11('base: &b {a: 1}\nc:\n  <<: *b\n  <<: {d: 2}\n')).toEqual({ value: { base: { a: 1 }, c: { a: 1, d: 2 } } });
    expect(parseYaml11('"<<": 1\n"<<": 2\n').problem).toEqual({ message: 'the key "<<" appears twice in one mapping; keep only one', line: 2 });
    expect(parseYaml11(wideMap(1000, '  k500: again\n')).problem).toEqual({
      message: 'the key "k500" appears twice in one mapping; keep only one',
      line: 1002,
    });
  });
});

describe('error-dense input: a bounded number of errors is built', () => {
  it('parser errors (20,000 lines of `]`): reading stops; the first ten are shown, then a line saying reading stopped', () => {
    const { problems } = parseYamlStream(']\n'.repeat(20_000));
    expect(errorsBuilt()).toBeLessThanOrEqual(100);
    expect(problems).toHaveLength(11);
    expect(problems[0]).toEqual({
      message: 'a `]` with no `[` open before it; remove it, or quote the value it belongs to (\'…\' or "…") (column 1)',
      line: 1,
    });
    expect(problems[9]?.line).toBe(10);
    expect(problems[10]).toEqual({ message: 'and more problems like these; llsd-render stops reading after 100 errors' });
  });

  it('errors found while composing (20,000 tab-indented items): one result for the tabs, the rest counted, not built', () => {
    const { problems } = parseYamlStream('a:\n' + '\t- x\n'.repeat(20_000));
    expect(errorsBuilt()).toBeLessThanOrEqual(100);
    expect(problems).toEqual([
      { message: 'tabs are not allowed for indentation; use spaces (also on lines 3, 4, 5, 6, 7 and others) (column 1)', line: 2 },
      { message: 'and 19900 more problems like these' },
    ]);
  });

  it('a few errors: all shown, as before', () => {
    const { problems } = parseYamlStream(']\n'.repeat(12));
    expect(problems.map((p) => p.line)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, undefined]);
    expect(problems[10]).toEqual({ message: 'and 2 more problems like these' });
  });

  it('YAML 1.1: the first error is reported', () => {
    expect(parseYaml11('a: 1\n' + ']\n'.repeat(20_000)).problem).toEqual({
      message: 'a `]` with no `[` open before it; remove it, or quote the value it belongs to (\'…\' or "…") (column 1)',
      line: 2,
    });
    expect(errorsBuilt()).toBeLessThanOrEqual(100);
  });
});

describe('keys that are collections', () => {
  const warnings = (): ReturnType<typeof vi.spyOn> => vi.spyOn(process, 'emitWarning');
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it.each([
    ['data:\n  [a, b]: 1\n', 'this key is a sequence', 2, 3],
    ['data:\n  ? [a, b]\n  : 1\n', 'this key is a sequence', 2, 5],
    ['data:\n  {a: 1}: x\n', 'this key is a mapping', 2, 3],
    ['data:\n  - &s [a]\n  - {*s : 1}\n', 'this key is a sequence', 3, 6],
  ])('%j: an error at the key, nothing printed by yaml', (text, start, line, column) => {
    const emitWarning = warnings();
    const { documents, problems } = parseYamlStream(text);
    expect(documents).toEqual([]);
    expect(problems).toEqual([{ message: `${start}; a mapping key must be a string or a number (quote the key to keep it as text) (column ${column})`, line }]);
    expect(emitWarning).not.toHaveBeenCalled();
  });

  it('the key is not quoted: it holds values, and those may be secrets', () => {
    const { problems } = parseYamlStream('stringData:\n  {password: Xy9secret}: 1\n');
    expect(problems).toEqual([
      { message: 'this key is a mapping; a mapping key must be a string or a number (quote the key to keep it as text) (column 3)', line: 2 },
    ]);
  });

  it('YAML 1.1 (a llama-stack config): an error for a collection key; a date key (a Date to yaml) is made a string without a warning', () => {
    const emitWarning = warnings();
    expect(parseYaml11('providers:\n  [a, b]: 1\n').problem).toEqual({
      message: 'this key is a sequence; a mapping key must be a string or a number (quote the key to keep it as text) (column 3)',
      line: 2,
    });
    expect(Object.values(parseYaml11('2001-01-01: a\n').value as object)).toEqual(['a']);
    expect(emitWarning).not.toHaveBeenCalled();
  });

  it('scalar and alias-to-scalar keys are fine', () => {
    expect(parseYamlStream('a: &k name\n*k : 2\n1: x\n~: y\n').problems).toEqual([]);
  });
});
