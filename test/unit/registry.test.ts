// The pure and file-local parts of the registry adapter: references, the label convention, the
// cache and the credential files. The network parts run against a real registry in
// test/e2e/registry.test.ts.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cacheDirectory, readCachedConfig, readCachedTag, writeCachedConfig, writeCachedTag } from '../../src/registry/cache.js';
import { authFilePaths, credentialsFor } from '../../src/registry/credentials.js';
import { configLocation, labelsFor, missingLabelsMessage, ogxLabelsFor, samePath, type ImageConfig } from '../../src/catalog/image-labels.js';
import { labelRelease } from '../../src/core/target.js';
import { formatReference, parseReference } from '../../src/lib/image-reference.js';

const dirs: string[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'llsd-registry-unit-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const digest = `sha256:${'0123456789abcdef'.repeat(4)}`;

describe('image references', () => {
  it.each([
    ['ubuntu', 'docker.io/library/ubuntu'],
    ['llamastack/distribution-starter:0.7.1', 'docker.io/llamastack/distribution-starter:0.7.1'],
    ['index.docker.io/ogx/distribution-starter', 'docker.io/ogx/distribution-starter'],
    ['127.0.0.1:5000/demo/stack:oci', '127.0.0.1:5000/demo/stack:oci'],
    ['localhost/stack', 'localhost/stack'],
    [`quay.io/a/b:1.0@${digest}`, `quay.io/a/b:1.0@${digest}`],
    ['Registry.Example/a', 'Registry.Example/a'],
  ])('%s is %s', (text, canonical) => {
    const parsed = parseReference(text);
    expect(parsed.ok ? formatReference(parsed.ref) : parsed.message).toBe(canonical);
  });

  it.each([
    ['a/b:1@sha256:abc', '"sha256:abc" is not a digest (sha256:<64 hex digits>)'],
    ['Quay/Stack', '"Stack" is not a repository path component (lower case letters and digits, joined by `.`, `_`, `__` or `-`)'],
    ['quay.io//stack', 'has an empty path component'],
    ['quay.io/stack:bad tag', '"bad tag" is not a tag (letters, digits, `_`, `.` and `-`, at most 128)'],
    ['bad_host.io:x/a', '"bad_host.io:x" is not a registry host'],
  ])('%s is refused: %s', (text, message) => {
    expect(parseReference(text)).toEqual({ ok: false, message });
  });

  it('hostile references are refused (the npm port of the grammar backtracked for 50 s on the first), each for its first fault', () => {
    const notAComponent = 'is not a repository path component (lower case letters and digits, joined by `.`, `_`, `__` or `-`)';
    // Linear by construction (see src/lib/image-reference.ts): a text over 1,020 characters is refused
    // before any pattern runs, and each pattern meets one part of the rest; a parser that backtracked
    // here would hit the test timeout.
    expect(
      [
        'registry.internal:5000/llamastack/distribution-starter:0.8.0@sha256:abc',
        `${'a-'.repeat(500)}!`,
        `${'a.'.repeat(200)}/b`,
        `q/${'a__'.repeat(300)}_`,
        'x'.repeat(100_000),
      ].map((text) => parseReference(text)),
    ).toEqual([
      { ok: false, message: '"sha256:abc" is not a digest (sha256:<64 hex digits>)' },
      { ok: false, message: `"${'a-'.repeat(40)}" ${notAComponent}` },
      { ok: false, message: `"${'a.'.repeat(40)}" is not a registry host` },
      { ok: false, message: `"${'a__'.repeat(26)}a_" ${notAComponent}` },
      { ok: false, message: 'is 100000 characters long' },
    ]);
  });
});

describe('the label convention (FR-027a/b)', () => {
  const config = 'version: 2\ndistro_name: mine\n';
  const b64 = Buffer.from(config).toString('base64');

  it('base64 wins over a layer reference', () => {
    expect(configLocation({ 'io.llamastack.config.base64': b64, 'io.llamastack.config.layer': digest, 'io.llamastack.config.path': '/c.yaml' })).toEqual({
      kind: 'base64',
      text: config,
    });
  });

  it('a layer reference needs both labels and a digest', () => {
    expect(configLocation({ 'io.llamastack.config.layer': digest, 'io.llamastack.config.path': '/app/config.yaml' })).toEqual({
      kind: 'layer',
      layer: digest,
      path: '/app/config.yaml',
    });
    expect(configLocation({ 'io.llamastack.config.layer': digest })).toEqual({
      kind: 'invalid',
      message: 'it has the label io.llamastack.config.layer without io.llamastack.config.path; a layer reference needs both',
    });
    expect(configLocation({ 'io.llamastack.config.layer': 'latest', 'io.llamastack.config.path': '/c' })).toEqual({
      kind: 'invalid',
      message: 'its label io.llamastack.config.layer is "latest", not a layer digest (sha256:<64 hex>)',
    });
  });

  it('no labels: missing, and the message is FR-027e word for word', () => {
    expect(configLocation({ 'org.opencontainers.image.version': '1' })).toEqual({ kind: 'missing' });
    expect(missingLabelsMessage('quay.io/me/stack:1')).toBe(
      'Distribution image quay.io/me/stack:1 missing config labels. Add labels using `crane mutate` or use `overrideConfig` to provide configuration ' +
        'manually. See docs/configuration.md for details.',
    );
  });

  it('a version label other than 2 is refused with the FR-029 text', () => {
    expect(configLocation({ 'io.llamastack.config.base64': b64, 'io.llamastack.config.version': '3' })).toEqual({
      kind: 'invalid',
      message: 'its label io.llamastack.config.version is "3": Unsupported config.yaml version 3. Supported versions: 2',
    });
  });

  it('base64 that is not base64 of UTF-8 is refused', () => {
    for (const value of ['not base64!', Buffer.from([0xff, 0xfe, 0x00]).toString('base64')]) {
      expect(configLocation({ 'io.llamastack.config.base64': value })).toEqual({
        kind: 'invalid',
        message: 'its label io.llamastack.config.base64 is not base64 of a UTF-8 config.yaml',
      });
    }
  });

  it('labelsFor gives back what configLocation reads', () => {
    expect(configLocation(labelsFor(config, '2'))).toEqual({ kind: 'base64', text: config });
    expect(configLocation(labelsFor(config, '2', { digest, path: '/app/config.yaml' }))).toEqual({ kind: 'layer', layer: digest, path: '/app/config.yaml' });
  });

  // Issue 28: image-labels writes OGX's labels (the rh image's, docs: rh-distribution/README.md), and the renderer reads them back.
  it('ogxLabelsFor: the labels of an OGX image, which configLocation and labelRelease read back (config, then release)', () => {
    const labels = ogxLabelsFor(config, { name: 'starter', file: 'config.yaml', release: 'v1.2.4+rhaiv.0' });
    expect(labels).toEqual({
      'com.ogx.config.config.yaml': Buffer.from(config).toString('base64'),
      'com.ogx.distribution.name': 'starter',
      'com.ogx.distribution.version': 'v1.2.4+rhaiv.0',
      'com.ogx.distribution.default-config': 'config.yaml',
      'com.ogx.distribution.configs': 'config.yaml',
      'org.opencontainers.image.version': 'v1.2.4+rhaiv.0',
    });
    expect(configLocation(labels)).toEqual({ kind: 'base64', text: config });
    // As src/registry/lookup.ts keeps them for the plan.
    const found: ImageConfig = {
      digest, platform: 'linux/amd64', from: 'base64', text: config,
      distributionVersion: labels['com.ogx.distribution.version'], imageVersion: labels['org.opencontainers.image.version'],
    };
    expect(labelRelease(found)).toEqual({ release: '1.2.4', build: 'rhaiv.0', label: 'com.ogx.distribution.version' });
    // Another file name: the default-config label names the config label the renderer reads.
    expect(configLocation(ogxLabelsFor(config, { name: 'rh', file: 'run.yaml' }))).toEqual({ kind: 'base64', text: config });
    expect(Object.keys(ogxLabelsFor(config, { name: 'rh', file: 'run.yaml' })).filter((k) => k.includes('version'))).toEqual([]);
  });

  it('tar entry names match the label path with or without a leading / or ./', () => {
    expect([
      samePath('app/config.yaml', '/app/config.yaml'),
      samePath('./app/config.yaml', 'app/config.yaml'),
      samePath('app/config.yml', '/app/config.yaml'),
    ]).toEqual([true, true, false]);
  });
});

describe('the cache (FR-027d)', () => {
  const entry: ImageConfig = { digest, platform: 'linux/amd64', from: 'base64', configVersion: '2', text: 'version: 2\n' };

  it('an entry is found by digest and platform only', () => {
    const dir = tempDir();
    writeCachedConfig(dir, entry);
    expect(readCachedConfig(dir, digest, 'linux/amd64')).toEqual(entry);
    expect(readCachedConfig(dir, digest, 'linux/arm64')).toBeUndefined();
    expect(readCachedConfig(dir, `sha256:${'f'.repeat(64)}`, 'linux/amd64')).toBeUndefined();
  });

  it('a damaged entry is a miss, not an error', () => {
    const dir = tempDir();
    writeCachedConfig(dir, entry);
    const folder = join(dir, 'v1', 'configs', digest.replace(':', '-'));
    const file = join(folder, readdirSync(folder)[0] as string);
    writeFileSync(file, '{"schema": 1, "textSha256": "00", "config": ' + JSON.stringify(entry) + '}');
    expect(readCachedConfig(dir, digest, 'linux/amd64')).toBeUndefined();
    writeFileSync(file, 'not json');
    expect(readCachedConfig(dir, digest, 'linux/amd64')).toBeUndefined();
  });

  it('a tag remembers its digest per platform', () => {
    const dir = tempDir();
    writeCachedTag(dir, 'quay.io/a/b:1', 'linux/amd64', digest);
    expect([
      readCachedTag(dir, 'quay.io/a/b:1', 'linux/amd64'),
      readCachedTag(dir, 'quay.io/a/b:1', 'linux/arm64'),
      readCachedTag(dir, 'quay.io/a/b:2', 'linux/amd64'),
    ]).toEqual([digest, undefined, undefined]);
  });

  it('an entry that is a link to /dev/zero or a fifo (a package may hold the cache: attacker probe) is no entry, read at once', () => {
    const dir = tempDir();
    writeCachedTag(dir, 'quay.io/a/b:1', 'linux/amd64', digest);
    writeCachedTag(dir, 'quay.io/a/b:2', 'linux/amd64', digest);
    const tags = join(dir, 'v1', 'tags');
    const [first, second] = readdirSync(tags).sort() as [string, string];
    rmSync(join(tags, first));
    symlinkSync('/dev/zero', join(tags, first));
    rmSync(join(tags, second));
    expect(spawnSync('mkfifo', [join(tags, second)]).status).toBe(0);
    expect([readCachedTag(dir, 'quay.io/a/b:1', 'linux/amd64'), readCachedTag(dir, 'quay.io/a/b:2', 'linux/amd64')]).toEqual([undefined, undefined]);
  });

  it('an unwritable cache costs a fetch, nothing more', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'v1'), 'a file where the cache wants a directory');
    expect(() => writeCachedConfig(dir, entry)).not.toThrow();
    expect(readCachedConfig(dir, digest, 'linux/amd64')).toBeUndefined();
  });

  it('the directory: the option, else XDG_CACHE_HOME, else ~/.cache', () => {
    expect([
      cacheDirectory('/c', { XDG_CACHE_HOME: '/x' }),
      cacheDirectory(undefined, { XDG_CACHE_HOME: '/x', HOME: '/h' }),
      cacheDirectory(undefined, { HOME: '/h' }),
    ]).toEqual(['/c', '/x/llsd-render', '/h/.cache/llsd-render']);
  });

  it('a relative XDG_CACHE_HOME is ignored (the XDG spec: paths must be absolute), not made in the working directory', () => {
    expect([cacheDirectory(undefined, { XDG_CACHE_HOME: 'relcache', HOME: '/h' }), cacheDirectory(undefined, { XDG_CACHE_HOME: './x', HOME: '/h' })]).toEqual([
      '/h/.cache/llsd-render',
      '/h/.cache/llsd-render',
    ]);
  });
});

