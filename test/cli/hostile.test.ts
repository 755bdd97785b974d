// Hostile input through the built bundle (issue 8): deep nesting, binary garbage, inputs over the
// size limit, error-dense input under it, a mapping with 100,000 keys, keys that are collections,
// prototype-named keys, output that cannot be written, paths that leave the package.
// Every case ends with exit 1 and one clear line, or renders as it should; never a crash, never
// partial output. Alias bombs are in bad-input.test.ts; long names in test/unit/manifests.test.ts.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  expectNoCrash,
  occurrences,
  parseResourceList,
  quickstartText,
  repoRoot,
  requireBundle,
  resourceList,
  run,
  stderrLines,
  tempDir,
  writeTree,
  type RunResult,
} from './run.js';

const nested = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const configMap = (name: string, data: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  x: ${data}\n`;

/** One error, exit 1, nothing rendered: the KRM form (a ResourceList with the result) or build (empty stdout). */
function expectOneError(r: ReturnType<typeof run>, mode: 'krm' | 'build', message: RegExp): void {
  expectNoCrash(r);
  expect(r.status, r.stderr).toBe(1);
  expect(stderrLines(r)).toHaveLength(1);
  expect(stderrLines(r)[0]).toMatch(message);
  if (mode === 'build') expect(r.stdout).toBe('');
  else {
    const list = parseResourceList(r.stdout);
    expect(list.items).toEqual([]);
    expect(list.results.map((x) => x.severity)).toEqual(['error']);
  }
}

/** `run` with the peak resident set size of the process (getrusage ru_maxrss), written on exit by a preload. */
function runMeasured(args: readonly string[], extraEnv: NodeJS.ProcessEnv = {}): RunResult & { maxRss: number } {
  const dir = tempDir();
  const rssFile = join(dir, 'max-rss');
  const preload = join(dir, 'max-rss.cjs');
  writeFileSync(
    preload,
    `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(rssFile)}, String(process.resourceUsage().maxRSS * 1024)));\n`,
  );
  const env: NodeJS.ProcessEnv = { ...process.env, ...extraEnv };
  delete env.NODE_OPTIONS;
  delete env.LLSD_RENDER_DEBUG;
  const r = spawnSync(process.execPath, ['--require', preload, requireBundle(), ...args], { cwd: repoRoot, env, encoding: 'utf8', timeout: 60_000 });
  if (r.error) throw r.error;
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr, maxRss: Number(readFileSync(rssFile, 'utf8')) };
}

describe('deep nesting', () => {
  it('100,000 levels on stdin: one error naming the limit, not a stack overflow', () => {
    expectOneError(
      run([], { input: resourceList([configMap('deep', nested(100_000))]) }),
      'krm',
      /nests collections more than 400 levels deep; no Kubernetes object is that deep$/,
    );
  });

  it('1,000 levels in a file: the file and the line', () => {
    const dir = writeTree(tempDir(), { 'deep.yaml': configMap('deep', nested(1000)) });
    expectOneError(
      run(['build', dir]),
      'build',
      /deep\.yaml:\d+: not valid YAML: nests collections more than 400 levels deep; no Kubernetes object is that deep$/,
    );
  });

  it('1,000 levels inside an overrideConfig config.yaml (a string in a ConfigMap): an error at the LLSD field', () => {
    const override = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: mine, namespace: ai}\ndata:\n  config.yaml: '${`a: ${nested(1000)}`}'\n`;
    const llsd =
      'apiVersion: llamastack.io/v1alpha2\nkind: LlamaStackDistribution\nmetadata: {name: demo, namespace: ai}\nspec:\n  distribution: {image: ' +
        '"quay.io/me/x:0.7.1"}\n  overrideConfig: {configMapName: mine}\n';
    const dir = writeTree(tempDir(), { 'override.yaml': override, 'llsd.yaml': llsd });
    const r = run(['build', dir]);
    expectNoCrash(r);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/spec\.overrideConfig\.configMapName: .*nests collections more than 400 levels deep/);
  });

  it('100 levels in an ordinary object pass through untouched', () => {
    const r = run([], { input: resourceList([configMap('fine', nested(100))]) });
    expect(r.status, r.stderr).toBe(0);
    expect(parseResourceList(r.stdout).items).toHaveLength(1);
  });
});

