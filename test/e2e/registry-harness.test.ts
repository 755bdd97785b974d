// Tests of the registry harness itself (registry-harness.ts), with real requests (Node fetch) against
// Debian's docker-registry: images, indexes and label rewrites as the registry serves them, htpasswd
// and token auth, every proxy mode, and a port where nothing listens.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closedPort,
  getBlob,
  getManifest,
  manifestAccept,
  mediaTypes,
  pushImage,
  pushIndex,
  putLabels,
  requireRegistryTools,
  sha256,
  startProxy,
  startRegistry,
  type ImageManifest,
  type Proxy,
  type PushedImage,
  type Registry,
} from './registry-harness.js';

const user = 'tester';
const password = 'p4ss:w0rd!';
const basic = (u: string, p: string): string => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;

/** The labels of an image, read from its config blob. */
async function labelsOf(registry: Registry, repository: string, image: PushedImage): Promise<Record<string, string>> {
  const config = JSON.parse((await getBlob(registry, repository, image.configDigest)).toString('utf8')) as { config: { Labels: Record<string, string> } };
  return config.config.Labels;
}

/** Parses `Bearer realm="...",service="...",scope="..."`. */
function parseChallenge(header: string | null): Record<string, string> {
  const params: Record<string, string> = {};
  for (const m of (header ?? '').matchAll(/(\w+)="([^"]*)"/g)) params[m[1] ?? ''] = m[2] ?? '';
  return params;
}

