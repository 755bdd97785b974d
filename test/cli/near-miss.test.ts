// Issue 15: an object that is a misspelt LLSD (kind or group a typo away) used to pass through with
// exit 0 in every mode, so the render was silently empty and Argo CD would prune what the LLSD had
// generated. It is an error naming the right spelling, in build, validate and KRM mode; and
// `validate` that finds no LLSD at all says so.
import { describe, expect, it } from 'vitest';
import { expectNoCrash, parseResourceList, resourceList, run, stderrLines, tempDir, writeTree } from './run.js';

const llsd = (apiVersion: string, kind: string) =>
  `apiVersion: ${apiVersion}\nkind: ${kind}\nmetadata:\n  name: demo\n  namespace: ai\nspec:\n  distribution:\n    name: starter\n`;
const configMap = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: other\n  namespace: ai\ndata:\n  a: b\n';

const kindMessage = (wrote: string) =>
  `must be \`LlamaStackDistribution\` (apiVersion \`llamastack.io/v1alpha2\`) for llsd-render to render it, not "${wrote}"; as a misspelt LLSD it would render nothing`;
const groupMessage = (wrote: string) =>
  `must be \`llamastack.io/v1alpha2\` (or \`llamastack.io/v1alpha1\`) for llsd-render to render this LlamaStackDistribution: ${wrote}, and the LLSD would render nothing`;

const cases = [
  { title: 'a misspelt kind', apiVersion: 'llamastack.io/v1alpha2', kind: 'LlamaStackDistributon', line: 2, field: 'kind', message: kindMessage('LlamaStackDistributon') },
  { title: 'the kind in lower case', apiVersion: 'llamastack.io/v1alpha2', kind: 'llamastackdistribution', line: 2, field: 'kind', message: kindMessage('llamastackdistribution') },
  { title: 'a misspelt group', apiVersion: 'llama-stack.io/v1alpha2', kind: 'LlamaStackDistribution', line: 1, field: 'apiVersion', message: groupMessage('the group "llama-stack.io" is not llamastack.io') },
  { title: 'no version', apiVersion: 'llamastack.io', kind: 'LlamaStackDistribution', line: 1, field: 'apiVersion', message: groupMessage('"llamastack.io" is not <group>/<version>') },
];

describe.each(cases)('$title', ({ apiVersion, kind, line, field, message }) => {
  it('build: exit 1, nothing printed, one stderr line with the right spelling (even beside other objects)', () => {
    const dir = writeTree(tempDir(), { 'llsd.yaml': llsd(apiVersion, kind), 'other.yaml': configMap });
    const r = run(['build', '.'], { cwd: dir });
    expect(r.status, r.stderr).toBe(1);
    expectNoCrash(r);
    expect(r.stdout).toBe('');
    expect(stderrLines(r)).toEqual([`llsd.yaml:${line}: ai/demo: ${field}: ${message}`]);
  });

  it('validate: the same error, and that no LLSD was found', () => {
    const dir = writeTree(tempDir(), { 'llsd.yaml': llsd(apiVersion, kind) });
    const r = run(['validate', '.'], { cwd: dir });
    expect(r.status, r.stderr).toBe(1);
    expect(stderrLines(r).sort()).toEqual(
      [
        `llsd.yaml:${line}: ai/demo: ${field}: ${message}`,
        'found no LlamaStackDistribution (apiVersion llamastack.io/v1alpha2) under ., so nothing was validated; check the paths and the apiVersion and kind of the LLSDs',
      ].sort(),
    );
  });

  it('KRM mode: exit 1, the ResourceList unchanged with the error result', () => {
    const r = run([], { input: resourceList([llsd(apiVersion, kind), configMap]) });
    expect(r.status, r.stderr).toBe(1);
    const list = parseResourceList(r.stdout);
    expect(list.items.map((i) => i.kind)).toEqual([kind, 'ConfigMap']);
    expect(list.results.map((x) => [x.severity, x.field?.path, x.message])).toEqual([['error', field, message]]);
  });
});

describe('not near misses', () => {
  it('another kind of another group, and a kind far from LlamaStackDistribution, pass through as before', () => {
    const dir = writeTree(tempDir(), { 'a.yaml': llsd('example.com/v1', 'LlamaStackDistribution'), 'b.yaml': llsd('llamastack.io/v1alpha2', 'LlamaStackServer'), 'c.yaml': configMap });
    const r = run(['build', '.'], { cwd: dir });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
  });

  it('validate over objects with no LLSD among them is an error', () => {
    const dir = writeTree(tempDir(), { 'c.yaml': configMap });
    const r = run(['validate', '.'], { cwd: dir });
    expect(r.status).toBe(1);
    expect(stderrLines(r)).toEqual(['found no LlamaStackDistribution (apiVersion llamastack.io/v1alpha2) under ., so nothing was validated; check the paths and the apiVersion and kind of the LLSDs']);
  });
});
