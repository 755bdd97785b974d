// The plan stage (docs/config-generation.md): which release, image and base config an LLSD renders against, and
// the RenderConfig `distributions` option that adds or overrides named distributions (docs/render-options.md).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { readFunctionConfig } from '../../src/function-config.js';
import { parseLlsd } from '../../src/llsd/llsd.js';
import { renderConfigSchemas } from '../../src/core/render-config.js';
import { main } from '../../src/cli/main.js';
import type { Catalog } from '../../src/catalog/distributions.js';
import { inventoryOf } from '../../src/krm/inventory.js';
import type { InputItem, KrmObject } from '../../src/krm/item.js';
import { generateConfig } from '../../src/llsd/generate.js';
import { planLlsd, type PlanOutcome } from '../../src/llsd/plan.js';
import type { ImageConfig, ImageLookup } from '../../src/catalog/image-labels.js';
import { supportedReleases } from '../../src/catalog/versions.js';
import { process as render } from '../../src/process.js';
import { itemFrom, itemsFrom, llsdYaml, releaseMetadata } from '../support.js';

/** Plans an LLSD given as spec text, with optional extra input documents (the overrideConfig ConfigMap). */
function plan(spec: string, options: { annotations?: Record<string, string>; inputs?: string; catalog?: Catalog } = {}): PlanOutcome {
  const annotations = options.annotations ? `\n  annotations: ${JSON.stringify(options.annotations)}` : '';
  const parsed = parseLlsd(itemFrom(llsdYaml(spec, `name: demo\n  namespace: ai${annotations}`)).object);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return planLlsd(parsed.llsd, inventoryOf(options.inputs ? itemsFrom(options.inputs) : []), options.catalog);
}

function planned(outcome: PlanOutcome) {
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.problems));
  return outcome.plan;
}

function problems(outcome: PlanOutcome) {
  if (outcome.ok) throw new Error(`planned ${outcome.plan.release}`);
  return outcome.problems;
}

