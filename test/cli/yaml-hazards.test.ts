// YAML that used to hang, crash or lie (issue 15), through the built bundle in every mode: KRM
// (an item, the functionConfig), `build`, `validate`, `build --config`, and `kpt fn render` with
// the bundle as exec function. Each case ends with exit 1 and one error at the line (and column)
// of the problem, or renders as the user meant; never a hang, a crash or a quoted secret.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requireTool } from '../e2e/tools.js';
import {
  expectNoCrash,
  parseResourceList,
  parseStream,
  quickstartText,
  requireBundle,
  resourceList,
  run,
  stderrLines,
  tempDir,
  writeTree,
  type RunResult,
} from './run.js';

/** An LLSD whose metadata merges itself: `yaml` made a circular value, and every mode looped on it. */
const cyclicLlsd = quickstartText().replace('metadata:\n', 'metadata: &A\n  <<: *A\n');
/** Its line of `<<: *A` in the file, and the column of the alias. */
const cyclicLine = cyclicLlsd.split('\n').indexOf('  <<: *A') + 1;
const cyclicMessage =
  'this alias (`*`) is inside the node its anchor (`&`) names, so the value would contain itself without end; write the value out instead (column 7)';

const configMap = (body: string): string => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n${body}`;

/** Exit 1, one error, nothing rendered: in KRM mode a ResourceList with that one result, in build mode an empty stdout. */
function expectOneError(r: RunResult, mode: 'krm' | 'build' | 'validate', line: RegExp): void {
  expectNoCrash(r);
  expect(r.status, r.stderr).toBe(1);
  expect(stderrLines(r)).toHaveLength(1);
  expect(stderrLines(r)[0]).toMatch(line);
  if (mode === 'build') expect(r.stdout).toBe('');
  if (mode === 'krm') {
    const list = parseResourceList(r.stdout);
    expect(list.items).toEqual([]);
    expect(list.results.map((x) => x.severity)).toEqual(['error']);
  }
}

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\`]/g, '\\$&');

describe('an alias inside the node of its own anchor (a cyclic merge): one error at the line, in every mode, no hang', () => {
  it('an LLSD in build and validate: the file, line and column', () => {
    const dir = writeTree(tempDir(), { 'llsd.yaml': cyclicLlsd });
    for (const command of ['build', 'validate'] as const) {
      expectOneError(run([command, dir]), command, new RegExp(`llsd\\.yaml:${cyclicLine}: not valid YAML: ${escaped(cyclicMessage)}$`));
    }
  });

  it('an LLSD as a KRM item, and as the functionConfig (kustomize generator mode): one error result', () => {
    const asItem = run([], { input: resourceList([cyclicLlsd]) });
    expectOneError(asItem, 'krm', /^stdin is not valid YAML \(line \d+\): this alias \(`\*`\) is inside the node its anchor/);
    const asConfig = run([], { input: resourceList([], cyclicLlsd) });
    expectOneError(asConfig, 'krm', /^stdin is not valid YAML \(line \d+\): this alias \(`\*`\) is inside the node its anchor/);
    expect(parseResourceList(asConfig.stdout).results[0]?.message).not.toContain('circular');
  });

  it('a pass-through ConfigMap (it was printed with the cycle, exit 0) and a plain alias to its own ancestor', () => {
    const merged = configMap('data: &D\n  <<: *D\n  k: v\n');
    expectOneError(run([], { input: resourceList([merged]) }), 'krm', /\(line 9\): this alias \(`\*`\) is inside the node its anchor .* \(column 11\)$/);
    const nested = configMap('data: &D\n  k: v\n  again:\n    inner: *D\n');
    expectOneError(
      run(['build', writeTree(tempDir(), { 'cm.yaml': nested })]),
      'build',
      /cm\.yaml:8: not valid YAML: this alias \(`\*`\) is inside the node its anchor .* \(column 12\)$/,
    );
  });

  it('a RenderConfig given with --config: an error naming that file, not a hang', () => {
    const config = 'apiVersion: fn.llamastack.io/v1alpha1\nkind: RenderConfig\nmetadata: &M\n  name: opts\n  self: *M\n';
    const dir = writeTree(tempDir(), { 'llsd.yaml': quickstartText(), 'opts/config.yaml': config });
    const r = run(['build', '--config', join(dir, 'opts/config.yaml'), join(dir, 'llsd.yaml')]);
    expectNoCrash(r);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/config\.yaml.*this alias \(`\*`\) is inside the node its anchor/);
  });

  it('aliases that are not cycles still work: a sibling alias, and a merge of an earlier mapping', () => {
    const fine = configMap('data: &D\n  k: v\nbinaryData:\n  <<: {}\nextra:\n  copy: *D\n');
    const r = run([], { input: resourceList([fine]) });
    expect(r.status, r.stderr).toBe(0);
    expect(parseResourceList(r.stdout).items[0]?.extra).toEqual({ copy: { k: 'v' } });
  });

  it('kpt fn render with the bundle as exec function: fails with the error, the package unchanged, no hang', () => {
    const kpt = requireTool('kpt');
    const bundle = requireBundle();
    const pkg = writeTree(tempDir(), {
      Kptfile: `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: pkg\npipeline:\n  mutators:\n    - exec: ${bundle}\n`,
      'llsd.yaml': cyclicLlsd,
    });
    const r = spawnSync(kpt, ['fn', 'render', '--allow-exec', pkg], { encoding: 'utf8', timeout: 60_000 });
    expect(r.error, 'kpt finished within 60 s').toBeUndefined();
    expect(r.status, r.stderr).not.toBe(0);
    expect(`${r.stdout}${r.stderr}`).toContain('is inside the node its anchor');
    expect(readFileSync(join(pkg, 'llsd.yaml'), 'utf8')).toBe(cyclicLlsd);
  }, 90_000);
});

describe('values that were internal errors: rendered as meant, or one clear error', () => {
  it('!!binary in a ConfigMap (block and flow): passed through as its base64 text, without the tag, in KRM and build', () => {
    for (const body of [
      'binaryData:\n  x: !!binary aGVsbG8=\n',
      'binaryData: {x: !!binary aGVsbG8=}\n',
      'binaryData:\n  x: !!binary |\n    aGVs\n    bG8=\n',
    ]) {
      const krm = run([], { input: resourceList([configMap(body)]) });
      expect(krm.status, krm.stderr).toBe(0);
      expect(parseResourceList(krm.stdout).items[0]?.binaryData).toEqual({ x: 'aGVsbG8=' });
      expect(krm.stdout).not.toContain('!!binary');
      const build = run(['build', '--allow-empty', writeTree(tempDir(), { 'cm.yaml': configMap(body) })]);
      expect(build.status, build.stderr).toBe(0);
      expect(parseStream(build.stdout)[0]?.binaryData).toEqual({ x: 'aGVsbG8=' });
    }
  });

  it('!!binary in LLSD settings: the config holds the base64 text (it held a map of byte numbers)', () => {
    // tls_verify: a vLLM setting that takes a string (a CA bundle path), so the release schema accepts it.
    const llsd = quickstartText().replace('      provider: vllm\n', '      provider: vllm\n      settings:\n        tls_verify: !!binary aGVsbG8=\n');
    const r = run(['build', writeTree(tempDir(), { 'llsd.yaml': llsd })]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\n {12}tls_verify: aGVsbG8=\n/);
  });

  it('!!binary on text that is not base64: an error at the line, the value not quoted', () => {
    const r = run([], { input: resourceList([configMap('binaryData:\n  x: !!binary not base64 Xy9secret!\n')]) });
    expectOneError(
      r,
      'krm',
      /^stdin is not valid YAML \(line 9\): a value tagged !!binary must be base64 text; remove the tag to keep the value as text \(column 10\)$/,
    );
    expect(r.stdout + r.stderr).not.toContain('Xy9secret');
  });

  it('an alias in one KRM item naming an anchor in another: rendered, the value copied into the item that uses it', () => {
    const input = resourceList([configMap('data: &shared\n  k: v\n'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: other\ndata: *shared\n']);
    const r = run([], { input });
    expectNoCrash(r);
    expect(r.status, r.stderr).toBe(0);
    const { items } = parseResourceList(r.stdout);
    expect(items.map((item) => item.data)).toEqual([{ k: 'v' }, { k: 'v' }]);
    // The second item is written on its own: an alias there would name no anchor.
    expect(r.stdout).not.toContain('*shared');
  });

  it('a whole KRM item (or the functionConfig) as an alias of another (attacker probe: internal error): the copy is the item', () => {
    const item = run([], {
      input:
        'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- &cm\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: cm, namespace: ' +
          'a}\n- *cm\n',
    });
    expectNoCrash(item);
    expect(item.status).toBe(1);
    expect(stderrLines(item)).toEqual(['a/cm: ConfigMap "cm" is defined twice; keep one']);
    expect(parseResourceList(item.stdout).items.map((i) => i.metadata.name)).toEqual(['cm', 'cm']);
    const fc = run([], {
      input:
        'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nfunctionConfig: &fc\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: fn}\n  data: ' +
          '{networkPolicy: "on"}\nitems:\n- *fc\n',
    });
    expectNoCrash(fc);
    expect(fc.status, fc.stderr).toBe(0);
    expect(parseResourceList(fc.stdout).items.map((i) => i.metadata.name)).toEqual(['fn']);
  });

  it('!!merge in LLSD settings: as the tag of a `<<` key it merges; on a value, an error at its line and column', () => {
    const withSettings = (settings: string): string => quickstartText().replace('      provider: vllm\n', `      provider: vllm\n      settings:\n${settings}`);
    const merged = run(['build', writeTree(tempDir(), { 'llsd.yaml': withSettings('        !!merge <<: {max_tokens: 10}\n') })]);
    expect(merged.status, merged.stderr).toBe(0);
    expect(merged.stdout).toMatch(/\n {12}max_tokens: 10\n/);
    const misplaced = withSettings('        x: !!merge y\n');
    const line = misplaced.split('\n').indexOf('        x: !!merge y') + 1;
    expectOneError(
      run(['build', writeTree(tempDir(), { 'llsd.yaml': misplaced })]),
      'build',
      new RegExp(`llsd\\.yaml:${line}: not valid YAML: the tag !!merge belongs on a \`<<\` key only; remove it, or quote the value \\(column 20\\)$`),
    );
    expectOneError(run([], { input: resourceList([misplaced]) }), 'krm', /the tag !!merge belongs on a `<<` key only/);
    const notAMap = withSettings('        !!merge <<: 5\n');
    expectOneError(
      run(['validate', writeTree(tempDir(), { 'llsd.yaml': notAMap })]),
      'validate',
      /a merge key `<<` must be followed by a mapping, an alias of one, or a list of them \(column 17\)$/,
    );
  });
});

