// `spec.distribution.image` without overrideConfig: the base config read from the image's OCI
// labels (FR-027, docs/config-generation.md/§7), by the built bundle as a process, against Debian's docker-registry
// started here on 127.0.0.1 with images pushed by buildah (test/e2e/registry-harness.ts). Covers
// both manifest formats, base64 and layer labels, indexes, the cache and offline mode, mirrors,
// Basic and Bearer auth with credentials from an auth file, and the network and registry faults.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify } from 'yaml';
import { closedPort, pushImage, pushIndex, putLabels, requireRegistryTools, startProxy, startRegistry, type Proxy, type Registry } from './registry-harness.js';
import { ofKind, parseStream, repoRoot, requireBundle, requireTool, type K8sObject } from './tools.js';

const baseText = readFileSync(join(repoRoot, 'configs', 'distributions', 'starter', '0.7.1.yaml'), 'utf8');
/** The shipped starter 0.7.1 config with its own distro_name, so the output shows which config was used. */
const configNamed = (name: string): string => baseText.replace(/^distro_name: .*$/m, `distro_name: ${name}`);
const base64Labels = (name: string): Record<string, string> => ({
  'io.llamastack.config.base64': Buffer.from(configNamed(name)).toString('base64'),
  'io.llamastack.config.version': '2',
  'org.opencontainers.image.version': '0.7.1',
});

interface Outcome {
  status: number | null;
  stdout: string;
  stderr: string;
  objects: K8sObject[];
}

const dirs: string[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'llsd-registry-e2e-'));
  dirs.push(dir);
  return dir;
};

/**
 * `llsd-render build` (or `validate`) of one LLSD running `image`, with a RenderConfig `registry`
 * option; asynchronous, because the registry's proxy and token server live in this process.
 */
async function render(
  image: string,
  registry: Record<string, unknown>,
  options: { env?: Record<string, string>; args?: string[]; command?: 'build' | 'validate'; kind?: 'OGXServer' } = {},
): Promise<Outcome> {
  const dir = tempDir();
  writeFileSync(
    join(dir, 'llsd.yaml'),
    stringify(
      options.kind === 'OGXServer'
        // `resources: {}` makes the config generated, from the image's base config (GENERATION.md §1).
        ? { apiVersion: 'ogx.io/v1beta1', kind: 'OGXServer', metadata: { name: 'custom', namespace: 'ai' }, spec: { distribution: { image }, resources: {} } }
        : {
            apiVersion: 'llamastack.io/v1alpha2',
            kind: 'LlamaStackDistribution',
            metadata: { name: 'custom', namespace: 'ai' },
            spec: { distribution: { image } },
          },
    ),
  );
  writeFileSync(
    join(dir, 'render-config.yaml'),
    stringify({ apiVersion: 'fn.llamastack.io/v1alpha1', kind: 'RenderConfig', metadata: { name: 'options' }, spec: { registry } }),
  );
  const args = [requireBundle(), options.command ?? 'build', '--config', join(dir, 'render-config.yaml'), ...(options.args ?? []), join(dir, 'llsd.yaml')];
  // HOME is a fresh directory: no auth file or cache of the machine's user is used.
  const env = { PATH: process.env.PATH ?? '', HOME: dir, ...options.env };
  const result = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
  expect(result.stderr, 'no stack trace').not.toMatch(/\n\s+at .+:\d+:\d+/);
  return { ...result, objects: result.status === 0 && (options.command ?? 'build') === 'build' ? parseStream(result.stdout) : [] };
}

const configOf = (o: Outcome): Record<string, unknown> => {
  const map = ofKind(o.objects, 'ConfigMap').find((m) => m.metadata.name.startsWith('custom-config-'));
  return parseYaml(String((map?.data as Record<string, string> | undefined)?.['config.yaml'])) as Record<string, unknown>;
};
const imageOf = (o: Outcome): string =>
  (
    (ofKind(o.objects, 'Deployment')[0]?.spec as { template: { spec: { containers: Array<{ image: string }> } } }).template.spec.containers[0] as {
      image: string;
    }
  ).image;