describe('binary garbage', () => {
  const garbage = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256)).toString('latin1');

  it('on stdin: one error saying it is binary data, not hundreds of syntax errors', () => {
    expectOneError(run([], { input: garbage }), 'krm', /holds the control character U\+[0-9A-F]{4}: this is binary data, not YAML text$/);
  });

  it('as a .yaml file among good ones: that file is named; nothing is printed', () => {
    const dir = writeTree(tempDir(), { 'llsd.yaml': quickstartText(), 'blob.yaml': garbage });
    const r = run(['build', dir]);
    expectNoCrash(r);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(stderrLines(r).filter((l) => l.includes(': error: ') || l.includes('binary'))).toEqual([
      expect.stringMatching(/blob\.yaml:\d+: .*this is binary data, not YAML text$/),
    ]);
  });
});

describe('input over the size limit (32 MiB by default)', () => {
  it('50 MB on stdin: refused at once with the limit and what to do, memory bounded', () => {
    const filler = configMap('filler', `"${'x'.repeat(1000)}"`);
    const input = resourceList(Array.from({ length: 50 * 1024 }, () => filler));
    expect(input.length).toBeGreaterThan(50 * 1024 * 1024);
    expectOneError(
      run([], { input }),
      'krm',
      /^stdin is larger than 32 MiB, the most llsd-render reads at once .*: split the package, or set LLSD_RENDER_MAX_INPUT_MB$/,
    );
  });

  it('a file over LLSD_RENDER_MAX_INPUT_MB in build: that file is named', () => {
    const dir = writeTree(tempDir(), { 'big.yaml': configMap('big', `"${'y'.repeat(2 * 1024 * 1024)}"`), 'llsd.yaml': quickstartText() });
    const r = run(['build', dir], { env: { LLSD_RENDER_MAX_INPUT_MB: '1' } });
    expectNoCrash(r);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/big\.yaml: is larger than 1 MiB, the most llsd-render reads at once .*: split the package, or set LLSD_RENDER_MAX_INPUT_MB\n/);
  });
});

describe('error-dense input under the size limit', () => {
  it('20 MB of `]` lines: the first ten errors and a line saying reading stopped, in bounded memory (not an error object per line)', () => {
    const dir = writeTree(tempDir(), { 'garbage.yaml': ']\n'.repeat(10_000_000) });
    // A limit that lets its 10,000,000 lines through to the parser (at 32 MiB they are refused first: below).
    const r = runMeasured(['build', dir], { LLSD_RENDER_MAX_INPUT_MB: '320' });
    expectNoCrash(r);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    const lines = stderrLines(r);
    expect(lines).toHaveLength(11);
    expect(lines[0]).toMatch(
      /garbage\.yaml:1: not valid YAML: a `\]` with no `\[` open before it; remove it, or quote the value it belongs to \('…' or "…"\) \(column 1\)$/,
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/garbage\.yaml: not valid YAML: and more problems like these; llsd-render stops reading after 100 errors$/),
    );
    expect(r.maxRss).toBeLessThan(600 * 1024 * 1024);
  });
});

describe('many short lines or list items under the size limit (the parser needs about 1 kB a node)', () => {
  it('a file of 1,100,000 lines `- a` (4.4 MB): refused for its lines before parsing, in bounded memory', () => {
    const dir = writeTree(tempDir(), {
      'dense.yaml': `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: dense\ndata:\n  l:\n${'  - a\n'.repeat(1_100_000)}`,
      'llsd.yaml': quickstartText(),
    });
    const r = runMeasured(['build', dir]);
    expectNoCrash(r);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(stderrLines(r).filter((line) => !line.includes(': warning: '))).toEqual([
      expect.stringMatching(
        /dense\.yaml: has more than 1,048,576 lines and commas, the most llsd-render parses at once with the 32 MiB limit \(.*\): split it, or set LLSD_RENDER_MAX_INPUT_MB$/,
      ),
    ]);
    expect(r.maxRss).toBeLessThan(300 * 1024 * 1024);
  });

  it('on stdin, with LLSD_RENDER_MAX_INPUT_MB=1 (32,768 lines): the error in the ResourceList; 32,000 lines still render', () => {
    const dense = (lines: number) => resourceList([`apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: dense\ndata:\n  l: |\n${'    a\n'.repeat(lines)}`]);
    const env = { LLSD_RENDER_MAX_INPUT_MB: '1' };
    expectOneError(
      run([], { input: dense(40_000), env }),
      'krm',
      /^stdin has more than 32,768 lines and commas, the most llsd-render parses at once with the 1 MiB limit/,
    );
    const fits = run([], { input: dense(32_000), env });
    expect(fits.status, fits.stderr).toBe(0);
  });

  it('one line of a flow list with 40,000 items (LLSD_RENDER_MAX_INPUT_MB=1): counted by its commas, refused', () => {
    const list = resourceList([`apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: flow\ndata:\n  l: [${Array(40_000).fill('a').join(',')}]\n`]);
    expectOneError(run([], { input: list, env: { LLSD_RENDER_MAX_INPUT_MB: '1' } }), 'krm', /^stdin has more than 32,768 lines and commas/);
  });
});

