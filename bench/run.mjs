// llsd-render benchmark (issue 8): whole processes, repeated, medians. See BENCHMARKS.md.
//   node bench/run.mjs [--quick] [--krm-only] [--startup-only] [--no-fail]      (BENCH_QUICK=1 is the same as --quick)
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, tmpdir, totalmem } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configMapsList, configMapsText, KINDS, listConfigMapList, listConfigMapText, resourceList, resourceListOf, sequenceList, sequenceText, writeInputs } from './gen.mjs';

const args = process.argv.slice(2);
const QUICK = args.includes('--quick') || process.env.BENCH_QUICK === '1';
const NO_FAIL = args.includes('--no-fail');
// --krm-only: the start-up rows and KRM mode over many LLSDs, no `build` sizes (a shorter run).
const KRM_ONLY = args.includes('--krm-only');
// --startup-only: the start-up rows alone (about 20 s), for the start-up target.
const STARTUP_ONLY = args.includes('--startup-only');
const SIZES = KRM_ONLY || STARTUP_ONLY ? [] : QUICK ? [10, 100] : [10, 100, 1000, 10000];
// KRM mode over many LLSDs: one ResourceList on stdin, as kpt sends a package (issue 15).
const KRM_SIZES = STARTUP_ONLY ? [] : QUICK ? [100] : [1000, 10000];
// The start-up target (issue 26): 1 LLSD in KRM mode within this many times `node -e 0`, medians of interleaved runs.
const STARTUP_FACTOR = 2.3;
const KRM_TIMEOUT_MS = 600_000; // a KRM run that passes this is stopped and its target fails
const RUNS = { 1: 25, 10: 5, 100: 5, 1000: 3, 10000: 2 };
const BUDGET_MS = 30_000; // stop repeating a measurement once its runs took this long (at least 1 run)
const KUSTOMIZE_TIMEOUT_MS = 30_000; // kustomize is quadratic in the number of resources: stop it here
// Cost per input byte (issue 29 R2): inputs of many tiny nodes, in `build` and KRM mode, each held
// to this peak RSS per byte of input, start-up excluded (the peak of 1 LLSD in KRM mode is taken
// off, as the per-LLSD columns do). Full size in quick mode too: smaller, start-up dominates.
const BYTES_TARGET = 100;
const SHAPES = STARTUP_ONLY
  ? []
  : [
      { name: '1,000,000 lines of `- a`', file: sequenceText, list: sequenceList, n: 1_000_000 },
      { name: '100,000 one-key ConfigMaps', file: configMapsText, list: configMapsList, n: 100_000 },
      { name: 'a ConfigMap listing 1,000,000 `a`', file: listConfigMapText, list: listConfigMapList, n: 1_000_000 },
    ];

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist/llsd-render.js');
const PRELOAD = join(ROOT, 'bench/max-rss.cjs');
const NODE = process.execPath;
const tmp = mkdtempSync(join(tmpdir(), 'llsd-bench-'));
const load = loadavg()[0].toFixed(2); // other work on the machine makes the numbers noisier
const log = (s) => process.stderr.write(s + '\n');

