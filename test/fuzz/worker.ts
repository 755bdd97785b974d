// A fuzz worker (bundled by test/fuzz/harness.ts, started with child_process.fork): makes each
// case it is sent from (seed, index), runs the CLI's `main()` in-process on it in KRM mode and
// build mode, twice each, checks the invariants, and sends back only the failures. The parent
// times each run ('start' … 'done') and kills a worker stuck longer than 10 s.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../src/cli/main.js';
import { checkRun, checkSame, secretMarkers, type Failure, type Mode, type RunOutput } from './invariants.js';
import { loadCorpus, makeCase } from './mutate.js';

/** `skipOps`: mutations that already hung; a case using one is not run (the test fails already). */
export type ToWorker = { type: 'case'; seed: number; index: number; skipOps: string[] };
export type FromWorker =
  | { type: 'ready' }
  | { type: 'start'; index: number; mode: Mode; rep: number }
  | { type: 'done'; index: number; mode: Mode; rep: number; ms: number; maxRssBytes: number }
  | { type: 'case'; index: number; failures: Failure[]; stacks: string[]; opNames: string[]; skipped?: boolean };

const root = process.env.LLSD_FUZZ_ROOT ?? process.cwd();
const work = process.env.LLSD_FUZZ_WORKDIR ?? process.cwd();
const corpus = loadCorpus(root);
const send = (message: FromWorker): void => void process.send?.(message);

// No registry: a render that would look up an image fails as it would offline, quickly and the
// same way every time. HOME and the caches point into the worker's own directory.
globalThis.fetch = (async () => {
  throw new TypeError('fetch failed');
});
const env = {
  PATH: process.env.PATH ?? '',
  HOME: work,
  XDG_CACHE_HOME: join(work, 'cache'),
  XDG_CONFIG_HOME: join(work, 'config'),
  XDG_RUNTIME_DIR: join(work, 'run'),
};
Object.assign(process.env, env);

/** One run of `main`, as src/index.ts runs it: a thrown error is an internal error on stderr, exit 1. */
async function runMain(argv: string[], stdin: Buffer, stacks: string[]): Promise<RunOutput> {
  let stdout = '';
  let stderr = '';
  const start = performance.now();
  let code: number | null;
  try {
    code = await main({ argv, readStdin: async () => stdin.toString('utf8'), stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), env });
  } catch (error) {
    stacks.push(String((error as Error)?.stack ?? error));
    stderr += `llsd-render: internal error: ${String((error as Error)?.message ?? error)}\n`;
    code = 1;
  }
  return { code, stdout, stderr, ms: performance.now() - start };
}

async function runCase(seed: number, index: number, skipOps: readonly string[]): Promise<void> {
  const c = makeCase(corpus, seed, index);
  if (c.opNames.some((op) => skipOps.includes(op))) return send({ type: 'case', index, failures: [], stacks: [], opNames: c.opNames, skipped: true });
  const failures: Failure[] = [];
  const stacks: string[] = [];
  const dir = join(work, 'case');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'input.yaml'), c.build);
  // Which markers are still secret, from the stream (one document at a time); from the ResourceList too when it is small enough to parse quickly.
  const buildSecrets = secretMarkers(c.build.toString('utf8'), c.secrets);
  const krmSecrets = c.krm.length < 2 * 1024 * 1024 ? secretMarkers(c.krm.toString('utf8'), c.secrets) : buildSecrets;
  for (const mode of ['krm', 'build'] as const) {
    const input = mode === 'krm' ? c.krm : c.build;
    const secrets = mode === 'krm' ? krmSecrets : buildSecrets;
    const outputs: RunOutput[] = [];
    for (let rep = 0; rep < 2; rep++) {
      send({ type: 'start', index, mode, rep });
      process.chdir(dir);
      const out = mode === 'krm' ? await runMain([], input, stacks) : await runMain(['build', '--offline', 'input.yaml'], Buffer.alloc(0), stacks);
      send({ type: 'done', index, mode, rep, ms: out.ms, maxRssBytes: process.resourceUsage().maxRSS * 1024 });
      outputs.push(out);
    }
    const [first, second] = outputs as [RunOutput, RunOutput];
    failures.push(...checkRun(mode, first, secrets), ...checkSame(mode, first, second));
  }
  send({ type: 'case', index, failures, stacks: [...new Set(stacks)], opNames: c.opNames });
}

// One case at a time: the parent sends the next one when this one is done.
process.on('message', (message: ToWorker) => {
  if (message.type === 'case') {
    runCase(message.seed, message.index, message.skipOps).catch((error: unknown) => {
      send({
        type: 'case',
        index: message.index,
        failures: [{ invariant: 'harness', mode: 'krm', detail: String((error as Error)?.stack ?? error) }],
        stacks: [],
        opNames: [],
      });
    });
  }
});
send({ type: 'ready' });
