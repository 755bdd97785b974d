// Messages stay bounded and one line long whatever the input (issue 15, "Cost that grows out of
// bounds" and control characters): a 5 MB value is quoted up to 100 characters, 2,000 candidates
// are listed as 10 and a count, one mistake repeated 2,000 times gives 101 results, and a newline
// or terminal escape in a value is shown as `\n` / `\x1b`, never written. Sizes are asserted, not
// times (speed is the benchmark's); each message must still say what to write instead.
import { describe, expect, it } from 'vitest';
import { expectNoCrash, parseResourceList, quickstartText, resourceList, run, stderrLines, tempDir, writeTree } from './run.js';

const withDistribution = (name: string): string => quickstartText().replace('name: starter', `name: ${JSON.stringify(name)}`);

/** The quickstart with `count` inference providers and `count` models, each naming a provider that does not exist. */
function manyProviders(count: number): string {
  const providers = Array.from({ length: count }, (_, i) => `      - {provider: vllm, id: provider-number-${i}, endpoint: "http://h${i}:8000/v1"}\n`).join('');
  const models = Array.from({ length: count }, (_, i) => `      - {name: model-${i}, provider: missing-${i}}\n`).join('');
  const head = quickstartText().split('  providers:')[0] as string;
  return `${head}  providers:\n    inference:\n${providers}  resources:\n    models:\n${models}`;
}

describe('a huge value is quoted in part', () => {
  it('a 5 MB distribution name: one error under 1 kB that still names the distributions to use', () => {
    const dir = writeTree(tempDir(), { 'llsd.yaml': withDistribution('x'.repeat(5_000_000)) });
    const r = run(['build', dir]);
    expectNoCrash(r);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    const error = stderrLines(r).find((line) => line.includes('spec.distribution.name'));
    expect(error).toMatch(
      /spec\.distribution\.name: unknown distribution "x{100}…" \(4,999,900 more characters\)\. Known distributions: .*starter.*; or set `spec\.distribution\.image` instead\.$/,
    );
    expect((error as string).length).toBeLessThan(1000);
    expect(r.stderr.length).toBeLessThan(2000);
  });

  it('a 2 MB tool name: quoted in part, with the known tools', () => {
    const llsd = `${quickstartText()}    tools:\n      - ${'t'.repeat(2_000_000)}\n`;
    const dir = writeTree(tempDir(), { 'llsd.yaml': llsd });
    const r = run(['build', dir]);
    expectNoCrash(r);
    expect(r.status).toBe(1);
    const error = stderrLines(r).find((line) => line.includes('spec.resources.tools[0]'));
    expect(error).toMatch(/spec\.resources\.tools\[0\]: "t{100}…" \(1,999,900 more characters\) is not a built-in tool group\. Known tools: \w/);
    expect((error as string).length).toBeLessThan(1000);
  });
});

describe('a long list of candidates is listed in part', () => {
  it('2,000 providers and 2,000 models naming none of them: stderr under 1 MB, each line naming 10 providers and a count', () => {
    const dir = writeTree(tempDir(), { 'llsd.yaml': manyProviders(2000) });
    const r = run(['build', dir]);
    expectNoCrash(r);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.length).toBeLessThan(1_000_000);
    const lines = stderrLines(r).filter((line) => line.includes('spec.resources.models['));
    // 100 of one kind, then one line counting the rest.
    expect(lines).toHaveLength(101);
    expect(lines.filter((line) => line.includes('models[*]'))).toEqual([
      expect.stringMatching(
        /llsd\.yaml: llama\/quickstart: spec\.resources\.models\[\*\]\.provider: 1,900 more errors like the 100 shown for this field are left out; fix the ones shown, then run again$/,
      ),
    ]);
    const first = lines.find((line) => line.includes('spec.resources.models[0].provider'));
    expect(first).toMatch(
      /names the inference provider "missing-0", which the rendered config does not enable; use one of: (?:[\w-]+, ){10}… and [\d,]+ more$/,
    );
  });

  it('the same input in KRM mode: a ResourceList whose results stay bounded', () => {
    const r = run([], { input: resourceList([manyProviders(2000)]) });
    expectNoCrash(r);
    expect(r.status).toBe(1);
    expect(r.stdout.length).toBeLessThan(1_000_000);
    const list = parseResourceList(r.stdout);
    expect(list.results.filter((x) => x.field?.path.startsWith('spec.resources.models['))).toHaveLength(101);
    for (const result of list.results) expect(result.message.length).toBeLessThan(1000);
  });
});

describe('control characters are shown, not written', () => {
  it('a distribution name with a newline and a terminal escape: one stderr line with the escapes visible', () => {
    const dir = writeTree(tempDir(), { 'llsd.yaml': withDistribution('star\nfake.yaml:1: forged\u001b[31mred') });
    const r = run(['build', dir]);
    expectNoCrash(r);
    expect(r.status).toBe(1);
    expect(r.stderr).not.toMatch(/\u001b/);
    const errors = stderrLines(r).filter((line) => !line.includes('warning: '));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(
      /spec\.distribution\.name: unknown distribution "star\\nfake\.yaml:1: forged\\x1b\[31mred"\. Known distributions: .*; or set `spec\.distribution\.image` instead\.$/,
    );
  });

  it('in KRM mode the result message carries the same escapes', () => {
    const r = run([], { input: resourceList([withDistribution('star\nfake\u001b[31m\u2028')]) });
    expectNoCrash(r);
    const list = parseResourceList(r.stdout);
    const error = list.results.find((x) => x.field?.path === 'spec.distribution.name');
    expect(error?.message).toMatch(/^unknown distribution "star\\nfake\\x1b\[31m\\u2028"\. Known distributions: /);
    expect(r.stderr).not.toMatch(/[\u001b\u2028]/);
  });
});

