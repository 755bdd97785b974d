// Reading input through the built bundle (issue 15): symbolic links are followed or reported,
// never skipped; unreadable paths are results; the size limit holds while reading files, pipes
// and devices; bytes that are not UTF-8 are an error at their line; and KRM mode prints a
// ResourceList even when llsd-render itself fails.
import { spawnSync } from 'node:child_process';
import { chmodSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  expectNoCrash,
  parseResourceList,
  parseStream,
  quickstartText,
  repoRoot,
  requireBundle,
  resourceList,
  run,
  stderrLines,
  tempDir,
  writeTree,
  type RunResult,
} from './run.js';

const errorLines = (r: RunResult): string[] => stderrLines(r).filter((l) => !l.includes(': warning: '));
const llsd = (name: string): string => quickstartText().replace('name: quickstart', `name: ${name}`);
const tooLarge =
  'is larger than 1 MiB, the most llsd-render reads at once (parsing needs about 40 times that in memory): split the package, or set LLSD_RENDER_MAX_INPUT_MB';

describe('symbolic links under a PATH', () => {
  it('a linked file and a linked directory inside the PATH are read like the others, each file once', () => {
    const root = tempDir();
    writeTree(root, { 'app/shared/b.yaml': llsd('linked-dir'), 'app/elsewhere/c.yml': llsd('linked-file'), 'app/a.yaml': llsd('plain') });
    symlinkSync('shared', join(root, 'app/dir'));
    symlinkSync('elsewhere/c.yml', join(root, 'app/file.yaml'));
    // The same file again through a second link: read once, not reported as defined twice.
    symlinkSync('../elsewhere/c.yml', join(root, 'app/shared/file-again.yaml'));
    const r = run(['build', 'app'], { cwd: root });
    expect(r.status, r.stderr).toBe(0);
    const deployments = parseStream(r.stdout).filter((o) => o.kind === 'Deployment').map((o) => o.metadata.name);
    expect(deployments).toEqual(['plain', 'linked-dir', 'linked-file']);
  });

  it('a link to a directory that holds it (a loop) and a dangling link: one error each, exit 1, nothing printed', () => {
    const root = tempDir();
    writeTree(root, { 'app/a.yaml': llsd('plain'), 'app/sub/b.yaml': llsd('sub') });
    symlinkSync('..', join(root, 'app/sub/up'));
    symlinkSync('missing.yaml', join(root, 'app/gone.yaml'));
    symlinkSync('self.yaml', join(root, 'app/self.yaml'));
    // No extension: it may be meant as a directory, which build would walk.
    symlinkSync('../missing-base', join(root, 'app/base'));
    const r = run(['build', 'app'], { cwd: root });
    expectNoCrash(r);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(errorLines(r)).toEqual([
      'app/base: is a symbolic link to "../missing-base", which does not exist: fix the link, or remove it',
      'app/gone.yaml: is a symbolic link to "missing.yaml", which does not exist: fix the link, or remove it',
      'app/self.yaml: is a symbolic link that leads back to itself (a loop): remove the link, or point it at a file or directory',
      'app/sub/up: is a symbolic link to "..", a directory that holds the link (a loop): remove the link, or point it elsewhere',
    ]);
  });

  it('a dangling or looping link named like a file build never reads (NOTES.md) fails nothing (attacker D1)', () => {
    const root = tempDir();
    writeTree(root, { 'app/a.yaml': llsd('plain') });
    symlinkSync('../NOTES.md', join(root, 'app/NOTES.md'));
    symlinkSync('loop.json', join(root, 'app/loop.json'));
    const r = run(['build', 'app'], { cwd: root });
    expect(r.status, r.stderr).toBe(0);
    expect(errorLines(r)).toEqual([]);
    expect(parseStream(r.stdout).filter((o) => o.kind === 'Deployment').map((o) => o.metadata.name)).toEqual(['plain']);
  });

  it('a link out of the PATH, to a file or a directory, is refused naming the link and its target; nothing is read through it (attacker S1)', () => {
    const root = tempDir();
    const secret = 'apiVersion: v1\nkind: Secret\nmetadata: {name: outside}\nstringData: {token: from-outside}\n';
    writeTree(root, { 'app/a.yaml': llsd('plain'), 'outside/s.yaml': secret, 'outside/more/c.yaml': llsd('outside-llsd') });
    symlinkSync('../outside/s.yaml', join(root, 'app/innocent.yaml'));
    symlinkSync('../outside/more', join(root, 'app/more'));
    symlinkSync('/usr', join(root, 'app/usr'));
    // Named like no file build reads, and leading to a file: never read, so no error either.
    symlinkSync('../outside/s.yaml', join(root, 'app/notes.txt'));
    for (const args of [['build', 'app'], ['validate', 'app'], ['convert', 'app']]) {
      const r = run(args, { cwd: root });
      expectNoCrash(r);
      expect(r.status, args.join(' ')).toBe(1);
      // validate prints its infos on stdout.
      if (args[0] !== 'validate') expect(r.stdout).toBe('');
      expect(r.stdout + r.stderr).not.toContain('from-outside');
      expect(r.stdout + r.stderr).not.toContain('outside-llsd');
      const why = 'llsd-render reads only what lies under the PATHs it is given, so that a package cannot pull in files from elsewhere';
      expect(errorLines(r).filter((l) => !l.startsWith('app/a.yaml'))).toEqual([
        `app/innocent.yaml: is a symbolic link to "../outside/s.yaml" (outside/s.yaml), which leads outside app: ${why}; copy the file into the package, ` +
          'or pass outside/s.yaml as a PATH of its own',
        `app/more: is a symbolic link to "../outside/more" (outside/more), which leads outside app: ${why}; copy that directory into the package, or pass ` +
          'outside/more as a PATH of its own',
        `app/usr: is a symbolic link to "/usr", which leads outside app: ${why}; copy that directory into the package, or pass /usr as a PATH of its own`,
      ]);
    }
  });

  it('what a PATH given on the command line leads to is followed: a link given as the PATH, and a link into another PATH given', () => {
    const root = tempDir();
    writeTree(root, { 'app/a.yaml': llsd('plain'), 'outside/c.yaml': llsd('outside-llsd'), 'real/b.yaml': llsd('through-link') });
    symlinkSync('../outside/c.yaml', join(root, 'app/c.yaml'));
    symlinkSync('real', join(root, 'linked-app'));
    symlinkSync('outside/c.yaml', join(root, 'given.yaml'));
    const r = run(['build', 'app', 'outside', 'linked-app', 'given.yaml'], { cwd: root });
    expect(r.status, r.stderr).toBe(0);
    const deployments = parseStream(r.stdout).filter((o) => o.kind === 'Deployment').map((o) => o.metadata.name);
    // c.yaml is read once, at its first path.
    expect(deployments).toEqual(['plain', 'outside-llsd', 'through-link']);
  });
});

