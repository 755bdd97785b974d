// The registry adapter against registries that misbehave in ways docker-registry does not (a
// small node:http registry per test): HEAD refused or without a digest, compressed transfer, 5xx
// mirrors, sha512 digests, manifests served as application/json, layers that are corrupt, zstd or
// mostly zeros, bodies that stall, identity tokens and expiring tokens. The real-registry tests
// are in test/e2e/registry.test.ts.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { create as createTar } from 'tar';
import { afterAll, describe, expect, it } from 'vitest';
import { lookUpImage, type LookupSettings } from '../../src/registry/lookup.js';
import type { ImageLookup } from '../../src/catalog/image-labels.js';

const dirs: string[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'llsd-registry-client-'));
  dirs.push(dir);
  return dir;
};
const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

type Algorithm = 'sha256' | 'sha512';
const digestOf = (bytes: Buffer, algorithm: Algorithm = 'sha256'): string => `${algorithm}:${createHash(algorithm).update(bytes).digest('hex')}`;
const config = 'version: 2\ndistro_name: fake\n';

/** A gzipped tar layer holding `files` (path → content; a Buffer for binary). */
function tarLayer(files: Record<string, string | Buffer>): Buffer {
  const dir = tempDir();
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, 'root', path, '..'), { recursive: true });
    writeFileSync(join(dir, 'root', path), content);
  }
  const out = join(dir, 'layer.tgz');
  createTar({ gzip: true, cwd: join(dir, 'root'), sync: true, file: out, portable: true }, Object.keys(files));
  return readFileSync(out);
}

interface FakeImage {
  labels: Record<string, string>;
  layer?: Buffer;
  layerMediaType?: string;
  algorithm?: Algorithm;
}

interface Behaviour {
  headStatus?: number;
  headWithoutDigest?: boolean;
  contentType?: string;
  gzipEncoding?: boolean;
  status?: number;
  /** Send this many bytes of each blob, then pause for pauseMs before the rest (or forever). */
  stallAfter?: number;
  pauseMs?: number;
  /** Send blobs in pieces of this size, one every drip ms. */
  drip?: { bytes: number; everyMs: number };
  auth?: 'identity-token' | 'expiring';
  /** Answer blob GETs with a 307 to this base URL (blob storage on another host), as registries on S3 or GCS do. */
  redirectBlobsTo?: string;
}

