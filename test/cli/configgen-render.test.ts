// Upstream's 13 configgen cases (test/fixtures/ogx-configgen/, the OGX operator's
// cmd/configgen/testdata; README there) through the BUILT CLI, with the base given the way a user
// gives it: a RenderConfig `distributions` entry (kpt's functionConfig) whose `config` is the case's
// base.yaml. test/unit/ogx-configgen.test.ts calls the generator alone; this test sees everything a
// user sees: the distribution-name check, the release-schema and dependency checks, the results.
// Each case either renders (no error; config.yaml structurally equal to want-config.yaml except the
// divergences of docs/ogxserver.md, each asserted here) or is refused for a reason OGX itself has.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseResourceList, repoRoot, resourceList, run, type KrmObject, type WireResult } from './run.js';

const casesDir = join(repoRoot, 'test', 'fixtures', 'ogx-configgen');
const read = (name: string, file: string): string => readFileSync(join(casesDir, name, file), 'utf8');
/** configgen's name → image map (rh, starter, test): the image a user would name for the entry. */
const images = JSON.parse(readFileSync(join(casesDir, 'distributions.json'), 'utf8')) as Record<string, string>;

/** The OGX release upstream's goldens were checked against (GENERATION.md §13: v1.3.0). */
const GOLDEN_RELEASE = '1.3.0';
/** The release line RHOAI/ODH ship the rh distribution on (reference rh-distribution/README.md). */
const RH_RELEASE = '1.2.2';

const distributionOf = (name: string): string => String((parse(read(name, 'cr.yaml')) as { spec: { distribution: { name: string } } }).spec.distribution.name);

/** The case's base.yaml text, indented as the `config` mapping of the entry (its scalars stay as written). */
const indented = (text: string, pad: string): string =>
  text
    .split('\n')
    .map((line) => (line.trim() === '' ? '' : `${pad}${line}`))
    .join('\n');

/** The RenderConfig a user writes for the case (none when the case has no base: the shipped starter serves). */
function renderConfig(name: string, release: string): string | undefined {
  if (!existsSync(join(casesDir, name, 'base.yaml'))) return undefined;
  const distribution = distributionOf(name);
  return `apiVersion: fn.llamastack.io/v1alpha1
kind: RenderConfig
metadata:
  name: options
spec:
  distributions:
    ${distribution}:
      image: ${images[distribution] ?? ''}
      release: "${release}"
      config:
${indented(read(name, 'base.yaml'), '        ')}
`;
}

interface Rendered {
  status: number | null;
  stderr: string;
  items: KrmObject[];
  results: WireResult[];
  errors: WireResult[];
  /** The generated config.yaml, parsed (undefined: none generated). */
  config: Record<string, unknown> | undefined;
}

/** One KRM run (as kpt runs it) over the case's CR plus `extra` documents. */
function renderCase(name: string, release: string, extra: readonly string[] = []): Rendered {
  const r = run([], { input: resourceList([read(name, 'cr.yaml'), ...extra], renderConfig(name, release)) });
  const { items, results } = parseResourceList(r.stdout);
  const configMap = items.find((i) => i.kind === 'ConfigMap' && /-config-[0-9a-f]+$/.test(i.metadata.name)) as
    | (KrmObject & { data: Record<string, string> })
    | undefined;
  const text = configMap?.data['config.yaml'];
  return {
    status: r.status,
    stderr: r.stderr,
    items,
    results,
    errors: results.filter((x) => x.severity === 'error'),
    config: text === undefined ? undefined : (parse(text) as Record<string, unknown>),
  };
}

interface Divergence {
  ref: string;
  path: Array<string | number>;
  /** want-config.yaml's value at `path` (undefined: upstream writes nothing there). */
  upstream: unknown;
  ours: unknown;
  why: string;
}

/** Every rendered case: configgen writes `version: "2"`; the release's schema types it an integer (B6). */
const everyCase: Divergence[] = [{ ref: 'B6', path: ['version'], upstream: '2', ours: 2, why: 'the release schema reads an integer' }];

function at(value: unknown, path: Array<string | number>): unknown {
  let node = value;
  for (const step of path) node = node === null || typeof node !== 'object' ? undefined : (node as Record<string | number, unknown>)[step];
  return node;
}

function put(value: unknown, path: Array<string | number>, leaf: unknown): void {
  const parent = at(value, path.slice(0, -1)) as Record<string | number, unknown>;
  const key = path.at(-1) as string | number;
  if (leaf === undefined) delete parent[key];
  else parent[key] = leaf;
}

function expectRendersAsUpstream(rendered: Rendered, name: string, divergences: Divergence[]): void {
  expect(rendered.errors, rendered.stderr).toEqual([]);
  expect(rendered.status, rendered.stderr).toBe(0);
  const want = parse(read(name, 'want-config.yaml')) as Record<string, unknown>;
  const ours = rendered.config;
  expect(ours, 'a generated config.yaml').toBeDefined();
  for (const d of [...everyCase, ...divergences]) {
    expect(at(want, d.path), `${d.ref}: upstream's value`).toEqual(d.upstream);
    expect(at(ours, d.path), `${d.ref}: our value (${d.why})`).toEqual(d.ours);
    put(want, d.path, d.ours);
  }
  expect(ours).toEqual(want);
}

