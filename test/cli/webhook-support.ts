// The conversion webhook's tests share these: a self-signed certificate, the REAL server from the
// built bundle on 127.0.0.1 and a free port, and clients (well-behaved and slow) over real HTTPS.
import { spawn, execFileSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { request } from 'node:https';
import type { connect as connectTcp } from 'node:net';
import { connect as connectTls, type TLSSocket } from 'node:tls';
import { join } from 'node:path';
import { expect } from 'vitest';
import { requireBundle, tempDir } from './run.js';

export const OPENSSL = '/usr/bin/openssl';
export const CONVERSION_DATA = 'llamastack.io/conversion-data';

export interface Server {
  child: ChildProcessWithoutNullStreams;
  port: number;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** A self-signed certificate for 127.0.0.1, valid one day. */
export function makeCertificate(): { cert: string; key: string; ca: Buffer } {
  if (!existsSync(OPENSSL))
    throw new Error(`${OPENSSL} is missing: the webhook test needs openssl to make a self-signed certificate (apt-get install openssl)`);
  const dir = tempDir('llsd-render-webhook-');
  const cert = join(dir, 'c');
  const key = join(dir, 'k');
  execFileSync(
    OPENSSL,
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    {
      stdio: 'pipe',
      timeout: 30_000,
    },
  );
  return { cert, key, ca: readFileSync(cert) };
}

/** Starts the bundle's webhook on port 0 and waits (at most 15 s) for the line that names its port. */
export function startServer(cert: string, key: string, env: NodeJS.ProcessEnv = {}): Promise<Server> {
  const child = spawn(process.execPath, [requireBundle(), 'webhook', '--cert', cert, '--key', key, '--port', '0', '--address', '127.0.0.1'], {
    stdio: 'pipe',
    env: { ...process.env, ...env },
  });
  let stderr = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the webhook did not say it listens within 15 s; stderr:\n${stderr}`));
    }, 15_000);
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const match = /listening on https:\/\/127\.0\.0\.1:(\d+) /.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve({ child, port: Number(match[1]), stderr: () => stderr, exited });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the webhook exited (${code}) before listening; stderr:\n${stderr}`));
    });
  });
}

export interface Response {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

/** One HTTPS request to the server, trusting only `ca`; fails after 10 s. */
export function call(port: number, ca: Buffer | undefined, method: string, path: string, body?: string): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        ca,
        headers: body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        timeout: 10_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: res.headers }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${path} timed out`)));
    req.on('error', reject);
    req.end(body);
  });
}

export const review = (uid: string, desiredAPIVersion: string, objects: unknown[]): string =>
  JSON.stringify({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', request: { uid, desiredAPIVersion, objects } });

export const legacy = {
  apiVersion: 'llamastack.io/v1alpha1',
  kind: 'LlamaStackDistribution',
  metadata: { name: 'legacy', namespace: 'ai', resourceVersion: '12' },
  spec: { replicas: 1, server: { distribution: { name: 'starter' }, containerSpec: { name: 'server', port: 8080 }, userConfig: { configMapName: 'cfg' } } },
  status: { phase: 'Ready' },
};
export const legacyAsV1alpha2 = {
  apiVersion: 'llamastack.io/v1alpha2',
  kind: 'LlamaStackDistribution',
  metadata: {
    name: 'legacy',
    namespace: 'ai',
    resourceVersion: '12',
    annotations: { [CONVERSION_DATA]: '{"apiVersion":"llamastack.io/v1alpha1","spec":{"server":{"containerSpec":{"name":"server"}}}}' },
  },
  spec: { distribution: { name: 'starter' }, networking: { port: 8080 }, workload: { replicas: 1 }, overrideConfig: { configMapName: 'cfg' } },
  status: { phase: 'Ready' },
};
export const current = {
  apiVersion: 'llamastack.io/v1alpha2',
  kind: 'LlamaStackDistribution',
  metadata: { name: 'current', namespace: 'ai' },
  spec: { distribution: { name: 'starter' }, providers: { inference: { provider: 'vllm' } }, disabled: ['safety'] },
};

/** A TLS connection to the server, once its handshake is done. */
export function openTls(port: number, ca: Buffer): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    const socket = connectTls({ host: '127.0.0.1', port, ca }, () => resolve(socket));
    socket.once('error', reject);
    // A server past its connection limit closes the connection before the handshake.
    socket.once('close', () => reject(new Error('closed before the TLS handshake finished')));
  });
}

export interface Ending {
  /** Everything the server sent. */
  answer: string;
  /** From the first byte the client sent (or the connection, for `bytes` empty) to the close. */
  ms: number;
}

/**
 * A slow-loris client: sends `head` at once, then `drip` one byte every 100 ms, and waits (at most
 * `giveUpMs`) for the server to close the connection. The tests check that the server waited its timeout
 * (a timer never fires early), not how soon after it closed: that depends on the machine's load.
 */
export function dripUntilClosed(socket: TLSSocket | ReturnType<typeof connectTcp>, head: string, drip: string, giveUpMs = 10_000): Promise<Ending> {
  return new Promise((resolve, reject) => {
    const start = Date.now();
    let answer = '';
    let sent = 0;
    if (head !== '') socket.write(head);
    const dripper = setInterval(() => {
      if (drip !== '' && !socket.destroyed) socket.write(drip[sent++ % drip.length]!);
    }, 100);
    const giveUp = setTimeout(() => {
      clearInterval(dripper);
      socket.destroy();
      reject(new Error(`the server kept a slow client's connection open for ${giveUpMs} ms; it answered: ${JSON.stringify(answer.slice(0, 200))}`));
    }, giveUpMs);
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    socket.on('error', () => {}); // a reset is a close too
    socket.on('close', () => {
      clearInterval(dripper);
      clearTimeout(giveUp);
      resolve({ answer, ms: Date.now() - start });
    });
  });
}

/** A ConversionReview of `current` padded (in an annotation) to exactly `bytes` bytes of JSON. */
export function reviewOfSize(uid: string, bytes: number): string {
  const of = (note: string): string => review(uid, 'llamastack.io/v1alpha2', [{ ...current, metadata: { ...current.metadata, annotations: { note } } }]);
  const text = of('x'.repeat(bytes - Buffer.byteLength(of(''))));
  expect(Buffer.byteLength(text)).toBe(bytes);
  return text;
}

export const requestHead = (length: number, extra = ''): string =>
  `POST /convert HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${length}\r\n${extra}\r\n`;

/** Waits for `promise` at most `ms`, failing with `what`. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms))]);
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Peak resident memory of a process (Linux /proc), in MiB. */
export function peakRssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(status);
  if (!match) throw new Error(`/proc/${pid}/status has no VmHWM line: the memory test needs Linux`);
  return Number(match[1]) / 1024;
}

export async function stopServer(server: Server | undefined): Promise<void> {
  if (server && server.child.exitCode === null && server.child.signalCode === null) {
    server.child.kill('SIGKILL');
    await server.exited;
  }
}