describe('one mapping with 100,000 keys (keys are checked in one pass, not each against all before it)', () => {
  const wide = (extra = ''): string =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: wide\ndata:\n${Array.from({ length: 100_000 }, (_, i) => `  key-${i}: value-${i}\n`).join('')}${extra}`;

  it('a ConfigMap with 100,000 data keys renders through build', () => {
    const r = run(['build', writeTree(tempDir(), { 'wide.yaml': wide() })]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(occurrences(r.stdout, '\n  key-')).toBe(100_000);
    expect(r.stdout).toContain('\n  key-99999: value-99999\n');
  });

  it('the same ConfigMap with its first key repeated last: that key and its line', () => {
    const r = run(['build', writeTree(tempDir(), { 'wide.yaml': wide('  key-0: again\n') })]);
    expectOneError(r, 'build', /wide\.yaml:100006: not valid YAML: the key "key-0" appears twice in one mapping; keep only one$/);
  });
});

describe('keys that are sequences or mappings (JSON and Kubernetes have string keys only)', () => {
  const withKey = (key: string): string => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: keys\ndata:\n  ${key}\n`;
  const noNodeWarning = (r: RunResult): void => expect(r.stderr.split('\n').filter((line) => line.startsWith('(node:'))).toEqual([]);

  it.each([
    ['[a, b]: 1', 'this key is a sequence', 3],
    ['? [a, b]\n  : 1', 'this key is a sequence', 5],
    ['? [a, b]: 1', 'this key is a mapping', 5],
  ])('%j in a file: one error at its line, no warning from Node on stderr', (key, message, column) => {
    const r = run(['build', writeTree(tempDir(), { 'keys.yaml': withKey(key) })]);
    noNodeWarning(r);
    expectOneError(
      r,
      'build',
      new RegExp(
        `/keys\\.yaml:6: not valid YAML: ${message}; a mapping key must be a string or a number \\(quote the key to keep it as text\\) \\(column ${column}\\)$`,
      ),
    );
  });

  it('on stdin: the error result in the ResourceList, no warning from Node on stderr', () => {
    const r = run([], { input: resourceList([withKey('? [a, b]: 1')]) });
    noNodeWarning(r);
    expectOneError(
      r,
      'krm',
      /^stdin is not valid YAML \(line \d+\): this key is a mapping; a mapping key must be a string or a number \(quote the key to keep it as text\) \(column 9\)$/,
    );
  });
});

describe('a value with no key (attacker round 7: `a: [x]: y` read as `{a: [x], "": y}` and written as `: "y"`)', () => {
  const withData = (line: string): string => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: keys\ndata:\n  ${line}\n`;
  it.each([
    ['a: [x]: y', 11],
    ['a: {x: y}: z', 14],
  ])('%j: one error at its line saying to quote the value, nothing printed', (line, column) => {
    const r = run(['build', writeTree(tempDir(), { 'keys.yaml': withData(line) })]);
    expectOneError(
      r,
      'build',
      new RegExp(
        `/keys\\.yaml:6: not valid YAML: this value has no key before its \`:\`: if the text before the \`:\` belongs to one value \\(as in \`a: \\[x\\]: ` +
          `y\`\\), quote that whole value; else write the key \\(column ${column}\\)$`,
      ),
    );
  });

  it('the value quoted, and a quoted empty key, render', () => {
    const r = run(['build', writeTree(tempDir(), { 'keys.yaml': withData('a: "[x]: y"\n  "": z') })]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('a: "[x]: y"');
  });
});

