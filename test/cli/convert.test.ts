// `llsd-render convert` through the built bundle (docs/results.md): v1alpha1 LLSDs rewritten as
// v1alpha2 (or back with --to v1alpha1), every other document printed as it was, in order.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseOgxServer } from '../../src/ogx/ogxserver.js';
import { help } from '../../src/cli/help.js';
import {
  expectNoCrash,
  lazy,
  lineOfMarker,
  packageVersion,
  parseStream,
  quickstartText,
  run,
  stderrLines,
  streamDocuments,
  tempDir,
  writeTree,
} from './run.js';

const CONVERSION_DATA = 'llamastack.io/conversion-data';

const legacyLlsd = `# written for the v1alpha1 operator
apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata:
  name: legacy
  namespace: llama
  labels: {team: search}
spec:
  replicas: 2
  server:
    distribution:
      name: starter
    containerSpec:
      name: server
      port: 8080
      env:
        - {name: INFERENCE_MODEL, value: llama3}
    userConfig:
      configMapName: legacy-run-config
      configMapNamespace: llama
  network:
    exposeRoute: true
`;
const userConfigMap = `apiVersion: v1
kind: ConfigMap
metadata:
  name: legacy-run-config
  namespace: llama
data:
  config.yaml: |
    version: 2
  mode: "0755"
  enabled: "on"
`;
const currentLlsd = `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata:
  name: current
  namespace: llama
spec:
  distribution: {name: starter}
  providers:
    inference: {provider: vllm, endpoint: "http://vllm:8000/v1"}
`;
const secret = `apiVersion: v1
kind: Secret
metadata: {name: creds, namespace: llama}
stringData: {token: "0755"}
`;

/** A tree with v1alpha1 and v1alpha2 LLSDs among other documents, in several files. */
const tree = lazy(() =>
  writeTree(tempDir('llsd-render-convert-'), {
    'apps/legacy.yaml': `${legacyLlsd}---\n${userConfigMap}`,
    'apps/current.yaml': currentLlsd,
    'secret.yaml': secret,
  }),
);
const toV1alpha2 = lazy(() => run(['convert', '.'], { cwd: tree() }));

const expectedV1alpha2Legacy = {
  apiVersion: 'llamastack.io/v1alpha2',
  kind: 'LlamaStackDistribution',
  metadata: {
    name: 'legacy',
    namespace: 'llama',
    labels: { team: 'search' },
    annotations: {
      [CONVERSION_DATA]:
        '{"apiVersion":"llamastack.io/v1alpha1","spec":{"server":{"containerSpec":{"name":"server"},"userConfig":{"configMapNamespace":"llama"}}}}',
    },
  },
  spec: {
    distribution: { name: 'starter' },
    networking: { port: 8080, expose: true },
    workload: { replicas: 2, overrides: { env: [{ name: 'INFERENCE_MODEL', value: 'llama3' }] } },
    overrideConfig: { configMapName: 'legacy-run-config' },
  },
};

