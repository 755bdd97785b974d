// Numbers as the server's reader (PyYAML, YAML 1.1) and JSON read them back (issue 29 follow-up,
// num lane): `1e21` was written `1e+21` into config.yaml, which PyYAML reads as a string; `-0.0`
// was written `-0`, the integer 0; `0x20000000000001`, `9007199254740993.0` and number keys beyond
// 2^53 were rounded; `1E400` became `.inf` in convert's conversion record (and null in the webhook's).
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { expectNoCrash, parseStream, quickstartText, run, stderrLines, tempDir, writeTree } from './run.js';

const withSettings = (settings: string): string => quickstartText().replace('      provider: vllm\n', `      provider: vllm\n      settings:\n${settings}`);
/** vLLM's `network.timeout` is a float (or a mapping) in every release: the release check lets any number through. */
const withTimeout = (timeout: string): string => withSettings(`        network:\n          timeout: ${timeout}\n`);

/** The config.yaml text in the generated ConfigMap of a build. */
const configText = (stdout: string): string => {
  const configMap = parseStream(stdout).find((o) => o.kind === 'ConfigMap') as { data: Record<string, string> } | undefined;
  return Object.values(configMap?.data ?? {})[0] ?? '';
};

/** Python's repr of what PyYAML (the server's reader) reads at `providers.inference[vllm].config.network` of config.yaml. */
function pyyamlNetwork(config: string): string {
  const script =
    'import sys, yaml\nc = yaml.safe_load(sys.stdin.read())\n' +
    "print(repr([p['config']['network'] for p in c['providers']['inference'] if p['provider_type'] == 'remote::vllm'][0]))";
  const r = spawnSync('python3', ['-c', script], { input: config, encoding: 'utf8' });
  if (r.error || r.status !== 0)
    throw new Error(`python3 with PyYAML is needed for this test (Debian: apt-get install python3-yaml): ${r.error?.message ?? r.stderr}`);
  return r.stdout.trim();
}

const build = (llsd: string): string => {
  const r = run(['build', writeTree(tempDir(), { 'llsd.yaml': llsd })]);
  expect(r.status, r.stderr).toBe(0);
  return configText(r.stdout);
};

describe('floats in config.yaml as PyYAML reads them', () => {
  it.each([
    ['1e21', '1.0e+21', '1e+21'],
    ['1e+21', '1.0e+21', '1e+21'],
    ['5e-7', '5.0e-7', '5e-07'],
    ['1.5e300', '1.5e+300', '1.5e+300'],
    ['0.25', '0.25', '0.25'],
    ['-0.0', '-0.0', '-0.0'],
    // An integer has no negative zero: `-0` is 0 to PyYAML as to every other reader.
    ['-0', '0', '0'],
    // YAML's own: PyYAML reads them as the floats they are.
    ['.inf', '.inf', 'inf'],
    ['-.inf', '-.inf', '-inf'],
  ])('timeout: %s is written `%s`, which PyYAML reads as %s', (written, emitted, python) => {
    const config = build(withTimeout(written));
    expect(config).toContain(` timeout: ${emitted}\n`);
    expect(pyyamlNetwork(config)).toContain(`'timeout': ${python}}`);
  });
});

describe('integers beyond 2^53 in another base or as a float, and as keys: kept, not rounded', () => {
  it.each([
    ['0x20000000000001', '9007199254740993', '9007199254740993'],
    ['0o400000000000000001', '9007199254740993', '9007199254740993'],
    // A float stays a float, with the digits written (PyYAML rounds them as Python does).
    ['9007199254740993.0', '9007199254740993.0', '9007199254740992.0'],
    ['1e20', '1.0e+20', '1e+20'],
  ])('timeout: %s is written `%s` (PyYAML reads %s)', (written, emitted, python) => {
    const config = build(withTimeout(written));
    expect(config).toContain(` timeout: ${emitted}\n`);
    expect(pyyamlNetwork(config)).toContain(`'timeout': ${python}}`);
  });

  it.each([
    ['0x20000000000001', '9007199254740993'],
    ['9007199254740993', '9007199254740993'],
    ['9007199254740993.0', '9007199254740993.0'],
  ])('a key %s is the text %s, in config.yaml and in the conversion record', (key, text) => {
    const llsd = withSettings(`        network:\n          headers:\n            ${key}: v\n`);
    expect(pyyamlNetwork(build(llsd))).toContain(`'headers': {'${text}': 'v'}`);
    const down = run(['convert', '--to', 'v1alpha1', writeTree(tempDir(), { 'llsd.yaml': llsd })]);
    expectNoCrash(down);
    expect(down.stdout).toContain(`"headers":{"${text}":"v"}`);
  });
});

