// KRM function mode (no arguments, a ResourceList on stdin), through the built bundle.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  ARGO_SYNC_OPTIONS,
  FLUX_SUBSTITUTE,
  GENERATED_FROM,
  LLSD_API_VERSION,
  LLSD_KIND,
  LOCAL_CONFIG,
  annotationsOf,
  expectNoCrash,
  isGenerated,
  lazy,
  parsePlain,
  parseResourceList,
  quickstartText,
  readFixture,
  ref,
  requireBundle,
  resourceList,
  run,
  expectOnlyMissingSecretWarning,
  stderrLines,
  withKptAnnotations,
  type KrmObject,
} from './run.js';

const secretItem = withKptAnnotations(readFixture('secret.yaml'), 'secrets.yaml', 0, 1);
const settingsItem = withKptAnnotations(readFixture('ambiguous-configmap.yaml'), 'settings.yaml', 0, 2);
const llsdItem = withKptAnnotations(quickstartText(), 'apps/llsd.yaml', 0, 3);
const input = resourceList([secretItem, settingsItem, llsdItem]);

const kptAnnotations = (path: string, id: string) => ({
  'config.kubernetes.io/index': '0',
  'internal.config.kubernetes.io/path': path,
  'config.k8s.io/id': id,
});

const generatedConfigMap = (items: readonly KrmObject[]): KrmObject => {
  const found = items.filter((o) => isGenerated(o) && o.kind === 'ConfigMap');
  expect(found).toHaveLength(1);
  return found[0] as KrmObject;
};

