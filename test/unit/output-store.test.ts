// Where `build` keeps its output until it is known to be free of errors (src/cli/output-store.ts),
// and how it hands that output to a slow reader.
import { closeSync, constants, mkdtempSync, openSync, readdirSync, readlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { FileStore, openOutputStore } from '../../src/cli/output-store.js';
import { MemoryStore } from '../../src/krm/resource-list.js';

const repoRoot = join(import.meta.dirname, '..', '..');

describe('the output store', () => {
  it('gives back every text exactly, in any order, across its 1 MiB blocks (multi-byte characters included)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 300 }), fc.constant('x'.repeat(700_000)), fc.constant('é'.repeat(400_000))), {
          minLength: 1,
          maxLength: 12,
        }),
        fc.boolean(),
        (texts, reversed) => {
          const { store, close } = openOutputStore();
          try {
            const handles = texts.map((text) => store.put(text));
            const order = reversed ? [...handles.keys()].reverse() : [...handles.keys()];
            for (const i of order) expect(store.get(handles[i] as number)).toBe(texts[i]);
            // Reading some back before more are put, as when output is written while rendering.
            const late = store.put('late');
            expect(store.get(late)).toBe('late');
            expect(store.get(handles[0] as number)).toBe(texts[0]);
          } finally {
            close();
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('leaves no file behind in the temporary directory, even while open', () => {
    // A directory of this test's own: other tests make llsd-render-* directories in the shared one.
    const dir = mkdtempSync(join(tmpdir(), 'output-store-test-'));
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = dir;
    try {
      const { store, close } = openOutputStore();
      store.put('text');
      // Past the first block the texts are in the file, which is unlinked as soon as it is open.
      store.put('x'.repeat(1_100_000));
      store.put('after');
      expect(readdirSync(dir)).toEqual([]);
      expect(store).not.toBeInstanceOf(MemoryStore);
      expect([store.get(0), store.get(1).length, store.get(2)]).toEqual(['text', 1_100_000, 'after']);
      // Where the file system has O_TMPFILE (Linux), the file never had a name: no moment in which
      // a kill could leave it. Elsewhere it was made in a directory of its own, both removed at once.
      const nameless = ((): boolean => {
        try {
          closeSync(openSync(dir, 0o20000000 | constants.O_DIRECTORY | constants.O_RDWR, 0o600));
          return process.platform === 'linux';
        } catch {
          return false;
        }
      })();
      const open = readdirSync('/proc/self/fd').map((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`);
        } catch {
          return '';
        }
      });
      const expected = nameless ? `^${dir}/#\\d+ \\(deleted\\)$` : `^${dir}/llsd-render-[^/]+/output\\.yaml \\(deleted\\)$`;
      expect(open.filter((target) => target.startsWith(`${dir}/`))).toEqual([expect.stringMatching(new RegExp(expected))]);
      close();
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
  });

  it('a file that cannot be written (a full disk: /dev/full) keeps the texts in memory instead, every one intact', () => {
    const fd = openSync('/dev/full', 'r+');
    try {
      const store = new FileStore(() => fd);
      const texts = ['a'.repeat(700_000), 'é'.repeat(400_000), 'after the failure', 'x'.repeat(2_000_000), 'last'];
      const handles = texts.map((text) => store.put(text));
      texts.forEach((text, i) => expect(store.get(handles[i] as number)).toBe(text));
    } finally {
      closeSync(fd);
    }
  });
  it('makes no file for a small output, and keeps the texts in memory where no file can be made', () => {
    let opened = 0;
    const small = new FileStore(() => {
      opened++;
      throw new Error('a read-only file system');
    });
    expect(small.put('one LLSD')).toBe(0);
    expect(small.get(0)).toBe('one LLSD');
    expect(opened).toBe(0);
    const texts = ['a'.repeat(700_000), 'é'.repeat(400_000), 'after the failure'];
    const handles = texts.map((text) => small.put(text));
    expect(opened).toBe(1);
    texts.forEach((text, i) => expect(small.get(handles[i] as number)).toBe(text));
    expect(small.get(0)).toBe('one LLSD');
  });
});

describe('build output to a slow reader', () => {
  it('waits for each write the reader is behind on before writing the next document', async () => {
    let pending = 0;
    let mostPending = 0;
    let documents = 0;
    const stdout = (text: string): Promise<void> => {
      if (text.startsWith('---') || documents === 0) documents++;
      pending++;
      mostPending = Math.max(mostPending, pending);
      return new Promise((resolve) => setTimeout(() => {
        pending--;
        resolve();
      }, 1));
    };
    const code = await main({ argv: ['build', join(repoRoot, 'examples', 'quickstart')], readStdin: async () => '', stdout, stderr: () => {} });
    expect(code).toBe(0);
    expect(documents).toBeGreaterThan(3);
    expect(mostPending).toBe(1);
  });
});