describe('registry credentials', () => {
  it('the files, in the order podman and docker use them', () => {
    expect(authFilePaths({ REGISTRY_AUTH_FILE: '/a.json', XDG_RUNTIME_DIR: '/run/u', XDG_CONFIG_HOME: '/cfg', DOCKER_CONFIG: '/d', HOME: '/h' })).toEqual([
      '/a.json',
      '/run/u/containers/auth.json',
      '/cfg/containers/auth.json',
      '/d/config.json',
      '/h/.docker/config.json',
    ]);
    expect(authFilePaths({ HOME: '/h' })).toEqual([
      `/run/containers/${process.getuid?.() ?? 0}/auth.json`,
      '/h/.config/containers/auth.json',
      '/h/.docker/config.json',
    ]);
  });

  it('inside a file the most specific key wins: host/org/repo, host/org, host', () => {
    const dir = tempDir();
    const file = join(dir, 'auth.json');
    writeFileSync(
      file,
      JSON.stringify({
        auths: {
          'quay.io': { username: 'host', password: 'h' },
          'quay.io/org': { username: 'org', password: 'o' },
          'quay.io/org/special': { username: 'repo', password: 'r' },
        },
      }),
    );
    const env = { REGISTRY_AUTH_FILE: file, HOME: dir };
    expect([
      credentialsFor('quay.io', 'org/special', env)?.username,
      credentialsFor('quay.io', 'org/other', env)?.username,
      credentialsFor('quay.io', 'elsewhere/x', env)?.username,
    ]).toEqual(['repo', 'org', 'host']);
  });

  it('an identitytoken is kept apart from passwords: it is exchanged for a token, never sent as Basic', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ auths: { 'acr.example.io': { identitytoken: 'refresh-me' } } }));
    expect(credentialsFor('acr.example.io', 'org/repo', { DOCKER_CONFIG: dir, HOME: dir })).toEqual({
      username: '<token>',
      password: '',
      identityToken: 'refresh-me',
    });
  });

  it('the first file with the host wins; `auth` is base64 of user:password; Docker Hub also under its v1 URL', () => {
    const dir = tempDir();
    const first = join(dir, 'auth.json');
    writeFileSync(first, JSON.stringify({ auths: { 'quay.io': { auth: Buffer.from('me:s3cr:et').toString('base64') } } }));
    mkdirSync(join(dir, 'docker'));
    writeFileSync(
      join(dir, 'docker', 'config.json'),
      JSON.stringify({
        auths: { 'quay.io': { auth: Buffer.from('other:x').toString('base64') }, 'https://index.docker.io/v1/': { username: 'hub', password: 'pw' } },
      }),
    );
    const env = { REGISTRY_AUTH_FILE: first, DOCKER_CONFIG: join(dir, 'docker'), HOME: dir };
    expect(credentialsFor('quay.io', 'org/repo', env)).toEqual({ username: 'me', password: 's3cr:et' });
    expect(credentialsFor('docker.io', 'org/repo', env)).toEqual({ username: 'hub', password: 'pw' });
    expect(credentialsFor('ghcr.io', 'org/repo', env)).toBeUndefined();
  });

  it('an auth file that is a link to /dev/zero (attacker probe: 8.5 GB) is skipped, and the next file read', () => {
    const dir = tempDir();
    symlinkSync('/dev/zero', join(dir, 'auth.json'));
    mkdirSync(join(dir, 'docker'));
    writeFileSync(join(dir, 'docker', 'config.json'), JSON.stringify({ auths: { 'quay.io': { auth: Buffer.from('other:x').toString('base64') } } }));
    expect(credentialsFor('quay.io', 'org/repo', { REGISTRY_AUTH_FILE: join(dir, 'auth.json'), DOCKER_CONFIG: join(dir, 'docker'), HOME: dir })).toEqual({
      username: 'other',
      password: 'x',
    });
  });

  it('a malformed file is skipped, as the container tools do', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'bad.json'), '{');
    writeFileSync(join(dir, 'good.json'), JSON.stringify({ auths: { 'quay.io': { username: 'u', password: 'p' } } }));
    expect(credentialsFor('quay.io', 'org/repo', { REGISTRY_AUTH_FILE: join(dir, 'bad.json'), DOCKER_CONFIG: dir, HOME: dir })).toBeUndefined();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ auths: { 'quay.io': { username: 'u', password: 'p' } } }));
    expect(credentialsFor('quay.io', 'org/repo', { REGISTRY_AUTH_FILE: join(dir, 'bad.json'), DOCKER_CONFIG: dir, HOME: dir })).toEqual({
      username: 'u',
      password: 'p',
    });
  });

  it('credHelpers run docker-credential-<helper> get with the host on stdin', () => {
    const dir = tempDir();
    const helper = join(dir, 'docker-credential-fake');
    writeFileSync(helper, '#!/bin/sh\nread host\nprintf \'{"ServerURL":"%s","Username":"from-helper","Secret":"%s-secret"}\' "$host" "$host"\n', {
      mode: 0o755,
    });
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ credHelpers: { 'registry.internal:5000': 'fake' } }));
    const env = { DOCKER_CONFIG: dir, HOME: dir, PATH: `${dir}:${process.env.PATH ?? ''}` };
    expect(credentialsFor('registry.internal:5000', 'org/repo', env)).toEqual({ username: 'from-helper', password: 'registry.internal:5000-secret' });
  });
});