/** The error results, as {path, message} pairs, in the order given. */
const errorsAt = (rendered: Rendered) => rendered.errors.map((e) => ({ path: e.field?.path, message: e.message }));

describe('upstream configgen cases that render, through the CLI with the base as a RenderConfig distributions entry', () => {
  // The base-url-without-path warning (no /v1 in the CR's endpoint) is a warning: OGX starts.
  for (const name of ['happy-basic', 'p0-inference-base-url', 'p1-inference-extra-fields']) {
    it(`${name} (OGX ${GOLDEN_RELEASE}): no error, config.yaml equal to want-config.yaml except B6`, () => {
      expectRendersAsUpstream(renderCase(name, GOLDEN_RELEASE), name, []);
    });
  }

  // The rh cases render with the base as shipped, on the release the goldens were checked with and
  // on the 1.2 line RHOAI ships the rh distribution on.
  for (const release of [GOLDEN_RELEASE, RH_RELEASE]) {
    it(`rh-custom-port (OGX ${release}): network.port 9090 is server.port; server.auth kept`, () => {
      const rendered = renderCase('rh-custom-port', release);
      expectRendersAsUpstream(rendered, 'rh-custom-port', []);
      expect(at(rendered.config, ['server', 'port'])).toBe(9090);
    });

    it(`rh-disable-apis (OGX ${release}): batches and file_processors leave apis; their providers stay, and a warning says so`, () => {
      const rendered = renderCase('rh-disable-apis', release);
      expectRendersAsUpstream(rendered, 'rh-disable-apis', []);
      // OGX still builds the providers of an API left out of `apis` but serves no route for it
      // (GENERATION.md B7): the user's disabledAPIs did what they asked, with a warning each.
      const warnings = rendered.results.filter((x) => x.severity === 'warning').map((x) => x.message);
      expect(warnings).toEqual(
        expect.arrayContaining([
          expect.stringContaining('`providers.batches` has providers'),
          expect.stringContaining('`providers.file_processors` has providers'),
        ]),
      );
    });

    it(`rh-override-inference (OGX ${release}): one vllm replaces the base's inference providers; the base model stays`, () => {
      // The kept model is `model_id: ${env.EMBEDDING_MODEL:=}` on `${env.EMBEDDING_PROVIDER:=vllm-embedding}`:
      // with EMBEDDING_MODEL unset the id comes to empty, and OGX drops the entry before it looks for the
      // provider (server-catalog env-substitution.md), so the removed provider is no error.
      expectRendersAsUpstream(renderCase('rh-override-inference', release), 'rh-override-inference', []);
    });
  }
});

