// `llsd-render webhook`: the CRD conversion webhook, an HTTPS server on node:https. It answers
// ConversionReview POSTs at `/convert` (and `/`) with `reviewConversion` (src/api/conversion-review.ts)
// and `GET /healthz` with 200; it stops gracefully on SIGTERM or SIGINT.
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import { reviewConversion } from '../api/conversion-review.js';
import type { ExitCode } from '../krm/result.js';

export interface WebhookOptions {
  cert: string;
  key: string;
  port: number;
  address: string;
}

/** The API server sends at most a few objects of at most ~1.5 MiB each. */
const maxBodyBytes = 16 * 1024 * 1024;
/** How long in-flight requests may take to finish after a stop signal. */
const stopGraceMs = 10_000;

/** Serves until SIGTERM or SIGINT; resolves with the exit code. `log` gets one line per event. */
export async function serveWebhook(options: WebhookOptions, log: (line: string) => void): Promise<ExitCode> {
  let cert: Buffer;
  let key: Buffer;
  try {
    cert = readFileSync(options.cert);
    key = readFileSync(options.key);
  } catch (error) {
    log(`llsd-render webhook: cannot read the certificate or key: ${(error as Error).message}`);
    return 1;
  }
  let server: Server;
  try {
    server = createServer({ cert, key }, (request, response) => handle(request, response, log));
  } catch (error) {
    log(`llsd-render webhook: ${options.cert} and ${options.key} must be a PEM certificate and its private key: ${(error as Error).message}`);
    return 1;
  }
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;

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

function handle(request: IncomingMessage, response: ServerResponse, log: (line: string) => void): void {
  const path = (request.url ?? '/').split('?')[0];
  if (path === '/healthz') {
    if (request.method !== 'GET' && request.method !== 'HEAD') return reply(response, 405, 'use GET\n', { allow: 'GET, HEAD' });
    return reply(response, 200, 'ok\n');
  }
  if (path !== '/convert' && path !== '/') return reply(response, 404, `no such path "${path}": POST ConversionReviews to /convert\n`);
  if (request.method !== 'POST') return reply(response, 405, 'POST a ConversionReview\n', { allow: 'POST' });

  const chunks: Buffer[] = [];
  let size = 0;
  let refused = false;
  // A client that goes away mid-request must not take the server down.
  request.on('error', (error) => {
    refused = true;
    log(`llsd-render webhook: request aborted: ${error.message}`);
  });
  request.on('data', (chunk: Buffer) => {
    if (refused) return;
    size += chunk.length;
    if (size > maxBodyBytes) {
      refused = true;
      reply(response, 413, `the request body is larger than ${maxBodyBytes} bytes\n`, { connection: 'close' });
      request.resume();
      return;
    }
    chunks.push(chunk);
  });
  request.on('end', () => {
    if (refused) return;
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch (error) {
      log(`llsd-render webhook: 400: the request body is not valid JSON`);
      return reply(response, 400, `the request body is not valid JSON: ${(error as Error).message}\n`);
    }
    let answer: ReturnType<typeof reviewConversion>;
    try {
      answer = reviewConversion(body);
    } catch (error) {
      // Only a bug gets here; say so without a stack trace.
      log(`llsd-render webhook: 500: internal error: ${(error as Error).message}`);
      return reply(response, 500, `internal error: ${(error as Error).message}\n`);
    }
    if (!answer.ok) {
      log(`llsd-render webhook: 400: ${answer.message}`);
      return reply(response, 400, `${answer.message}\n`);
    }
    const result = (answer.review.response as { result: { status: string; message?: string } }).result;
    if (result.status !== 'Success') log(`llsd-render webhook: conversion failed: ${result.message ?? ''}`);
    reply(response, 200, JSON.stringify(answer.review), { 'content-type': 'application/json' });
  });
}

function reply(response: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  if (response.headersSent) return;
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers, 'content-length': Buffer.byteLength(body) });
  response.end(body);
}