if (!existsSync(DIST)) {
  log('dist/llsd-render.js is missing: npm run build');
  if (spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' }).status !== 0) process.exit(2);
}
// Run a copy (the bundle needs no node_modules), so a rebuild during the run changes nothing.
const BUNDLE = join(tmp, 'dist/llsd-render.js');
mkdirSync(join(tmp, 'dist'));
copyFileSync(DIST, BUNDLE);
writeFileSync(join(tmp, 'dist/package.json'), '{"type": "commonjs"}\n');
// V8's code cache (src/loader.cjs) in a directory of this run's own: the checks below, which render
// before anything is timed, write it, as a user's first run would.
const CODE_CACHE = join(tmp, 'code-cache');
const built = statSync(DIST).mtime.toISOString().slice(0, 16).replace('T', ' ');
const sha = createHash('sha256').update(readFileSync(BUNDLE)).digest('hex').slice(0, 12);

/** Runs one process, stdout and stderr to files; returns its wall time and (with `rss`) peak RSS; throws if it fails. */
function run(cmd, argv, { input, rss = false, timeout, codeCache = CODE_CACHE, exitCodes = [0] } = {}) {
  const rssFile = join(tmp, 'rss');
  rmSync(rssFile, { force: true });
  const out = openSync(join(tmp, 'stdout'), 'w');
  const err = openSync(join(tmp, 'stderr'), 'w');
  const env = { ...process.env, LLSD_RENDER_CODE_CACHE: codeCache, ...(rss && { BENCH_MAX_RSS_FILE: rssFile }) };
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, argv, { input, stdio: [input === undefined ? 'ignore' : 'pipe', out, err], env, timeout, killSignal: 'SIGKILL' });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  closeSync(out);
  closeSync(err);
  if (r.error?.code === 'ETIMEDOUT') return { ms, timedOut: true };
  const stderr = readFileSync(join(tmp, 'stderr'), 'utf8');
  if (r.error || !exitCodes.includes(r.status)) throw new Error(`${cmd} ${argv.join(' ')} failed (exit ${r.status ?? r.signal ?? r.error}):\n${stderr.slice(0, 4000)}`);
  return { ms, rss: rss ? Number(readFileSync(rssFile, 'utf8')) : undefined };
}

/** Repeats a run `runs` times (fewer once BUDGET_MS is spent); returns median/min/max time and max peak RSS. */
function measure(label, runs, fn) {
  const results = [];
  let spent = 0;
  while (results.length < runs && (results.length === 0 || spent < BUDGET_MS)) {
    const r = fn();
    if (r.timedOut) {
      log(`  ${label}: stopped after ${fmtMs(r.ms)}`);
      return { runs: 1, median: r.ms, min: r.ms, max: r.ms, timedOut: true };
    }
    results.push(r);
    spent += r.ms;
  }
  return summarise(label, results);
}

/**
 * Runs of about 0.1 s each, taken in turns (one of each, `rounds` times), so that a busy moment of
 * the machine falls on all of them alike and their ratios stay fair.
 */
function measureInTurns(rounds, entries) {
  const results = entries.map(() => []);
  for (let round = 0; round < rounds; round++) entries.forEach(([, fn], i) => results[i].push(fn()));
  return entries.map(([label], i) => summarise(label, results[i]));
}

function summarise(label, results) {
  const ms = results.map((r) => r.ms).sort((a, b) => a - b);
  const rss = results.map((r) => r.rss).filter((x) => x !== undefined);
  const median = ms.length % 2 ? ms[(ms.length - 1) / 2] : (ms[ms.length / 2 - 1] + ms[ms.length / 2]) / 2;
  const m = { runs: ms.length, median, min: ms[0], max: ms.at(-1), rss: rss.length ? Math.max(...rss) : undefined };
  log(`  ${label}: median ${fmtMs(m.median)} (${m.runs} runs, ${fmtMs(m.min)}–${fmtMs(m.max)})${m.rss ? `, peak RSS ${fmtMB(m.rss)}` : ''}`);
  return m;
}

