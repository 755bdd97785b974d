// The release-schema check through the built bundle: a generated config with a key the release
// does not read stops the build; the same in a user's overrideConfig is a warning.
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { shippedConfigText } from '../support.js';
import { expectNoCrash, quickstartText, run, stderrLines, tempDir, writeTree } from './run.js';

const withSettings = (settings: string): string => quickstartText().replace(/(\n\s+provider: vllm\n)/, `$1      settings:\n${settings}`);

describe('release schema in build', () => {
  it('a provider setting the release does not define: exit 1, at the LLSD setting and its line, with the config.yaml path and the closest key', () => {
    const dir = writeTree(tempDir(), { 'llsd.yaml': withSettings('        max_tokenz: 100\n') });
    const r = run(['build', dir]);
    expectNoCrash(r);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    // The result points at the setting the LLSD wrote (src/llsd/cr-fields.ts), on its line; the message names the config.yaml path.
    const line = withSettings('        max_tokenz: 100\n').split('\n').findIndex((l) => l.includes('max_tokenz')) + 1;
    expect(line).toBeGreaterThan(1);
    expect(stderrLines(r).filter((l) => !l.includes('warning:'))).toEqual([
      expect.stringMatching(
        new RegExp(
          `llsd\\.yaml:${line}: llama/quickstart: spec\\.providers\\.inference\\.settings\\.max_tokenz: the generated config\\.yaml does not fit the schema ` +
            `of OGX [\\d.]+: \`providers\\.inference\\[\\d+\\]\\.config\\.max_tokenz\` is not a remote::vllm setting in OGX [\\d.]+; the server ` +
            `silently ignores it\\. Did you mean \`max_tokens\`\\?$`,
        ),
      ),
    ]);
  });

  it('an overrideConfig with a key the release does not define: a warning, exit 0', () => {
    const base = shippedConfigText('distributions/starter/0.7.1.yaml') as string;
    const configMap = stringify({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'mine', namespace: 'ai' },
      data: { 'config.yaml': `${base}\nservre:\n  port: 8321\n` },
    });
    const llsd =
      'apiVersion: llamastack.io/v1alpha2\nkind: LlamaStackDistribution\nmetadata: {name: demo, namespace: ai}\nspec:\n  distribution: {image: ' +
        '"quay.io/me/x:0.7.1"}\n  overrideConfig: {configMapName: mine}\n';
    const dir = writeTree(tempDir(), { 'override.yaml': configMap, 'llsd.yaml': llsd });
    const r = run(['build', dir]);
    expectNoCrash(r);
    expect(r.status, r.stderr).toBe(0);
    expect(stderrLines(r).filter((l) => l.includes('servre'))).toEqual([
      expect.stringMatching(
        /llsd\.yaml:\d+: ai\/demo: spec\.overrideConfig\.configMapName: warning: the config\.yaml of the ConfigMap "mine" does not fit the schema of llama-stack 0\.7\.1: `servre` is not a top-level setting in llama-stack 0\.7\.1; the server silently ignores it\. Did you mean `server`\? \[unknown-config-key\]$/,
      ),
    ]);
  });
});
