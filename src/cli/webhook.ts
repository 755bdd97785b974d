// `llsd-render webhook`: the CRD conversion webhook, an HTTPS server on node:https. It answers
// ConversionReview POSTs at `/convert` (and `/`) with `reviewConversionSteps` (src/convert/conversion-review.ts),
// a slice of objects at a time, and `GET /healthz` with 200; it stops gracefully on SIGTERM or SIGINT.
//
// Every client is bounded (webhookLimits, docs/api.md): the TLS handshake, the whole request (headers,
// body and answer), the weight of one body (its size, or its JSON values counted before it is
// parsed), the weight of all bodies together, how deep a body nests (parseReviewBody) and how many
// objects a review holds. A client past a bound gets an HTTP answer where one can still be given, and
// its connection is closed; no client can hold the server's memory or a connection for longer.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { Socket } from 'node:net';
import { parseReviewBody, reviewConversionSteps, type ReviewAnswer } from '../convert/conversion-review.js';
import { jsonCost } from '../lib/json-cost.js';
import { conversionAnnotation } from '../llsd/conversion.js';
import type { ExitCode } from '../krm/result.js';
import { exactJson } from '../lib/exact-integer.js';
import { readInputFile } from './files.js';
import { connectionLimit, type ConnectionLimit } from './webhook-connections.js';

export interface WebhookOptions {
  cert: string;
  key: string;
  port: number;
  address: string;
}

type Env = Readonly<Record<string, string | undefined>>;

/** The bounds on every client, from the environment (docs/api.md, `webhook --help`). */
export interface WebhookLimits {
  /** A request ends this long after its first byte: headers, body and the answer taken. */
  requestTimeoutMs: number;
  /** A connection that has not finished its TLS handshake this long after it opened is closed. */
  handshakeTimeoutMs: number;
  /** The largest body of one request (413 past it). */
  maxBodyBytes: number;
  /** The most body bytes held for all requests at once (503 past it, so the client retries). */
  maxInFlightBytes: number;
  /** The most connections open at once (each costs tens of kB); see webhook-connections.ts for one past it. */
  maxConnections: number;
}

const MiB = 1024 * 1024;

/** The variables, their defaults and units. The API server sends at most a few objects of ~1.5 MiB each. */
const limitVariables = [
  { name: 'LLSD_RENDER_WEBHOOK_REQUEST_TIMEOUT', field: 'requestTimeoutMs', fallback: 30, scale: 1000, unit: 'seconds' },
  { name: 'LLSD_RENDER_WEBHOOK_HANDSHAKE_TIMEOUT', field: 'handshakeTimeoutMs', fallback: 10, scale: 1000, unit: 'seconds' },
  { name: 'LLSD_RENDER_WEBHOOK_MAX_BODY_MB', field: 'maxBodyBytes', fallback: 16, scale: MiB, unit: 'MiB' },
  { name: 'LLSD_RENDER_WEBHOOK_MAX_INFLIGHT_MB', field: 'maxInFlightBytes', fallback: 32, scale: MiB, unit: 'MiB' },
  // The API server keeps a few connections to a webhook; 4,000 idle ones held 242 MB.
  { name: 'LLSD_RENDER_WEBHOOK_MAX_CONNECTIONS', field: 'maxConnections', fallback: 256, scale: 1, unit: 'connections' },
] as const;

const maxScaled = 2 ** 31 - 1;
/** How long in-flight requests may take to finish after a stop signal. */
const stopGraceMs = 10_000;
/**
 * What a part of a JSON body (countJsonParts: a value, a key, structure inside a string) weighs
 * against the body limits, in bytes: parsed, a value takes tens of bytes whatever its text (an
 * empty object about 35 times its 2 bytes).
 */