const fmtMs = (ms) => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(ms < 10 ? 1 : 0)} ms`);
const fmtMB = (b) => `${(b / 1e6).toFixed(0)} MB`;
const fmtX = (x) => (Number.isFinite(x) ? `${x.toFixed(2)}×` : '–');
const render = (argv, opts) => run(NODE, ['--require', PRELOAD, BUNDLE, ...argv], { rss: true, ...opts });
const hasKubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' });
const kubectlVersion = hasKubectl.status === 0 ? hasKubectl.stdout.trim().split('\n').join(', ') : undefined;

// 1. Inputs, and a check that every kind of LLSD renders (in build and in KRM mode) before timing.
log(`inputs in ${tmp}`);
const input = (n) => join(tmp, `in-${n}`);
for (const n of [1, KINDS.length, ...SIZES]) writeInputs(input(n), n);
const krmInputFile = (n) => join(tmp, `krm-${n}.yaml`);
for (const n of [KINDS.length, ...KRM_SIZES]) writeFileSync(krmInputFile(n), resourceListOf(n));
try {
  render(['build', input(KINDS.length)]);
  render([], { input: resourceList(0) });
  render([], { input: readFileSync(krmInputFile(KINDS.length), 'utf8') });
} catch (e) {
  log(`the benchmark inputs do not render (${KINDS.join(', ')}):\n${e.message}`);
  process.exit(2);
}

// 2. Measurements (the checks above and one untimed `node -e 0` warm the file cache). For the
// kustomize comparison, `build -o` writes the same output as plain files, listed in a kustomization.yaml.
const kustomizeDir = (n) => {
  const dir = join(tmp, `out-${n}`);
  render(['build', '-o', dir, input(n)]);
  const files = [];
  // Only the YAML files: `-o` also keeps its record of what it wrote (`.llsd-render-output`).
  const walk = (d) =>
    readdirSync(d)
      .sort()
      .forEach((f) => (statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : f.endsWith('.yaml') && files.push(relative(dir, join(d, f)))));
  walk(dir);
  const resources = files.map((f) => `- ${f}\n`).join('');
  writeFileSync(join(dir, 'kustomization.yaml'), `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n${resources}`);
  return dir;
};
let kustomizeTooSlow; // the size at which kubectl kustomize hit the time limit; larger sizes are not run
const kustomize = (n, runs) => {
  if (!kubectlVersion || STARTUP_ONLY) return undefined;
  if (kustomizeTooSlow) return { skipped: true };
  const dir = kustomizeDir(n);
  const m = measure(`kubectl kustomize, ${n} LLSD(s)`, runs, () => run('kubectl', ['kustomize', dir], { timeout: KUSTOMIZE_TIMEOUT_MS }));
  if (m.timedOut) kustomizeTooSlow = n;
  return m;
};

log('measuring');
run(NODE, ['-e', '0']);
const krmInput = resourceList(0);
const [floor, floorPreload, krm, krmCold, buildOne] = measureInTurns(RUNS[1], [
  ['node -e 0', () => run(NODE, ['-e', '0'])],
  ['node --require max-rss.cjs -e 0', () => run(NODE, ['--require', PRELOAD, '-e', '0'], { rss: true })],
  ['1 LLSD, KRM', () => render([], { input: krmInput })],
  ['1 LLSD, KRM, no code cache', () => render([], { input: krmInput, codeCache: 'off' })],
  ['build, 1 LLSD(s)', () => render(['build', input(1)])],
]);
const rows = [{ n: 1, label: '1 LLSD, `build`', ...buildOne, k: kustomize(1, RUNS[1]) }];
for (const n of SIZES) {
  const b = measure(`build, ${n} LLSD(s)`, RUNS[n], () => render(['build', input(n)]));
  rows.push({ n, label: `${n.toLocaleString('en-US')} LLSD${n > 1 ? 's' : ''}, \`build\``, ...b, k: kustomize(n, RUNS[n]) });
}
const one = rows[0];
rows.forEach((r) => {
  r.perLlsd = r.n > 1 ? (r.median - one.median) / (r.n - 1) : undefined;
  r.rssPerLlsd = r.n > 1 ? (r.rss - one.rss) / (r.n - 1) : undefined;
});
// Per LLSD of a KRM row: against the 1-LLSD KRM row (a stopped run has no peak RSS).
const krmRows = KRM_SIZES.map((n) => {
  const list = readFileSync(krmInputFile(n), 'utf8');
  const m = measure(`KRM, ${n} LLSDs`, RUNS[n], () => render([], { input: list, timeout: KRM_TIMEOUT_MS }));
  const stopped = m.timedOut ? `, stopped at ${fmtMs(KRM_TIMEOUT_MS)}` : '';
  const label = `${n.toLocaleString('en-US')} LLSDs, KRM (ResourceList on stdin, ${(list.length / 1e6).toFixed(1)} MB)${stopped}`;
  return { n, label, ...m, perLlsd: (m.median - krm.median) / (n - 1), rssPerLlsd: m.rss === undefined ? undefined : (m.rss - krm.rss) / (n - 1) };
});

