// `build` (and `validate`) through the built bundle: what goes into the manifest stream, options,
// `-o DIR`, empty renders and usage errors.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ARGO_SYNC_OPTIONS,
  FLUX_SUBSTITUTE,
  GENERATED_FROM,
  LLSD_KIND,
  annotationsOf,
  expectNoCrash,
  expectOnlyMissingSecretWarning,
  isGenerated,
  lazy,
  parseStream,
  quickstartText,
  readFixture,
  ref,
  repoRoot,
  run,
  stderrLines,
  tempDir,
  writeTree,
  type KrmObject,
} from './run.js';

const configMap = (name: string, extra = '') =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: llama\n${extra}data:\n  key: value\n`;

/** A realistic app directory: what Argo CD's plugin sees with `llsd-render build .`. */
const appTree: Record<string, string> = {
  'apps/llsd.yaml': quickstartText(),
  'secret.yaml': readFixture('secret.yaml'),
  'render-config.yaml': 'apiVersion: fn.llamastack.io/v1alpha1\nkind: RenderConfig\nmetadata:\n  name: options\nspec:\n  gitopsAnnotations: false\n',
  'kustomization.yaml':
    'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nmetadata:\n  name: app\nresources:\n  - apps/llsd.yaml\n  - secret.yaml\n',
  // kpt's package file, as kpt writes it (no extension), and the same as a .yaml document.
  Kptfile: 'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: app\n',
  'pkg/Kptfile.yaml': 'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: nested-pkg\n',
  'local.yaml': configMap('local-only', '  annotations:\n    config.kubernetes.io/local-config: "true"\n'),
  'nested/deeper/extra.yml': configMap('extra'),
  '.hidden/hidden.yaml': configMap('in-dot-directory'),
  '.dotfile.yaml': configMap('in-dot-file'),
  'node_modules/some-package/resource.yaml': configMap('in-node-modules'),
  'sub/node_modules/deep.yaml': configMap('in-nested-node-modules'),
  'notes.txt': configMap('in-text-file'),
};

const generatedConfigMap = (objects: readonly KrmObject[]): KrmObject => {
  const found = objects.filter((o) => isGenerated(o) && o.kind === 'ConfigMap');
  expect(found).toHaveLength(1);
  return found[0] as KrmObject;
};

describe('build DIR over an app directory', () => {
  const dir = lazy(() => writeTree(tempDir(), appTree));
  const built = lazy(() => run(['build', '.'], { cwd: dir() }));

  it('exits 0 and prints nothing on stderr', () => {
    const r = built();
    expect(r.status, r.stderr).toBe(0);
    expectNoCrash(r);
    expect(r.stderr).toBe('');
  });

  it('prints the pass-through resources (files in sorted path order) and then the generated objects, nothing else', () => {
    const objects = parseStream(built().stdout);
    const passThrough = objects.filter((o) => !isGenerated(o));
    expect(passThrough.map(ref)).toEqual(['ConfigMap/extra', 'Secret/vllm-credentials']);
    const firstGenerated = objects.findIndex(isGenerated);
    expect(firstGenerated).toBe(2);
    const generated = objects.slice(firstGenerated);
    expect(generated.every(isGenerated)).toBe(true);
    expect(generated.map((o) => o.kind)).toEqual(expect.arrayContaining(['ConfigMap', 'ServiceAccount', 'Deployment', 'Service']));
    for (const o of generated) expect(annotationsOf(o)[GENERATED_FROM]).toBe('llama/quickstart');
  });

  it('never prints the LLSD, the RenderConfig, the Kustomization, a Kptfile, local-config objects or skipped files', () => {
    const r = built();
    const refs = parseStream(r.stdout).map(ref);
    expect(refs).not.toContain(`${LLSD_KIND}/quickstart`);
    for (const kind of [LLSD_KIND, 'RenderConfig', 'Kustomization', 'Kptfile']) expect(r.stdout).not.toMatch(new RegExp(`^kind: ${kind}$`, 'm'));
    for (const name of ['local-only', 'in-dot-directory', 'in-dot-file', 'in-node-modules', 'in-nested-node-modules', 'in-text-file']) {
      expect(refs).not.toContain(`ConfigMap/${name}`);
    }
    // Generated objects do not inherit kpt or kustomize bookkeeping either.
    expect(r.stdout).not.toContain('config.kubernetes.io/local-config');
    expect(r.stdout).not.toContain('internal.config.kubernetes.io/path');
  });

  it('applies the RenderConfig found among the files (gitopsAnnotations: false)', () => {
    const cm = generatedConfigMap(parseStream(built().stdout));
    expect(annotationsOf(cm)[ARGO_SYNC_OPTIONS]).toBeUndefined();
    expect(annotationsOf(cm)[FLUX_SUBSTITUTE]).toBeUndefined();

    // Control: without the RenderConfig the same directory gets both annotations.
    const { 'render-config.yaml': _omit, ...withoutOptions } = appTree;
    const r = run(['build', '.'], { cwd: writeTree(tempDir(), withoutOptions) });
    expect(r.status, r.stderr).toBe(0);
    const plain = generatedConfigMap(parseStream(r.stdout));
    expect(annotationsOf(plain)[ARGO_SYNC_OPTIONS]).toBe('PruneLast=true');
    expect(annotationsOf(plain)[FLUX_SUBSTITUTE]).toBe('disabled');
  });

  it('gives the same bytes whatever order the files were created in', () => {
    const reversed = Object.fromEntries(Object.entries(appTree).reverse());
    const other = writeTree(tempDir(), reversed);
    const r = run(['build', '.'], { cwd: other });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(built().stdout);
  });

  it('names a directory given by a path the same way: `build DIR` from elsewhere prints the same stream', () => {
    const r = run(['build', dir()], { cwd: repoRoot });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(built().stdout);
  });

  it('validate over the same directory exits 0 and prints the info line for the LLSD, never the manifests', () => {
    const r = run(['validate', '.'], { cwd: dir() });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const lines = r.stdout.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^apps\/llsd\.yaml:\d+: llama\/quickstart: info: generated config\.yaml with 1 provider\b.* and 1 model\b/);
  });
});

describe('build and validate over a directory holding only an OGXServer', () => {
  const dir = lazy(() => writeTree(tempDir(), { 'apps/ogxserver.yaml': readFixture('ogxserver.yaml'), 'secret.yaml': readFixture('secret.yaml') }));

  it('build prints the Secret and the generated objects, never the OGXServer itself', () => {
    const r = run(['build', '.'], { cwd: dir() });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const objects = parseStream(r.stdout);
    expect(objects.map(ref)).not.toContain('OGXServer/assistant');
    expect(r.stdout).not.toMatch(/^kind: OGXServer$/m);
    expect(objects.filter((o) => !isGenerated(o)).map(ref)).toEqual(['Secret/vllm-credentials']);
    expect(objects.filter(isGenerated).map(ref)).toEqual(
      expect.arrayContaining(['Deployment/assistant', 'Service/assistant-service', 'ServiceAccount/assistant-sa']),
    );
  });

  it('validate counts the OGXServer as something validated: exit 0 and its info line', () => {
    const r = run(['validate', '.'], { cwd: dir() });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^apps\/ogxserver\.yaml:\d+: llama\/assistant: info: generated config\.yaml with 1 provider from the OGXServer\b/m);
    expect(r.stdout).not.toContain('found no');
  });
});

describe('build --config FILE', () => {
  const variants = [
    { file: 'fn-config/render-config.yaml', on: /gitopsAnnotations: true/ },
    { file: 'fn-config/configmap.yaml', on: /gitopsAnnotations: "true"/ },
  ];
  for (const { file, on } of variants) {
    it(`${file} is read, and its gitopsAnnotations takes effect`, () => {
      const asIs = run(['build', '--config', file, 'examples/quickstart']);
      expect(asIs.status, asIs.stderr).toBe(0);
      expectOnlyMissingSecretWarning(asIs);
      const withDefaults = generatedConfigMap(parseStream(asIs.stdout));
      expect(annotationsOf(withDefaults)[ARGO_SYNC_OPTIONS]).toBe('PruneLast=true');

      const original = readFileSync(join(repoRoot, file), 'utf8');
      expect(original).toMatch(on);
      const off = join(tempDir(), 'options.yaml');
      writeFileSync(off, original.replace(on, (m) => m.replace('true', 'false')));
      const r = run(['build', '--config', off, 'examples/quickstart']);
      expect(r.status, r.stderr).toBe(0);
      const cm = generatedConfigMap(parseStream(r.stdout));
      expect(annotationsOf(cm)[ARGO_SYNC_OPTIONS]).toBeUndefined();
      expect(annotationsOf(cm)[FLUX_SUBSTITUTE]).toBeUndefined();
      // The options file is not a resource: it is not printed.
      expect(parseStream(r.stdout).map(ref)).not.toContain('ConfigMap/llsd-render');
      expect(parseStream(r.stdout).map(ref)).not.toContain('RenderConfig/llsd-render');
    });
  }

  // Attacker round 10: "no options" (defaults taken from the build) was any value without keys.
  for (const [data, type] of [['[]', 'a list'], ['""', 'a string'], ['0', 'an integer'], ['true', 'a boolean']]) {
    it(`a ConfigMap --config whose data is ${data}: exit 1, "data: must be a mapping, not ${type}", nothing printed`, () => {
      const file = join(tempDir(), 'options.yaml');
      writeFileSync(file, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: opts\ndata: ${data}\n`);
      const r = run(['build', '--config', file, 'examples/quickstart']);
      expect(r.status, r.stderr).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/data: must be a mapping, not /);
    });
  }

  it('a --config file with an unknown key: exit 1, an error naming the key, nothing printed', () => {
    const file = join(tempDir(), 'options.yaml');
    writeFileSync(file, 'apiVersion: fn.llamastack.io/v1alpha1\nkind: RenderConfig\nmetadata:\n  name: opts\nspec:\n  gitopsAnotations: false\n');
    const r = run(['build', '--config', file, 'examples/quickstart']);
    expect(r.status).toBe(1);
    expectNoCrash(r);
    expect(r.stdout).toBe('');
    expect(stderrLines(r).filter((line) => !line.includes(': warning: '))).toHaveLength(1);
    expect(r.stderr).toMatch(/opts: spec\.gitopsAnotations: is not a known field; did you mean `gitopsAnnotations`\?/);
  });

  describe('against a RenderConfig among the inputs (the shared --config of the Argo CD README)', () => {
    const shared = (spec: string) => {
      const file = join(tempDir(), 'shared.yaml');
      writeFileSync(file, `apiVersion: fn.llamastack.io/v1alpha1\nkind: RenderConfig\nmetadata:\n  name: shared\nspec:\n${spec}`);
      return file;
    };
    // The app directory's RenderConfig says gitopsAnnotations: false and, on its own, networkPolicy: "on".
    const appDir = lazy(() =>
      writeTree(tempDir(), {
        ...appTree,
        'render-config.yaml':
          'apiVersion: fn.llamastack.io/v1alpha1\nkind: RenderConfig\nmetadata:\n  name: options\nspec:\n  gitopsAnnotations: false\n  networkPolicy: "on"\n',
      }),
    );

    it('--config wins key by key, with a warning naming both files and the key; keys only the app sets still apply', () => {
      const file = shared('  gitopsAnnotations: true\n');
      const r = run(['build', '--config', file, '.'], { cwd: appDir() });
      expect(r.status, r.stderr).toBe(0);
      const objects = parseStream(r.stdout);
      expect(annotationsOf(generatedConfigMap(objects))[ARGO_SYNC_OPTIONS]).toBe('PruneLast=true');
      expect(objects.map(ref)).toContain('NetworkPolicy/quickstart-network-policy');
      expect(stderrLines(r)).toEqual([
        `render-config.yaml:6: options: spec.gitopsAnnotations: warning: is set otherwise by --config ${file}, which wins: the command line takes ` +
          `precedence over a RenderConfig among the inputs; remove \`gitopsAnnotations\` here or from ${file} [render-config-conflict]`,
      ]);
    });

    it('the same value on both sides: an info, no warning (validate prints it)', () => {
      const file = shared('  gitopsAnnotations: "false"\n');
      const r = run(['validate', '--config', file, '.'], { cwd: appDir() });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.stdout).toContain(
        `render-config.yaml:5: options: spec: info: sets \`gitopsAnnotations\` as --config ${file} does (the command line wins where both set an option); ` +
          `it can be left out here\n`,
      );
    });

    it('the --config file itself among the inputs is read once, as the command line, and says nothing', () => {
      const r = run(['build', '--config', 'render-config.yaml', '.'], { cwd: appDir() });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toBe('');
      expect(parseStream(r.stdout).map(ref)).toContain('NetworkPolicy/quickstart-network-policy');
    });
  });

  it('a --config file that does not exist is a usage error (exit 2)', () => {
    const r = run(['build', '--config', join(tempDir(), 'missing.yaml'), 'examples/quickstart']);
    expect(r.status).toBe(2);
    expectNoCrash(r);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/missing\.yaml/);
  });

  // Attacker round 6 (issue 18): the first --config was dropped without a word.
  it('--config given twice is a usage error (exit 2) saying to merge them, and nothing is rendered', () => {
    const r = run(['build', '--config', 'fn-config/render-config.yaml', '--config', 'fn-config/configmap.yaml', 'examples/quickstart']);
    expectNoCrash(r);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'llsd-render: --config is given 2 times ("fn-config/render-config.yaml", "fn-config/configmap.yaml"), but llsd-render reads one: merge their options ' +
        'into one RenderConfig and pass that, or put the other RenderConfigs among the input files (`--config` wins over them key by key)\nRun ' +
        '`llsd-render --help` for usage.\n',
    );
  });

  // Attacker round 6 (issue 18): the real cause came with a follow-on "must hold exactly one
  // RenderConfig", /dev/zero was named `../../dev/zero`, and a fifo with no writer hung forever.
  describe('a --config path that is no file: one error naming it as written, exit 1, nothing printed', () => {
    const expected = '--config takes a file with one RenderConfig (fn.llamastack.io/v1alpha1) or ConfigMap';
    const cases: Array<{ title: string; setup: (dir: string) => string; message: string }> = [
      {
        title: 'a symbolic link to itself',
        setup: (dir) => (symlinkSync('loop.yaml', join(dir, 'loop.yaml')), 'loop.yaml'),
        message: 'loop.yaml: is a symbolic link that leads back to itself (a loop): point it at the RenderConfig file, or give that file',
      },
      {
        title: 'a directory',
        setup: (dir) => (mkdirSync(join(dir, 'opts')), 'opts'),
        message: `opts: is a directory, but ${expected}: give the path of that file`,
      },
      {
        title: '/dev/zero',
        setup: () => '/dev/zero',
        message: `/dev/zero: is not a regular file (a device, a pipe or a socket), but ${expected}: write the options to a file and give its path`,
      },
      {
        title: '/dev/null',
        setup: () => '/dev/null',
        message: `/dev/null: is not a regular file (a device, a pipe or a socket), but ${expected}: write the options to a file and give its path`,
      },
      {
        title: 'a fifo nothing writes to (it hung)',
        setup: (dir) => (expect(spawnSync('mkfifo', [join(dir, 'opts.yaml')]).status).toBe(0), 'opts.yaml'),
        message: `opts.yaml: is not a regular file (a device, a pipe or a socket), but ${expected}: write the options to a file and give its path`,
      },
      {
        title: 'an empty file',
        setup: (dir) => (writeFileSync(join(dir, 'opts.yaml'), ''), 'opts.yaml'),
        message: `opts.yaml: holds no Kubernetes object, but --config takes a file with exactly one RenderConfig (fn.llamastack.io/v1alpha1) or ConfigMap`,
      },
    ];
    for (const { title, setup, message } of cases) {
      it(title, () => {
        const dir = writeTree(tempDir(), { 'app/llsd.yaml': quickstartText() });
        const config = setup(dir);
        const r = run(['build', '--config', config, 'app'], { cwd: dir });
        expectNoCrash(r);
        expect(r.status).toBe(1);
        expect(r.stdout).toBe('');
        expect(stderrLines(r).filter((line) => !line.includes('warning: '))).toEqual([message]);
      });
    }

    it('a file that is not valid YAML: its YAML error alone, no "exactly one RenderConfig" after it', () => {
      const dir = writeTree(tempDir(), { 'app/llsd.yaml': quickstartText(), 'opts.yaml': 'apiVersion: [\n' });
      const r = run(['build', '--config', 'opts.yaml', 'app'], { cwd: dir });
      expectNoCrash(r);
      expect(r.status).toBe(1);
      const errors = stderrLines(r).filter((line) => !line.includes('warning: '));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(/^opts\.yaml:1: not valid YAML: the `\[` opened here is never closed/);
    });
  });
});

