// `llsd-render webhook`: the REAL server from the built bundle, on 127.0.0.1 and a free port, with a
// self-signed certificate made here by openssl; real HTTPS requests carry ConversionReviews both ways.
import { spawn } from 'node:child_process';
import { request } from 'node:https';
import { connect as connectTcp, createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { help } from '../../src/cli/help.js';
import { requireBundle, run, stderrLines, tempDir } from './run.js';
import {
  CONVERSION_DATA,
  call,
  current,
  dripUntilClosed,
  legacy,
  legacyAsV1alpha2,
  makeCertificate,
  openTls,
  peakRssMiB,
  requestHead,
  review,
  reviewOfSize,
  sleep,
  startServer,
  stopServer,
  within,
  type Response,
  type Server,
} from './webhook-support.js';

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
        annotations: {
          [CONVERSION_DATA]: '{"apiVersion":"llamastack.io/v1alpha2","spec":{"providers":{"inference":{"provider":"vllm"}},"disabled":["safety"]}}',
        },
      },
      spec: { server: { distribution: { name: 'starter' } } },
    });
    const upResponse = await call(
      server.port,
      certificate.ca,
      'POST',
      '/convert',
      review('uid-again', 'llamastack.io/v1alpha2', down.response.convertedObjects),
    );
    expect(JSON.parse(upResponse.body).response).toEqual({ uid: 'uid-again', result: { status: 'Success' }, convertedObjects: [legacyAsV1alpha2, current] });
  });

  it('conversion data that clashes with a v1alpha1 change: the change wins, the warning is in the result message and the log (issue 29, W2)', async () => {
    const down = await call(server.port, certificate.ca, 'POST', '/convert', review('uid-w2-down', 'llamastack.io/v1alpha1', [current]));
    const edited = JSON.parse(down.body).response.convertedObjects[0] as { spec: { server: Record<string, unknown> } };
    edited.spec.server.userConfig = { configMapName: 'my-config' };
    const up = await call(server.port, certificate.ca, 'POST', '/convert', review('uid-w2-up', 'llamastack.io/v1alpha2', [edited]));
    expect(up.status).toBe(200);
    const response = JSON.parse(up.body).response as { result: { status: string; message: string }; convertedObjects: Array<{ spec: unknown }> };
    expect(response.convertedObjects[0]!.spec).toEqual({ distribution: { name: 'starter' }, overrideConfig: { configMapName: 'my-config' } });
    expect(response.result.status).toBe('Success');
    const warning =
      `warning: LlamaStackDistribution ai/current: metadata.annotations["${CONVERSION_DATA}"]: held llamastack.io/v1alpha2 fields that clash with changes ` +
      'made in llamastack.io/v1alpha1 after it was written, and the changes win: dropped `spec.providers` and `spec.disabled`, which cannot be combined ' +
      'with `spec.overrideConfig` (from `spec.server.userConfig`). Set the dropped fields again in llamastack.io/v1alpha2 if they are still wanted ' +
      '[conversion-data-dropped]';
    expect(response.result.message).toBe(warning);
    expect(server.stderr()).toContain(`llsd-render webhook: converted with a ${warning}\n`);
  });

  it('a conversion record holding 1E400 fails the conversion at the annotation; the server lives on (an attacker: it crashed with a stack trace)', async () => {
    // JSON in a string: the check of the object's own numbers never saw it, and writing the answer threw.
    const record = '{"apiVersion":"llamastack.io/v1alpha1","spec":{"server":{"containerSpec":{"name":1E400}}}}';
    const object = { ...current, metadata: { name: 'inf', namespace: 'ai', annotations: { [CONVERSION_DATA]: record } } };
    const r = await call(server.port, certificate.ca, 'POST', '/convert', review('uid-inf', 'llamastack.io/v1alpha1', [object]));
    expect(r.status).toBe(200);
    const result = JSON.parse(r.body).response.result as { status: string; message: string };
    expect(result.status).toBe('Failure');
    expect(result.message).toContain(`metadata.annotations["${CONVERSION_DATA}"]: holds at \`spec.server.containerSpec.name\` a number that is infinite`);
    expect(server.stderr()).not.toMatch(/\n\s+at /);
    expect((await call(server.port, certificate.ca, 'GET', '/healthz')).status).toBe(200);
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
            'LlamaStackDistribution ai/broken: metadata.annotations["llamastack.io/conversion-data"]: holds fields of llamastack.io/v1alpha1, but this ' +
              'object is converted from llamastack.io/v1alpha1 to llamastack.io/v1alpha2; restore the value llsd-render wrote, or remove the annotation to ' +
              'convert without it (the fields it held are then lost)',
        },
      },
    });
    const unknownVersion = await call(server.port, certificate.ca, 'POST', '/convert', review('uid-v', 'llamastack.io/v2', [legacy]));
    expect(JSON.parse(unknownVersion.body).response.result).toEqual({
      status: 'Failure',
      message:
        'LlamaStackDistribution ai/legacy: cannot be converted to "llamastack.io/v2": the supported versions are llamastack.io/v1alpha1 and ' +
          'llamastack.io/v1alpha2',
    });
  });

  it('bad JSON and bodies that are not a ConversionReview get 400 with the reason', async () => {
    const badJson = await call(server.port, certificate.ca, 'POST', '/convert', '{"apiVersion": ');
    expect(badJson.status).toBe(400);
    expect(badJson.body).toMatch(/^the request body is not valid JSON \(.+\): send a ConversionReview as JSON\n$/);
    expect(badJson.body).not.toMatch(/\n\s+at /);
    const notReview = await call(server.port, certificate.ca, 'POST', '/convert', JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap' }));
    expect(notReview.status).toBe(400);
    expect(notReview.body).toBe('the request body must be an apiextensions.k8s.io/v1 ConversionReview\n');
    const noUid = await call(
      server.port,
      certificate.ca,
      'POST',
      '/convert',
      JSON.stringify({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', request: { desiredAPIVersion: 'x', objects: [] } }),
    );
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
    const exit = await Promise.race([
      server.exited,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no exit within 15 s of SIGTERM')), 15_000)),
    ]);
    expect(exit).toEqual({ code: 0, signal: null });
    const lines = server.stderr().trim().split('\n');
    expect(lines[0]).toBe(`llsd-render webhook: listening on https://127.0.0.1:${server.port} (POST /convert, GET /healthz)`);
    expect(lines.at(-1)).toBe('llsd-render webhook: SIGTERM: stopping');
    expect(lines.some((line) => line.startsWith('llsd-render webhook: 400: the request body is not valid JSON ('))).toBe(true);
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

describe('webhook: bounds on every client', () => {
  let certificate: ReturnType<typeof makeCertificate>;
  /** A short request timeout (2 s), default sizes. */
  let quick: Server;
  /** A short handshake timeout (1 s): kept apart, as on a loaded machine the handshake of a test's
   * own client could take longer than that, and the request-timeout tests then failed. */
  let quickHandshake: Server;
  /** Small sizes (1 MiB a body, 1.5 MiB in flight), default timeouts. */
  let small: Server;

  beforeAll(async () => {
    certificate = makeCertificate();
    [quick, quickHandshake, small] = await Promise.all([
      startServer(certificate.cert, certificate.key, { LLSD_RENDER_WEBHOOK_REQUEST_TIMEOUT: '2' }),
      startServer(certificate.cert, certificate.key, { LLSD_RENDER_WEBHOOK_HANDSHAKE_TIMEOUT: '1' }),
      startServer(certificate.cert, certificate.key, { LLSD_RENDER_WEBHOOK_MAX_BODY_MB: '1', LLSD_RENDER_WEBHOOK_MAX_INFLIGHT_MB: '1.5' }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([stopServer(quick), stopServer(quickHandshake), stopServer(small)]);
  });

  it('a body nested thousands of levels deep gets 400 and the limit, not a stack overflow, and the server goes on', async () => {
    // 5,000 levels of objects: the conversion's recursion overflowed the stack (HTTP 500) before.
    const deep = review('uid-deep', 'llamastack.io/v1alpha1', [{ ...current, spec: { ...current.spec, extra: 'DEEP' } }]).replace(
      '"DEEP"',
      `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`,
    );
    const r = await call(small.port, certificate.ca, 'POST', '/convert', deep);
    expect(r.status).toBe(400);
    expect(r.body).toBe(
      'the request body nests objects and lists more than 200 levels deep, the most the webhook reads: send ConversionReviews of LlamaStackDistributions, ' +
        'which need far fewer\n',
    );
    expect(small.stderr()).toContain(
      'llsd-render webhook: 400: the request body nests objects and lists more than 200 levels deep, the most the webhook reads\n',
    );
    const after = await call(small.port, certificate.ca, 'POST', '/convert', review('uid-after', 'llamastack.io/v1alpha2', [current]));
    expect(after.status).toBe(200);
  });

  it('a body larger than LLSD_RENDER_WEBHOOK_MAX_BODY_MB gets 413, declared or sent in chunks', async () => {
    const declared = await call(small.port, certificate.ca, 'POST', '/convert', reviewOfSize('uid-big', 1024 * 1024 + 1));
    expect(declared.status).toBe(413);
    expect(declared.body).toBe('the request body is larger than 1048576 bytes, the most the webhook reads (LLSD_RENDER_WEBHOOK_MAX_BODY_MB)\n');
    const chunked = await new Promise<Response>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: small.port, method: 'POST', path: '/convert', ca: certificate.ca }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      });
      req.on('error', reject);
      const text = reviewOfSize('uid-chunked', 1024 * 1024 + 100);
      req.write(text.slice(0, 600_000));
      req.end(text.slice(600_000));
    });
    expect(chunked.headers['transfer-encoding']).toBeUndefined();
    expect(chunked.status).toBe(413);
  });

  // A new user's curl (it sends `Expect: 100-continue` above 1 MB) got 100 Continue, then a closed
  // connection instead of the 413, in 2 of 9 tries on a loaded machine.
  it('Expect: 100-continue: a body too large gets 413 without 100 Continue; one that fits gets 100 Continue, then its answer', async () => {
    const ask = (bytes: number): Promise<{ status: number; continued: boolean }> =>
      new Promise((resolve, reject) => {
        const text = reviewOfSize('uid-continue', bytes);
        let continued = false;
        const req = request(
          {
            host: '127.0.0.1',
            port: small.port,
            method: 'POST',
            path: '/convert',
            ca: certificate.ca,
            headers: { expect: '100-continue', 'content-length': Buffer.byteLength(text) },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode ?? 0, continued }));
          },
        );
        req.on('continue', () => {
          continued = true;
          req.end(text);
        });
        req.on('error', reject);
        req.flushHeaders();
      });
    expect(await ask(1024 * 1024 + 1)).toEqual({ status: 413, continued: false });
    expect(await ask(10_000)).toEqual({ status: 200, continued: true });
  });

  it('bodies in flight together past LLSD_RENDER_WEBHOOK_MAX_INFLIGHT_MB get 503 and Retry-After; the budget comes back after the answer', async () => {
    const size = 1024 * 1024;
    const held = await openTls(small.port, certificate.ca);
    const heldBody = reviewOfSize('uid-held', size);
    // Bytes are held as they arrive, the buffer doubling: three quarters of the body hold all of it.
    const heldEnding = dripUntilClosed(held, `${requestHead(size, 'connection: close\r\n')}${heldBody.slice(0, (size * 3) / 4)}`, '');
    await sleep(200);

    const refused = await call(small.port, certificate.ca, 'POST', '/convert', reviewOfSize('uid-refused', size));
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.body).toBe(
      'the webhook holds 1572864 bytes of request bodies at once (LLSD_RENDER_WEBHOOK_MAX_INFLIGHT_MB), and other requests hold them now: retry\n',
    );
    // What is left of the budget still serves a small request.
    expect((await call(small.port, certificate.ca, 'POST', '/convert', review('uid-small', 'llamastack.io/v1alpha2', [current]))).status).toBe(200);

    held.write(heldBody.slice((size * 3) / 4));
    const { answer } = await within(heldEnding, 10_000, 'the held request being answered');
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(answer).toContain('"uid":"uid-held"');
    const retried = await call(small.port, certificate.ca, 'POST', '/convert', reviewOfSize('uid-retried', size));
    expect(retried.status).toBe(200);
  });


  it('eight concurrent 15 MB bodies at the default limits: some get 503, and the server stays under 450 MiB', async () => {
    // A request timeout far longer than the default: on a loaded machine the eight uploads can take
    // longer than 30 s, and a cut upload is a reset (EPIPE) to its client, not the 503 counted here.
    const server = await startServer(certificate.cert, certificate.key, { LLSD_RENDER_WEBHOOK_REQUEST_TIMEOUT: '300' });
    try {
      const body = reviewOfSize('uid-15mb', 15_000_000);
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => call(server.port, certificate.ca, 'POST', '/convert', body).catch((error: Error) => error)),
      );
      const statuses = answers.map((a) => (a instanceof Error ? a.message : a.status));
      expect(statuses.filter((s) => s === 200).length, String(statuses)).toBeGreaterThanOrEqual(1);
      expect(statuses.filter((s) => s !== 200), String(statuses)).toEqual(statuses.filter((s) => s === 503));
      expect(statuses).toContain(503);
      // Before the in-flight budget all eight were read at once: 664 MiB. Now at most two bodies
      // are held (about 330 MiB at the peak, most of it the parse and answer of one of them).
      expect(peakRssMiB(server.child.pid!)).toBeLessThan(450);
    } finally {
      await stopServer(server);
    }
  }, 180_000);

  it('a connection that never starts TLS is closed after LLSD_RENDER_WEBHOOK_HANDSHAKE_TIMEOUT', async () => {
    const silent = connectTcp(quickHandshake.port, '127.0.0.1');
    const ending = await dripUntilClosed(silent, '', '');
    expect(ending.ms).toBeGreaterThanOrEqual(900);
  });

  it('a TLS handshake trickled a byte at a time is closed after LLSD_RENDER_WEBHOOK_HANDSHAKE_TIMEOUT too', async () => {
    // The start of a ClientHello record, then a body that never completes it.
    const hello = String.fromCharCode(0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03) + 'x'.repeat(500);
    const trickle = connectTcp(quickHandshake.port, '127.0.0.1');
    trickle.setEncoding('latin1');
    const ending = await dripUntilClosed(trickle, '', hello);
    expect(ending.ms).toBeGreaterThanOrEqual(900);
  });

  it('headers sent a byte at a time are cut at LLSD_RENDER_WEBHOOK_REQUEST_TIMEOUT with 408', async () => {
    const socket = await openTls(quick.port, certificate.ca);
    const ending = await dripUntilClosed(socket, 'POST /convert HTTP/1.1\r\n', 'x-slow: 1\r\n');
    expect(ending.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(ending.ms).toBeGreaterThanOrEqual(1500);
  });

  it('a body sent a byte at a time is cut at LLSD_RENDER_WEBHOOK_REQUEST_TIMEOUT with 408 and the reason', async () => {
    const socket = await openTls(quick.port, certificate.ca);
    const body = review('uid-slow', 'llamastack.io/v1alpha2', [current]);
    const ending = await dripUntilClosed(socket, requestHead(Buffer.byteLength(body)), body);
    expect(ending.answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(ending.answer).toMatch(/\r\n\r\nthe request did not end within 2 s: send the whole request at once and read the answer\n$/);
    expect(ending.ms).toBeGreaterThanOrEqual(1500);
    expect(quick.stderr()).toContain('llsd-render webhook: 408: the request did not end within 2 s\n');
  });

  it('a client that does not read its answer is cut at LLSD_RENDER_WEBHOOK_REQUEST_TIMEOUT, with the answer unsent', async () => {
    const socket = await openTls(quick.port, certificate.ca);
    const body = reviewOfSize('uid-unread', 15_000_000);
    socket.pause();
    let received = 0;
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.on('error', () => {});
    socket.write(requestHead(Buffer.byteLength(body)));
    socket.write(body);
    const cuts = (): number => quick.stderr().split('408: the request did not end within 2 s').length;
    const before = cuts();
    // The cut comes 2 s after the first byte, later on a loaded machine: wait for it (at most 10 s).
    const waited = Date.now();
    while (cuts() === before && Date.now() - waited < 10_000) await sleep(100);
    expect(cuts()).toBe(before + 1);
    // The server closes the connection 250 ms after the 408; the client reads only then.
    await sleep(1500);
    socket.on('data', (chunk: Buffer) => (received += chunk.length));
    socket.resume();
    await within(closed, 5000, 'the close of the unread connection');
    expect(received).toBeGreaterThan(0);
    expect(received).toBeLessThan(15_000_000);
  });

  it('after all of that the server still answers', async () => {
    expect((await call(quick.port, certificate.ca, 'GET', '/healthz')).status).toBe(200);
    expect((await call(small.port, certificate.ca, 'GET', '/healthz')).status).toBe(200);
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
    expect(missing.stderr).toMatch(
      /^llsd-render webhook: cannot use .*none\.pem as the certificate: no such file or directory; give --cert and --key as PEM files\n$/,
    );
    // A device or an endless pipe is refused at 1 MiB, not read to its end (attacker probe: it grew to GBs).
    const endless = run(['webhook', '--cert', '/dev/zero', '--key', '/dev/zero', '--port', '0']);
    expect(endless.status).toBe(1);
    expect(endless.stderr).toBe(
      'llsd-render webhook: cannot use /dev/zero as the certificate: is larger than 1 MiB, and a PEM file is a few kB; give --cert and --key as PEM files\n',
    );
    const notPem = run([
      'webhook',
      '--cert',
      join(import.meta.dirname, 'convert.test.ts'),
      '--key',
      join(import.meta.dirname, 'convert.test.ts'),
      '--port',
      '0',
    ]);
    expect(notPem.status).toBe(1);
    expect(notPem.stderr).toMatch(/^llsd-render webhook: .*convert\.test\.ts and .*convert\.test\.ts must be a PEM certificate and its private key: /);
    expect(notPem.stderr).not.toMatch(/\n\s+at /);
  });

  it('--cert and --key swapped, or a key given as the certificate: exit 1 saying which file holds what and what to pass, not OpenSSL\'s words', () => {
    const { cert, key } = makeCertificate();
    const swapped = run(['webhook', '--cert', key, '--key', cert, '--port', '0']);
    expect(swapped.status).toBe(1);
    expect(swapped.stderr).toBe(
      `llsd-render webhook: --cert ${key} holds a private key and --key ${cert} a certificate: they are swapped; pass --cert ${cert} --key ${key}\n`,
    );
    const twoKeys = run(['webhook', '--cert', key, '--key', key, '--port', '0']);
    expect(twoKeys.stderr).toBe(
      `llsd-render webhook: --cert ${key} holds a private key, not a certificate: pass the PEM certificate (\`-----BEGIN CERTIFICATE-----\`) as --cert\n`,
    );
    const twoCerts = run(['webhook', '--cert', cert, '--key', cert, '--port', '0']);
    expect(twoCerts.stderr).toBe(
      `llsd-render webhook: --key ${cert} holds a certificate, not a private key: pass the PEM private key (\`-----BEGIN PRIVATE KEY-----\`) as --key\n`,
    );
  });

  it('a bound set in the environment that cannot be used exits 1 with what to write', () => {
    const { cert, key } = makeCertificate();
    const cases: Array<[NodeJS.ProcessEnv, string]> = [
      [
        { LLSD_RENDER_WEBHOOK_REQUEST_TIMEOUT: 'soon' },
        'LLSD_RENDER_WEBHOOK_REQUEST_TIMEOUT must be a number of seconds above 0 and at most 2147483 (default 30), not "soon"',
      ],
      [
        { LLSD_RENDER_WEBHOOK_HANDSHAKE_TIMEOUT: '0' },
        'LLSD_RENDER_WEBHOOK_HANDSHAKE_TIMEOUT must be a number of seconds above 0 and at most 2147483 (default 10), not "0"',
      ],
      [{ LLSD_RENDER_WEBHOOK_MAX_BODY_MB: '-1' }, 'LLSD_RENDER_WEBHOOK_MAX_BODY_MB must be a number of MiB above 0 and at most 2047 (default 16), not "-1"'],
      [
        { LLSD_RENDER_WEBHOOK_MAX_INFLIGHT_MB: '1e9' },
        'LLSD_RENDER_WEBHOOK_MAX_INFLIGHT_MB must be a number of MiB above 0 and at most 2047 (default 32), not "1e9"',
      ],
      // A count is whole (an attacker: 1.5 was taken as 2).
      [
        { LLSD_RENDER_WEBHOOK_MAX_CONNECTIONS: '1.5' },
        'LLSD_RENDER_WEBHOOK_MAX_CONNECTIONS must be a whole number of connections above 0 and at most 2147483647 (default 256), not "1.5"',
      ],
      [
        { LLSD_RENDER_WEBHOOK_MAX_BODY_MB: '8', LLSD_RENDER_WEBHOOK_MAX_INFLIGHT_MB: '4' },
        'LLSD_RENDER_WEBHOOK_MAX_BODY_MB must not be larger than LLSD_RENDER_WEBHOOK_MAX_INFLIGHT_MB, or no body of the largest size is ever read',
      ],
    ];
    for (const [env, message] of cases) {
      const r = run(['webhook', '--cert', cert, '--key', key, '--port', '0'], { env });
      expect(r.status, JSON.stringify(env)).toBe(1);
      expect(r.stderr).toBe(`llsd-render webhook: ${message}\n`);
    }
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
