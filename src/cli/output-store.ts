// `build` keeps the YAML of generated objects in a temporary file until the whole render is known
// to be free of errors (nothing is printed before that). Held in memory, the output of 10,000
// LLSDs is 165 MB of text; on disk it costs the page cache, and the file is unlinked as soon as it
// is open, so nothing is left behind whatever ends the process.
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryStore, type OutputStore } from '../krm/resource-list.js';

/** Texts are appended to the file in blocks of this size, and read back in blocks at least this large. */
const blockBytes = 1 << 20;

/** The store in an open file (exported for its tests: a write to /dev/full fails as a full disk does). */
export class FileStore implements OutputStore {
  /** Offset and byte length of each text, by handle. */
  private readonly spans: number[] = [];
  private pending: string[] = [];
  private pendingBytes = 0;
  private written = 0;
  private block: { start: number; bytes: Buffer } | undefined;
  /** Once the file cannot be written (a full disk), the texts from there on, in memory, by handle. */
  private memory: Map<number, string> | undefined;

  constructor(private readonly fd: number) {}

  put(text: string): number {
    const handle = this.spans.length / 2;
    if (this.memory) {
      this.spans.push(-1, 0);
      this.memory.set(handle, text);
      return handle;
    }
    const bytes = Buffer.byteLength(text);
    this.spans.push(this.written + this.pendingBytes, bytes);
    this.pending.push(text);
    this.pendingBytes += bytes;
    if (this.pendingBytes >= blockBytes) this.flush();
    return handle;
  }

  get(handle: number): string {
    const kept = this.memory?.get(handle);
    if (kept !== undefined) return kept;
    const start = this.spans[2 * handle] as number;
    const length = this.spans[2 * handle + 1] as number;
    if (start + length > this.written) this.flush();
    if (this.memory?.has(handle)) return this.memory.get(handle) as string;
    // Texts are read back in the order they were put: one read serves many of them.
    if (!this.block || start < this.block.start || start + length > this.block.start + this.block.bytes.length) {
      const bytes = Buffer.allocUnsafe(Math.max(length, blockBytes));
      const read = readSync(this.fd, bytes, 0, bytes.length, start);
      this.block = { start, bytes: bytes.subarray(0, read) };
    }
    const from = start - this.block.start;
    return this.block.bytes.toString('utf8', from, from + length);
  }

  private flush(): void {
    const data = Buffer.from(this.pending.join(''));
    try {
      let done = 0;
      while (done < data.length) done += writeSync(this.fd, data, done, data.length - done, this.written + done);
      this.written += data.length;
    } catch {
      // The disk is full or failing: what was not written stays in memory, and so does what comes.
      this.memory = new Map();
      const first = this.spans.length / 2 - this.pending.length;
      this.pending.forEach((text, i) => (this.memory as Map<number, string>).set(first + i, text));
    }
    this.pending = [];
    this.pendingBytes = 0;
  }
}

/**
 * A store in a new unlinked file under the system's temporary directory, or in memory where no
 * file can be made there (a read-only file system). `close` releases the file.
 */
export function openOutputStore(): { store: OutputStore; close: () => void } {
  let dir: string | undefined;
  let fd: number | undefined;
  try {
    dir = mkdtempSync(join(tmpdir(), 'llsd-render-'));
    fd = openSync(join(dir, 'output.yaml'), 'w+', 0o600);
    rmSync(dir, { recursive: true, force: true });
    const open = fd;
    return { store: new FileStore(open), close: () => closeSync(open) };
  } catch {
    try {
      if (fd !== undefined) closeSync(fd);
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    } catch {
      // Nothing more to do: the store is in memory.
    }
    return { store: new MemoryStore(), close: () => {} };
  }
}
