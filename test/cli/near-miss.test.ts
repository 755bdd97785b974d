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
  `must be \`LlamaStackDistribution\` (apiVersion \`llamastack.io/v1alpha2\`) for llsd-render to render it, not "${wrote}"; as a misspelt LLSD it would ` +
    `render nothing`;
const groupMessage = (wrote: string) =>
  `must be \`llamastack.io/v1alpha2\` (or \`llamastack.io/v1alpha1\`) for llsd-render to render this LlamaStackDistribution: ${wrote}, and the LLSD would ` +
    `render nothing`;

const cases = [
  {
    title: 'a misspelt kind',
    apiVersion: 'llamastack.io/v1alpha2',
    kind: 'LlamaStackDistributon',
    line: 2,
    field: 'kind',
    message: kindMessage('LlamaStackDistributon'),
  },
  {
    title: 'the kind in lower case',
    apiVersion: 'llamastack.io/v1alpha2',
    kind: 'llamastackdistribution',
    line: 2,
    field: 'kind',
    message: kindMessage('llamastackdistribution'),
  },
  {
    title: 'a misspelt group',
    apiVersion: 'llama-stack.io/v1alpha2',
    kind: 'LlamaStackDistribution',
    line: 1,
    field: 'apiVersion',
    message: groupMessage('the group "llama-stack.io" is not llamastack.io'),
  },
  {
    title: 'the kind in another group',
    apiVersion: 'apps/v1',
    kind: 'LlamaStackDistribution',
    line: 1,
    field: 'apiVersion',
    message: groupMessage('the group "apps" is not llamastack.io'),
  },
  {
    title: 'no version',
    apiVersion: 'llamastack.io',
    kind: 'LlamaStackDistribution',
    line: 1,
    field: 'apiVersion',
    message: groupMessage('"llamastack.io" is not <group>/<version>'),
  },
  {
    title: 'the short name LLSD as the kind (any other kind of llamastack.io)',
    apiVersion: 'llamastack.io/v1alpha2',
    kind: 'LLSD',
    line: 2,
    field: 'kind',
    message: 'must be `LlamaStackDistribution`, the one kind of llamastack.io, not "LLSD"; written otherwise the LLSD would render nothing',
  },
  {
    title: 'a misspelt RenderConfig kind (its options would not be applied)',
    apiVersion: 'fn.llamastack.io/v1alpha1',
    kind: 'RenderConfg',
    line: 2,
    field: 'kind',
    message:
      'render options must be kind `RenderConfig` with apiVersion `fn.llamastack.io/v1alpha1`, not "RenderConfg" "fn.llamastack.io/v1alpha1"; written ' +
        'otherwise they would be passed through and not applied',
  },
  {
    title: 'a RenderConfig of an unknown version',
    apiVersion: 'fn.llamastack.io/v1',
    kind: 'RenderConfig',
    line: 1,
    field: 'apiVersion',
    message:
      'render options must be kind `RenderConfig` with apiVersion `fn.llamastack.io/v1alpha1`, not "RenderConfig" "fn.llamastack.io/v1"; written otherwise ' +
        'they would be passed through and not applied',
  },
];

describe('an object of llsd-render\'s groups without metadata.name', () => {
  it('build: an error at the document, not a skipped object beside the others', () => {
    const dir = writeTree(tempDir(), {
      'llsd.yaml': llsd('llamastack.io/v1alpha2', 'LlamaStackDistribution').replace('  name: demo\n', '  nmae: demo\n'),
      'other.yaml': configMap,
    });
    const r = run(['build', '.'], { cwd: dir });
    expect(r.status, r.stderr).toBe(1);
    expectNoCrash(r);
    expect(r.stdout).toBe('');
    expect(stderrLines(r)).toEqual([
      'llsd.yaml:1: looks like an llsd-render object but lacks a string `apiVersion`, `kind` or `metadata.name`: write each as text (quote a number, `true` ' +
        'or `null`), e.g. `apiVersion: llamastack.io/v1alpha2` and `metadata: {name: chat}`',
    ]);
  });
});

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
        'found no LlamaStackDistribution (apiVersion llamastack.io/v1alpha2) or OGXServer (apiVersion ogx.io/v1beta1) under ., so nothing was validated; ' +
          'check the paths and the apiVersion and kind of the LLSDs and OGXServers',
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
  it('a kind far from LlamaStackDistribution in another group passes through as before', () => {
    const dir = writeTree(tempDir(), { 'b.yaml': llsd('example.com/v1', 'LlamaStackServer'), 'c.yaml': configMap });
    const r = run(['build', '.'], { cwd: dir });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
  });

  it('validate over objects with no LLSD among them is an error', () => {
    const dir = writeTree(tempDir(), { 'c.yaml': configMap });
    const r = run(['validate', '.'], { cwd: dir });
    expect(r.status).toBe(1);
    expect(stderrLines(r)).toEqual([
      'found no LlamaStackDistribution (apiVersion llamastack.io/v1alpha2) or OGXServer (apiVersion ogx.io/v1beta1) under ., so nothing was validated; ' +
        'check the paths and the apiVersion and kind of the LLSDs and OGXServers',
    ]);
  });
});

