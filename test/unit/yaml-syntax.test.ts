// YAML syntax errors in plain words (issue 18): for each common mistake, one result per real
// problem, at the line the user must edit, the likely cause first, no follow-on errors of the
// parser, and nothing of a value quoted.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseYaml11, parseYamlStream } from '../../src/krm/yaml.js';
import { genericYamlMessage, plainYamlMessage } from '../../src/krm/yaml-syntax.js';

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
      'this line starts at column 3, but the keys of one mapping must start at the same column: indent it to column 5 like `name` (line 4, column 5), or at ' +
        'column 1 like `metadata` (line 3, column 1), whichever it belongs to (column 3)',
    ],
    [
      // yaml pointed at line 4, which is right.
      'a key more indented than the one above it (which has a value)',
      cm('  name: x\n    namespace: y\n'),
      5,
      'this line is indented more than the key above it expects: `name` on line 4 already has a value, so nothing can be nested under it; start this line ' +
        'at column 3, like that key, or move that value onto lines of its own (column 5)',
    ],
    [
      // yaml said so at the end of the file.
      'an unclosed double quote',
      cm('  name: "x\ndata:\n  a: b\n'),
      4,
      'the quote " opened here is never closed, so the rest of the file was read as one text; end the value with " on this line (column 9)',
    ],
    [
      'an unclosed single quote',
      cm("  name: 'x\ndata:\n  a: b\n"),
      4,
      "the quote ' opened here is never closed, so the rest of the file was read as one text; end the value with ' on this line (column 9)",
    ],
    [
      'an unclosed flow sequence',
      cm('  name: x\n  finalizers: [a, b\ndata:\n  a: b\n'),
      5,
      'the `[` opened here is never closed; end the list with `]` (a list in `[]` that goes on over several lines must indent them more than its key) ' +
        '(column 15)',
    ],
    [
      'an unclosed flow mapping',
      cm('  name: x\n  labels: {a: b\ndata:\n  a: b\n'),
      5,
      'the `{` opened here is never closed; end the mapping with `}` (a mapping in `{}` that goes on over several lines must indent them more than its key) ' +
        '(column 11)',
    ],
    [
      'a closed flow list whose next line is not indented',
      'a: [1,\n2]\n',
      2,
      'a list in `[]` that goes on over several lines must indent them more than its key `a` (line 1); indent this line further (column 1)',
    ],
    ['a duplicate key', cm('  name: x\n  name: y\n'), 5, 'the key "name" appears twice in one mapping; keep only one'],
    [
      'a `: ` inside a plain value',
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\nspec:\n  image: foo:bar baz: x\n',
      6,
      'the value of `image` holds `: `, which YAML reads as the start of a mapping inside the value; quote the whole value (\'…\' or "…") (column 10)',
    ],
    [
      'a missing space after `:`',
      cm('  name:x\n  namespace: y\n'),
      4,
      'a key needs a space after its `:`: write `name` followed by `: ` and the value (column 3)',
    ],
    [
      'a line without `: ` in a mapping',
      cm('  name: x\n  oops\n  namespace: y\n'),
      5,
      'this line is not `key: value` (it has no `: `), where the mapping around it expects one; add the missing `: `, or remove the line (column 3)',
    ],
    [
      'a list item after the keys of a mapping',
      cm('  name: x\n- a\n'),
      5,
      'a list item (`- `) where the mapping around it expects `key: value` lines; a mapping cannot also hold list items: put the list under a key of its ' +
        'own (`key:` and the items indented below it) (column 1)',
    ],
    [
      'a list item among the keys of a mapping',
      cm('  name: x\n  - a\n'),
      5,
      'a list item (`- `) where the mapping around it expects `key: value` lines; a mapping cannot also hold list items: put the list under a key of its ' +
        'own (`key:` and the items indented below it) (column 3)',
    ],
    [
      'an alias to nothing',
      cm('  name: *x\n'),
      4,
      'this alias (`*`) names no anchor (`&`) set before it in this document; quote the value if the `*` is part of the text, or set the anchor first ' +
        '(column 9)',
    ],
  ])('%s', (_name, text, line, message) => {
    expect(parseYamlStream(text).problems).toEqual([{ message, line }]);
  });

  // The provider block of examples/quickstart/llsd.yaml (lines 11-18 there are lines 2-9 here).
  const providers = (edit: (lines: string[]) => void): string => {
    const lines = [
      'spec:',
      '  providers:',
      '    inference:',
      '      provider: vllm',
      '      endpoint: http://vllm:8000/v1',
      '      apiKey:',
      '        secretKeyRef:',
      '          name: creds',
      '          key: token',
      '  resources:',
      '    models:',
      '      - m',
      '',
    ];
    edit(lines);
    return lines.join('\n');
  };
  const dedent = (line: number) => (lines: string[]) => void (lines[line - 1] = (lines[line - 1] ?? '').slice(1));
  const tabbed = (line: number) => (lines: string[]) => void (lines[line - 1] = `\t${(lines[line - 1] ?? '').trimStart()}`);

  it.each([
    // yaml's errors were on this line, but the nested-value rule blamed the next one (`apiKey`, "start it at column 6"), the wrong fix.
    [
      'a key with a value moved left of the key above it',
      dedent(5),
      5,
      'this line starts at column 6, but the keys of one mapping must start at the same column: indent it to column 7 like `provider` (line 4, column 7) ' +
        '(column 6)',
    ],
    // No key above it to line up with: the keys after it show where it belongs.
    [
      'the first key of a mapping moved left of the keys below it',
      dedent(4),
      4,
      'this line starts at column 6, but the keys of one mapping must start at the same column: indent it to column 7 like `endpoint` (line 5, column 7) ' +
        '(column 6)',
    ],
    // Alone in its mapping: nothing says the key moved, so the line indented under it is the one to fix, as before.
    [
      'a lone key with a value moved left of the line under it',
      dedent(8),
      9,
      'this line is indented more than the key above it expects: `name` on line 8 already has a value, so nothing can be nested under it; start this line ' +
        'at column 10, like that key, or move that value onto lines of its own (column 11)',
    ],
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
      {
        message: 'the quote " opened here is never closed, so the rest of the file was read as one text; end the value with " on this line (column 13)',
        line: 11,
      },
    ]);
  });

  it('tabs on several lines: one problem, at the first, naming the others', () => {
    expect(parseYamlStream('spec:\n\tproviders:\n\t\tinference:\n\t\t- provider: x\n').problems).toEqual([
      { message: `${tabs} (also on lines 3, 4) (column 1)`, line: 2 },
    ]);
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
    for (const data of [
      '  password: "Xy9secret\n  user: a\n',
      '\tpassword: Xy9secret\n',
      '  password: Xy9:secret word: x\n',
      '  password: [Xy9secret\n  user: a\n',
      '  password:Xy9secret\n  user: a\n',
    ]) {
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

// Attacker probe (issue 18, round 3): parser sentences still reached the user, one of them cut to
// "The" at its first `: `. Every code `yaml` reports is run through a text that makes it.
describe('every error `yaml` reports, in plain words (no parser sentence, never cut short)', () => {
  const long = 'K'.repeat(1100);
  const byCode: Array<[code: string, name: string, text: string, line: number, message: string]> = [
    [
      'KEY_OVER_1024_CHARS',
      'a block key over 1024 characters',
      `a: 1\n${long}: v\n`,
      2,
      'this key is longer than the 1024 characters YAML allows for a key; shorten it (column 1)',
    ],
    [
      'KEY_OVER_1024_CHARS',
      'a key over 1024 characters in `[…]`',
      `a: [${long}: v]\n`,
      1,
      'this key is longer than the 1024 characters YAML allows for a key; shorten it (column 1105)',
    ],
    [
      'BLOCK_IN_FLOW',
      'a `: ` inside a `{…}` value',
      'data: {password: x: y}\n',
      1,
      'a value inside `{…}` holds `: `, which YAML cannot read there; quote the value (\'…\' or "…"), or if it is two entries, put a `,` between them ' +
        '(column 18)',
    ],
    [
      'BLOCK_IN_FLOW',
      'a missing `,` in `{…}`',
      'a: {b: 1 c: 2}\n',
      1,
      'a value inside `{…}` holds `: `, which YAML cannot read there; quote the value (\'…\' or "…"), or if it is two entries, put a `,` between them ' +
        '(column 8)',
    ],
    [
      'BLOCK_IN_FLOW',
      'a `- ` item inside `[…]`',
      'data: [a,\n  - b]\n',
      2,
      'a list item (`- `) inside `[…]`; write the items inside the brackets separated by `,`, or write the list as `- ` lines without the brackets (column 3)',
    ],
    [
      'MULTILINE_IMPLICIT_KEY',
      'a key over two lines in `[…]`',
      'a: [b\n  c: d]\n',
      1,
      'a `key: value` inside `[…]` must be on one line; join its lines, or quote the item if the `:` is part of it (column 5)',
    ],
    [
      'BAD_INDENT',
      'a `|` block less indented than its first line',
      'a: |\n      \n  x\n',
      3,
      'a `|` or `>` block starts with blank lines holding more spaces than its first line of text; remove the spaces on those blank lines, or give the ' +
        'indentation after the `|` (`|2`) (column 3)',
    ],
    [
      'MISSING_CHAR',
      'no `,` or `:` between items of `[…]`',
      'a: ["b" "c"]\n',
      1,
      'items inside `[…]` must be separated by `,`, and a key from its value by `: `; add what is missing, or quote the item if it is one text (column 9)',
    ],
    [
      'MISSING_CHAR',
      'a comment without a space before it',
      'a: "b"# c\n',
      1,
      'a comment (`#`) must have a space before it; add one, or quote the value if the `#` is part of it (column 7)',
    ],
    [
      'MISSING_CHAR',
      'a tag without a space after it',
      'a: !!str"b"\n',
      1,
      'a tag (`!`) or anchor (`&`) must be followed by a space; add one, or quote the value if the `!` or `&` is part of it (column 9)',
    ],
    [
      'MISSING_CHAR',
      'a directive without `---` after it',
      '%YAML 1.2\na: 1\n',
      2,
      'a `%` directive line must be followed by a `---` line before the document; add `---`, or remove the directive (column 1)',
    ],
    ['MISSING_CHAR', 'a mapping on the `---` line', '--- a: 1\n', 1, 'a mapping or list cannot start on the `---` line; move it to the next line (column 5)'],
    [
      'UNEXPECTED_TOKEN',
      'an extra `,` in `{…}`',
      'a: {, b: 1}\n',
      1,
      'a `,` inside `{…}` where YAML does not expect one; remove it, or quote the value it belongs to (\'…\' or "…") (column 5)',
    ],
    [
      'UNEXPECTED_TOKEN',
      'text after `|` on its line',
      'a: |x\n  b\n',
      1,
      'only `-` or `+`, an indentation digit and a comment may follow `|` or `>` on its line; put the text on the lines below it, indented (column 5)',
    ],
    [
      'UNEXPECTED_TOKEN',
      'a list item on the line of its key',
      'a: - b\n',
      1,
      'a list item (`- `) cannot start on the line of its key; put the items on the lines below it, indented, or quote the value if the `-` is part of it ' +
        '(column 4)',
    ],
    [
      'UNEXPECTED_TOKEN',
      'a `}` with nothing open',
      'a: 1\n}\n',
      2,
      'a `}` with no `{` open before it; remove it, or quote the value it belongs to (\'…\' or "…") (column 1)',
    ],
    [
      'UNEXPECTED_TOKEN',
      'text after a quoted value',
      'a: "b" c\n',
      1,
      'unexpected text: check the indentation of this line, and that no `...` line (the end of a document) comes before it (column 8)',
    ],
    ['MULTIPLE_ANCHORS', 'two anchors', 'a: &x &y b\n', 1, 'a value can have only one anchor (`&`); remove the others (column 7)'],
    ['MULTIPLE_TAGS', 'two tags', 'a: !!str !!str b\n', 1, 'a value can have only one tag (`!`); remove the others (column 10)'],
    [
      'BAD_ALIAS',
      'an anchor without a name',
      'a: & b\n',
      1,
      'an anchor (`&`) needs a name after the `&`; write `&name`, or quote the value if the `&` is part of it (column 4)',
    ],
    [
      'BAD_ALIAS',
      'an alias without a name',
      'a: *\n',
      1,
      'an alias (`*`) needs a name after the `*`; write `*name`, or quote the value if the `*` is part of it (column 4)',
    ],
    [
      'ALIAS_PROPS',
      'an anchor on an alias',
      'a: &x 1\nb: &y *x\n',
      2,
      'an alias (`*`) cannot have an anchor (`&`) or tag (`!`) of its own; remove them (column 7)',
    ],
    ['BAD_SCALAR_START', 'a value starting with `@`', 'a: @b\n', 1, 'a plain value cannot start with this character; quote the value (column 4)'],
    [
      'BAD_DQ_ESCAPE',
      'an unknown escape',
      'a: "\\q"\n',
      1,
      'a double-quoted string holds an escape sequence YAML does not know; write \\\\ for a backslash, or use single quotes (column 5)',
    ],
    [
      'TAG_RESOLVE_FAILED',
      'an undeclared tag handle',
      'a: !x!y b\n',
      1,
      'the tag here cannot be resolved, or the value does not fit it; remove the tag, or quote the value (column 4)',
    ],
  ];
  it.each(byCode)('%s: %s', (_code, _name, text, line, message) => {
    expect(parseYamlStream(text).problems).toEqual([{ message, line }]);
  });

  // Every message of yaml 2.9.1 (its dist/compose and dist/parse), as it is worded there, with
  // the input parts filled in; those the texts above cannot reach (warnings, internal states) too.
  const messages: Array<[code: string, message: string]> = [
    ['KEY_OVER_1024_CHARS', 'The : indicator must be at most 1024 chars after the start of an implicit block mapping key at line 6, column 3:\n\nKKKK'],
    ['KEY_OVER_1024_CHARS', 'The : indicator must be at most 1024 chars after the start of an implicit flow sequence key'],
    ['BLOCK_IN_FLOW', 'Block collections are not allowed within flow collections'],
    ['MULTILINE_IMPLICIT_KEY', 'Implicit keys of flow sequence pairs need to be on a single line'],
    ['MULTILINE_IMPLICIT_KEY', 'Implicit keys need to be on a single line'],
    ['TAB_AS_INDENT', 'Tabs are not allowed as indentation'],
    ['BAD_INDENT', 'All mapping items must start at the same column'],
    ['BAD_INDENT', 'All sequence items must start at the same column'],
    ['BAD_INDENT', 'Flow map in block collection must be sufficiently indented and end with a }'],
    ['BAD_INDENT', 'Flow end indicator should be more indented than parent'],
    ['BAD_INDENT', 'Block scalar values in collections must be indented'],
    ['BAD_INDENT', 'Block scalar lines must not be less indented than their first line'],
    ['MISSING_CHAR', 'Block scalars with more-indented leading empty lines must use an explicit indentation indicator'],
    ['MISSING_CHAR', 'Flow sequence must end with a ]'],
    ['MISSING_CHAR', 'Missing closing "quote'],
    ['MISSING_CHAR', "Missing closing 'quote"],
    ['MISSING_CHAR', 'Missing , between flow map items'],
    ['MISSING_CHAR', 'Missing , or : between flow sequence items'],
    ['MISSING_CHAR', 'Missing space after : in flow map'],
    ['MISSING_CHAR', 'Comments must be separated from other tokens by white space characters'],
    ['MISSING_CHAR', 'Tags and anchors must be separated from the next token by white space'],
    ['MISSING_CHAR', 'Sequence item without - indicator'],
    ['MISSING_CHAR', 'Missing directives-end/doc-start indicator line'],
    ['MISSING_CHAR', 'Missing directives-end indicator line'],
    ['MISSING_CHAR', 'Block collection cannot start on same line with directives-end marker'],
    ['MISSING_CHAR', 'Missing newline after block sequence props'],
    ['MISSING_CHAR', 'Implicit map keys need to be followed by map values'],
    ['UNEXPECTED_TOKEN', 'Unexpected , in flow sequence'],
    ['UNEXPECTED_TOKEN', 'Unexpected ? in collection'],
    ['UNEXPECTED_TOKEN', 'Unexpected empty item in flow map'],
    ['UNEXPECTED_TOKEN', 'Block scalar header includes extra characters: |Xy9secret'],
    ['UNEXPECTED_TOKEN', 'Unexpected flow-map-end at node end'],
    ['UNEXPECTED_TOKEN', 'Unexpected scalar token in YAML stream: "Xy9secret"'],
    ['UNEXPECTED_TOKEN', 'Unexpected doc-start token'],
    ['UNEXPECTED_TOKEN', 'Unexpected block-seq-ind on same line with key'],
    ['UNEXPECTED_TOKEN', 'Unexpected doc-end without preceding document'],
    ['UNEXPECTED_TOKEN', 'Not a YAML token: Xy9secret'],
    ['BLOCK_AS_IMPLICIT_KEY', 'A block sequence may not be used as an implicit map key'],
    ['BLOCK_AS_IMPLICIT_KEY', 'Nested mappings are not allowed in compact mappings'],
    ['MULTIPLE_ANCHORS', 'A node can have at most one anchor'],
    ['MULTIPLE_TAGS', 'A node can have at most one tag'],
    ['BAD_ALIAS', 'Anchor cannot be an empty string'],
    ['BAD_ALIAS', 'Alias cannot be an empty string'],
    ['BAD_ALIAS', 'Anchor ending in : is ambiguous'],
    ['ALIAS_PROPS', 'An alias node must not specify any properties'],
    ['BAD_PROP_ORDER', 'Anchors and tags must be after the - indicator'],
    ['BAD_SCALAR_START', 'Plain value cannot start with reserved character @'],
    ['BAD_DQ_ESCAPE', 'Invalid escape sequence \\q'],
    ['BAD_DIRECTIVE', 'Unknown directive %Xy9secret'],
    ['TAG_RESOLVE_FAILED', 'Could not resolve tag: !Xy9secret'],
    ['BAD_COLLECTION_TYPE', 'tag:yaml.org,2002:set used for seq collection, but expects map'],
    ['DUPLICATE_KEY', 'Map keys must be unique'],
    ['NON_STRING_KEY', 'With stringKeys, all keys must be strings'],
  ];
  it.each(messages)('%s: "%s" has words of our own, quoting nothing', (code, message) => {
    const plain = plainYamlMessage({ code, message });
    // TAB_AS_INDENT is said by the rules around the error (one message for all tabs); RESOURCE_EXHAUSTION and `!!binary` by yaml.ts.
    if (code === 'TAB_AS_INDENT') return expect(plain).toBe(genericYamlMessage);
    expect(plain).not.toBe(genericYamlMessage);
    expect(plain).toMatch(/^[a-z]/);
    expect(plain).not.toContain('Xy9');
    expect(plain).not.toContain(message.slice(0, 20));
  });

  it('a message yaml may add later: the generic message, not its words', () => {
    expect(plainYamlMessage({ code: 'MISSING_CHAR', message: 'Something new: Xy9secret' })).toBe(genericYamlMessage);
    expect(plainYamlMessage({ code: 'SOME_NEW_CODE', message: 'The: Xy9secret' })).toBe(genericYamlMessage);
  });

  it('every error code in the installed yaml has a message above (an upgrade that adds one fails here)', () => {
    const dist = dirname(createRequire(import.meta.url).resolve('yaml'));
    const codes = new Set<string>();
    for (const dir of ['compose', 'parse']) {
      for (const file of readdirSync(join(dist, dir)).filter((name) => name.endsWith('.js'))) {
        // The code is the first upper-case string of each error call (a call may span lines).
        for (const match of readFileSync(join(dist, dir, file), 'utf8').matchAll(/(?:onError|YAMLParseError)\([^;]*?'([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)'/g))
          codes.add(match[1] ?? '');
      }
    }
    const covered = new Set([...messages.map(([code]) => code), 'RESOURCE_EXHAUSTION', 'IMPOSSIBLE']);
    expect(codes.size).toBeGreaterThan(15);
    expect(codes).toContain('KEY_OVER_1024_CHARS');
    expect([...codes].filter((code) => !covered.has(code)).sort()).toEqual([]);
  });
});

describe('an unclosed quote, where `yaml` ended the value (attacker probe: "everything up to line 2" on the line it opened)', () => {
  it('no quote of its kind further on: the rest of the file, naming the `---` it ran over', () => {
    expect(parseYamlStream('a: 1\nd: "x\ne: 1\n---\nb: 1\n').problems).toEqual([
      {
        message:
          'the quote " opened here is never closed, so the rest of the file (the `---` on line 4 and the documents after it too) was read as one text; end ' +
            'the value with " on this line (column 4)',
        line: 2,
      },
    ]);
  });

  it('a quote further on: ended before the next line indented no more than its key', () => {
    expect(parseYamlStream('a: 1\nd: "x\ne: 1\n---\nb: "1"\n').problems).toEqual([
      {
        message:
          'the quote " opened here is never closed before line 3, which YAML reads as the next key (it is indented no more than this value\'s key); end the ' +
            'value with " on this line (column 4)',
        line: 2,
      },
    ]);
    expect(parseYamlStream("a:\n  d: 'x\n  e: 1\nf: 'y'\n").problems).toEqual([
      {
        message:
          "the quote ' opened here is never closed before line 3, which YAML reads as the next key (it is indented no more than this value's key); end the " +
            "value with ' on this line (column 6)",
        line: 2,
      },
    ]);
  });

  it('a quote further on: ended before the `---` right after it, over the lines indented under it', () => {
    expect(parseYamlStream('d: "x\n---\nb: "1"\n').problems).toEqual([
      { message: 'the quote " opened here is never closed before the `---` on line 2; end the value with " on this line (column 4)', line: 1 },
    ]);
    expect(parseYamlStream('d: "x\n  more\n---\nb: "1"\n').problems).toEqual([
      { message: 'the quote " opened here is never closed before the `---` on line 3; end the value with " where it ends (by line 2) (column 4)', line: 1 },
    ]);
  });
});