describe('paths that cannot be read (run as a user who may not read them)', () => {
  it('an unreadable file and an unreadable directory: `path: cannot read it (permission denied)`, exit 1, nothing on stdout', () => {
    const root = tempDir();
    writeTree(root, { 'app/a.yaml': llsd('plain'), 'app/secret.yaml': llsd('hidden'), 'app/locked/b.yaml': llsd('locked') });
    const r = runAsNonRoot(['build', 'app'], root, () => {
      chmodSync(join(root, 'app/secret.yaml'), 0o000);
      chmodSync(join(root, 'app/locked'), 0o000);
    });
    expectNoCrash(r);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(errorLines(r)).toEqual(['app/locked: cannot read it (permission denied)', 'app/secret.yaml: cannot read it (permission denied)']);
  });
});

describe('the size limit holds while reading', () => {
  const env = { LLSD_RENDER_MAX_INPUT_MB: '1' };
  it('build /dev/zero: refused at the limit, not read until memory runs out', () => {
    const r = run(['build', '/dev/zero'], { env, cwd: '/' });
    expectNoCrash(r);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`dev/zero: ${tooLarge}\n`);
  });

  it('build /dev/stdin on an endless pipe: refused at the limit', () => {
    const r = shell(`yes 'a: b' | "${process.execPath}" "${requireBundle()}" build /dev/stdin`, env);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`dev/stdin: ${tooLarge}\n`);
  });

  it('KRM mode with /dev/zero on stdin: ends with a ResourceList that says stdin is too large', () => {
    const r = shell(`"${process.execPath}" "${requireBundle()}" < /dev/zero`, env);
    expect(r.status).toBe(1);
    expect(parseResourceList(r.stdout).results).toEqual([{ severity: 'error', message: `stdin ${tooLarge}` }]);
  });
});