/** Every file under `dir`, relative, sorted. */
function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else out.push(relative(dir, path));
    }
  };
  walk(dir);
  return out.sort();
}

describe('build -o DIR', () => {
  const input = lazy(() =>
    writeTree(tempDir(), {
      'llsd.yaml': quickstartText(),
      'second.yaml': readFixture('second-llsd.yaml'),
      'secret.yaml': readFixture('secret.yaml'),
    }),
  );

  it('writes <namespace>/<name>.yaml per LLSD and _passthrough.yaml, with exactly what stdout would have had', () => {
    const out = join(tempDir(), 'rendered');
    const r = run(['build', '-o', out, '.'], { cwd: input() });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('');
    expect(listFiles(out)).toEqual(['.llsd-render-output', '_passthrough.yaml', 'llama/quickstart.yaml', 'team-b/second.yaml']);

    const quickstart = parseStream(readFileSync(join(out, 'llama/quickstart.yaml'), 'utf8'));
    const second = parseStream(readFileSync(join(out, 'team-b/second.yaml'), 'utf8'));
    const passThrough = parseStream(readFileSync(join(out, '_passthrough.yaml'), 'utf8'));
    expect(quickstart.length).toBeGreaterThanOrEqual(4);
    expect(quickstart.every((o) => annotationsOf(o)[GENERATED_FROM] === 'llama/quickstart')).toBe(true);
    expect(second.every((o) => annotationsOf(o)[GENERATED_FROM] === 'team-b/second')).toBe(true);
    expect(passThrough.map(ref)).toEqual(['Secret/vllm-credentials']);

    const stream = run(['build', '.'], { cwd: input() });
    expect(stream.status).toBe(0);
    const all = parseStream(stream.stdout);
    expect([...passThrough, ...quickstart, ...second]).toEqual(expect.arrayContaining(all));
    expect(passThrough.length + quickstart.length + second.length).toBe(all.length);
  });

  it('writes nothing at all when the render fails', () => {
    const dir = writeTree(tempDir(), {
      'llsd.yaml': quickstartText(),
      'bad.yaml': readFixture('bad/unknown-distribution.yaml'),
      'secret.yaml': readFixture('secret.yaml'),
    });
    const out = join(tempDir(), 'rendered');
    const r = run(['build', '-o', out, '.'], { cwd: dir });
    expect(r.status).toBe(1);
    expectNoCrash(r);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^bad\.yaml:\d+: llama\/unknown-distribution: spec\.distribution\.name: /m);
    expect(existsSync(out) ? listFiles(out) : []).toEqual([]);
  });
});

