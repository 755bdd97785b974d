// scripts/test-prereqs.mjs, the first step of `npm test`: with a PATH of fake tools, a fake
// apt-get and a temporary containers.conf ($CONTAINERS_CONF, as podman reads it), run as root and
// as a user who is not (setpriv to nobody when the tests run as root; `unshare -r` for a root
// inside a user namespace when they do not).
import { chmodSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeRun, readText, repoRoot, run, useTempDirs, writeExecutable, writeFile, type RunResult } from './tools.js';

const script = join(repoRoot, 'scripts', 'test-prereqs.mjs');
const debianTools = ['podman', 'buildah', 'runc', 'docker-registry', 'python3', 'openssl'];
const outsideTools = ['kpt', 'kubectl'];
const ulimits = 'default_ulimits = ["nofile=4096:4096", "nproc=4096:4096"]';
const runtime = 'runtime = "runc"';
const amRoot = process.getuid?.() === 0;

describe('scripts/test-prereqs.mjs (the first step of npm test)', () => {
  const tmp = useTempDirs();

  /** A directory other users can read, holding bin/ with fake executables for `tools`. */
  function machine(tools: string[]): { root: string; bin: string; conf: string } {
    const root = tmp('llsd-prereqs-');
    chmodSync(root, 0o755);
    const bin = join(root, 'bin');
    mkdirSync(bin, { mode: 0o755 });
    for (const tool of tools) writeExecutable(bin, tool, '#!/bin/sh\nexit 0\n');
    return { root, bin, conf: join(root, 'etc', 'containers', 'containers.conf') };
  }

  /**
   * A fake apt-get that logs its arguments and DEBIAN_FRONTEND, and on `install` creates the
   * named tools in bin/ (or fails with exit 100 when `fail` is set).
   */
  function fakeAptGet(bin: string, fail = false): string {
    const log = join(bin, '..', 'apt-get.log');
    writeExecutable(
      bin,
      'apt-get',
      `#!/bin/sh\necho "$DEBIAN_FRONTEND $*" >> '${log}'\n` +
        (fail
          ? `echo "E: Unable to locate package $3" >&2\nexit 100\n`
          : `[ "$1" = install ] || exit 0\nfor a in "$@"; do case "$a" in -*|install) ;; *) printf '#!/bin/sh\\n' > '${bin}'/"$a"; /bin/chmod 755 '` +
            `${bin}'/"$a" ;; esac; done\n`),
    );
    return log;
  }

  /** Runs the script with only `bin` on PATH, as root or as a user who is not root. */
  function prereqs(as: 'root' | 'user', bin: string, conf: string): RunResult {
    const env = { PATH: bin, CONTAINERS_CONF: conf, HOME: '/nonexistent' };
    const node = process.execPath;
    if ((as === 'root') === amRoot) return run(node, [script], { baseEnv: env });
    if (amRoot) return run('/usr/bin/setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', '--', node, script], { baseEnv: env });
    const unshare = run('/usr/bin/unshare', ['--user', '--map-root-user', '--', node, script], { baseEnv: env });
    expect(unshare.stderr, 'a root in a user namespace (`unshare -r`) is how this test runs the script as root when npm test is not root').not.toMatch(
      /unshare: /,
    );
    return unshare;
  }

  it('does nothing but add the two podman settings when every tool is there (a second run changes nothing)', () => {
    const { bin, conf } = machine([...debianTools, ...outsideTools]);
    const log = fakeAptGet(bin);
    const first = prereqs('root', bin, conf);
    expect(first.status, describeRun(first)).toBe(0);
    expect(readText(conf)).toBe(`[containers]\n${ulimits}\n[engine]\n${runtime}\n`);
    expect(first.stderr).toBe(`test-prereqs: ${conf}: set [containers] ${ulimits}\ntest-prereqs: ${conf}: set [engine] ${runtime}\n`);
    expect(existsSync(log), 'apt-get must not run when nothing is missing').toBe(false);

    const second = prereqs('root', bin, conf);
    expect(second.status, describeRun(second)).toBe(0);
    expect(second.stderr).toBe('');
    expect(readText(conf)).toBe(`[containers]\n${ulimits}\n[engine]\n${runtime}\n`);
  });

  it('keeps what containers.conf holds: adds a setting under its section, never replaces one that is set', () => {
    const { bin, conf } = machine([...debianTools, ...outsideTools]);
    mkdirSync(join(conf, '..'), { recursive: true });
    const before = [
      '# site settings',
      '[containers]',
      'log_size_max = 1000',
      '',
      '[engine]',
      '# runtime = "crun" (a comment does not set it)',
      'events_logger = "file"',
      '[network]',
      'network_backend = "netavark"',
    ].join('\n');
    writeFile(conf, before); // no newline at the end
    const result = prereqs('root', bin, conf);
    expect(result.status, describeRun(result)).toBe(0);
    expect(readText(conf)).toBe(
      [
        '# site settings',
        '[containers]',
        ulimits,
        'log_size_max = 1000',
        '',
        '[engine]',
        runtime,
        '# runtime = "crun" (a comment does not set it)',
        'events_logger = "file"',
        '[network]',
        'network_backend = "netavark"',
        '',
      ].join('\n'),
    );

    // A runtime the machine chose stays; only the missing setting is added.
    writeFile(conf, '[engine]\n  runtime = "crun"\n');
    const kept = prereqs('root', bin, conf);
    expect(kept.status, describeRun(kept)).toBe(0);
    expect(readText(conf)).toBe(`[engine]\n  runtime = "crun"\n[containers]\n${ulimits}\n`);
    expect(kept.stderr).toBe(`test-prereqs: ${conf}: set [containers] ${ulimits}\n`);
  });

  it('installs the missing Debian packages with apt-get as root, then sets up containers.conf', () => {
    const { bin, conf } = machine(['buildah', 'runc', 'python3', 'openssl', ...outsideTools]);
    const log = fakeAptGet(bin);
    const result = prereqs('root', bin, conf);
    expect(result.status, describeRun(result)).toBe(0);
    expect(readText(log)).toBe('noninteractive update -qq\nnoninteractive install -y -qq podman docker-registry\n');
    expect(result.stderr).toMatch(/^test-prereqs: installing podman docker-registry \(apt-get, Debian packages\)$/m);
    expect(existsSync(join(bin, 'podman'))).toBe(true);
    expect(readText(conf)).toBe(`[containers]\n${ulimits}\n[engine]\n${runtime}\n`);
  });

  it('stops with the apt-get command to run when it is not root, and touches nothing', () => {
    const { bin, conf } = machine(['buildah', 'runc', 'python3', 'openssl', ...outsideTools]);
    const log = fakeAptGet(bin);
    const result = prereqs('user', bin, conf);
    expect(result.status, describeRun(result)).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('test-prereqs: missing tools, and this user is not root, so they cannot be installed here. The tests need:\n');
    expect(result.stderr).toContain('  podman (Debian package podman): for test/e2e/container.test.ts\n');
    expect(result.stderr).toContain('  docker-registry (Debian package docker-registry): for test/e2e/registry.test.ts\n');
    expect(result.stderr).toContain(
      'install them, as root, then run npm test again:\n  sudo apt-get update && sudo apt-get install -y podman docker-registry\n',
    );
    expect(existsSync(log), 'apt-get must not run as a user who is not root').toBe(false);
    expect(existsSync(conf)).toBe(false);
  });

  it('stops with apt-get\'s output and the command to run when apt-get fails', () => {
    const { bin, conf } = machine(['podman', 'buildah', 'runc', 'python3', 'openssl', ...outsideTools]);
    fakeAptGet(bin, true);
    const result = prereqs('root', bin, conf);
    expect(result.status, describeRun(result)).toBe(1);
    expect(result.stderr).toContain('E: Unable to locate package');
    expect(result.stderr).toMatch(
      /^test-prereqs: apt-get update -qq failed \(exit 100\)\. The tests need:\n {2}docker-registry \(Debian package docker-registry\)/m,
    );
    expect(result.stderr).toContain('install them, as root, then run npm test again:\n  apt-get update && apt-get install -y docker-registry\n');
    expect(existsSync(conf)).toBe(false);
  });

  it('names kpt and kubectl and where to get them when they are missing (it does not install them)', () => {
    const { bin, conf } = machine(debianTools);
    const log = fakeAptGet(bin);
    const result = prereqs('root', bin, conf);
    expect(result.status, describeRun(result)).toBe(1);
    expect(result.stderr).toMatch(
      /^test-prereqs: kpt is not on PATH; the tests run it \(test\/e2e\)\. Install the Debian package google-cloud-cli-kpt from the Google Cloud CLI apt repository/m,
    );
    expect(result.stderr).toMatch(
      /^test-prereqs: kubectl is not on PATH; the tests run it \(test\/e2e\)\. Install the Debian package kubectl from the Kubernetes apt repository/m,
    );
    expect(existsSync(log)).toBe(false);
  });

  it('prints the lines to add when containers.conf cannot be written, and goes on', () => {
    const { root, bin } = machine([...debianTools, ...outsideTools]);
    const conf = join(root, 'etc', 'containers.conf');
    mkdirSync(join(root, 'etc'), { mode: 0o755 });
    writeFile(conf, '[engine]\nevents_logger = "file"\n');
    chmodSync(conf, 0o444);
    chmodSync(join(root, 'etc'), 0o555);
    const result = prereqs('user', bin, conf);
    expect(result.status, describeRun(result)).toBe(0);
    expect(result.stderr).toBe(
      `test-prereqs: cannot write ${conf} (EACCES); podman may need these settings (docs/development.md, "Running the tests"): add, as root,\n  ` +
        `[containers]\n  ${ulimits}\n  [engine]\n  ${runtime}\n`,
    );
    expect(readFileSync(conf, 'utf8')).toBe('[engine]\nevents_logger = "file"\n');
    chmodSync(join(root, 'etc'), 0o755);
  });
});