describe('an explicit tag that changes what a value is: an error at the line naming the tag', () => {
  const message = (tag: string, type: string, field: string): string =>
    `the tag ${tag} makes the value of \`${field}\` ${type}, not what its text says; remove the tag, and quote the value if it is meant as text`;

  it('`apiVersion: !!bool v1` (it became `true`, exit 0) in build, validate and KRM', () => {
    const text = 'apiVersion: !!bool v1\nkind: ConfigMap\nmetadata:\n  name: cm\n';
    const dir = writeTree(tempDir(), { 'cm.yaml': text });
    for (const command of ['build', 'validate'] as const) {
      expectOneError(
        run([command, dir]),
        command,
        new RegExp(`cm\\.yaml:1: not valid YAML: ${escaped(message('!!bool', 'a boolean', 'apiVersion'))} \\(column 13\\)$`),
      );
    }
    expectOneError(
      run([], { input: resourceList([text]) }),
      'krm',
      new RegExp(`^stdin is not valid YAML \\(line 4\\): ${escaped(message('!!bool', 'a boolean', 'items[0].apiVersion'))} \\(column 17\\)$`),
    );
  });

  it.each([
    ['!!int "7"', '!!int', 'a number'],
    ['!!float 1', '!!float', 'a number'],
    ['!!null ""', '!!null', 'null'],
    ['!!timestamp 2001-12-14', '!!timestamp', 'a date'],
  ])('%s in a ConfigMap: an error', (value, tag, type) => {
    const r = run(['build', writeTree(tempDir(), { 'cm.yaml': configMap(`data:\n  k: ${value}\n`) })]);
    expectOneError(r, 'build', new RegExp(`cm\\.yaml:6: not valid YAML: ${escaped(message(tag, type, 'data.k'))} \\(column 6\\)$`));
  });

  it('!!set in LLSD settings (it became `{}`): an error', () => {
    const llsd = quickstartText().replace('      provider: vllm\n', '      provider: vllm\n      settings:\n        ids: !!set {a, b}\n');
    expectOneError(
      run(['build', writeTree(tempDir(), { 'llsd.yaml': llsd })]),
      'build',
      /not valid YAML: the tag !!set makes the value of `spec\.providers\.inference\.settings\.ids` a set, which JSON and Kubernetes objects cannot hold; remove the tag \(column 14\)$/,
    );
  });

  it('tags that keep the value what it is still pass: !!str, !!int on a number, !!map, a local tag on text', () => {
    const r = run([], { input: resourceList([configMap('data: !!map\n  a: !!str 5\n  b: !!int 7\n  c: !local text\n')]) });
    expect(r.status, r.stderr).toBe(0);
    expect(parseResourceList(r.stdout).items[0]?.data).toEqual({ a: '5', b: 7, c: 'text' });
  });
});