// Shapes: one run each (they take seconds); exit 1 is expected where the input holds no object or only refused items.
const shapeRows = SHAPES.flatMap((shape) => {
  const file = join(tmp, 'shape.yaml');
  const text = shape.file(shape.n);
  writeFileSync(file, text);
  const list = shape.list(shape.n);
  const rowOf = (mode, bytes, m) => ({ label: `${shape.name}, ${mode} (${(bytes / 1e6).toFixed(1)} MB)`, bytes, ...m, perByte: (m.rss - krm.rss) / bytes });
  const rows = [
    rowOf('`build`', Buffer.byteLength(text), measure(`${shape.name}, build`, 1, () => render(['build', '--allow-empty', file], { exitCodes: [0, 1] }))),
    rowOf('KRM', Buffer.byteLength(list), measure(`${shape.name}, KRM`, 1, () => render([], { input: list, exitCodes: [0, 1], timeout: KRM_TIMEOUT_MS }))),
  ];
  rmSync(file);
  return rows;
});

// 3. Targets.
const at = (n) => rows.find((r) => r.n === n);
const krmAt = krmRows.find((r) => r.n === 10000);
const targets = [
  [
    `1 LLSD in KRM mode within ${STARTUP_FACTOR}× the floor (medians of ${floor.runs} interleaved runs)`,
    `${fmtMs(krm.median)} = ${fmtX(krm.median / floor.median)} ${fmtMs(floor.median)}`,
    krm.median <= STARTUP_FACTOR * floor.median,
  ],
  ['1,000 LLSDs under 2 s', at(1000) && fmtMs(at(1000).median), at(1000) && at(1000).median < 2000],
  [
    'linear: time per LLSD at 10,000 ≤ 1.5× that at 1,000',
    at(10000) && `${fmtMs(at(10000).perLlsd)} vs ${fmtMs(at(1000).perLlsd)} (${fmtX(at(10000).perLlsd / at(1000).perLlsd)})`,
    at(10000) && at(10000).perLlsd <= 1.5 * at(1000).perLlsd,
  ],
  ['peak RSS at 10,000 under 300 MB', at(10000) && fmtMB(at(10000).rss), at(10000) && at(10000).rss < 300e6],
  [
    'KRM mode: peak RSS at 10,000 under 600 MB',
    krmAt && (krmAt.timedOut ? `not finished in ${fmtMs(KRM_TIMEOUT_MS)}` : fmtMB(krmAt.rss)),
    krmAt && !krmAt.timedOut && krmAt.rss < 600e6,
  ],
  ...shapeRows.map((r) => [
    `${r.label}: peak RSS above start-up under ${BYTES_TARGET} bytes per input byte`,
    r.timedOut
      ? `not finished in ${fmtMs(KRM_TIMEOUT_MS)}`
      : `${fmtMB(r.rss)} − ${fmtMB(krm.rss)} = ${r.perByte.toFixed(0)} bytes per byte (${(r.rss / r.bytes).toFixed(0)} with start-up), in ${fmtMs(r.median)}`,
    !r.timedOut && r.perByte < BYTES_TARGET,
  ]),
].map(([name, value, ok]) => ({
  name,
  value: value ?? `not measured (${STARTUP_ONLY ? '--startup-only' : QUICK ? 'quick mode' : '--krm-only'})`,
  status: ok === undefined ? 'SKIP' : ok ? 'PASS' : 'FAIL',
}));

