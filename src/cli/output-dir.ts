// `build -o DIR`: one file per LLSD, written so that DIR holds either the complete old set or the
// complete new set whatever ends the run (an error, a full disk, SIGINT, SIGTERM or SIGHUP), and
// no file that llsd-render did not write is ever replaced or removed. The lock DIR/.llsd-render.lock
// goes on every one of those ends too: the stop signals are handled from before it is made.
//
// How: every target is checked before anything is written; the new files are staged in
// DIR/.llsd-render-<pid>.tmp/ (the same file system as their targets, so a rename moves them);
// the commit renames them into place in one synchronous loop, which no signal handler can split
// (Node runs JavaScript signal handlers only between event-loop turns), with the old files kept
// aside as hard links to put back if a rename fails. DIR/.llsd-render-output lists the files
// written: the next run replaces or removes only those, and, in a DIR written before that list
// existed, files that start with `outputMarker`.
import {
  closeSync,
  copyFileSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  realpathSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { constants } from 'node:os';
import { dirname, isAbsolute, join, normalize, relative, resolve, sep } from 'node:path';
import type { Result } from '../krm/result.js';
import { cannotRead, findYamlFiles, manifestHeader, manifestName, outputMarker } from './files.js';

/** A file to write: its path relative to DIR, and its text, made only when it is staged. */
export interface OutputFile {
  name: string;
  text: () => string;
}

/** The list of the files `-o` wrote, in DIR. No `.yaml` suffix: Flux and Argo CD read only YAML and JSON files of a directory. */

/** Where this run stages its files; one of a process that no longer runs is stale. */
const stagingName = (pid: number): string => `.llsd-render-${pid}.tmp`;
const stagingPattern = /^\.llsd-render-(\d+)\.tmp$/;
/** Versions before the staging directory wrote `<target>.llsd-render-<pid>.tmp` beside each target. */
const besideTargetPattern = /\.llsd-render-(\d+)\.tmp$/;

/** Files staged between two event-loop turns: a signal stops the run at the next turn. */
const filesPerTurn = 32;

interface Plan {
  /** Every file to write, sorted by name, and whether one is there to replace. */
  targets: Array<{ file: OutputFile; path: string; exists: boolean }>;
  /** Files an earlier run wrote that no LLSD produces any more. */
  stale: string[];
  manifestExists: boolean;
}

/**
 * Writes `files` into `dir` all or nothing, and removes what earlier runs wrote there that no LLSD
 * produces any more. `inputs` are the files the build read: none of them may be replaced. The
 * results say why nothing was written, if so; empty, the new set is complete.
 */
export async function writeOutputDir(dir: string, files: readonly OutputFile[], inputs: readonly string[]): Promise<Result[]> {
  // From before the lock is made until after it is removed, a stop signal ends the run through
  // this handler: it undoes what is staged, and process.exit removes the lock (its 'exit'
  // listener). With no handler of ours, SIGINT during the plan killed node at once, and the lock
  // stayed (attacker K1: 1 run of 40).
  const stop: { undo?: (() => void) | undefined } = {};
  const uninstall = onStopSignals((code) => {
    try {
      stop.undo?.();
    } catch {
      // What cannot be removed now, the next run removes (removeStaleTemps).
    }
    process.exit(code);
  });
  try {
    const lock = lockDir(dir);
    if ('problem' in lock) return [problem(dir, lock.problem)];
    try {
      return await writeLocked(dir, files, inputs, stop);
    } finally {
      lock.release();
    }
  } finally {
    uninstall();
  }
}

/**
 * Two runs writing one DIR at once would mix their sets (files of one, the list of the other), so
 * a run holds `DIR/.llsd-render.lock` (made with O_EXCL, holding its pid) while it plans and
 * writes. A lock whose process is gone (killed) is taken over. A DIR made only for the lock is
 * removed again when nothing was written into it.
 */
function lockDir(dir: string): { release: () => void } | { problem: string } {
  const dirStat = statIfAny(dir);
  if (dirStat && !dirStat.isDirectory()) return { release: () => {} };
  const made = dirStat === undefined;
  try {
    if (made) mkdirSync(dir, { recursive: true });
  } catch (error) {
    return { problem: `cannot make the directory (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); nothing was written` };
  }
  const path = join(dir, lockName);
  const removeMadeDir = (): void => {
    if (!made) return;
    try {
      rmdirSync(dir);
    } catch {
      // Not empty: the new set is in it.
    }
  };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeLock(path);
      const release = (): void => {
        process.off('exit', release);
        rmSync(path, { force: true });
        removeMadeDir();
      };
      // process.exit from a signal handler skips `finally`: the lock goes with the process.
      process.on('exit', release);
      return { release };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') {
        removeMadeDir();
        return { problem: `cannot write the output there (${code ?? (error as Error).message}: ${path}); nothing was changed in it` };
      }
      const holder = Number.parseInt(readIfAny(path) ?? '', 10);
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isRunning(holder)) {
        return {
          problem: `another llsd-render build -o (process ${holder}) is writing this directory: wait for it to end, then run again (${lockName} is removed ` +
            `when it does; if no llsd-render runs, it was killed with SIGKILL: remove ${lockName})`,
        };
      }
      // A lock without a pid yet is one another run has just made (open, then write): it is held,
      // unless it stayed empty long enough to be a run that died in between.
      if (!Number.isInteger(holder) && Date.now() - Number(statIfAny(path)?.mtimeMs ?? 0) < 10_000) {
        return {
          problem: `another llsd-render build -o is taking this directory's lock: wait for it to end, then run again (${lockName} is removed when it does)`,
        };
      }
      rmSync(path, { force: true });
    }
  }
  return { problem: `cannot take ${lockName}: another run keeps making it; run again` };
}

