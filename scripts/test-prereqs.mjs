#!/usr/bin/env node
// The first step of `npm test` (and so of .ci/run): make this machine able to run every test, or
// stop and say exactly what is missing and how to get it. The tests never skip, so a missing tool
// would otherwise show up as dozens of failures.
//
//   node scripts/test-prereqs.mjs          (npm run test:prereqs)
//
// - Debian packages the container and registry tests run (podman, buildah, runc, docker-registry,
//   python3, openssl): installed with apt-get when missing and this is root; otherwise (not root,
//   no apt-get, apt-get fails) it exits 1 and prints the command to run.
// - kpt and kubectl come from outside Debian's archive: never installed here, only named.
// - Two podman settings in containers.conf ($CONTAINERS_CONF, as podman reads it, else
//   /etc/containers/containers.conf; docs/development.md "Running the tests"): rlimits below a
//   sandbox's hard limits, and runc, because crun fails on cgroup v1+v2 hybrid hosts. Added only
//   where the file lacks them, keeping everything else in it; when the file cannot be written,
//   the lines to add are printed and the tests run anyway (podman may well work without them).
import { spawnSync } from 'node:child_process';
import { accessSync, constants, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';

const name = 'test-prereqs';
const say = (line) => process.stderr.write(`${name}: ${line}\n`);

/** Tools the tests run that a Debian package provides, with the test files that need them. */
const debianTools = [
  { tool: 'podman', pkg: 'podman', for: 'test/e2e/container.test.ts' },
  { tool: 'buildah', pkg: 'buildah', for: 'test/e2e/container.test.ts, test/e2e/registry.test.ts' },
  // podman runs runc itself; a user's PATH often lacks /usr/sbin, where Debian puts it.
  { tool: 'runc', pkg: 'runc', for: 'podman (crun fails on cgroup v1+v2 hybrid hosts)', alsoIn: ['/usr/sbin', '/sbin'] },
  { tool: 'docker-registry', pkg: 'docker-registry', for: 'test/e2e/registry.test.ts' },
  { tool: 'python3', pkg: 'python3', for: 'test/e2e/registry.test.ts (htpasswd bcrypt hashes)' },
  { tool: 'openssl', pkg: 'openssl', for: 'test/e2e/registry.test.ts (token-signing certificate)' },
];

/** Tools the machine must bring: no Debian archive package, so only say where they come from. */
const outsideTools = [
  { tool: 'kpt', how: 'the Debian package google-cloud-cli-kpt from the Google Cloud CLI apt repository (https://cloud.google.com/sdk/docs/install#deb), or ' +
    'a kpt v1 release binary from https://github.com/kptdev/kpt/releases' },
  { tool: 'kubectl', how: 'the Debian package kubectl from the Kubernetes apt repository (https://kubernetes.io/docs/tasks/tools/install-kubectl-linux/)' },
];

/** [section, key, line]: each line goes under [section] unless that section already sets key. */
const containersSettings = [
  ['containers', 'default_ulimits', 'default_ulimits = ["nofile=4096:4096", "nproc=4096:4096"]'],
  ['engine', 'runtime', 'runtime = "runc"'],
];

function onPath(tool, alsoIn = []) {
  for (const dir of [...(process.env.PATH ?? '').split(delimiter), ...alsoIn]) {
    if (!dir) continue;
    try {
      const path = join(dir, tool);
      accessSync(path, constants.X_OK);
      if (statSync(path).isFile()) return true;
    } catch {
      // not in this directory
    }
  }
  return false;
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** Installs the missing Debian packages, or says how to; returns whether they are all there now. */
function installDebianPackages() {
  const missing = debianTools.filter((t) => !onPath(t.tool, t.alsoIn));
  if (missing.length === 0) return true;
  const pkgs = [...new Set(missing.map((t) => t.pkg))];
  const list = missing.map((t) => `  ${t.tool} (Debian package ${t.pkg}): for ${t.for}`).join('\n');
  const sudo = isRoot() ? '' : 'sudo ';
  const command = `${sudo}apt-get update && ${sudo}apt-get install -y ${pkgs.join(' ')}`;
  const stop = (why) => {
    say(`${why}. The tests need:\n${list}`);
    say(`install them, as root, then run npm test again:\n  ${command}`);
    return false;
  };
  if (!isRoot()) return stop('missing tools, and this user is not root, so they cannot be installed here');
  if (!onPath('apt-get')) return stop('missing tools, and apt-get is not on PATH (llsd-render\'s tests expect a Debian machine)');

  say(`installing ${pkgs.join(' ')} (apt-get, Debian packages)`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', ...pkgs]]) {
    const r = spawnSync('apt-get', args, { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    if (r.error || r.status !== 0) {
      process.stderr.write(`${r.stdout ?? ''}${r.stderr ?? ''}`);
      return stop(`apt-get ${args.join(' ')} failed (${r.error ? r.error.message : `exit ${r.status}`})`);
    }
  }
  const still = missing.filter((t) => !onPath(t.tool, t.alsoIn)).map((t) => t.tool);
  if (still.length > 0) return stop(`apt-get installed the packages, but ${still.join(', ')} is still not on PATH`);
  return true;
}

function checkOutsideTools() {
  const missing = outsideTools.filter((t) => !onPath(t.tool));
  for (const t of missing) say(`${t.tool} is not on PATH; the tests run it (test/e2e). Install ${t.how}`);
  return missing.length === 0;
}

/** `text` with `line` under [section], unless the section sets `key` already (other lines kept). */
function withSetting(text, section, key, line) {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const header = (l) => /^\s*\[[^\]]*\]\s*$/.test(l);
  const sectionOf = (l) => l.trim().slice(1, -1).trim();
  const keyPattern = new RegExp(`^\\s*${key}\\s*=`);
  let current = '';
  let at = -1;
  for (const [i, l] of lines.entries()) {
    if (header(l)) {
      current = sectionOf(l);
      if (current === section && at === -1) at = i;
    } else if (current === section && keyPattern.test(l)) {
      return text;
    }
  }
  if (at === -1) lines.push(`[${section}]`, line);
  else lines.splice(at + 1, 0, line);
  return `${lines.join('\n')}\n`;
}

/** Adds the podman settings the file lacks; when it cannot be written, says what to add. */
function ensureContainersConf() {
  const file = process.env.CONTAINERS_CONF || '/etc/containers/containers.conf';
  let before = '';
  try {
    before = readFileSync(file, 'utf8');
  } catch (e) {
    if (e.code !== 'ENOENT') {
      say(`cannot read ${file} (${e.code}); make sure it has ${containersSettings.map(([s, , l]) => `[${s}] ${l}`).join(' and ')}`);
      return;
    }
  }
  let after = before;
  for (const [section, key, line] of containersSettings) after = withSetting(after, section, key, line);
  if (after === before) return;
  const added = containersSettings.filter(([section, key, line]) => withSetting(before, section, key, line) !== before);
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, after);
    for (const [section, , line] of added) say(`${file}: set [${section}] ${line}`);
  } catch (e) {
    say(
      `cannot write ${file} (${e.code}); podman may need these settings (docs/development.md, "Running the tests"): add, as root,\n` +
        added.map(([section, , line]) => `  [${section}]\n  ${line}`).join('\n'),
    );
  }
}

const packagesOk = installDebianPackages();
const outsideOk = checkOutsideTools();
if (!packagesOk || !outsideOk) process.exit(1);
ensureContainersConf();
