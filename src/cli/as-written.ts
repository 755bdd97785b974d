// "quote it: "755"" for `n: 0755`: YAML read the number, and the stages, which see only the value,
// quote its shortest form back. Here, at the edge that has the files, the hint gets the text as the
// user wrote it (`0755`, `0x1F`, `1e3`, `+5`, `.5`), read from the field's line, and only when
// that text reads as the same value (else the hint stays as it was). Numbers and booleans only:
// never a Secret's value (a Secret's data is never checked for type here).
import { readFileSync, statSync } from 'node:fs';
import { parse } from 'yaml';
import { quoteItHint } from '../lib/issues.js';
import type { Result } from '../krm/result.js';

/** The most a file is read again for its lines: the input limit. */
const maxReread = 32 * 1024 * 1024;

/** `results` with each "quote it" hint quoting the text as written, where the file shows it. */
export function quotedAsWritten(results: readonly Result[]): Result[] {
  const lines = new Map<string, string[] | undefined>();
  const linesOf = (file: string): string[] | undefined => {
    if (!lines.has(file)) {
      let text: string | undefined;
      try {
        // A regular file only: the input may have been a pipe (a FIFO re-read blocked forever).
        const stat = statSync(file);
        text = stat.isFile() && stat.size <= maxReread ? readFileSync(file, 'utf8') : undefined;
      } catch {
        text = undefined;
      }
      lines.set(file, text?.split(/\r?\n/));
    }
    return lines.get(file);
  };
  return results.map((result) => {
    const hint = quoteItHint.exec(result.message);
    const file = result.file?.path;
    const key = lastKey(result.field?.path);
    if (!hint || file === undefined || result.line === undefined || key === undefined) return result;
    const line = linesOf(file)?.[result.line - 1];
    const written = line === undefined ? undefined : valueText(line, key);
    if (written === undefined || written === hint[1] || !readsAs(written, hint[1] as string)) return result;
    return { ...result, message: `${result.message.slice(0, hint.index)}; quote it: "${written}"` };
  });
}

/** The last key of a field path as results print it (`metadata.annotations.a`, `…["example.com/x"]`). */
function lastKey(path: string | undefined): string | undefined {
  if (path === undefined) return undefined;
  const quoted = /\[("(?:[^"\\]|\\.)*")\]$/.exec(path);
  if (quoted) return JSON.parse(quoted[1] as string) as string;
  return /(?:^|\.)([A-Za-z_][A-Za-z0-9_-]*)$/.exec(path)?.[1];
}

/** The plain scalar after `key:` on a line, in block (`key: 0755`) or flow (`{a: 0755, key: 1e3}`) style. */
function valueText(line: string, key: string): string | undefined {
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const found = new RegExp(`(?:^|[\\s{,])(?:${escaped}|"${escaped}"|'${escaped}')\\s*:\\s+([^\\s,}\\]#"']+)`).exec(line);
  const text = found?.[1];
  return text !== undefined && text.length <= 40 ? text : undefined;
}

/** Does `text`, read as YAML, give the value the hint quoted? */
function readsAs(text: string, shown: string): boolean {
  try {
    // Silent: a tag it cannot resolve printed a YAMLWarning on stderr.
    const value: unknown = parse(text, { logLevel: 'silent' });
    return (typeof value === 'number' || typeof value === 'boolean') && String(value) === shown;
  } catch {
    return false;
  }
}