describe('LLSDs that rendered nothing with exit 0 (attacker probe)', () => {
  const quickstart = llsd('llamastack.io/v1alpha2', 'LlamaStackDistribution');
  const errorsOf = (files: Record<string, string>): { status: number | null; errors: string[]; stdout: string } => {
    const r = run(['build', '.'], { cwd: writeTree(tempDir(), files) });
    expectNoCrash(r);
    return { status: r.status, errors: stderrLines(r).filter((l) => !l.includes(': warning: ')), stdout: r.stdout };
  };

  it('a file with carriage returns alone as line ends: an error, not one long comment', () => {
    const r = errorsOf({ 'a.yaml': quickstart, 'b.yaml': `# second\n${quickstart.replace('name: demo', 'name: second')}`.replaceAll('\n', '\r') });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.errors).toEqual(['b.yaml:1: ends lines with a carriage return alone (old Mac line ends): save it with LF (or CRLF) line ends']);
  });

  it('an LLSD inside a kubectl `kind: List`: an error, not a skipped object', () => {
    const list = `apiVersion: v1\nkind: List\nitems:\n- ${quickstart.replace('name: demo', 'name: second').trimEnd().replaceAll('\n', '\n  ')}\n`;
    const r = errorsOf({ 'a.yaml': quickstart, 'b.yaml': list });
    expect(r.status).toBe(1);
    expect(r.errors).toEqual([
      'b.yaml:1: is a list of objects (`items`) holding an LLSD or RenderConfig, which would be skipped with it: write each object as a YAML document of ' +
        'its own, separated by `---`',
    ]);
  });

  it('an LLSD with a number as its apiVersion, and one inside a List inside a List: an error each', () => {
    const numbered = quickstart.replace('apiVersion: llamastack.io/v1alpha2', 'apiVersion: 2');
    const third = quickstart.replace('name: demo', 'name: third').trimEnd().replaceAll('\n', '\n    ');
    const nested = `apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: List\n  items:\n  - ${third}\n`;
    const r = errorsOf({ 'a.yaml': quickstart, 'b.yaml': numbered.replace('name: demo', 'name: second'), 'c.yaml': nested });
    expect(r.status).toBe(1);
    expect(r.errors).toEqual([
      'b.yaml:1: looks like an llsd-render object but lacks a string `apiVersion`, `kind` or `metadata.name`: write each as text (quote a number, `true` or ' +
        '`null`), e.g. `apiVersion: llamastack.io/v1alpha2` and `metadata: {name: chat}`',
      'c.yaml:1: is a list of objects (`items`) holding an LLSD or RenderConfig, which would be skipped with it: write each object as a YAML document of ' +
        'its own, separated by `---`',
    ]);
  });

  it('an LLSD carrying llamastack.io/generated-from: an error at the annotation', () => {
    const marked = quickstart
      .replace('  namespace: ai\n', '  namespace: ai\n  annotations:\n    llamastack.io/generated-from: ai/other\n')
      .replace('name: demo', 'name: second');
    const r = errorsOf({ 'a.yaml': quickstart, 'b.yaml': marked });
    expect(r.status).toBe(1);
    expect(r.errors).toEqual([
      'b.yaml:7: ai/second: metadata.annotations["llamastack.io/generated-from"]: must not carry the annotation llamastack.io/generated-from: llsd-render ' +
        'marks its output with it and drops such objects on every run, so this LLSD would render nothing; remove the annotation',
    ]);
  });
});

describe('two RenderConfigs among the inputs that set one option otherwise (attacker probe round 2: the later won silently)', () => {
  it('a warning at the later one naming the earlier; an option both set alike says nothing', () => {
    const rc = (name: string, policy: string) =>
      `apiVersion: fn.llamastack.io/v1alpha1\nkind: RenderConfig\nmetadata: {name: ${name}}\nspec: {networkPolicy: "${policy}", gitopsAnnotations: true}\n`;
    const dir = writeTree(tempDir(), {
      'llsd.yaml': llsd('llamastack.io/v1alpha2', 'LlamaStackDistribution'),
      'a-rc.yaml': rc('a', 'off'),
      'b-rc.yaml': rc('b', 'on'),
    });
    const r = run(['build', '.'], { cwd: dir });
    expect(r.status, r.stderr).toBe(0);
    expect(stderrLines(r)).toEqual([
      'b-rc.yaml:4: b: spec.networkPolicy: warning: is also set, otherwise, by the RenderConfig "a" in a-rc.yaml; this one, read later, wins: keep each ' +
        'option in one RenderConfig [render-config-conflict]',
    ]);
    expect(r.stdout).toContain('kind: NetworkPolicy');
  });
});