describe('YAML syntax errors quote no input: file, line and column instead', () => {
  const secret = (stringData: string): string => `apiVersion: v1\nkind: Secret\nmetadata:\n  name: creds\nstringData:\n${stringData}`;

  it.each([
    [
      'an unquoted value starting with `*`',
      '  password: *Xy9secret\n',
      6,
      /this alias \(`\*`\) names no anchor \(`&`\) set before it in this document; quote the value if the `\*` is part of the text, or set the anchor first \(column 13\)$/,
    ],
    [
      'text after a `...` document end',
      '  password: hunter2\n... Xy9secret\n',
      7,
      /unexpected text: check the indentation of this line, and that no `\.\.\.` line \(the end of a document\) comes before it \(column 5\)$/,
    ],
    ['a value that is a stray sequence item', '  password: x\n- Xy9secret\n', 7, /\(column 1\)$/],
    [
      'an escape YAML does not know',
      '  password: "Xy9\\secret"\n',
      6,
      /a double-quoted string holds an escape sequence YAML does not know; write \\\\ for a backslash, or use single quotes \(column 17\)$/,
    ],
    [
      'a block scalar header with text after it',
      '  password: |Xy9secret\n    x\n',
      6,
      /only `-` or `\+`, an indentation digit and a comment may follow `\|` or `>` on its line; put the text on the lines below it, indented \(column 14\)$/,
    ],
  ])('%s: the line and column, not the value (build and KRM)', (_name, stringData, line, message) => {
    const build = run(['build', writeTree(tempDir(), { 'secret.yaml': secret(stringData) })]);
    expectNoCrash(build);
    expect(build.status).toBe(1);
    expect(build.stdout).toBe('');
    expect(stderrLines(build)[0]).toMatch(new RegExp(`secret\\.yaml:${line}: not valid YAML: `));
    expect(stderrLines(build)[0]).toMatch(message);
    const krm = run([], { input: resourceList([secret(stringData)]) });
    expectNoCrash(krm);
    expect(krm.status).toBe(1);
    expect(parseResourceList(krm.stdout).results.length).toBeGreaterThan(0);
    for (const r of [build, krm]) {
      expect(r.stderr).not.toContain('Xy9');
      expect(r.stdout).not.toContain('Xy9');
    }
  });
});

