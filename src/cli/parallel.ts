// Rendering many LLSDs in two threads. Each LLSD's render is pure and independent of the others
// (process.ts), so a worker thread takes some of them while the main thread takes the rest: each
// claims the next one from a shared counter (so neither waits for the other), and the worker
// sends back its outcomes, which `process` then takes as `earlier`, exactly as if it had rendered
// them itself: the output is the same bytes in the same order. The worker reads the input again
// itself (the items hold closures, which cannot cross threads), and writes its objects' YAML. Only
// for inputs large enough to pay for a second thread's start, and small enough that a second heap
// is no concern (a large input is rendered memory-first: src/cli/main.ts).
import { availableParallelism } from 'node:os';
import { Worker, type MessagePort } from 'node:worker_threads';
import { renderables, type EarlierOutcomes, type LlsdOutcome, type ProcessInput } from '../process.js';
import type { InputItem, KrmObject } from '../krm/item.js';
import { MemoryStore, Written } from '../krm/resource-list.js';
import type { Result } from '../krm/result.js';

/** How a worker reads the same input: the files and `--config` of `build`, or the ResourceList's text. */
export type ShareSource = { kind: 'build'; files: string[]; config?: string } | { kind: 'krm'; text: string };

export interface ShareRequest {
  llsdRenderShare: true;
  source: ShareSource;
  /** How many LLSDs the main thread found to render: the worker stops if it finds another number. */
  expected: number;
  /** Int32Array[1] over a SharedArrayBuffer: the next LLSD to claim. */
  next: SharedArrayBuffer;
  /** Write each object's YAML (the main thread keeps its output in a store). */
  written: boolean;
}

/** An outcome as it crosses threads: objects as their YAML (or as plain objects, without a store). */
interface SentOutcome {
  results: Result[];
  rendered?: { objects: Array<{ object: KrmObject; text?: string }>; summary: Result; path?: string };
  pendingImage?: string;
}

/** Fewer LLSDs than this render in one thread: a worker's start (~100 ms of the other core) would not pay. */
const MIN_LLSDS = 100;

/**
 * The outcome of every LLSD of `input`, rendered in this thread and a worker, or undefined when one
 * thread is better (few LLSDs, one core, `LLSD_RENDER_THREADS=1`, no bundle to start). A worker
 * that fails or sends nothing leaves its LLSDs to this thread: never a lost or partial result.
 */
export async function renderedInParallel(input: ProcessInput, source: ShareSource | undefined, env: Readonly<Record<string, string | undefined>>): Promise<EarlierOutcomes | undefined> {
  const bundle = process.argv[1];
  if (source === undefined || bundle === undefined || env.LLSD_RENDER_THREADS === '1' || availableParallelism() < 2 || input.earlier !== undefined) return undefined;
  const { items, render } = renderables(input);
  if (items.length < MIN_LLSDS) return undefined;
  const next = new SharedArrayBuffer(4);
  const counter = new Int32Array(next);
  const request: ShareRequest = { llsdRenderShare: true, source, expected: items.length, next, written: input.store !== undefined };
  let worker: Worker | undefined;
  let sent: Promise<Array<[number, SentOutcome]>>;
  try {
    worker = new Worker(bundle, { workerData: request, stdout: true, stderr: true, argv: [] });
    const started = worker;
    sent = new Promise((resolve) => {
      started.once('message', (message: Array<[number, SentOutcome]>) => resolve(message));
      started.once('error', () => resolve([]));
      started.once('exit', () => resolve([]));
    });
  } catch {
    return undefined;
  }
  const outcomes: Array<LlsdOutcome | undefined> = new Array(items.length);
  for (let i = Atomics.add(counter, 0, 1); i < items.length; i = Atomics.add(counter, 0, 1)) outcomes[i] = render(items[i] as InputItem);
  const fromWorker = await sent;
  for (const [i, outcome] of fromWorker) outcomes[i] = received(outcome, input);
  void worker.terminate();
  if (env.LLSD_RENDER_DEBUG) process.stderr.write(`llsd-render: threads: a worker rendered ${fromWorker.length} of ${items.length} LLSDs\n`);
  // What the worker claimed and did not send (it failed): rendered here.
  return new Map(items.map((item, i) => [item, outcomes[i] ?? render(item)]));
}

function received(outcome: SentOutcome, input: ProcessInput): LlsdOutcome {
  if (!outcome.rendered) return outcome as LlsdOutcome;
  const { store } = input;
  const objects = outcome.rendered.objects.map(({ object, text }) => (store && text !== undefined ? new Written(object, store, text) : object));
  return { ...outcome, rendered: { ...outcome.rendered, objects } };
}

/** The worker's side: renders what it claims of `input` and sends the outcomes to the main thread. */
export function serveShare(input: ProcessInput, request: ShareRequest, port: MessagePort): void {
  const { items, render } = renderables({ ...input, ...(request.written && { store: new MemoryStore() }) });
  if (items.length !== request.expected) return port.postMessage([]);
  const counter = new Int32Array(request.next);
  const sent: Array<[number, SentOutcome]> = [];
  for (let i = Atomics.add(counter, 0, 1); i < items.length; i = Atomics.add(counter, 0, 1)) sent.push([i, sendable(render(items[i] as InputItem))]);
  port.postMessage(sent);
}

function sendable(outcome: LlsdOutcome): SentOutcome {
  if (!outcome.rendered) return outcome as SentOutcome;
  const objects = outcome.rendered.objects.map((o) => (o instanceof Written ? { object: o.object, text: o.yaml } : { object: o }));
  return { ...outcome, rendered: { ...outcome.rendered, objects } };
}
