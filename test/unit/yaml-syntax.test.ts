// YAML syntax errors in plain words (issue 18): for each common mistake, one result per real
// problem, at the line the user must edit, the likely cause first, no follow-on errors of the
// parser, and nothing of a value quoted.
import { describe, expect, it } from 'vitest';
import { parseYaml11, parseYamlStream } from '../../src/krm/yaml.js';

const cm = (body: string): string => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n${body}`;
const tabs = 'tabs are not allowed for indentation; use spaces';

describe('a corpus of common YAML mistakes: one problem each, at the line to edit', () => {
  it.each([
    ['a tab used for indentation', cm('\tname: x\ndata:\n  a: b\n'), 4, `${tabs} (column 1)`],
    ['a tab after spaces', cm('  name: x\n  labels:\n  \tapp: y\n'), 6, `${tabs} (column 3)`],
    // yaml reported five errors, the tab not first; the `- ` line is the one to fix.
    ['a tab before a list item', 'spec:\n  providers:\n    inference:\n\t- provider: x\n      id: y\n', 4, `${tabs} (column 1)`],
    ['a tab in the middle of a mapping', 'a:\n  b: 1\n\tc: 2\n  d: 3\n', 3, `${tabs} (column 1)`],
    [
      'a key less indented than the one above it',
      cm('    name: x\n  namespace: y\n'),
      5,
      'this line starts at column 3, but the keys of one mapping must start at the same column: indent it to column 5 like `name` (line 4, column 5), or at column 1 like `metadata` (line 3, column 1), whichever it belongs to (column 3)',
    ],
    [
      // yaml pointed at line 4, which is right.
      'a key more indented than the one above it (which has a value)',
      cm('  name: x\n    namespace: y\n'),
      5,
      'this line is indented more than the key above it expects: `name` on line 4 already has a value, so nothing can be nested under it; start this line at column 3, like that key, or move that value onto lines of its own (column 5)',
    ],
    [
      // yaml said so at the end of the file.
      'an unclosed double quote',
      cm('  name: "x\ndata:\n  a: b\n'),
      4,
      'the quote " opened here is never closed, so the rest of the file was read as one text; end the value with " on this line (column 9)',
    ],
    ['an unclosed single quote', cm("  name: 'x\ndata:\n  a: b\n"), 4, "the quote ' opened here is never closed, so the rest of the file was read as one text; end the value with ' on this line (column 9)"],
    [
      'an unclosed flow sequence',
      cm('  name: x\n  finalizers: [a, b\ndata:\n  a: b\n'),
      5,
      'the `[` opened here is never closed; end the list with `]` (a list in `[]` that goes on over several lines must indent them more than its key) (column 15)',
    ],
    [
      'an unclosed flow mapping',
      cm('  name: x\n  labels: {a: b\ndata:\n  a: b\n'),
      5,
      'the `{` opened here is never closed; end the mapping with `}` (a mapping in `{}` that goes on over several lines must indent them more than its key) (column 11)',
    ],
    ['a closed flow list whose next line is not indented', 'a: [1,\n2]\n', 2, 'a list in `[]` that goes on over several lines must indent them more than its key `a` (line 1); indent this line further (column 1)'],
    ['a duplicate key', cm('  name: x\n  name: y\n'), 5, 'the key "name" appears twice in one mapping; keep only one'],
    [
      'a `: ` inside a plain value',
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\nspec:\n  image: foo:bar baz: x\n',
      6,
      "the value of `image` holds `: `, which YAML reads as the start of a mapping inside the value; quote the whole value ('…' or \"…\") (column 10)",
    ],
    ['a missing space after `:`', cm('  name:x\n  namespace: y\n'), 4, 'a key needs a space after its `:`: write `name` followed by `: ` and the value (column 3)'],
    ['a line without `: ` in a mapping', cm('  name: x\n  oops\n  namespace: y\n'), 5, 'this line is not `key: value` (it has no `: `), where the mapping around it expects one; add the missing `: `, or remove the line (column 3)'],
    [
      'a list item after the keys of a mapping',
      cm('  name: x\n- a\n'),
      5,
      'a list item (`- `) where the mapping around it expects `key: value` lines; a mapping cannot also hold list items: put the list under a key of its own (`key:` and the items indented below it) (column 1)',
    ],
    [
      'a list item among the keys of a mapping',
      cm('  name: x\n  - a\n'),
      5,
      'a list item (`- `) where the mapping around it expects `key: value` lines; a mapping cannot also hold list items: put the list under a key of its own (`key:` and the items indented below it) (column 3)',
    ],
    ['an alias to nothing', cm('  name: *x\n'), 4, 'this alias (`*`) names no anchor (`&`) set before it in this document; quote the value if the `*` is part of the text, or set the anchor first (column 9)'],
  ])('%s', (_name, text, line, message) => {
    expect(parseYamlStream(text).problems).toEqual([{ message, line }]);
  });

  // The provider block of examples/quickstart/llsd.yaml (lines 11-18 there are lines 2-9 here).
  const providers = (edit: (lines: string[]) => void): string => {
    const lines = ['spec:', '  providers:', '    inference:', '      provider: vllm', '      endpoint: http://vllm:8000/v1', '      apiKey:', '        secretKeyRef:', '          name: creds', '          key: token', '  resources:', '    models:', '      - m', ''];
    edit(lines);
    return lines.join('\n');
  };
  const dedent = (line: number) => (lines: string[]) => void (lines[line - 1] = (lines[line - 1] ?? '').slice(1));
  const tabbed = (line: number) => (lines: string[]) => void (lines[line - 1] = `\t${(lines[line - 1] ?? '').trimStart()}`);

  it.each([
    // yaml's errors were on this line, but the nested-value rule blamed the next one (`apiKey`, "start it at column 6"), the wrong fix.
    ['a key with a value moved left of the key above it', dedent(5), 5, 'this line starts at column 6, but the keys of one mapping must start at the same column: indent it to column 7 like `provider` (line 4, column 7) (column 6)'],
    // No key above it to line up with: the keys after it show where it belongs.
    ['the first key of a mapping moved left of the keys below it', dedent(4), 4, 'this line starts at column 6, but the keys of one mapping must start at the same column: indent it to column 7 like `endpoint` (line 5, column 7) (column 6)'],
    // Alone in its mapping: nothing says the key moved, so the line indented under it is the one to fix, as before.
    ['a lone key with a value moved left of the line under it', dedent(8), 9, 'this line is indented more than the key above it expects: `name` on line 8 already has a value, so nothing can be nested under it; start this line at column 10, like that key, or move that value onto lines of its own (column 11)'],
  ])('an indentation mistake in the quickstart providers: %s', (_name, edit, line, message) => {
    expect(parseYamlStream(providers(edit)).problems).toEqual([{ message, line }]);
  });

  it.each([
    ['the first key of a nested mapping', 4],
    ['the second key of a nested mapping', 5],
    ['a key deeper down', 7],
  ])('a tab on %s: one problem, no follow-on "indent it" for the correct `resources` below', (_name, line) => {
    expect(parseYamlStream(providers(tabbed(line))).problems).toEqual([{ message: `${tabs} (column 1)`, line }]);
  });

  it('a tab does not hide a mistake below it that its own text shows (an unclosed quote)', () => {
    const text = providers((lines) => {
      tabbed(4)(lines);
      lines.splice(10, 3, '    models: "m', '');
    });
    expect(parseYamlStream(text).problems).toEqual([
      { message: `${tabs} (column 1)`, line: 4 },
      { message: 'the quote " opened here is never closed, so the rest of the file was read as one text; end the value with " on this line (column 13)', line: 11 },
    ]);
  });

  it('tabs on several lines: one problem, at the first, naming the others', () => {
    expect(parseYamlStream('spec:\n\tproviders:\n\t\tinference:\n\t\t- provider: x\n').problems).toEqual([{ message: `${tabs} (also on lines 3, 4) (column 1)`, line: 2 }]);
  });

  it('problems of several documents: sorted by line, each its own', () => {
    const text = `${cm('  name: a\n  - x\n')}---\n${cm('  name: b\n\tnamespace: y\n')}---\n${cm('  name: "c\n')}`;
    expect(parseYamlStream(text).problems.map((p) => [p.line, p.message.slice(0, 30)])).toEqual([
      [5, 'a list item (`- `) where the m'],
      [11, 'tabs are not allowed for inden'],
      [16, 'the quote " opened here is nev'],
    ]);
  });

  it('a Secret value with a syntax error is never quoted', () => {
    const secret = (data: string): string => `apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\nstringData:\n${data}`;
    for (const data of ['  password: "Xy9secret\n  user: a\n', '\tpassword: Xy9secret\n', '  password: Xy9:secret word: x\n', '  password: [Xy9secret\n  user: a\n', '  password:Xy9secret\n  user: a\n']) {
      const { problems } = parseYamlStream(secret(data));
      expect(problems).toHaveLength(1);
      expect(problems[0]?.line).toBe(6);
      expect(problems[0]?.message).not.toContain('Xy9');
    }
  });

  it('YAML 1.1 texts (a RenderConfig, a base config): the same explanation', () => {
    expect(parseYaml11('server:\n  port: "8321\n').problem).toEqual({
      message: 'the quote " opened here is never closed, so the rest of the file was read as one text; end the value with " on this line (column 9)',
      line: 2,
    });
    expect(parseYaml11('server:\n\tport: 8321\n').problem).toEqual({ message: `${tabs} (column 1)`, line: 2 });
  });
});