describe('YAML syntax errors in plain words, sorted by line, one per real problem (issue 18)', () => {
  // yaml gave seven errors here, sorted by their text: the tab came last, after its own follow-ons.
  // (An unclosed double quote with no `"` after it runs to the end of the file, over `---` lines too, so it comes last.)
  const text = `${configMap('data:\n\t- b: 1\n')}---\n${configMap('data:\n  c: foo:bar baz: x\n')}---\n${configMap('data:\n  a: "x\n')}`;
  const quote = 'the quote " opened here is never closed';

  it('build: one line each, top to bottom, at the line to edit', () => {
    const r = run(['build', writeTree(tempDir(), { 'cm.yaml': text })]);
    expectNoCrash(r);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(stderrLines(r).map((line) => line.replace(/^.*cm\.yaml:/, ''))).toEqual([
      '6: not valid YAML: tabs are not allowed for indentation; use spaces (column 1)',
      '13: not valid YAML: the value of `c` holds `: `, which YAML reads as the start of a mapping inside the value; quote the whole value (\'…\' or "…") ' +
        '(column 6)',
      `20: not valid YAML: ${quote}, so the rest of the file was read as one text; end the value with " on this line (column 6)`,
    ]);
  });

  it('KRM: the same results, sorted by line', () => {
    const [tab, , unclosed] = text.split('---\n') as [string, string, string];
    const r = run([], { input: resourceList([tab, unclosed]) });
    expectNoCrash(r);
    expect(r.status).toBe(1);
    const messages = parseResourceList(r.stdout).results.map((x) => x.message);
    expect(messages).toHaveLength(2);
    expect(messages[0]).toMatch(/^stdin is not valid YAML \(line \d\): tabs are not allowed for indentation; use spaces/);
    expect(messages[1]).toMatch(/^stdin is not valid YAML \(line 1\d\): the quote " opened here is never closed/);
  });
});

describe('attacker probe, round 3: no parser sentence, cut or whole, reaches the user', () => {
  const secret = (stringData: string): string => `apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\nstringData:\n${stringData}`;

  it('a key of 3000 characters (it said "not valid YAML: The"): the 1024-character limit, the key not quoted (KRM)', () => {
    const r = run([], { input: resourceList([secret(`  ${'K'.repeat(3000)}: Xy9secret\n`)]) });
    expectOneError(
      r,
      'krm',
      /^stdin is not valid YAML \(line \d+\): this key is longer than the 1024 characters YAML allows for a key; shorten it \(column 7\)$/,
    );
    expect(r.stdout + r.stderr).not.toContain('KKKKKKKKKK');
    expect(r.stdout + r.stderr).not.toContain('Xy9');
  });

  it('`: ` inside a `{…}` value (it said "Block collections are not allowed within flow collections"), in build and KRM', () => {
    const text = secret('  a: b\ndata: {password: Xy9: secret}\n').replace('stringData:\n  a: b\n', '');
    const message =
      'a value inside `{…}` holds `: `, which YAML cannot read there; quote the value (\'…\' or "…"), or if it is two entries, put a `,` between them';
    const build = run(['build', writeTree(tempDir(), { 'secret.yaml': text })]);
    expectOneError(build, 'build', new RegExp(`secret\\.yaml:5: not valid YAML: ${escaped(message)} \\(column 18\\)$`));
    const krm = run([], { input: resourceList([text]) });
    expectOneError(krm, 'krm', new RegExp(`^stdin is not valid YAML \\(line 8\\): ${escaped(message)} \\(column 22\\)$`));
    expect(build.stderr + krm.stdout + krm.stderr).not.toContain('Xy9');
  });

  it('an unclosed quote before a `---` (it said "everything up to line 2" on line 2): where it opened, and the `---` it ran over', () => {
    const quote = (rest: string): string =>
      `q.yaml:2: not valid YAML: the quote " opened here is never closed${rest}; end the value with " on this line (column 4)`;
    const runOn = (text: string): string[] => {
      const r = run(['build', writeTree(tempDir(), { 'q.yaml': text })]);
      expectNoCrash(r);
      expect(r.status).toBe(1);
      return stderrLines(r).map((line) => line.replace(/^.*(?=q\.yaml:)/, ''));
    };
    expect(runOn('a: 1\nd: "x\ne: 1\n---\nb: 1\n')).toEqual([
      quote(', so the rest of the file (the `---` on line 4 and the documents after it too) was read as one text'),
    ]);
    expect(runOn('a: 1\nd: "x\n---\nb: "1"\n')[0]).toBe(quote(' before the `---` on line 3'));
  });
});

describe('the quickstart LLSD with one line mis-indented (issue 18 probe): one error, at the line to edit, in one run', () => {
  const quickstart = quickstartText();
  const lineOf = (start: string): number => quickstart.split('\n').findIndex((line) => line.trimStart().startsWith(start)) + 1;
  const edited = (line: number, edit: (text: string) => string): string =>
    quickstart
      .split('\n')
      .map((text, i) => (i === line - 1 ? edit(text) : text))
      .join('\n');
  const buildLines = (text: string): string[] => {
    const r = run(['build', writeTree(tempDir(), { 'llsd.yaml': text })]);
    expectOneError(r, 'build', /./);
    return stderrLines(r).map((line) => line.replace(/^.*llsd\.yaml:/, ''));
  };

  it('`endpoint:` moved one column left: its own line and the column of `provider` (it blamed the next line first)', () => {
    const endpoint = lineOf('endpoint:');
    expect(buildLines(edited(endpoint, (text) => text.slice(1)))).toEqual([
      `${endpoint}: not valid YAML: this line starts at column 6, but the keys of one mapping must start at the same column: indent it to column 7 like ` +
        `\`provider\` (line ${endpoint - 1}, column 7) (column 6)`,
    ]);
  });

  it('a tab before `provider:`: the tab only, no false "indent it" for the correct `resources:` below', () => {
    const provider = lineOf('provider:');
    expect(buildLines(edited(provider, (text) => `\t${text.trimStart()}`))).toEqual([
      `${provider}: not valid YAML: tabs are not allowed for indentation; use spaces (column 1)`,
    ]);
  });
});

describe('KRM mode: an invalid ResourceList apiVersion or kind is quoted in at most 100 characters', () => {
  it('a 5 MB apiVersion: one short line, that says how long it was', () => {
    const huge = 'x'.repeat(5_000_000);
    const dir = tempDir();
    const input = join(dir, 'list.yaml');
    writeFileSync(input, `apiVersion: ${huge}\nkind: ResourceList\nitems: []\n`);
    const r = run([], { input: readFileSync(input, 'utf8') });
    expectNoCrash(r);
    expect(r.status).toBe(1);
    expect(stderrLines(r)).toEqual([
      `stdin must hold a ResourceList (apiVersion: config.kubernetes.io/v1, kind: ResourceList), not ${'x'.repeat(100)}… (4,999,900 more characters) ` +
        `ResourceList; to render YAML files, run \`llsd-render build PATH\``,
    ]);
    expect(r.stdout.length).toBeLessThan(1000);
  });

  it('a kind with a line break: escaped, so it cannot forge a second result line', () => {
    const r = run([], { input: 'apiVersion: config.kubernetes.io/v1\nkind: "List\\nllama.yaml:1: forged"\nitems: []\n' });
    expect(r.status).toBe(1);
    expect(stderrLines(r)).toHaveLength(1);
    expect(stderrLines(r)[0]).toContain('config.kubernetes.io/v1 List\\nllama.yaml:1: forged;');
  });
});

describe('a tag the user wrote on a value is value text: never quoted (issue 29 L1)', () => {
  // `token: !Xy9-LIVE-secret` is a tag in YAML; the whole tag was quoted in the message in every mode.
  const marker = 'Xy9-LIVE-secret';
  const secretDoc = `apiVersion: v1\nkind: Secret\nmetadata:\n  name: creds\n  namespace: llama\nstringData:\n  token: !${marker}\n`;
  const tokenLine = 7;
  const says = (field: string): RegExp =>
    new RegExp(
      `the value of \`${escaped(field)}\` starts with \`!\`, which YAML reads as a tag \\(not repeated here: it may be part of a secret\\) that makes it ` +
        `text, not what its text says; if the \`!\` is part of the text, quote the whole value \\('!…' or "!…"\\), else remove the tag \\(column \\d+\\)$`,
    );

  it.each(['build', 'validate', 'convert', 'convert --to ogx.io/v1beta1'])('%s: the field path, line and column, not the tag', (command) => {
    const dir = writeTree(tempDir(), { 'llsd.yaml': quickstartText(), 'secret.yaml': secretDoc });
    const r = run([...command.split(' '), dir]);
    expectNoCrash(r);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`secret\\.yaml:${tokenLine}: not valid YAML: ${says('stringData.token').source}`, 'm'));
    expect(r.stdout + r.stderr).not.toContain('Xy9');
  });

  it('KRM mode: the same, with the item\'s path in the ResourceList', () => {
    const input = resourceList([quickstartText(), secretDoc]);
    const r = run([], { input });
    expectNoCrash(r);
    expect(r.status).toBe(1);
    expect(parseResourceList(r.stdout).results[0]?.message).toMatch(says('items[1].stringData.token'));
    expect(r.stdout + r.stderr).not.toContain('Xy9');
  });

  it('image-labels: a config.yaml with `api_key: !…` names the field, not the tag', () => {
    const config = 'version: 2\ndistro_name: starter\nproviders:\n  inference:\n    - provider_id: x\n      config:\n        api_key: !Xy9-LIVE-secret\n';
    const file = join(tempDir(), 'config.yaml');
    writeFileSync(file, config);
    const r = run(['image-labels', file]);
    expectNoCrash(r);
    expect(r.status).toBe(1);
    expect(r.stderr.trimEnd()).toMatch(says('providers.inference[0].config.api_key'));
    expect(r.stderr).toMatch(/line 7/);
    expect(r.stdout + r.stderr).not.toContain('Xy9');
  });
});

