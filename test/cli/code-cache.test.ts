// The bundle's loader (src/loader.cjs): the program runs the same with V8's code cache, without
// it, with a damaged one and where none can be written; and its stack frames name lines of the file.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { quickstartPath, repoRoot, requireBundle, tempDir } from './run.js';

/** One run of the bundle with the cache in `cache` (a directory, or `off`) and the loader's debug lines on stderr. */
function render(cache: string, args: string[] = ['build', quickstartPath]): { status: number | null; stdout: string; cacheLines: string[]; stderr: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, LLSD_RENDER_CODE_CACHE: cache, LLSD_RENDER_DEBUG: '1' };
  delete env.NODE_OPTIONS;
  const r = spawnSync(process.execPath, [requireBundle(), ...args], { cwd: repoRoot, env, encoding: 'utf8', timeout: 60_000, maxBuffer: 64 * 1024 * 1024 });
  const lines = r.stderr.split('\n').filter(Boolean);
  return { status: r.status, stdout: r.stdout, cacheLines: lines.filter((l) => l.startsWith('llsd-render: code cache: ')), stderr: lines.filter((l) => !l.startsWith('llsd-render: code cache: ')).join('\n') };
}

const withoutCache = (): string => {
  const r = render('off');
  expect(r.status, r.stderr).toBe(0);
  expect(r.cacheLines).toEqual(['llsd-render: code cache: off (LLSD_RENDER_CODE_CACHE=off)']);
  return r.stdout;
};

const cacheFiles = (dir: string): string[] => readdirSync(dir).filter((f) => f.endsWith('.v8cache'));

