// Many LLSDs render in two threads (src/cli/parallel.ts): the output must be the same bytes, the
// results the same lines, as in one thread (LLSD_RENDER_THREADS=1), for build and for KRM mode,
// when everything renders and when one LLSD fails.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: the benchmark's generator is plain JavaScript
import { resourceListOf, writeInputs } from '../../bench/gen.mjs';
import { expectNoCrash, requireBundle, run, tempDir } from './run.js';

const N = 160;

function both(args: string[], input?: string) {
  const two = run(args, input === undefined ? {} : { input });
  const one = run(args, { ...(input !== undefined && { input }), env: { LLSD_RENDER_THREADS: '1' } });
  expectNoCrash(two);
  return { two, one };
}

describe(`${N} LLSDs in two threads render as in one`, () => {
  const dir = tempDir();
  mkdirSync(join(dir, 'in'));
  (writeInputs as (dir: string, n: number) => void)(join(dir, 'in'), N);

  it('build: the same stdout, stderr and exit code; a worker took part', () => {
    const { two, one } = both(['build', join(dir, 'in')]);
    expect(two.status, two.stderr).toBe(0);
    expect(two.stdout).toBe(one.stdout);
    expect(two.stderr).toBe(one.stderr);
    expect(two.stdout.length).toBeGreaterThan(N * 10_000);
    // run() drops LLSD_RENDER_DEBUG: started here with it.
    const debug = spawnSync(process.execPath, [requireBundle(), 'build', join(dir, 'in')], { env: { ...process.env, LLSD_RENDER_DEBUG: '1' }, encoding: 'utf8', maxBuffer: 1 << 30 });
    expect(debug.stderr).toMatch(new RegExp(`threads: a worker rendered [1-9]\\d* of ${N} LLSDs`));
  });

  it('build with one broken LLSD among them: the same error lines, nothing printed', () => {
    const broken = join(dir, 'broken');
    mkdirSync(broken);
    (writeInputs as (dir: string, n: number) => void)(broken, N);
    writeFileSync(join(broken, 'zz-bad.yaml'), 'apiVersion: llamastack.io/v1alpha2\nkind: LlamaStackDistribution\nmetadata:\n  name: bad\n  namespace: team-0000\nspec:\n  distribution:\n    name: startr\n');
    const { two, one } = both(['build', broken]);
    expect(two.status).toBe(1);
    expect(two.stdout).toBe('');
    expect(two.stderr).toBe(one.stderr);
    expect(two.stderr).toMatch(/team-0000\/bad: spec\.distribution\.name: unknown distribution "startr"/);
  });

  it('KRM mode: the same ResourceList and stderr', () => {
    const list = (resourceListOf as (n: number) => string)(N);
    const { two, one } = both([], list);
    expect(two.status, two.stderr).toBe(0);
    expect(two.stdout).toBe(one.stdout);
    expect(two.stderr).toBe(one.stderr);
  });
});