describe('bytes that are not UTF-8', () => {
  const configMap = (value: Buffer): Buffer =>
    Buffer.concat([
      Buffer.from('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: llama\ndata:\n  model: "llama-'),
      value,
      Buffer.from('"\n'),
    ]);

  it('in a file: an error at its line and column, exit 1, nothing printed', () => {
    const root = tempDir();
    writeTree(root, { 'llsd.yaml': quickstartText() });
    writeFileSync(join(root, 'cm.yaml'), configMap(Buffer.from([0xc3, 0x28])));
    const r = run(['build', '.'], { cwd: root });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(errorLines(r)).toEqual(['cm.yaml:7: is not valid UTF-8 at line 7, column 17: save the file as UTF-8']);
  });

  it('on KRM stdin: a ResourceList whose error says where', () => {
    const input = Buffer.concat([Buffer.from(resourceList([quickstartText()])), Buffer.from('# caf'), Buffer.from([0xe9]), Buffer.from('\n')]);
    const line = input.subarray(0, input.indexOf(0xe9)).toString().split('\n').length;
    const r = spawnSync(process.execPath, [requireBundle()], { input, encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(parseResourceList(r.stdout).results).toEqual([
      { severity: 'error', message: `stdin is not valid UTF-8 at line ${line}, column 6: save the file as UTF-8` },
    ]);
  });

  it('valid multi-byte text and a byte-order mark still read as before', () => {
    const root = tempDir();
    writeFileSync(join(root, 'cm.yaml'), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), configMap(Buffer.from('ünï-😀'))]));
    const r = run(['build', '--allow-empty', '.'], { cwd: root });
    expect(r.status, r.stderr).toBe(0);
    expect(parseStream(r.stdout)[0]?.data).toEqual({ model: 'llama-ünï-😀' });
  });
});

describe('KRM mode when llsd-render itself fails', () => {
  it('prints a ResourceList with one error result and no stack, and exits 1', () => {
    const root = tempDir();
    // A bug stand-in: reading stdin throws an error llsd-render does not expect.
    const preload = join(root, 'fail.cjs');
    writeFileSync(
      preload,
      "const fs = require('fs'); const read = fs.readSync; fs.readSync = function (fd, ...rest) { if (fd === 0) throw new TypeError('injected failure'); " +
        "return read.call(this, fd, ...rest); };\n",
    );
    const r = spawnSync(process.execPath, ['--require', preload, requireBundle()], { input: resourceList([quickstartText()]), encoding: 'utf8' });
    expect(r.status).toBe(1);
    const list = parseResourceList(r.stdout);
    expect(list.items).toEqual([]);
    expect(list.results).toEqual([
      {
        severity: 'error',
        message:
          'internal error: llsd-render failed (the detail is on stderr). Please report this with the input that caused it; set LLSD_RENDER_DEBUG=1 for ' +
            'details.',
      },
    ]);
    expect(r.stdout).not.toMatch(/ at .+:\d+:\d+/);
    expect(r.stderr).toContain('injected failure');
  });
});

/** Runs the bundle as the user `nobody` when this is root (root reads anything), after `lock` takes permissions away. */
function runAsNonRoot(args: string[], cwd: string, lock: () => void): RunResult {
  const root = process.getuid?.() === 0;
  if (root) {
    chmodSync(cwd, 0o755);
    const chown = spawnSync('chown', ['-R', '65534:65534', cwd]);
    if (chown.status !== 0) throw new Error(`chown -R 65534:65534 ${cwd} failed: ${String(chown.stderr)}`);
  }
  lock();
  const r = spawnSync(process.execPath, [requireBundle(), ...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH },
    timeout: 60_000,
    ...(root && { uid: 65534, gid: 65534 }),
  });
  if (r.error) throw r.error;
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

