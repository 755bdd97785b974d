// Issue 18, "Done when": a newcomer's path from a clean checkout to every host. From a clone of
// this repository's HEAD (with the node_modules `npm ci` made, as CI has), `npm pack` makes the
// tarball; `npm install -g --offline` puts it into an empty prefix; `llsd-render` from that PATH
// renders every example under examples/ into its checked-in output. Then the image is built as the
// Dockerfile header says (base from scripts/local-base-image.sh, no registry image) and each host
// runs it: kpt (`image:` with KPT_FN_RUNTIME=podman), kustomize (`container:`, through a `docker`
// that runs podman) and the Argo CD plugin's generate command inside the image.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { imageName, packageVersion } from './image.js';
import { describeRun, repoRoot, requireKustomize, requireTool, run, snapshotDir, type RunResult } from './tools.js';

const installHint =
  'run `npm run test:prereqs` (as root it installs the Debian packages podman buildah runc and writes the containers.conf settings podman needs here)';
const toolHints: Record<string, string> = {
  git: 'git not found on PATH: install the Debian package git',
  npm: 'npm not found on PATH: install Node.js 20 or later with npm (https://nodejs.org/en/download)',
  tar: 'tar not found on PATH: install the Debian package tar',
  podman: `podman not found on PATH: ${installHint}`,
  buildah: `buildah not found on PATH: ${installHint}`,
};

/** A program on PATH, or an error saying how to get it. */
function requireProgram(name: keyof typeof toolHints): string {
  const found = (process.env.PATH ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, name)).find((path) => existsSync(path));
  if (!found) throw new Error(toolHints[name]);
  return found;
}

function succeeded(what: string, result: RunResult): string {
  expect(result.status, `${what}\n${describeRun(result)}`).toBe(0);
  return result.stdout;
}

