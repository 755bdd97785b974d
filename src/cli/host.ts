// Which host runs llsd-render, where it changes what is printed. Reads /proc: an edge, like stdin.
import { readFileSync } from 'node:fs';

/**
 * Is the parent process kpt? kpt shows the results of the ResourceList and, below them, a
 * function's stderr, so our stderr lines (docs/results.md, for kustomize, which shows no results) would
 * print every message twice. kpt runs an exec function directly (`#!/usr/bin/env node` execs node
 * in place), so the parent is kpt itself. Its environment cannot tell: the one variable kpt adds,
 * KUSTOMIZE_ENABLE_ALPHA_COMMANDS=true, may be set in any shell. Where the parent cannot be read
 * (no /proc, a container function, a wrapper script) the answer is no, and the lines stay: a
 * message shown twice is better than one never shown.
 */
export function parentIsKpt(ppid: number = process.ppid): boolean {
  try {
    return readFileSync(`/proc/${ppid}/comm`, 'utf8').trim() === 'kpt';
  } catch {
    return false;
  }
}
