// The line of every field of a document, kept as one string instead of the parsed nodes, so that
// `build` can put lines on results about an LLSD it no longer holds parsed. It answers exactly as
// `lineOf` in yaml.ts does on the nodes: the line of the deepest field of the path that exists.
import { isMap, isPair, isScalar, isSeq, type LineCounter, type Node } from 'yaml';

/** One step down: `k` + a map key (as a string), or `i` + a sequence index; JSON keeps it on one line, between quotes. */
export const mapStep = (key: string): string => JSON.stringify(`k${key}`);
export const seqStep = (index: number): string => `"i${index}"`;

/**
 * An index being built, one field at a time in document order: one entry per field,
 * `\n<id>\t<parent id>\t<step>\t<line>`, the root being entry 0 with no parent (about 20
 * characters a field: 10,000 LLSDs keep 8 MB of them). A step is quoted and a line is not followed
 * by a tab, so `\t<parent>\t<step>\t` is found only where it is meant.
 */
export class FieldLineIndex {
  // Entries are joined a thousand at a time: a million small strings held at once (a ConfigMap
  // listing 1,000,000 items) cost more than the text they make.
  private readonly chunks: string[] = [];
  private entries: string[] = [];
  private count = 0;

  /** Adds the field reached from `parent` (-1 for the root) by `step`, at `line`; its id. */
  add(parent: number, step: string, line: number): number {
    const id = this.count++;
    this.entries.push(`\n${id}\t${parent}\t${step}\t${line}`);
    if (this.entries.length === 1024) {
      this.chunks.push(this.entries.join(''));
      this.entries = [];
    }
    return id;
  }

  toString(): string {
    return `${this.chunks.join('')}${this.entries.join('')}\n`;
  }
}

/** The index of a parsed document's fields (readBlockYaml builds the same one as it reads). */
export function fieldLinesOf(root: Node, lines: LineCounter): string {
  const index = new FieldLineIndex();
  const lineAt = (node: unknown): number | undefined => {
    const range = (node as { range?: [number, number, number] } | null)?.range;
    return range ? lines.linePos(range[0]).line : undefined;
  };
  const add = (parent: number, step: string, line: number | undefined): number | undefined => (line === undefined ? undefined : index.add(parent, step, line));
  const walk = (node: unknown, id: number): void => {
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isPair(pair) || !isScalar(pair.key)) continue;
        const child = add(id, mapStep(String(pair.key.value)), lineAt(pair.key));
        if (child !== undefined) walk(pair.value, child);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, index) => {
        const child = add(id, seqStep(index), lineAt(item));
        if (child !== undefined) walk(item, child);
      });
    }
  };
  const rootId = add(-1, '""', lineAt(root));
  if (rootId !== undefined) walk(root, rootId);
  return index.toString();
}

/** The line of the deepest field of `path` in an index from fieldLinesOf (as `lineOf` answers). */
export function fieldLine(index: string, path: ReadonlyArray<string | number>): number | undefined {
  /** The entry under `parent` for `step`: its id and line. */
  const table = index.length > largeIndex ? tableOf(index) : undefined;
  const find = (parent: number, step: string): { id: number; line: number } | undefined => {
    if (table) return table.get(`${parent}\t${step}`);
    const at = index.indexOf(`\t${parent}\t${step}\t`);
    if (at < 0) return undefined;
    const start = index.lastIndexOf('\n', at) + 1;
    const end = index.indexOf('\n', at);
    return { id: Number(index.slice(start, at)), line: Number(index.slice(at + parent.toString().length + step.length + 3, end)) };
  };
  let entry = find(-1, '""');
  let best = entry?.line;
  for (const segment of path) {
    if (!entry) break;
    // A number may index a sequence or name a map key (`lineOf` compares keys as strings).
    const parent = entry.id;
    const steps = typeof segment === 'number' ? [seqStep(segment), mapStep(String(segment))] : [mapStep(segment)];
    entry = undefined;
    for (const step of steps) {
      entry = find(parent, step);
      if (entry) break;
    }
    if (entry) best = entry.line;
  }
  return best;
}

/**
 * A large document's index as a table, made for the last index asked about once it has been asked
 * `searchesBeforeTable` times: each search of the string is linear, and a document with thousands
 * of problems (one unknown field in each of 20,000 list items) asked it once per problem, in
 * quadratic time. A few questions are searched as is: the table of a ConfigMap listing 1,000,000
 * items, made for one question and kept, cost more memory than the rest of its `build`.
 */
const largeIndex = 64 * 1024;
const searchesBeforeTable = 16;
let cached: { index: string; searches: number; table?: Map<string, { id: number; line: number }> } | undefined;

function tableOf(index: string): Map<string, { id: number; line: number }> | undefined {
  if (cached?.index !== index) cached = { index, searches: 0 };
  if (cached.table || ++cached.searches <= searchesBeforeTable) return cached.table;
  const table = new Map<string, { id: number; line: number }>();
  for (const entry of index.split('\n')) {
    if (entry === '') continue;
    const [id, parent, step, line] = entry.split('\t') as [string, string, string, string];
    const key = `${parent}\t${step}`;
    // The string search finds the first entry: so does the table.
    if (!table.has(key)) table.set(key, { id: Number(id), line: Number(line) });
  }
  cached.table = table;
  return table;
}