const lockName = '.llsd-render.lock';

/**
 * Makes the lock holding this process's id, or throws (EEXIST: another run holds it). A lock made
 * but not written (a full disk: ENOSPC, or EIO) is removed again before the error is thrown: an
 * empty lock would block every run for 10 s, and stay in DIR.
 */
function writeLock(path: string): void {
  const fd = openSync(path, 'wx');
  try {
    const text = Buffer.from(`${process.pid}\n`);
    if (writeSync(fd, text) !== text.length) throw Object.assign(new Error('ENOSPC: the lock was written in part'), { code: 'ENOSPC' });
  } catch (error) {
    closeSync(fd);
    rmSync(path, { force: true });
    throw error;
  }
  closeSync(fd);
}

function readIfAny(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').slice(0, 32);
  } catch {
    return undefined;
  }
}

async function writeLocked(dir: string, files: readonly OutputFile[], inputs: readonly string[], stop: StopHook): Promise<Result[]> {
  const plan = planOutput(dir, files, inputs);
  if ('problems' in plan) return plan.problems;
  try {
    removeStaleTemps(dir, plan);
    await stageAndCommit(dir, plan, stop);
  } catch (error) {
    // A failed rename names its target in `dest`: the file the user can look at.
    const e = error as NodeJS.ErrnoException & { dest?: string };
    const where = e.dest ?? e.path;
    return [problem(dir, `cannot write the output there (${e.code ?? e.message}${where ? `: ${where}` : ''}); nothing was changed in it`)];
  }
  return [];
}

const problem = (path: string, message: string): Result => ({ severity: 'error', message, file: { path } });
const moveAway = 'move it away, or choose another -o DIR';

