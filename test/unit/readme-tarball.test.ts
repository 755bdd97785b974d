// The README says what the release tarball holds (issue 29: it said "the bundle and README", and the
// tarball held 15 files). The files it names in its Install section, `docs/*.md` expanded, are
// exactly what `npm pack` puts in the tarball, as `npm pack --dry-run` lists them.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, repositoryFiles } from './markdown.js';

/** The paths in inline code of the README's paragraph that begins "Needs Node.js", with `docs/*.md` expanded against the repository. */
function namedInReadme(): string[] {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const start = readme.indexOf('\nNeeds Node.js');
  expect(start, 'the README has its Install paragraph').toBeGreaterThan(0);
  const paragraph = readme.slice(start, readme.indexOf('\n\n', start + 1));
  const tokens = [...paragraph.matchAll(/`([^`\s]+)`/g)].map((m) => m[1] as string).filter((t) => /^[\w.-]+(?:\/[\w.*-]+)*\.(?:js|json|md)$/.test(t));
  const files = repositoryFiles();
  return tokens.flatMap((t) => (t.includes('*') ? files.filter((f) => new RegExp(`^${t.replace('.', '\\.').replace('*', '[^/]+')}$`).test(f)) : [t]));
}

/** The files `npm pack` would put in the tarball (the bundle must be built: `npm run build`). */
function packed(): string[] {
  if (!existsSync(join(repoRoot, 'dist', 'llsd-render.js'))) throw new Error('dist/llsd-render.js not found: run `npm run build` first');
  const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: repoRoot, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`npm pack --dry-run failed: ${r.stderr}`);
  return (JSON.parse(r.stdout) as Array<{ files: Array<{ path: string }> }>)[0]?.files.map((f) => f.path) ?? [];
}

describe('README: what the release tarball holds', () => {
  it('names exactly the files npm pack puts in it', () => {
    const named = namedInReadme();
    expect(named).toContain('dist/llsd-render.js');
    expect([...new Set(named)].sort()).toEqual(packed().sort());
  });
});