/** A registry serving one image `demo/app:1.0` (and its digest), behaving as told. */
async function fakeRegistry(image: FakeImage, behaviour: Behaviour = {}): Promise<{ host: string; requests: string[]; blobs: Map<string, Buffer> }> {
  const algorithm = image.algorithm ?? 'sha256';
  const layer = image.layer ?? tarLayer({ 'app/config.yaml': config });
  const configBlob = Buffer.from(
    JSON.stringify({ architecture: 'amd64', os: 'linux', config: { Labels: image.labels }, rootfs: { type: 'layers', diff_ids: [] } }),
  );
  const blobs = new Map([
    [digestOf(configBlob, algorithm), configBlob],
    [digestOf(layer, algorithm), layer],
  ]);
  const manifest = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: digestOf(configBlob, algorithm), size: configBlob.length },
      layers: [{ mediaType: image.layerMediaType ?? 'application/vnd.oci.image.layer.v1.tar+gzip', digest: digestOf(layer, algorithm), size: layer.length }],
    }),
  );
  const manifestDigest = digestOf(manifest, algorithm);
  const requests: string[] = [];
  let tokensIssued = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    requests.push(`${req.method} ${req.url}`);
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/token') {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        if (req.method === 'POST' && form.get('grant_type') === 'refresh_token' && form.get('refresh_token') === 'good-refresh') {
          res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ access_token: `tok-${++tokensIssued}` }));
        } else if (req.method === 'GET' && behaviour.auth === 'expiring') {
          res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ token: `tok-${++tokensIssued}` }));
        } else res.writeHead(401).end();
      });
      return;
    }
    if (behaviour.auth) {
      const { port } = server.address() as AddressInfo;
      // `expiring`: the first token stops working after one request.
      const valid =
        behaviour.auth === 'expiring'
          ? (req.headers.authorization === 'Bearer tok-1' && requests.filter((r) => !r.includes('/token')).length <= 2) ||
            req.headers.authorization === 'Bearer tok-2'
          : /^Bearer tok-\d+$/.test(req.headers.authorization ?? '');
      if (!valid) {
        res.writeHead(401, { 'WWW-Authenticate': `Bearer realm="http://127.0.0.1:${port}/token",service="fake",scope="repository:demo/app:pull"` }).end();
        return;
      }
    }
    if (behaviour.status) return void res.writeHead(behaviour.status).end('{"errors":[{"code":"UNAVAILABLE","message":"try later"}]}');
    const manifestMatch = /^\/v2\/demo\/app\/manifests\/(.+)$/.exec(url.pathname);
    if (manifestMatch) {
      if (manifestMatch[1] !== '1.0' && manifestMatch[1] !== manifestDigest) return void res.writeHead(404).end();
      if (req.method === 'HEAD' && behaviour.headStatus) return void res.writeHead(behaviour.headStatus).end();
      const headers: Record<string, string | number> = { 'Content-Type': behaviour.contentType ?? 'application/vnd.oci.image.manifest.v1+json' };
      if (!(req.method === 'HEAD' && behaviour.headWithoutDigest)) headers['Docker-Content-Digest'] = manifestDigest;
      const body = behaviour.gzipEncoding ? gzipSync(manifest) : manifest;
      if (behaviour.gzipEncoding) headers['Content-Encoding'] = 'gzip';
      headers['Content-Length'] = body.length;
      res.writeHead(200, headers);
      return void res.end(req.method === 'HEAD' ? undefined : body);
    }
    const blobMatch = /^\/v2\/demo\/app\/blobs\/(.+)$/.exec(url.pathname);
    const blob = blobMatch ? blobs.get(blobMatch[1] as string) : undefined;
    if (!blob) return void res.writeHead(404).end();
    if (behaviour.redirectBlobsTo) return void res.writeHead(307, { Location: `${behaviour.redirectBlobsTo}/${blobMatch?.[1]}` }).end();
    res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': blob.length });
    if (behaviour.drip) {
      let at = 0;
      const timer = setInterval(() => {
        res.write(blob.subarray(at, (at += behaviour.drip?.bytes ?? 1)));
        if (at >= blob.length) {
          clearInterval(timer);
          res.end();
        }
      }, behaviour.drip.everyMs);
      return;
    }
    if (behaviour.stallAfter !== undefined && blob === layer) {
      res.write(blob.subarray(0, behaviour.stallAfter));
      if (behaviour.pauseMs !== undefined) setTimeout(() => res.end(blob.subarray(behaviour.stallAfter)), behaviour.pauseMs);
      return;
    }
    res.end(blob);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { host: `127.0.0.1:${(server.address() as AddressInfo).port}`, requests, blobs };
}

/** Blob storage on another host: serves `blobs` by digest and records the Authorization header of each request. */
async function blobStorage(blobs: ReadonlyMap<string, Buffer>): Promise<{ url: string; authorizations: Array<string | undefined> }> {
  const authorizations: Array<string | undefined> = [];
  const server = createServer((req, res) => {
    authorizations.push(req.headers.authorization);
    const blob = blobs.get((req.url ?? '').slice(1));
    if (!blob) return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Length': blob.length }).end(blob);
  });
  servers.push(server);
  // `localhost`, not 127.0.0.1: another origin than the registry's, as real blob storage is.
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://localhost:${(server.address() as AddressInfo).port}`, authorizations };
}