describe('convert PATH...: v1alpha1 to v1alpha2', () => {
  it('prints every document in file order, the v1alpha1 LLSD converted and the others as they were', () => {
    const r = toV1alpha2();
    expect(r.status, r.stderr).toBe(0);
    expectNoCrash(r);
    const docs = parseStream(r.stdout);
    expect(docs.map((d) => `${d.apiVersion} ${d.kind}/${d.metadata.name}`)).toEqual([
      'llamastack.io/v1alpha2 LlamaStackDistribution/current',
      'llamastack.io/v1alpha2 LlamaStackDistribution/legacy',
      'v1 ConfigMap/legacy-run-config',
      'v1 Secret/creds',
    ]);
    expect(docs[1]).toEqual(expectedV1alpha2Legacy);
    expect(docs[0]).toEqual(parseStream(currentLlsd)[0]);
  });

  it('leaves out what an earlier build generated (objects marked llamastack.io/generated-from), as build does; the other documents stay', () => {
    const root = tempDir();
    const mine = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: mine, namespace: llama}\ndata: {a: b}\n';
    writeTree(root, { 'app/llsd.yaml': quickstartText(), 'app/cm.yaml': mine });
    const built = run(['build', 'app'], { cwd: root });
    expect(built.status, built.stderr).toBe(0);
    const generated = parseStream(built.stdout).filter((o) => o.metadata.annotations?.['llamastack.io/generated-from'] !== undefined);
    expect(generated.map((o) => o.kind)).toEqual(expect.arrayContaining(['ConfigMap', 'Deployment', 'Service']));
    // The generated objects saved among the inputs (as `build app > app/rendered.yaml` less the pass-through ConfigMap).
    const generatedText = streamDocuments(built.stdout).filter((d) => d.includes('llamastack.io/generated-from'));
    writeTree(root, { 'app/rendered.yaml': generatedText.join('---\n') });
    // build of the folder with its old output in it renders the same objects once, not twice.
    expect(run(['build', 'app'], { cwd: root }).stdout).toBe(built.stdout);
    const r = run(['convert', 'app'], { cwd: root });
    expect(r.status, r.stderr).toBe(0);
    expect(parseStream(r.stdout).map((o) => `${o.kind}/${o.metadata.name}`)).toEqual(['ConfigMap/mine', 'LlamaStackDistribution/quickstart']);
  });

  it('writes the untouched documents with their scalars as written ("0755", "on" stay strings)', () => {
    const texts = streamDocuments(toV1alpha2().stdout);
    expect(texts[2]).toContain('mode: "0755"');
    expect(texts[2]).toContain('enabled: "on"');
    expect(texts[3]).toContain('token: "0755"');
    expect(parseStream(toV1alpha2().stdout)[2]).toEqual(parseStream(userConfigMap)[0]);
  });

  it('warns on stderr, at the LLSD, about the fields it keeps in the annotation', () => {
    const r = toV1alpha2();
    expect(stderrLines(r)).toEqual([
      `apps/legacy.yaml:${lineOfMarker(legacyLlsd, 'metadata:')}: llama/legacy: metadata.annotations["${CONVERSION_DATA}"]: warning: keeps ` +
        `\`spec.server.containerSpec.name\`, \`spec.server.userConfig.configMapNamespace\`: llamastack.io/v1alpha2 has no field for them (or cannot hold ` +
        `the value); converting back to llamastack.io/v1alpha1 restores them [conversion-annotation]`,
    ]);
  });

  it('is lossless: convert --to v1alpha1 of the output gives the original documents back', () => {
    const dir = tempDir('llsd-render-convert-back-');
    writeTree(dir, { 'converted.yaml': toV1alpha2().stdout });
    const r = run(['convert', '--to', 'v1alpha1', dir]);
    expect(r.status, r.stderr).toBe(0);
    const back = parseStream(r.stdout);
    const original = [...parseStream(currentLlsd), ...parseStream(`${legacyLlsd}---\n${userConfigMap}`), ...parseStream(secret)];
    // The v1alpha2 LLSD goes down to v1alpha1 too, with its providers in the annotation.
    expect(back[1]).toEqual(original[1]);
    expect(back[2]).toEqual(original[2]);
    expect(back[3]).toEqual(original[3]);
    expect(back[0]?.apiVersion).toBe('llamastack.io/v1alpha1');
    expect(back[0]?.metadata.annotations?.[CONVERSION_DATA]).toBe(
      '{"apiVersion":"llamastack.io/v1alpha2","spec":{"providers":{"inference":{"provider":"vllm","endpoint":"http://vllm:8000/v1"}}}}',
    );
    // …and back up again: the original v1alpha2 LLSD, annotation gone.
    writeTree(dir, { 'converted.yaml': r.stdout });
    const again = run(['convert', dir]);
    expect(again.status, again.stderr).toBe(0);
    expect(parseStream(again.stdout)[0]).toEqual(original[0]);
  });

  it('--to llamastack.io/v1alpha2 (the full apiVersion) is the default made explicit; output is the same bytes', () => {
    const r = run(['convert', '--to', 'llamastack.io/v1alpha2', '.'], { cwd: tree() });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(toV1alpha2().stdout);
  });
});