describe('prototype-named keys', () => {
  const withSettings = (settings: string): string => quickstartText().replace(/(\n\s+provider: vllm\n)/, `$1      settings:\n${settings}`);

  it('constructor and prototype in settings are plain config keys of that provider: the release schema names each, nothing is polluted', () => {
    const dir = writeTree(tempDir(), { 'llsd.yaml': withSettings('        constructor: {prototype: {polluted: yes}}\n        prototype: plain\n') });
    const out = run(['build', dir]);
    expectNoCrash(out);
    // vLLM defines neither key, so the config that would carry them is refused, each key by name.
    expect(out.status).toBe(1);
    expect(out.stdout).toBe('');
    const named = stderrLines(out).filter((l) => l.includes('does not fit the schema'));
    expect(named).toEqual([
      expect.stringMatching(
        /`providers\.inference\[\d+\]\.config\.constructor` is not a remote::vllm setting in OGX [\d.]+; the server silently ignores it\./,
      ),
      expect.stringMatching(
        /`providers\.inference\[\d+\]\.config\.prototype` is not a remote::vllm setting in OGX [\d.]+; the server silently ignores it\./,
      ),
    ]);
    expect(out.stderr).not.toContain('polluted');
  });

  it('__proto__ anywhere in an LLSD: an error at its path, not a key silently lost', () => {
    const dir = writeTree(tempDir(), { 'llsd.yaml': withSettings('        __proto__: {polluted: yes}\n') });
    const r = run(['build', dir]);
    expectNoCrash(r);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /llsd\.yaml:\d+: llama\/quickstart: spec\.providers\.inference\.settings\.__proto__: is not a key llsd-render can carry \(JavaScript reserves it\) and no llama-stack setting has this name; remove it/,
    );
  });
});

describe('output that cannot be written (build -o DIR)', () => {
  it('a file where a directory must go: exit 1, one line, the files already there unchanged, no temporary files', () => {
    const out = tempDir();
    writeFileSync(join(out, 'llama'), 'a file where llsd-render needs the directory llama/\n');
    writeFileSync(join(out, 'keep.yaml'), 'kind: Keep\n');
    const r = run(['build', '-o', out, 'examples/quickstart']);
    expectNoCrash(r);
    expect(r.status).toBe(1);
    // Checked before anything is written (test/cli/output-dir.test.ts has the other cases).
    expect(stderrLines(r).filter((l) => !l.includes(': warning: '))).toEqual([
      `${join(out, 'llama')}: is a file where llsd-render needs a directory for llama/quickstart.yaml: move it away, or choose another -o DIR`,
    ]);
    expect(readdirSync(out).sort()).toEqual(['keep.yaml', 'llama']);
    expect(readFileSync(join(out, 'llama'), 'utf8')).toMatch(/^a file/);
  });
});

describe('RenderConfig paths that try to leave the package', () => {
  const llsd = (file: string) =>
    `apiVersion: llamastack.io/v1alpha2\nkind: LlamaStackDistribution\nmetadata:\n  name: demo\n  namespace: ai\n  annotations:\n    ` +
      `config.kubernetes.io/path: ${file}\n    internal.config.kubernetes.io/path: ${file}\nspec:\n  distribution: {name: starter}\n`;
  it.each(['../{name}.yaml', '{dir}/../../{name}.yaml', '/etc/{name}.yaml'])('outputPath %s: an error, the package untouched', (outputPath) => {
    const fc = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fn\ndata:\n  outputPath: "${outputPath}"\n`;
    const r = run([], { input: resourceList([llsd('apps/llsd.yaml')], fc) });
    expectNoCrash(r);
    expect(r.status).toBe(1);
    expect(stderrLines(r).join('\n')).toMatch(/leaves the package; use a path under the package such as "\{dir\}\/\{name\}\.generated\.yaml"/);
    expect(parseResourceList(r.stdout).items).toHaveLength(1);
  });

  it.each([
    ['{dir}/llsd.yaml', 'is a file of the package that holds other objects (kpt would refuse to write there)'],
    ['{dir}', 'is not a .yaml file (kpt writes objects only to YAML files)'],
    ['Kptfile', 'is not a .yaml file (kpt writes objects only to YAML files)'],
  ])('outputPath %s (a file kpt cannot write to): an error naming it, the package untouched', (outputPath, why) => {
    const fc = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fn\ndata:\n  outputPath: "${outputPath}"\n`;
    const r = run([], { input: resourceList([llsd('apps/llsd.yaml')], fc) });
    expectNoCrash(r);
    expect(r.status).toBe(1);
    expect(stderrLines(r).join('\n')).toContain(
      `(from the \`outputPath\` option "${outputPath}") ${why}; use a file of its own such as "{dir}/{name}.generated.yaml"`,
    );
    expect(parseResourceList(r.stdout).items).toHaveLength(1);
  });

  it('a configPath outside the RenderConfig\'s directory: an error, the file not read', () => {
    const root = tempDir();
    mkdirSync(join(root, 'pkg'));
    writeFileSync(join(root, 'secret-base.yaml'), 'version: 2\n');
    writeTree(join(root, 'pkg'), {
      'options.yaml':
        'apiVersion: fn.llamastack.io/v1alpha1\nkind: RenderConfig\nmetadata:\n  name: options\nspec:\n  distributions:\n    mine:\n      image: ' +
          'quay.io/me/mine:0.7.1\n      configPath: ../secret-base.yaml\n',
      'llsd.yaml': quickstartText(),
    });
    const r = run(['build', join(root, 'pkg')]);
    expectNoCrash(r);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/spec\.distributions\.mine\.configPath: "\.\.\/secret-base\.yaml" leaves the directory of the file that holds the RenderConfig/);
    expect(existsSync(join(root, 'pkg', 'secret-base.yaml'))).toBe(false);
  });
});

