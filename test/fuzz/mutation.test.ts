// Mutation fuzz test over the example inputs (issue 15 "Done when"). Each case is an example
// (examples/**, test/golden/*/input.yaml, test/cli/fixtures/**) with seeded YAML-aware and
// byte-level mutations and marker secrets (test/fuzz/mutate.ts), run in KRM mode and build mode,
// twice each, against the invariants of test/fuzz/invariants.ts: exit code 0/1/2, no stack trace
// or internal error, KRM output a ResourceList, build exit 1 ⇒ empty stdout, no secret in the
// output, the same output twice, at most 10 s and 1 GB.
//
//   LLSD_FUZZ_SEED=n      the seed (default below); printed with every failure
//   LLSD_FUZZ_RUNS=n      how many cases (default 2,000)
//   LLSD_FUZZ_CASE=i,j    only these cases (to reproduce one)
//   LLSD_FUZZ_BUDGET_S=n  stop starting cases after n seconds (default 200)
//
// Cases run in-process (the CLI's `main()`, bundled with the worker) in a few long-lived worker
// processes; a sample also runs through the real `node dist/llsd-render.js`.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundlePath, repoRoot, requireBundle } from '../cli/run.js';
import { bundleWorker, Pool, type CaseReport } from './harness.js';
import { checkRun, checkSame, maxMs, maxRssBytes, secretMarkers, type Failure, type Mode, type RunOutput } from './invariants.js';
import { loadCorpus, makeCase, type Case } from './mutate.js';

const seed = Number(process.env.LLSD_FUZZ_SEED ?? 15_2025) >>> 0;
const runs = Number(process.env.LLSD_FUZZ_RUNS ?? 2_000);
const only = process.env.LLSD_FUZZ_CASE?.split(',').map(Number);
const budgetMs = Number(process.env.LLSD_FUZZ_BUDGET_S ?? 200) * 1000;
/** Cases that also run through `node dist/llsd-render.js` (each mode twice: about 0.3 s a run). */
const realSample = Number(process.env.LLSD_FUZZ_REAL ?? 12);
const workers = Math.max(2, Math.min(4, availableParallelism()));
/**
 * After this many cases with one mutation were killed (hung, or past 1 GB) or died, and at least
 * a quarter of those that used it, later cases with it are not started: the test fails already,
 * and each would cost 10 s.
 */
const hangsPerOp = 2;

const reproDir = join(tmpdir(), `llsd-fuzz-${seed}`);
const corpus = loadCorpus(repoRoot);
let work: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'llsd-fuzz-work-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Found extends Failure {
  index: number;
}

