// Reading a small file of our own kind (a cache entry, a credentials file) that someone else may
// have put in its place: a device, a fifo or a huge file is not one, and reading it could take all
// memory or never end.
import { readFileSync, statSync } from 'node:fs';

/** The text of `path` when it is a regular file of at most `maxBytes`; otherwise, or on any error, undefined. */
export function readSmallFile(path: string, maxBytes: number): string | undefined {
  try {
    const stat = statSync(path);
    if (!stat.isFile() || stat.size > maxBytes) return undefined;
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
