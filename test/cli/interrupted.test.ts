// A stop signal while llsd-render reads its input (attacker round 6, issue 18). Node as PID 1 of a
// container survives SIGTERM (the kernel ignores it once node's own handler ran), and the blocking
// read of stdin failed with EINTR, which ended as "internal error … Please report this". It must
// end as the signal would: exit 128 + n, one line on stderr, nothing on stdout.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Interrupted, readUpTo, stopSignalIn, type BlockingReads } from '../../src/cli/files.js';
import { requireBundle } from './run.js';

const eintr = (): Error => Object.assign(new Error('EINTR: interrupted system call, read'), { code: 'EINTR' });

/** Reads that give `chunks` in turn, failing with EINTR where a chunk is 'EINTR', then end of input. */
function scriptedReads(chunks: readonly string[], stopSignal: BlockingReads['stopSignal']): BlockingReads & { calls: number } {
  const reads = {
    calls: 0,
    read: (_fd: number, buffer: Buffer, offset: number): number => {
      const chunk = chunks[reads.calls++];
      if (chunk === 'EINTR') throw eintr();
      if (chunk === undefined) return 0;
      return buffer.write(chunk, offset);
    },
    stopSignal,
  };
  return reads;
}

describe('readUpTo with a read interrupted by a signal (EINTR injected)', () => {
  it('SIGTERM: throws Interrupted naming it, not a read error', () => {
    const reads = scriptedReads(['apiVersion: v1\n', 'EINTR', 'kind: List\n'], () => 'SIGTERM');
    let thrown: unknown;
    try {
      readUpTo(0, 1024, 0, 'wait', reads);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Interrupted);
    expect((thrown as Interrupted).signal).toBe('SIGTERM');
    // It stopped at the interrupted read and read no further.
    expect(reads.calls).toBe(2);
  });

  it('a signal that asks for no stop (SIGUSR1): the read goes on and returns all of the input', () => {
    const reads = scriptedReads(['apiVersion: v1\n', 'EINTR', 'kind: List\n'], () => undefined);
    expect(readUpTo(0, 1024, 0, 'wait', reads)?.toString()).toBe('apiVersion: v1\nkind: List\n');
  });
});

describe('readUpTo on a regular file', () => {
  it('a read short of what was asked is the end: one read, not a second that returns 0; a pipe reads on to 0', () => {
    const file = scriptedReads(['apiVersion: v1\n', 'kind: List\n'], () => undefined);
    expect(readUpTo(0, 1024, 15, 'wait', file, true)?.toString()).toBe('apiVersion: v1\n');
    expect(file.calls).toBe(1);
    const pipe = scriptedReads(['apiVersion: v1\n', 'kind: List\n'], () => undefined);
    expect(readUpTo(0, 1024, 0, 'wait', pipe)?.toString()).toBe('apiVersion: v1\nkind: List\n');
    expect(pipe.calls).toBe(3);
  });
});

describe('stopSignalIn: which stop signal came, from SigCgt in /proc/self/status', () => {
  // Node at start catches SIGINT (bit 2) and SIGTERM (bit 15), among others (SIGUSR1, bit 10).
  const status = (mask: number): string => `Name:\tnode\nSigIgn:\t0000000000001000\nSigCgt:\t${mask.toString(16).padStart(16, '0')}\nCapInh:\t0\n`;
  const atStart = (1 << 1) | (1 << 9) | (1 << 14);

  it('SIGTERM no longer caught: SIGTERM', () => expect(stopSignalIn(status(atStart & ~(1 << 14)))).toBe('SIGTERM'));
  it('SIGINT no longer caught: SIGINT', () => expect(stopSignalIn(status(atStart & ~(1 << 1)))).toBe('SIGINT'));
  it('both still caught: no stop signal', () => expect(stopSignalIn(status(atStart))).toBeUndefined());
  it('no /proc (not Linux): SIGTERM, what stops a container', () => expect(stopSignalIn(undefined)).toBe('SIGTERM'));
});

/**
 * `unshare` makes the bundle PID 1 of a new PID namespace, as in a container: a signal from
 * outside reaches it only through node's handler, and then the kernel ignores it.
 */
function requireUnshare(): void {
  const probe = spawnSync('unshare', ['--user', '--map-root-user', '--pid', '--fork', 'true'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      `this test needs \`unshare\` (util-linux) and unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1): ` +
        `${probe.error?.message ?? probe.stderr}`,
    );
  }
}

/** The pid of the only child of `pid` (the bundle under unshare), once it waits in the read of stdin. */
async function readingChild(pid: number): Promise<number> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    let child: number | undefined;
    let wchan = '';
    try {
      child = Number(readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(' ')[0]) || undefined;
      if (child !== undefined) wchan = readFileSync(`/proc/${child}/wchan`, 'utf8');
    } catch {
      // Not started yet.
    }
    // The kernel function it sleeps in: pipe_read, anon_pipe_read, unix_stream_read_generic (a socket pair).
    if (child !== undefined && /read/.test(wchan)) return child;
  }
  throw new Error('the bundle under unshare did not start reading stdin within 15 s');
}

async function stopWhileReading(signal: NodeJS.Signals): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn('unshare', ['--user', '--map-root-user', '--pid', '--fork', process.execPath, requireBundle()], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  // Half a ResourceList, and stdin kept open: the read waits for the rest.
  child.stdin.write('apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n');
  try {
    process.kill(await readingChild(child.pid as number), signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    const status = await exited;
    clearTimeout(timer);
    return { status, stdout, stderr };
  } finally {
    child.stdin.end();
  }
}

describe('a stop signal while KRM mode reads stdin, node as PID 1 (as in a container)', () => {
  it('SIGTERM: exit 143, one line on stderr, nothing on stdout, no internal error', async () => {
    requireUnshare();
    const r = await stopWhileReading('SIGTERM');
    expect(r.stderr).toBe('llsd-render: stopped by SIGTERM while reading the input; nothing was written\n');
    expect(r.stdout).toBe('');
    expect(r.status).toBe(143);
  }, 40_000);

  it('SIGINT: exit 130', async () => {
    requireUnshare();
    const r = await stopWhileReading('SIGINT');
    expect(r.stderr).toBe('llsd-render: stopped by SIGINT while reading the input; nothing was written\n');
    expect(r.stdout).toBe('');
    expect(r.status).toBe(130);
  }, 40_000);
});

describe('SIGUSR1 (attacker round 7: it started Node\'s inspector on 127.0.0.1:9229)', () => {
  it('a run sent SIGUSR1 goes on and ends as usual, with no inspector started', async () => {
    // KRM mode waiting on stdin: the signal arrives while the process is alive, then the input ends it.
    const child = spawn(process.execPath, [requireBundle()], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    child.kill('SIGUSR1');
    await new Promise((resolve) => setTimeout(resolve, 300));
    child.stdin.end('apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\n');
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).not.toContain('Debugger listening');
    expect(code).toBe(0);
    expect(stdout).toContain('kind: ResourceList');
  });
});
