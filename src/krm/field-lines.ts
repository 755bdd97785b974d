// The line of every field of a document, kept as one string instead of the parsed nodes, so that
// `build` can put lines on results about an LLSD it no longer holds parsed. It answers exactly as
// `lineOf` in yaml.ts does on the nodes: the line of the deepest field of the path that exists.
import { isMap, isPair, isScalar, isSeq, type LineCounter, type Node } from 'yaml';

/** One step down: `k` + a map key (as a string), or `i` + a sequence index. JSON keeps it one line. */
const mapStep = (key: string): string => JSON.stringify(`k${key}`);
const seqStep = (index: number): string => `"i${index}"`;

/** `\n<steps>\t<line>` for the root and every key and sequence item below it, steps joined by commas. */
export function fieldLinesOf(root: Node, lines: LineCounter): string {
  const out: string[] = [];
  const lineAt = (node: unknown): number | undefined => {
    const range = (node as { range?: [number, number, number] } | null)?.range;
    return range ? lines.linePos(range[0]).line : undefined;
  };
  const walk = (node: unknown, steps: string): void => {
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isPair(pair) || !isScalar(pair.key)) continue;
        const at = `${steps},${mapStep(String(pair.key.value))}`;
        const line = lineAt(pair.key);
        if (line !== undefined) out.push(`\n${at}\t${line}`);
        walk(pair.value, at);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, index) => {
        const at = `${steps},${seqStep(index)}`;
        const line = lineAt(item);
        if (line !== undefined) out.push(`\n${at}\t${line}`);
        walk(item, at);
      });
    }
  };
  const rootLine = lineAt(root);
  if (rootLine !== undefined) out.push(`\n\t${rootLine}`);
  walk(root, '');
  return `${out.join('')}\n`;
}

/** The line of the deepest field of `path` in an index from fieldLinesOf (as `lineOf` answers). */
export function fieldLine(index: string, path: ReadonlyArray<string | number>): number | undefined {
  const find = (steps: string): number | undefined => {
    const at = index.indexOf(`\n${steps}\t`);
    return at < 0 ? undefined : Number(index.slice(at + steps.length + 2, index.indexOf('\n', at + 1)));
  };
  let steps = '';
  let best = find(steps);
  for (const segment of path) {
    // A number may index a sequence or name a map key (`lineOf` compares keys as strings).
    const candidates = typeof segment === 'number' ? [seqStep(segment), mapStep(String(segment))] : [mapStep(segment)];
    let found = false;
    for (const step of candidates) {
      const line = find(`${steps},${step}`);
      if (line === undefined) continue;
      steps = `${steps},${step}`;
      best = line;
      found = true;
      break;
    }
    if (!found) break;
  }
  return best;
}
