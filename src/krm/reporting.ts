// Results about input items, as every stage and the command line report them: a stage's problem as
// the result of the item it is about, and the cap that keeps a large input's results readable.
import type { FieldProblem } from '../lib/issues.js';
import { count as grouped, elide } from '../lib/quote.js';
import { resultFor, type InputItem } from './item.js';
import { sortResults, type Result, type WarningCode } from './result.js';

/** A stage's problem as the result of `item`: a warning keeps its code. */
export const fromProblem = (item: InputItem, problem: FieldProblem): Result => {
  const result = resultFor(item, problem.severity ?? 'error', problem.message, problem.path);
  return problem.severity === 'warning' ? { ...result, code: problem.code } : result;
};

export const warningFor = (item: InputItem, code: WarningCode, message: string, path: FieldProblem['path']): Result => ({
  ...resultFor(item, 'warning', message, path),
  code,
});


/** How many warnings of one code one file shows. */
export const MAX_WARNINGS_OF_A_CODE = 10;

/**
 * `sorted` with at most `MAX_WARNINGS_OF_A_CODE` warnings of one code per file, then one warning
 * of that code that counts the rest: 20,000 documents that are no Kubernetes object give 11
 * stderr lines, not 20,000. The count goes where the first one left out was (its file index and
 * line), so it sorts after those shown.
 */
export function capWarningsPerFile(sorted: readonly Result[]): Result[] {
  const groups = new Map<string, { shown: number; hidden: Result[] }>();
  const out: Result[] = [];
  for (const result of sorted) {
    // Warnings by code; errors (which have none) by field and very message, as an object
    // defined 5,000 times over gives 4,999 of the same line (attacker round 7).
    const capped = result.file !== undefined && ((result.severity === 'warning' && result.code !== undefined) || result.severity === 'error');
    if (!capped || result.file === undefined) {
      out.push(result);
      continue;
    }
    const key =
      result.severity === 'error'
        ? `error\u0000${result.file.path}\u0000${result.field?.path ?? ''}\u0000${result.message}`
        : `${result.code}\u0000${result.file.path}`;
    const group = groups.get(key) ?? { shown: 0, hidden: [] };
    groups.set(key, group);
    if (group.shown < MAX_WARNINGS_OF_A_CODE) {
      group.shown++;
      out.push(result);
    } else group.hidden.push(result);
  }
  const counts = [...groups.values()].flatMap(({ hidden }) => (hidden[0] === undefined ? [] : [leftOutCount(hidden[0], hidden.length)]));
  return counts.length === 0 ? out : sortResults([...out, ...counts]);
}

/** The warning that stands for `n` warnings like `first` left out of one file. */
function leftOutCount(first: Result, n: number): Result {
  const { file, line, code: warningCode } = first;
  if (first.severity === 'error') {
    return {
      severity: 'error',
      ...(file !== undefined && { file }),
      ...(line !== undefined && { line }),
      message: `${grouped(n)} more of the same error (${elide(first.message, 80)}), from this line of the file on, are left out`,
    };
  }
  return {
    severity: 'warning',
    ...(warningCode !== undefined && { code: warningCode }),
    ...(file !== undefined && { file }),
    ...(line !== undefined && { line }),
    message:
      `${grouped(n)} more ${n === 1 ? 'warning' : 'warnings'} like the ${MAX_WARNINGS_OF_A_CODE} above, from this line of the file on, are left out; ` +
      'fix those shown (or silence the code), then run again',
  };
}