const partWeight = 64;
/** The buffer a body starts in; it doubles as bytes arrive. */
const firstBufferBytes = 64 * 1024;
/** How long a conversion runs before the server answers other requests. */
const sliceMs = 10;
/** How long a connection past its deadline may take to receive the 408 before it is cut. */
const lastWordMs = 250;
/** How long after the deadline Node's own request timeout cuts a request that enforceDeadline did not. */
const nodeBackstopMs = 1000;

/** The limits set in `env`, or why one of its values cannot be used. */
export function webhookLimits(env: Env): { ok: true; limits: WebhookLimits } | { ok: false; message: string } {
  const limits = {} as WebhookLimits;
  for (const v of limitVariables) {
    const text = env[v.name];
    const value = text === undefined || text === '' ? v.fallback : Number(text);
    // Node's timers and sizes are whole milliseconds and bytes, and its timers 32-bit.
    const scaled = Math.round(value * v.scale);
    // A count is whole: `1.5` connections was taken as 2.
    const whole = v.scale === 1;
    if (!Number.isFinite(value) || scaled < 1 || scaled > maxScaled || (whole && !Number.isInteger(value))) {
      const most = Math.floor(maxScaled / v.scale);
      return {
        ok: false,
        message: `${v.name} must be ${whole ? 'a whole' : 'a'} number of ${v.unit} above 0 and at most ${most} (default ${v.fallback}), not ` +
          `${JSON.stringify((text ?? '').slice(0, 40))}`,
      };
    }
    limits[v.field] = scaled;
  }
  if (limits.maxBodyBytes > limits.maxInFlightBytes) {
    return {
      ok: false,
      message: 'LLSD_RENDER_WEBHOOK_MAX_BODY_MB must not be larger than LLSD_RENDER_WEBHOOK_MAX_INFLIGHT_MB, or no body of the largest size is ever read',
    };
  }
  return { ok: true, limits };
}

/** What every request handler shares. */
interface Context {
  limits: WebhookLimits;
  budget: Budget;
  /** When the request now arriving on a connection sent its first byte. */
  requestStarts: WeakMap<Socket, number>;
  /** Which connections serve a request: the others may be closed for a new one (webhook-connections.ts). */
  connections: ConnectionLimit;
  log: (line: string) => void;
}

/** Serves until SIGTERM or SIGINT; resolves with the exit code. `log` gets one line per event. */
/**
 * Which file holds what, by its PEM labels (never its contents): `--cert` and `--key` swapped, or
 * a file with the other kind only, said with what to pass, before OpenSSL's words ("no start line").
 */
export function pemMismatch(options: Pick<WebhookOptions, 'cert' | 'key'>, certText: string, keyText: string): string | undefined {
  const kinds = (text: string) => ({
    cert: /-----BEGIN (?:TRUSTED )?CERTIFICATE-----/.test(text),
    key: /-----BEGIN (?:[A-Z]+ )*PRIVATE KEY-----/.test(text),
  });
  const cert = kinds(certText);
  const key = kinds(keyText);
  if (!cert.cert && cert.key && key.cert && !key.key) {
    return `--cert ${options.cert} holds a private key and --key ${options.key} a certificate: they are swapped; pass --cert ${options.key} ` +
      `--key ${options.cert}`;
  }
  if (!cert.cert && cert.key) {
    return `--cert ${options.cert} holds a private key, not a certificate: pass the PEM certificate (\`-----BEGIN CERTIFICATE-----\`) as --cert`;
  }
  if (!key.key && key.cert) {
    return `--key ${options.key} holds a certificate, not a private key: pass the PEM private key (\`-----BEGIN PRIVATE KEY-----\`) as --key`;
  }
  return undefined;
}