const base64Labels = { 'io.llamastack.config.base64': Buffer.from(config).toString('base64') };
const layerLabels = (layer: Buffer, algorithm: Algorithm = 'sha256') => ({
  'io.llamastack.config.layer': digestOf(layer, algorithm),
  'io.llamastack.config.path': '/app/config.yaml',
});

function settings(hosts: string[], extra: Partial<LookupSettings> = {}): LookupSettings {
  return {
    offline: false,
    cacheDir: join(tempDir(), 'cache'),
    mirrors: {},
    insecure: hosts,
    platform: 'linux/amd64',
    timeoutSeconds: 5,
    deadlineSeconds: 60,
    pinDigest: false,
    ...extra,
  };
}
const lookUp = (host: string, extra: Partial<LookupSettings> = {}, env: Record<string, string> = {}): Promise<ImageLookup> =>
  lookUpImage(`${host}/demo/app:1.0`, settings([host], extra), { HOME: tempDir(), ...env });
const textOf = (lookup: ImageLookup): string => (lookup.ok ? lookup.config.text : `error: ${lookup.message}`);
const messageOf = (lookup: ImageLookup): string => (lookup.ok ? 'ok' : lookup.message);

describe('registries that answer HEAD badly', () => {
  it('HEAD refused (405): one GET by tag gives the digest and the manifest', async () => {
    const reg = await fakeRegistry({ labels: base64Labels }, { headStatus: 405 });
    expect(textOf(await lookUp(reg.host))).toBe(config);
    expect(reg.requests.filter((r) => r.includes('/manifests/'))).toEqual(['HEAD /v2/demo/app/manifests/1.0', 'GET /v2/demo/app/manifests/1.0']);
  });

  it('HEAD without Docker-Content-Digest: the manifest of the GET by tag is used, not fetched again', async () => {
    const reg = await fakeRegistry({ labels: base64Labels }, { headWithoutDigest: true });
    expect(textOf(await lookUp(reg.host))).toBe(config);
    expect(reg.requests.filter((r) => r.includes('/manifests/'))).toEqual(['HEAD /v2/demo/app/manifests/1.0', 'GET /v2/demo/app/manifests/1.0']);
  });
});

describe('what a registry sends', () => {
  it('a manifest served as application/json is read by its own mediaType', async () => {
    const reg = await fakeRegistry({ labels: base64Labels }, { contentType: 'application/json' });
    expect(textOf(await lookUp(reg.host))).toBe(config);
  });

  it('a manifest sent gzip-encoded anyway is checked after decoding, not refused as cut off', async () => {
    const reg = await fakeRegistry({ labels: base64Labels }, { gzipEncoding: true });
    expect(textOf(await lookUp(reg.host))).toBe(config);
  });

  it('sha512 digests: manifest, config and layer are checked with sha512', async () => {
    const layer = tarLayer({ 'app/config.yaml': config });
    const reg = await fakeRegistry({ labels: layerLabels(layer, 'sha512'), layer, algorithm: 'sha512' });
    const lookup = await lookUp(reg.host);
    expect(textOf(lookup)).toBe(config);
    expect(lookup.ok && lookup.config.digest).toMatch(/^sha512:[a-f0-9]{128}$/);
  });
});

