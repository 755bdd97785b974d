// Issue 18: every link in README.md, docs/ and the examples' READMEs works in a clone. A relative
// link names a file git puts in a clone (not dist/ or node_modules/, which only a build or
// `npm ci` makes), never a path outside the repository; a `#anchor` is a heading (GitHub's slug)
// or an id of the target page. Only http(s) URLs leave the repository.
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorsOf, codeBlocks, isLinkedPage, linksOf, repoRoot, repositoryFiles, slug } from './markdown.js';

type Read = (path: string) => string | undefined;

/** What is wrong with `target`, linked from `page`, or undefined when it resolves. */
function problemOf(page: string, target: string, files: ReadonlySet<string>, read: Read): string | undefined {
  if (/^https?:\/\//i.test(target)) return undefined;
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return 'leaves the repository: only http(s) URLs may';
  if (target.startsWith('/')) return 'is absolute: write a path relative to the page';
  const hash = target.indexOf('#');
  const path = decodeURI(hash < 0 ? target : target.slice(0, hash));
  const anchor = hash < 0 ? undefined : target.slice(hash + 1);
  const resolved = path === '' ? page : normalize(join(dirname(page), path)).replace(/\/$/, '');
  if (resolved === '..' || resolved.startsWith('../')) return 'points outside the repository';
  const isFile = files.has(resolved);
  const isDirectory = [...files].some((f) => f.startsWith(`${resolved}/`));
  if (!isFile && !isDirectory) return `${resolved} is not in a clone of the repository`;
  if (anchor === undefined) return undefined;
  if (!isFile || !resolved.endsWith('.md')) return `#${anchor}: ${resolved} is not a Markdown page, so it has no anchors`;
  const text = read(resolved) ?? '';
  return anchorsOf(text).has(anchor) ? undefined : `#${anchor} is no heading or id of ${resolved}`;
}

function brokenLinks(pages: readonly string[], files: ReadonlySet<string>, read: Read): string[] {
  return pages.flatMap((page) =>
    linksOf(read(page) ?? '').flatMap(({ line, target }) => {
      const problem = problemOf(page, target, files, read);
      return problem ? [`${page}:${line}: (${target}) ${problem}`] : [];
    }),
  );
}

describe('links in README.md, docs/ and examples/*/README.md', () => {
  const files = new Set(repositoryFiles());
  const pages = [...files].filter(isLinkedPage).sort();
  const read: Read = (path) => readFileSync(join(repoRoot, path), 'utf8');

  it('all resolve in a clone (file, anchor), and none leaves the repository but http(s) URLs', () => {
    expect(pages).toEqual(expect.arrayContaining(['README.md', 'docs/render-options.md', 'examples/kpt/README.md']));
    expect(brokenLinks(pages, files, read)).toEqual([]);
    expect(pages.reduce((n, page) => n + linksOf(read(page) ?? '').length, 0), 'links checked').toBeGreaterThan(60);
  });

  it('README.md links every page of docs/', () => {
    const linked = new Set(linksOf(read('README.md') ?? '').map(({ target }) => target.split('#')[0]));
    const docs = [...files].filter((f) => f.startsWith('docs/') && f.endsWith('.md'));
    expect(docs.filter((doc) => !linked.has(doc))).toEqual([]);
  });

  it('no page holds a TODO placeholder left for later', () => {
    const pages = [...files].filter((f) => f === 'README.md' || (f.startsWith('docs/') && f.endsWith('.md')));
    expect(pages.filter((page) => /TODO\(/.test(read(page) ?? ''))).toEqual([]);
  });
});

describe('the link checker', () => {
  const pages: Record<string, string> = {
    'README.md': '# Title\n\n## Hosts: kpt, `kustomize`\n',
    'docs/a.md': '# Page A\n\n## Same\n\n## Same\n\n<a id="custom"></a>\n',
  };
  const files = new Set([...Object.keys(pages), 'src/x.ts', 'examples/kpt/Kptfile']);
  const check = (markdown: string) => brokenLinks(['docs/b.md'], files, (p) => (p === 'docs/b.md' ? markdown : pages[p]));

  it('accepts files, directories, headings (GitHub slugs, repeats numbered), ids and http(s) URLs', () => {
    const ok = '[r](../README.md#hosts-kpt-kustomize) [a](a.md#same-1) [c](a.md#custom) [s](../src/x.ts) [d](../examples/kpt/) [w](https://example.com/x)';
    expect(check(ok)).toEqual([]);
  });

  it('names the page, line and link of a missing file, a missing anchor, a path outside the repository and another scheme', () => {
    expect(check('x\n[m](missing.md) [h](a.md#nope)\n[o](../../shared/spec/x.md) [f](file:///etc/passwd) [n](/docs/a.md)')).toEqual([
      'docs/b.md:2: (missing.md) docs/missing.md is not in a clone of the repository',
      'docs/b.md:2: (a.md#nope) #nope is no heading or id of docs/a.md',
      'docs/b.md:3: (../../shared/spec/x.md) points outside the repository',
      'docs/b.md:3: (file:///etc/passwd) leaves the repository: only http(s) URLs may',
      'docs/b.md:3: (/docs/a.md) is absolute: write a path relative to the page',
    ]);
  });

  it('does not read links inside code', () => {
    expect(check('`[x](missing.md)`\n```md\n[y](missing.md)\n```\n')).toEqual([]);
    expect(codeBlocks('```sh\necho\n```\n')).toHaveLength(1);
  });

  it('slugs headings as GitHub does', () => {
    expect(slug('Migrating to OGXServer: `convert --to ogx.io/v1beta1`')).toBe('migrating-to-ogxserver-convert---to-ogxiov1beta1');
    expect(slug("OGXServer: upstream's current API")).toBe('ogxserver-upstreams-current-api');
  });
});