describe('build -o DIR over time', () => {
  it('removes the file of an LLSD that was deleted, and keeps files it did not write', () => {
    const dir = writeTree(tempDir(), { 'llsd.yaml': quickstartText(), 'second.yaml': readFixture('second-llsd.yaml') });
    const out = join(tempDir(), 'rendered');
    writeTree(out, { 'README.md': 'mine\n', 'kustomization.yaml': 'resources: []\n' });
    expect(run(['build', '-o', out, '.'], { cwd: dir }).status).toBe(0);
    expect(listFiles(out)).toEqual(['.llsd-render-output', 'README.md', 'kustomization.yaml', 'llama/quickstart.yaml', 'team-b/second.yaml']);
    rmSync(join(dir, 'second.yaml'));
    const r = run(['build', '-o', out, '--allow-empty', '.'], { cwd: dir });
    expect(r.status, r.stderr).toBe(0);
    expect(listFiles(out)).toEqual(['.llsd-render-output', 'README.md', 'kustomization.yaml', 'llama/quickstart.yaml']);
  });

  it('an output directory inside the input is not read back: a second run prints the same objects once', () => {
    const dir = writeTree(tempDir(), { 'llsd.yaml': quickstartText(), 'secret.yaml': readFixture('secret.yaml') });
    expect(run(['build', '-o', 'rendered', '.'], { cwd: dir }).status).toBe(0);
    const first = readFileSync(join(dir, 'rendered', '_passthrough.yaml'), 'utf8');
    expect(run(['build', '-o', 'rendered', '.'], { cwd: dir }).status).toBe(0);
    expect(readFileSync(join(dir, 'rendered', '_passthrough.yaml'), 'utf8')).toBe(first);
    const stream = run(['build', '.'], { cwd: dir });
    expect(parseStream(stream.stdout).filter((o) => o.kind === 'Secret').map(ref)).toEqual(['Secret/vllm-credentials']);
  });
});

