// Entry point of the bundle: wire the process to `main` and exit with its code. Only bugs throw
// this far; they are reported without a stack trace unless LLSD_RENDER_DEBUG is set, and in KRM
// mode as a ResourceList with one error result, since kpt and kustomize expect one on stdout.
import { once } from 'node:events';
import { constants } from 'node:os';
import { DamagedBundle } from './catalog/files.js';
import { Interrupted, maxInputBytes } from './cli/files.js';
import { parentIsKpt } from './cli/host.js';
import { main, readAll, readAllSync } from './cli/main.js';
import { writeResourceList } from './krm/resource-list.js';

// SIGUSR1 would start Node's inspector on 127.0.0.1:9229 (any local process that may signal this
// one could then run code in it, and the long-running webhook is such a process); a listener of our
// own takes the signal instead. Node 20 has no --disable-sigusr1 (attacker round 7).
process.on('SIGUSR1', () => {});

const argv = process.argv.slice(2);
/** KRM function mode: no command. */
const krmMode = argv.length === 0;

const write = (stream: NodeJS.WriteStream) => (text: string) => void stream.write(text);
// A pipe is written asynchronously: past its buffer, text waits in memory until the reader takes it.
const writeStdout = (text: string): Promise<void> | undefined => (process.stdout.write(text) ? undefined : once(process.stdout, 'drain').then(() => {}));

// A reader that stops early (`llsd-render build app | head -c 10`, a tool that dies mid-way)
// leaves what it read incomplete: exit 1, with a line on stderr that says what was not delivered,
// as for output that cannot be written at all (a full disk: `> /dev/full`); never exit 0, which a
// pipeline or Argo CD would take for the whole output. (Node ignores SIGPIPE, so the write fails
// with EPIPE instead of killing the process as it would a C tool.) Output the pipe took in full
// before its reader stopped was delivered, as far as any writer can know.
const undelivered = krmMode ? 'the rest of the ResourceList' : argv[0] === 'build' ? 'the rest of the YAML stream' : `the rest of the output of ${argv[0]}`;
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (stream === process.stdout) {
      try {
        process.stderr.write(
          error.code === 'EPIPE'
            ? `llsd-render: stdout was closed before the output was complete (EPIPE: its reader stopped reading); ${undelivered} was not delivered, so ` +
                'what was read is incomplete\n'
            : `llsd-render: cannot write the output to stdout (${error.code ?? error.message}); what was written is incomplete\n`,
        );
      } catch {
        // stderr cannot be written either: the exit code is all that is left.
      }
    }
    process.exit(1);
  });
}

// If the work left nothing to wait for without finishing (a library that never settles its
// promise), Node would exit 0 with no output, which Argo CD takes as "prune everything".
let settled = false;
process.on('beforeExit', () => {
  if (settled) return;
  settled = true;
  const message = 'internal error: the render stopped before it finished; nothing was written. Please report this with the input that caused it.';
  process.stderr.write(`llsd-render: ${message}\n`);
  if (krmMode) process.stdout.write(errorList(message));
  process.exitCode = 1;
});

main({
  argv,
  readStdin: async () => {
    const limit = maxInputBytes(process.env);
    return readAllSync(0, limit) ?? readAll(process.stdin, limit);
  },
  stdout: writeStdout,
  stderr: write(process.stderr),
  hostShowsResults: krmMode && parentIsKpt(),
}).then(
  (code) => {
    settled = true;
    process.exitCode = code;
  },
  (error: unknown) => {
    settled = true;
    if (error instanceof Interrupted) {
      endAsSignal(error.signal);
      return;
    }
    if (error instanceof DamagedBundle) {
      const message = `${process.argv[1]} is damaged (${error.message}): build it again with \`npm run build\`, or take a fresh copy`;
      process.stderr.write(`llsd-render: ${message}\n`);
      if (krmMode) process.stdout.write(errorList(message));
      process.exitCode = 2;
      return;
    }
    const detail = process.env.LLSD_RENDER_DEBUG ? String((error as Error)?.stack ?? error) : String((error as Error)?.message ?? error);
    process.stderr.write(`llsd-render: internal error: ${detail}\nPlease report this with the input that caused it; set LLSD_RENDER_DEBUG=1 for details.\n`);
    // The detail stays on stderr: a bug's message may quote input, and the list is written to the package.
    if (krmMode)
      process.stdout.write(
        errorList(
          'internal error: llsd-render failed (the detail is on stderr). Please report this with the input that caused it; set LLSD_RENDER_DEBUG=1 for ' +
            'details.',
        ),
      );
    process.exitCode = 1;
  },
);

/**
 * A stop signal that interrupted reading the input without ending the process (node as PID 1 of a
 * container ignores it after its own handler ran): end as the signal would have, with 128 + its
 * number, and nothing on stdout, as when it kills the process elsewhere.
 */
function endAsSignal(signal: NodeJS.Signals): void {
  process.stderr.write(`llsd-render: stopped by ${signal} while reading the input; nothing was written\n`);
  process.exitCode = 128 + constants.signals[signal];
}

/** A ResourceList with no items and one error result: what kpt shows when the function failed. */
function errorList(message: string): string {
  try {
    return writeResourceList([], [{ severity: 'error', message }]);
  } catch {
    // The writer itself failed: a fixed list that says so.
    return 'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nresults:\n  - severity: error\n    message: "internal error: llsd-render ' +
      'failed; run it with LLSD_RENDER_DEBUG=1 for details"\n';
  }
}