describe('two documents without `---` between them (issue 29, new user)', () => {
  // "the key apiVersion appears twice; keep only one" led the user to merge a Secret into the LLSD.
  const secretDoc = 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: creds\n  namespace: llama\nstringData:\n  token: t\n';
  const text = `${quickstartText()}${secretDoc}`;
  const second = text.split('\n').indexOf('apiVersion: v1') + 1;
  const hint = /the key "apiVersion" appears twice at the top of this document: a `---` line is probably missing before this line, between two documents/;

  it('build and KRM: one error, at the second object\'s first line, saying that a `---` is probably missing', () => {
    const build = run(['build', writeTree(tempDir(), { 'llsd.yaml': text })]);
    expectOneError(build, 'build', new RegExp(`llsd\\.yaml:${second}: not valid YAML: ${hint.source}`));
    // In a ResourceList, the second object ran into the first item: the hint says both causes.
    const krm = run([], { input: resourceList([text]) });
    expectOneError(krm, 'krm', /the key "apiVersion" appears twice in one item of `items`: if kpt or kustomize read the item from your files, a `---` line/);
    expect(krm.stderr).toContain('in a ResourceList written by hand, a `- ` before this line');
  });

  it('under real kpt (which hands the file over as one item): the hint names the `---` (a new user was told to add a `- `)', () => {
    const kpt = requireTool('kpt');
    const dir = writeTree(tempDir(), { 'Kptfile': 'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: pkg\n', 'llsd.yaml': text });
    const r = spawnSync(kpt, ['fn', 'eval', dir, '--exec', `${process.execPath} ${requireBundle()}`], { encoding: 'utf8' });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/a `---` line is probably missing between two objects in that file/);
    expect(readFileSync(join(dir, 'llsd.yaml'), 'utf8')).toBe(text);
  });
});