describe('numbers JSON cannot hold, in convert', () => {
  it.each([
    ['v1alpha1', '1E400'],
    ['v1alpha1', '.nan'],
    ['ogx.io/v1beta1', '-.inf'],
  ])('convert --to %s refuses timeout: %s at its field (the record held .inf or null)', (to, number) => {
    const r = run(['convert', '--to', to, writeTree(tempDir(), { 'llsd.yaml': withTimeout(number) })]);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(stderrLines(r).join('\n')).toMatch(
      /spec\.providers\.inference\.settings\.network\.timeout: must be a finite number: it is (infinite|not a number).*; write a number such as `1\.0e\+300`$/m,
    );
  });

  it('-0.0 and 9007199254740993.0 go down into the record and come back up as written', () => {
    const llsd = withSettings('        network:\n          timeout: -0.0\n          limits:\n            keepalive_expiry: 9007199254740993.0\n');
    const down = run(['convert', '--to', 'v1alpha1', writeTree(tempDir(), { 'llsd.yaml': llsd })]);
    expectNoCrash(down);
    expect(down.stdout).toContain('"network":{"timeout":-0.0,"limits":{"keepalive_expiry":9007199254740993.0}}');
    const up = run(['convert', writeTree(tempDir(), { 'llsd.yaml': down.stdout })]);
    expectNoCrash(up);
    expect(up.stdout).toContain('          timeout: -0.0\n          limits:\n            keepalive_expiry: 9007199254740993.0\n');
  });
});

describe('a conversion record nested as deep as input may be', () => {
  /** A v1alpha1 LLSD whose record holds v1alpha2 `settings` nested so that the record is `depth` levels deep. */
  const withRecord = (depth: number): string => {
    let settings: unknown = 1;
    for (let i = 0; i < depth - 5; i++) settings = { a: settings };
    const record = { apiVersion: 'llamastack.io/v1alpha2', spec: { providers: { inference: { provider: 'vllm', endpoint: 'http://v:8000/v1', settings } } } };
    return (
      'apiVersion: llamastack.io/v1alpha1\nkind: LlamaStackDistribution\nmetadata:\n  name: q\n  namespace: llama\n  annotations:\n' +
      `    llamastack.io/conversion-data: '${JSON.stringify(record)}'\nspec:\n  server:\n    distribution:\n      name: starter\n`
    );
  };
  const pyyamlReads = (text: string): boolean => {
    const r = spawnSync('python3', ['-c', 'import sys, yaml\nyaml.safe_load(sys.stdin.read())'], { input: text, encoding: 'utf8' });
    if (r.error) throw new Error(`python3 with PyYAML is needed for this test: ${r.error.message}`);
    return r.status === 0;
  };

  it('converts into YAML PyYAML reads at the most allowed (400); one level more is refused with the reason (499 converted, and PyYAML failed)', () => {
    const most = run(['convert', writeTree(tempDir(), { 'llsd.yaml': withRecord(401) })]);
    expect(most.status, most.stderr).toBe(0);
    expect(pyyamlReads(most.stdout)).toBe(true);
    const over = run(['convert', writeTree(tempDir(), { 'llsd.yaml': withRecord(402) })]);
    expect(over.status).toBe(1);
    expect(over.stdout).toBe('');
    expect(stderrLines(over).join('\n')).toMatch(
      /conversion-data"\]: nests objects and lists more than 400 levels deep, deeper than any record llsd-render writes; /,
    );
  });
});