export async function serveWebhook(options: WebhookOptions, log: (line: string) => void, env: Env = process.env): Promise<ExitCode> {
  const configured = webhookLimits(env);
  if (!configured.ok) {
    log(`llsd-render webhook: ${configured.message}`);
    return 1;
  }
  const { limits } = configured;
  let cert: Buffer;
  let key: Buffer;
  {
    // PEM files are a few kB; a pipe or /dev/zero given as one is refused at 1 MiB, not read to its end.
    const readPem = (path: string, what: string): Buffer | undefined => {
      const read = readInputFile(path, 1024 * 1024);
      if ('text' in read) return Buffer.from(read.text);
      const why = read.problem.startsWith('is larger than') ? 'is larger than 1 MiB, and a PEM file is a few kB' : read.problem;
      log(`llsd-render webhook: cannot use ${path} as the ${what}: ${why}; give --cert and --key as PEM files`);
      return undefined;
    };
    const certRead = readPem(options.cert, 'certificate');
    const keyRead = certRead && readPem(options.key, 'private key');
    if (!certRead || !keyRead) return 1;
    const mismatch = pemMismatch(options, certRead.toString('latin1'), keyRead.toString('latin1'));
    if (mismatch) {
      log(`llsd-render webhook: ${mismatch}`);
      return 1;
    }
    cert = certRead;
    key = keyRead;
  }
  // Say when the limit closes a connection, once a second at most (a flood would flood the log).
  let lastLimitLog = 0;
  const connections = connectionLimit(limits.maxConnections, (how) => {
    if (Date.now() - lastLimitLog < 1000) return;
    lastLimitLog = Date.now();
    log(
      `llsd-render webhook: ${limits.maxConnections} connections are open (LLSD_RENDER_WEBHOOK_MAX_CONNECTIONS): ` +
        (how === 'evicted' ? 'the oldest one serving no request was closed for a new one' : 'every one is serving a request, so a new one was closed'),
    );
  });
  const context: Context = { limits, budget: createBudget(limits.maxInFlightBytes), requestStarts: new WeakMap(), connections, log };
  let server: Server;
  try {
    server = createServer(
      {
        cert,
        key,
        // A hard bound from the TCP connection, not an idle timer: a trickled ClientHello is cut too.
        handshakeTimeout: limits.handshakeTimeoutMs,
        // One deadline for the whole request, headers included, as documented: the API server sends
        // its headers at once, and a client that trickles them is cut when any slow request is.
        headersTimeout: limits.requestTimeoutMs,
        // After the headers, enforceDeadline cuts the request at the deadline, with the reason and a
        // log line; Node's own cut (a bare 408) comes a second later, only for what it missed. Both
        // at the same time raced: under load Node's could win, and the reason went unsaid.
        requestTimeout: limits.requestTimeoutMs + nodeBackstopMs,
        // Node checks these two timeouts only this often (default every 30 s, which made a 30 s
        // timeout fire at up to 60 s).
        connectionsCheckingInterval: Math.max(1, Math.min(1000, Math.floor(limits.requestTimeoutMs / 4))),
      },
      (request, response) => handle(request, response, context),
    );
  } catch (error) {
    log(`llsd-render webhook: ${options.cert} and ${options.key} must be a PEM certificate and its private key: ${(error as Error).message}`);
    return 1;
  }
  // A client that asks before sending its body (`Expect: 100-continue`, curl for bodies over 1 MB)
  // is told to go on only once the body is accepted (readBody): Node's automatic 100 Continue came
  // first, and a 413 sent while the body was on its way could be lost to the closed connection.
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => handle(request, response, context));
  context.connections.watch(server);
  server.on('secureConnection', (socket: Socket) => recordRequestStarts(socket, context.requestStarts));

  return new Promise<ExitCode>((resolve) => {
    const stop = (signal: string): void => {
      process.off('SIGTERM', onTerm);
      process.off('SIGINT', onInt);
      log(`llsd-render webhook: ${signal}: stopping`);
      const force = setTimeout(() => server.closeAllConnections(), stopGraceMs);
      force.unref();
      server.close(() => {
        clearTimeout(force);
        resolve(0);
      });
      server.closeIdleConnections();
    };
    const onTerm = (): void => stop('SIGTERM');
    const onInt = (): void => stop('SIGINT');
    server.once('error', (error: NodeJS.ErrnoException) => {
      process.off('SIGTERM', onTerm);
      process.off('SIGINT', onInt);
      log(`llsd-render webhook: cannot listen on ${options.address}:${options.port}: ${error.code === 'EADDRINUSE' ? 'the port is in use' : error.message}`);
      resolve(1);
    });
    server.listen(options.port, options.address, () => {
      process.on('SIGTERM', onTerm);
      process.on('SIGINT', onInt);
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : options.port;
      const host = options.address.includes(':') ? `[${options.address}]` : options.address;
      log(`llsd-render webhook: listening on https://${host}:${port} (POST /convert, GET /healthz)`);
    });
  });
}