describe('the code cache', () => {
  it('is written after the first render, read by the next, and changes nothing in the output', () => {
    const dir = tempDir('llsd-render-code-cache-');
    const expected = withoutCache();
    const first = render(dir);
    expect(first.status, first.stderr).toBe(0);
    const [file] = cacheFiles(dir);
    expect(file).toMatch(/^code-[0-9a-f]{16}-\d+-\d+-nodev[\d.]+-\w+\.v8cache$/);
    expect(first.cacheLines).toEqual([`llsd-render: code cache: wrote ${join(dir, file as string)}`]);
    const second = render(dir);
    expect(second.cacheLines).toEqual([`llsd-render: code cache: read ${join(dir, file as string)}`]);
    expect(first.stdout).toBe(expected);
    expect(second.stdout).toBe(expected);
    // KRM mode from the cache written by `build`.
    const input = `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n${readFileSync(quickstartPath, 'utf8').replace(/^/gm, '    ').replace(/^    /, '  - ')}`;
    const env: NodeJS.ProcessEnv = { ...process.env, LLSD_RENDER_CODE_CACHE: dir };
    delete env.LLSD_RENDER_DEBUG;
    const krm = spawnSync(process.execPath, [requireBundle()], { input, env, encoding: 'utf8' });
    const krmOff = spawnSync(process.execPath, [requireBundle()], { input, env: { ...env, LLSD_RENDER_CODE_CACHE: 'off' }, encoding: 'utf8' });
    expect(krm.status, krm.stderr).toBe(krmOff.status);
    expect(krm.stdout).toBe(krmOff.stdout);
    expect(krm.stdout).toContain('kind: Deployment');
  });

  it('a damaged cache file (garbage, or cut short) is refused by V8 and written again', () => {
    const dir = tempDir('llsd-render-code-cache-');
    const expected = withoutCache();
    expect(render(dir).status).toBe(0);
    const file = join(dir, cacheFiles(dir)[0] as string);
    const size = readFileSync(file).length;
    for (const damage of [() => writeFileSync(file, 'not a code cache'), () => truncateSync(file, Math.floor(size / 2))]) {
      damage();
      const r = render(dir);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toBe(expected);
      expect(r.cacheLines).toEqual([`llsd-render: code cache: refused by V8, to be written again: ${file}`, `llsd-render: code cache: wrote ${file}`]);
      expect(readFileSync(file).length).toBeGreaterThan(size / 2);
    }
  });

  it('a cache file that is a link to /dev/zero (attacker probe: every run hung) is ignored', () => {
    const dir = tempDir('llsd-render-code-cache-');
    const expected = withoutCache();
    expect(render(dir).status).toBe(0);
    const file = join(dir, cacheFiles(dir)[0] as string);
    rmSync(file);
    symlinkSync('/dev/zero', file);
    const r = render(dir);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(expected);
  });

  it('where no cache can be written, the program runs as well and says nothing (without LLSD_RENDER_DEBUG)', () => {
    const dir = tempDir('llsd-render-code-cache-');
    const blocker = join(dir, 'a-file');
    writeFileSync(blocker, '');
    const expected = withoutCache();
    const r = render(join(blocker, 'cache'));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(expected);
    expect(r.cacheLines).toHaveLength(1);
    expect(r.cacheLines[0]).toMatch(new RegExp(`^llsd-render: code cache: cannot write ${join(blocker, 'cache')}/code-`));
    const quiet = spawnSync(process.execPath, [requireBundle(), 'build', quickstartPath], {
      env: { ...process.env, LLSD_RENDER_CODE_CACHE: join(blocker, 'cache'), LLSD_RENDER_DEBUG: '' },
      encoding: 'utf8',
    });
    expect(quiet.status).toBe(0);
    expect(quiet.stderr.split('\n').filter((l) => l.includes('code cache'))).toEqual([]);
  });

  it('after a large input (over 4 MiB, rendered with a V8 flag that limits heap growth), is still read by the next run', () => {
    const dir = tempDir('llsd-render-code-cache-');
    const app = tempDir('llsd-render-large-input-');
    writeFileSync(join(app, 'llsd.yaml'), readFileSync(quickstartPath, 'utf8'));
    // One ConfigMap with 4.5 MB of data: large, and quick to read.
    writeFileSync(join(app, 'big.yaml'), `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n  blob: "${'x'.repeat(4_500_000)}"\n`);
    const first = render(dir, ['build', app]);
    expect(first.status, first.stderr).toBe(0);
    expect(first.cacheLines[0]).toMatch(/^llsd-render: code cache: wrote /);
    const second = render(dir, ['build', app]);
    expect(second.cacheLines).toHaveLength(1);
    expect(second.cacheLines[0]).toMatch(/^llsd-render: code cache: read /);
    expect(second.stdout).toBe(first.stdout);
  });

  it('is not written by a run that fails (it compiled too little); the next successful render writes it', () => {
    const dir = tempDir('llsd-render-code-cache-');
    const bad = tempDir('llsd-render-bad-input-');
    writeFileSync(join(bad, 'bad.yaml'), 'a: [\n');
    expect(render(dir, ['build']).status).toBe(2);
    expect(render(dir, ['build', bad]).status).toBe(1);
    expect(cacheFiles(dir)).toEqual([]);
    const good = render(dir);
    expect(good.status, good.stderr).toBe(0);
    expect(good.cacheLines[0]).toMatch(/^llsd-render: code cache: wrote /);
  });

  it('is not written by --version or --help, which compile too little of the program to be worth keeping', () => {
    const dir = tempDir('llsd-render-code-cache-');
    for (const args of [['--version'], ['--help'], ['build', '--help']]) {
      const r = render(dir, args);
      expect(r.status).toBe(0);
      expect(r.cacheLines).toEqual([]);
    }
    expect(cacheFiles(dir)).toEqual([]);
  });

  it('stack frames of the program name the lines of dist/llsd-render.js where its functions are', () => {
    const dir = tempDir('llsd-render-code-cache-');
    const r = spawnSync(process.execPath, ['--cpu-prof', '--cpu-prof-dir', dir, requireBundle(), 'build', quickstartPath], {
      env: { ...process.env, LLSD_RENDER_CODE_CACHE: 'off' },
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    const profile = JSON.parse(readFileSync(join(dir, readdirSync(dir).find((f) => f.endsWith('.cpuprofile')) as string), 'utf8')) as {
      nodes: Array<{ callFrame: { functionName: string; url: string; lineNumber: number } }>;
    };
    const lines = readFileSync(requireBundle(), 'utf8').split('\n');
    const checked = new Set<string>();
    for (const { callFrame } of profile.nodes) {
      if (!callFrame.url.endsWith('llsd-render.js') || !['main', 'build', 'process', 'renderLlsd', 'generateConfig'].includes(callFrame.functionName.replace(/\d+$/, ''))) continue;
      expect(lines[callFrame.lineNumber], callFrame.functionName).toMatch(new RegExp(`function ${callFrame.functionName}\\(`));
      checked.add(callFrame.functionName.replace(/\d+$/, ''));
    }
    expect([...checked].sort()).toEqual(['build', 'generateConfig', 'main', 'process', 'renderLlsd']);
  });
});

describe('the bundle itself (attacker probe)', () => {
  it('a copy edited in place (same length) runs the edited program, not the code cached before the edit', () => {
    const dir = tempDir('llsd-render-code-cache-');
    const copy = join(dir, 'llsd-render.js');
    writeFileSync(join(dir, 'package.json'), '{ "type": "commonjs" }\n');
    writeFileSync(copy, readFileSync(requireBundle()));
    const env: NodeJS.ProcessEnv = { ...process.env, LLSD_RENDER_CODE_CACHE: join(dir, 'cache') };
    delete env.NODE_OPTIONS;
    const summary = (): string => spawnSync(process.execPath, [copy, 'validate', quickstartPath], { cwd: repoRoot, env, encoding: 'utf8' }).stdout;
    expect(summary()).toContain('info: generated config.yaml with');
    const text = readFileSync(copy, 'latin1');
    writeFileSync(copy, text.replaceAll('generated config.yaml with ${', 'GENERATED config.yaml with ${'), 'latin1');
    expect(readFileSync(copy).length).toBe(text.length);
    expect(summary()).toContain('info: GENERATED config.yaml with');
  });

  it('a bundle with bytes added is refused with a plain message and exit 2', () => {
    const dir = tempDir('llsd-render-code-cache-');
    const copy = join(dir, 'llsd-render.js');
    writeFileSync(join(dir, 'package.json'), '{ "type": "commonjs" }\n');
    writeFileSync(copy, `${readFileSync(requireBundle(), 'latin1')}\n`, 'latin1');
    const r = spawnSync(process.execPath, [copy, 'build', quickstartPath], { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, LLSD_RENDER_CODE_CACHE: 'off' } });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`llsd-render: ${copy} is damaged (it has ${readFileSync(copy).length} bytes, not the ${readFileSync(copy).length - 1} it was built with): build it again with \`npm run build\`, or take a fresh copy\n`);
  });
});
