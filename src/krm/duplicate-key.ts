// The message for a key seen twice in one mapping. At the top of a document, or of a ResourceList
// item, the likely cause is two objects run together (a missing `---` or `- `), and "keep only one"
// would merge them: the message says which line is missing.
import type { LineCounter } from 'yaml';

/** Where the key is, and where its mapping is in the document (keys and list positions from the root). */
export interface DuplicateKey {
  offset: number;
  end: number;
  path: ReadonlyArray<string | number>;
}

/** A key as text in a message: at most ~100 characters of it, control characters escaped (the key may be long, or forge lines). */
export function quotedKey(name: string): string {
  return JSON.stringify(name.length > 100 ? `${name.slice(0, 97)}...` : name);
}

/** A key seen before in its mapping, with what to do about it: a `---` or `- ` is often what is missing. */
export function duplicateKey(key: DuplicateKey, text: string, lines: LineCounter, stream: boolean): { message: string; line: number } {
  // An empty key is placed before the blanks and comments ahead of its `:`; the `:` is what the user sees.
  const offset = key.end > key.offset ? key.offset : key.offset + (/^(?:\s|#.*)*/.exec(text.slice(key.offset, key.offset + 1000))?.[0].length ?? 0);
  // Named as written, so the user finds it (an empty key has no name).
  const end = text.indexOf('\n', offset);
  const name = key.end > key.offset ? /^\s*(?:-\s+)?("[^"]*"|'[^']*'|[^:#]+?)\s*:/.exec(text.slice(offset, end === -1 ? undefined : end))?.[1] : undefined;
  const named = name ? `${quotedKey(name.replace(/^["']|["']$/g, ''))} ` : '';
  const { line } = lines.linePos(offset);
  if (stream && key.path.length === 1) {
    // At the top of a document (`apiVersion`, `kind`): "keep only one" would merge two objects into one.
    return {
      message: `the key ${named}appears twice at the top of this document: a \`---\` line is probably missing before this line, between two ` +
        `documents (objects); add \`---\` on a line of its own above it. If it is one object, keep only one ${named || 'such key '}`.trimEnd(),
      line,
    };
  }
  if (stream && key.path.length === 3 && key.path[0] === 'items' && typeof key.path[1] === 'number') {
    return {
      // kpt and kustomize build `items` from the user's files: there, the missing line is a `---` (a new user under kpt was told to add a `- `).
      message: `the key ${named}appears twice in one item of \`items\`: if kpt or kustomize read the item from your files, a \`---\` line is ` +
        `probably missing between two objects in that file (add it on a line of its own); in a ResourceList written by hand, a \`- \` before this ` +
        `line (start the second object with \`- \`, indented as the first). If it is one object, keep only one ${named || 'such key '}`.trimEnd(),
      line,
    };
  }
  return { message: `the key ${named}appears twice in one mapping; keep only one`, line };
}