/**
 * Notes when each request on `socket` sends its first byte, which Node does not expose: the request
 * deadline counts from there, as Node's own requestTimeout does. The first byte after an answer
 * starts the next request. (The HTTP server reads a TLS socket through 'data' events; were it ever
 * not to, no start is noted and the deadline counts from the request's headers.)
 */
function recordRequestStarts(socket: Socket, starts: WeakMap<Socket, number>): void {
  socket.prependListener('data', () => {
    if (!starts.has(socket)) starts.set(socket, Date.now());
  });
}

function handle(request: IncomingMessage, response: ServerResponse, context: Context): void {
  enforceDeadline(request, response, context);
  const path = (request.url ?? '/').split('?')[0];
  if (path === '/healthz') {
    if (request.method !== 'GET' && request.method !== 'HEAD') return reply(response, 405, 'use GET\n', { allow: 'GET, HEAD' });
    return reply(response, 200, 'ok\n');
  }
  if (path !== '/convert' && path !== '/') return reply(response, 404, `no such path "${path}": POST ConversionReviews to /convert\n`);
  if (request.method !== 'POST') return reply(response, 405, 'POST a ConversionReview\n', { allow: 'POST' });
  readBody(request, response, context, (body, hold) => {
    // Serving from the whole body on: a connection still sending its headers or body may be closed
    // for a new one (an attacker held every slot with chunked POSTs that sent no body).
    response.once('close', context.connections.serving(request.socket));
    answerReview(body, hold, response, context);
  });
}

/**
 * Ends the request `requestTimeoutMs` after its first byte: a 408 if nothing was answered yet
 * (a body sent too slowly), and the connection closed (also when the client does not take the
 * answer). Node's requestTimeout would cut a slow body too, but not a client that does not read.
 */
function enforceDeadline(request: IncomingMessage, response: ServerResponse, context: Context): void {
  const socket = request.socket;
  const started = context.requestStarts.get(socket) ?? Date.now();
  const seconds = context.limits.requestTimeoutMs / 1000;
  const timer = setTimeout(() => {
    if (response.writableFinished) return;
    context.log(`llsd-render webhook: 408: the request did not end within ${seconds} s`);
    if (!response.headersSent)
      reply(response, 408, `the request did not end within ${seconds} s: send the whole request at once and read the answer\n`, { connection: 'close' });
    setTimeout(() => socket.destroy(), lastWordMs).unref();
  }, started + context.limits.requestTimeoutMs - Date.now());
  timer.unref();
  response.once('close', () => {
    clearTimeout(timer);
    context.requestStarts.delete(socket);
  });
}

/**
 * Reads the body within the bounds and passes it on as text, or answers 413 (too large for one
 * request) or 503 (too many bytes in flight across requests). The budget counts the buffer the body
 * is read into, taken as it grows with the bytes that arrive (a declared Content-Length reserves
 * nothing a client has not sent). The share goes back when the answer is done.
 */