/** The stderr line of the error, without the `file:line: ai/custom: spec.distribution.image: ` prefix. */
const errorOf = (o: Outcome): string => {
  expect(o.status, o.stderr).toBe(1);
  expect(o.stdout).toBe('');
  return o.stderr.replace(/^.*?spec\.distribution\.image: /, '').trim();
};
const cacheFiles = (dir: string): string[] =>
  existsSync(join(dir, 'v1', 'configs'))
    ? readdirSync(join(dir, 'v1', 'configs'), { recursive: true })
        .map(String)
        .filter((f) => f.endsWith('.json'))
    : [];

// Issue 28: what `image-labels` writes is what the renderer reads, through a real registry.
describe('image-labels → registry → build: the labels it writes are read back (real registry)', () => {
  let registry: Registry;
  const ogxBase = readFileSync(join(repoRoot, 'configs', 'catalog', '1.2.2', 'distributions', 'starter', 'config.yaml'), 'utf8');

  /** The labels `llsd-render image-labels ARGS FILE` prints as JSON, for `text` written as `name`. */
  function imageLabels(args: string[], text: string, name = 'config.yaml'): Record<string, string> {
    const file = join(tempDir(), name);
    writeFileSync(file, text);
    const r = spawnSync(process.execPath, [requireBundle(), 'image-labels', '--format', 'json', ...args, file], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as Record<string, string>;
  }

  beforeAll(async () => {
    requireRegistryTools();
    registry = await startRegistry();
  }, 240_000);

  afterAll(async () => {
    await registry?.stop();
  });

  const options = () => ({ insecure: [registry.host], cacheDir: join(tempDir(), 'cache') });

  it('--release v1.2.4+rhaiv.0 (com.ogx.*, as the rh image): an OGXServer on an image whose tag names no release gets that base and release', async () => {
    const text = ogxBase.replace(/^ {2}- provider_id: together$/m, '  - provider_id: labelled-marker');
    expect(text).toContain('labelled-marker');
    await pushImage(registry, { repository: 'acme/ogx', tag: 'custom', labels: imageLabels(['--release', 'v1.2.4+rhaiv.0'], text) });
    const image = `${registry.host}/acme/ogx:custom`;
    const out = await render(image, options(), { kind: 'OGXServer' });
    expect(out.status, out.stderr).toBe(0);
    // The base's own providers (the OGXServer sets none): the labelled config's, with a marker only it has.
    expect(JSON.stringify(configOf(out).providers)).toContain('labelled-marker');
    const info = await render(image, options(), { command: 'validate', kind: 'OGXServer' });
    expect(info.stdout).toContain(`for OGX 1.2.4+rhaiv.0 (distribution custom, image ${image})`);
    expect(info.stdout).toContain(`base config from the label com.ogx.config.config.yaml: ${image} resolved to sha256:`);
  });

  it('--release 0.7.1 (io.llamastack.*): an LLSD on such an image gets that base and release', async () => {
    const text = baseText.replace(/^distro_name: .*$/m, 'distro_name: labelled-llama');
    await pushImage(registry, { repository: 'acme/llama', tag: 'custom', labels: imageLabels(['--release', '0.7.1'], text) });
    const image = `${registry.host}/acme/llama:custom`;
    const out = await render(image, options());
    expect(out.status, out.stderr).toBe(0);
    expect(configOf(out).distro_name).toBe('labelled-llama');
    const info = await render(image, options(), { command: 'validate' });
    expect(info.stdout).toContain('llama-stack 0.7.1 (distribution labelled-llama');
  });
});

describe('base config from the OCI labels of a distribution image (real registry)', () => {
  let registry: Registry;
  const pushed: Record<string, { reference: string; digest: string; layers?: string[] }> = {};

  beforeAll(async () => {
    requireRegistryTools();
    requireBundle();
    registry = await startRegistry();
    for (const format of ['oci', 'v2s2'] as const) {
      pushed[`b64-${format}`] = await pushImage(registry, {
        repository: 'demo/stack',
        tag: `b64-${format}`,
        format,
        labels: base64Labels(`from-base64-${format}`),
      });
      // The config as a file in the image; the labels added afterwards point at its layer, as
      // `crane mutate` would (the layer digest is known only after the build).
      const plain = await pushImage(registry, {
        repository: 'demo/stack',
        tag: `files-${format}`,
        format,
        files: { '/app/config.yaml': configNamed(`from-layer-${format}`), '/app/other.txt': 'x' },
      });
      pushed[`layer-${format}`] = await putLabels(registry, {
        repository: 'demo/stack',
        fromTag: `files-${format}`,
        toTag: `layer-${format}`,
        labels: {
          'io.llamastack.config.layer': plain.layers[0] as string,
          'io.llamastack.config.path': '/app/config.yaml',
          'io.llamastack.config.version': '2',
        },
      });
    }
    pushed.index = await pushIndex(registry, {
      repository: 'demo/multi',
      tag: '0.7.1',
      images: [
        { arch: 'amd64', labels: base64Labels('for-amd64') },
        { arch: 'arm64', labels: base64Labels('for-arm64') },
      ],
    });
    pushed.dockerList = await pushIndex(registry, {
      repository: 'demo/multi-docker',
      tag: '0.7.1',
      format: 'v2s2',
      images: [
        { arch: 'amd64', labels: base64Labels('list-amd64') },
        { arch: 'arm64', labels: base64Labels('list-arm64') },
      ],
    });
    pushed.unlabelled = await pushImage(registry, { repository: 'demo/plain', tag: '1.0', files: { '/app/config.yaml': configNamed('unused') } });
  }, 240_000);

  afterAll(async () => {
    await registry?.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const options = (extra: Record<string, unknown> = {}) => ({ insecure: [registry.host], cacheDir: join(tempDir(), 'cache'), ...extra });

  describe.each(['oci', 'v2s2'] as const)('%s manifests', (format) => {
    it('io.llamastack.config.base64: the config is the label\'s, the release its OCI version label, the info names the digest', async () => {
      const image = `${registry.host}/demo/stack:b64-${format}`;
      const out = await render(image, options());
      expect(out.status, out.stderr).toBe(0);
      expect(configOf(out).distro_name).toBe(`from-base64-${format}`);
      expect(imageOf(out)).toBe(image);
      const info = await render(image, options(), { command: 'validate' });
      expect(info.stdout).toContain(
        `base config from the label io.llamastack.config.base64: ${image} resolved to ${pushed[`b64-${format}`]?.digest}, read from ${registry.host} ` +
          `(linux/amd64)`,
      );
      expect(info.stdout).toContain("llama-stack 0.7.1 (distribution from-base64-" + format);
    });

    it('io.llamastack.config.layer + path: the file is read from that layer', async () => {
      const out = await render(`${registry.host}/demo/stack:layer-${format}`, options());
      expect(out.status, out.stderr).toBe(0);
      expect(configOf(out).distro_name).toBe(`from-layer-${format}`);
    });
  });

  it('an index: the linux/amd64 entry by default, another with registry.platform, an error naming the platforms it has', async () => {
    const image = `${registry.host}/demo/multi:0.7.1`;
    expect(configOf(await render(image, options())).distro_name).toBe('for-amd64');
    expect(configOf(await render(image, options({ platform: 'linux/arm64' }))).distro_name).toBe('for-arm64');
    expect(errorOf(await render(image, options({ platform: 'linux/s390x' })))).toBe(
      `${image} has no image for linux/s390x (it has linux/amd64, linux/arm64); set RenderConfig \`registry.platform\` to the platform your nodes run`,
    );
  });

  it('a Docker manifest list: the same platform choice (arm64 is arm64/v8)', async () => {
    const image = `${registry.host}/demo/multi-docker:0.7.1`;
    expect(configOf(await render(image, options())).distro_name).toBe('list-amd64');
    expect(configOf(await render(image, options({ platform: 'linux/arm64/v8' }))).distro_name).toBe('list-arm64');
  });

  it('pinDigest: the Deployment runs the image by the digest the tag resolved to (the index digest for an index)', async () => {
    const out = await render(`${registry.host}/demo/multi:0.7.1`, options({ pinDigest: true }));
    expect(imageOf(out)).toBe(`${registry.host}/demo/multi:0.7.1@${pushed.index?.digest}`);
  });

  it('kpt fn render (KRM mode): the registry option as ConfigMap data, the objects written next to the LLSD', async () => {
    const kpt = requireTool('kpt');
    const pkg = tempDir();
    const registryData = stringify(
      { insecure: [registry.host], cacheDir: join(pkg, '..', `${pkg.split('/').pop()}-cache`) },
      { collectionStyle: 'flow' },
    ).trim();
    writeFileSync(
      join(pkg, 'Kptfile'),
      stringify({
        apiVersion: 'kpt.dev/v1',
        kind: 'Kptfile',
        metadata: { name: 'pkg', annotations: { 'config.kubernetes.io/local-config': 'true' } },
        pipeline: { mutators: [{ exec: `${process.execPath} ${requireBundle()}`, configMap: { registry: registryData } }] },
      }),
    );
    writeFileSync(
      join(pkg, 'llsd.yaml'),
      stringify({
        apiVersion: 'llamastack.io/v1alpha2',
        kind: 'LlamaStackDistribution',
        metadata: { name: 'custom', namespace: 'ai' },
        spec: { distribution: { image: `${registry.host}/demo/stack:layer-oci` } },
      }),
    );
    const result = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
      const child = spawn(kpt, ['fn', 'render', '--allow-exec', pkg], { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      child.on('close', (status) => resolve({ status, stderr }));
    });
    expect(result.status, result.stderr).toBe(0);
    const generated = parseStream(readFileSync(join(pkg, 'custom.generated.yaml'), 'utf8'));
    expect(configOf({ status: 0, stdout: '', stderr: '', objects: generated }).distro_name).toBe('from-layer-oci');
  });

  it('an image without labels: the FR-027e error, nothing printed', async () => {
    const image = `${registry.host}/demo/plain:1.0`;
    expect(errorOf(await render(image, options()))).toBe(
      `Distribution image ${image} missing config labels. Add labels using \`crane mutate\` or use \`overrideConfig\` to provide configuration manually. ` +
        `See docs/configuration.md for details.`,
    );
  });

  it('a tag the registry does not have: a 404 that names it', async () => {
    expect(errorOf(await render(`${registry.host}/demo/stack:nope`, options()))).toBe(`${registry.host} has no manifest of demo/stack:nope (HTTP 404)`);
  });

  describe('the cache (by manifest digest) and offline mode', () => {
    let proxy: Proxy;
    beforeAll(async () => {
      proxy = await startProxy(registry);
    });
    afterAll(async () => proxy?.stop());

    it('the second render makes no blob request, only the tag lookup; offline, none at all', async () => {
      const cacheDir = join(tempDir(), 'cache');
      const image = `${proxy.host}/demo/stack:layer-oci`;
      const settings = { insecure: [proxy.host], cacheDir };
      const first = await render(image, settings);
      expect(first.status, first.stderr).toBe(0);
      expect(proxy.requests.filter((r) => r.path.includes('/blobs/')).length).toBe(2); // the config and the layer
      expect(cacheFiles(cacheDir)).toHaveLength(1);

      proxy.requests.length = 0;
      const second = await render(image, settings);
      expect(second.stdout).toBe(first.stdout);
      expect(proxy.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['HEAD /v2/demo/stack/manifests/layer-oci']);

      proxy.requests.length = 0;
      const offline = await render(image, settings, { args: ['--offline'] });
      expect(offline.stdout).toBe(first.stdout);
      const offlineOption = await render(image, { ...settings, offline: true }, { command: 'validate' });
      expect(offlineOption.stdout).toContain('read from the cache (linux/amd64)');
      expect(proxy.requests).toEqual([]);
    });

    it('a reference by digest is served from the cache without any request', async () => {
      const cacheDir = join(tempDir(), 'cache');
      const image = `${proxy.host}/demo/stack@${pushed['b64-oci']?.digest}`;
      const settings = { insecure: [proxy.host], cacheDir };
      expect((await render(image, settings)).status).toBe(0);
      proxy.requests.length = 0;
      expect(configOf(await render(image, settings)).distro_name).toBe('from-base64-oci');
      expect(proxy.requests).toEqual([]);
    });

    it('offline without the image in the cache: an error that says how to fill it', async () => {
      const cacheDir = join(tempDir(), 'cache');
      const image = `${proxy.host}/demo/stack:b64-oci`;
      expect(errorOf(await render(image, { insecure: [proxy.host], cacheDir }, { args: ['--offline'] }))).toBe(
        `${image} is not in the cache (${cacheDir}) for linux/amd64, and the render is offline (RenderConfig \`registry.offline\` or \`--offline\`): render ` +
          `once with registry access to fill the cache, or use \`spec.distribution.name\` or \`spec.overrideConfig\``,
      );
      expect(proxy.requests.filter((r) => r.path.includes('b64-oci'))).toEqual([]);
    });
  });

  describe('network and registry faults are clear errors; a bad download is never cached', () => {
    let proxy: Proxy;
    beforeAll(async () => {
      proxy = await startProxy(registry);
    });
    afterAll(async () => proxy?.stop());

    it('connection refused', async () => {
      const host = await closedPort();
      expect(errorOf(await render(`${host}/demo/stack:b64-oci`, options({ insecure: [host] })))).toBe(
        `cannot fetch the manifest of demo/stack:b64-oci from ${host}: connection refused`,
      );
    });

    it('a plain-HTTP registry not listed as insecure: HTTPS fails, and the message says where to list it', async () => {
      const message = errorOf(await render(`${registry.host}/demo/stack:b64-oci`, { cacheDir: join(tempDir(), 'c') }));
      expect(message).toBe(
        `cannot fetch the manifest of demo/stack:b64-oci from ${registry.host}: it does not speak HTTPS; if ${registry.host} serves plain HTTP, list it in ` +
          `RenderConfig \`registry.insecure\``,
      );
    });

    it.each([
      ['truncate-blobs', /^the blob sha256:[a-f0-9]{64} of demo\/stack from 127\.0\.0\.1:\d+ was cut off after \d+ of \d+ bytes; nothing was cached$/],
      [
        'corrupt-blobs',
        /^the blob sha256:[a-f0-9]{64} of demo\/stack from 127\.0\.0\.1:\d+ does not match its digest: expected sha256:[a-f0-9]{64}, got sha256:[a-f0-9]{64}; nothing was cached\. A proxy or mirror in between may be altering it$/,
      ],
      [
        'corrupt-manifests',
        /^the manifest of demo\/stack@sha256:[a-f0-9]{64} from 127\.0\.0\.1:\d+ does not match its digest: expected sha256:[a-f0-9]{64}, got sha256:[a-f0-9]{64}; nothing was cached\. A proxy or mirror in between may be altering it$/,
      ],
    ] as const)('%s: an error, nothing cached, and the next good download works', async (mode, message) => {
      const cacheDir = join(tempDir(), 'cache');
      const settings = { insecure: [proxy.host], cacheDir };
      const image = `${proxy.host}/demo/stack:b64-oci`;
      proxy.setMode(mode);
      try {
        expect(errorOf(await render(image, settings))).toMatch(message);
      } finally {
        proxy.setMode('pass');
      }
      expect(cacheFiles(cacheDir)).toEqual([]);
      expect(configOf(await render(image, settings)).distro_name).toBe('from-base64-oci');
    });

    it.each([
      ['truncate-blobs', /^the layer (sha256:[a-f0-9]{64}) of demo\/stack from 127\.0\.0\.1:\d+ was cut off after \d+ of \d+ bytes; nothing was cached$/],
      [
        'corrupt-blobs',
        /^the layer (sha256:[a-f0-9]{64}) of demo\/stack from 127\.0\.0\.1:\d+ does not match its digest: expected sha256:[a-f0-9]{64}, got sha256:[a-f0-9]{64}; nothing was cached\. A proxy or mirror in between may be altering it$/,
      ],
    ] as const)('the layer alone %s: its own error, nothing cached', async (mode, message) => {
      const cacheDir = join(tempDir(), 'cache');
      const layer = (pushed['layer-v2s2'] as { layers: string[] }).layers[0] as string;
      proxy.setMode(mode, undefined, layer);
      try {
        const error = errorOf(await render(`${proxy.host}/demo/stack:layer-v2s2`, { insecure: [proxy.host], cacheDir }));
        expect(error).toMatch(message);
        expect(message.exec(error)?.[1]).toBe(layer);
      } finally {
        proxy.setMode('pass');
      }
      expect(cacheFiles(cacheDir)).toEqual([]);
    });

    it('a registry slower than registry.timeoutSeconds', async () => {
      proxy.setMode('slow', 4000);
      try {
        expect(errorOf(await render(`${proxy.host}/demo/stack:b64-oci`, { insecure: [proxy.host], cacheDir: join(tempDir(), 'c'), timeoutSeconds: 1 }))).toBe(
          `${proxy.host} did not deliver the manifest of demo/stack:b64-oci within 1 s (RenderConfig \`registry.timeoutSeconds\`)`,
        );
      } finally {
        proxy.setMode('pass');
      }
    });

    it('mirrors are tried in order before the registry; the info names the one that answered', async () => {
      const dead = await closedPort();
      const image = 'registry.invalid/demo/stack:b64-oci';
      const settings = options({ insecure: [registry.host, dead], mirrors: { 'registry.invalid': [dead, registry.host] } });
      const out = await render(image, settings, { command: 'validate' });
      expect(out.status, out.stderr).toBe(0);
      expect(out.stdout).toContain(`read from ${registry.host} (linux/amd64)`);
      const none = errorOf(await render(image, { ...settings, mirrors: { 'registry.invalid': [dead] } }));
      expect(none).toMatch(
        new RegExp(
          `^cannot fetch the manifest of demo/stack:b64-oci from registry\\.invalid: .+ \\(mirrors tried first: cannot fetch the manifest of ` +
            `demo/stack:b64-oci from ${dead.replaceAll('.', '\\.')}: connection refused\\)$`,
        ),
      );
    });
  });

  describe.each(['htpasswd', 'token'] as const)('a registry with %s auth', (kind) => {
    const user = 'builder';
    const password = 'pa55-w0rd-not-in-output';
    let secured: Registry;
    beforeAll(async () => {
      secured = await startRegistry({ auth: { kind, user, password } });
      await pushImage(secured, { repository: 'private/stack', tag: '0.7.1', labels: base64Labels('private') });
    }, 120_000);
    afterAll(async () => secured?.stop());

    it('without credentials: 401, and the message says how to log in', async () => {
      const message = errorOf(await render(`${secured.host}/private/stack:0.7.1`, { insecure: [secured.host], cacheDir: join(tempDir(), 'c') }));
      const expected =
        kind === 'htpasswd'
          ? `${secured.host} needs credentials for the manifest of private/stack:0.7.1 (HTTP 401) and none are stored for it: `
          : `the token service of ${secured.host} (${new URL(secured.token?.realm ?? '').host}) refused anonymous access for the manifest of ` +
            `private/stack:0.7.1 (HTTP 401): `;
      expect(message).toBe(
        `${expected}log in with \`podman login ${secured.host}\` or \`docker login ${secured.host}\` (or point REGISTRY_AUTH_FILE at an auth.json that has ` +
          `${secured.host}), or give the config with \`spec.overrideConfig\``,
      );
    });

    it('with the credentials in REGISTRY_AUTH_FILE: rendered, and the password is nowhere in the output', async () => {
      const authFile = join(tempDir(), 'auth.json');
      writeFileSync(authFile, JSON.stringify({ auths: { [secured.host]: { auth: Buffer.from(`${user}:${password}`).toString('base64') } } }));
      const out = await render(
        `${secured.host}/private/stack:0.7.1`,
        { insecure: [secured.host], cacheDir: join(tempDir(), 'c') },
        { env: { REGISTRY_AUTH_FILE: authFile } },
      );
      expect(out.status, out.stderr).toBe(0);
      expect(configOf(out).distro_name).toBe('private');
      expect(`${out.stdout}${out.stderr}`).not.toContain(password);
      expect(`${out.stdout}${out.stderr}`).not.toContain(Buffer.from(`${user}:${password}`).toString('base64'));
      if (kind === 'token') expect(secured.tokenRequests.some((r) => r.user === user && r.status === 200)).toBe(true);
    });

    it('wrong credentials: refused, the password not echoed', async () => {
      const authFile = join(tempDir(), 'auth.json');
      writeFileSync(authFile, JSON.stringify({ auths: { [secured.host]: { username: user, password: 'wrong-password-xyz' } } }));
      const options = { insecure: [secured.host], cacheDir: join(tempDir(), 'c') };
      const out = await render(`${secured.host}/private/stack:0.7.1`, options, { env: { REGISTRY_AUTH_FILE: authFile } });
      expect(errorOf(out)).toMatch(/refused (access to|the stored credentials for) the manifest of private\/stack:0\.7\.1 \(HTTP 401/);
      expect(out.stderr).not.toContain('wrong-password-xyz');
    });
  });
});
