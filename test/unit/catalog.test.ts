// The data under configs/: release profiles, named distributions and their base configs, checked
// against each other and against the server's startup rules that data alone can show (the
// storage backends and providers every config must name; docs/config-generation.md).
import { describe, expect, it } from 'vitest';
import { baseConfigPaths, catalogReleaseFor, catalogReleases, distributions, releaseProfiles, serverRelease } from '../../src/catalog/catalog.js';
import { shippedConfigText } from '../support.js';
import {
  checkOverrides,
  distributionOfRepository,
  layoutOf,
  mergeCatalog,
  parseImage,
  releaseOfTag,
  shippedCatalog,
} from '../../src/catalog/distributions.js';
import { compareVersions, profileFor, supportedReleases } from '../../src/catalog/versions.js';
import { parseYaml11 } from '../../src/krm/yaml.js';
import { isPlainObject } from '../../src/lib/objects.js';

type Config = Record<string, unknown> & { providers: Record<string, Array<Record<string, unknown>>> };

const shipped = Object.entries(distributions()).flatMap(([name, entry]) =>
  Object.entries(entry.releases).map(([release, pinned]) => ({ name, release, ...pinned })),
);
/** A vendor's config, copied byte for byte (configs/distributions/<name>/config.yaml with a SOURCE beside it): not ours to fix. */
const vendorSource = (path: string): string | undefined =>
  /^distributions\/[^/]+\/config\.yaml$/.test(path) ? shippedConfigText(path.replace(/config\.yaml$/, 'SOURCE')) : undefined;

function baseConfig(path: string): Config {
  const text = shippedConfigText(path);
  if (text === undefined) throw new Error(`${path} is not embedded`);
  const parsed = parseYaml11(text);
  if (parsed.problem || !isPlainObject(parsed.value)) throw new Error(`${path} does not parse: ${parsed.problem?.message}`);
  return parsed.value as Config;
}

