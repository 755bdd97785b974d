// `build` keeps the YAML of generated objects in a temporary file until the whole render is known
// to be free of errors (nothing is printed before that). Held in memory, the output of 10,000
// LLSDs is 165 MB of text; on disk it costs the page cache, and the file is unlinked as soon as it
// is open, so nothing is left behind whatever ends the process.
import { closeSync, constants, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OutputStore } from '../krm/resource-list.js';

/** Texts are appended to the file in blocks of this size, and read back in blocks at least this large. */
const blockBytes = 1 << 20;

/**
 * The store in a file, opened by `open` when the first block is full: a small render (one LLSD
 * under kpt) makes no file at all. Exported for its tests (a write to /dev/full fails as a full disk does).
 */
export class FileStore implements OutputStore {
  /** Offset and byte length of each text, by handle. */
  private readonly spans: number[] = [];
  /** Texts not yet written, from handle `pendingFrom` on. */
  private pending: string[] = [];
  private pendingFrom = 0;
  private pendingBytes = 0;
  private written = 0;
  private fd: number | undefined;
  private block: { start: number; bytes: Buffer } | undefined;
  /** Once the file cannot be made or written (a full disk), the texts from there on, in memory, by handle. */
  private memory: Map<number, string> | undefined;

  constructor(private readonly open: () => number) {}

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
    if (handle >= this.pendingFrom) return this.pending[handle - this.pendingFrom] as string;
    const start = this.spans[2 * handle] as number;
    const length = this.spans[2 * handle + 1] as number;
    // Texts are read back in the order they were put: one read serves many of them.
    if (!this.block || start < this.block.start || start + length > this.block.start + this.block.bytes.length) {
      const bytes = Buffer.allocUnsafe(Math.max(length, blockBytes));
      const read = readSync(this.fd as number, bytes, 0, bytes.length, start);
      this.block = { start, bytes: bytes.subarray(0, read) };
    }
    const from = start - this.block.start;
    return this.block.bytes.toString('utf8', from, from + length);
  }

  /** Closes the file, if one was made. */
  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private flush(): void {
    const data = Buffer.from(this.pending.join(''));
    try {
      this.fd ??= this.open();
      let done = 0;
      while (done < data.length) done += writeSync(this.fd, data, done, data.length - done, this.written + done);
      this.written += data.length;
    } catch {
      // No file can be made, or the disk is full or failing: what was not written stays in memory, and so does what comes.
      this.memory = new Map();
      this.pending.forEach((text, i) => (this.memory as Map<number, string>).set(this.pendingFrom + i, text));
    }
    this.pendingFrom += this.pending.length;
    this.pending = [];
    this.pendingBytes = 0;
  }
}

/**
 * A store in a new unlinked file under the system's temporary directory, made once its first block
 * is full, or in memory where no file can be made there (a read-only file system). `close`
 * releases the file.
 */
export function openOutputStore(): { store: OutputStore; close: () => void } {
  const store = new FileStore(openUnlinkedFile);
  return { store, close: () => store.close() };
}

/**
 * A file under the temporary directory that has no name: it lives while open. On Linux, O_TMPFILE
 * makes it so at once, and nothing is left whatever kills the process; elsewhere (or a file
 * system without it) a new file in a new directory, both removed at once.
 */
function openUnlinkedFile(): number {
  if (process.platform === 'linux') {
    try {
      return openSync(tmpdir(), linuxTmpfile | constants.O_DIRECTORY | constants.O_RDWR, 0o600);
    } catch {
      // EOPNOTSUPP, EISDIR (a kernel before 3.11), EINVAL: the other way.
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'llsd-render-'));
  try {
    return openSync(join(dir, 'output.yaml'), 'w+', 0o600);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
/** Linux's __O_TMPFILE (the same on every architecture; Node's fs.constants has no O_TMPFILE). */
const linuxTmpfile = 0o20000000;