describe('layers', () => {
  it('a layer of mostly zeros (over tar\'s default ratio of 1000) is read', async () => {
    const layer = tarLayer({ 'var/log/lastlog': Buffer.alloc(40 * 1024 * 1024), 'app/config.yaml': config });
    expect(layer.length).toBeLessThan(40 * 1024 * 1024 / 500);
    const reg = await fakeRegistry({ labels: layerLabels(layer), layer });
    expect(textOf(await lookUp(reg.host))).toBe(config);
  });

  it('a layer that is not a gzipped tar (with its right digest): an error, no hang, not cached', async () => {
    const layer = Buffer.concat([gzipSync(Buffer.alloc(2048, 7)).subarray(0, 40)]);
    const reg = await fakeRegistry({ labels: layerLabels(layer), layer });
    const s = settings([reg.host]);
    const lookup = await lookUpImage(`${reg.host}/demo/app:1.0`, s, { HOME: tempDir() });
    expect(messageOf(lookup)).toMatch(
      new RegExp(`^the layer sha256:[a-f0-9]{64} of ${reg.host}/demo/app:1\\.0 is not a tar archive llsd-render can read \\(.+\\)$`),
    );
  });

  it('a zstd layer: a clear error naming the type', async () => {
    const layer = Buffer.from('not really zstd');
    const reg = await fakeRegistry({ labels: layerLabels(layer), layer, layerMediaType: 'application/vnd.oci.image.layer.v1.tar+zstd' });
    expect(messageOf(await lookUp(reg.host))).toBe(
      `${reg.host}/demo/app:1.0 cannot give its config.yaml: its layer ${digestOf(layer)} is of type "application/vnd.oci.image.layer.v1.tar+zstd", which ` +
        `llsd-render cannot unpack (tar, tar+gzip); put the config in a gzip-compressed layer or in the io.llamastack.config.base64 label`,
    );
  });
});

describe('time limits', () => {
  it('a body that stalls longer than timeoutSeconds is a timeout that says how far it got', async () => {
    const layer = tarLayer({ 'app/config.yaml': config, 'big.bin': Buffer.from(createHash('sha512').update('x').digest('hex').repeat(2000)) });
    const reg = await fakeRegistry({ labels: layerLabels(layer), layer }, { stallAfter: 100, pauseMs: 3000 });
    expect(messageOf(await lookUp(reg.host, { timeoutSeconds: 1 }))).toBe(
      `${reg.host} stopped sending the layer ${digestOf(layer)} of demo/app for 1 s after 100 bytes (RenderConfig \`registry.timeoutSeconds\`)`,
    );
  });

  it('a body that keeps arriving may take longer than timeoutSeconds in all', async () => {
    const reg = await fakeRegistry({ labels: base64Labels }, { drip: { bytes: 20, everyMs: 200 } });
    expect(textOf(await lookUp(reg.host, { timeoutSeconds: 1 }))).toBe(config);
    // The fake registry sends one 20-byte piece every 200 ms: the blob took longer than the 1 s in all to arrive.
    const read = reg.requests.filter((r) => r.startsWith('GET ') && r.includes('/blobs/')).map((r) => reg.blobs.get(r.split('/blobs/')[1] ?? ''));
    expect(read.map((blob) => Math.ceil((blob?.length ?? 0) / 20) * 200)).toEqual([expect.toSatisfy((ms: number) => ms > 1000)]);
  });

  it('a body dripping one byte at a time, each pause inside timeoutSeconds, is stopped by deadlineSeconds with an error naming the image (issue 29, R1)', async () => {
    // The config blob is some 200 bytes: at a byte every 300 ms, over a minute without the deadline.
    const reg = await fakeRegistry({ labels: base64Labels }, { drip: { bytes: 1, everyMs: 300 } });
    const started = Date.now();
    const lookup = await lookUp(reg.host, { timeoutSeconds: 1, deadlineSeconds: 1.5 });
    const elapsed = Date.now() - started;
    const blob = reg.requests.find((r) => r.startsWith('GET ') && r.includes('/blobs/'))?.split('/blobs/')[1] ?? '';
    expect(messageOf(lookup)).toBe(
      `reading the labels of "${reg.host}/demo/app:1.0" took longer than the deadline of 1.5 s (${reg.host} was still sending the blob ${blob} of ` +
        'demo/app when the deadline passed (RenderConfig `registry.deadlineSeconds`)): raise RenderConfig `registry.deadlineSeconds` for a slow registry, ' +
        'use a mirror (`registry.mirrors`), or render from the cache (`--offline`)',
    );
    expect(elapsed).toBeGreaterThanOrEqual(1400);
    expect(elapsed).toBeLessThan(5000);
  });

  it('the deadline covers the mirrors too: a dripping mirror uses it up, and the registry after it is not tried', async () => {
    const mirror = await fakeRegistry({ labels: base64Labels }, { drip: { bytes: 1, everyMs: 300 } });
    const origin = await fakeRegistry({ labels: base64Labels });
    const lookup = await lookUpImage(
      `${origin.host}/demo/app:1.0`,
      settings([mirror.host, origin.host], { timeoutSeconds: 1, deadlineSeconds: 1.5, mirrors: { [origin.host]: [mirror.host] } }),
      { HOME: tempDir() },
    );
    const start = `reading the labels of "${origin.host}/demo/app:1.0" took longer than the deadline of 1.5 s (${mirror.host} was still sending`;
    expect(messageOf(lookup).startsWith(start), messageOf(lookup)).toBe(true);
    expect(origin.requests).toEqual([]);
  });
});