describe('convert: a change made in v1alpha1 wins over the conversion data (issue 29, W2)', () => {
  it('v1alpha2 with providers to v1alpha1, `userConfig` added there, back: providers dropped with a warning, exit 0, the rules hold', () => {
    const dir = writeTree(tempDir(), { 'llsd.yaml': currentLlsd });
    const down = run(['convert', '--to', 'v1alpha1', '.'], { cwd: dir });
    expect(down.status, down.stderr).toBe(0);
    const edited = down.stdout.replace(/(\n {4}distribution:\n {6}name: starter\n)/, '$1    userConfig:\n      configMapName: my-config\n');
    expect(edited).toContain('userConfig:');
    const back = run(['convert', '.'], { cwd: writeTree(tempDir(), { 'llsd.yaml': edited }) });
    expect(back.status, back.stderr).toBe(0);
    const [object] = parseStream(back.stdout) as unknown as [{ spec: Record<string, unknown> }];
    expect(object.spec).toEqual({ distribution: { name: 'starter' }, overrideConfig: { configMapName: 'my-config' } });
    expect(stderrLines(back)).toEqual([
      `llsd.yaml:${lineOfMarker(edited, CONVERSION_DATA)}: llama/current: metadata.annotations["${CONVERSION_DATA}"]: warning: held llamastack.io/v1alpha2 ` +
        'fields that clash with changes made in llamastack.io/v1alpha1 after it was written, and the changes win: dropped `spec.providers`, which cannot ' +
        'be combined with `spec.overrideConfig` (from `spec.server.userConfig`). Set the dropped fields again in llamastack.io/v1alpha2 if they are ' +
        'still wanted [conversion-data-dropped]',
    ]);
    // Before, the output held both and broke its own CRD rule (validate: "cannot be combined with `spec.overrideConfig`").
    const check = run(['validate', '.'], { cwd: writeTree(tempDir(), { 'llsd.yaml': back.stdout }) });
    expect(check.stderr).toContain('spec.overrideConfig.configMapName: names the ConfigMap "my-config", which is not in the input');
    expect(check.stderr).not.toContain('cannot be combined');
  });
});

