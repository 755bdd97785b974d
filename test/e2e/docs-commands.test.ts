// Issue 18: every shell command shown in README.md and docs/ runs as written. The shell blocks are
// ```sh (one convention; a ```bash, ```shell or ```console block fails here). Each unmarked block
// runs with `bash -e` from the root of a clean clone of HEAD (commit first: the clone has only
// what is committed) with node_modules linked to this checkout's, `npm run build` done (the
// README's first command without `npm ci`, which would replace the linked node_modules) and
// `llsd-render` on PATH, as `npm link` puts it; the real kpt and podman come from PATH. Before
// each block the clone is reset, so no block depends on another. A block that cannot run here
// (a cluster, a registry) carries `<!-- not run: REASON -->` on the line before; those are listed
// below, so a new one is a deliberate change to this test.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeBlocks, isDocsPage, repositoryFiles } from '../unit/markdown.js';
import { describeRun, repoRoot, requireTool, run } from './tools.js';

const shellLanguages = ['sh', 'bash', 'shell', 'console', 'zsh'];

const blocks = repositoryFiles()
  .filter(isDocsPage)
  .sort()
  .flatMap((page) => codeBlocks(readFileSync(join(repoRoot, page), 'utf8')).map((block) => ({ page, ...block })))
  .filter((block) => shellLanguages.includes(block.lang));
const runnable = blocks.filter((b) => b.notRun === undefined);

describe('shell blocks of README.md and docs/', () => {
  it('are all ```sh', () => {
    expect(blocks.filter((b) => b.lang !== 'sh').map((b) => `${b.page}:${b.line}: \`\`\`${b.lang}`)).toEqual([]);
  });

  it('that are not run are these, each with its reason', () => {
    expect(blocks.filter((b) => b.notRun !== undefined).map((b) => `${b.page}: ${b.notRun}`)).toEqual([
      'README.md: installs packages and runs the whole test suite; CI (.ci/run) runs both',
      'README.md: needs a cluster with Argo CD',
      'docs/configuration.md: needs a buildah working container',
      'docs/configuration.md: needs crane and a registry',
      'docs/configuration.md: needs crane and a registry',
    ]);
    expect(blocks.filter((b) => b.notRun === '').map((b) => `${b.page}:${b.line}`), 'a `not run:` without a reason').toEqual([]);
  });

  it('that run are at least one per host (CLI, kpt, kustomize, Argo CD, Flux)', () => {
    const text = runnable.map((b) => b.text).join('\n');
    for (const host of ['llsd-render build', 'kpt fn render', 'kustomize-linux-x64', 'examples/argocd/app', 'examples/flux/render.sh'])
      expect(text).toContain(host);
  });
});

describe('every unmarked shell block of README.md and docs/ runs as written in a clean clone', () => {
  // One clone for all blocks (reset before each), removed after the last.
  const root = mkdtempSync(join(tmpdir(), 'llsd-docs-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  let clone = '';
  let env: Record<string, string> = {};

  beforeAll(() => {
    requireTool('kpt');
    clone = join(root, 'repo');
    const cloned = run('git', ['clone', '-q', repoRoot, clone], { cwd: root });
    expect(cloned.status, describeRun(cloned)).toBe(0);
    symlinkSync(join(repoRoot, 'node_modules'), join(clone, 'node_modules'));
    const build = run('npm', ['run', 'build'], { cwd: clone, timeoutMs: 120_000 });
    expect(build.status, describeRun(build)).toBe(0);
    const bin = join(root, 'bin');
    mkdirSync(bin);
    symlinkSync(join(clone, 'dist', 'llsd-render.js'), join(bin, 'llsd-render'));
    env = { PATH: `${bin}:${process.env.PATH ?? ''}`, XDG_CACHE_HOME: join(root, 'cache'), HOME: join(root, 'home') };
    mkdirSync(env.HOME as string);
  }, 180_000);

  it.each(runnable.map((b) => [`${b.page}:${b.line}`, b.text] as const))('%s', (_where, text) => {
    const reset = run('sh', ['-c', 'git reset -q --hard && git clean -qfdx -e dist -e node_modules'], { cwd: clone });
    expect(reset.status, describeRun(reset)).toBe(0);
    const result = run('bash', ['-e', '-o', 'pipefail', '-c', text], { cwd: clone, env, timeoutMs: 120_000 });
    expect(result.status, `${text}\n${describeRun(result)}`).toBe(0);
  }, 150_000);
});