function readBody(
  request: IncomingMessage,
  response: ServerResponse,
  context: Context,
  onBody: (body: Buffer, hold: (bytes: number) => boolean) => void,
): void {
  const { limits, budget, log } = context;
  let held = 0;
  response.once('close', () => budget.give(held));
  const hold = (bytes: number): boolean => {
    if (!budget.take(bytes)) return false;
    held += bytes;
    return true;
  };
  const tooLarge = (): void => {
    log(`llsd-render webhook: 413: the request body is larger than ${limits.maxBodyBytes} bytes`);
    reply(response, 413, `the request body is larger than ${limits.maxBodyBytes} bytes, the most the webhook reads (LLSD_RENDER_WEBHOOK_MAX_BODY_MB)\n`, {
      connection: 'close',
    });
  };
  // The connection stays: Node reads the rest of the body (at most maxBodyBytes) and drops it, so
  // the client gets this answer rather than a reset while it still writes.
  const busy = (): void => replyBusy(response, context);

  // Node's parser has refused a Content-Length that is not a number; none (chunked) declares 0.
  const declared = Number(request.headers['content-length'] ?? 0) || 0;
  if (declared > limits.maxBodyBytes) return tooLarge();
  // The budget is taken as bytes arrive, not for what the headers declare: two clients declaring
  // 16 MiB and sending nothing held the whole budget, and every conversion got 503 for 30 s.
  const initial = Math.min(declared, firstBufferBytes);
  if (!hold(initial)) return busy();
  if (/^100-continue$/i.test(String(request.headers.expect ?? ''))) response.writeContinue();

  // One buffer, grown by doubling (up to the declared size) as bytes arrive: no chunks kept.
  let body = Buffer.allocUnsafe(initial);
  let size = 0;
  let refused = false;
  const refuse = (answer: () => void): void => {
    refused = true;
    body = Buffer.alloc(0);
    // The buffer is dropped now, so its share goes back now, before the answer is written: given
    // back when the response closed, a loaded server could take the client's next request first
    // and refuse it too (a CI run: a small request after a 503 got 503).
    budget.give(held);
    held = 0;
    answer();
  };
  // A client that goes away mid-request must not take the server down.
  request.on('error', (error) => {
    refused = true;
    log(`llsd-render webhook: request aborted: ${error.message}`);
  });
  request.on('data', (chunk: Buffer) => {
    // Answered already: refused here, or a 408 at the deadline.
    if (refused || response.headersSent) return;
    if (size + chunk.length > limits.maxBodyBytes) return refuse(tooLarge);
    if (size + chunk.length > body.length) {
      const grown = Math.min(declared || limits.maxBodyBytes, Math.max(2 * body.length, size + chunk.length, firstBufferBytes));
      if (!hold(grown - body.length)) return refuse(busy);
      body = Buffer.concat([body.subarray(0, size)], grown);
    }
    size += chunk.copy(body, size);
  });
  request.on('end', () => {
    if (refused || response.headersSent) return;
    const read = body.subarray(0, size);
    body = Buffer.alloc(0);
    onBody(read, hold);
  });
}

function replyBusy(response: ServerResponse, { limits, log }: Context): void {
  log('llsd-render webhook: 503: too many request bytes in flight');
  reply(
    response,
    503,
    `the webhook holds ${limits.maxInFlightBytes} bytes of request bodies at once (LLSD_RENDER_WEBHOOK_MAX_INFLIGHT_MB), and other requests hold them ` +
      `now: retry\n`,
    { 'retry-after': '1' },
  );
}

/**
 * Answers a body that was read whole. Before it is parsed, its JSON parts are counted: a body
 * weighs its size or `partWeight` bytes per part, whichever is more, and must weigh at most
 * `maxBodyBytes` (413), and its weight beyond the bytes already held must fit in the in-flight
 * budget (503). So parsing and converting all bodies in flight costs a bounded amount of memory,
 * whatever they hold. The conversion then runs in slices of `sliceMs`, and the server answers other
 * requests between them.
 */
