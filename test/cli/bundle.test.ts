// The bundle itself: one executable file with a `#!/usr/bin/env node` line that runs with no
// node_modules anywhere, and the command line's --version and --help.
import { copyFileSync, existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  bundlePath,
  isGenerated,
  packageVersion,
  parseStream,
  quickstartPath,
  requireBundle,
  run,
  expectOnlyMissingSecretWarning,
  runFile,
  tempDir,
  writeTree,
} from './run.js';

/** A directory under the OS temp dir with the bundle and an example, and no node_modules above it. */
function isolatedCopy(): { dir: string; bundle: string } {
  const dir = tempDir('llsd-render-bundle-');
  for (let d = dir; ; d = dirname(d)) {
    expect(existsSync(join(d, 'node_modules')), `${d}/node_modules must not exist for this test`).toBe(false);
    expect(existsSync(join(d, 'package.json')), `${d}/package.json must not exist for this test`).toBe(false);
    if (dirname(d) === d) break;
  }
  const bundle = join(dir, 'llsd-render.js');
  copyFileSync(requireBundle(), bundle);
  writeTree(dir, { 'app/llsd.yaml': readFileSync(quickstartPath, 'utf8') });
  return { dir, bundle };
}

describe('the bundle', () => {
  it('starts with #!/usr/bin/env node and is executable', () => {
    const text = readFileSync(requireBundle(), 'utf8');
    expect(text.startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(statSync(bundlePath).mode & 0o111, 'executable bits').not.toBe(0);
  });

  it('copied alone into an empty temp dir, renders an example exactly as in the repository', () => {
    const { dir, bundle } = isolatedCopy();
    const r = run(['build', 'app'], { cwd: dir, bundle });
    expect(r.status, r.stderr).toBe(0);
    expectOnlyMissingSecretWarning(r);
    const objects = parseStream(r.stdout);
    expect(objects.map((o) => o.kind).sort()).toEqual(expect.arrayContaining(['ConfigMap', 'Deployment', 'Service', 'ServiceAccount']));
    expect(objects.every(isGenerated)).toBe(true);
    // No file of the repository (configs/, node_modules/) was needed: same bytes as from here.
    const fromRepo = run(['build', 'examples/quickstart']);
    expect(fromRepo.status).toBe(0);
    expect(r.stdout).toBe(fromRepo.stdout);
  });

  it('copied alone, runs as an executable through its #! line (KRM mode, stdin to stdout)', () => {
    const { dir, bundle } = isolatedCopy();
    const input = `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n  - apiVersion: v1\n    kind: ConfigMap\n    metadata: {name: c}\n`;
    const r = runFile(bundle, [], { cwd: dir, input });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n  - apiVersion: v1\n    kind: ConfigMap\n    metadata: { name: c }\n',
    );
    const version = runFile(bundle, ['--version'], { cwd: dir });
    expect(version.stdout).toBe(`${packageVersion()}\n`);
  });
});

describe('--version and --help', () => {
  it('--version and -v print the version from package.json', () => {
    for (const flag of ['--version', '-v']) {
      const r = run([flag]);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toBe(`${packageVersion()}\n`);
      expect(r.stderr).toBe('');
    }
  });

  it('--help on the main command lists the commands and the exit codes', () => {
    for (const flag of ['--help', '-h']) {
      const r = run([flag]);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.stdout).toMatch(/Usage:/);
      expect(r.stdout).toContain('llsd-render build PATH');
      expect(r.stdout).toContain('llsd-render validate PATH');
      expect(r.stdout).toMatch(/KRM function/);
      expect(r.stdout).toMatch(/0 success, 1 .*error.*, 2 usage error/);
    }
  });

  it('build --help describes build and its options', () => {
    const r = run(['build', '--help']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^Usage: llsd-render build /);
    for (const option of ['-o, --output DIR', '--config FILE', '--allow-empty']) expect(r.stdout).toContain(option);
  });

  it('validate --help describes validate', () => {
    const r = run(['validate', '-h']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^Usage: llsd-render validate /);
    expect(r.stdout).toContain('--config FILE');
    expect(r.stdout).not.toContain('--allow-empty');
  });

  it('--help wins over a missing PATH (prints help, exit 0)', () => {
    const r = run(['build', '--help']);
    const alone = run(['build']);
    expect(r.status).toBe(0);
    expect(alone.status).toBe(2);
  });

  it('--version works on every command (docs/results.md): build --version, validate --version', () => {
    for (const command of ['build', 'validate']) {
      const r = run([command, '--version']);
      expect(r.status, `${command} --version: ${r.stderr}`).toBe(0);
      expect(r.stdout).toBe(`${packageVersion()}\n`);
    }
  });
});