/** Writes the case's two inputs where a user can run them again, and says how. */
function reproduce(c: Case): string {
  const dir = join(reproDir, `case-${c.index}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'resource-list.yaml'), c.krm);
  writeFileSync(join(dir, 'input.yaml'), c.build);
  return [
    `    case ${c.index} from ${c.seedSource}: ${c.ops.join('; ').slice(0, 300)}`,
    `    KRM:   node ${bundlePath} < ${join(dir, 'resource-list.yaml')}`,
    `    build: cd ${dir} && node ${bundlePath} build --offline input.yaml`,
    `    again: LLSD_FUZZ_SEED=${seed} LLSD_FUZZ_CASE=${c.index} npx vitest run test/fuzz/mutation.test.ts`,
  ].join('\n');
}

/** One line per distinct failure (invariant, mode and message shape), with how to reproduce its first case. */
function report(found: readonly Found[], stacks: Map<number, string[]>): string[] {
  const groups = new Map<string, Found[]>();
  for (const f of found) {
    const key = `${f.invariant} [${f.mode}] ${f.detail.replace(/\d+/g, 'N').replace(/sNcrNt-[a-zN]+/g, 'SECRET').slice(0, 90)}`;
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  return [...groups].map(([key, list]) => {
    const first = list[0]!;
    const stack = stacks.get(first.index)?.[0]?.split('\n').slice(0, 4).join('\n      ');
    return `${key} (${list.length}×, seed ${seed})\n    ${first.detail.slice(0, 300)}\n${reproduce(makeCase(corpus, seed, first.index))}` +
      `${stack ? `\n    stack: ${stack}` : ''}`;
  });
}

describe(`mutation fuzz (seed ${seed})`, () => {
  it(`keeps every promise on ${only ? only.join(',') : runs} mutated inputs, KRM mode and build mode, in-process`, async () => {
    const dir = join(work, 'workers');
    mkdirSync(dir, { recursive: true });
    const pool = new Pool(await bundleWorker(repoRoot, dir), repoRoot, dir, workers);
    const found: Found[] = [];
    const stacks = new Map<number, string[]>();
    const hangs = new Map<string, number>();
    const uses = new Map<string, number>();
    const indices = only ?? Array.from({ length: runs }, (_, i) => i);
    const started = Date.now();
    let ran = 0;
    let skipped = 0;
    let next = 0;
    const lane = async (): Promise<void> => {
      while (next < indices.length && Date.now() - started < budgetMs) {
        const index = indices[next++]!;
        const skipOps = [...hangs].filter(([op, n]) => n >= hangsPerOp && n * 4 >= (uses.get(op) ?? 0)).map(([op]) => op);
        const result: CaseReport = await pool.run(seed, index, skipOps);
        if (result.skipped) {
          skipped++;
          continue;
        }
        ran++;
        for (const op of new Set(result.opNames ?? [])) uses.set(op, (uses.get(op) ?? 0) + 1);
        found.push(...result.failures.map((f) => ({ ...f, index })));
        if (result.stacks.length > 0) stacks.set(index, result.stacks);
        if (result.failures.some((f) => f.detail.endsWith('(killed)') || f.detail.startsWith('the process died'))) {
          // A killed worker did not say what the case did: make it here (rarely).
          const ops = new Set(result.opNames ?? makeCase(corpus, seed, index).opNames);
          for (const op of ops) hangs.set(op, (hangs.get(op) ?? 0) + 1);
          if (!result.opNames) for (const op of ops) uses.set(op, (uses.get(op) ?? 0) + 1);
        }
      }
    };
    try {
      await Promise.all(Array.from({ length: workers }, lane));
    } finally {
      pool.close();
    }
    const lines = report(found, stacks);
    if (skipped > 0) lines.push(`${skipped} cases not run: they use a mutation whose cases were killed ${hangsPerOp} times or more`);
    console.error(`fuzz seed ${seed}: ${ran} cases run in ${Math.round((Date.now() - started) / 1000)} s, ${found.length} failures\n${lines.join('\n')}`);
    expect(lines, `fuzz seed ${seed}: inputs written to ${reproDir}`).toEqual([]);
    // Every case must have run within the budget (a slow render is a finding too).
    expect(ran + skipped, `cases run in ${budgetMs / 1000} s with seed ${seed}`).toBe(indices.length);
  }, 330_000);

  it('keeps the same promises through the real process, with its exit code and peak memory', async () => {
    const bundle = requireBundle();
    const sample = only ?? Array.from({ length: realSample }, (_, i) => Math.floor((i * runs) / realSample) + 7).filter((i) => i < runs);
    const found: Found[] = [];
    const jobs = sample.flatMap((index) => (['krm', 'build'] as const).map((mode) => ({ index, mode })));
    let next = 0;
    const lane = async (): Promise<void> => {
      while (next < jobs.length) {
        const { index, mode } = jobs[next++]!;
        const c = makeCase(corpus, seed, index);
        const dir = join(work, `real-${index}-${mode}`);
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, 'input.yaml'), c.build);
        const input = mode === 'krm' ? c.krm : c.build;
        const outputs: RunOutput[] = [];
        for (let rep = 0; rep < 2; rep++) {
          const out = await runReal(bundle, mode, dir, mode === 'krm' ? c.krm : Buffer.alloc(0));
          outputs.push(out);
          if (out.rssBytes !== undefined && out.rssBytes > maxRssBytes)
            found.push({ index, invariant: '≤ 1 GB', mode, detail: `peak resident memory ${Math.round(out.rssBytes / 2 ** 20)} MB` });
          if (out.killed) found.push({ index, invariant: '≤ 10 s', mode, detail: `did not finish in ${maxMs / 1000} s (killed)` });
        }
        const [a, b] = outputs as [RunOutput, RunOutput];
        found.push(...[...checkRun(mode, a, secretMarkers(input.toString('utf8'), c.secrets)), ...checkSame(mode, a, b)].map((f) => ({ ...f, index })));
      }
    };
    await Promise.all(Array.from({ length: workers }, lane));
    const lines = report(found, new Map());
    if (lines.length > 0) console.error(`fuzz seed ${seed}, real process: ${sample.length} cases\n${lines.join('\n')}`);
    expect(lines, `fuzz seed ${seed}, real process: inputs written to ${reproDir}`).toEqual([]);
  }, 240_000);
});

/** Runs `node dist/llsd-render.js` under /usr/bin/time (peak memory), killed after 10 s. */
function runReal(bundle: string, mode: Mode, cwd: string, stdin: Buffer): Promise<RunOutput & { rssBytes?: number; killed: boolean }> {
  const rssFile = join(cwd, 'time.txt');
  const noRegistry = 'data:text/javascript,globalThis.fetch=async()=>{throw new TypeError("fetch failed")}';
  const args = ['-f', '%M', '-o', rssFile, process.execPath, `--import=${noRegistry}`, bundle, ...(mode === 'krm' ? [] : ['build', '--offline', 'input.yaml'])];
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const env = { PATH: process.env.PATH ?? '', HOME: cwd, XDG_CACHE_HOME: join(cwd, 'cache'), LLSD_RENDER_CODE_CACHE: 'off' };
    // Its own process group, so the watchdog kills node with /usr/bin/time.
    const child = spawn('/usr/bin/time', args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    }, maxMs);
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.stdin.on('error', () => {});
    child.stdin.end(stdin);
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(
        error.code === 'ENOENT' ? new Error('/usr/bin/time is missing: install it (Debian: `apt-get install time`) to measure peak memory per input') : error,
      );
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      let rssBytes: number | undefined;
      try {
        const kb = /(\d+)\s*$/.exec(readFileSync(rssFile, 'utf8'))?.[1];
        rssBytes = kb === undefined ? undefined : Number(kb) * 1024;
      } catch {
        rssBytes = undefined;
      }
      resolve({
        code: killed ? null : code,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        ms: performance.now() - started,
        rssBytes,
        killed,
      });
    });
  });
}