describe('release profiles (configs/releases.yaml)', () => {
  const profiles = releaseProfiles();

  it('cover every release family from 0.2.0, each `since` once', () => {
    const since = profiles.map((p) => p.since);
    expect(since).toEqual([...since].sort(compareVersions));
    expect(new Set(since).size).toBe(since.length);
    expect(since).toEqual(['0.2.0', '0.2.13', '0.2.17', '0.3.0', '0.3.1', '0.4.0', '0.5.0', '0.7.0', '0.8.0', '1.0.0', '1.1.0', '1.2.0', '1.3.0']);
    expect(supportedReleases()).toBe(
      '0.2.x, 0.4.x, 0.7.x, 0.8.x, 1.0.x, 1.1.x, 1.2.x, 1.3.x (the release catalog has 0.2.14, 0.4.4, 0.7.1, 0.8.0, 1.0.0, 1.1.3, 1.2.2, 1.3.0; ' +
        'docs/releases.md "Adding a release" says how to add one)',
    );
    expect(profileFor('0.1.9')).toBeUndefined();
  });

  it.each([
    ['0.2.12', '0.2.0'],
    ['0.2.14', '0.2.13'],
    ['0.2.24', '0.2.17'],
    ['0.3.5', '0.3.1'],
    ['0.4.4', '0.4.0'],
    ['0.6.1', '0.5.0'],
    ['0.7.1', '0.7.0'],
    ['0.8.0', '0.8.0'],
    ['0.9.3', '0.8.0'],
    ['1.0.0', '1.0.0'],
    ['1.1.3', '1.1.0'],
    ['1.2.2', '1.2.0'],
    ['1.3.0', '1.3.0'],
    ['1.4.1', '1.3.0'],
  ])('release %s uses the profile since %s', (release, since) => {
    expect(profileFor(release)?.since).toBe(since);
  });

  it('an image without a config path env has a start command naming {config}; the others run their entrypoint', () => {
    for (const p of profiles) {
      if (p.image.configPathEnv === null) expect(p.image.command, p.since).toContain('{config}');
      else expect(p.image.command, p.since).toBeUndefined();
    }
  });

  it('the ≤ 0.2 images start the server module of their release: `distribution` with --config before 0.2.17, `core` with the path after', () => {
    expect(profileFor('0.2.16')?.image.command).toEqual(['python', '-m', 'llama_stack.distribution.server.server', '--config', '{config}']);
    expect(profileFor('0.2.17')?.image.command).toEqual(['python', '-m', 'llama_stack.core.server.server', '{config}']);
  });

  it('0.8.0 is OGX: OGX_PORT, OGX_CONFIG_DIR on its home /.ogx, RUN_CONFIG_PATH still honoured', () => {
    expect(profileFor('0.8.0')?.image).toEqual({ configPathEnv: 'RUN_CONFIG_PATH', portEnv: 'OGX_PORT', configDirEnv: 'OGX_CONFIG_DIR', home: '/.ogx' });
    expect(profileFor('0.7.1')?.image).toEqual({ configPathEnv: 'RUN_CONFIG_PATH', portEnv: 'LLAMA_STACK_PORT', home: '/.llama' });
  });

  it('the APIs of each release are the catalog release\'s (notes §3.1 agrees)', () => {
    const apis = (release: string) => [...(serverRelease(catalogReleaseFor(release) ?? '')?.apis.providable ?? [])].sort();
    expect(apis('0.2.14')).toContain('telemetry');
    expect(apis('0.4.4')).not.toContain('telemetry');
    expect(apis('0.4.0')).toContain('file_processors');
    expect(apis('0.4.4')).toEqual(expect.arrayContaining(['agents', 'post_training']));
    expect(apis('0.7.1')).not.toContain('agents');
    expect(apis('0.7.1')).not.toContain('post_training');
    expect(apis('0.8.0')).toEqual([
      'batches',
      'file_processors',
      'files',
      'inference',
      'interactions',
      'messages',
      'responses',
      'safety',
      'tool_runtime',
      'vector_io',
    ]);
  });

  it('routed APIs are providable APIs of the release', () => {
    for (const r of catalogReleases()) {
      const apis = serverRelease(r)?.apis;
      for (const api of apis?.routed ?? []) expect(apis?.providable, `${r} ${api}`).toContain(api);
    }
  });

  it('renamedApis maps a name the release lacks to the one it has (agents ↔ responses)', () => {
    for (const r of catalogReleases()) {
      const p = profileFor(r);
      const apis = serverRelease(r)?.apis.providable ?? [];
      for (const [from, to] of Object.entries(p?.renamedApis ?? {})) {
        if (!apis.includes(to)) continue; // a later release may drop both names (1.0.0 has no agents)
        expect(apis, r).not.toContain(from);
      }
    }
  });

  it('layout, name key and feature flags change where the notes say', () => {
    const at = (release: string) => profileFor(release);
    expect([at('0.2.24')?.layout, at('0.3.0')?.layout]).toEqual(['top-level-stores', 'storage-backends']);
    expect([at('0.4.4')?.nameKey, at('0.5.0')?.nameKey]).toEqual(['image_name', 'distro_name']);
    expect([at('0.3.0')?.serverWorkers, at('0.3.1')?.serverWorkers]).toEqual([false, true]);
    expect([at('0.3.5')?.inferenceUrlHasApiPrefix, at('0.4.0')?.inferenceUrlHasApiPrefix]).toEqual([false, true]);
    expect([at('0.3.5')?.defaultShieldId, at('0.4.0')?.defaultShieldId]).toEqual([false, true]);
    expect([at('0.6.1')?.toolGroups, at('0.7.0')?.toolGroups]).toEqual(['registered', 'auto']);
  });
});