describe('KRM mode: the quickstart LLSD with pass-through objects', () => {
  const first = lazy(() => run([], { input }));

  it('exits 0 with nothing on stderr and a ResourceList on stdout', () => {
    const r = first();
    expect(r.status, r.stderr).toBe(0);
    expectNoCrash(r);
    expect(r.stderr).toBe('');
    expect(r.stdout.startsWith('apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n')).toBe(true);
  });

  it('keeps the pass-through objects first, in input order, with their annotations and values', () => {
    const r = first();
    const out = parseResourceList(r.stdout);
    const before = parseResourceList(input);
    expect(out.items.slice(0, 2)).toEqual(before.items.slice(0, 2));
    expect(out.items.slice(0, 3).map(ref)).toEqual(['Secret/vllm-credentials', 'ConfigMap/app-settings', `${LLSD_KIND}/quickstart`]);
    expect(annotationsOf(out.items[0] as KrmObject)).toEqual(kptAnnotations('secrets.yaml', '1'));
    expect(annotationsOf(out.items[1] as KrmObject)).toEqual(kptAnnotations('settings.yaml', '2'));
    expect((out.items[1] as KrmObject).metadata.labels).toEqual({ team: 'platform' });
  });

  it('keeps ambiguous scalars as they were: quoted strings stay strings, 0755 and a 20-digit integer keep their text', () => {
    const r = first();
    // Read as a YAML 1.2 reader (kpt, kustomize) and as a YAML 1.1 reader (PyYAML, go-yaml v2) would.
    for (const version of ['1.2', '1.1'] as const) {
      const settings = parseResourceList(r.stdout, version).items[1] as KrmObject;
      expect(settings.data, `YAML ${version}`).toEqual({ mode: '0755', flag: 'on', answer: 'yes', empty: '', nothing: 'null', version: '1.10' });
    }
    const settings = parseResourceList(r.stdout).items[1] as KrmObject;
    expect((settings.spec as Record<string, unknown>).replicas).toBe(3);
    expect((settings.spec as Record<string, unknown>).enabled).toBe(true);
    // The text itself: no reader can take these for anything else than the input said.
    expect(r.stdout).toMatch(/^ {6}mode: (["'])0755\1$/m);
    expect(r.stdout).toMatch(/^ {6}flag: (["'])on\1$/m);
    expect(r.stdout).toMatch(/^ {6}answer: (["'])yes\1$/m);
    expect(r.stdout).toMatch(/^ {6}nothing: (["'])null\1$/m);
    expect(r.stdout).toMatch(/^ {6}version: (["'])1\.10\1$/m);
    expect(r.stdout).toMatch(/^ {6}permissions: 0755$/m);
    expect(r.stdout).toMatch(/^ {6}bigNumber: 12345678901234567890$/m);
  });

  it('keeps the LLSD, annotated config.kubernetes.io/local-config: "true", its other fields untouched', () => {
    const r = first();
    const out = parseResourceList(r.stdout);
    const before = parseResourceList(input);
    const llsd = out.items[2] as KrmObject;
    const original = before.items[2] as KrmObject;
    expect(annotationsOf(llsd)).toEqual({ ...kptAnnotations('apps/llsd.yaml', '3'), [LOCAL_CONFIG]: 'true' });
    expect(r.stdout).toMatch(/^ {8}config\.kubernetes\.io\/local-config: (["'])true\1$/m);
    expect({ ...llsd, metadata: { ...llsd.metadata, annotations: {} } }).toEqual({ ...original, metadata: { ...original.metadata, annotations: {} } });
  });

  it('appends the generated objects after the input items, placed next to the LLSD file for kpt', () => {
    const r = first();
    const out = parseResourceList(r.stdout);
    const generated = out.items.slice(3);
    expect(generated.length).toBeGreaterThanOrEqual(4);
    expect(generated.every(isGenerated)).toBe(true);
    expect(out.items.slice(0, 3).some(isGenerated)).toBe(false);
    expect(generated.map((o) => o.kind).sort()).toEqual(expect.arrayContaining(['ConfigMap', 'Deployment', 'Service', 'ServiceAccount']));
    for (const o of generated) {
      expect(annotationsOf(o)[GENERATED_FROM]).toBe('llama/quickstart');
      expect(o.metadata.namespace).toBe('llama');
      expect(annotationsOf(o)['internal.config.kubernetes.io/path']).toBe('apps/quickstart.generated.yaml');
      expect(annotationsOf(o)['config.kubernetes.io/path']).toBe('apps/quickstart.generated.yaml');
      // Never the LLSD's own kpt bookkeeping or local-config.
      expect(annotationsOf(o)[LOCAL_CONFIG]).toBeUndefined();
      expect(annotationsOf(o)['config.k8s.io/id']).toBeUndefined();
    }
    const indexes = generated.map((o) => annotationsOf(o)['internal.config.kubernetes.io/index']);
    expect(indexes).toEqual(generated.map((_, i) => String(i)));
    expect(generatedConfigMap(out.items).metadata.name).toMatch(/^quickstart-config-[0-9a-f]{10}$/);
  });

  it('reports one info result for the LLSD, with its resourceRef and file, and nothing else', () => {
    const r = first();
    const out = parseResourceList(r.stdout);
    expect(out.results).toHaveLength(1);
    const [result] = out.results;
    expect(result?.severity).toBe('info');
    expect(result?.message).toMatch(/^generated config\.yaml with 1 provider\b.* and 1 model for OGX \d+\.\d+\.\d+/);
    expect(result?.resourceRef).toEqual({ apiVersion: LLSD_API_VERSION, kind: LLSD_KIND, name: 'quickstart', namespace: 'llama' });
    expect(result?.file?.path).toBe('apps/llsd.yaml');
    expect(result?.field).toBeUndefined();
  });

  it('is idempotent: its output fed back in gives byte-identical output', () => {
    const r = first();
    expect(r.status).toBe(0);
    const again = run([], { input: r.stdout });
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).toBe('');
    expect(again.stdout).toBe(r.stdout);
  });

  it('drops what an earlier run generated and renders anew: a stale generated object disappears', () => {
    const r = first();
    const stale = [
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      '  name: quickstart-config-0000000000',
      '  namespace: llama',
      '  annotations:',
      `    ${GENERATED_FROM}: llama/quickstart`,
      'data:',
      '  config.yaml: "version: 2"',
    ].join('\n');
    const withStale = resourceList([secretItem, stale, settingsItem, llsdItem]);
    const again = run([], { input: withStale });
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toBe(r.stdout);
  });
});

// An OGXServer item takes the LLSD's way through KRM mode: kept and marked local-config for kpt,
// consumed under a kustomize transformer, rendered as a generator's functionConfig.
describe('KRM mode: an OGXServer with pass-through objects', () => {
  const ogxText = readFixture('ogxserver.yaml');
  const ogxItem = withKptAnnotations(ogxText, 'apps/ogxserver.yaml', 0, 3);
  const ogxInput = resourceList([secretItem, settingsItem, ogxItem]);
  const first = lazy(() => run([], { input: ogxInput }));
  const OGX_KIND = 'OGXServer';

  it('exits 0 with nothing on stderr: the Secret is in the input', () => {
    const r = first();
    expect(r.status, r.stderr).toBe(0);
    expectNoCrash(r);
    expect(r.stderr).toBe('');
  });

  it('keeps the OGXServer after the pass-through objects, annotated local-config, its other fields untouched', () => {
    const out = parseResourceList(first().stdout);
    const before = parseResourceList(ogxInput);
    expect(out.items.slice(0, 3).map(ref)).toEqual(['Secret/vllm-credentials', 'ConfigMap/app-settings', `${OGX_KIND}/assistant`]);
    expect(out.items.slice(0, 2)).toEqual(before.items.slice(0, 2));
    const server = out.items[2] as KrmObject;
    const original = before.items[2] as KrmObject;
    expect(annotationsOf(server)).toEqual({ ...kptAnnotations('apps/ogxserver.yaml', '3'), [LOCAL_CONFIG]: 'true' });
    expect({ ...server, metadata: { ...server.metadata, annotations: {} } }).toEqual({ ...original, metadata: { ...original.metadata, annotations: {} } });
  });

  it('appends the objects the OGX operator would create, placed in apps/assistant.generated.yaml for kpt', () => {
    const out = parseResourceList(first().stdout);
    const generated = out.items.slice(3);
    expect(generated.every(isGenerated)).toBe(true);
    expect(generated.map(ref).sort()).toEqual(
      [
        'ConfigMap/' + generatedConfigMap(out.items).metadata.name,
        'Deployment/assistant',
        'NetworkPolicy/assistant-network-policy',
        'PrometheusRule/assistant-prometheus-rules',
        'Service/assistant-service',
        'ServiceAccount/assistant-sa',
        'ServiceMonitor/assistant-service-monitor',
      ].sort(),
    );
    expect(generatedConfigMap(out.items).metadata.name).toMatch(/^assistant-config-[0-9a-f]{16}$/);
    for (const o of generated) {
      expect(annotationsOf(o)[GENERATED_FROM]).toBe('llama/assistant');
      expect(annotationsOf(o)['internal.config.kubernetes.io/path']).toBe('apps/assistant.generated.yaml');
      expect(annotationsOf(o)[LOCAL_CONFIG]).toBeUndefined();
    }
  });

  it('reports on the OGXServer by its own resourceRef and file, with no warning or error', () => {
    const out = parseResourceList(first().stdout);
    expect(out.results.map((x) => x.severity)).not.toContain('error');
    expect(out.results.map((x) => x.severity)).not.toContain('warning');
    const [summary] = out.results;
    expect(summary?.message).toMatch(/^generated config\.yaml with 1 provider from the OGXServer .* and 1 model for OGX \d+\.\d+\.\d+/);
    expect(summary?.resourceRef).toEqual({ apiVersion: 'ogx.io/v1beta1', kind: OGX_KIND, name: 'assistant', namespace: 'llama' });
    expect(summary?.file?.path).toBe('apps/ogxserver.yaml');
  });

  it('is idempotent: its output fed back in gives byte-identical output', () => {
    const r = first();
    const again = run([], { input: r.stdout });
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toBe(r.stdout);
  });

  it('drops a stale generated ConfigMap of the OGXServer and renders anew', () => {
    const stale = [
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      '  name: assistant-config-0000000000000000',
      '  namespace: llama',
      '  annotations:',
      `    ${GENERATED_FROM}: llama/assistant`,
      'data:',
      '  config.yaml: "version: 2"',
    ].join('\n');
    const again = run([], { input: resourceList([secretItem, stale, settingsItem, ogxItem]) });
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toBe(first().stdout);
    expect(again.stdout).not.toContain('assistant-config-0000000000000000');
  });

  it('under a kustomize transformer (items with kustomize ids), the OGXServer is consumed and its objects take its place', () => {
    const kustomizeId = (kind: string, name: string, group?: string, version = 'v1') =>
      [
        '  annotations:',
        '    kustomize.config.k8s.io/id: |',
        ...(group ? [`      group: ${group}`] : []),
        `      kind: ${kind}`,
        `      name: ${name}`,
        '      namespace: llama',
        `      version: ${version}`,
      ].join('\n');
    const withId = (doc: string, id: string) => doc.replace(/^ {2}namespace: llama$/m, `  namespace: llama\n${id}`);
    const items = [
      withId(readFixture('secret.yaml'), kustomizeId('Secret', 'vllm-credentials')),
      withId(ogxText, kustomizeId(OGX_KIND, 'assistant', 'ogx.io', 'v1beta1')),
    ];
    const r = run([], { input: resourceList(items) });
    expect(r.status, r.stderr).toBe(0);
    const out = parseResourceList(r.stdout);
    expect(out.items.map(ref)).not.toContain(`${OGX_KIND}/assistant`);
    expect(out.items[0] && ref(out.items[0])).toBe('Secret/vllm-credentials');
    expect(out.items.slice(1).every(isGenerated)).toBe(true);
    expect(out.items.slice(1).map(ref)).toContain('Deployment/assistant');
  });

  it('as a kustomize generator (the OGXServer is the functionConfig, no items), renders the same objects', () => {
    const r = run([], { input: resourceList([], ogxText) });
    expect(r.status, r.stderr).toBe(0);
    // A generator sees none of the kustomization's resources: the Secret is said to be unchecked (an
    // info), not missing (issue 18).
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain("which a kustomize generator cannot check: kustomize gives a generator none of the kustomization's resources");
    const out = parseResourceList(r.stdout);
    const strip = (o: KrmObject): KrmObject => {
      const {
        ['internal.config.kubernetes.io/path']: _p,
        ['config.kubernetes.io/path']: _q,
        ['internal.config.kubernetes.io/index']: _i,
        ['config.kubernetes.io/index']: _j,
        ...rest
      } = annotationsOf(o);
      return { ...o, metadata: { ...o.metadata, annotations: rest } };
    };
    expect(out.items.every(isGenerated)).toBe(true);
    expect(out.items.map(strip)).toEqual(parseResourceList(first().stdout).items.filter(isGenerated).map(strip));
  });
});

describe('KRM mode: JSON on stdin', () => {
  const jsonInput = `{
  "apiVersion": "config.kubernetes.io/v1",
  "kind": "ResourceList",
  "items": [
    {"apiVersion": "v1", "kind": "ConfigMap",
     "metadata": {"name": "app-settings", "namespace": "llama",
                  "annotations": {"config.kubernetes.io/index": "0", "internal.config.kubernetes.io/path": "settings.yaml", "config.k8s.io/id": "1"}},
     "data": {"mode": "0755", "flag": "on"},
     "spec": {"bigNumber": 12345678901234567890, "ratio": 1.50}},
    ${JSON.stringify(parsePlain(llsdItem))}
  ]
}`;
  const jsonRun = lazy(() => run([], { input: jsonInput }));

  it('is read, and the output is YAML (not JSON) with the same items and generated objects as YAML input', () => {
    const r = jsonRun();
    expect(r.status, r.stderr).toBe(0);
    expectOnlyMissingSecretWarning(r);
    expect(r.stdout.startsWith('apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n')).toBe(true);
    expect(() => JSON.parse(r.stdout)).toThrow();
    const out = parseResourceList(r.stdout);
    expect(out.items.slice(0, 2).map(ref)).toEqual(['ConfigMap/app-settings', `${LLSD_KIND}/quickstart`]);
    const settings = out.items[0] as KrmObject;
    expect(settings.data).toEqual({ mode: '0755', flag: 'on' });
    expect(r.stdout).toMatch(/"?bigNumber"?: 12345678901234567890\b/);
    expect(r.stdout).toMatch(/"?ratio"?: 1\.50\b/);
    expect(annotationsOf(out.items[1] as KrmObject)[LOCAL_CONFIG]).toBe('true');

    // The same LLSD as YAML renders the same objects.
    const yamlRun = run([], { input: resourceList([settingsItem, llsdItem]) });
    expect(yamlRun.status).toBe(0);
    const fromYaml = parseResourceList(yamlRun.stdout).items.filter(isGenerated);
    expect(out.items.filter(isGenerated)).toEqual(fromYaml);
    expect(out.results.map((x) => x.message)).toEqual(parseResourceList(yamlRun.stdout).results.map((x) => x.message));
  });
});

describe('KRM mode: functionConfig', () => {
  const fnConfig = (data: Record<string, string>) =>
    ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: llsd-render-options', 'data:', ...Object.entries(data).map(([k, v]) => `  ${k}: "${v}"`)].join(
      '\n',
    );

  it('without one, the generated ConfigMap carries the Argo CD and Flux annotations', () => {
    const r = run([], { input: resourceList([secretItem, llsdItem]) });
    expect(r.status, r.stderr).toBe(0);
    const cm = generatedConfigMap(parseResourceList(r.stdout).items);
    expect(annotationsOf(cm)[ARGO_SYNC_OPTIONS]).toBe('PruneLast=true');
    expect(annotationsOf(cm)[FLUX_SUBSTITUTE]).toBe('disabled');
  });

  it('a ConfigMap with gitopsAnnotations: "false" removes them and changes nothing else', () => {
    const base = run([], { input: resourceList([secretItem, llsdItem]) });
    const r = run([], { input: resourceList([secretItem, llsdItem], fnConfig({ gitopsAnnotations: 'false' })) });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const out = parseResourceList(r.stdout);
    const cm = generatedConfigMap(out.items);
    expect(annotationsOf(cm)[ARGO_SYNC_OPTIONS]).toBeUndefined();
    expect(annotationsOf(cm)[FLUX_SUBSTITUTE]).toBeUndefined();
    const strip = (o: KrmObject): KrmObject => {
      const { [ARGO_SYNC_OPTIONS]: _a, [FLUX_SUBSTITUTE]: _f, ...rest } = annotationsOf(o);
      return { ...o, metadata: { ...o.metadata, annotations: rest } };
    };
    expect(out.items.map(strip)).toEqual(parseResourceList(base.stdout).items.map(strip));
    // The functionConfig is not an item: it is not echoed into the output items.
    expect(out.items.map(ref)).not.toContain('ConfigMap/llsd-render-options');
  });

  it('a ConfigMap with an unknown key: exit 1, an error at data.<key> with a did-you-mean, items unchanged', () => {
    const listInput = resourceList([secretItem, llsdItem], fnConfig({ gitopsAnotations: 'false' }));
    const r = run([], { input: listInput });
    expect(r.status, r.stderr).toBe(1);
    expectNoCrash(r);
    const out = parseResourceList(r.stdout);
    expect(out.items).toEqual(parseResourceList(listInput).items);
    // One result: the error. No "generated ..." summary for a render that produced nothing.
    expect(out.results).toHaveLength(1);
    const errors = out.results.filter((x) => x.severity === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]?.field?.path).toBe('data.gitopsAnotations');
    expect(errors[0]?.message).toMatch(/not a known (field|key|option)/);
    expect(errors[0]?.message).toMatch(/did you mean `gitopsAnnotations`\?/);
    expect(errors[0]?.resourceRef).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', name: 'llsd-render-options' });
    expect(stderrLines(r)).toEqual([`llsd-render-options: data.gitopsAnotations: ${errors[0]?.message}`]);
  });

  it('a ConfigMap with a bad value: exit 1, an error at data.<key> that names the accepted values', () => {
    const r = run([], { input: resourceList([secretItem, llsdItem], fnConfig({ gitopsAnnotations: 'nope' })) });
    expect(r.status, r.stderr).toBe(1);
    expectNoCrash(r);
    const errors = parseResourceList(r.stdout).results.filter((x) => x.severity === 'error');
    expect(errors.map((e) => e.field?.path)).toEqual(['data.gitopsAnnotations']);
    expect(errors[0]?.message).toMatch(/true/);
    expect(errors[0]?.message).toMatch(/false/);
  });
});

describe('stdin as kpt, kustomize and shells hand it over', () => {
  /**
   * The bundle reads stdin with blocking reads, and as a stream when the descriptor is
   * non-blocking (a parent may have set O_NONBLOCK on a shared pipe). python3 makes such a pipe,
   * starts the bundle on it and writes the ResourceList only after a pause, in two parts.
   */
  const viaPipe = (nonBlocking: boolean, firstPartBeforeStart = false): { status: number; stdout: string } => {
    const script = [
      'import fcntl, os, subprocess, sys, time',
      'r, w = os.pipe()',
      nonBlocking ? 'fcntl.fcntl(r, fcntl.F_SETFL, fcntl.fcntl(r, fcntl.F_GETFL) | os.O_NONBLOCK)' : 'pass',
      'data = sys.stdin.buffer.read()',
      firstPartBeforeStart ? 'os.write(w, data[:100])' : 'pass',
      'p = subprocess.Popen([sys.argv[1], sys.argv[2]], stdin=r, stdout=subprocess.PIPE)',
      'os.close(r)',
      'time.sleep(0.3)',
      firstPartBeforeStart ? 'pass' : 'os.write(w, data[:100])',
      'time.sleep(0.2); os.write(w, data[100:]); os.close(w)',
      'out = p.stdout.read(); p.wait()',
      'sys.stdout.buffer.write(out); sys.exit(p.returncode)',
    ].join('\n');
    const r = spawnSync('python3', ['-c', script, process.execPath, requireBundle()], { input, encoding: 'utf8', timeout: 60_000 });
    if (r.error) throw new Error(`python3 is needed for this test (Debian: python3): ${r.error.message}`);
    return { status: r.status ?? -1, stdout: r.stdout };
  };

  it('a blocking pipe written late and in parts: the same ResourceList as from a file', () => {
    const expected = run([], { input });
    const piped = viaPipe(false);
    expect(piped.status).toBe(0);
    expect(piped.stdout).toBe(expected.stdout);
  });

  it('a non-blocking pipe (read as a stream instead): the same ResourceList', () => {
    const expected = run([], { input });
    const piped = viaPipe(true);
    expect(piped.status).toBe(0);
    expect(piped.stdout).toBe(expected.stdout);
  });

  it('a non-blocking pipe that runs dry after the first part (read on after a wait): the same ResourceList', () => {
    const expected = run([], { input });
    const piped = viaPipe(true, true);
    expect(piped.status).toBe(0);
    expect(piped.stdout).toBe(expected.stdout);
  });
});

describe('KRM mode: an OGXServer (issue 17)', () => {
  // Found by the mutation fuzz with OGXServer seeds: the CLI let go of the OGXServer's node as if it
  // were passed through, and marking it local-config then failed with an internal error.
  const ogx = withKptAnnotations(
    'apiVersion: ogx.io/v1beta1\nkind: OGXServer\nmetadata:\n  name: chat\n  namespace: ai\nspec:\n  distribution: {name: starter}\n  storage: {}\n',
    'stacks/chat.yaml',
    0,
    1,
  );
  const result = lazy(() => run([], { input: resourceList([ogx]) }));

  it('renders: exit 0, no internal error, the OGXServer kept as local config next to its objects', () => {
    const r = result();
    expectNoCrash(r);
    expect(r.stdout).not.toContain('internal error');
    expect(r.status, r.stderr).toBe(0);
    const { items } = parseResourceList(r.stdout);
    const server = items.find((o) => o.kind === 'OGXServer');
    expect(server && annotationsOf(server)[LOCAL_CONFIG]).toBe('true');
    expect(items.filter(isGenerated).map((o) => o.kind)).toEqual(expect.arrayContaining(['ConfigMap', 'Deployment', 'Service']));
  });
});