/** The documents of a YAML stream as PyYAML (llama-stack's reader, YAML 1.1) reads them, as JSON. */
function pyyaml(text: string): unknown[] {
  const script = 'import json, sys, yaml\nprint(json.dumps(list(yaml.safe_load_all(sys.stdin.read()))))';
  const r = spawnSync('python3', ['-c', script], { input: text, encoding: 'utf8' });
  if (r.error || r.status !== 0)
    throw new Error(`python3 with PyYAML is needed for this test (Debian: apt-get install python3-yaml): ${r.error?.message ?? r.stderr}`);
  return JSON.parse(r.stdout) as unknown[];
}

describe('NEL, line and paragraph separators are written escaped (issue 29 N1)', () => {
  // `yaml` wrote them raw inside double quotes; PyYAML and kpt read a raw U+0085 as a line break
  // folded to a space, so a pass-through ConfigMap changed on disk.
  const data = { nel: 'x\u0085y', ls: 'x\u2028y', ps: 'p\u2029q', lead: '\u0085 lead', c1: 'a\u0090b' };
  const cm = configMap('data:\n  nel: "x\\Ny"\n  ls: "x\\Ly"\n  ps: "p\\Pq"\n  lead: "\\N lead"\n  c1: "a\\u0090b"\n');

  const raw = /[\u0085\u2028\u2029\u0080-\u009f]/;

  it('a pass-through ConfigMap in build and KRM: no raw character in the output, and PyYAML reads the values as we did', () => {
    const build = run(['build', writeTree(tempDir(), { 'cm.yaml': cm })]);
    expect(build.status, build.stderr).toBe(0);
    expect(build.stdout).not.toMatch(raw);
    expect((pyyaml(build.stdout)[0] as { data: unknown }).data).toEqual(data);
    const krm = run([], { input: resourceList([cm]) });
    expect(krm.status, krm.stderr).toBe(0);
    expect(krm.stdout).not.toMatch(raw);
    expect((pyyaml(krm.stdout)[0] as { items: Array<{ data: unknown }> }).items[0]?.data).toEqual(data);
    // And what we write reads back the same through us (build of our own output).
    const again = run(['build', writeTree(tempDir(), { 'cm.yaml': build.stdout })]);
    expect(again.stdout).toBe(build.stdout);
  });

  it('kpt fn eval with the bundle as exec function: the file on disk keeps its values (PyYAML reads them back)', () => {
    const kpt = requireTool('kpt');
    const dir = writeTree(tempDir(), { 'Kptfile': 'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: pkg\n', 'cm.yaml': cm });
    const r = spawnSync(kpt, ['fn', 'eval', dir, '--exec', `${process.execPath} ${requireBundle()}`], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const written = readFileSync(join(dir, 'cm.yaml'), 'utf8');
    expect(written).not.toMatch(raw);
    expect((pyyaml(written)[0] as { data: unknown }).data).toEqual(data);
  });

  it('LLSD settings holding them: the generated config.yaml escapes them, and PyYAML reads the value back', () => {
    const settings = '      settings:\n        fairness_header_attribute: "a\\Nb\\Lc\\Pd"\n';
    const llsd = quickstartText().replace('      provider: vllm\n', `      provider: vllm\n${settings}`);
    const r = run(['build', writeTree(tempDir(), { 'llsd.yaml': llsd })]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(raw);
    const configMaps = pyyaml(r.stdout).filter((o) => (o as { kind?: string }).kind === 'ConfigMap') as Array<{ data: Record<string, string> }>;
    const config = Object.values(configMaps[0]?.data ?? {})[0] ?? '';
    expect(config).not.toMatch(raw);
    expect(JSON.stringify(pyyaml(config)[0])).toContain(JSON.stringify('a\u0085b\u2028c\u2029d').slice(1, -1));
  });
});

describe('a lone surrogate escape is refused at read, at the field (issue 29 U1)', () => {
  // `"\ud800"` (JSON or YAML) became U+FFFD through `convert --to v1alpha1`: the value changed silently.
  const says = (field: string): RegExp =>
    new RegExp(`\`${escaped(field)}\` holds an unpaired surrogate escape .* write the character itself, or escape it whole .*\\(column \\d+\\)$`);
  const settings = '      settings:\n        fairness_header_attribute: "a\\ud800b"\n';
  const yamlLlsd = quickstartText().replace('      provider: vllm\n', `      provider: vllm\n${settings}`);
  const jsonLlsd = JSON.stringify({
    apiVersion: 'llamastack.io/v1alpha2',
    kind: 'LlamaStackDistribution',
    metadata: { name: 'j', namespace: 'llama' },
    spec: { distribution: { name: 'starter' }, providers: { inference: { provider: 'vllm', endpoint: 'http://v:8000/v1', settings: { x: 'MARK' } } } },
  }).replace('MARK', '\\udc00');

  it.each([
    ['llsd.yaml', yamlLlsd, 'spec.providers.inference.settings.fairness_header_attribute'],
    ['llsd.json', jsonLlsd, 'spec.providers.inference.settings.x'],
  ])('%s: convert --to v1alpha1, build and KRM refuse it with the field path; nothing printed, no U+FFFD', (file, text, field) => {
    // A JSON file is read when named (a folder gives its .yaml and .yml files).
    const path = join(writeTree(tempDir(), { [file]: text }), file);
    for (const args of [['convert', '--to', 'v1alpha1', path], ['build', path]]) {
      const r = run(args);
      expectOneError(r, 'build', says(field));
      expect(r.stdout).not.toContain('\ufffd');
    }
    const krm = run([], { input: resourceList([yamlLlsd]) });
    expectOneError(krm, 'krm', says(`items[0].spec.providers.inference.settings.fairness_header_attribute`));
  });

  it('a whole pair, escaped in two halves, is one character and passes', () => {
    const r = run(['build', writeTree(tempDir(), { 'cm.yaml': configMap('data:\n  k: "\\ud83d\\ude00"\n') })]);
    expect(r.status, r.stderr).toBe(0);
    expect(parseStream(r.stdout)[0]).toMatchObject({ data: { k: '\u{1F600}' } });
  });
});

describe('merge keys `<<` (an outside probe: written back as the key "<<", which kustomize then read without the merged keys)', () => {
  it('a pass-through ConfigMap keeps `<<` a merge key: a YAML 1.1 reader (PyYAML, as kubectl and kustomize) reads the merged data', () => {
    const cm = configMap('data:\n  <<: {a: "1"}\n  b: "2"\n  base: &base {x: "1"}\n  other:\n    <<: *base\n');
    const r = run(['build', writeTree(tempDir(), { 'cm.yaml': cm })]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('"<<"');
    expect((pyyaml(r.stdout)[0] as { data: unknown }).data).toEqual({ a: '1', b: '2', base: { x: '1' }, other: { x: '1' } });
  });

  it('an LLSD whose spec merges a mapping in (block and flow) renders as if the keys were written out (block style, which the block reader hands to yaml)', () => {
    const merged = quickstartText().replace('spec:\n  distribution:\n    name: starter\n', 'spec:\n  <<:\n    distribution:\n      name: starter\n');
    expect(merged).toContain('  <<:\n');
    const plain = run(['build', writeTree(tempDir(), { 'llsd.yaml': quickstartText() })]);
    const r = run(['build', writeTree(tempDir(), { 'llsd.yaml': merged })]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(plain.stdout);
  });
});