// 4. Report.
const cpu = cpus();
const machine = [
  `- date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC` +
    `${QUICK ? ' (quick mode)' : ''}${KRM_ONLY ? ' (--krm-only: no `build` sizes)' : ''}${STARTUP_ONLY ? ' (--startup-only)' : ''}`,
  `- CPU: ${cpu[0]?.model ?? 'unknown'}, ${cpu.length} cores; memory ${(totalmem() / 2 ** 30).toFixed(1)} GiB; ` +
    `Linux ${release()}; load average ${load} at the start`,
  `- node ${process.version}; kubectl ${kubectlVersion ?? 'not found (no kustomize comparison)'}`,
  `- bundle: dist/llsd-render.js, ${(statSync(BUNDLE).size / 1e6).toFixed(2)} MB, built ${built} UTC, ` +
    `sha256 ${sha}… (a copy taken at the start is what runs)`,
];
const head = '| input | runs | median | min – max | per LLSD¹ | peak RSS | RSS per LLSD² | × floor | `kubectl kustomize` median (runs) | × kustomize |';
const line = (label, m, r = {}) =>
  `| ${[
    label,
    m.runs,
    fmtMs(m.median),
    `${fmtMs(m.min)} – ${fmtMs(m.max)}`,
    r.perLlsd === undefined ? '–' : fmtMs(r.perLlsd),
    m.rss ? fmtMB(m.rss) : '–',
    r.rssPerLlsd === undefined ? '–' : `${(r.rssPerLlsd / 1e3).toFixed(1)} kB`,
    fmtX(m.median / floor.median),
    kustomizeCell(r.k),
    !r.k || r.k.skipped ? '–' : `${r.k.timedOut ? '< ' : ''}${fmtX(m.median / r.k.median)}`,
  ].join(' | ')} |`;
const kustomizeCell = (k) =>
  !k
    ? '–'
    : k.skipped
      ? `not run (> ${fmtMs(KUSTOMIZE_TIMEOUT_MS)} at ${kustomizeTooSlow.toLocaleString('en-US')})`
      : k.timedOut
        ? `> ${fmtMs(k.median)} (stopped)`
        : `${fmtMs(k.median)} (${k.runs})`;
const report = [
  '### Machine',
  '',
  ...machine,
  '',
  '### Results',
  '',
  head,
  head.replace(/[^|]+/g, '---'),
  line('`node -e 0` (floor)', floor),
  line('`node --require bench/max-rss.cjs -e 0`', floorPreload),
  line('1 LLSD, KRM (ResourceList on stdin)', krm, { k: one.k }),
  line('1 LLSD, KRM, `LLSD_RENDER_CODE_CACHE=off`', krmCold, { k: one.k }),
  ...rows.map((r) => line(r.label, r, r)),
  ...krmRows.map((r) => line(r.label, r, r)),
  ...shapeRows.map((r) => line(r.label, r)),
  '',
  '¹ (median(N) − median(1 LLSD, `build`)) / (N − 1): the cost of one more LLSD, start-up excluded (KRM rows: against 1 LLSD, KRM).  ',
  '² (peak RSS(N) − peak RSS(1 LLSD, `build`)) / (N − 1) (KRM rows: against 1 LLSD, KRM).  ',
  'The × kustomize column of the KRM row compares with `kubectl kustomize` over the 1-LLSD output.',
  '',
  '### Targets',
  '',
  '| target | measured | result |',
  '|---|---|---|',
  ...targets.map((t) => `| ${t.name} | ${t.value} | **${t.status}** |`),
  '',
].join('\n');

process.stdout.write('\n' + report);
mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
writeFileSync(join(ROOT, 'bench/results/latest.md'), `# llsd-render benchmark\n\n${report}`);
rmSync(tmp, { recursive: true, force: true });
log('written to bench/results/latest.md');
process.exit(!NO_FAIL && targets.some((t) => t.status === 'FAIL') ? 1 : 0);