describe('convert: errors', () => {
  it('a v1alpha1 LLSD that does not match the v1alpha1 schema: exit 1, one stderr line per error at its field, nothing on stdout', () => {
    const text = legacyLlsd.replace('      port: 8080\n', '      port: 8080\n      prot: 8080\n').replace('  replicas: 2\n', '  replicas: two\n');
    const dir = writeTree(tempDir(), { 'llsd.yaml': text });
    const r = run(['convert', 'llsd.yaml'], { cwd: dir });
    expect(r.status).toBe(1);
    expectNoCrash(r);
    expect(r.stdout).toBe('');
    expect(stderrLines(r)).toEqual([
      `llsd.yaml:${lineOfMarker(text, 'replicas:')}: llama/legacy: spec.replicas: must be a number, not a string`,
      `llsd.yaml:${lineOfMarker(text, 'prot:')}: llama/legacy: spec.server.containerSpec.prot: is not a known field; did you mean \`port\`?`,
    ]);
  });

  it.each([
    ['v1alpha2', 'llamastack.io/v1alpha2'],
    ['v1alpha1', 'llamastack.io/v1alpha1'],
  ])('an LLSD already in the target version (%s) is checked as a converted one (attacker C1: `spec.providers: "hello"` exit 0)', (to, apiVersion) => {
    const text = `apiVersion: ${apiVersion}\nkind: LlamaStackDistribution\nmetadata: {name: already, namespace: llama}\nspec:\n` +
      (to === 'v1alpha2' ? '  distribution: {name: starter}\n  providers: "hello"\n' : '  server:\n    distribution: {name: starter}\n  replicas: two\n');
    const dir = writeTree(tempDir(), { 'llsd.yaml': text });
    const r = run(['convert', '--to', to, 'llsd.yaml'], { cwd: dir });
    expectNoCrash(r);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(stderrLines(r)).toEqual([
      to === 'v1alpha2'
        ? `llsd.yaml:${lineOfMarker(text, 'providers:')}: llama/already: spec.providers: must be a mapping, not a string`
        : `llsd.yaml:${lineOfMarker(text, 'replicas:')}: llama/already: spec.replicas: must be a number, not a string`,
    ]);
  });

  it('an LLSD of an unknown version is an error that lists the supported ones', () => {
    const text = currentLlsd.replace('v1alpha2', 'v1beta1');
    const dir = writeTree(tempDir(), { 'llsd.yaml': text });
    const r = run(['convert', '.'], { cwd: dir });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(stderrLines(r)).toEqual([
      `llsd.yaml:1: llama/current: apiVersion: apiVersion "llamastack.io/v1beta1" is not supported for LlamaStackDistribution; use llamastack.io/v1alpha1 ` +
        `or llamastack.io/v1alpha2`,
    ]);
  });

  it('a conversion annotation that is not llsd-render JSON is an error at the annotation', () => {
    const text = currentLlsd
      .replace('  namespace: llama\n', `  namespace: llama\n  annotations:\n    ${CONVERSION_DATA}: "{broken"\n`)
      .replace('v1alpha2', 'v1alpha1')
      .replace(/spec:[\s\S]*$/, 'spec:\n  server:\n    distribution: {name: starter}\n');
    const dir = writeTree(tempDir(), { 'llsd.yaml': text });
    const r = run(['convert', '.'], { cwd: dir });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(stderrLines(r)).toEqual([
      `llsd.yaml:${lineOfMarker(text, CONVERSION_DATA)}: llama/current: metadata.annotations["${CONVERSION_DATA}"]: must be the JSON record llsd-render ` +
        `writes (\`{"apiVersion": …, "spec": {…}}\`); restore the value llsd-render wrote, or remove the annotation to convert without it (the fields it ` +
        `held are then lost)`,
    ]);
  });

  it('usage errors exit 2 with a one-line reason', () => {
    const cases: Array<[string[], string]> = [
      [['convert'], 'llsd-render: convert needs at least one PATH'],
      [['convert', '--to', 'v3', 'x'], 'llsd-render: --to must be v1alpha1, v1alpha2 or ogx.io/v1beta1, not "v3"'],
      [['convert', '--output', 'dir', 'x'], 'llsd-render: unknown option "--output" (options: --to, --help, --version)'],
      [['convert', '/no/such/path'], 'llsd-render: /no/such/path: no such file or directory'],
    ];
    for (const [args, message] of cases) {
      const r = run(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(stderrLines(r)).toEqual([message, 'Run `llsd-render --help` for usage.']);
    }
  });
});

const legacyExposedLlsd = legacyLlsd;
/** The user config, complete enough for OGX 1.3.0 (the converted OGXServer's release), which refuses `version: 2` alone. */
const ogxUserConfigMap = userConfigMap.replace(
  '    version: 2\n',
  '    version: 2\n    distro_name: legacy\n    apis: [inference]\n    providers:\n      inference:\n' +
    '        - {provider_id: vllm, provider_type: remote::vllm, config: {base_url: "http://vllm:8000/v1"}}\n',
);

describe('convert --to ogx.io/v1beta1: LLSDs of both versions rewritten as OGXServers', () => {
  // Without `exposeRoute`: the OGXServer's external access needs `hostname` and `tls`, which a v1alpha1
  // LLSD cannot give (test/unit/to-ogxserver.test.ts has that refusal).
  const legacyLlsd = legacyExposedLlsd.replace('  network:\n    exposeRoute: true\n', '');
  const ogxTree = lazy(() =>
    writeTree(tempDir('llsd-render-convert-ogx-'), {
      'apps/legacy.yaml': `${legacyLlsd}---\n${ogxUserConfigMap}`,
      'apps/current.yaml': currentLlsd,
      'secret.yaml': secret,
    }),
  );
  const toOgx = lazy(() => run(['convert', '--to', 'ogx.io/v1beta1', '.'], { cwd: ogxTree() }));

  it('prints every document in file order, each LLSD as an OGXServer that parses, the others as they were', () => {
    const r = toOgx();
    expect(r.status, r.stderr).toBe(0);
    expectNoCrash(r);
    const docs = parseStream(r.stdout);
    expect(docs.map((d) => `${d.apiVersion} ${d.kind}/${d.metadata.name}`)).toEqual([
      'ogx.io/v1beta1 OGXServer/current-ogx',
      'ogx.io/v1beta1 OGXServer/legacy-ogx',
      'v1 ConfigMap/legacy-run-config',
      'v1 Secret/creds',
    ]);
    for (const doc of docs.slice(0, 2)) {
      const parsed = parseOgxServer(doc);
      expect(parsed.ok ? [] : parsed.problems, doc.metadata.name).toEqual([]);
    }
    expect(docs[1]).toEqual({
      apiVersion: 'ogx.io/v1beta1',
      kind: 'OGXServer',
      metadata: { name: 'legacy-ogx', namespace: 'llama', labels: { team: 'search' }, annotations: { 'ogx.io/adopt-networking': 'legacy' } },
      spec: {
        distribution: { name: 'starter' },
        overrideConfig: { name: 'legacy-run-config', key: 'config.yaml' },
        network: { port: 8080, policy: { enabled: false } },
        workload: { replicas: 2, overrides: { env: [{ name: 'INFERENCE_MODEL', value: 'llama3' }] } },
      },
    });
    expect((docs[0] as unknown as { spec: unknown }).spec).toEqual({
      distribution: { name: 'starter' },
      providers: { inference: { remote: { vllm: [{ id: 'vllm', endpoint: 'http://vllm:8000/v1' }] } } },
      network: { policy: { enabled: false } },
    });
    expect(parseStream(r.stdout)[2]).toEqual(parseStream(ogxUserConfigMap)[0]);
  });

  it('warns on stderr, at the LLSD field, about each field without an equivalent', () => {
    const lines = stderrLines(toOgx());
    expect(lines).toContain(
      `apps/legacy.yaml:${lineOfMarker(legacyLlsd, '      name: server')}: llama/legacy: spec.server.containerSpec.name: warning: is dropped: the ` +
        `OGXServer's container is always named \`ogx\`, not "server"; update anything that names the container (\`kubectl logs -c\`, patches) ` +
        `[ogx-conversion]`,
    );
    expect(lines.filter((l) => l.startsWith('apps/current.yaml:'))).toEqual([
      expect.stringMatching(
        /^apps\/current\.yaml:\d+: llama\/current: spec\.providers\.inference: warning: replaces the distribution's inference providers in the OGXServer/,
      ),
    ]);
    expect(lines.every((l) => l.includes(': warning: '))).toBe(true);
  });

  it('v1beta1 is short for ogx.io/v1beta1: the same bytes', () => {
    expect(run(['convert', '--to', 'v1beta1', '.'], { cwd: ogxTree() }).stdout).toBe(toOgx().stdout);
  });

  it('an invalid LLSD: exit 1, the error at its field, nothing on stdout', () => {
    const dir = writeTree(tempDir('llsd-render-convert-ogx-bad-'), { 'llsd.yaml': currentLlsd.replace('provider: vllm', 'provider: vlm') });
    const r = run(['convert', '--to', 'ogx.io/v1beta1', dir]);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(stderrLines(r)).toEqual([
      expect.stringMatching(
        /llsd\.yaml:\d+: llama\/current: spec\.providers\.inference\.provider: "vlm" is not an inference provider in OGX [0-9.]+\. Did you mean "vllm"\?/,
      ),
    ]);
  });
});

describe('convert --to ogx.io/v1beta1 checks its output with build (issue 28: never an OGXServer that build refuses)', () => {
  it('a user config the OGX release refuses: exit 1, build\'s errors at the LLSD field that names the ConfigMap, nothing on stdout', () => {
    // Without `exposeRoute`, which the conversion refuses first (external access needs hostname and tls).
    const unexposed = legacyLlsd.replace('  network:\n    exposeRoute: true\n', '');
    expect(unexposed).not.toBe(legacyLlsd);
    const dir = writeTree(tempDir('llsd-render-convert-ogx-check-'), { 'legacy.yaml': `${unexposed}---\n${userConfigMap}` });
    const r = run(['convert', '--to', 'ogx.io/v1beta1', '.'], { cwd: dir });
    expectNoCrash(r);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    const errors = stderrLines(r).filter((l) => !l.includes(': warning: '));
    expect(errors.length).toBeGreaterThan(0);
    for (const line of errors) {
      expect(line).toMatch(
        /^legacy\.yaml:\d+: llama\/legacy: spec\.server\.userConfig\.configMapName: cannot be converted: `build` of the OGXServer "legacy-ogx" would fail at `spec\.overrideConfig\.name`: the config\.yaml of the ConfigMap "legacy-run-config" /,
      );
    }
    expect(errors.join('\n')).toContain('`distro_name` is missing');
  });

  it('an embedding model: the OGXServer and its base ConfigMap, and build of the output registers the model with its dimension', () => {
    const llsd = `${currentLlsd}  resources:\n    models:\n      - llama3\n      - {name: nomic, modelType: embedding, embeddingDimension: 768}\n`;
    const dir = writeTree(tempDir('llsd-render-convert-ogx-embedding-'), { 'llsd.yaml': llsd });
    expect(run(['build', dir]).status, 'the LLSD renders').toBe(0);
    const r = run(['convert', '--to', 'ogx.io/v1beta1', dir]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('asks the provider');
    expect(r.stderr).toContain('is registered from the ConfigMap "current-ogx-base-config" written beside the OGXServer');
    const docs = parseStream(r.stdout);
    expect(docs.map((d) => `${d.kind}/${d.metadata.name}`)).toEqual(['OGXServer/current-ogx', 'ConfigMap/current-ogx-base-config']);
    const out = writeTree(tempDir('llsd-render-convert-ogx-embedding-out-'), { 'ogx.yaml': r.stdout });
    const built = run(['build', out]);
    expect(built.status, built.stderr).toBe(0);
    const config = parseStream(built.stdout).find((d) => d.kind === 'ConfigMap' && d.metadata.name.startsWith('current-ogx-config-'));
    const text = (config as unknown as { data: Record<string, string> }).data['config.yaml'] as string;
    const generated = parse(text) as { registered_resources: { models: unknown[] } };
    expect(generated.registered_resources.models).toEqual([
      { model_id: 'llama3', provider_id: 'vllm', provider_model_id: 'llama3', model_type: 'llm' },
      { model_id: 'nomic', provider_id: 'vllm', provider_model_id: 'nomic', model_type: 'embedding', metadata: { embedding_dimension: 768 } },
    ]);
  });

  it('a faiss vector_io provider (a `custom` OGXServer provider): `persistence` filled as the LLSD renders it, a warning naming it, and build of the output exits 0', () => {
    const llsd = `${currentLlsd}    vectorIo: {provider: faiss}\n`;
    const dir = writeTree(tempDir('llsd-render-convert-ogx-faiss-'), { 'llsd.yaml': llsd });
    const before = run(['build', dir]);
    expect(before.status, before.stderr).toBe(0);
    const llsdConfig = parseStream(before.stdout).find((d) => d.kind === 'ConfigMap' && d.metadata.name.startsWith('current-config-'));
    const llsdFaiss = (parse((llsdConfig as unknown as { data: Record<string, string> }).data['config.yaml'] as string) as { providers: { vector_io: Array<{
      provider_id: string; config: unknown; }> } }).providers.vector_io.find((p) => p.provider_id === 'faiss');
    const r = run(['convert', '--to', 'ogx.io/v1beta1', dir]);
    expect(r.status, r.stderr).toBe(0);
    expect(stderrLines(r)).toContainEqual(expect.stringMatching(
      /llsd\.yaml:\d+: llama\/current: spec\.providers\.vectorIo: warning: becomes a `custom` provider, which has only the config keys written, so its `settings` also give `persistence` as the LLSD's config\.yaml has it: from the "faiss" entry of the base config of starter at OGX [0-9.]+, .* \[ogx-conversion\]$/,
    ));
    const server = parseStream(r.stdout)[0] as unknown as { spec: { providers: { vectorIo: unknown } } };
    expect(server.spec.providers.vectorIo).toEqual({
      inline: { custom: [{ id: 'faiss', type: 'inline::faiss', settings: { persistence: { namespace: 'vector_io::faiss', backend: 'kv_default' } } }] },
    });
    const out = writeTree(tempDir('llsd-render-convert-ogx-faiss-out-'), { 'ogx.yaml': r.stdout });
    const built = run(['build', out]);
    expect(built.status, built.stderr).toBe(0);
    const config = parseStream(built.stdout).find((d) => d.kind === 'ConfigMap' && d.metadata.name.startsWith('current-ogx-config-'));
    const generated = parse((config as unknown as { data: Record<string, string> }).data['config.yaml'] as string) as { providers: { vector_io: unknown[] } };
    // The OGXServer's config has faiss as the LLSD's had it: the same namespace, so the same data.
    expect(generated.providers.vector_io).toEqual([{ provider_id: 'faiss', provider_type: 'inline::faiss', config: llsdFaiss?.config }]);
    expect(llsdFaiss?.config).toEqual({ persistence: { namespace: 'vector_io::faiss', backend: 'kv_default' } });
  });

  // Issue 28, "Done when": every LLSD example converts to an OGXServer that renders.
  // Each directory of examples/ with an LLSD in a YAML file (not the expected outputs, nor the migration example's converted result).
  const exampleDirs = [
    ...new Set(
      (readdirSync('examples', { recursive: true }) as string[])
        .filter((f) => /\.ya?ml$/.test(f) && !f.startsWith('expected') && !f.endsWith('converted.yaml'))
        .filter((f) => /^kind: LlamaStackDistribution$/m.test(readFileSync(join('examples', f), 'utf8')))
        .map((f) => dirname(f)),
    ),
  ].sort();
  it('finds the example LLSDs', () => expect(exampleDirs.length).toBeGreaterThanOrEqual(10));
  it.each(exampleDirs)('examples/%s converts, and build of the output exits 0 with the OGXServer rendered', (example) => {
    const r = run(['convert', '--to', 'ogx.io/v1beta1', `examples/${example}`]);
    expect(r.status, r.stderr).toBe(0);
    expect(parseStream(r.stdout).some((d) => d.kind === 'OGXServer')).toBe(true);
    const out = writeTree(tempDir('llsd-render-convert-example-'), { 'converted.yaml': r.stdout });
    const built = run(['build', out]);
    expect(built.status, built.stderr).toBe(0);
    expect(parseStream(built.stdout).some((d) => d.kind === 'Deployment')).toBe(true);
  });
});

describe('convert --help and --version', () => {
  it('prints its help and the version', () => {
    const r = run(['convert', '--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(help.convert);
    expect(r.stdout).toMatch(/^Usage: llsd-render convert \[--to VERSION\] PATH\.\.\./);
    expect(run(['convert', '--version']).stdout).toBe(`${packageVersion()}\n`);
    const main = run(['--help']);
    expect(main.stdout).toContain('llsd-render convert PATH...');
    expect(main.stdout).toContain('llsd-render webhook --cert FILE --key FILE');
  });
});

// Issue 29 follow-up (num lane): a vLLM provider that becomes `custom` (max_tokens 0 or -1 fits no
// `maxTokens`) without an apiKey was refused at `settings.api_token`, a field the user never wrote:
// the fallback took the base's `api_token: ${env.VLLM_API_TOKEN:=fake}`, whose default the OGXServer
// refuses in `settings`.
describe('convert --to ogx.io/v1beta1: a custom vLLM provider without apiKey', () => {
  const llsd = (distribution: string, release: string, maxTokens: number): string =>
    'apiVersion: llamastack.io/v1alpha2\nkind: LlamaStackDistribution\nmetadata:\n  name: q\n  namespace: llama\n' +
    `  annotations:\n    llamastack.io/release: "${release}"\nspec:\n  distribution:\n    name: ${distribution}\n` +
    `  providers:\n    inference:\n      provider: vllm\n      endpoint: http://vllm:8000/v1\n      settings:\n        max_tokens: ${maxTokens}\n` +
    '  resources:\n    models:\n      - m1\n';

  it.each([
    ['starter', '1.3.0', 0],
    ['starter', '0.7.1', -1],
    ['postgres-demo', '1.0.0', 0],
    ['postgres-demo', '1.2.2', -1],
  ])('%s at %s, max_tokens %s: converts (and builds), api_token left out with a warning saying so', (distribution, release, maxTokens) => {
    const r = run(['convert', '--to', 'ogx.io/v1beta1', writeTree(tempDir(), { 'llsd.yaml': llsd(distribution, release, maxTokens) })]);
    expect(r.status, r.stderr).toBe(0);
    const [server] = parseStream(r.stdout) as unknown as Array<{ spec: { providers: { inference: { remote: { custom: Array<Record<string, unknown>> } } } } }>;
    const custom = server?.spec.providers.inference.remote.custom[0];
    const settings = custom?.settings as Record<string, unknown>;
    expect(settings.max_tokens).toBe(maxTokens);
    // `url` up to 0.7, `base_url` after.
    expect(Object.values(settings)).toContain('http://vllm:8000/v1');
    expect(custom?.settings).not.toHaveProperty('api_token');
    expect(stderrLines(r).join('\n')).toMatch(
      /spec\.providers\.inference: warning: becomes a `custom` provider, .*`api_token` of .* is left out: .* give it in `secretRefs` if the provider needs one/,
    );
  });
});
