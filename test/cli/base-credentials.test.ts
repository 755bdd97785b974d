// Literal credentials in the base configs a user brings (issue 29, S2): a RenderConfig
// `distributions.<name>.config`, inline or from `configPath`, given among the inputs, by `--config`
// or as a KRM function's ConfigMap. The same key in `settings` is refused; in a base it reaches the
// ConfigMap as written, so it is a warning at the distribution's entry naming the key, never the value.
// (The image-label case: test/unit/plan.test.ts, test/unit/ogx-plan.test.ts.)
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectNoCrash, parseResourceList, quickstartText, resourceList, run, tempDir, writeTree } from './run.js';

const VALUE = 'sk-LIVE-31337-value';
const base = (apiKey: string) =>
  `version: 2\ndistro_name: mine\napis: [inference]\nproviders:\n  inference:\n  - provider_id: openai\n    provider_type: remote::openai\n` +
  `    config: {api_key: ${apiKey}, base_url: "https://api.openai.com/v1"}\nstorage:\n  backends: {}\n`;
const indent = (text: string, pad: string): string =>
  text
    .split('\n')
    .map((line) => (line === '' ? '' : `${pad}${line}`))
    .join('\n');
const renderConfig = (entry: string): string =>
  `apiVersion: fn.llamastack.io/v1alpha1\nkind: RenderConfig\nmetadata:\n  name: options\nspec:\n  distributions:\n    mine:\n      image: quay.io/me/mine:0.7.1\n${entry}`;
const inline = (apiKey: string): string => renderConfig(`      config:\n${indent(base(apiKey), '        ')}\n`);

const warning =
  'spec.distributions.mine: warning: `providers.inference[0].config.api_key` of the base config of the distribution "mine" holds a credential as a ' +
  'literal value, which reaches the generated ConfigMap for anyone who can read it (in `settings` it would be refused): write `${env.NAME}` there and ' +
  "set NAME from a Secret (an LLSD's or OGXServer's `workload.overrides.env` with `valueFrom.secretKeyRef`) [base-literal-credential]";

describe('a literal credential in a RenderConfig base config: a warning at the distribution, never the value', () => {
  it('inline, among the build inputs', () => {
    const dir = writeTree(tempDir(), { 'options.yaml': inline(VALUE), 'llsd.yaml': quickstartText() });
    const r = run(['build', dir]);
    expectNoCrash(r);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain(`options.yaml:7: options: ${warning}\n`);
    expect(r.stderr).not.toContain(VALUE);
  });

  it('from configPath, and by --config', () => {
    const dir = writeTree(tempDir(), { 'base.yaml': base(VALUE), 'options.yaml': renderConfig('      configPath: base.yaml\n') });
    writeFileSync(join(dir, 'llsd.yaml'), quickstartText());
    const among = run(['build', dir]);
    expect(among.status, among.stderr).toBe(0);
    expect(among.stderr).toContain(warning);
    const config = run(['build', '--config', join(dir, 'options.yaml'), join(dir, 'llsd.yaml')]);
    expect(config.status, config.stderr).toBe(0);
    expect(config.stderr).toContain(warning);
    expect(among.stderr + config.stderr).not.toContain(VALUE);
  });

  it('KRM mode, a ConfigMap functionConfig whose `distributions` is a YAML string: at data.distributions, naming the distribution', () => {
    const fc = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fn\ndata:\n  distributions: |\n${indent(
      `mine:\n  image: quay.io/me/mine:0.7.1\n  config:\n${indent(base(VALUE), '    ')}`,
      '    ',
    )}\n`;
    const r = run([], { input: resourceList([quickstartText()], fc) });
    expect(r.status, r.stderr).toBe(0);
    const warnings = parseResourceList(r.stdout).results.filter((x) => x.message.endsWith('[base-literal-credential]'));
    expect(warnings).toEqual([
      expect.objectContaining({
        severity: 'warning',
        field: { path: 'data.distributions' },
        message: expect.stringMatching(/^`providers\.inference\[0\]\.config\.api_key` of the base config of the distribution "mine" holds a credential/),
      }),
    ]);
    expect(JSON.stringify(warnings) + r.stderr).not.toContain(VALUE);
  });

  it('${env.X} references (with or without a default, as the shipped bases write them) and empty values are no literals', () => {
    for (const apiKey of ['"${env.OPENAI_API_KEY}"', '"${env.OPENAI_API_KEY:=}"', '"${env.VLLM_API_TOKEN:=fake}"', '""']) {
      const dir = writeTree(tempDir(), { 'options.yaml': inline(apiKey), 'llsd.yaml': quickstartText() });
      const r = run(['build', dir]);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr, apiKey).not.toContain('base-literal-credential');
    }
  });

  it('silenced by its code', () => {
    const dir = writeTree(tempDir(), { 'options.yaml': `${inline(VALUE)}  silence: [base-literal-credential]\n`, 'llsd.yaml': quickstartText() });
    const r = run(['build', dir]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('base-literal-credential');
  });
});

// Attacker (after S2): a password inside a URL of a base got no word, while `settings` refuses it.
describe('a URL carrying a literal credential in a base config', () => {
  it('a warning at the distribution naming the key, never the URL; `${env.…}` in it is no literal', () => {
    const withUrl = (url: string): string =>
      inline('"${env.OPENAI_API_KEY:=}"').replace('base_url: "https://api.openai.com/v1"', `base_url: "${url}"`);
    const dir = writeTree(tempDir(), { 'options.yaml': withUrl(`https://user:${VALUE}@api.example/v1`), 'llsd.yaml': quickstartText() });
    const r = run(['build', dir]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain('`providers.inference[0].config.base_url` of the base config of the distribution "mine" holds a credential');
    expect(r.stderr).not.toContain(VALUE);
    const fine = writeTree(tempDir(), { 'options.yaml': withUrl('https://user:${env.PASS}@api.example/v1'), 'llsd.yaml': quickstartText() });
    const clean = run(['build', fine]);
    expect(clean.status, clean.stderr).toBe(0);
    expect(clean.stderr).not.toContain('[base-literal-credential]');
  });
});