/** A ConfigMap `mine` in namespace `ai` with `config.yaml` = `text`. */
const overrideMap = (text: string): string =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: mine, namespace: ai}\ndata:\n  config.yaml: |\n${text
    .trim()
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n')}\n`;

const newLayout = overrideMap(`
version: 2
distro_name: my-stack
apis: [inference, responses, files, vector_io, tool_runtime]
providers:
  inference: [{provider_id: vllm, provider_type: remote::vllm, config: {base_url: "http://vllm/v1"}}]
  responses: [{provider_id: builtin, provider_type: inline::builtin}]
storage:
  backends: {kv_default: {type: kv_sqlite, db_path: /tmp/kv.db}}
`);

const oldLayout = overrideMap(`
version: '2'
image_name: legacy
providers:
  inference: [{provider_id: vllm, provider_type: remote::vllm, config: {url: "http://vllm/v1"}}]
  agents: [{provider_id: meta-reference, provider_type: inline::meta-reference}]
  telemetry: [{provider_id: meta-reference, provider_type: inline::meta-reference}]
metadata_store: {type: sqlite, db_path: /tmp/registry.db}
`);

const catalogWith = (distributions: unknown): Catalog => renderConfigSchemas().renderOptionsSchema.parse({ distributions }).distributions;

describe('release of a named distribution', () => {
  it('is the default release: starter → 1.3.0 (the newest OGX) with its pinned image and base config', () => {
    const p = planned(plan('distribution: {name: starter}'));
    expect([p.distributionName, p.release, p.catalogRelease, p.image, p.profile.since, p.releaseNote]).toEqual([
      'starter',
      '1.3.0',
      '1.3.0',
      'docker.io/ogxai/distribution-starter:1.3.0',
      '1.3.0',
      undefined,
    ]);
    expect(p.baseConfig).toMatchObject({ version: 2, distro_name: 'starter' });
    expect(p.baseConfig.apis).toContain('skills');
  });

  it.each([
    ['1.0.0', 'docker.io/ogx/distribution-starter:1.0.0', '1.0.0'],
    ['1.1.3', 'docker.io/ogxai/distribution-starter:1.1.3', '1.1.0'],
    ['1.2.2', 'docker.io/ogxai/distribution-starter:1.2.2', '1.2.0'],
    ['0.7.1', 'docker.io/llamastack/distribution-starter:0.7.1', '0.7.0'],
  ])('older starter releases stay selectable with the annotation: %s → %s, profile since %s', (release, image, since) => {
    const p = planned(plan('distribution: {name: starter}', { annotations: { 'llamastack.io/release': release } }));
    expect([p.release, p.image, p.profile.since]).toEqual([release, image, since]);
  });

  it('is the `llamastack.io/release` annotation when it names another release: starter 0.8.0 is OGX', () => {
    const p = planned(plan('distribution: {name: starter}', { annotations: { 'llamastack.io/release': '0.8.0' } }));
    expect([p.release, p.image, p.profile.image.portEnv, p.profile.image.configDirEnv]).toEqual([
      '0.8.0',
      'docker.io/ogx/distribution-starter:0.8.0',
      'OGX_PORT',
      'OGX_CONFIG_DIR',
    ]);
    expect(p.baseConfig.apis).toContain('messages');
  });

  it('an annotation naming a release the distribution lacks is an error listing the available ones', () => {
    expect(problems(plan('distribution: {name: starter}', { annotations: { 'llamastack.io/release': '0.6.1' } }))).toEqual([
      {
        path: ['metadata', 'annotations', 'llamastack.io/release'],
        message:
          'distribution "starter" has no release "0.6.1"; available: 0.7.1, 0.8.0, 1.0.0, 1.1.3, 1.2.2, 1.3.0: write one of those, or set ' +
          '`spec.distribution.image` to the image that runs the release instead of `name`',
      },
    ]);
  });

  it.each([
    ['postgres-demo', '1.3.0', 'docker.io/ogxai/distribution-postgres-demo:1.3.0', '1.3.0'],
    ['remote-vllm', '0.2.14', 'docker.io/llamastack/distribution-remote-vllm:0.2.14', '0.2.13'],
    ['meta-reference-gpu', '0.4.4', 'docker.io/llamastack/distribution-meta-reference-gpu:0.4.4', '0.4.0'],
  ])('%s → %s (%s), profile since %s', (name, release, image, since) => {
    const p = planned(plan(`distribution: {name: ${name}}`));
    expect([p.distributionName, p.release, p.image, p.profile.since]).toEqual([name, release, image, since]);
  });

  it('remote-vllm 0.2.14 starts with the pre-0.2.17 server module and --config', () => {
    expect(planned(plan('distribution: {name: remote-vllm}')).profile.image).toEqual({
      configPathEnv: null,
      command: ['python', '-m', 'llama_stack.distribution.server.server', '--config', '{config}'],
      portEnv: 'LLAMA_STACK_PORT',
      home: '/.llama',
    });
  });
});

describe('release of `distribution.image`', () => {
  it.each([
    ['docker.io/llamastack/distribution-starter:0.7.1', 'starter', '0.7.1'],
    ['llamastack/distribution-starter:0.7.1', 'starter', '0.7.1'],
    ['docker.io/ogx/distribution-starter:0.8.0', 'starter', '0.8.0'],
    ['llamastack/distribution-postgres-demo:0.7.1', 'postgres-demo', '0.7.1'],
  ])('%s: a named distribution image at a release with a base config uses that base', (image, name, release) => {
    const p = planned(plan(`distribution: {image: "${image}"}`));
    expect([p.distributionName, p.release, p.image]).toEqual([name, release, image]);
    expect(p.baseConfig.distro_name).toBe(name);
    expect(p.overrideConfig).toBeUndefined();
  });

  it('the annotation gives the release of an image whose tag is not one', () => {
    const p = planned(plan('distribution: {image: "llamastack/distribution-starter:latest"}', { annotations: { 'llamastack.io/release': '0.7.1' } }));
    expect([p.distributionName, p.release, p.image]).toEqual(['starter', '0.7.1', 'llamastack/distribution-starter:latest']);
  });

  it('an annotation that disagrees with the tag is an error', () => {
    expect(problems(plan('distribution: {image: "llamastack/distribution-starter:0.7.1"}', { annotations: { 'llamastack.io/release': '0.8.0' } }))).toEqual([
      {
        path: ['metadata', 'annotations', 'llamastack.io/release'],
        message: 'says release 0.8.0, but the image tag says 0.7.1; remove the annotation or make it agree with the tag',
      },
    ]);
  });

  it('an image the catalog has no base config for waits for its labels: the plan names the image', () => {
    for (const image of ['docker.io/llamastack/distribution-starter:0.6.1', 'quay.io/me/stack:0.7.1', 'llamastack/distribution-starter:latest']) {
      const outcome = plan(`distribution: {image: "${image}"}`);
      expect(outcome.ok).toBe(false);
      expect(outcome.ok ? undefined : outcome.pendingImage).toBe(image);
    }
  });

  describe('base config from image labels (FR-027)', () => {
    const digest = `sha256:${'a'.repeat(64)}`;
    const labelled = (text: string, extra: Partial<ImageConfig> = {}): ImageLookup => ({
      ok: true,
      config: { digest, platform: 'linux/amd64', from: 'base64', text, ...extra },
      host: 'quay.io',
      cached: false,
      tagResolved: true,
    });
    const withLabels = (image: string, lookup: ImageLookup, pinDigest = false, annotations?: Record<string, string>): PlanOutcome => {
      const extra = annotations ? `\n  annotations: ${JSON.stringify(annotations)}` : '';
      const parsed = parseLlsd(itemFrom(llsdYaml(`distribution: {image: "${image}"}`, `name: demo\n  namespace: ai${extra}`)).object);
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
      return planLlsd(parsed.llsd, inventoryOf([]), undefined, { lookups: new Map([[image, lookup]]), pinDigest });
    };
    const newConfig = 'version: 2\ndistro_name: my-stack\napis: [inference]\nproviders: {inference: []}\nstorage: {backends: {}}\n';

    it('the release is the tag; the plan carries the config and where it came from', () => {
      const p = planned(withLabels('quay.io/me/stack:0.7.0', labelled(newConfig)));
      expect([p.distributionName, p.release, p.image, p.baseConfig.distro_name, p.imageSource?.host]).toEqual([
        'my-stack',
        '0.7.0',
        'quay.io/me/stack:0.7.0',
        'my-stack',
        'quay.io',
      ]);
    });

    it('without a release tag, the org.opencontainers.image.version label gives the release, and the plan says so', () => {
      const p = planned(withLabels('quay.io/me/stack:latest', labelled(newConfig, { imageVersion: '0.7.1' })));
      expect([p.release, p.releaseNote]).toEqual(['0.7.1', 'the release is the image\'s label org.opencontainers.image.version']);
    });

    it('with neither, the release is assumed from the layout of the labelled config', () => {
      const p = planned(withLabels('quay.io/me/stack:latest', labelled(newConfig)));
      expect(p.release).toBe('1.3.0');
      expect(p.releaseNote).toContain('of the config.yaml in the labels of quay.io/me/stack:latest');
    });

    it('a literal credential in the labelled config: a warning at spec.distribution.image naming the image and the key, never the value (issue 29, S2)', () => {
      const withKey =
        'version: 2\ndistro_name: my-stack\napis: [inference]\nstorage: {backends: {}}\nproviders:\n  inference:\n' +
        '  - {provider_id: openai, provider_type: remote::openai, config: {api_key: sk-LIVE-9f8e, base_url: "${env.URL}", token: "${env.TOKEN:=x}"}}\n';
      const outcome = withLabels('quay.io/me/stack:0.7.1', labelled(withKey));
      expect(outcome.ok).toBe(true);
      const warnings = (outcome.problems ?? []).filter((p) => p.severity === 'warning');
      expect(warnings).toEqual([
        {
          severity: 'warning',
          code: 'base-literal-credential',
          path: ['spec', 'distribution', 'image'],
          message:
            '`providers.inference[0].config.api_key` of the config in the labels of the image quay.io/me/stack:0.7.1 holds a credential as a literal value, ' +
            'which reaches the generated ConfigMap for anyone who can read it (in `settings` it would be refused): write `${env.NAME}` there and set NAME ' +
            "from a Secret (an LLSD's or OGXServer's `workload.overrides.env` with `valueFrom.secretKeyRef`)",
        },
      ]);
      expect(JSON.stringify(outcome.problems)).not.toContain('sk-LIVE-9f8e');
      expect(withLabels('quay.io/me/stack:0.7.1', labelled(newConfig)).problems ?? []).toEqual([]);
    });

    it('pinDigest runs the image by the digest its tag resolved to, keeping the tag to read', () => {
      expect(planned(withLabels('quay.io/me/stack:0.7.1', labelled(newConfig), true)).image).toBe(`quay.io/me/stack:0.7.1@${digest}`);
    });

    it('a failed lookup is an error at spec.distribution.image; for a named distribution, with its shipped releases', () => {
      expect(problems(withLabels('llamastack/distribution-starter:0.6.1', { ok: false, message: 'cannot fetch X' }))).toEqual([
        {
          path: ['spec', 'distribution', 'image'],
          message: 'cannot fetch X; "starter" ships base configs for 0.7.1, 0.8.0, 1.0.0, 1.1.3, 1.2.2, 1.3.0: use one of them',
        },
      ]);
    });

    it('a labelled config that is not a mapping or has another version is refused with FR-029', () => {
      expect(problems(withLabels('quay.io/me/stack:0.7.1', labelled('- a\n- b\n')))[0]?.message).toBe(
        'the config.yaml in the labels of quay.io/me/stack:0.7.1 is not a YAML mapping; fix the image\'s labels or use `spec.overrideConfig`',
      );
      expect(problems(withLabels('quay.io/me/stack:0.7.1', labelled('version: 3\n')))[0]?.message).toBe(
        'the config.yaml in the labels of quay.io/me/stack:0.7.1: Unsupported config.yaml version 3. Supported versions: 2',
      );
    });

    it('a release from the label that no profile serves is an error naming the label', () => {
      expect(problems(withLabels('quay.io/me/stack:latest', labelled(newConfig, { imageVersion: '0.1.0' })))[0]?.message).toBe(
        'llama-stack 0.1.0 is not supported (the release from the image\'s label org.opencontainers.image.version); supported releases: ' + supportedReleases(),
      );
    });

    it('a render without the labels names the images it needs (the edge looks them up); with them, it renders', () => {
      const items = itemsFrom(
        [
          llsdYaml('distribution: {image: "quay.io/me/stack:0.7.1"}', 'name: labelled\n  namespace: ai'),
          llsdYaml('distribution: {name: starter}', releaseMetadata('0.7.1', 'catalogued')),
        ].join('---\n'),
      );
      // A config the startup checks pass: the catalog's own for starter 0.7.1, served as the image's label.
      const shipped = readFileSync(join(import.meta.dirname, '..', '..', 'configs', 'distributions', 'starter', '0.7.1.yaml'), 'utf8');
      const images = new Map([['quay.io/me/stack:0.7.1', labelled(shipped)]]);
      const first = render({ mode: 'build', items });
      expect(first.pending?.images).toEqual(['quay.io/me/stack:0.7.1']);
      expect(first.items).toEqual([]);
      const [labelledItem] = items as [InputItem];
      const again = render({ mode: 'build', items, images });
      expect(again.results.filter((r) => r.severity === 'error')).toEqual([]);
      expect(again.pending).toBeUndefined();
      expect(again.items.some((object) => (object as KrmObject).metadata?.name === labelledItem.object.metadata.name)).toBe(true);
      // KRM mode too (objects are annotated with their paths).
      const krmItems = itemsFrom(items.map((item) => stringify(item.object)).join('---\n'), (index) => ({ file: 'llsd.yaml', index }));
      expect(render({ mode: 'krm', items: krmItems }).pending?.images).toEqual(['quay.io/me/stack:0.7.1']);
      expect(render({ mode: 'krm', items: krmItems, images }).results.filter((r) => r.severity === 'error')).toEqual([]);
    });
  });

  it('with overrideConfig, the release is the image tag; the plan carries that config', () => {
    const p = planned(plan('distribution: {image: "quay.io/me/stack:0.7.0"}\noverrideConfig: {configMapName: mine}', { inputs: newLayout }));
    expect([p.distributionName, p.release, p.profile.since, p.releaseNote, p.overrideConfig?.configMapName, p.catalogRelease]).toEqual([
      'my-stack',
      '0.7.0',
      '0.7.0',
      undefined,
      'mine',
      '0.7.1',
    ]);
    expect(p.baseConfig.distro_name).toBe('my-stack');
  });

  it('with overrideConfig and no release tag, the release is assumed from the layout, and the plan says so', () => {
    const p = planned(plan('distribution: {image: "quay.io/me/stack:latest"}\noverrideConfig: {configMapName: mine}', { inputs: newLayout }));
    expect([p.release, p.profile.image.portEnv]).toEqual(['1.3.0', 'OGX_PORT']);
    expect(p.releaseNote).toBe(
      'the release is assumed from `storage.backends`, `distro_name`, the APIs inference, responses of the overrideConfig config.yaml, as the image tag is ' +
        'not a release: tag the image with its release or set the `llamastack.io/release` annotation',
    );
  });

  it('an old-layout overrideConfig is assumed to be the newest 0.2 release of the catalog', () => {
    const p = planned(plan('distribution: {image: "quay.io/me/legacy@sha256:0123"}\noverrideConfig: {configMapName: mine}', { inputs: oldLayout }));
    expect([p.release, p.profile.image.command?.[2]]).toEqual(['0.2.14', 'llama_stack.distribution.server.server']);
  });

  it('an overrideConfig whose APIs no release has together cannot be placed', () => {
    const mixed = overrideMap('version: 2\ndistro_name: x\nproviders: {agents: [], messages: []}\nstorage: {backends: {}}');
    expect(problems(plan('distribution: {image: "quay.io/me/stack:latest"}\noverrideConfig: {configMapName: mine}', { inputs: mixed }))).toEqual([
      {
        path: ['spec', 'distribution', 'image'],
        message:
          'cannot tell which llama-stack release quay.io/me/stack:latest runs: no profile serves the APIs of the overrideConfig config.yaml. Tag the image ' +
            'with its release (e.g. `:1.3.0`) or set the `llamastack.io/release` annotation',
      },
    ]);
  });

  it('a release older than every profile is an error', () => {
    expect(problems(plan('distribution: {image: "quay.io/me/stack:0.1.9"}\noverrideConfig: {configMapName: mine}', { inputs: oldLayout }))).toEqual([
      {
        path: ['spec', 'distribution', 'image'],
        message:
          'llama-stack 0.1.9 is not supported; supported releases: 0.2.x, 0.4.x, 0.7.x, 0.8.x, 1.0.x, 1.1.x, 1.2.x, 1.3.x (the release catalog has 0.2.14, ' +
            '0.4.4, 0.7.1, 0.8.0, 1.0.0, 1.1.3, 1.2.2, 1.3.0; docs/releases.md "Adding a release" says how to add one)',
      },
    ]);
  });

  it('FR-029 applies to the overrideConfig of an image too', () => {
    expect(
      problems(
        plan('distribution: {image: "quay.io/me/stack:0.7.1"}\noverrideConfig: {configMapName: mine}', { inputs: overrideMap('version: 3\nproviders: {}') }),
      ),
    ).toEqual([{ path: ['spec', 'overrideConfig', 'configMapName'], message: 'Unsupported config.yaml version 3. Supported versions: 2' }]);
  });
});

describe('the catalog from RenderConfig `distributions`', () => {
  const mirror = 'registry.internal/llamastack/distribution-starter:0.7.1';

  it('a mirror image is used for the named distribution, and recognised as an image of it', () => {
    const catalog = catalogWith({ starter: { image: mirror } });
    expect(planned(plan('distribution: {name: starter}', { catalog })).image).toBe(mirror);
    const byImage = planned(plan('distribution: {image: "registry.internal/llamastack/distribution-starter:0.8.0"}', { catalog }));
    expect([byImage.distributionName, byImage.release, byImage.baseConfig.distro_name]).toEqual(['starter', '0.8.0', 'starter']);
  });

  it('an inline base config adds a distribution', () => {
    const config = { version: 2, distro_name: 'mine', apis: ['inference'], providers: { inference: [] }, storage: { backends: {} } };
    const catalog = catalogWith({ mine: { image: 'quay.io/me/mine:0.7.1', config } });
    const p = planned(plan('distribution: {name: mine}', { catalog }));
    expect([p.distributionName, p.release, p.image, p.profile.since]).toEqual(['mine', '0.7.1', 'quay.io/me/mine:0.7.1', '0.7.0']);
    expect(p.baseConfig).toEqual(config);
    // The plan shares the catalog's config (no copy per LLSD); generating from it leaves it as it was.
    const before = JSON.stringify(config);
    expect(generateConfig(p).ok).toBe(true);
    expect(JSON.stringify(config)).toBe(before);
  });

  it('`release` changes the default release', () => {
    expect(planned(plan('distribution: {name: starter}', { catalog: catalogWith({ starter: { release: '0.8.0' } }) })).release).toBe('0.8.0');
  });
});

describe('RenderConfig `distributions` as an option', () => {
  const llsd = llsdYaml('distribution: {name: starter}', releaseMetadata('0.7.1'));
  const renderConfig = (spec: string) => `apiVersion: fn.llamastack.io/v1alpha1\nkind: RenderConfig\nmetadata: {name: options}\nspec:\n${spec}`;
  const configMap = (data: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: function-input}\ndata:\n${data}`;
  const deploymentImage = (items: unknown[]) =>
    (items.find((i) => (i as KrmObject).kind === 'Deployment') as { spec: { template: { spec: { containers: Array<{ image: string }> } } } }).spec.template.spec
      .containers[0]?.image;

  it('RenderConfig form: a mapping', () => {
    const out = render({
      mode: 'build',
      items: itemsFrom(llsd),
      functionConfig: itemFrom(renderConfig(`  distributions:\n    starter: {image: "${mirror()}"}`)),
    });
    expect(out.results.filter((r) => r.severity === 'error')).toEqual([]);
    expect(deploymentImage(out.items)).toBe(mirror());
    expect(out.results.find((r) => r.severity === 'info')?.message).toMatch(
      /for llama-stack 0\.7\.1 \(distribution starter, image registry\.internal\/llamastack\/distribution-starter:0\.7\.1\)$/,
    );
  });

  it('ConfigMap form (kpt `configMap:`): a YAML string', () => {
    const out = render({
      mode: 'krm',
      items: itemsFrom(llsd),
      functionConfig: itemFrom(configMap(`  distributions: |\n    starter:\n      image: ${mirror()}\n`)),
    });
    expect(out.results.filter((r) => r.severity === 'error')).toEqual([]);
    expect(deploymentImage(out.items)).toBe(mirror());
  });

  it('ConfigMap form: a string that is not YAML is an error at its key', () => {
    const fc = readFunctionConfig(itemFrom(configMap('  distributions: "starter: [unclosed"\n')));
    expect(fc.role === 'options' && fc.problems).toEqual([{ path: ['data', 'distributions'], message: expect.stringMatching(/^is not valid YAML/) }]);
  });

  it('FR-029 on an inline base config, at its version', () => {
    const fc = readFunctionConfig(
      itemFrom(renderConfig('  distributions:\n    mine:\n      image: quay.io/me/mine:0.7.1\n      config: {version: 3, distro_name: mine, providers: {}}')),
    );
    expect(fc.role === 'options' && fc.problems).toEqual([
      { path: ['spec', 'distributions', 'mine', 'config', 'version'], message: 'Unsupported config.yaml version 3. Supported versions: 2' },
    ]);
  });

  it('unknown fields and bad names are errors', () => {
    const fc = readFunctionConfig(itemFrom(renderConfig('  distributions:\n    Starter_X: {image: a/b:1}\n    starter: {imag: a/b:1}')));
    expect(fc.role === 'options' && fc.problems).toEqual([
      { path: ['spec', 'distributions', 'Starter_X'], message: 'must be a distribution name such as `starter` (lower case letters, digits, `-` and `.`)' },
      { path: ['spec', 'distributions', 'starter', 'imag'], message: 'is not a known field; did you mean `image`?' },
    ]);
  });

  it('the registry option: defaults, ConfigMap YAML string, and errors at their field', () => {
    const defaults = renderConfigSchemas().renderOptionsSchema.parse({}).registry;
    expect(defaults).toEqual({ offline: false, mirrors: {}, insecure: [], platform: 'linux/amd64', timeoutSeconds: 30, deadlineSeconds: 60, pinDigest: false });
    const fromData = readFunctionConfig(
      itemFrom(configMap('  registry: "{offline: \'true\', insecure: [127.0.0.1:5000], mirrors: {docker.io: [mirror.internal/hub]}}"\n')),
    );
    expect(fromData.role === 'options' && fromData.problems).toEqual([]);
    const bad = readFunctionConfig(
      itemFrom(renderConfig('  registry:\n    platform: linux\n    insecure: [https://quay.io]\n    mirrors: {docker.io: []}\n    timeout: 3')),
    );
    expect(bad.role === 'options' && bad.problems).toEqual([
      { path: ['spec', 'registry', 'mirrors', 'docker.io'], message: 'must list at least 1 item' },
      {
        path: ['spec', 'registry', 'insecure', 0],
        message: 'must be a registry host such as `registry.internal:5000` (a name or address and an optional port, no scheme)',
      },
      { path: ['spec', 'registry', 'platform'], message: 'must be `os/architecture[/variant]`, such as `linux/amd64` or `linux/arm64`' },
      {
        path: ['spec', 'registry', 'timeout'],
        message: 'is not a known field; known fields: offline, cacheDir, mirrors, insecure, platform, timeoutSeconds, deadlineSeconds, pinDigest',
      },
    ]);
  });

  it('as a KRM function, `configPath` is an error telling to give `config` inline', () => {
    const out = render({ mode: 'krm', items: itemsFrom(llsd), functionConfig: itemFrom(configMap('  distributions: "starter: {configPath: base.yaml}"\n')) });
    expect(out.results.filter((r) => r.severity === 'error').map((r) => [r.field?.path, r.message])).toEqual([
      [
        'data.distributions.starter.configPath',
        'is read from a file only by `llsd-render build` and `validate` (relative to the file that holds the RenderConfig); a KRM function cannot read ' +
          'files: give the base config inline as `config`',
      ],
    ]);
  });

  function mirror(): string {
    return 'registry.internal/llamastack/distribution-starter:0.7.1';
  }
});

describe('`configPath` in `llsd-render build` and `validate`', () => {
  const root = mkdtempSync(join(tmpdir(), 'llsd-plan-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  // A whole config for 0.7.1: the startup rules run on it too.
  const base =
    'version: 2\ndistro_name: mine\napis: [inference]\nproviders:\n  inference: []\nstorage:\n  backends:\n    kv_default: {type: kv_sqlite, db_path: ' +
      '/.llama/kv.db}\n    sql_default: {type: sql_sqlite, db_path: /.llama/sql.db}\n  stores:\n    metadata: {backend: kv_default, namespace: registry}\n ' +
      '   inference: {backend: sql_default, table_name: inference_store}\n';

  function project(name: string, distributions: string, files: Record<string, string> = {}): string {
    const dir = join(root, name);
    mkdirSync(join(dir, 'apps', 'bases'), { recursive: true });
    writeFileSync(join(dir, 'apps', 'llsd.yaml'), llsdYaml('distribution: {name: mine}'));
    writeFileSync(
      join(dir, 'apps', 'options.yaml'),
      `apiVersion: fn.llamastack.io/v1alpha1\nkind: RenderConfig\nmetadata: {name: options}\nspec:\n  distributions:\n${distributions}`,
    );
    for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, path), text);
    return join(dir, 'apps');
  }

  async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    let stdout = '';
    let stderr = '';
    const code = await main({ argv: args, readStdin: async () => '', stdout: (t) => void (stdout += t), stderr: (t) => (stderr += t) });
    return { code, stdout, stderr };
  }

  it('reads the file relative to the RenderConfig and uses it as the base config', async () => {
    const dir = project('ok', '    mine: {image: "quay.io/me/mine:0.7.1", configPath: bases/mine.yaml}\n', { 'apps/bases/mine.yaml': base });
    const r = await run(['build', dir]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toMatch(/image: quay\.io\/me\/mine:0\.7\.1/);
    expect(r.stdout).toMatch(/distro_name: mine/);
  });

  it('a path leaving the RenderConfig directory is refused', async () => {
    const dir = project('escape', '    mine: {image: "quay.io/me/mine:0.7.1", configPath: ../outside.yaml}\n', { 'outside.yaml': base });
    const r = await run(['validate', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /options\.yaml:\d+: options: spec\.distributions\.mine\.configPath: "\.\.\/outside\.yaml" leaves the directory of the file that holds the RenderConfig; put the base config next to it or below/,
    );
  });

  it('a missing file, and a file with an unsupported version, are errors', async () => {
    const missing = await run(['validate', project('missing', '    mine: {image: "quay.io/me/mine:0.7.1", configPath: bases/none.yaml}\n')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/spec\.distributions\.mine\.configPath: cannot read "bases\/none\.yaml": no such file/);
    const bad = await run([
      'validate',
      project('bad', '    mine: {image: "quay.io/me/mine:0.7.1", configPath: bases/mine.yaml}\n', {
        'apps/bases/mine.yaml': base.replace('version: 2', 'version: 3'),
      }),
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/spec\.distributions\.mine\.config\.version: Unsupported config\.yaml version 3\. Supported versions: 2/);
  });

  it('`--config FILE` resolves configPath relative to that file', async () => {
    const dir = join(root, 'flag');
    mkdirSync(join(dir, 'apps'), { recursive: true });
    mkdirSync(join(dir, 'options'), { recursive: true });
    writeFileSync(join(dir, 'apps', 'llsd.yaml'), llsdYaml('distribution: {name: mine}'));
    writeFileSync(join(dir, 'options', 'base.yaml'), base);
    writeFileSync(
      join(dir, 'options', 'fn.yaml'),
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: fn}\ndata:\n  distributions: |\n    mine: {image: "quay.io/me/mine:0.7.1", configPath: base.yaml}\n',
    );
    const r = await run(['build', '--config', join(dir, 'options', 'fn.yaml'), join(dir, 'apps')]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toMatch(/image: quay\.io\/me\/mine:0\.7\.1/);
  });
});