describe('build: objects that would collide', () => {
  it('the same object in two files is an error naming both', () => {
    const dir = writeTree(tempDir(), {
      'a.yaml': configMap('same'),
      'b.yaml': configMap('same'),
      'llsd.yaml': quickstartText(),
      'secret.yaml': readFixture('secret.yaml'),
    });
    const r = run(['build', '.'], { cwd: dir });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('b.yaml:1: llama/same: ConfigMap "same" is defined twice (also in a.yaml); keep one\n');
  });

  it('a generated object that would replace one the user wrote is an error on the LLSD', () => {
    const service = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: quickstart-service\n  namespace: llama\nspec: {}\n';
    const dir = writeTree(tempDir(), { 'llsd.yaml': quickstartText(), 'service.yaml': service });
    const r = run(['build', '.'], { cwd: dir });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      /^llsd\.yaml:\d+: llama\/quickstart: metadata\.name: would generate Service "quickstart-service", which the input \(service\.yaml\) already defines; rename the LLSD or the other object$/m,
    );
  });

  it('a kustomization.yaml without metadata is skipped without a warning', () => {
    const dir = writeTree(tempDir(), {
      'llsd.yaml': quickstartText(),
      'secret.yaml': readFixture('secret.yaml'),
      'kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [llsd.yaml]\n',
    });
    const r = run(['build', '.'], { cwd: dir });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    expect(parseStream(r.stdout).some((o) => o.kind === 'Kustomization')).toBe(false);
  });
});