function shell(command: string, env: Record<string, string>): RunResult {
  const r = spawnSync('/bin/sh', ['-c', command], { cwd: '/', encoding: 'utf8', env: { PATH: process.env.PATH, ...env }, timeout: 60_000 });
  if (r.error) throw r.error;
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

describe('a document end marker (`...`) inside an object', () => {
  const secret = (end: string, after: string): string =>
    `apiVersion: v1\nkind: Secret\nmetadata:\n  name: creds\n  namespace: llama\nstringData:\n  user: admin\n${end}\n${after}\n`;

  it('followed by more of the object: an error at the marker, nothing printed, the value not quoted', () => {
    for (const after of ['  token: hunter2-secret', 'token: hunter2-secret']) {
      const root = tempDir();
      writeTree(root, { 'app/llsd.yaml': llsd('plain'), 'app/secret.yaml': secret('...', after) });
      const r = run(['build', 'app'], { cwd: root });
      expectNoCrash(r);
      expect(r.status).toBe(1);
      expect(r.stdout).toBe('');
      expect(errorLines(r)).toEqual([
        'app/secret.yaml:8: a line `...` ends the YAML document here, and the lines after it would be read as another document (an object would lose them): ' +
          'remove the `...`, or start the next object with `---`',
      ]);
      expect(r.stderr).not.toContain('hunter2');
    }
  });

  it('at the end of a document, before `---` or the end of the file: read as before', () => {
    const root = tempDir();
    writeTree(root, { 'app/llsd.yaml': `${llsd('plain')}...\n# next\n---\n${llsd('second')}...\n`, 'app/secret.yaml': secret('...', '# end') });
    const r = run(['build', 'app'], { cwd: root });
    expect(r.status, r.stderr).toBe(0);
    expect(parseStream(r.stdout).filter((o) => o.kind === 'Deployment').map((o) => o.metadata.name)).toEqual(['plain', 'second']);
  });
});

describe('a .yaml name under a PATH that is not a regular file (attacker probe: skipped silently, exit 0)', () => {
  it('a fifo and a link to /dev/zero: an error each, exit 1, nothing printed', () => {
    const root = tempDir();
    writeTree(root, { 'app/a.yaml': llsd('plain') });
    expect(spawnSync('mkfifo', [join(root, 'app/pipe.yaml')]).status).toBe(0);
    // A link inside the PATH to a fifo there (a link out of the PATH, to /dev/zero say, is refused as such).
    expect(spawnSync('mkfifo', [join(root, 'app/fifo')]).status).toBe(0);
    symlinkSync('fifo', join(root, 'app/zero.yaml'));
    const r = run(['build', 'app'], { cwd: root });
    expectNoCrash(r);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(errorLines(r)).toEqual([
      'app/pipe.yaml: is not a regular file (a device, a pipe or a socket): llsd-render reads files and directories under a PATH; give a pipe as a PATH of ' +
        'its own, or remove it',
      'app/zero.yaml: is a symbolic link to "fifo", not a regular file (a device, a pipe or a socket): llsd-render reads files and directories under a ' +
        'PATH; give a pipe as a PATH of its own, or remove it',
    ]);
  });
});

describe('stdout that cannot be written (attacker probe: a Node stack trace)', () => {
  it.each([
    ['build', 'build examples/quickstart'],
    ['KRM', '< test/golden/starter-vllm/input.yaml'],
    ['schema', 'schema --crd'],
  ])('%s to /dev/full: one line on stderr, exit 1, no stack', (_, args) => {
    const r = spawnSync('sh', ['-c', `node "${requireBundle()}" ${args} > /dev/full`], { cwd: repoRoot, encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('llsd-render: cannot write the output to stdout (ENOSPC); what was written is incomplete\n');
    expect(r.stderr).not.toMatch(/\n\s+at |internal error|Node\.js v/);
  });

  it.each([
    ['build', 'build app', 'the rest of the YAML stream'],
    ['KRM', '< list.yaml', 'the rest of the ResourceList'],
    ['convert', 'convert app', 'the rest of the output of convert'],
  ])('%s piped to `head -c 10` (attacker E1: exit 0): exit 1, and stderr says what was not delivered', (_, args, what) => {
    const root = tempDir();
    // Far more than a pipe holds (64 KiB): the reader is gone before the writer is done.
    const many = Array.from({ length: 300 }, (_, i) => llsd(`q${i}`));
    writeTree(root, { 'app/all.yaml': many.join('\n---\n'), 'list.yaml': resourceList(many) });
    const r = spawnSync('bash', ['-c', `node "${requireBundle()}" ${args} 2>stderr.txt | head -c 10 >/dev/null; echo "\${PIPESTATUS[0]}"; cat stderr.txt`], {
      cwd: root,
      encoding: 'utf8',
    });
    const [status, ...stderr] = r.stdout.split('\n');
    expect(status).toBe('1');
    expect(stderr).toContain(
      `llsd-render: stdout was closed before the output was complete (EPIPE: its reader stopped reading); ${what} was not delivered, so what was read is ` +
        'incomplete',
    );
    expect(r.stdout).not.toMatch(/\n\s+at |internal error|Node\.js v/);
  });
});