const root = mkdtempSync(join(tmpdir(), 'llsd-newcomer-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const checkout = join(root, 'checkout');
const prefix = join(root, 'prefix');
const tarball = join(root, `llsd-render-${packageVersion}.tgz`);
const installed = join(prefix, 'bin', 'llsd-render');
/** The pages of docs/ (the package ships them: the README and messages point there). */
const docPages = readdirSync(join(repoRoot, 'docs')).filter((name) => name.endsWith('.md')).sort();
/** What the newcomer's shell has: the empty prefix's bin first, node, the system's tools. */
const newcomerEnv = (): Record<string, string | undefined> => ({
  ...withoutNpmScriptEnv(),
  PATH: [join(prefix, 'bin'), dirname(process.execPath), '/usr/bin', '/bin'].join(delimiter),
  XDG_CACHE_HOME: join(root, 'cache'),
  LLSD_RENDER: undefined,
});
/** The environment without what `npm test` adds (npm_config_*, npm_package_*), which would steer the npm commands. */
function withoutNpmScriptEnv(): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')));
}
const inCheckout = (...parts: string[]) => join(checkout, ...parts);
const expected = (...parts: string[]) => readFileSync(inCheckout(...parts), 'utf8');
/**
 * kpt's checked-in output with the Kptfile's function as `line` instead of the checkout's bundle:
 * `-o unwrap` prints the Kptfile too, and the function line is all that differs.
 */
function kptExpected(name: string, line: string): string {
  const text = expected('examples/expected', `${name}.yaml`);
  const checkedIn = '- exec: ../../dist/llsd-render.js\n';
  expect(text, `examples/expected/${name}.yaml holds the Kptfile's exec line`).toContain(checkedIn);
  return text.replace(checkedIn, `${line}\n`);
}
const llsdRender = (args: string[], cwd: string, env: Record<string, string> = {}) => run('llsd-render', args, { cwd, baseEnv: { ...newcomerEnv(), ...env } });

beforeAll(() => {
  const git = requireProgram('git');
  const npm = requireProgram('npm');
  // The committed state, not the working tree: what a clone gets.
  const head = succeeded('git rev-parse HEAD', run(git, ['rev-parse', 'HEAD'])).trim();
  succeeded('git clone', run(git, ['clone', '-q', '--no-checkout', repoRoot, checkout], { timeoutMs: 60_000 }));
  succeeded('git checkout', run(git, ['checkout', '-q', head], { cwd: checkout }));
  // CI's clean clone has run `npm ci`; the clone shares this checkout's node_modules instead.
  const modules = join(repoRoot, 'node_modules');
  if (!existsSync(modules)) throw new Error('node_modules not found: run `npm ci` first');
  symlinkSync(realpathSync(modules), inCheckout('node_modules'));
  // `npm pack` builds dist/ first (prepack), so a fresh clone packs a working bundle.
  expect(existsSync(inCheckout('dist'))).toBe(false);
  succeeded('npm pack', run(npm, ['pack', '--pack-destination', root], { cwd: checkout, baseEnv: withoutNpmScriptEnv(), timeoutMs: 120_000 }));
  succeeded(
    'npm install -g of the tarball into an empty prefix, offline',
    run(npm, ['install', '-g', '--prefix', prefix, '--offline', '--cache', join(root, 'npm-cache'), '--no-audit', '--no-fund', tarball], {
      cwd: root,
      baseEnv: withoutNpmScriptEnv(),
      timeoutMs: 60_000,
    }),
  );
}, 240_000);

describe('npm pack and npm install -g: the tarball', () => {
  it(`is llsd-render-${packageVersion}.tgz, holding only the bundle, README, docs/ (which the README and messages cite) and package.json, and depending on ` +
    `nothing`, () => {
    const files = succeeded('tar tzf', run(requireProgram('tar'), ['tzf', tarball]))
      .trim()
      .split('\n')
      .sort();
    expect(files).toEqual(
      [
        'package/README.md',
        'package/dist/llsd-render.js',
        'package/dist/package.json',
        ...docPages.map((page) => `package/docs/${page}`),
        'package/package.json',
      ].sort(),
    );
    const manifest = JSON.parse(succeeded('tar xOzf', run(requireProgram('tar'), ['xOzf', tarball, 'package/package.json']))) as Record<string, unknown>;
    expect(manifest.dependencies, 'the bundle is self-contained: a runtime dependency would be fetched for nothing').toBeUndefined();
    expect(manifest.bin).toEqual({ 'llsd-render': 'dist/llsd-render.js' });
  });

  it('installs offline into an empty prefix: only the package, and llsd-render on PATH answers --version and --help', () => {
    expect([...snapshotDir(join(prefix, 'lib', 'node_modules')).keys()].sort()).toEqual(
      [
        'llsd-render/README.md',
        'llsd-render/dist/llsd-render.js',
        'llsd-render/dist/package.json',
        ...docPages.map((page) => `llsd-render/docs/${page}`),
        'llsd-render/package.json',
      ].sort(),
    );
    expect(succeeded('command -v', run('sh', ['-c', 'command -v llsd-render'], { baseEnv: newcomerEnv() })).trim()).toBe(installed);
    expect(succeeded('--version', llsdRender(['--version'], root)).trim()).toBe(packageVersion);
    const help = succeeded('--help', llsdRender(['--help'], root));
    expect(help).toMatch(new RegExp(`^llsd-render ${packageVersion.replaceAll('.', '\\.')}: `));
    expect(help).toContain('llsd-render build PATH...');
  });
});

// Each example as its README runs it, with `llsd-render` from the empty prefix; the exec forms
// (kpt's `exec:`, kustomize's `exec: path:`) point at the installed command instead of the
// checkout's dist/, as the READMEs tell a user to.
describe('llsd-render from PATH renders every example into its checked-in output', () => {
  const covered = new Set<string>();
  const example = (name: string) => {
    covered.add(name);
    return inCheckout('examples', name);
  };

  beforeAll(() => {
    for (const file of [
      'kpt/Kptfile',
      'kpt-ogx/Kptfile',
      'rhoai/Kptfile',
      'ogx-external-access/Kptfile',
      'praxis/Kptfile',
      'kustomize/transformer/render-config.yaml',
      'kustomize/ogx-transformer/render-config.yaml',
      'kustomize/generator/llsd.yaml',
      'kustomize/ogx-generator/ogxserver.yaml',
    ]) {
      const path = inCheckout('examples', file);
      const text = readFileSync(path, 'utf8');
      const pointed = text.replace(/(?:\.\.\/)+dist\/llsd-render\.js/g, installed);
      expect(pointed, `${file} names the bundle in dist/`).not.toBe(text);
      writeFileSync(path, pointed);
    }
  });

  it('quickstart: llsd-render build examples/quickstart', () => {
    example('quickstart');
    expect(succeeded('build', llsdRender(['build', 'examples/quickstart'], checkout))).toBe(expected('examples/expected/quickstart.yaml'));
  });

  it('postgres and multiple-providers: llsd-render build app', () => {
    for (const name of ['postgres', 'multiple-providers']) {
      expect(succeeded(name, llsdRender(['build', 'app'], example(name))), name).toBe(expected('examples', name, 'expected/build.yaml'));
    }
  });

  it('v1alpha1-migration: convert, then build', () => {
    const dir = example('v1alpha1-migration');
    expect(succeeded('convert', llsdRender(['convert', 'v1alpha1'], dir))).toBe(expected('examples/v1alpha1-migration/converted.yaml'));
    expect(succeeded('build', llsdRender(['build', 'converted.yaml'], dir))).toBe(expected('examples/v1alpha1-migration/expected/build.yaml'));
  });

  it('flux: render.sh writes exactly the committed rendered/ (the CI check passes)', () => {
    const render = run('sh', [join(example('flux'), 'render.sh')], { cwd: checkout, baseEnv: newcomerEnv() });
    succeeded('render.sh', render);
    expect(succeeded('git status', run('git', ['status', '--porcelain', 'examples/flux'], { cwd: checkout }))).toBe('');
  });

  it('argocd: the plugin generate command (llsd-render build with LLSD_CONFIG) in each app directory', () => {
    for (const [app, out] of [['app', 'argocd-app.yaml'], ['ogx-app', 'argocd-ogx-app.yaml']] as const) {
      const generate = llsdRender(['build', '--config', 'render-config.yaml', '.'], join(example('argocd'), app));
      expect(succeeded(`argocd/${app}`, generate), app).toBe(expected('examples/expected', out));
    }
  });

  it('kpt, kpt-ogx, rhoai, ogx-external-access and praxis: kpt fn render --allow-exec -o unwrap, exec: the installed llsd-render', () => {
    const kpt = requireTool('kpt');
    const examples = [
      ['kpt', 'kpt'], ['kpt-ogx', 'kpt-ogx'], ['rhoai', 'kpt-rhoai'], ['ogx-external-access', 'kpt-ogx-external-access'], ['praxis', 'kpt-praxis'],
    ] as const;
    for (const [name, out] of examples) {
      const render = run(kpt, ['fn', 'render', '--allow-exec', '-o', 'unwrap'], { cwd: example(name), baseEnv: newcomerEnv(), timeoutMs: 60_000 });
      expect(succeeded(name, render), name).toBe(kptExpected(out, `- exec: ${installed}`));
    }
  });

  it('kustomize transformer, generator and their ogx- variants: kustomize build --enable-alpha-plugins --enable-exec', () => {
    const kustomize = requireKustomize();
    covered.add('kustomize');
    for (const variant of ['transformer', 'generator', 'ogx-transformer', 'ogx-generator']) {
      const out = run(kustomize, ['build', '--enable-alpha-plugins', '--enable-exec', `examples/kustomize/${variant}`], {
        cwd: checkout,
        baseEnv: newcomerEnv(),
        timeoutMs: 60_000,
      });
      expect(succeeded(variant, out), variant).toBe(expected('examples/expected', `kustomize-${variant}.yaml`));
    }
  });

  it('covers every example directory (examples/expected holds output, not an example)', () => {
    const all = readdirSync(inCheckout('examples'), { withFileTypes: true }).filter((e) => e.isDirectory() && e.name !== 'expected').map((e) => e.name).sort();
    expect([...covered].sort()).toEqual(all);
  });
});

describe(`the image ${imageName}, built as the Dockerfile says, in each host`, () => {
  let podman = '';

  beforeAll(() => {
    podman = requireProgram('podman');
    requireProgram('buildah');
    // The Dockerfile header's offline build command, run as written in the checkout.
    const command = readFileSync(inCheckout('Dockerfile'), 'utf8')
      .split('\n')
      .find((line) => line.includes('BASE_IMAGE=$(scripts/local-base-image.sh)'))
      ?.replace(/^#\s*/, '');
    expect(command, 'the Dockerfile header shows the build with scripts/local-base-image.sh').toBeDefined();
    expect(command).toContain(`-t ${imageName} .`);
    const started = Date.now();
    const build = run('sh', ['-c', command as string], { cwd: checkout, timeoutMs: 300_000 });
    expect(build.status, `${command}\n(${installHint})\n${describeRun(build)}`).toBe(0);
    process.stderr.write(`newcomer: image built in ${Date.now() - started} ms\n`);
  }, 360_000);

  it('runs Node 24 and has llsd-render on PATH', () => {
    const out = run(podman, [
      'run',
      '--rm',
      '--network',
      'none',
      '--entrypoint',
      'sh',
      imageName,
      '-c',
      'node --version; command -v llsd-render; llsd-render --version',
    ]);
    expect(succeeded('podman run', out).trim().split('\n')).toEqual([expect.stringMatching(/^v24\.\d+\.\d+$/), '/usr/local/bin/llsd-render', packageVersion]);
  });

  it('kpt: the package with `image:` instead of `exec:`, under KPT_FN_RUNTIME=podman', () => {
    const kpt = requireTool('kpt');
    for (const name of ['kpt', 'kpt-ogx']) {
      const dir = inCheckout('examples', name);
      const kptfile = join(dir, 'Kptfile');
      writeFileSync(kptfile, readFileSync(kptfile, 'utf8').replace(/- exec: .*/, `- image: ${imageName}`));
      const started = Date.now();
      const out = run(kpt, ['fn', 'render', '-o', 'unwrap', '--image-pull-policy', 'never'], {
        cwd: dir,
        env: { KPT_FN_RUNTIME: 'podman' },
        timeoutMs: 60_000,
      });
      expect(succeeded(name, out), name).toBe(kptExpected(name, `- image: ${imageName}`));
      process.stderr.write(`newcomer: kpt fn render of examples/${name} with the image took ${Date.now() - started} ms\n`);
    }
  }, 120_000);

  it('kustomize: examples/kustomize/container (container: image) renders what transformer/ renders', () => {
    const bin = join(root, 'docker-shim');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'docker'), `#!/bin/sh\nexec ${podman} "$@"\n`, { mode: 0o755 });
    const out = run(requireKustomize(), ['build', '--enable-alpha-plugins', 'examples/kustomize/container'], {
      cwd: checkout,
      env: { PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` },
      timeoutMs: 60_000,
    });
    expect(succeeded('kustomize build', out)).toBe(expected('examples/expected/kustomize-transformer.yaml'));
  }, 120_000);

  it('Argo CD: the plugin generate command inside the image, as user 999, prints the checked-in output', () => {
    const plugin = parseYaml(expected('examples/argocd/plugin.yaml')) as { spec: { generate: { command: string[]; args?: string[] } } };
    const [entrypoint, ...args] = [...plugin.spec.generate.command, ...(plugin.spec.generate.args ?? [])];
    const app = inCheckout('examples/argocd/app');
    // argocd-cmp-server runs the command as user 999 in the app directory, which it must be able to read.
    chmodSync(app, 0o755);
    const out = run(podman, [
      'run', '--rm', '--network', 'none', '--user', '999:999', '--read-only', '-e', 'ARGOCD_ENV_LLSD_CONFIG=render-config.yaml',
      '-v', `${app}:/src:ro`, '-w', '/src', '--entrypoint', entrypoint as string, imageName, ...args,
    ]);
    expect(succeeded('generate in the image', out)).toBe(expected('examples/expected/argocd-app.yaml'));
  });
});
