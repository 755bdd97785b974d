// Integers beyond 2^53 are kept as written through every path (issue 29 B1): `max_tokens:
// 9007199254740993` became …992 in config.yaml, and an int64 `seed` changed through the
// v1alpha1 conversion record.
import { describe, expect, it } from 'vitest';
import { exactJson, parseExactJson, Verbatim } from '../../src/lib/exact-integer.js';
import { expectNoCrash, parseResourceList, parseStream, quickstartText, resourceList, run, stderrLines, tempDir, writeTree } from './run.js';

const big = '9007199254740993';
const seed = '-9223372036854775807';
const withSettings = (settings: string): string => quickstartText().replace('      provider: vllm\n', `      provider: vllm\n      settings:\n${settings}`);
const llsd = withSettings(`        max_tokens: ${big}\n`);
// vLLM reads no `seed` (the release check says so); the conversion record holds any field.
const llsdSeed = withSettings(`        max_tokens: ${big}\n        seed: ${seed}\n`);
// The same through `yaml` rather than the block reader (an anchor is outside its subset).
const llsdViaYaml = llsd.replace('  distribution:\n', '  distribution: &d\n');

/** The config.yaml text in the generated ConfigMap of a build or KRM output. */
const configText = (stdout: string, krm = false): string => {
  const objects = krm ? (parseResourceList(stdout).items as Array<{ kind: string; data?: Record<string, string> }>) : parseStream(stdout);
  const configMap = objects.find((o) => o.kind === 'ConfigMap') as { data: Record<string, string> } | undefined;
  return Object.values(configMap?.data ?? {})[0] ?? '';
};

describe('integers beyond 2^53 kept as written (issue 29 B1)', () => {
  it.each([
    ['block reader', llsd],
    ['yaml reader', llsdViaYaml],
  ])('LLSD settings into config.yaml (%s), in build and KRM', (_name, text) => {
    const build = run(['build', writeTree(tempDir(), { 'llsd.yaml': text })]);
    expect(build.status, build.stderr).toBe(0);
    expect(configText(build.stdout)).toContain(`max_tokens: ${big}\n`);
    const krm = run([], { input: resourceList([text]) });
    expect(krm.status, krm.stderr).toBe(0);
    expect(configText(krm.stdout, true)).toContain(`max_tokens: ${big}\n`);
  });

  it('convert --to ogx.io/v1beta1 keeps them in the OGXServer', () => {
    const r = run(['convert', '--to', 'ogx.io/v1beta1', writeTree(tempDir(), { 'llsd.yaml': llsd })]);
    expectNoCrash(r);
    expect(r.stdout).toContain(`max_tokens: ${big}\n`);
  });

  it('convert to v1alpha1 and back: the conversion record holds them as JSON numbers, and they come back as written', () => {
    const down = run(['convert', '--to', 'v1alpha1', writeTree(tempDir(), { 'llsd.yaml': llsdSeed })]);
    expectNoCrash(down);
    expect(down.stdout).toContain(`"max_tokens":${big},"seed":${seed}`);
    const up = run(['convert', writeTree(tempDir(), { 'llsd.yaml': down.stdout })]);
    expectNoCrash(up);
    expect(up.stdout).toContain(`        max_tokens: ${big}\n        seed: ${seed}\n`);
  });

  // Read as a rounded number it was refused the same way; kept as written, it must still be (not "must be a number, not a mapping").
  it('a number field refuses one with the range it holds', () => {
    const text = quickstartText().replace('spec:\n', 'spec:\n  workload:\n    replicas: 9007199254740993\n');
    const r = run(['validate', writeTree(tempDir(), { 'llsd.yaml': text })]);
    expect(r.status).toBe(1);
    expect(stderrLines(r).join('\n')).toMatch(/spec\.workload\.replicas: must be at most 9007199254740991$/m);
  });

  it('exactJson and parseExactJson: numbers as written both ways, strings that look alike left alone', () => {
    const value = parseExactJson(`{"a":${big},"b":"${big}","c":[1,${seed}],"d":1.5e300}`) as Record<string, unknown>;
    expect(value.a).toEqual(new Verbatim(big));
    expect(value.b).toBe(big);
    expect(exactJson(value)).toBe(`{"a":${big},"b":"${big}","c":[1,${seed}],"d":1.5e+300}`);
    expect(JSON.stringify(new Verbatim(big))).toBe(`"${big}"`);
  });
});
