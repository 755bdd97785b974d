// The real kpt (1.0.0-beta.56) running the built bundle as an exec function: `kpt fn render`
// on examples/kpt (an LLSD) and examples/kpt-ogx (an OGXServer), and `kpt fn eval -` on stdin.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseDocument, parse as parseYaml } from 'yaml';
import {
  annotationsOf,
  changedFiles,
  copyDir,
  describeRun,
  generatedConfigMaps,
  ofKind,
  parseStream,
  readText,
  repoRoot,
  requireBundle,
  requireTool,
  run,
  snapshotDir,
  useTempDirs,
  writeFile,
  type K8sObject,
} from './tools.js';

const examplePackage = join(repoRoot, 'examples', 'kpt');
const llsdFile = 'apps/llsd.yaml';
const passThroughFile = 'apps/settings.yaml';
const committedExec = '../../dist/llsd-render.js';

const exampleLlsd = parseYaml(readFileSync(join(examplePackage, llsdFile), 'utf8')) as K8sObject;
const llsdName = exampleLlsd.metadata.name;
const llsdNamespace = exampleLlsd.metadata.namespace ?? 'default';
/** `<dir of the LLSD file>/<llsd name>.generated.yaml` */
const generatedFile = `apps/${llsdName}.generated.yaml`;

/** A copy of an example package whose Kptfile runs the bundle by absolute path. */
function copyPackage(example: string, root: string, bundle: string): string {
  const pkg = copyDir(example, join(root, 'pkg'));
  const kptfile = parseDocument(readText(join(pkg, 'Kptfile')));
  expect(kptfile.getIn(['pipeline', 'mutators', 0, 'exec'])).toBe(committedExec);
  kptfile.setIn(['pipeline', 'mutators', 0, 'exec'], bundle);
  writeFile(join(pkg, 'Kptfile'), kptfile.toString());
  return pkg;
}

/** Every object in every YAML file of the package, with the file it came from. */
function packageObjects(pkg: string): Array<{ file: string; object: K8sObject }> {
  const out: Array<{ file: string; object: K8sObject }> = [];
  for (const [file, bytes] of snapshotDir(pkg)) {
    if (file !== 'Kptfile' && !file.endsWith('.yaml')) continue;
    for (const object of parseStream(bytes.toString('utf8'))) out.push({ file, object });
  }
  return out;
}

