// The file-system edge of `build` and `validate`: find the YAML files, parse them into items, and
// write `-o DIR` output without leaving half-written files.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { isMap } from 'yaml';
import { isKrmObject, type InputItem } from '../krm/item.js';
import type { Result } from '../krm/result.js';
import { prepareForOutput, parseYamlStream, toPlain } from '../krm/yaml.js';

export class UsageError extends Error {}

const isYamlFile = (name: string): boolean => name.endsWith('.yaml') || name.endsWith('.yml');
const skipped = (name: string): boolean => name.startsWith('.') || name === 'node_modules';

/** Every YAML file under the paths, in a fixed order (sorted by path, as the bytes compare). */
export function findYamlFiles(paths: readonly string[]): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (skipped(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && isYamlFile(entry.name)) found.push(path);
    }
  };
  for (const path of paths) {
    let stat;
    try {
      stat = statSync(path);
    } catch {
      throw new UsageError(`${path}: no such file or directory`);
    }
    if (stat.isDirectory()) walk(path);
    else found.push(path);
  }
  return [...new Set(found)];
}

/** Parses files into items; anything that is not a Kubernetes object is reported, never silently dropped. */
export function readItems(files: readonly string[]): { items: InputItem[]; results: Result[] } {
  const items: InputItem[] = [];
  const results: Result[] = [];
  for (const file of files) {
    const display = relative(process.cwd(), file) || file;
    const { documents, problems, lines } = parseYamlStream(readFileSync(file, 'utf8'));
    for (const problem of problems) {
      const result: Result = { severity: 'error', message: `not valid YAML: ${problem.message}`, file: { path: display } };
      if (problem.line) result.line = problem.line;
      results.push(result);
    }
    documents.forEach((doc, index) => {
      if (doc.node === null) return;
      const object = isMap(doc.node) ? toPlain(doc.node) : undefined;
      if (!isKrmObject(object) || !isMap(doc.node)) {
        results.push({
          severity: 'warning',
          message: 'skipped: not a Kubernetes object (it needs string `apiVersion`, `kind` and `metadata.name`)',
          file: { path: display, index },
          line: doc.line,
        });
        return;
      }
      prepareForOutput(doc.node);
      items.push({ node: doc.node, object, origin: { file: display, index, lines } });
    });
  }
  return { items, results };
}

/**
 * Writes `files` (path relative to `dir` → text) so that each file is either its old self or
 * complete: every file is written beside its target first, then renamed over it.
 */
export function writeFilesAtomically(dir: string, files: ReadonlyMap<string, string>): void {
  const staged: Array<[string, string]> = [];
  try {
    for (const [name, text] of files) {
      const target = join(dir, name);
      mkdirSync(dirname(target), { recursive: true });
      const temp = `${target}.llsd-render-${process.pid}.tmp`;
      writeFileSync(temp, text);
      staged.push([temp, target]);
    }
  } catch (error) {
    for (const [temp] of staged) rmSync(temp, { force: true });
    throw error;
  }
  for (const [temp, target] of staged) renameSync(temp, target);
}
