// What the docs tests read from the repository's Markdown: which files are docs, their fenced code
// blocks and their links. Kept small and line-based: the docs are plain GitHub Markdown.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

export const repoRoot = join(import.meta.dirname, '..', '..');

/** Files git would put in a clone (tracked, or new and not ignored), relative to `root`. */
export function repositoryFiles(root = repoRoot): string[] {
  const listed = spawnSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: root, encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`git ls-files failed in ${root}: ${listed.stderr}`);
  return listed.stdout.split('\0').filter(Boolean);
}

/** README.md and docs/**.md: the pages whose commands must run. */
export const isDocsPage = (path: string): boolean => path === 'README.md' || (path.startsWith('docs/') && path.endsWith('.md'));

/** Every page whose links must resolve: the docs pages and the examples' READMEs. */
export const isLinkedPage = (path: string): boolean => isDocsPage(path) || /^examples\/(?:.+\/)?README\.md$/.test(path);

export interface CodeBlock {
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  text: string;
  /** The reason in a `<!-- not run: REASON -->` comment on the line before the fence, if any. */
  notRun?: string;
}

const fence = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/;

/** The fenced code blocks of a Markdown text, in order. */
export function codeBlocks(markdown: string): CodeBlock[] {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = fence.exec(lines[i] as string);
    if (!open) continue;
    const [, indent, marks, lang] = open as unknown as [string, string, string, string];
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !(lines[j] as string).trimStart().startsWith(marks); j++) body.push((lines[j] as string).slice(indent.length));
    const previous = lines.slice(0, i).reverse().find((l) => l.trim() !== '') ?? '';
    const notRun = /^\s*<!--\s*not run:\s*(.*?)\s*-->\s*$/.exec(previous)?.[1];
    blocks.push({ line: i + 1, lang, text: body.join('\n'), ...(notRun !== undefined ? { notRun } : {}) });
    i = j;
  }
  return blocks;
}

/** The Markdown with fenced blocks and inline code blanked (kept as empty lines, so line numbers stay). */
export function proseOf(markdown: string): string {
  const lines = markdown.split('\n');
  let inFence: string | undefined;
  return lines
    .map((line) => {
      const open = fence.exec(line);
      if (inFence) {
        if (line.trimStart().startsWith(inFence)) inFence = undefined;
        return '';
      }
      if (open) {
        inFence = open[2];
        return '';
      }
      return line.replace(/(`+)[^`]*?\1/g, '');
    })
    .join('\n');
}

export interface Link {
  line: number;
  target: string;
}

/** Inline links `[text](target)`, images and reference definitions `[x]: target`, outside code. */
export function linksOf(markdown: string): Link[] {
  const links: Link[] = [];
  proseOf(markdown)
    .split('\n')
    .forEach((line, index) => {
      for (const m of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({ line: index + 1, target: m[1] as string });
      const definition = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(line);
      if (definition) links.push({ line: index + 1, target: definition[1] as string });
      for (const m of line.matchAll(/<a\s[^>]*href="([^"]+)"/g)) links.push({ line: index + 1, target: m[1] as string });
    });
  return links;
}

/**
 * The anchors GitHub gives a page: one per heading (lowercased, punctuation dropped, each space a
 * hyphen; a repeated slug gets -1, -2, …) and each explicit `id`/`name` attribute.
 */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseOfHeadings(markdown)) {
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1] as string);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  for (const m of markdown.matchAll(/<[a-z]+\s[^>]*\b(?:id|name)="([^"]+)"/g)) anchors.add(m[1] as string);
  return anchors;
}

/** Headings outside fenced blocks, with their inline code kept (GitHub slugs its text). */
function proseOfHeadings(markdown: string): string[] {
  const lines = markdown.split('\n');
  const out: string[] = [];
  let inFence: string | undefined;
  for (const line of lines) {
    const open = fence.exec(line);
    if (inFence) {
      if (line.trimStart().startsWith(inFence)) inFence = undefined;
    } else if (open) inFence = open[2];
    else out.push(line);
  }
  return out;
}

/** GitHub's heading slug. */
export function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}