describe('build: how a file is read does not change what comes out', () => {
  // `trailing.yaml` is read without `yaml`'s nodes (src/krm/block-yaml.ts); `anchored.yaml` has an
  // anchor, so `yaml` reads it: both must treat empty documents, and their objects, alike.
  const files = {
    'llsd.yaml': quickstartText(),
    'secret.yaml': readFixture('secret.yaml'),
    'trailing.yaml': `---\n${configMap('first')}---\n---\n${configMap('second')}---\n`,
    'anchored.yaml': `---\n${configMap('third').replace('  key: value\n', '  key: &v value\n  again: *v\n')}---\n---\n`,
  };

  it('empty documents (a `---` at the end, two in a row) are skipped without a warning, by either reader', () => {
    const r = run(['build', '.'], { cwd: writeTree(tempDir(), files) });
    expectNoCrash(r);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const names = parseStream(r.stdout).filter((o) => o.kind === 'ConfigMap' && !isGenerated(o)).map((o) => o.metadata.name);
    expect(names).toEqual(['third', 'first', 'second']);
  });

  it('a result about an object names the same document and line from either reader', () => {
    const bad = (name: string, value: string) =>
      `---\n${configMap(name)}---\n---\n` +
        `${quickstartText().replace('name: quickstart', `name: ${name}`).replace('spec:\n', `spec:\n  unknownField: ${value}\n`)}`;
    const r = run(['build', '.'], {
      cwd: writeTree(tempDir(), { 'plain.yaml': bad('one', '1'), 'anchored.yaml': bad('two', '&a 1'), 'secret.yaml': readFixture('secret.yaml') }),
    });
    expectNoCrash(r);
    expect(r.status).toBe(1);
    const lines = stderrLines(r).filter((line) => line.includes('unknownField'));
    expect(lines).toHaveLength(2);
    const where = (file: string, name: string) => lines.find((line) => line.startsWith(file))?.slice(file.length).replace(`/${name}:`, '/NAME:');
    expect(where('plain.yaml', 'one')).toMatch(/^:\d+: llama\/NAME: spec\.unknownField: /);
    expect(where('plain.yaml', 'one')).toBe(where('anchored.yaml', 'two'));
  });
});