describe('registry harness', () => {
  const started: Array<{ stop(): Promise<void> }> = [];
  let plain: Registry;
  let app: PushedImage;

  beforeAll(async () => {
    requireRegistryTools();
    plain = await startRegistry();
    started.push(plain);
    app = await pushImage(plain, {
      repository: 'demo/app',
      tag: 'oci',
      labels: { 'io.llamastack.config.version': '2', 'example.com/note': 'a=b c' },
      files: { '/app/config.yaml': 'version: 2\nimage_name: demo\n', '/app/other/readme.txt': 'hello\n' },
    });
  });

  afterAll(async () => {
    for (const s of started.reverse()) await s.stop();
  });

  it('requireRegistryTools finds docker-registry, buildah, python3 and openssl, and says how to install them when missing', () => {
    expect(() => requireRegistryTools()).not.toThrow();
    expect(() => requireRegistryTools('/nonexistent')).toThrow(
      /docker-registry not found on PATH: .*apt-get install docker-registry buildah \(`npm run test:prereqs` installs them\)/,
    );
  });

  it('serves a pushed OCI image with its labels in the config blob and all files in one layer', async () => {
    expect(plain.host).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(plain.url).toBe(`http://${plain.host}`);
    const v2 = await fetch(`${plain.url}/v2/`);
    expect(v2.status).toBe(200);

    expect(app.reference).toBe(`${plain.host}/demo/app:oci`);
    expect(app.mediaType).toBe(mediaTypes.ociManifest);
    expect(app.layers).toHaveLength(1);
    const res = await fetch(`${plain.url}/v2/demo/app/manifests/oci`, { headers: { Accept: manifestAccept } });
    expect(res.status).toBe(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(res.headers.get('docker-content-digest')).toBe(app.digest);
    expect(`sha256:${sha256(bytes)}`).toBe(app.digest);
    expect((JSON.parse(bytes.toString('utf8')) as ImageManifest).config.digest).toBe(app.configDigest);

    const labels = await labelsOf(plain, 'demo/app', app);
    expect(labels).toMatchObject({ 'io.llamastack.config.version': '2', 'example.com/note': 'a=b c' });
    const config = JSON.parse((await getBlob(plain, 'demo/app', app.configDigest)).toString('utf8')) as { architecture: string; os: string };
    expect(config).toMatchObject({ architecture: 'amd64', os: 'linux' });

    // The single layer is a gzipped tar holding both files.
    const layer = await getBlob(plain, 'demo/app', app.layers[0] ?? '');
    const { gunzipSync } = await import('node:zlib');
    const tar = gunzipSync(layer).toString('latin1');
    expect(tar).toContain('app/config.yaml');
    expect(tar).toContain('app/other/readme.txt');
    expect(tar).toContain('image_name: demo');
  });

  it('serves a pushed Docker schema 2 image (format v2s2) with its labels', async () => {
    const image = await pushImage(plain, { repository: 'demo/docker', tag: 'v1', format: 'v2s2', arch: 'arm64', labels: { 'example.com/kind': 'docker' } });
    expect(image.mediaType).toBe(mediaTypes.dockerManifest);
    expect(image.manifest.config.mediaType).toBe('application/vnd.docker.container.image.v1+json');
    const res = await fetch(`${plain.url}/v2/demo/docker/manifests/v1`, { headers: { Accept: manifestAccept } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(mediaTypes.dockerManifest);
    expect(res.headers.get('docker-content-digest')).toBe(image.digest);
    expect(await labelsOf(plain, 'demo/docker', image)).toMatchObject({ 'example.com/kind': 'docker' });
    const config = JSON.parse((await getBlob(plain, 'demo/docker', image.configDigest)).toString('utf8')) as { architecture: string };
    expect(config.architecture).toBe('arm64');
  });

  it('pushIndex pushes an OCI image index and a Docker manifest list with two platforms', async () => {
    for (const format of ['oci', 'v2s2'] as const) {
      const index = await pushIndex(plain, {
        repository: 'demo/multi',
        tag: format,
        format,
        images: [
          { arch: 'amd64', labels: { 'example.com/arch': 'amd64' } },
          { arch: 'arm64', labels: { 'example.com/arch': 'arm64' }, files: { '/etc/arch': 'arm64\n' } },
        ],
      });
      expect(index.mediaType).toBe(format === 'oci' ? mediaTypes.ociIndex : mediaTypes.dockerList);
      const res = await fetch(`${plain.url}/v2/demo/multi/manifests/${format}`, { headers: { Accept: manifestAccept } });
      expect(res.status).toBe(200);
      expect(res.headers.get('docker-content-digest')).toBe(index.digest);
      const served = (await res.json()) as { manifests: Array<{ digest: string; platform: { architecture: string; os: string } }> };
      expect(served.manifests.map((m) => `${m.platform.os}/${m.platform.architecture}`).sort()).toEqual(['linux/amd64', 'linux/arm64']);
      // Each platform's manifest and labels are there too.
      for (const entry of index.manifests) {
        const child = await getManifest(plain, 'demo/multi', entry.digest);
        expect(child.mediaType).toBe(format === 'oci' ? mediaTypes.ociManifest : mediaTypes.dockerManifest);
        const manifest = child.json as ImageManifest;
        const config = JSON.parse((await getBlob(plain, 'demo/multi', manifest.config.digest)).toString('utf8')) as {
          architecture: string;
          config: { Labels: Record<string, string> };
        };
        expect(config.architecture).toBe(entry.platform.architecture);
        expect(config.config.Labels['example.com/arch']).toBe(entry.platform.architecture);
      }
    }
  });

  it('putLabels adds a label (naming a layer of the image itself) and keeps the layer digests', async () => {
    const layer = app.layers[0] ?? '';
    const labelled = await putLabels(plain, { repository: 'demo/app', fromTag: 'oci', toTag: 'labelled', labels: { 'io.llamastack.config.layer': layer } });
    expect(labelled.reference).toBe(`${plain.host}/demo/app:labelled`);
    expect(labelled.layers).toEqual(app.layers);
    expect(labelled.mediaType).toBe(app.mediaType);
    expect(labelled.configDigest).not.toBe(app.configDigest);
    expect(labelled.digest).not.toBe(app.digest);
    const labels = await labelsOf(plain, 'demo/app', labelled);
    expect(labels).toMatchObject({ 'io.llamastack.config.layer': layer, 'io.llamastack.config.version': '2' });
    // The source tag is untouched; the named layer is a blob of the same repository.
    expect((await getManifest(plain, 'demo/app', 'oci')).digest).toBe(app.digest);
    expect((await fetch(`${plain.url}/v2/demo/app/blobs/${layer}`, { method: 'HEAD' })).status).toBe(200);

    // Also for a Docker schema 2 image.
    const docker = await pushImage(plain, { repository: 'demo/docker', tag: 'src', format: 'v2s2', files: { '/x': 'x' } });
    const relabelled = await putLabels(plain, { repository: 'demo/docker', fromTag: 'src', toTag: 'dst', labels: { a: 'b' } });
    expect(relabelled.mediaType).toBe(mediaTypes.dockerManifest);
    expect(relabelled.layers).toEqual(docker.layers);
    expect(await labelsOf(plain, 'demo/docker', relabelled)).toMatchObject({ a: 'b' });
  });

  it('htpasswd: 401 with a Basic challenge without credentials, 200 with them', async () => {
    const registry = await startRegistry({ auth: { kind: 'htpasswd', user, password } });
    started.push(registry);
    const image = await pushImage(registry, { repository: 'secure/app', tag: 'v1', labels: { k: 'v' }, files: { '/a': 'a' } });

    const url = `${registry.url}/v2/secure/app/manifests/v1`;
    const anonymous = await fetch(url, { headers: { Accept: manifestAccept } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic realm="basic-realm"/);
    const wrong = await fetch(url, { headers: { Accept: manifestAccept, Authorization: basic(user, 'nope') } });
    expect(wrong.status).toBe(401);
    const ok = await fetch(url, { headers: { Accept: manifestAccept, Authorization: basic(user, password) } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('docker-content-digest')).toBe(image.digest);

    const labelled = await putLabels(registry, { repository: 'secure/app', fromTag: 'v1', toTag: 'v2', labels: { added: 'yes' } });
    expect(await labelsOf(registry, 'secure/app', labelled)).toMatchObject({ k: 'v', added: 'yes' });
  });

  it('token: 401 with a Bearer challenge; a token from the realm gives 200; buildah pushes through the token server', async () => {
    const registry = await startRegistry({ auth: { kind: 'token', user, password } });
    started.push(registry);
    const image = await pushImage(registry, { repository: 'tok/app', tag: 'v1', labels: { k: 'v' }, files: { '/a': 'a' } });
    // buildah got its tokens from the token server, with pull and push scopes.
    expect(registry.tokenRequests.filter((r) => r.status === 200 && r.user === user).length).toBeGreaterThan(0);
    expect(registry.tokenRequests.some((r) => r.scopes.some((s) => s.startsWith('repository:tok/app:') && s.includes('push')))).toBe(true);

    const url = `${registry.url}/v2/tok/app/manifests/v1`;
    const anonymous = await fetch(url, { headers: { Accept: manifestAccept } });
    expect(anonymous.status).toBe(401);
    const header = anonymous.headers.get('www-authenticate');
    expect(header).toMatch(/^Bearer realm="http:\/\/127\.0\.0\.1:\d+\/token"/);
    const challenge = parseChallenge(header);
    expect(challenge).toMatchObject({ service: 'test-registry', scope: 'repository:tok/app:pull' });

    const tokenUrl = new URL(challenge.realm ?? '');
    tokenUrl.searchParams.set('service', challenge.service ?? '');
    tokenUrl.searchParams.set('scope', challenge.scope ?? '');
    expect((await fetch(tokenUrl)).status).toBe(401);
    expect((await fetch(tokenUrl, { headers: { Authorization: basic(user, 'wrong') } })).status).toBe(401);
    const tokenRes = await fetch(tokenUrl, { headers: { Authorization: basic(user, password) } });
    expect(tokenRes.status).toBe(200);
    const body = (await tokenRes.json()) as { token: string; access_token: string; expires_in: number };
    expect(body.access_token).toBe(body.token);
    expect(body.expires_in).toBe(300);
    const [rawHeader, rawClaims] = body.token.split('.');
    expect(JSON.parse(Buffer.from(rawHeader ?? '', 'base64url').toString('utf8'))).toMatchObject({ typ: 'JWT', alg: 'RS256', x5c: [expect.any(String)] });
    expect(JSON.parse(Buffer.from(rawClaims ?? '', 'base64url').toString('utf8'))).toMatchObject({
      iss: 'test-issuer',
      sub: user,
      aud: 'test-registry',
      access: [{ type: 'repository', name: 'tok/app', actions: ['pull'] }],
    });

    const ok = await fetch(url, { headers: { Accept: manifestAccept, Authorization: `Bearer ${body.token}` } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('docker-content-digest')).toBe(image.digest);
    // The registry checks the signature: the same token with other claims is refused.
    const forgedClaims = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(rawClaims ?? '', 'base64url').toString('utf8')), sub: 'mallory' })).toString(
      'base64url',
    );
    const forged = [rawHeader, forgedClaims, body.token.split('.')[2]].join('.');
    expect((await fetch(url, { headers: { Accept: manifestAccept, Authorization: `Bearer ${forged}` } })).status).toBe(401);
    // The pull-only token does not allow a push.
    const push = await fetch(`${registry.url}/v2/tok/app/blobs/uploads/`, { method: 'POST', headers: { Authorization: `Bearer ${body.token}` } });
    expect(push.status).toBe(401);

    const labelled = await putLabels(registry, { repository: 'tok/app', fromTag: 'v1', toTag: 'v2', labels: { added: 'yes' } });
    expect(labelled.layers).toEqual(image.layers);
    expect(await labelsOf(registry, 'tok/app', labelled)).toMatchObject({ k: 'v', added: 'yes' });
  });

  it('token: docker-registry also accepts a JWT that names its key by libtrust kid instead of x5c', async () => {
    const registry = await startRegistry({ auth: { kind: 'token', user, password, jwtHeader: 'kid' } });
    started.push(registry);
    const image = await pushImage(registry, { repository: 'kid/app', tag: 'v1' });
    const tokenUrl = new URL(registry.token?.realm ?? '');
    tokenUrl.searchParams.set('service', 'test-registry');
    tokenUrl.searchParams.set('scope', 'repository:kid/app:pull');
    const { token } = (await (await fetch(tokenUrl, { headers: { Authorization: basic(user, password) } })).json()) as { token: string };
    expect(JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8'))).toMatchObject({
      kid: expect.stringMatching(/^([A-Z2-7]{4}:){11}[A-Z2-7]{4}$/),
    });
    const ok = await fetch(`${registry.url}/v2/kid/app/manifests/v1`, { headers: { Accept: manifestAccept, Authorization: `Bearer ${token}` } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('docker-content-digest')).toBe(image.digest);
  });

  describe('proxy', () => {
    let proxy: Proxy;
    beforeAll(async () => {
      proxy = await startProxy(plain);
      started.push(proxy);
    });

    const blobUrl = (): string => `${proxy.url}/v2/demo/app/blobs/${app.layers[0] ?? ''}`;
    const manifestUrl = (): string => `${proxy.url}/v2/demo/app/manifests/oci`;

    it('pass: forwards requests and answers unchanged, recording method, path and status', async () => {
      proxy.setMode('pass');
      const before = proxy.requests.length;
      const manifest = await fetch(manifestUrl(), { headers: { Accept: manifestAccept } });
      expect(manifest.status).toBe(200);
      expect(`sha256:${sha256(Buffer.from(await manifest.arrayBuffer()))}`).toBe(app.digest);
      const blob = await fetch(blobUrl());
      expect(blob.status).toBe(200);
      expect(`sha256:${sha256(Buffer.from(await blob.arrayBuffer()))}`).toBe(app.layers[0]);
      const head = await fetch(manifestUrl(), { method: 'HEAD', headers: { Accept: manifestAccept } });
      expect(head.headers.get('docker-content-digest')).toBe(app.digest);
      const missing = await fetch(`${proxy.url}/v2/demo/nothing/manifests/latest`, { headers: { Accept: manifestAccept } });
      expect(missing.status).toBe(404);
      expect(proxy.requests.slice(before)).toEqual([
        { method: 'GET', path: '/v2/demo/app/manifests/oci', status: 200 },
        { method: 'GET', path: `/v2/demo/app/blobs/${app.layers[0] ?? ''}`, status: 200 },
        { method: 'HEAD', path: '/v2/demo/app/manifests/oci', status: 200 },
        { method: 'GET', path: '/v2/demo/nothing/manifests/latest', status: 404 },
      ]);
    });

    it('pass: an upload through the proxy (POST, PUT with Location) reaches the registry', async () => {
      proxy.setMode('pass');
      const start = await fetch(`${proxy.url}/v2/demo/upload/blobs/uploads/`, { method: 'POST' });
      expect(start.status).toBe(202);
      const location = new URL(start.headers.get('location') ?? '', proxy.url);
      expect(location.host).toBe(proxy.host);
      const data = Buffer.from('through the proxy');
      location.searchParams.set('digest', `sha256:${sha256(data)}`);
      const put = await fetch(location, { method: 'PUT', body: data, headers: { 'Content-Type': 'application/octet-stream' } });
      expect(put.status).toBe(201);
      expect((await getBlob(plain, 'demo/upload', `sha256:${sha256(data)}`)).equals(data)).toBe(true);
    });

    it('truncate-blobs: a blob body stops at half of its Content-Length', async () => {
      proxy.setMode('truncate-blobs');
      const res = await fetch(blobUrl());
      expect(res.status).toBe(200);
      const length = Number(res.headers.get('content-length'));
      expect(length).toBeGreaterThan(0);
      let received: number | undefined;
      let failure: unknown;
      try {
        received = (await res.arrayBuffer()).byteLength;
      } catch (error) {
        failure = error;
      }
      expect(failure !== undefined || (received ?? length) < length).toBe(true);
      // Manifests pass unchanged.
      expect((await fetch(manifestUrl(), { headers: { Accept: manifestAccept } })).status).toBe(200);
    });

    it('corrupt-blobs: same length, but the sha256 no longer matches the digest', async () => {
      proxy.setMode('corrupt-blobs');
      const res = await fetch(blobUrl());
      expect(res.status).toBe(200);
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(bytes.length).toBe(Number(res.headers.get('content-length')));
      expect(`sha256:${sha256(bytes)}`).not.toBe(app.layers[0]);
      const manifest = await fetch(manifestUrl(), { headers: { Accept: manifestAccept } });
      expect(`sha256:${sha256(Buffer.from(await manifest.arrayBuffer()))}`).toBe(app.digest);
    });

    it('corrupt-manifests: valid JSON of the same length whose sha256 differs from Docker-Content-Digest', async () => {
      proxy.setMode('corrupt-manifests');
      const res = await fetch(manifestUrl(), { headers: { Accept: manifestAccept } });
      expect(res.status).toBe(200);
      expect(res.headers.get('docker-content-digest')).toBe(app.digest);
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(bytes.length).toBe(Number(res.headers.get('content-length')));
      expect(`sha256:${sha256(bytes)}`).not.toBe(app.digest);
      const manifest = JSON.parse(bytes.toString('utf8')) as ImageManifest;
      expect(manifest.layers[0]?.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(manifest.layers[0]?.digest).not.toBe(app.layers[0]);
      expect(manifest.config.digest).toBe(app.configDigest);
      const blob = await fetch(blobUrl());
      expect(`sha256:${sha256(Buffer.from(await blob.arrayBuffer()))}`).toBe(app.layers[0]);
    });

    it('slow: delays manifests and blobs, not /v2/', async () => {
      // /v2/ is not delayed: it answers before a delay it would have had to wait out (no upper
      // bound on a time; only a race against the delay itself, with ten times the margin).
      proxy.setMode('slow', 30_000);
      const answered = fetch(`${proxy.url}/v2/`).then((res) => res.status);
      const delayed = new Promise<string>((resolve) => setTimeout(() => resolve('delayed'), 3_000).unref());
      expect(await Promise.race([answered, delayed])).toBe(200);
      proxy.setMode('slow', 400);
      let t = Date.now();
      expect((await fetch(manifestUrl(), { headers: { Accept: manifestAccept } })).status).toBe(200);
      expect(Date.now() - t).toBeGreaterThanOrEqual(390);
      t = Date.now();
      await (await fetch(blobUrl())).arrayBuffer();
      expect(Date.now() - t).toBeGreaterThanOrEqual(390);
      // A client that gives up early gets nothing.
      await expect(fetch(manifestUrl(), { headers: { Accept: manifestAccept }, signal: AbortSignal.timeout(100) })).rejects.toThrow();
      proxy.setMode('pass');
    });

    it('with an auth registry, forwards Authorization', async () => {
      const registry = await startRegistry({ auth: { kind: 'htpasswd', user, password } });
      started.push(registry);
      await pushImage(registry, { repository: 'secure/app', tag: 'v1' });
      const authProxy = await startProxy(registry);
      started.push(authProxy);
      const url = `${authProxy.url}/v2/secure/app/manifests/v1`;
      expect((await fetch(url, { headers: { Accept: manifestAccept } })).status).toBe(401);
      expect((await fetch(url, { headers: { Accept: manifestAccept, Authorization: basic(user, password) } })).status).toBe(200);
      expect(authProxy.requests.map((r) => r.status)).toEqual([401, 200]);
    });
  });

  it('proxy: follows a redirect of a blob GET itself, so the bytes come through the proxy', async () => {
    const data = Buffer.from('redirected blob bytes');
    const seen: string[] = [];
    const fake = createServer((req, res) => {
      seen.push(req.url ?? '');
      if (req.url?.startsWith('/v2/r/blobs/')) {
        res.writeHead(307, { Location: `http://${req.headers.host ?? ''}/storage/blob` });
        return res.end();
      }
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': String(data.length) });
      res.end(data);
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    const fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
    const proxy = await startProxy({ url: fakeUrl }, { mode: 'corrupt-blobs' });
    try {
      const res = await fetch(`${proxy.url}/v2/r/blobs/sha256:${sha256(data)}`, { redirect: 'manual' });
      expect(res.status).toBe(200);
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(bytes.length).toBe(data.length);
      expect(bytes.equals(data)).toBe(false); // the followed body went through the proxy's corruption
      proxy.setMode('pass');
      expect(Buffer.from(await (await fetch(`${proxy.url}/v2/r/blobs/sha256:${sha256(data)}`, { redirect: 'manual' })).arrayBuffer()).equals(data)).toBe(true);
      expect(seen).toEqual([`/v2/r/blobs/sha256:${sha256(data)}`, '/storage/blob', `/v2/r/blobs/sha256:${sha256(data)}`, '/storage/blob']);
      expect(proxy.requests.map((r) => r.status)).toEqual([200, 200]);
    } finally {
      await proxy.stop();
      await new Promise<void>((resolve) => fake.close(() => resolve()));
    }
  });

  it('closedPort gives a 127.0.0.1 port that refuses connections', async () => {
    const host = await closedPort();
    expect(host).toMatch(/^127\.0\.0\.1:\d+$/);
    await expect(fetch(`http://${host}/v2/`)).rejects.toMatchObject({ cause: { code: 'ECONNREFUSED' } });
  });

  it('stop() ends the registry: its port refuses connections afterwards; a second stop is harmless', async () => {
    const registry = await startRegistry();
    expect((await fetch(`${registry.url}/v2/`)).status).toBe(200);
    await registry.stop();
    await registry.stop();
    await expect(fetch(`${registry.url}/v2/`)).rejects.toMatchObject({ cause: { code: 'ECONNREFUSED' } });
  });
});