describe('kpt fn render (exec function)', () => {
  const tmp = useTempDirs();
  let kpt = '';
  let bundle = '';
  beforeEach(() => {
    kpt = requireTool('kpt');
    bundle = requireBundle();
  });

  const preparePackage = (): string => copyPackage(examplePackage, tmp('llsd-kpt-'), bundle);
  const render = (pkg: string) => run(kpt, ['fn', 'render', '--allow-exec', pkg]);

  function renderOk(pkg: string): void {
    const result = render(pkg);
    expect(result.status, describeRun(result)).toBe(0);
  }

  it('writes the generated objects next to the LLSD, marks the LLSD local-config, and a second render changes nothing', () => {
    const pkg = preparePackage();
    const passThroughBefore = readFileSync(join(pkg, passThroughFile));
    expect(existsSync(join(pkg, generatedFile))).toBe(false);

    const first = render(pkg);
    expect(first.status, describeRun(first)).toBe(0);
    // kpt shows our info result.
    expect(first.stderr).toMatch(/\[PASS\]/);
    expect(first.stderr).toContain('generated config.yaml with');

    expect(existsSync(join(pkg, generatedFile)), `${generatedFile} should exist`).toBe(true);
    const generated = parseStream(readText(join(pkg, generatedFile)));
    const configMaps = generatedConfigMaps(generated, llsdName);
    expect(configMaps).toHaveLength(1);
    const configMap = configMaps[0] as K8sObject;
    expect(configMap.immutable).toBe(true);
    expect(Object.keys(configMap.data as object)).toEqual(['config.yaml']);
    expect(ofKind(generated, 'Deployment').map((o) => o.metadata.name)).toEqual([llsdName]);
    expect(ofKind(generated, 'Service').map((o) => o.metadata.name)).toEqual([`${llsdName}-service`]);
    expect(ofKind(generated, 'ServiceAccount').map((o) => o.metadata.name)).toEqual([`${llsdName}-sa`]);
    expect(generated.map((o) => o.kind).sort()).toEqual(['ConfigMap', 'Deployment', 'Service', 'ServiceAccount']);
    for (const object of generated) {
      expect(annotationsOf(object)['llamastack.io/generated-from']).toBe(`${llsdNamespace}/${llsdName}`);
      expect(object.metadata.namespace).toBe(llsdNamespace);
    }
    // The Deployment mounts the ConfigMap that was generated with it.
    expect(JSON.stringify(ofKind(generated, 'Deployment')[0])).toContain(`"name":"${configMap.metadata.name}"`);

    // The LLSD stays in the package, marked so that nothing applies it.
    const llsdText = readText(join(pkg, llsdFile));
    expect(llsdText).toContain('config.kubernetes.io/local-config: "true"');
    const llsd = parseStream(llsdText);
    expect(llsd).toHaveLength(1);
    expect(annotationsOf(llsd[0] as K8sObject)['config.kubernetes.io/local-config']).toBe('true');

    // The pass-through ConfigMap is untouched: comments kept once, ambiguous scalars still quoted.
    const passThroughAfter = readFileSync(join(pkg, passThroughFile));
    expect(passThroughAfter.toString('utf8')).toBe(passThroughBefore.toString('utf8'));
    const passThroughText = passThroughAfter.toString('utf8');
    expect(passThroughText.split('# quoted on purpose').length - 1).toBe(1);
    expect(passThroughText.split('# settings read by a sidecar').length - 1).toBe(1);
    expect(passThroughText).toContain('mode: "0755"');
    expect(passThroughText).toContain('flag: "on"');

    // render(render(x)) == render(x), byte for byte, same set of files.
    const before = snapshotDir(pkg);
    renderOk(pkg);
    const after = snapshotDir(pkg);
    expect([...after.keys()]).toEqual([...before.keys()]);
    expect(changedFiles(before, after)).toEqual([]);
  });

  it('replaces the old hash-named ConfigMap when the LLSD changes (mark and replace)', () => {
    const pkg = preparePackage();
    renderOk(pkg);
    const firstConfigMaps = generatedConfigMaps(parseStream(readText(join(pkg, generatedFile))), llsdName);
    expect(firstConfigMaps).toHaveLength(1);
    const oldName = (firstConfigMaps[0] as K8sObject).metadata.name;

    const llsd = parseDocument(readText(join(pkg, llsdFile)));
    llsd.addIn(['spec', 'resources', 'models'], 'ibm-granite/granite-3.3-8b-instruct');
    writeFile(join(pkg, llsdFile), llsd.toString());
    renderOk(pkg);

    const all = packageObjects(pkg);
    const configMaps = all.filter(({ object }) => generatedConfigMaps([object], llsdName).length === 1);
    expect(configMaps.map(({ file }) => file)).toEqual([generatedFile]);
    const newConfigMap = (configMaps[0] as { object: K8sObject }).object;
    expect(newConfigMap.metadata.name).not.toBe(oldName);
    expect((newConfigMap.data as Record<string, string>)['config.yaml']).toContain('ibm-granite/granite-3.3-8b-instruct');
    // Nothing in the package refers to the old ConfigMap any more.
    for (const [file, bytes] of snapshotDir(pkg)) expect(bytes.toString('utf8'), file).not.toContain(oldName);
    // Still exactly one object of each generated kind.
    const generated = all.filter(({ object }) => annotationsOf(object)['llamastack.io/generated-from'] !== undefined);
    expect(generated.map(({ object }) => object.kind).sort()).toEqual(['ConfigMap', 'Deployment', 'Service', 'ServiceAccount']);
  });

  it('removes the generated file when the LLSD file is deleted', () => {
    const pkg = preparePackage();
    renderOk(pkg);
    expect(existsSync(join(pkg, generatedFile))).toBe(true);
    const before = snapshotDir(pkg);

    const removedObjects = packageObjects(pkg).filter(({ file }) => file === generatedFile);
    expect(removedObjects.length).toBeGreaterThan(0);
    rmSync(join(pkg, llsdFile));
    // kpt shows 4 result lines unless told otherwise.
    const result = run(kpt, ['fn', 'render', '--allow-exec', '--truncate-output=false', pkg]);
    expect(result.status, describeRun(result)).toBe(0);
    // Not silently (issue 29, G1): kpt shows an info for each object removed, naming it and its file.
    for (const { object } of removedObjects) {
      const { namespace, name } = object.metadata;
      expect(result.stderr, describeRun(result)).toContain(
        `[info] ${object.apiVersion}/${object.kind}/${namespace}/${name}: ${object.kind} "${namespace}/${name}" in "${generatedFile}" is removed: ` +
          `an earlier render generated it (annotation llamastack.io/generated-from: "${llsdNamespace}/${llsdName}") from an LLSD or OGXServer that is not ` +
          'in the input; to keep this object, remove that annotation [generated-object-removed]',
      );
    }
    expect(occurrences(result.stderr, '[generated-object-removed]')).toBe(removedObjects.length);

    // kpt deletes a file when the function returns none of its items.
    expect(existsSync(join(pkg, generatedFile))).toBe(false);
    const after = snapshotDir(pkg);
    expect([...after.keys()].sort()).toEqual([...before.keys()].filter((f) => f !== llsdFile && f !== generatedFile).sort());
    expect(changedFiles(before, after).sort()).toEqual([generatedFile, llsdFile].sort());
    for (const [file, bytes] of after) expect(bytes.toString('utf8'), file).not.toContain('llamastack.io/generated-from');
  });

  it('a file of the user\'s carrying the mark of an LLSD not in the package: kpt deletes it, and the info names the file and how to keep it', () => {
    const pkg = preparePackage();
    const mine = 'apps/mine.yaml';
    writeFile(
      join(pkg, mine),
      ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: mine', '  namespace: llama', '  annotations:', '    llamastack.io/generated-from: llama/old']
        .concat(['data: {a: b}', ''])
        .join('\n'),
    );
    const first = render(pkg);
    expect(first.status, describeRun(first)).toBe(0);
    expect(existsSync(join(pkg, mine))).toBe(false);
    expect(first.stderr).toContain(
      '[info] v1/ConfigMap/llama/mine: ConfigMap "llama/mine" in "apps/mine.yaml" is removed: an earlier render generated it ' +
        '(annotation llamastack.io/generated-from: "llama/old") from an LLSD or OGXServer that is not in the input; to keep this object, remove that annotation',
    );
    // Done as the hint says, the file stays.
    writeFile(join(pkg, mine), ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: mine', '  namespace: llama', 'data: {a: b}', ''].join('\n'));
    const second = render(pkg);
    expect(second.status, describeRun(second)).toBe(0);
    expect(existsSync(join(pkg, mine))).toBe(true);
    expect(second.stderr).not.toContain('generated-object-removed');
  });

  it('fails without touching the package when an LLSD is invalid, and kpt shows the error result', () => {
    const pkg = preparePackage();
    writeFile(
      join(pkg, 'apps', 'bad.yaml'),
      [
        'apiVersion: llamastack.io/v1alpha2',
        'kind: LlamaStackDistribution',
        'metadata:',
        '  name: bad',
        '  namespace: llama',
        'spec:',
        '  distribution:',
        '    name: nope',
        '',
      ].join('\n'),
    );
    const before = snapshotDir(pkg);

    const result = render(pkg);
    expect(result.status, describeRun(result)).not.toBe(0);
    expect(changedFiles(before, snapshotDir(pkg))).toEqual([]);
    // The valid LLSD next to it is not rendered either: nothing half-done.
    expect(existsSync(join(pkg, generatedFile))).toBe(false);
    // kpt prints the function's results (on stderr), and the message only once: our own stderr
    // line, which kustomize needs, would repeat it under kpt.
    expect(result.stderr).toMatch(/\[FAIL\]/);
    expect(result.stderr).toMatch(
      /\[error\] llamastack\.io\/v1alpha2\/LlamaStackDistribution\/llama\/bad spec\.distribution\.name: unknown distribution "nope"/,
    );
    expect(occurrences(result.stderr, 'unknown distribution'), describeRun(result)).toBe(1);
    expect(result.stderr).not.toContain('apps/bad.yaml: llama/bad:');
    expect(result.stdout).toBe('');
  });

  it('prints each message once: the results, without our stderr line repeating them (kpt is the parent process)', () => {
    const result = render(preparePackage());
    expect(result.status, describeRun(result)).toBe(0);
    // The example's one warning (its Secret lives outside the package) and its summary.
    expect(result.stderr).toMatch(
      /\[warning\] llamastack\.io\/v1alpha2\/LlamaStackDistribution\/llama\/chat spec\.providers\.inference\.apiKey: refers to the Secret "vllm-credentials", which is not in the input/,
    );
    expect(occurrences(result.stderr, 'refers to the Secret'), describeRun(result)).toBe(1);
    expect(occurrences(result.stderr, 'generated config.yaml with'), describeRun(result)).toBe(1);
    expect(result.stderr).not.toContain('Stderr:');
  });

  it('renders the committed example as documented: `kpt fn render --allow-exec` run inside examples/kpt', () => {
    const before = snapshotDir(examplePackage);
    // -o unwrap prints the result instead of writing it, so the committed example stays as it is.
    const result = run(kpt, ['fn', 'render', '--allow-exec', '-o', 'unwrap'], { cwd: examplePackage });
    expect(result.status, describeRun(result)).toBe(0);
    const objects = parseStream(result.stdout);
    expect(generatedConfigMaps(objects, llsdName)).toHaveLength(1);
    expect(ofKind(objects, 'Deployment')).toHaveLength(1);
    expect(changedFiles(before, snapshotDir(examplePackage))).toEqual([]);
  });

  it('resolves the relative exec path against its working directory, not the package (why the README says `cd examples/kpt`)', () => {
    const result = run(kpt, ['fn', 'render', '--allow-exec', '-o', 'unwrap', 'examples/kpt'], { cwd: repoRoot });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain(`fork/exec ${committedExec}: no such file or directory`);
  });
});

// The same package workflow with an OGXServer (ogx.io/v1beta1) in place of the LLSD.
describe('kpt fn render (exec function) over an OGXServer: examples/kpt-ogx', () => {
  const tmp = useTempDirs();
  const ogxPackage = join(repoRoot, 'examples', 'kpt-ogx');
  const serverFile = 'apps/ogxserver.yaml';
  const server = parseYaml(readFileSync(join(ogxPackage, serverFile), 'utf8')) as K8sObject;
  const serverName = server.metadata.name;
  const ogxGeneratedFile = `apps/${serverName}.generated.yaml`;
  // What the OGX operator creates for this spec (monitoring on by default).
  const generatedKinds = ['ConfigMap', 'Deployment', 'NetworkPolicy', 'PrometheusRule', 'Service', 'ServiceAccount', 'ServiceMonitor'];
  let kpt = '';
  let bundle = '';
  beforeEach(() => {
    kpt = requireTool('kpt');
    bundle = requireBundle();
  });

  const preparePackage = (): string => copyPackage(ogxPackage, tmp('llsd-kpt-ogx-'), bundle);
  const render = (pkg: string) => run(kpt, ['fn', 'render', '--allow-exec', pkg]);
  function renderOk(pkg: string): void {
    const result = render(pkg);
    expect(result.status, describeRun(result)).toBe(0);
  }
  const generatedIn = (pkg: string) => packageObjects(pkg).filter(({ object }) => annotationsOf(object)['llamastack.io/generated-from'] !== undefined);

  it('writes the operator\'s objects next to the OGXServer, keeps it marked local-config, and a second render changes nothing', () => {
    const pkg = preparePackage();
    const first = render(pkg);
    expect(first.status, describeRun(first)).toBe(0);
    expect(first.stderr).toMatch(/\[info\] ogx\.io\/v1beta1\/OGXServer\/llama\/assistant: generated config\.yaml with 1 provider from the OGXServer/);

    const generated = parseStream(readText(join(pkg, ogxGeneratedFile)));
    expect(generated.map((o) => o.kind).sort()).toEqual(generatedKinds);
    const [configMap] = generatedConfigMaps(generated, serverName);
    expect(configMap?.metadata.name).toMatch(new RegExp(`^${serverName}-config-[0-9a-f]{16}$`));
    expect(configMap?.immutable).toBe(true);
    for (const object of generated) {
      expect(annotationsOf(object)['llamastack.io/generated-from']).toBe(`llama/${serverName}`);
      expect(object.metadata.namespace).toBe('llama');
    }
    expect(JSON.stringify(ofKind(generated, 'Deployment')[0])).toContain(`"name":"${configMap?.metadata.name}"`);
    // Every generated object is in that one file.
    expect([...new Set(generatedIn(pkg).map(({ file }) => file))]).toEqual([ogxGeneratedFile]);

    const kept = parseStream(readText(join(pkg, serverFile)));
    expect(kept.map((o) => `${o.apiVersion}/${o.kind}`)).toEqual(['ogx.io/v1beta1/OGXServer']);
    expect(annotationsOf(kept[0] as K8sObject)['config.kubernetes.io/local-config']).toBe('true');
    expect((kept[0] as K8sObject & { spec: unknown }).spec).toEqual((server as K8sObject & { spec: unknown }).spec);

    const before = snapshotDir(pkg);
    renderOk(pkg);
    const after = snapshotDir(pkg);
    expect([...after.keys()]).toEqual([...before.keys()]);
    expect(changedFiles(before, after)).toEqual([]);
  });

  it('replaces the old hash-named ConfigMap when the OGXServer changes (mark and replace)', () => {
    const pkg = preparePackage();
    renderOk(pkg);
    const oldName = (generatedConfigMaps(parseStream(readText(join(pkg, ogxGeneratedFile))), serverName)[0] as K8sObject).metadata.name;

    const doc = parseDocument(readText(join(pkg, serverFile)));
    doc.addIn(['spec', 'resources', 'models'], doc.createNode({ name: 'ibm-granite/granite-3.3-8b-instruct' }));
    writeFile(join(pkg, serverFile), doc.toString());
    renderOk(pkg);

    const generated = generatedIn(pkg);
    expect(generated.map(({ object }) => object.kind).sort()).toEqual(generatedKinds);
    const [configMap] = generatedConfigMaps(generated.map(({ object }) => object), serverName);
    expect(configMap?.metadata.name).not.toBe(oldName);
    expect((configMap?.data as Record<string, string>)['config.yaml']).toContain('model_id: ibm-granite/granite-3.3-8b-instruct');
    for (const [file, bytes] of snapshotDir(pkg)) expect(bytes.toString('utf8'), file).not.toContain(oldName);
  });

  it('removes the generated file when the OGXServer file is deleted', () => {
    const pkg = preparePackage();
    renderOk(pkg);
    expect(existsSync(join(pkg, ogxGeneratedFile))).toBe(true);
    const removedCount = generatedIn(pkg).length;
    rmSync(join(pkg, serverFile));
    const result = run(kpt, ['fn', 'render', '--allow-exec', '--truncate-output=false', pkg]);
    expect(result.status, describeRun(result)).toBe(0);
    expect(occurrences(result.stderr, `in "${ogxGeneratedFile}" is removed`), describeRun(result)).toBe(removedCount);
    expect(existsSync(join(pkg, ogxGeneratedFile))).toBe(false);
    expect(generatedIn(pkg)).toEqual([]);
  });

  it('fails without touching the package when the OGXServer is invalid, and kpt shows the error result', () => {
    const pkg = preparePackage();
    const text = readText(join(pkg, serverFile));
    expect(text).toContain('name: starter');
    writeFile(join(pkg, serverFile), text.replace('name: starter', 'name: nope'));
    const before = snapshotDir(pkg);

    const result = render(pkg);
    expect(result.status, describeRun(result)).not.toBe(0);
    expect(changedFiles(before, snapshotDir(pkg))).toEqual([]);
    expect(existsSync(join(pkg, ogxGeneratedFile))).toBe(false);
    expect(result.stderr).toMatch(/\[error\] ogx\.io\/v1beta1\/OGXServer\/llama\/assistant spec\.distribution\.name: unknown distribution "nope"/);
    expect(occurrences(result.stderr, 'unknown distribution'), describeRun(result)).toBe(1);
  });

  it('renders the committed example as documented: `kpt fn render --allow-exec` run inside examples/kpt-ogx', () => {
    const before = snapshotDir(ogxPackage);
    const result = run(kpt, ['fn', 'render', '--allow-exec', '-o', 'unwrap'], { cwd: ogxPackage });
    expect(result.status, describeRun(result)).toBe(0);
    const objects = parseStream(result.stdout);
    expect(objects.filter((o) => annotationsOf(o)['llamastack.io/generated-from'] !== undefined).map((o) => o.kind).sort()).toEqual(generatedKinds);
    expect(annotationsOf(ofKind(objects, 'OGXServer')[0] as K8sObject)['config.kubernetes.io/local-config']).toBe('true');
    expect(changedFiles(before, snapshotDir(ogxPackage))).toEqual([]);
  });
});

describe('kpt fn eval - (stdin)', () => {
  let kpt = '';
  let bundle = '';
  beforeEach(() => {
    kpt = requireTool('kpt');
    bundle = requireBundle();
  });

  const input = [
    'apiVersion: llamastack.io/v1alpha2',
    'kind: LlamaStackDistribution',
    'metadata:',
    '  name: chat',
    '  namespace: llama',
    'spec:',
    '  distribution:',
    '    name: starter',
    '  providers:',
    '    inference:',
    '      provider: vllm',
    '      endpoint: http://vllm.llama.svc.cluster.local:8000/v1',
    '      apiKey:',
    '        secretKeyRef: {name: vllm-credentials, key: token}',
    '  resources:',
    '    models: [meta-llama/Llama-3.2-3B-Instruct]',
    '---',
    'apiVersion: v1',
    'kind: Secret',
    'metadata:',
    '  name: vllm-credentials',
    '  namespace: llama',
    'stringData:',
    '  token: not-a-real-token',
    '',
  ].join('\n');

  const evaluate = (...fnArgs: string[]) =>
    run(kpt, ['fn', 'eval', '-', '--exec', bundle, '-o', 'unwrap', ...(fnArgs.length > 0 ? ['--', ...fnArgs] : [])], { input });

  it('prints the generated objects, the Secret as it was, and the LLSD marked local-config', () => {
    const result = evaluate();
    expect(result.status, describeRun(result)).toBe(0);
    const objects = parseStream(result.stdout);

    const llsds = ofKind(objects, 'LlamaStackDistribution');
    expect(llsds).toHaveLength(1);
    expect(annotationsOf(llsds[0] as K8sObject)['config.kubernetes.io/local-config']).toBe('true');
    expect(ofKind(objects, 'Secret')).toEqual([
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'vllm-credentials', namespace: 'llama' }, stringData: { token: 'not-a-real-token' } },
    ]);

    const configMaps = generatedConfigMaps(objects, 'chat');
    expect(configMaps).toHaveLength(1);
    expect((configMaps[0] as K8sObject).immutable).toBe(true);
    expect(annotationsOf(configMaps[0] as K8sObject)['argocd.argoproj.io/sync-options']).toBe('PruneLast=true');
    expect(ofKind(objects, 'Deployment').map((o) => o.metadata.name)).toEqual(['chat']);
    expect(ofKind(objects, 'Service').map((o) => o.metadata.name)).toEqual(['chat-service']);
    expect(ofKind(objects, 'ServiceAccount').map((o) => o.metadata.name)).toEqual(['chat-sa']);
    // No kpt path on the input, so none on the output, and the secret value stays out of the config.
    for (const object of objects) expect(Object.keys(annotationsOf(object)).filter((k) => k.endsWith('/path'))).toEqual([]);
    expect(JSON.stringify(configMaps[0])).not.toContain('not-a-real-token');
  });

  it('takes options from `-- key=value` (a ConfigMap functionConfig): gitopsAnnotations=false', () => {
    const withDefaults = evaluate();
    const withoutGitops = evaluate('gitopsAnnotations=false');
    expect(withoutGitops.status, describeRun(withoutGitops)).toBe(0);
    const before = generatedConfigMaps(parseStream(withDefaults.stdout), 'chat')[0] as K8sObject;
    const after = generatedConfigMaps(parseStream(withoutGitops.stdout), 'chat')[0] as K8sObject;
    expect(annotationsOf(before)).toHaveProperty(['argocd.argoproj.io/sync-options']);
    expect(annotationsOf(after)).not.toHaveProperty(['argocd.argoproj.io/sync-options']);
    expect(annotationsOf(after)).not.toHaveProperty(['kustomize.toolkit.fluxcd.io/substitute']);
    // Annotations are not part of config.yaml, so the hash-named ConfigMap keeps its name.
    expect(after.metadata.name).toBe(before.metadata.name);
  });

  it('rejects an unknown option key with an error result', () => {
    const result = evaluate('gitopsAnnotation=false');
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/\[error\] v1\/ConfigMap\/function-input data\.gitopsAnnotation: .*did you mean `gitopsAnnotations`/);
    expect(result.stdout).toBe('');
  });
});

const occurrences = (text: string, part: string): number => text.split(part).length - 1;
