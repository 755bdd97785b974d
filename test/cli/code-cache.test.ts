// The bundle's loader (src/loader.cjs): the program runs the same with V8's code cache, without
// it, with a damaged one and where none can be written; and its stack frames name lines of the file.
import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  chownSync,
  existsSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { quickstartPath, repoRoot, requireBundle, tempDir } from './run.js';

interface Rendered {
  status: number | null;
  stdout: string;
  cacheLines: string[];
  stderr: string;
}

/** One run of the bundle with the cache in `cache` (a directory, or `off`) and the loader's debug lines on stderr. */
function render(cache: string, args: string[] = ['build', quickstartPath], options: { uid?: number; env?: NodeJS.ProcessEnv; cwd?: string } = {}): Rendered {
  const env: NodeJS.ProcessEnv = { ...process.env, LLSD_RENDER_CODE_CACHE: cache, LLSD_RENDER_DEBUG: '1', ...options.env };
  delete env.NODE_OPTIONS;
  if (cache === '') delete env.LLSD_RENDER_CODE_CACHE;
  const as = options.uid === undefined ? {} : { uid: options.uid, gid: options.uid };
  const r = spawnSync(process.execPath, [requireBundle(), ...args], {
    cwd: options.cwd ?? repoRoot,
    env,
    encoding: 'utf8',
    timeout: 60_000,
    maxBuffer: 64 * 1024 * 1024,
    ...as,
  });
  const lines = r.stderr.split('\n').filter(Boolean);
  return {
    status: r.status,
    stdout: r.stdout,
    cacheLines: lines.filter((l) => l.startsWith('llsd-render: code cache: ')),
    stderr: lines.filter((l) => !l.startsWith('llsd-render: code cache: ')).join('\n'),
  };
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
    const item = readFileSync(quickstartPath, 'utf8').replace(/^/gm, '    ').replace(/^    /, '  - ');
    const input = `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n${item}`;
    const env: NodeJS.ProcessEnv = { ...process.env, LLSD_RENDER_CODE_CACHE: dir };
    delete env.LLSD_RENDER_DEBUG;
    const krm = spawnSync(process.execPath, [requireBundle()], { input, env, encoding: 'utf8' });
    const krmOff = spawnSync(process.execPath, [requireBundle()], { input, env: { ...env, LLSD_RENDER_CODE_CACHE: 'off' }, encoding: 'utf8' });
    expect(krm.status, krm.stderr).toBe(krmOff.status);
    expect(krm.stdout).toBe(krmOff.stdout);
    expect(krm.stdout).toContain('kind: Deployment');
  });

  it('a damaged cache file (a byte flipped anywhere, cut short, grown, garbage) is not given to V8, and is written again (attacker round 6: exit 133 / ' +
    'SIGSEGV)', () => {
    const dir = tempDir('llsd-render-code-cache-');
    const expected = withoutCache();
    expect(render(dir).status).toBe(0);
    const file = join(dir, cacheFiles(dir)[0] as string);
    const good = readFileSync(file);
    const flip = (offset: number) => () => {
      const bytes = Buffer.from(good);
      bytes[offset] = (bytes[offset] as number) ^ 0xff;
      writeFileSync(file, bytes);
    };
    const damages: Array<[string, () => void, string]> = [
      ['byte 100 flipped', flip(100), 'its checksum does not match'],
      ['byte 300000 flipped', flip(300_000), 'its checksum does not match'],
      ['byte 800000 flipped', flip(800_000), 'its checksum does not match'],
      ['last byte flipped', flip(good.length - 1), 'its checksum does not match'],
      ['a checksum byte flipped', flip(40), 'its checksum does not match'],
      ['a length byte flipped', flip(12), 'not the length its header says'],
      ['cut short', () => truncateSync(file, Math.floor(good.length / 2)), 'not the length its header says'],
      ['grown by a byte', () => appendFileSync(file, 'x'), 'not the length its header says'],
      ['garbage', () => writeFileSync(file, 'not a code cache'), 'no llsd-render header'],
      ['empty', () => writeFileSync(file, ''), 'no llsd-render header'],
    ];
    expect(good.length).toBeGreaterThan(800_000);
    for (const [what, damage, why] of damages) {
      writeFileSync(file, good);
      damage();
      const r = render(dir);
      expect(r.status, `${what}: ${r.stderr}`).toBe(0);
      expect(r.stdout, what).toBe(expected);
      expect(r.cacheLines, what).toEqual([
        `llsd-render: code cache: not read (damaged: ${why}), to be written again: ${file}`,
        `llsd-render: code cache: wrote ${file}`,
      ]);
      const next = render(dir);
      expect(next.cacheLines, what).toEqual([`llsd-render: code cache: read ${file}`]);
      expect(next.stdout, what).toBe(expected);
    }
  }, 120_000);

  it('a cache another user owns, or that group or others may write, is not read (a way to run code in their runs); root-owned 0644 is read by nobody', () => {
    expect(process.getuid?.(), 'this test gives cache files to other users with chown: run it as root (the dev container and CI do)').toBe(0);
    const dir = tempDir('llsd-render-code-cache-');
    chmodSync(dir, 0o1777);
    const expected = withoutCache();
    // Written by nobody into the shared directory: read by nobody, not by root.
    const byNobody = render(dir, undefined, { uid: 65534, cwd: '/' });
    expect(byNobody.status, byNobody.stderr).toBe(0);
    const file = join(dir, cacheFiles(dir)[0] as string);
    expect(statSync(file).uid).toBe(65534);
    expect(render(dir, undefined, { uid: 65534, cwd: '/' }).cacheLines).toEqual([`llsd-render: code cache: read ${file}`]);
    const asRoot = render(dir);
    expect(asRoot.status, asRoot.stderr).toBe(0);
    expect(asRoot.stdout).toBe(expected);
    expect(asRoot.cacheLines).toEqual([
      `llsd-render: code cache: not read (owned by user 65534, not by user 0 or root), to be written again: ${file}`,
      `llsd-render: code cache: wrote ${file}`,
    ]);
    // Root's new file replaced nobody's: 0644, read by root and by nobody (as the image's pre-warmed cache is).
    expect(statSync(file).uid).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o644);
    expect(render(dir).cacheLines).toEqual([`llsd-render: code cache: read ${file}`]);
    const nobodyReadsRoots = render(dir, undefined, { uid: 65534, cwd: '/' });
    expect(nobodyReadsRoots.cacheLines).toEqual([`llsd-render: code cache: read ${file}`]);
    expect(nobodyReadsRoots.stdout).toBe(expected);
    // One's own file that others may write is not read either.
    for (const mode of [0o664, 0o646]) {
      chmodSync(file, mode);
      const r = render(dir);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toBe(expected);
      expect(r.cacheLines).toEqual([
        `llsd-render: code cache: not read (writable by group or others), to be written again: ${file}`,
        `llsd-render: code cache: wrote ${file}`,
      ]);
      expect(statSync(file).mode & 0o777).toBe(0o644);
    }
    // A file given to another user afterwards (chown) is refused the same way.
    chownSync(file, 1234, 1234);
    expect(render(dir).cacheLines[0]).toBe(`llsd-render: code cache: not read (owned by user 1234, not by user 0 or root), to be written again: ${file}`);
  }, 120_000);

  it('writing a new cache removes the oldest of this user\'s code-*.v8cache files beyond the newest 8 and old temporary ones, and nothing else', () => {
    const dir = tempDir('llsd-render-code-cache-');
    const day = 24 * 3600;
    const now = Date.now() / 1000;
    // Twelve caches of earlier builds, a day apart (old-1 the newest), and files that are not this program's caches.
    const old = Array.from({ length: 12 }, (_, i) => `code-0123456789abcdef-${1000 + i}-${i}-nodev20.0.0-x64.v8cache`);
    old.forEach((name, i) => {
      writeFileSync(join(dir, name), 'an older build\'s cache');
      utimesSync(join(dir, name), now - (i + 1) * day, now - (i + 1) * day);
    });
    const others = ['notes.txt', 'code-cache.json', 'code-x.v8cache.bak', 'my.v8cache'];
    for (const name of others) {
      writeFileSync(join(dir, name), 'keep me');
      utimesSync(join(dir, name), now - 30 * day, now - 30 * day);
    }
    const staleTemp = `${old[0]}.4242-deadbeef.tmp`;
    const freshTemp = `${old[1]}.4243-cafebabe.tmp`;
    writeFileSync(join(dir, staleTemp), 'left by a killed run');
    utimesSync(join(dir, staleTemp), now - day, now - day);
    writeFileSync(join(dir, freshTemp), 'another run is writing this now');
    const r = render(dir);
    expect(r.status, r.stderr).toBe(0);
    const written = r.cacheLines[0]?.replace('llsd-render: code cache: wrote ', '') as string;
    expect(existsSync(written), r.cacheLines.join('\n')).toBe(true);
    const left = readdirSync(dir).sort();
    expect(left).toEqual([...old.slice(0, 7), written.slice(dir.length + 1), ...others, freshTemp].sort());
    // A run that reads its cache writes nothing, and removes nothing.
    writeFileSync(join(dir, old[11] as string), 'back again');
    utimesSync(join(dir, old[11] as string), now - 40 * day, now - 40 * day);
    expect(render(dir).cacheLines).toEqual([`llsd-render: code cache: read ${written}`]);
    expect(existsSync(join(dir, old[11] as string))).toBe(true);
  });

  it('a relative XDG_CACHE_HOME is ignored (XDG: paths must be absolute): the cache goes to ~/.cache, not into the working directory', () => {
    const home = tempDir('llsd-render-home-');
    const cwd = tempDir('llsd-render-app-');
    const relative = render('', ['build', quickstartPath], { env: { XDG_CACHE_HOME: 'relcache', HOME: home }, cwd });
    expect(relative.status, relative.stderr).toBe(0);
    expect(readdirSync(cwd)).toEqual([]);
    expect(relative.cacheLines).toHaveLength(1);
    expect(relative.cacheLines[0]).toMatch(new RegExp(`^llsd-render: code cache: wrote ${join(home, '.cache', 'llsd-render')}/code-[^/]+\\.v8cache$`));
    const xdg = tempDir('llsd-render-xdg-');
    const absolute = render('', ['build', quickstartPath], { env: { XDG_CACHE_HOME: xdg, HOME: home }, cwd });
    expect(absolute.cacheLines[0]).toMatch(new RegExp(`^llsd-render: code cache: wrote ${join(xdg, 'llsd-render')}/code-[^/]+\\.v8cache$`));
  });

  it('LLSD_RENDER_CODE_CACHE=OFF is off, as `off` is, not a directory named OFF in the working directory (attacker round 7)', () => {
    const cwd = tempDir('llsd-render-app-');
    for (const off of ['off', 'OFF', 'Off']) {
      const r = render(off, ['build', quickstartPath], { cwd });
      expect(r.status, r.stderr).toBe(0);
      expect(r.cacheLines).toEqual(['llsd-render: code cache: off (LLSD_RENDER_CODE_CACHE=off)']);
    }
    expect(readdirSync(cwd)).toEqual([]);
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
      if (
        !callFrame.url.endsWith('llsd-render.js') ||
        !['main', 'build', 'renderWithImages', 'renderOne', 'generateConfig'].includes(callFrame.functionName.replace(/\d+$/, ''))
      )
        continue;
      expect(lines[callFrame.lineNumber], callFrame.functionName).toMatch(new RegExp(`function ${callFrame.functionName}\\(`));
      checked.add(callFrame.functionName.replace(/\d+$/, ''));
    }
    expect([...checked].sort()).toEqual(['build', 'generateConfig', 'main', 'renderOne', 'renderWithImages']);
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
    const r = spawnSync(process.execPath, [copy, 'build', quickstartPath], {
      cwd: repoRoot,
      encoding: 'utf8',
      env: { ...process.env, LLSD_RENDER_CODE_CACHE: 'off' },
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      `llsd-render: ${copy} is damaged (it has ${readFileSync(copy).length} bytes, not the ${readFileSync(copy).length - 1} it was built with): build it ` +
        `again with \`npm run build\`, or take a fresh copy\n`,
    );
  });

  /** A copy of the bundle, changed by `edit`, run on the quickstart (or in KRM mode on `stdin`) without a code cache. */
  const runDamaged = (edit: (text: string) => string, stdin?: string) => {
    const dir = tempDir('llsd-render-code-cache-');
    const copy = join(dir, 'llsd-render.js');
    writeFileSync(join(dir, 'package.json'), '{ "type": "commonjs" }\n');
    writeFileSync(copy, edit(readFileSync(requireBundle(), 'latin1')), 'latin1');
    const args = stdin === undefined ? [copy, 'build', quickstartPath] : [copy];
    const r = spawnSync(process.execPath, args, { cwd: repoRoot, encoding: 'utf8', input: stdin, env: { ...process.env, LLSD_RENDER_CODE_CACHE: 'off' } });
    return { ...r, copy };
  };
  /** The data section's index line: [start, end) in the bundle's text. */
  const dataIndex = (text: string): [number, number] => {
    const dataOffset = Number(/const dataOffset = Number\('(\d+)'\)/.exec(text)?.[1]);
    return [dataOffset, text.indexOf('\n', dataOffset)];
  };
  const damagedLine = (copy: string, why: string): string =>
    `llsd-render: ${copy} is damaged (${why}): build it again with \`npm run build\`, or take a fresh copy\n`;

  it('a bundle cut short in the comments of its loader is refused with exit 2, not run as an empty program that exits 0 (attacker round 8)', () => {
    // The guard is the loader's first line, right after the #! line; a cut inside it does not parse.
    const guardEnd = readFileSync(requireBundle(), 'latin1').indexOf('\n', '#!/usr/bin/env node\n'.length) + 1;
    for (const length of [guardEnd, guardEnd + 100, guardEnd + 1500]) {
      const r = runDamaged((text) => text.slice(0, length));
      expect(r.status, `cut at ${length}`).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(damagedLine(r.copy, 'it ends before its program'));
    }
  });

  it('in KRM mode a damaged bundle also writes a ResourceList with the error, which kpt and kustomize expect (attacker round 9)', () => {
    const r = runDamaged((text) => text.slice(0, 3000), 'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\n');
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(damagedLine(r.copy, 'it ends before its program'));
    expect(r.stdout).toBe(
      `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nresults:\n  - severity: error\n    message: ` +
        `${JSON.stringify(damagedLine(r.copy, 'it ends before its program').slice('llsd-render: '.length, -1))}\n`,
    );
  });

  it('a data index of the right length that is not a list of [path, length] is refused plainly (attacker round 9)', () => {
    const r = runDamaged((text) => {
      const [start, end] = dataIndex(text);
      return `${text.slice(0, start)}${'{}'.padEnd(end - start)}${text.slice(end)}`;
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(damagedLine(r.copy, 'its data index is not a list of [path, length]'));
  });

  it('a program edited so that it compiles but cannot start is refused plainly, its stack only with LLSD_RENDER_DEBUG (attacker round 9)', () => {
    const r = runDamaged((text) => text.replace('require("node:fs")', 'require("node:fx")'));
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(damagedLine(r.copy, 'its program stops while it loads: No such built-in module: node:fx'));
  });

  it('a program edited out of shape in place (the same length) is refused plainly with exit 2, without its kB-long line (attacker round 8)', () => {
    const r = runDamaged((text) => {
      const at = text.indexOf('function ', text.indexOf('\n/*\n') + 1000);
      return `${text.slice(0, at)}fu(ction${text.slice(at + 'function'.length)}`;
    });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^llsd-render: \S+ is damaged \(its program does not compile: [^\n]{1,100}\): build it again with `npm run build`, or take a fresh copy\n$/,
    );
  });

  it('an embedded configs/ text edited out of shape is refused plainly with exit 2 when a render reads it, not as an internal error (attacker round 8)', () => {
    const r = runDamaged((text) => {
      // The data section: a line with the index ([path, length] of each entry), then the texts in order.
      const [dataOffset, indexEnd] = dataIndex(text);
      let at = indexEnd + 1;
      for (const [path, length] of JSON.parse(text.slice(dataOffset, indexEnd)) as Array<[string, number]>) {
        if (path === 'distributions.yaml') break;
        at += length;
      }
      const colon = text.indexOf('":', at);
      return `${text.slice(0, colon + 1)};${text.slice(colon + 2)}`;
    });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(damagedLine(r.copy, 'its embedded configs/distributions.yaml does not parse'));
  });
});