describe('a configPath that is a fifo (attacker probe round 2: the open blocked forever)', () => {
  it('an error naming it, at once', () => {
    const root = tempDir();
    writeTree(root, {
      'options.yaml':
        'apiVersion: fn.llamastack.io/v1alpha1\nkind: RenderConfig\nmetadata:\n  name: options\nspec:\n  distributions:\n    starter:\n      configPath: ' +
          'base.cfg\n',
      'llsd.yaml': quickstartText(),
    });
    expect(spawnSync('mkfifo', [join(root, 'base.cfg')]).status).toBe(0);
    const r = run(['build', root]);
    expectNoCrash(r);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/spec\.distributions\.starter\.configPath: "base\.cfg" is not a regular file: give the path of a config\.yaml file\n/);
  });
});

describe('aliases', () => {
  it('an alias to no anchor is said to be one, not an alias bomb', () => {
    const dir = writeTree(tempDir(), { 'alias.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata: {a: *nosuch}\n' });
    expectOneError(
      run(['build', dir]),
      'build',
      /alias\.yaml:5: not valid YAML: this alias \(`\*`\) names no anchor \(`&`\) set before it in this document; quote the value if the `\*` is part of the text, or set the anchor first \(column 11\)$/,
    );
  });
});

describe('a config.yaml larger than a ConfigMap holds (1 MiB of data)', () => {
  const models = (n: number, item: (name: string) => string): string =>
    Array.from({ length: n }, (_, i) => item(`example-org/a-rather-long-model-name-for-size-${String(i).padStart(6, '0')}`)).join('\n');

  it('an LLSD with 12,000 models: an error at spec with the size and what to do, nothing printed', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'llsd.yaml'), quickstartText().replace('      - meta-llama/Llama-3.2-3B-Instruct', models(12_000, (m) => `      - ${m}`)));
    const r = run(['build', join(dir, 'llsd.yaml')]);
    expectNoCrash(r);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /llama\/quickstart: spec: makes a config\.yaml of \d+ KiB, more than the 1024 KiB a ConfigMap can hold, so the API server would refuse it: .*spec\.overrideConfig/,
    );
  });

  it('an LLSD with 1,000 models (about 200 KiB) still renders', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'llsd.yaml'), quickstartText().replace('      - meta-llama/Llama-3.2-3B-Instruct', models(1_000, (m) => `      - ${m}`)));
    const r = run(['build', join(dir, 'llsd.yaml')]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('a-rather-long-model-name-for-size-000999');
  });

  it('an OGXServer with 12,000 models: the same error', () => {
    const dir = tempDir();
    const ogx =
      'apiVersion: ogx.io/v1beta1\nkind: OGXServer\nmetadata:\n  name: big\n  namespace: llama\nspec:\n  distribution:\n    name: starter\n' +
      `  providers:\n    inference:\n      remote:\n        vllm:\n        - endpoint: http://vllm:8000/v1\n  resources:\n    models:\n` +
        `${models(12_000, (m) => `    - name: ${m}`)}\n`;
    writeFileSync(join(dir, 'ogx.yaml'), ogx);
    const r = run(['build', join(dir, 'ogx.yaml')]);
    expectNoCrash(r);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/llama\/big: spec: makes a config\.yaml of \d+ KiB, more than the 1024 KiB a ConfigMap can hold/);
  });
});
