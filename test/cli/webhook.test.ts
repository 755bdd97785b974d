// `llsd-render webhook`: the REAL server from the built bundle, on 127.0.0.1 and a free port, with a
// self-signed certificate made here by openssl; real HTTPS requests carry ConversionReviews both ways.
import { spawn, execFileSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { request } from 'node:https';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { help } from '../../src/cli/help.js';
import { requireBundle, run, stderrLines, tempDir } from './run.js';

const OPENSSL = '/usr/bin/openssl';
const CONVERSION_DATA = 'llamastack.io/conversion-data';

interface Server {
  child: ChildProcessWithoutNullStreams;
  port: number;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** A self-signed certificate for 127.0.0.1, valid one day. */
function makeCertificate(): { cert: string; key: string; ca: Buffer } {
  if (!existsSync(OPENSSL)) throw new Error(`${OPENSSL} is missing: the webhook test needs openssl to make a self-signed certificate (apt-get install openssl)`);
  const dir = tempDir('llsd-render-webhook-');
  const cert = join(dir, 'c');
  const key = join(dir, 'k');
  execFileSync(OPENSSL, ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], {
    stdio: 'pipe',
    timeout: 30_000,
  });
  return { cert, key, ca: readFileSync(cert) };
}

/** Starts the bundle's webhook on port 0 and waits (at most 15 s) for the line that names its port. */
function startServer(cert: string, key: string): Promise<Server> {
  const child = spawn(process.execPath, [requireBundle(), 'webhook', '--cert', cert, '--key', key, '--port', '0', '--address', '127.0.0.1'], { stdio: 'pipe' });
  let stderr = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
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

interface Response {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

/** One HTTPS request to the server, trusting only `ca`; fails after 10 s. */
function call(port: number, ca: Buffer | undefined, method: string, path: string, body?: string): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method, path, ca, headers: body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }, timeout: 10_000 },
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

const review = (uid: string, desiredAPIVersion: string, objects: unknown[]): string =>
  JSON.stringify({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', request: { uid, desiredAPIVersion, objects } });

const legacy = {
  apiVersion: 'llamastack.io/v1alpha1',
  kind: 'LlamaStackDistribution',
  metadata: { name: 'legacy', namespace: 'ai', resourceVersion: '12' },
  spec: { replicas: 1, server: { distribution: { name: 'starter' }, containerSpec: { name: 'server', port: 8080 }, userConfig: { configMapName: 'cfg' } } },
  status: { phase: 'Ready' },
};
const legacyAsV1alpha2 = {
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
const current = {
  apiVersion: 'llamastack.io/v1alpha2',
  kind: 'LlamaStackDistribution',
  metadata: { name: 'current', namespace: 'ai' },
  spec: { distribution: { name: 'starter' }, providers: { inference: { provider: 'vllm' } }, disabled: ['safety'] },
};

describe('webhook: the real HTTPS server', () => {
  let certificate: ReturnType<typeof makeCertificate>;
  let server: Server;

  beforeAll(async () => {
    certificate = makeCertificate();
    server = await startServer(certificate.cert, certificate.key);
  });
  afterAll(async () => {
    if (server && server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
  });

  it('GET /healthz answers 200 over TLS with the self-signed certificate', async () => {
    const r = await call(server.port, certificate.ca, 'GET', '/healthz');
    expect(r.status).toBe(200);
    expect(r.body).toBe('ok\n');
  });

  it('is really HTTPS: a client that does not trust the certificate is refused', async () => {
    await expect(call(server.port, undefined, 'GET', '/healthz')).rejects.toMatchObject({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
  });

  it('POST /convert: v1alpha1 to v1alpha2, uid echoed, objects converted in order', async () => {
    const r = await call(server.port, certificate.ca, 'POST', '/convert', review('uid-up', 'llamastack.io/v1alpha2', [legacy, current]));
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/json');
    expect(JSON.parse(r.body)).toEqual({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'ConversionReview',
      response: { uid: 'uid-up', result: { status: 'Success' }, convertedObjects: [legacyAsV1alpha2, current] },
    });
  });

  it('POST /: v1alpha2 to v1alpha1 and back again gives the original objects', async () => {
    const downResponse = await call(server.port, certificate.ca, 'POST', '/', review('uid-down', 'llamastack.io/v1alpha1', [legacyAsV1alpha2, current]));
    expect(downResponse.status).toBe(200);
    const down = JSON.parse(downResponse.body) as { response: { uid: string; result: unknown; convertedObjects: Array<Record<string, unknown>> } };
    expect(down.response.uid).toBe('uid-down');
    expect(down.response.result).toEqual({ status: 'Success' });
    expect(down.response.convertedObjects[0]).toEqual(legacy);
    expect(down.response.convertedObjects[1]).toEqual({
      apiVersion: 'llamastack.io/v1alpha1',
      kind: 'LlamaStackDistribution',
      metadata: {
        name: 'current',
        namespace: 'ai',
        annotations: { [CONVERSION_DATA]: '{"apiVersion":"llamastack.io/v1alpha2","spec":{"providers":{"inference":{"provider":"vllm"}},"disabled":["safety"]}}' },
      },
      spec: { server: { distribution: { name: 'starter' } } },
    });
    const upResponse = await call(server.port, certificate.ca, 'POST', '/convert', review('uid-again', 'llamastack.io/v1alpha2', down.response.convertedObjects));
    expect(JSON.parse(upResponse.body).response).toEqual({ uid: 'uid-again', result: { status: 'Success' }, convertedObjects: [legacyAsV1alpha2, current] });
  });

  it('a conversion that fails answers 200 with result Failure and a message, no stack trace', async () => {
    const broken = { ...legacy, metadata: { name: 'broken', namespace: 'ai', annotations: { [CONVERSION_DATA]: '{"apiVersion":"llamastack.io/v1alpha1"}' } } };
    const r = await call(server.port, certificate.ca, 'POST', '/convert', review('uid-fail', 'llamastack.io/v1alpha2', [broken]));
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toEqual({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'ConversionReview',
      response: {
        uid: 'uid-fail',
        result: {
          status: 'Failure',
          message:
            'LlamaStackDistribution ai/broken: metadata.annotations["llamastack.io/conversion-data"]: holds fields of llamastack.io/v1alpha1, but this object is converted from llamastack.io/v1alpha1 to llamastack.io/v1alpha2; restore the value llsd-render wrote, or remove the annotation to convert without it (the fields it held are then lost)',
        },
      },
    });
    const unknownVersion = await call(server.port, certificate.ca, 'POST', '/convert', review('uid-v', 'llamastack.io/v2', [legacy]));
    expect(JSON.parse(unknownVersion.body).response.result).toEqual({
      status: 'Failure',
      message: 'LlamaStackDistribution ai/legacy: cannot be converted to "llamastack.io/v2": the supported versions are llamastack.io/v1alpha1 and llamastack.io/v1alpha2',
    });
  });

  it('bad JSON and bodies that are not a ConversionReview get 400 with the reason', async () => {
    const badJson = await call(server.port, certificate.ca, 'POST', '/convert', '{"apiVersion": ');
    expect(badJson.status).toBe(400);
    expect(badJson.body).toMatch(/^the request body is not valid JSON: .+\n$/);
    expect(badJson.body).not.toMatch(/\n\s+at /);
    const notReview = await call(server.port, certificate.ca, 'POST', '/convert', JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap' }));
    expect(notReview.status).toBe(400);
    expect(notReview.body).toBe('the request body must be an apiextensions.k8s.io/v1 ConversionReview\n');
    const noUid = await call(server.port, certificate.ca, 'POST', '/convert', JSON.stringify({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', request: { desiredAPIVersion: 'x', objects: [] } }));
    expect(noUid.status).toBe(400);
    expect(noUid.body).toBe('the ConversionReview `request.uid` must be a non-empty string\n');
  });

  it('other paths are 404 and other methods 405', async () => {
    const missing = await call(server.port, certificate.ca, 'POST', '/mutate', review('u', 'llamastack.io/v1alpha2', []));
    expect(missing.status).toBe(404);
    expect(missing.body).toBe('no such path "/mutate": POST ConversionReviews to /convert\n');
    const get = await call(server.port, certificate.ca, 'GET', '/convert');
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('POST');
  });

  it('SIGTERM stops it gracefully: exit 0, a last line on stderr, the port closed', async () => {
    server.child.kill('SIGTERM');
    const exit = await Promise.race([server.exited, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no exit within 15 s of SIGTERM')), 15_000))]);
    expect(exit).toEqual({ code: 0, signal: null });
    const lines = server.stderr().trim().split('\n');
    expect(lines[0]).toBe(`llsd-render webhook: listening on https://127.0.0.1:${server.port} (POST /convert, GET /healthz)`);
    expect(lines.at(-1)).toBe('llsd-render webhook: SIGTERM: stopping');
    expect(lines).toContain('llsd-render webhook: 400: the request body is not valid JSON');
    await expect(call(server.port, certificate.ca, 'GET', '/healthz')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('SIGINT stops it too', async () => {
    const second = await startServer(certificate.cert, certificate.key);
    expect((await call(second.port, certificate.ca, 'GET', '/healthz')).status).toBe(200);
    second.child.kill('SIGINT');
    expect(await second.exited).toEqual({ code: 0, signal: null });
    expect(second.stderr()).toMatch(/SIGINT: stopping\n$/);
  });
});

describe('webhook: start-up errors', () => {
  it('usage errors exit 2 with a one-line reason', () => {
    const cases: Array<[string[], string]> = [
      [['webhook'], 'llsd-render: webhook needs --cert FILE and --key FILE (a PEM certificate and its private key)'],
      [['webhook', '--cert', 'c'], 'llsd-render: webhook needs --cert FILE and --key FILE (a PEM certificate and its private key)'],
      [['webhook', '--cert', 'c', '--key', 'k', '--port', '70000'], 'llsd-render: --port must be a number from 0 to 65535, not "70000"'],
      [['webhook', '--cert', 'c', '--key', 'k', '--port', 'http'], 'llsd-render: --port must be a number from 0 to 65535, not "http"'],
      [['webhook', '--cert', 'c', '--key', 'k', 'extra'], 'llsd-render: webhook takes no PATH, not "extra"'],
    ];
    for (const [args, message] of cases) {
      const r = run(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(stderrLines(r)).toEqual([message, 'Run `llsd-render --help` for usage.']);
    }
  });

  it('a missing certificate file or a file that is not PEM exits 1 with the reason', () => {
    const dir = tempDir('llsd-render-webhook-bad-');
    const missing = run(['webhook', '--cert', join(dir, 'none.pem'), '--key', join(dir, 'none.key'), '--port', '0']);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/^llsd-render webhook: cannot read the certificate or key: ENOENT: no such file or directory, open '.*none\.pem'\n$/);
    const notPem = run(['webhook', '--cert', join(import.meta.dirname, 'convert.test.ts'), '--key', join(import.meta.dirname, 'convert.test.ts'), '--port', '0']);
    expect(notPem.status).toBe(1);
    expect(notPem.stderr).toMatch(/^llsd-render webhook: .*convert\.test\.ts and .*convert\.test\.ts must be a PEM certificate and its private key: /);
    expect(notPem.stderr).not.toMatch(/\n\s+at /);
  });

  it('a port in use exits 1 and says so', async () => {
    const { cert, key } = makeCertificate();
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const r = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [requireBundle(), 'webhook', '--cert', cert, '--key', key, '--port', String(port)], { stdio: 'pipe' });
        let stderr = '';
        child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        child.on('exit', (code) => {
          clearTimeout(timer);
          resolve({ code, stderr });
        });
      });
      expect(r).toEqual({ code: 1, stderr: `llsd-render webhook: cannot listen on 127.0.0.1:${port}: the port is in use\n` });
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });

  it('--help prints the webhook help', () => {
    const r = run(['webhook', '--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(help.webhook);
  });
});