describe('named distributions (configs/distributions.yaml)', () => {
  it('ship starter 0.7.1, 0.8.0 and OGX 1.0–1.3 , postgres-demo 0.7.1 and 1.0–1.3, remote-vllm 0.2.14, meta-reference-gpu 0.4.4 and rh 1.2.2, 1.2.4', () => {
    expect(shipped.map(({ name, release, image }) => `${name} ${release} ${image}`).sort()).toEqual([
      'meta-reference-gpu 0.4.4 docker.io/llamastack/distribution-meta-reference-gpu:0.4.4',
      'postgres-demo 0.7.1 docker.io/llamastack/distribution-postgres-demo:0.7.1',
      'postgres-demo 1.0.0 docker.io/ogx/distribution-postgres-demo:1.0.0',
      'postgres-demo 1.1.3 docker.io/ogxai/distribution-postgres-demo:1.1.3',
      'postgres-demo 1.2.2 docker.io/ogxai/distribution-postgres-demo:1.2.2',
      'postgres-demo 1.3.0 docker.io/ogxai/distribution-postgres-demo:1.3.0',
      'remote-vllm 0.2.14 docker.io/llamastack/distribution-remote-vllm:0.2.14',
      'rh 1.2.2 quay.io/rhoai/odh-ogx-core-rhel9:rhoai-3.6-ea.2',
      'rh 1.2.4 quay.io/rhoai/odh-ogx-core-rhel9:rhoai-3.5',
      'starter 0.7.1 docker.io/llamastack/distribution-starter:0.7.1',
      'starter 0.8.0 docker.io/ogx/distribution-starter:0.8.0',
      'starter 1.0.0 docker.io/ogx/distribution-starter:1.0.0',
      'starter 1.1.3 docker.io/ogxai/distribution-starter:1.1.3',
      'starter 1.2.2 docker.io/ogxai/distribution-starter:1.2.2',
      'starter 1.3.0 docker.io/ogxai/distribution-starter:1.3.0',
    ]);
    expect(distributions().starter?.defaultRelease).toBe('1.3.0');
    expect(distributions()['postgres-demo']?.defaultRelease).toBe('1.3.0');
    expect(distributions().rh?.defaultRelease).toBe('1.2.4');
  });

  it('every embedded base config is used, and every default release is shipped', () => {
    expect([...new Set(shipped.map((s) => s.config))].sort()).toEqual(baseConfigPaths());
    for (const [name, entry] of Object.entries(distributions())) expect(Object.keys(entry.releases), name).toContain(entry.defaultRelease);
    expect(Object.keys(shippedCatalog()).sort()).toEqual(['meta-reference-gpu', 'postgres-demo', 'remote-vllm', 'rh', 'starter']);
  });

  it("each upstream image is pinned to its release tag (a vendor's tags name its product release: listed above)", () => {
    for (const s of shipped.filter((s) => vendorSource(s.config) === undefined)) expect(releaseOfTag(parseImage(s.image).tag), s.image).toBe(s.release);
  });
});

