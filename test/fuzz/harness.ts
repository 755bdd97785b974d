// The fuzz test's machinery: bundles test/fuzz/worker.ts (with src/cli/main.ts) as the build
// bundles the CLI, and runs cases in a few long-lived worker processes with a watchdog: a run
// that takes longer than 10 s, or a worker whose resident memory passes 1 GB, is killed and
// reported with its case, and a fresh worker takes its place.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
// @ts-expect-error: a plain .mjs script without type declarations
import { configsModule, configsModuleId } from '../../scripts/embed-yaml.mjs';
import { maxMs, maxRssBytes, type Failure, type Mode } from './invariants.js';
import type { FromWorker, ToWorker } from './worker.js';

/** Bundles the worker into `dir`; returns the file to fork. */
export async function bundleWorker(root: string, dir: string): Promise<string> {
  const outfile = join(dir, 'fuzz-worker.cjs');
  await build({
    absWorkingDir: root,
    entryPoints: [join(root, 'test/fuzz/worker.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: 'inline',
    logLevel: 'warning',
    define: { __LLSD_RENDER_VERSION__: JSON.stringify('0.0.0-fuzz') },
    plugins: [
      {
        // configs/ as the build embeds it (scripts/build.mjs).
        name: 'embed-configs',
        setup(b) {
          b.onResolve({ filter: new RegExp(`^${configsModuleId}$`) }, () => ({ path: configsModuleId, namespace: 'llsd-configs' }));
          b.onLoad({ filter: /.*/, namespace: 'llsd-configs' }, () => ({ contents: configsModule(join(root, 'configs')) as string, loader: 'js' }));
        },
      },
    ],
  });
  return outfile;
}

export interface CaseReport {
  index: number;
  failures: Failure[];
  stacks: string[];
  /** The case's mutations; unknown when its worker was killed. */
  opNames?: string[];
  skipped?: boolean;
}

interface Slot {
  child: ChildProcess;
  dir: string;
  busy?: { index: number; resolve: (r: CaseReport) => void; failures: Failure[]; mode: Mode; timer?: NodeJS.Timeout; sampler?: NodeJS.Timeout };
}

/** Resident memory of a process now, from /proc (Linux); undefined elsewhere. */
function rssOf(pid: number | undefined): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

export class Pool {
  private readonly slots: Slot[] = [];
  private spawned = 0;

  constructor(
    private readonly workerFile: string,
    private readonly root: string,
    private readonly dir: string,
    size: number,
  ) {
    for (let i = 0; i < size; i++) this.slots.push(this.spawn());
  }

  private spawn(): Slot {
    const dir = join(this.dir, `w${this.spawned++}`);
    mkdirSync(dir, { recursive: true });
    // A heap limit a little over the memory bound: an input that needs more dies of it, and is reported.
    const child = fork(this.workerFile, [], {
      execArgv: ['--max-old-space-size=1200', '--stack-size=984', '--enable-source-maps'],
      env: { ...process.env, LLSD_FUZZ_ROOT: this.root, LLSD_FUZZ_WORKDIR: dir, LLSD_RENDER_DEBUG: '' },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    child.stderr?.resume();
    const slot: Slot = { child, dir };
    child.on('message', (m: FromWorker) => this.onMessage(slot, m));
    child.on('exit', (code, signal) => this.onExit(slot, code, signal));
    return slot;
  }

  private onMessage(slot: Slot, m: FromWorker): void {
    const busy = slot.busy;
    if (!busy || m.type === 'ready') return;
    if (m.type === 'start') {
      busy.mode = m.mode;
      busy.timer = setTimeout(
        () => this.kill(slot, { invariant: '≤ 10 s', mode: m.mode, detail: `run ${m.rep + 1} did not finish in ${maxMs / 1000} s (killed)` }),
        maxMs + 500,
      );
      busy.sampler = setInterval(() => {
        const rss = rssOf(slot.child.pid);
        if (rss !== undefined && rss > maxRssBytes)
          this.kill(slot, { invariant: '≤ 1 GB', mode: m.mode, detail: `resident memory ${Math.round(rss / 2 ** 20)} MB (killed)` });
      }, 200);
    } else if (m.type === 'done') {
      clearTimeout(busy.timer);
      clearInterval(busy.sampler);
      // maxRSS only grows: past the bound, the worker is replaced after this case.
      if (m.maxRssBytes > maxRssBytes)
        busy.failures.push({ invariant: '≤ 1 GB', mode: m.mode, detail: `peak resident memory ${Math.round(m.maxRssBytes / 2 ** 20)} MB` });
    } else if (m.type === 'case') {
      const failures = [...busy.failures, ...m.failures];
      slot.busy = undefined;
      if (failures.some((f) => f.invariant === '≤ 1 GB')) this.replace(slot);
      busy.resolve({ index: busy.index, failures, stacks: m.stacks, opNames: m.opNames, ...(m.skipped ? { skipped: true } : {}) });
    }
  }

  private onExit(slot: Slot, code: number | null, signal: NodeJS.Signals | null): void {
    const busy = slot.busy;
    if (!busy) return;
    // A worker that died by itself: the input crashed the process (out of memory, stack, abort).
    this.finish(slot, { invariant: 'no crash', mode: busy.mode, detail: `the process died (exit code ${code}, signal ${signal})` });
  }

  private kill(slot: Slot, failure: Failure): void {
    if (!slot.busy) return;
    this.finish(slot, failure);
  }

  /** Ends the slot's case with `failure` and puts a fresh worker in its place. */
  private finish(slot: Slot, failure: Failure): void {
    const busy = slot.busy;
    if (!busy) return;
    clearTimeout(busy.timer);
    clearInterval(busy.sampler);
    slot.busy = undefined;
    this.replace(slot);
    busy.resolve({ index: busy.index, failures: [...busy.failures, failure], stacks: [] });
  }

  private replace(slot: Slot): void {
    slot.child.removeAllListeners('exit');
    slot.child.kill('SIGKILL');
    const fresh = this.spawn();
    slot.child = fresh.child;
    slot.dir = fresh.dir;
    fresh.child.removeAllListeners('message').removeAllListeners('exit');
    fresh.child.on('message', (m: FromWorker) => this.onMessage(slot, m));
    fresh.child.on('exit', (code, signal) => this.onExit(slot, code, signal));
  }

  /** Runs case `index` on a free worker (the caller keeps at most `size` cases in flight). */
  run(seed: number, index: number, skipOps: string[]): Promise<CaseReport> {
    const slot = this.slots.find((s) => !s.busy);
    if (!slot) throw new Error('no free worker: keep at most as many cases in flight as workers');
    return new Promise((resolve) => {
      slot.busy = { index, resolve, failures: [], mode: 'krm' };
      slot.child.send({ type: 'case', seed, index, skipOps } satisfies ToWorker);
    });
  }

  close(): void {
    for (const slot of this.slots) {
      slot.child.removeAllListeners('exit');
      slot.child.kill('SIGKILL');
    }
  }
}
