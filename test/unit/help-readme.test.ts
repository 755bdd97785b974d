// Issue 18: `llsd-render --help` and the README's command reference agree. The README's command
// list is the usage list of `--help` verbatim, and its table names, for each command, exactly the
// options of `llsd-render COMMAND --help` (plus -h/--help and -v/--version, said once for all).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeBlocks, repoRoot } from './markdown.js';

const bundle = join(repoRoot, 'dist', 'llsd-render.js');
const globalOptions = ['--help', '--version', '-h', '-v'];

function helpOf(...args: string[]): string {
  if (!existsSync(bundle)) throw new Error('dist/llsd-render.js not found: run `npm run build` first');
  const result = spawnSync(process.execPath, [bundle, ...args, '--help'], { encoding: 'utf8', env: { ...process.env, LLSD_RENDER_CODE_CACHE: 'off' } });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout;
}

/** The indented lines after `Usage:` in the main help, up to the first blank line. */
function usageLines(help: string): string[] {
  const lines = help.split('\n');
  const start = lines.indexOf('Usage:') + 1;
  expect(start, 'the main help has a "Usage:" list').toBeGreaterThan(0);
  const end = lines.indexOf('', start);
  return lines.slice(start, end).map((l) => l.replace(/^ {2}/, ''));
}

const commandsOf = (usage: readonly string[]): string[] => usage.flatMap((l) => /^llsd-render ([a-z][\w-]*)/.exec(l)?.[1] ?? []);

/** The options a help text lists under `Options:`: each line's leading `-x, --long`. */
function optionsOf(help: string): string[] {
  const section = help.slice(help.indexOf('\nOptions:\n'));
  return [...section.matchAll(/^ {2}(?:(-[a-z]), )?(--[a-z][\w-]*)/gm)].flatMap((m) => [m[1], m[2]].filter((x): x is string => x !== undefined)).sort();
}

/** Flags inside the inline code of a Markdown text. */
const flagsIn = (markdown: string): string[] =>
  [
    ...new Set([...markdown.matchAll(/`([^`]+)`/g)].flatMap((m) => [...(m[1] as string).matchAll(/(?:^|[\s,])(--?[a-z][\w-]*)/g)].map((f) => f[1] as string))),
  ].sort();

function readmeCommands(): { usage: string; rows: Map<string, string>; after: string } {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const from = readme.indexOf('\n## Commands\n');
  expect(from, 'README.md has a "## Commands" section').toBeGreaterThan(0);
  const section = readme.slice(from, readme.indexOf('\n## ', from + 1));
  const [block] = codeBlocks(section).filter((b) => b.lang === 'text');
  const rows = new Map<string, string>();
  for (const m of section.matchAll(/^\| `([a-z][\w-]*)` \|(.*)\|$/gm)) rows.set(m[1] as string, m[2] as string);
  return { usage: block?.text ?? '', rows, after: section.slice(section.lastIndexOf('|')) };
}

describe('--help and the README command reference', () => {
  const main = helpOf();
  const usage = usageLines(main);
  const readme = readmeCommands();

  it('the README lists the commands exactly as `llsd-render --help` does', () => {
    expect(readme.usage).toBe(usage.join('\n'));
    expect(commandsOf(usage)).toEqual(['build', 'validate', 'convert', 'schema', 'webhook', 'image-labels']);
  });

  it('the README table has one row per command of --help, no more', () => {
    expect([...readme.rows.keys()]).toEqual(commandsOf(usage));
  });

  it.each(commandsOf(usageLines(helpOf())))('`%s`: the README row names exactly the options of its `--help`', (command) => {
    const fromHelp = optionsOf(helpOf(command)).filter((o) => !globalOptions.includes(o));
    expect(fromHelp.length, `${command} --help lists options`).toBeGreaterThan(0);
    expect(flagsIn(readme.rows.get(command) ?? '')).toEqual(fromHelp);
  });

  it('the options every command takes (-h, --help; -v, --version) are said once, after the table', () => {
    expect(optionsOf(main)).toEqual([...globalOptions].sort());
    expect(flagsIn(readme.after)).toEqual(expect.arrayContaining(globalOptions));
  });
});