describe('build: empty renders', () => {
  it('a directory with no YAML: exit 1, nothing on stdout, a message that mentions --allow-empty', () => {
    const dir = writeTree(tempDir(), { 'README.md': '# nothing here\n', 'notes.txt': configMap('not-yaml-file') });
    const r = run(['build', '.'], { cwd: dir });
    expect(r.status).toBe(1);
    expectNoCrash(r);
    expect(r.stdout).toBe('');
    expect(stderrLines(r)).toHaveLength(1);
    expect(r.stderr).toMatch(/--allow-empty/);
    expect(r.stderr).toMatch(/Argo CD/);
  });

  it('a directory whose YAML holds only an LLSD-free local-config object is empty too', () => {
    const dir = writeTree(tempDir(), { 'local.yaml': configMap('local-only', '  annotations:\n    config.kubernetes.io/local-config: "true"\n') });
    const r = run(['build', '.'], { cwd: dir });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/--allow-empty/);
  });

  it('--allow-empty: exit 0 and empty stdout', () => {
    const dir = writeTree(tempDir(), { 'README.md': '# nothing here\n' });
    const r = run(['build', '--allow-empty', '.'], { cwd: dir });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('');
  });

  it('a directory with only a Secret is not empty: the Secret is printed, exit 0', () => {
    const dir = writeTree(tempDir(), { 'secret.yaml': readFixture('secret.yaml') });
    const r = run(['build', '.'], { cwd: dir });
    expect(r.status, r.stderr).toBe(0);
    expect(parseStream(r.stdout).map(ref)).toEqual(['Secret/vllm-credentials']);
  });
});