describe('upstream configgen cases that OGX would refuse, through the CLI: refused at the field, with the server\'s reason', () => {
  it('rh-add-models: the embedding model has no embedding_dimension (the OGXServer API has no field for it), and OGX stops on that', () => {
    for (const release of [GOLDEN_RELEASE, RH_RELEASE]) {
      const rendered = renderCase('rh-add-models', release);
      // notes/llamastack-config.md rule 10: an embedding model needs metadata.embedding_dimension (fatal).
      // The only error; the rh base as shipped adds none.
      expect(errorsAt(rendered), rendered.stderr).toEqual([
        { path: 'spec.resources.models[1]', message: expect.stringContaining('metadata.embedding_dimension') },
      ]);
      expect(rendered.status).toBe(1);
      // What to write instead (docs/ogxserver.md "Limits"): the CR's models replace the base's, so
      // the model and its dimension go in a base config (spec.baseConfig) or an overrideConfig.
      expect(rendered.errors[0]?.message).toMatch(/baseConfig|overrideConfig/);
      // The generator's part upstream's golden shows still holds: the models replace the base's.
      const want = parse(read('rh-add-models', 'want-config.yaml')) as { registered_resources: { models: Array<{ model_type: string }> } };
      expect(want.registered_resources.models.map((m) => m.model_type)).toEqual(['llm', 'embedding']);
    }
  });

  it('p1-batches-config: inline::reference batches needs inference and files, which the base lacks; OGX stops ("required dependency")', () => {
    // server-catalog 1.3.0 providers.json: batches inline::reference api_dependencies [inference, files, models].
    const rendered = renderCase('p1-batches-config', GOLDEN_RELEASE);
    expect(rendered.status).toBe(1);
    expect(errorsAt(rendered)).toEqual(
      expect.arrayContaining([
        { path: 'spec.providers.batches.inline.reference', message: expect.stringMatching(/needs the files API/) },
        { path: 'spec.providers.batches.inline.reference', message: expect.stringMatching(/needs the inference API/) },
      ]),
    );
    expect(rendered.errors).toHaveLength(2);
    // Nothing is written on an error: no ConfigMap a pod could mount.
    expect(rendered.config).toBeUndefined();
  });

  it('p1-fileprocessors-config: every file processor needs the files API, which the base lacks; OGX stops', () => {
    // providers.json: every file_processors provider has api_dependencies [files].
    const rendered = renderCase('p1-fileprocessors-config', GOLDEN_RELEASE);
    expect(rendered.status).toBe(1);
    const paths = [
      'spec.providers.fileProcessors.remote.doclingServe',
      'spec.providers.fileProcessors.inline.auto',
      'spec.providers.fileProcessors.inline.pypdf',
      'spec.providers.fileProcessors.inline.markitdown',
      'spec.providers.fileProcessors.inline.docling',
    ];
    const files = errorsAt(rendered).filter((e) => /needs the files API/.test(e.message));
    expect(files.map((e) => e.path).sort()).toEqual([...paths].sort());
    // Five file processors: OGX keeps one implementation of a non-routed API and the last one wins,
    // silently (notes/llamastack-config.md §3.1 and rule 5: "silent"); the server does not stop on
    // it. The render may refuse it (four of the five would not mean what the CR says, DESIGN §5),
    // once per extra processor, but must not claim the server stops.
    const second = rendered.results.filter((x) => /second file_processors provider/.test(x.message));
    expect(second.map((x) => x.field?.path).sort()).toEqual(paths.slice(1).sort());
    for (const x of second) expect(x.message, `${x.field?.path}: ${x.message}`).not.toMatch(/would stop OGX/);
    const others = rendered.errors.filter((e) => !/needs the files API|second file_processors provider/.test(e.message));
    expect(others.map((e) => `${e.field?.path}: ${e.message}`)).toEqual([]);
  });

  it('p1-filesearch-config: inline::file-search needs vector_io, inference and files, which the base lacks; OGX stops', () => {
    // providers.json: tool_runtime inline::file-search api_dependencies [vector_io, inference, files].
    const rendered = renderCase('p1-filesearch-config', GOLDEN_RELEASE);
    expect(rendered.status).toBe(1);
    const at0 = 'spec.providers.toolRuntime.inline.fileSearch[0]';
    expect(errorsAt(rendered)).toEqual([
      { path: at0, message: expect.stringMatching(/needs the files API/) },
      { path: at0, message: expect.stringMatching(/needs the inference API/) },
      { path: at0, message: expect.stringMatching(/needs the vector_io API/) },
    ]);
  });

  it('p1-pgvector-config: every vector_io provider needs inference, which the base lacks; OGX stops', () => {
    // providers.json: vector_io remote::pgvector api_dependencies [inference].
    const rendered = renderCase('p1-pgvector-config', GOLDEN_RELEASE);
    expect(rendered.status).toBe(1);
    expect(errorsAt(rendered)).toEqual([{ path: 'spec.providers.vectorIo.remote.pgvector[0]', message: expect.stringMatching(/needs the inference API/) }]);
  });
});

describe('upstream configgen want-err cases, through the CLI', () => {
  it('err-bad-base-path: a base without `version` is refused at the entry\'s config, saying what to write', () => {
    expect(read('err-bad-base-path', 'want-err').trim()).toBe("missing required 'version' field");
    const rendered = renderCase('err-bad-base-path', GOLDEN_RELEASE);
    expect(rendered.status).toBe(1);
    // The operator refuses such a base (notes/operator.md §configgen 2: "missing required 'version'
    // field"). OGX itself would set version 2 (notes/llamastack-config.md: configure.py overwrites
    // it), but a base without `version` is no config.yaml of any release: a user's mistake to name.
    expect(errorsAt(rendered)).toEqual([{ path: 'spec.distributions.starter.config.version', message: expect.stringMatching(/version/) }]);
    const message = rendered.errors[0]?.message ?? '';
    expect(message).toMatch(/`?version: 2`?|write 2|Supported versions: 2/);
    // The message is for a user: no JavaScript value names.
    expect(message).not.toContain('undefined');
  });

  it('err-override-config: configgen skips generation; the operator mounts the ConfigMap verbatim, and so does the render', () => {
    expect(read('err-override-config', 'want-err').trim()).toBe('overrideConfig');
    const configMap = `apiVersion: v1
kind: ConfigMap
metadata:
  name: my-config
  labels: {ogx.io/watch: "true"}
data:
  config.yaml: |
    version: 2
    distro_name: mine
    apis: [inference]
    providers:
      inference:
      - provider_id: vllm
        provider_type: remote::vllm
        config: {base_url: "http://vllm:8000/v1"}
`;
    const rendered = renderCase('err-override-config', GOLDEN_RELEASE, [configMap]);
    expect(rendered.errors, rendered.stderr).toEqual([]);
    expect(rendered.status).toBe(0);
    expect(rendered.config, 'nothing generated').toBeUndefined();
    const deployment = rendered.items.find((i) => i.kind === 'Deployment');
    expect(JSON.stringify(deployment)).toContain('"my-config"');
  });

  it('err-override-config without its ConfigMap: refused at spec.overrideConfig.name, saying to add it (the operator fails the same way)', () => {
    const rendered = renderCase('err-override-config', GOLDEN_RELEASE);
    expect(rendered.status).toBe(1);
    expect(errorsAt(rendered)).toEqual([{ path: 'spec.overrideConfig.name', message: expect.stringContaining('not in the input') }]);
  });
});