describe('mirrors', () => {
  it('a mirror answering 503 hands over to the registry; a mirror that is down too', async () => {
    const mirror = await fakeRegistry({ labels: base64Labels }, { status: 503 });
    const origin = await fakeRegistry({ labels: { 'io.llamastack.config.base64': Buffer.from('version: 2\ndistro_name: origin\n').toString('base64') } });
    const lookup = await lookUpImage(
      `${origin.host}/demo/app:1.0`,
      settings([mirror.host, origin.host, '127.0.0.1:9'], { mirrors: { [origin.host]: ['127.0.0.1:9', mirror.host] } }),
      { HOME: tempDir() },
    );
    expect(textOf(lookup)).toBe('version: 2\ndistro_name: origin\n');
    expect(lookup.ok && lookup.host).toBe(origin.host);
  });

  it('the registry\'s own 503 is the answer, kind unavailable, with its message', async () => {
    const reg = await fakeRegistry({ labels: base64Labels }, { status: 503 });
    expect(messageOf(await lookUp(reg.host))).toBe(`${reg.host} answered HTTP 503 for the manifest of demo/app:1.0, UNAVAILABLE: try later`);
  });
});

describe('redirects', () => {
  it('a blob redirected to storage on another host is fetched there, without the registry\'s credentials', async () => {
    const layer = tarLayer({ 'app/config.yaml': config });
    const labels = layerLabels(layer);
    // Serve the blobs of a registry identical to the one under test (same content, same digests).
    const template = await fakeRegistry({ labels, layer });
    const storage = await blobStorage(template.blobs);
    const reg = await fakeRegistry({ labels, layer }, { auth: 'identity-token', redirectBlobsTo: storage.url });
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ auths: { [reg.host]: { identitytoken: 'good-refresh' } } }));
    expect(textOf(await lookUp(reg.host, {}, { DOCKER_CONFIG: dir }))).toBe(config);
    expect(storage.authorizations).toHaveLength(2); // the config blob and the layer
    expect(storage.authorizations).toEqual([undefined, undefined]);
    expect(reg.requests.filter((r) => r.includes('/blobs/'))).toHaveLength(2);
  });
});

describe('tokens', () => {
  it('an identity token is exchanged with the refresh-token grant for an access token', async () => {
    const reg = await fakeRegistry({ labels: base64Labels }, { auth: 'identity-token' });
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ auths: { [reg.host]: { identitytoken: 'good-refresh' } } }));
    expect(textOf(await lookUp(reg.host, {}, { DOCKER_CONFIG: dir }))).toBe(config);
    expect(reg.requests).toContain('POST /token');
  });

  it('a token that expires during the lookup is negotiated again once', async () => {
    const reg = await fakeRegistry({ labels: base64Labels }, { auth: 'expiring' });
    expect(textOf(await lookUp(reg.host))).toBe(config);
    expect(reg.requests.filter((r) => r.startsWith('GET /token'))).toHaveLength(2);
  });
});