describe('usage errors exit 2 with a one-line reason and a pointer to --help', () => {
  const cases: Array<{ title: string; args: string[]; stderr: RegExp }> = [
    { title: 'an unknown command', args: ['frobnicate'], stderr: /unknown command "frobnicate" \(commands: build, validate/ },
    { title: 'a misspelt command', args: ['biuld', '.'], stderr: /^llsd-render: unknown command "biuld"; did you mean `build`\?/ },
    {
      title: 'a misspelt option',
      args: ['build', '--ouput', 'x', '.'],
      stderr: /^llsd-render: unknown option "--ouput"; did you mean --output\? \(options: --output, --config, --allow-empty, --offline, --help, --version\)\n/,
    },
    { title: 'an unknown option', args: ['build', '--frobnicate', 'examples/quickstart'], stderr: /--frobnicate/ },
    { title: 'an unknown short option', args: ['build', '-z', 'examples/quickstart'], stderr: /-z/ },
    { title: '--output without a value', args: ['build', 'examples/quickstart', '-o'], stderr: /-o|--output/ },
    { title: 'build without PATH', args: ['build'], stderr: /PATH/ },
    { title: 'validate without PATH', args: ['validate'], stderr: /PATH/ },
    { title: 'a PATH that does not exist', args: ['build', 'no/such/dir'], stderr: /no\/such\/dir: no such file or directory/ },
    { title: 'validate with a build-only option', args: ['validate', '--allow-empty', 'examples/quickstart'], stderr: /validate/ },
  ];
  for (const c of cases) {
    it(`${c.title}: ${c.args.join(' ')}`, () => {
      const r = run(c.args);
      expect(r.status, r.stderr).toBe(2);
      expectNoCrash(r);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(c.stderr);
      expect(r.stderr).toMatch(/--help/);
      expect(stderrLines(r).length).toBeLessThanOrEqual(2);
    });
  }
});