describe.each(shipped)('base config $config', ({ config: path, release, name }) => {
  const config = baseConfig(path);
  const profile = profileFor(release);
  const releaseApis = serverRelease(catalogReleaseFor(release) ?? '')?.apis;

  it("names its upstream tag and commit: a fixed copy in a header comment, a catalog copy in the SOURCE file beside it (a vendor's: its branch)", () => {
    const tag = release.replaceAll('.', '\\.');
    const vendor = vendorSource(path);
    if (vendor !== undefined) {
      expect(vendor).toMatch(/^repo: [^\n]+\nbranch: [^\n]+\ncommit: [0-9a-f]{8,40}\nfiles:\n {2}config\.yaml: [^\n]+\n/);
    } else if (path.startsWith('catalog/')) {
      expect(path).toBe(`catalog/${release}/distributions/${name}/config.yaml`);
      expect(shippedConfigText(path.replace(/config\.yaml$/, 'SOURCE'))).toMatch(new RegExp(`^repo: [^\\n]+\\ntag: v${tag}\\ncommit: [0-9a-f]{40}\\n`));
    } else {
      expect(shippedConfigText(path)).toMatch(new RegExp(`^# [^\\n]*\\n# \\(?[^\\n]*tag v${tag}, commit [0-9a-f]{40}`));
    }
  });

  it('has version 2, a supported release, and the layout and name key of its release profile', () => {
    expect(String(config.version)).toBe('2');
    expect(profile).toBeDefined();
    expect(layoutOf(config)).toBe(profile?.layout);
    // A vendor's base may name itself in the older key, which the release still reads (with an info result).
    expect(vendorSource(path) !== undefined ? (config.distro_name ?? config.image_name) : config[profile?.nameKey as string]).toBe(name);
  });

  it('serves only APIs of its release, and lists in `apis` every API it has providers for', () => {
    const providerApis = Object.keys(config.providers);
    expect(releaseApis?.providable).toEqual(expect.arrayContaining(providerApis));
    expect(releaseApis?.providable).toEqual(expect.arrayContaining(config.apis as string[]));
    expect(config.apis).toEqual(expect.arrayContaining(providerApis));
  });

  it('has one provider per single-provider API (not counting those an env var switches on) and unique provider ids per API', () => {
    for (const [api, entries] of Object.entries(config.providers)) {
      // `${env.ENABLE_S3:+s3}` is off in a pod without ENABLE_S3: the server skips it (rh's second files provider).
      const on = entries.filter((e) => !/^\$\{env\.[A-Z0-9_]+:\+/.test(String(e.provider_id)));
      if (!releaseApis?.routed.includes(api)) expect(on, api).toHaveLength(1);
      const ids = entries.map((e) => e.provider_id);
      expect(new Set(ids).size, api).toBe(ids.length);
    }
  });

  it('has a files provider wherever responses/agents or file-search need one (postgres-demo and meta-reference-gpu are fixed for it)', () => {
    const needsFiles =
      ['responses', 'agents'].some((api) => api in config.providers) || config.providers.tool_runtime?.some((p) => p.provider_type === 'inline::file-search');
    // 0.2.14's agents provider does not depend on files yet.
    if (needsFiles && compareVersions(release, '0.3.0') >= 0) expect(Object.keys(config.providers)).toContain('files');
  });

  it('registers models and shields only with a provider_id of an enabled provider of the API', () => {
    const resources = (profile?.layout === 'storage-backends' ? config.registered_resources : config) as Record<string, unknown>;
    for (const [list, api] of [['models', 'inference'], ['shields', 'safety']] as const) {
      const ids = new Set((config.providers[api] ?? []).map((p) => String(p.provider_id)));
      for (const entry of (resources[list] ?? []) as Array<Record<string, unknown>>) {
        // 0.8.0 `provider_id: all` and ids switched on by an env var are the server's own forms.
        const id = String(entry.provider_id);
        if (id === 'all' || id.startsWith('${env.')) continue;
        expect(ids, `${list} ${JSON.stringify(entry)}`).toContain(id);
      }
    }
  });
});

describe('image references', () => {
  it.each([
    ['llamastack/distribution-starter:0.7.1', { repository: 'docker.io/llamastack/distribution-starter', tag: '0.7.1' }],
    ['docker.io/llamastack/distribution-starter:0.7.1', { repository: 'docker.io/llamastack/distribution-starter', tag: '0.7.1' }],
    ['index.docker.io/ogx/distribution-starter', { repository: 'docker.io/ogx/distribution-starter' }],
    [
      `registry.internal:5000/llamastack/distribution-starter:0.8.0@sha256:${'ab'.repeat(32)}`,
      { repository: 'registry.internal:5000/llamastack/distribution-starter', tag: '0.8.0', digest: `sha256:${'ab'.repeat(32)}` },
    ],
    ['not a reference', { repository: 'not a reference' }],
    ['localhost/stack', { repository: 'localhost/stack' }],
    ['python', { repository: 'docker.io/library/python' }],
  ])('%s', (reference, expected) => {
    expect(parseImage(reference)).toEqual(expected);
  });

  it('a tag is a release when it is a version (`v` allowed)', () => {
    expect(['0.7.1', 'v0.8.0', 'latest', 'test-0.8.0', '0.7', undefined].map(releaseOfTag)).toEqual([
      '0.7.1',
      '0.8.0',
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('finds the distribution of an upstream repository (llamastack/ or ogx/) or of a catalog image', () => {
    const catalog = mergeCatalog({ starter: { image: 'registry.internal/mirror/starter:0.7.1' } });
    expect(distributionOfRepository(catalog, 'docker.io/llamastack/distribution-starter')).toBe('starter');
    expect(distributionOfRepository(catalog, 'docker.io/ogx/distribution-postgres-demo')).toBe('postgres-demo');
    expect(distributionOfRepository(catalog, 'registry.internal/mirror/starter')).toBe('starter');
    expect(distributionOfRepository(shippedCatalog(), 'registry.internal/mirror/starter')).toBeUndefined();
  });
});

describe('RenderConfig distributions against the shipped catalog', () => {
  const minimal = { version: 2, distro_name: 'mine', providers: {}, storage: { backends: {} } };

  it('a mirror replaces the default release image and keeps its base config', () => {
    const catalog = mergeCatalog({ starter: { image: 'registry.internal/llamastack/distribution-starter:0.7.1' } });
    expect(catalog.starter?.defaultRelease).toBe('0.7.1');
    expect(catalog.starter?.releases['0.7.1']).toMatchObject({
      image: 'registry.internal/llamastack/distribution-starter:0.7.1',
      source: 'configs/distributions/starter/0.7.1.yaml',
    });
    expect(catalog.starter?.releases['0.8.0']?.image).toBe('docker.io/ogx/distribution-starter:0.8.0');
    expect(shippedCatalog().starter?.releases['0.7.1']?.image).toBe('docker.io/llamastack/distribution-starter:0.7.1');
  });

  it('`release` (or a mirror tagged with a release) changes the default release', () => {
    expect(mergeCatalog({ starter: { release: '0.8.0' } }).starter?.defaultRelease).toBe('0.8.0');
    expect(mergeCatalog({ starter: { image: 'mirror.local/ogx/distribution-starter:0.8.0' } }).starter?.defaultRelease).toBe('0.8.0');
  });

  it('a new distribution needs an image, a release and a base config', () => {
    expect(checkOverrides({ mine: {} })).toEqual([
      { path: ['mine', 'release'], message: 'is required: "mine" is not a shipped distribution and the image tag is not a release such as `1.3.0`' },
    ]);
    expect(checkOverrides({ mine: { release: '0.7.1' } })).toEqual([
      { path: ['mine', 'image'], message: 'is required: "mine" is not a shipped distribution' },
      {
        path: ['mine', 'config'],
        message: 'is required: "mine" is not a shipped distribution; give its config.yaml as `config` (or as `configPath` with `llsd-render build`)',
      },
    ]);
    expect(checkOverrides({ mine: { image: 'quay.io/me/mine:0.7.1', config: minimal } })).toEqual([]);
  });

  it('a release the shipped distribution lacks needs its own base config and image', () => {
    expect(checkOverrides({ starter: { release: '0.4.4' } })).toEqual([
      {
        path: ['starter', 'image'],
        message: 'is required: "starter" has no image for release 0.4.4; "starter" ships 0.7.1, 0.8.0, 1.0.0, 1.1.3, 1.2.2, 1.3.0',
      },
      {
        path: ['starter', 'config'],
        message:
          'is required: "starter" has no base config for release 0.4.4; "starter" ships 0.7.1, 0.8.0, 1.0.0, 1.1.3, 1.2.2, 1.3.0; give its config.yaml as ' +
            '`config` (or as `configPath` with `llsd-render build`)',
      },
    ]);
  });

  it('FR-029: the base config must be version 2, in the layout of its release', () => {
    expect(checkOverrides({ mine: { image: 'quay.io/me/mine:0.7.1', config: { ...minimal, version: 3 } } })).toEqual([
      { path: ['mine', 'config', 'version'], message: 'Unsupported config.yaml version 3. Supported versions: 2' },
    ]);
    expect(
      checkOverrides({
        mine: { image: 'quay.io/me/mine:0.7.1', config: { version: '2', image_name: 'x', providers: {}, metadata_store: { type: 'sqlite' } } },
      }),
    ).toEqual([
      {
        path: ['mine', 'config'],
        message:
          'is written for the top-level `metadata_store` (before llama-stack 0.3.0), but llama-stack 0.7.1 reads `storage.backends` (llama-stack 0.3.0 and ' +
            'later)',
      },
    ]);
  });

  it('an unsupported release, a tag that disagrees with `release`, and an unread configPath are errors', () => {
    expect(checkOverrides({ mine: { image: 'quay.io/me/mine:0.1.9', config: minimal } })).toEqual([
      {
        path: ['mine', 'image'],
        message:
          'llama-stack 0.1.9 is not supported; supported releases: 0.2.x, 0.4.x, 0.7.x, 0.8.x, 1.0.x, 1.1.x, 1.2.x, 1.3.x (the release catalog has 0.2.14, ' +
            '0.4.4, 0.7.1, 0.8.0, 1.0.0, 1.1.3, 1.2.2, 1.3.0; docs/releases.md "Adding a release" says how to add one)',
      },
    ]);
    expect(checkOverrides({ starter: { image: 'mirror.local/starter:0.8.0', release: '0.7.1' } })).toEqual([
      { path: ['starter', 'image'], message: 'has the tag of release 0.8.0, but `release` is 0.7.1; make them agree' },
    ]);
    expect(checkOverrides({ starter: { configPath: 'base.yaml' } })[0]?.message).toMatch(
      /^is read from a file only by `llsd-render build` and `validate`.*give the base config inline as `config`$/,
    );
  });
});