describe('many unknown fields in one mapping (attacker probe: 100,000 took 67 s and printed 100,000 lines)', () => {
  it('names the first 20 and counts the rest in one result that says what to do', () => {
    const fields = Array.from({ length: 5_000 }, (_, i) => `  f${i}: 1\n`).join('');
    const dir = writeTree(tempDir(), { 'llsd.yaml': `${quickstartText()}${fields}` });
    const r = run(['build', '.'], { cwd: dir });
    expectNoCrash(r);
    expect(r.status).toBe(1);
    const errors = stderrLines(r).filter((l) => !l.includes(': warning: '));
    expect(errors).toHaveLength(21);
    expect(errors.filter((l) => / spec\.f\d+: is not a known field; known fields: distribution, providers/.test(l))).toHaveLength(20);
    expect(errors).toContainEqual(
      expect.stringMatching(
        /: llama\/quickstart: spec: has 4,980 more fields that are not known besides the 20 named; remove them \(known fields: distribution, /,
      ),
    );
  });
});

// Attacker round 6 (issue 18): results cascaded without bound. 20,000 `a: 1` documents gave 20,000
// "not a Kubernetes object" lines, and a file of 5,000 broken documents gave its YAML errors and
// then about 4,950 such warnings for the same documents (those past the parser's error budget).
describe('the same error many times in one file: 10, then one that counts the rest (attacker round 7)', () => {
  it('5,000 copies of one ConfigMap: 10 "defined twice" errors and one count, not 4,999 lines', () => {
    const dir = writeTree(tempDir(), {
      'dup.yaml': Array.from({ length: 5_000 }, () => '{apiVersion: v1, kind: ConfigMap, metadata: {name: c}}\n').join('---\n'),
    });
    const r = run(['build', 'dup.yaml'], { cwd: dir });
    expectNoCrash(r);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    const twice = stderrLines(r).filter((line) => line.includes('is defined twice'));
    expect(twice).toHaveLength(11);
    expect(twice[10]).toMatch(
      /^dup\.yaml:\d+: 4,989 more of the same error \(ConfigMap "c" is defined twice .*\), from this line of the file on, are left out$/,
    );
  });
});

describe('warnings of one code in one file: 10, then one that counts the rest', () => {
  const notAnObject = 'warning: skipped: not a Kubernetes object (it needs string `apiVersion`, `kind` and `metadata.name`) [not-a-kubernetes-object]';

  it('20,000 documents that are no Kubernetes object beside an LLSD: 10 warnings and one count, and the render goes on', () => {
    const text = `${quickstartText()}\n---\n${Array.from({ length: 20_000 }, () => 'a: 1\n').join('---\n')}`;
    const dir = writeTree(tempDir(), { 'many.yaml': text });
    const r = run(['build', 'many.yaml'], { cwd: dir });
    expectNoCrash(r);
    expect(r.status, r.stderr).toBe(0);
    const lines = stderrLines(r).filter((line) => line.includes('[not-a-kubernetes-object]'));
    expect(lines).toHaveLength(11);
    for (const line of lines.slice(0, 10)) expect(line).toMatch(new RegExp(`^many\\.yaml:\\d+: ${escape(notAnObject)}$`));
    // The count stands where the 11th such document starts (its `---`, two lines after the 10th).
    const shownLines = lines.slice(0, 10).map((line) => Number(/^many\.yaml:(\d+):/.exec(line)?.[1]));
    expect(lines[10]).toBe(
      `many.yaml:${(shownLines[9] as number) + 2}: warning: 19,990 more warnings like the 10 above, from this line of the file on, are left out; fix those ` +
        `shown (or silence the code), then run again [not-a-kubernetes-object]`,
    );
    expect(r.stdout).toContain('kind: Deployment');
  });

  it('5,000 documents with a YAML error: 10 errors and a count, and no "not a Kubernetes object" warning for any of them', () => {
    const dir = writeTree(tempDir(), { 'm.yaml': Array.from({ length: 5_000 }, () => 'a: 1\n b: 2\n').join('---\n') });
    const r = run(['validate', 'm.yaml'], { cwd: dir });
    expectNoCrash(r);
    expect(r.status).toBe(1);
    const lines = stderrLines(r);
    expect(lines.filter((line) => line.includes('warning:'))).toEqual([]);
    expect(lines).toHaveLength(11);
    expect(lines[0]).toMatch(/^m\.yaml:2: not valid YAML: this line is indented more than the key above it expects/);
    expect(lines[10]).toMatch(/^m\.yaml: not valid YAML: and \d+ more problems like these$/);
  });

  it('a render warning repeated by 12 LLSDs of one file: 10 and a count', () => {
    const llsds = Array.from({ length: 12 }, (_, i) => quickstartText().replace('name: quickstart', `name: quickstart-${String(i).padStart(2, '0')}`)).join(
      '\n---\n',
    );
    const dir = writeTree(tempDir(), { 'llsds.yaml': llsds });
    const r = run(['build', 'llsds.yaml'], { cwd: dir });
    expectNoCrash(r);
    expect(r.status, r.stderr).toBe(0);
    const lines = stderrLines(r).filter((line) => line.includes('[secret-not-in-input]'));
    expect(lines).toHaveLength(11);
    expect(lines.slice(0, 10).map((line) => /llama\/(quickstart-\d\d)/.exec(line)?.[1])).toEqual(Array.from({ length: 10 }, (_, i) => `quickstart-0${i}`));
    expect(lines[10]).toMatch(
      /^llsds\.yaml:\d+: warning: 2 more warnings like the 10 above, from this line of the file on, are left out; fix those shown \(or silence the code\), then run again \[secret-not-in-input\]$/,
    );
  });
});

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
