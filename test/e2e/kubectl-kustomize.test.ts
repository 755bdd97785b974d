// `kubectl kustomize` (kustomize v5.5 built in) runs KRM functions only as containers, through
// `docker run`. A fake `docker` first on PATH runs the bundle as a local process, with the real
// wire protocol (stdin and stdout as `docker run -i` would pass them). It also proves the README's
// warning: an `exec:` function is silently skipped.
import { existsSync, mkdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
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
  requireTool,
  run,
  useTempDirs,
  writeExecutable,
  writeFile,
  llsdServer,
  ogxServer,
  type K8sObject,
} from './tools.js';

const image = 'ghcr.io/llamastack/llsd-render:dev';
const functionAnnotation = 'config.kubernetes.io/function';
const forms = {
  transformer: { dir: join(repoRoot, 'examples', 'kustomize', 'transformer'), functionFile: 'render-config.yaml', server: llsdServer },
  generator: { dir: join(repoRoot, 'examples', 'kustomize', 'generator'), functionFile: 'llsd.yaml', server: llsdServer },
  'ogx-transformer': { dir: join(repoRoot, 'examples', 'kustomize', 'ogx-transformer'), functionFile: 'render-config.yaml', server: ogxServer },
  'ogx-generator': { dir: join(repoRoot, 'examples', 'kustomize', 'ogx-generator'), functionFile: 'ogxserver.yaml', server: ogxServer },
} as const;
type Form = keyof typeof forms;

const sh = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`;

describe('kubectl kustomize --enable-alpha-plugins', () => {
  const tmp = useTempDirs();
  let kubectl = '';
  let bundle = '';
  beforeEach(() => {
    kubectl = requireTool('kubectl');
    bundle = requireBundle();
  });

  /** A copy of the example whose function annotation is replaced by `function` (YAML text). */
  function prepare(form: Form, root: string, fn: string): string {
    const dir = copyDir(forms[form].dir, join(root, form));
    const file = join(dir, forms[form].functionFile);
    const doc = parseDocument(readText(file));
    expect(doc.getIn(['metadata', 'annotations', functionAnnotation])).toMatch(/^exec:\n/);
    doc.setIn(['metadata', 'annotations', functionAnnotation], fn);
    writeFile(file, doc.toString());
    return dir;
  }

  /** A bin dir with a fake `docker` that logs its arguments and runs the bundle with node. */
  function fakeDocker(root: string): { bin: string; log: string } {
    const bin = join(root, 'bin');
    const log = join(root, 'docker-args.log');
    mkdirSync(bin);
    writeExecutable(
      bin,
      'docker',
      [
        '#!/bin/sh',
        '# fake docker: run the KRM function image as the local bundle',
        `printf '%s\\n' "$@" > ${sh(log)}`,
        `[ "$1" = run ] || { echo "fake docker: only 'run' is supported" >&2; exit 125; }`,
        `exec ${sh(process.execPath)} ${sh(bundle)}`,
        '',
      ].join('\n'),
    );
    return { bin, log };
  }

  const kustomize = (dir: string, bin?: string) =>
    run(kubectl, ['kustomize', '--enable-alpha-plugins', dir], bin ? { env: { PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` } } : {});

  for (const form of Object.keys(forms) as Form[]) {
    it(`runs a container function as a ${form} through docker run`, () => {
      const root = tmp('llsd-kubectl-');
      const { bin, log } = fakeDocker(root);
      const dir = prepare(form, root, `container:\n  image: ${image}\n`);

      const result = kustomize(dir, bin);
      expect(result.status, describeRun(result)).toBe(0);
      const objects = parseStream(result.stdout);
      const { server } = forms[form];
      expect(ofKind(objects, 'LlamaStackDistribution')).toEqual([]);
      expect(ofKind(objects, 'OGXServer')).toEqual([]);
      const configMaps = generatedConfigMaps(objects, server.name);
      expect(configMaps).toHaveLength(1);
      expect((configMaps[0] as K8sObject).immutable).toBe(true);
      for (const [kind, names] of Object.entries(server.objects)) expect(ofKind(objects, kind).map((o) => o.metadata.name), kind).toEqual(names);
      for (const object of objects) {
        const internal = Object.keys(annotationsOf(object)).filter((k) => k.startsWith('internal.config.kubernetes.io/') || k === 'config.kubernetes.io/path');
        expect(internal, `${object.kind}/${object.metadata.name}`).toEqual([]);
      }

      // kubectl really went through `docker run ... IMAGE` with stdin attached.
      const args = readText(log).trimEnd().split('\n');
      expect(args[0]).toBe('run');
      expect(args).toContain('-i');
      expect(args[args.length - 1]).toBe(image);
    });
  }

  it('passes the error on: a failing container function fails kubectl kustomize with our line on stderr', () => {
    const root = tmp('llsd-kubectl-');
    const { bin } = fakeDocker(root);
    const dir = prepare('generator', root, `container:\n  image: ${image}\n`);
    const llsd = join(dir, 'llsd.yaml');
    writeFile(llsd, readText(llsd).replace('name: starter', 'name: nope'));

    const result = kustomize(dir, bin);
    expect(result.status).not.toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^(?:[^\s:]+(?::\d+)?: )?llama\/chat: spec\.distribution\.name: unknown distribution "nope"/m);
  });

  it('silently skips an exec function (exit 0, nothing generated), while standalone kustomize runs the same one', () => {
    const root = tmp('llsd-kubectl-');
    const marker = join(root, 'exec-function-ran');
    // The exec function is a wrapper that leaves a marker, then runs the bundle.
    const wrapper = writeExecutable(root, 'llsd-render-wrapper', `#!/bin/sh\n: > ${sh(marker)}\nexec ${sh(process.execPath)} ${sh(bundle)}\n`);
    const dir = prepare('transformer', root, `exec:\n  path: ${wrapper}\n`);

    const result = kustomize(dir);
    expect(result.status, describeRun(result)).toBe(0);
    const objects = parseStream(result.stdout);
    expect(generatedConfigMaps(objects, 'chat')).toEqual([]);
    expect(ofKind(objects, 'Deployment')).toEqual([]);
    // Worse than nothing: the LLSD itself is in the output, unrendered.
    expect(ofKind(objects, 'LlamaStackDistribution').map((o) => o.metadata.name)).toEqual(['chat']);
    expect(existsSync(marker)).toBe(false);

    // Control: the same kustomization under standalone kustomize runs the function.
    const standalone = run(requireKustomize(), ['build', '--enable-alpha-plugins', '--enable-exec', dir]);
    expect(standalone.status, describeRun(standalone)).toBe(0);
    expect(generatedConfigMaps(parseStream(standalone.stdout), 'chat')).toHaveLength(1);
    expect(existsSync(marker)).toBe(true);
  });

  it('skips the exec generator too: the committed generator example renders nothing under kubectl', () => {
    const result = kustomize(forms.generator.dir);
    expect(result.status, describeRun(result)).toBe(0);
    const objects = parseStream(result.stdout);
    expect(generatedConfigMaps(objects, 'chat')).toEqual([]);
    expect(objects.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual(['Secret/vllm-credentials']);
  });
});