function answerReview(body: Buffer, hold: (bytes: number) => boolean, response: ServerResponse, context: Context): void {
  const { limits, log } = context;
  const maxParts = Math.floor(limits.maxBodyBytes / partWeight);
  const { parts, wide, longDigits } = jsonCost(body, maxParts, conversionAnnotation);
  // Text above U+00FF is held at 2 bytes a character, and a long run of digits is read with one more copy of the text (exact-integer.ts).
  const copies = 1 + (wide ? 1 : 0) + (longDigits ? 1 : 0);
  const weight = Math.max(body.length * copies, parts * partWeight);
  if (parts > maxParts) {
    log(`llsd-render webhook: 413: the request body holds more than ${maxParts} JSON values and keys`);
    return reply(
      response,
      413,
      `the request body holds more than ${maxParts} JSON values and keys, the most the webhook reads (one per ${partWeight} bytes of ` +
        `LLSD_RENDER_WEBHOOK_MAX_BODY_MB; escapes and a conversion record's JSON count too): send ConversionReviews of LlamaStackDistributions, ` +
        `or fewer of them at once\n`,
    );
  }
  if (weight > limits.maxBodyBytes) {
    log(`llsd-render webhook: 413: the request body weighs more than ${limits.maxBodyBytes} bytes`);
    return reply(
      response,
      413,
      `the request body weighs ${weight} bytes, more than the ${limits.maxBodyBytes} the webhook reads (LLSD_RENDER_WEBHOOK_MAX_BODY_MB; a body holding ` +
        'text above U+00FF or a run of 16 digits weighs twice or three times its size): send fewer LlamaStackDistributions at once\n',
    );
  }
  if (!hold(weight - body.length)) return replyBusy(response, context);
  const parsed = parseReviewBody(body.toString('utf8'));
  if (!parsed.ok) {
    // Only what is before the colon: the rest may quote the body.
    log(`llsd-render webhook: 400: ${parsed.message.split(':')[0]}`);
    return reply(response, 400, `${parsed.message}\n`);
  }
  const steps = reviewConversionSteps(parsed.body);
  const slice = (): void => {
    // The client went away, or the deadline answered 408: the rest of the work is for nobody.
    if (response.headersSent || response.destroyed) return;
    let answer: ReviewAnswer;
    try {
      const end = Date.now() + sliceMs;
      let step = steps.next();
      while (!step.done && Date.now() < end) step = steps.next();
      if (!step.done) {
        setImmediate(slice);
        return;
      }
      answer = step.value;
    } catch (error) {
      // Only a bug gets here; say so without a stack trace.
      log(`llsd-render webhook: 500: internal error: ${(error as Error).message}`);
      return reply(response, 500, `internal error: ${(error as Error).message}\n`);
    }
    if (!answer.ok) {
      log(`llsd-render webhook: 400: ${answer.message}`);
      return reply(response, 400, `${answer.message}\n`);
    }
    let text: string;
    try {
      text = exactJson(answer.review);
    } catch (error) {
      // A bug too (a value the conversion should have refused at its field): a 500, never a crash.
      log(`llsd-render webhook: 500: internal error: ${(error as Error).message}`);
      return reply(response, 500, `internal error: ${(error as Error).message}\n`);
    }
    const result = (answer.review.response as { result: { status: string; message?: string } }).result;
    if (result.status !== 'Success') log(`llsd-render webhook: conversion failed: ${result.message ?? ''}`);
    else if (result.message !== undefined) log(`llsd-render webhook: converted with a ${result.message}`);
    reply(response, 200, text, { 'content-type': 'application/json' });
  };
  slice();
}

function reply(response: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  if (response.headersSent) return;
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers, 'content-length': Buffer.byteLength(body) });
  response.end(body);
}

interface Budget {
  /** Takes `bytes` if that many are left, and says whether it did. */
  take(bytes: number): boolean;
  give(bytes: number): void;
}

/** The body bytes all requests may hold together. */
function createBudget(limit: number): Budget {
  let used = 0;
  return {
    take(bytes) {
      if (used + bytes > limit) return false;
      used += bytes;
      return true;
    },
    give(bytes) {
      used -= bytes;
    },
  };
}