/** Checks every target before anything is written: the whole set can be written, and replaces only files of ours. */
function planOutput(dir: string, files: readonly OutputFile[], inputs: readonly string[]): Plan | { problems: Result[] } {
  const dirStat = statIfAny(dir);
  if (dirStat && !dirStat.isDirectory())
    return { problems: [problem(dir, `is not a directory; \`-o\` needs a directory (made when missing): choose another -o DIR`)] };
  const listed = dirStat ? readManifest(dir) : { names: new Set<string>(), exists: false };
  if ('problem' in listed) return { problems: [problem(join(dir, manifestName), listed.problem)] };

  const problems: Result[] = [];
  const inputPaths = new Set(inputs.map(realPath));
  const parents = new Map<string, boolean>();
  const targets: Plan['targets'] = [];
  for (const file of [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const path = join(dir, file.name);
    const blocked = blockedParent(dir, file.name, parents);
    if (blocked) {
      const link = lstatSync(blocked).isSymbolicLink();
      // Writing through a link would write outside DIR, over files `-o` never wrote.
      problems.push(
        problem(
          blocked,
          link
            ? `is a symbolic link where llsd-render needs a directory of its own for ${file.name} (it would write wherever the link leads): ${moveAway}`
            : `is a file where llsd-render needs a directory for ${file.name}: ${moveAway}`,
        ),
      );
      continue;
    }
    const target = checkTarget(path, file.name, listed.names, inputPaths);
    if ('problem' in target) problems.push(problem(path, target.problem));
    else targets.push({ file, path, exists: target.exists });
  }
  if (problems.length > 0) return { problems };
  const written = new Set(targets.map((t) => t.path));
  const earlier = listed.exists ? [...listed.names].map((name) => join(dir, name)) : dirStat ? findYamlFiles([dir]).files : [];
  // Only a file that still carries the marker is removed: one a user put in its place stays.
  const stale = earlier.filter((path) => !written.has(path) && isOurs(path));
  // Nor is one removed through a link, as none is written through one: it would be a file outside
  // DIR (an attacker: `out/a -> ../outside` lost outside/quickstart.yaml).
  for (const path of stale) {
    const blocked = blockedParent(dir, relative(dir, path).split(sep).join('/'), parents);
    if (blocked) {
      const message = `is a symbolic link or a file where llsd-render removes a file it wrote (it would remove it wherever the link leads): ${moveAway}`;
      problems.push(problem(blocked, message));
    }
  }
  if (problems.length > 0) return { problems };
  return { targets, stale, manifestExists: listed.exists };
}

/** The first existing path between `dir` and `name` that is not a directory, a link to one included (each checked once per run). */
function blockedParent(dir: string, name: string, checked: Map<string, boolean>): string | undefined {
  const parts = name.split('/').slice(0, -1);
  let path = dir;
  for (const part of parts) {
    path = join(path, part);
    let ok = checked.get(path);
    if (ok === undefined) {
      const stat = lstatIfAny(path);
      ok = stat === undefined || stat.isDirectory();
      checked.set(path, ok);
    }
    if (!ok) return path;
  }
  return undefined;
}

function checkTarget(path: string, name: string, listed: ReadonlySet<string>, inputs: ReadonlySet<string>): { exists: boolean } | { problem: string } {
  let stat;
  try {
    stat = lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { exists: false };
    return { problem: cannotRead(error) };
  }
  if (stat.isDirectory()) return { problem: `is a directory where llsd-render needs to write the file ${name}: ${moveAway}` };
  if (!stat.isFile())
    return { problem: `is not a file llsd-render wrote (a symbolic link or a special file), and it needs to write ${name} there: ${moveAway}` };
  let marked: boolean;
  try {
    marked = startsWithMarker(path);
  } catch (error) {
    return { problem: `${cannotRead(error)}, so llsd-render cannot tell whether it wrote it: ${moveAway}` };
  }
  // A file that starts with the marker is not read as input, so only an unmarked one can be both.
  if (!marked && inputs.has(realPath(path))) {
    return {
      problem:
        'is also an input of this build, and `-o` would overwrite it with generated objects: choose an -o DIR apart from the input files (e.g. `-o ' +
          'rendered`), or move this file',
    };
  }
  if (!marked && !listed.has(name)) {
    return {
      problem: `was not written by llsd-render build -o (it is not in ${manifestName} and does not start with the "# Generated by llsd-render" line), and ` +
        `\`-o\` would overwrite it: ${moveAway}`,
    };
  }
  return { exists: true };
}

/** The names DIR/.llsd-render-output lists; one that would leave DIR is ignored (the file may have been edited). */
function readManifest(dir: string): { names: Set<string>; exists: boolean } | { problem: string } {
  const path = join(dir, manifestName);
  let text: string;
  try {
    if (!lstatSync(path).isFile()) return { problem: `is not the file llsd-render writes there: ${moveAway}` };
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { names: new Set(), exists: false };
    return { problem: cannotRead(error) };
  }
  if (!text.startsWith(manifestHeader.slice(0, manifestHeader.indexOf(':'))))
    return { problem: `was not written by llsd-render build -o, and \`-o\` writes its list of files there: ${moveAway}` };
  const names = text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .filter((name) => !isAbsolute(name) && normalize(name) === name && !name.split(sep).includes('..'));
  return { names: new Set(names), exists: true };
}

const manifestText = (targets: Plan['targets']): string => manifestHeader + targets.map((t) => `${t.file.name}\n`).join('');

/** What a stop signal undoes before the process exits (set while files are staged). */
interface StopHook {
  undo?: (() => void) | undefined;
}

/** Stages every file, keeps the old ones aside, and commits; on any failure or signal, DIR is as it was. */
async function stageAndCommit(dir: string, plan: Plan, stop: StopHook): Promise<void> {
  const created: string[] = [];
  const staging = join(dir, stagingName(process.pid));
  const undo = (): void => {
    rmSync(staging, { recursive: true, force: true });
    removeEmptyDirs(created);
  };
  stop.undo = undo;
  try {
    makeDir(dir, created);
    mkdirSync(staging);
    const moves: Array<[string, string]> = [];
    for (const [i, target] of plan.targets.entries()) {
      const staged = join(staging, `${i}.yaml`);
      writeFileSync(staged, outputMarker + target.file.text());
      moves.push([staged, target.path]);
      if (i % filesPerTurn === filesPerTurn - 1) await new Promise(setImmediate);
    }
    const manifest = join(dir, manifestName);
    writeFileSync(join(staging, 'manifest'), manifestText(plan.targets));
    moves.push([join(staging, 'manifest'), manifest]);

    const replaced = [...plan.targets.filter((t) => t.exists).map((t) => t.path), ...plan.stale, ...(plan.manifestExists ? [manifest] : [])];
    const aside = new Map(replaced.map((path, i) => [path, keepAside(path, join(staging, `old-${i}`))]));
    for (const parent of new Set(plan.targets.map((t) => dirname(t.path)))) makeDir(parent, created);
    commit(moves, plan.stale, aside);
    removeEmptiedDirs(dir, plan.stale);
    // Committed: a signal from here on leaves the new set, and only the staging directory to tidy.
    stop.undo = () => rmSync(staging, { recursive: true, force: true });
  } catch (error) {
    undo();
    stop.undo = undefined;
    throw error;
  }
  try {
    rmSync(staging, { recursive: true, force: true });
  } catch {
    // The new set is in place; the next run removes what is left here (removeStaleTemps).
  }
  stop.undo = undefined;
  // A signal that came during the commit is handled now, with the new set complete.
  await new Promise(setImmediate);
}

/**
 * Renames each staged file over its target and removes the stale ones, in one synchronous loop;
 * if a step fails, every step done is undone from the files kept aside, and the error is thrown.
 */
function commit(moves: ReadonlyArray<[string, string]>, stale: readonly string[], aside: ReadonlyMap<string, string>): void {
  const undo: Array<() => void> = [];
  try {
    for (const [from, to] of moves) {
      renameSync(from, to);
      const old = aside.get(to);
      undo.push(old === undefined ? () => rmSync(to, { force: true }) : () => renameSync(old, to));
    }
    for (const path of stale) {
      rmSync(path);
      const old = aside.get(path) as string;
      undo.push(() => renameSync(old, path));
    }
  } catch (error) {
    for (const step of undo.reverse()) {
      try {
        step();
      } catch {
        // Put back every other file that can be.
      }
    }
    throw error;
  }
}

/** A second name for `path` in the staging directory, to put it back with; a copy where hard links are not allowed. */
function keepAside(path: string, aside: string): string {
  try {
    linkSync(path, aside);
  } catch {
    copyFileSync(path, aside);
  }
  return aside;
}

/** Makes `path` with its missing parents, and records each directory made, outermost first. */
function makeDir(path: string, created: string[]): void {
  const first = mkdirSync(path, { recursive: true });
  if (first === undefined) return;
  const top = resolve(first);
  const chain: string[] = [];
  for (let p = resolve(path); ; p = dirname(p)) {
    chain.unshift(p);
    if (p === top || p === dirname(p)) break;
  }
  created.push(...chain);
}

/** Removes the directories this run made, innermost first, where they are empty again. */
function removeEmptyDirs(created: readonly string[]): void {
  for (const dir of [...created].reverse()) {
    try {
      rmdirSync(dir);
    } catch {
      // Not empty or already gone: leave it.
    }
  }
}

/**
 * Removes the directories under DIR that removing the stale files emptied (`<namespace>/` once the
 * last LLSD of a namespace is gone), innermost first, up to DIR itself, which stays. A directory
 * that still holds anything, or that held no stale file, stays: an empty one of the user's is theirs.
 */
function removeEmptiedDirs(dir: string, stale: readonly string[]): void {
  const top = resolve(dir);
  const emptied = new Set<string>();
  for (const path of stale) for (let p = dirname(resolve(path)); p.startsWith(top + sep); p = dirname(p)) emptied.add(p);
  // Deepest first, so a parent is tried after its children are gone.
  for (const each of [...emptied].sort((a, b) => b.length - a.length)) {
    try {
      rmdirSync(each);
    } catch {
      // Not empty (a file of the user's, or one this run wrote): it stays.
    }
  }
}

/**
 * Removes what a run that was killed (SIGKILL, a power cut) left: its staging directory in DIR, and
 * the temporary files older versions wrote beside their targets, in DIR and in the directories it
 * writes. A process that still runs may be using them: its files stay.
 */
function removeStaleTemps(dir: string, plan: Plan): void {
  const dirs = new Set([dir, ...plan.targets.map((t) => dirname(t.path)), ...plan.stale.map((path) => dirname(path))]);
  for (const each of dirs) {
    let names: string[];
    try {
      names = readdirSync(each);
    } catch {
      continue;
    }
    for (const name of names) {
      const staging = each === dir ? stagingPattern.exec(name) : null;
      const beside = besideTargetPattern.exec(name);
      const pid = Number((staging ?? beside)?.[1]);
      if (!(staging ?? beside) || isRunning(pid)) continue;
      rmSync(join(each, name), { recursive: staging !== null, force: true });
    }
  }
}

function isRunning(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  // A run killed by SIGKILL leaves its lock, and its pid may since be another program's: where
  // /proc tells what a process runs, only an llsd-render holds the lock (process 1 after a reboot did).
  let commandLine: string;
  try {
    commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return true;
  }
  return commandLine.includes('llsd-render');
}

/** Runs `stop(exit code)` on SIGINT, SIGTERM or SIGHUP instead of dying at once; returns the function that uninstalls it. */
function onStopSignals(stop: (code: number) => void): () => void {
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  const handlers = signals.map((signal) => {
    const handler = (): void => stop(128 + constants.signals[signal]);
    process.on(signal, handler);
    return [signal, handler] as const;
  });
  return () => {
    for (const [signal, handler] of handlers) process.off(signal, handler);
  };
}

function isOurs(path: string): boolean {
  try {
    return lstatSync(path).isFile() && startsWithMarker(path);
  } catch {
    return false;
  }
}

function startsWithMarker(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const bytes = Buffer.alloc(Buffer.byteLength(outputMarker));
    const n = readSync(fd, bytes, 0, bytes.length, 0);
    return n === bytes.length && bytes.toString('utf8') === outputMarker;
  } finally {
    closeSync(fd);
  }
}

function lstatIfAny(path: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

function statIfAny(path: string): ReturnType<typeof statSync> | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

