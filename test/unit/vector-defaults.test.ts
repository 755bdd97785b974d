// Settings that name a vector_io provider follow the CR's vector providers (issue 28, both APIs):
// which keys they are per release (found in each catalog release's own schemas), what each
// generator writes into them, and the startup rule that checks them.
import { describe, expect, it } from 'vitest';
import { catalogReleases, distributions, ogxServerReleases, providerRegistry, schemaOf, serverRelease } from '../../src/catalog/catalog.js';
import { startupFacts } from '../../src/catalog/startup-facts.js';
import { compareVersions } from '../../src/catalog/versions.js';
import { asServerConverts } from '../../src/core/legacy-forms.js';
import { checkStartupRules } from '../../src/core/startup/index.js';
import { vectorProviderSettings } from '../../src/core/vector-defaults.js';
import { isPlainObject } from '../../src/lib/objects.js';
import { generateOgxConfig } from '../../src/ogx/generate.js';
import { configOf, generate, ogxPlan, starterPlan } from './plan-fixtures.js';

type Node = Record<string, unknown>;

/**
 * Paths (keys of nested objects, `[]` for a list's items) of every key under `root` that names a
 * provider by id: `provider_id` and `…_provider_id`, through `$ref`, `anyOf`, `items`.
 */
function providerIdKeys(root: unknown): string[][] {
  const out: string[][] = [];
  const walk = (node: unknown, path: string[], seen: Set<string>): void => {
    if (!isPlainObject(node)) return;
    if (typeof node.$ref === 'string') {
      const key = node.$ref.replace('#/$defs/', '');
      if (seen.has(key)) return;
      walk(schemaOf(key), path, new Set([...seen, key]));
      return;
    }
    for (const branch of [node.anyOf, node.oneOf, node.allOf].filter(Array.isArray).flat()) walk(branch, path, seen);
    if (node.items !== undefined) walk(node.items, [...path, '[]'], seen);
    if (isPlainObject(node.additionalProperties)) walk(node.additionalProperties, [...path, '*'], seen);
    for (const [key, child] of Object.entries(isPlainObject(node.properties) ? node.properties : {})) {
      if (/(^|_)provider_id$/.test(key)) out.push([...path, key]);
      walk(child, [...path, key], seen);
    }
  };
  walk(root, [], new Set());
  return out;
}

/**
 * Of those, the ones that name a vector_io provider: under a `vector…` key or `memory_config`
 * (the responses memory's vector store), or named for a vector store, except a model's provider
 * (`default_embedding_model.provider_id` names an inference provider) and the registered vector
 * stores (resources, checked as such).
 */
const namesVectorProvider = (path: string[]): boolean =>
  path[0] !== 'registered_resources' &&
  path[0] !== 'providers' &&
  !/model$/.test(path.at(-2) ?? '') &&
  (path.some((step) => /vector|memory_config/.test(step)));

const factPaths = (): { runConfig: string[]; provider: string[] } => {
  const { runConfig, provider } = startupFacts().resources.vectorProviderSettings;
  return { runConfig: runConfig.map((s) => s.path.join('.')), provider: provider.map((s) => s.path.join('.')) };
};

describe('the settings that name a vector_io provider, per catalog release', () => {
  for (const release of catalogReleases()) {
    it(`${release}: every such key of the run-config and provider schemas is in configs/startup-facts.yaml`, () => {
      const facts = factPaths();
      const schema = serverRelease(release)?.runConfigSchema;
      const runConfig = providerIdKeys(schema ? schemaOf(schema) : undefined).filter(namesVectorProvider).map((p) => p.join('.'));
      for (const path of runConfig) expect(facts.runConfig, `run config ${path}`).toContain(path);
      const provider = Object.values(providerRegistry(release))
        .flatMap((types) => Object.values(types))
        .flatMap((spec) => providerIdKeys(schemaOf(spec.schema)).filter(namesVectorProvider).map((p) => p.join('.')));
      for (const path of provider) expect(facts.provider, `provider config ${path}`).toContain(path);
      // The releases that have each: `vector_stores` from 0.4.4, the responses memory from 1.2.2.
      expect(runConfig.includes('vector_stores.default_provider_id')).toBe(compareVersions(release, '0.4.4') >= 0);
      expect(provider.includes('memory_config.default_vector_store_provider_id')).toBe(compareVersions(release, '1.2.2') >= 0);
      expect(provider.includes('vector_stores_config.default_provider_id')).toBe(compareVersions(release, '0.4.4') >= 0);
    });
  }
});

function ogxGenerated(spec: string, release: string) {
  const plan = ogxPlan(spec, release);
  const generated = generateOgxConfig(plan);
  if (!generated.ok) throw new Error(JSON.stringify(generated.problems));
  const context = { release, catalogRelease: plan.catalogRelease, profile: plan.profile, containerEnv: new Set(generated.config.env.map((e) => e.name)) };
  const { config } = asServerConverts(generated.config.value, release, plan.catalogRelease);
  return { generated, startup: checkStartupRules(config, context) };
}

const pgvectorOnly = `  distribution: {name: starter}
  providers:
    vectorIo:
      remote:
        pgvector:
        - host: pg.ai.svc
          db: vectors
          user: ogx
          password: {name: pg, key: password}
`;

describe('OGXServer: the base settings follow the spec\'s vector_io providers (A18)', () => {
  for (const release of ogxServerReleases()) {
    it(`${release}: with pgvector the only vector provider, each setting names it, with an info result at the provider, and no startup warning`, () => {
      const { generated, startup } = ogxGenerated(pgvectorOnly, release);
      const config = generated.config.value;
      const settings = vectorProviderSettings(config);
      // The starter names faiss (vector_stores) and, from 1.2.2, sqlite-vec (responses memory).
      expect(settings.map((s) => s.path.join('.'))).toEqual([
        'vector_stores.default_provider_id',
        ...(compareVersions(release, '1.2.2') >= 0 ? ['providers.responses.0.config.memory_config.default_vector_store_provider_id'] : []),
      ]);
      for (const s of settings) expect(s.value, s.path.join('.')).toBe('remote-pgvector');
      expect((config.providers as Record<string, Node[]>).vector_io?.map((p) => p.provider_id)).toEqual(['remote-pgvector']);
      expect(generated.problems.filter((p) => p.path.join('.') === 'spec.providers.vectorIo.remote.pgvector.0')).toEqual([
        expect.objectContaining({ severity: 'info', message: expect.stringContaining('`vector_stores.default_provider_id` (was "faiss")') }),
      ]);
      expect(startup.filter((p) => p.code === 'default-provider-not-enabled')).toEqual([]);
    });
  }

  it('the spec\'s first vector provider wins, one the spec lists is kept, and a setting the spec writes itself stays as written', () => {
    const spec = `  distribution: {name: starter}
  providers:
    vectorIo:
      remote:
        qdrant:
        - {id: q, url: "http://q.ai.svc:6333"}
        milvus:
        - {id: m, uri: "http://m.ai.svc:19530"}
    toolRuntime:
      inline:
        fileSearch:
        - vectorStoresConfig: {defaultProviderId: elsewhere}
`;
    const { generated } = ogxGenerated(spec, '1.3.0');
    const config = generated.config.value as Node & { providers: Record<string, Node[]>; vector_stores: Node };
    // The operator's order: milvus before qdrant in its table, so milvus is first.
    expect(config.providers.vector_io?.map((p) => p.provider_id)).toEqual(['m', 'q']);
    expect(config.vector_stores.default_provider_id).toBe('m');
    const fileSearch = config.providers.tool_runtime?.find((p) => p.provider_type === 'inline::file-search') as Node & { config: Node };
    expect(fileSearch.config.vector_stores_config).toMatchObject({ default_provider_id: 'elsewhere' });
  });
});

describe('LLSD: the CR\'s vector_io provider becomes the default', () => {
  const withPgvector = `distribution: {name: starter}
providers:
  vectorIo:
    provider: pgvector
    settings: {host: pg.ai.svc, db: vectors, user: llsd}
    apiKey: {secretKeyRef: {name: pg, key: password}}
`;
  // The starter's releases with a top-level `vector_stores` (0.4.4+).
  const releases = Object.keys(distributions().starter?.releases ?? {}).filter((r) => compareVersions(r, '0.4.4') >= 0);
  it('the starter has such releases', () => expect(releases.length).toBeGreaterThan(3));
  for (const release of releases) {
    it(`${release}: an LLSD that adds pgvector gets it as the default of every setting, with an info result at the provider`, () => {
      const outcome = generate(starterPlan(withPgvector, release));
      const config = configOf(outcome);
      const settings = vectorProviderSettings(config);
      expect(settings.map((s) => s.path[0])).toContain('vector_stores');
      for (const s of settings) expect(s.value, s.path.join('.')).toBe('pgvector');
      // The base's providers stay beside it (an LLSD lays its providers over the base's).
      expect((config.providers.vector_io as Node[]).map((p) => p.provider_id)).toEqual(expect.arrayContaining(['faiss', 'pgvector']));
      if (!outcome.ok) throw new Error('unreachable');
      expect(outcome.problems.filter((p) => p.path.join('.') === 'spec.providers.vectorIo')).toEqual([
        expect.objectContaining({ severity: 'info', message: expect.stringContaining('`vector_stores.default_provider_id` (was "faiss")') }),
      ]);
    });
  }
  it('an LLSD without a vector_io provider keeps the base defaults', () => {
    const config = configOf(generate(starterPlan('distribution: {name: starter}\n', '1.3.0')));
    expect(config.vector_stores.default_provider_id).toBe('faiss');
  });
});

describe('startup rule: a setting that names a vector_io provider names an enabled one', () => {
  it('the responses memory naming a provider the config does not have is a warning at that setting (1.2.2+)', () => {
    const { startup } = ogxGenerated(`  distribution: {name: starter}\n  storage: {}\n`, '1.3.0');
    expect(startup.filter((p) => p.code === 'default-provider-not-enabled')).toEqual([]);
    const config = configOf(generate(starterPlan('distribution: {name: starter}\n', '1.3.0')));
    const responses = (config.providers.responses as Node[])[0] as { config: { memory_config: Node } };
    responses.config.memory_config.default_vector_store_provider_id = 'gone';
    const plan = starterPlan('distribution: {name: starter}\n', '1.3.0');
    const problems = checkStartupRules(config, { release: '1.3.0', catalogRelease: '1.3.0', profile: plan.profile, containerEnv: new Set() });
    expect(problems.filter((p) => p.code === 'default-provider-not-enabled')).toEqual([
      expect.objectContaining({
        severity: 'warning',
        path: 'providers.responses[0].config.memory_config.default_vector_store_provider_id',
        message:
          'names "gone", which is not an enabled vector_io provider: Responses memory creates its default memory vector store there when memory is ' +
          'enabled; name one of the enabled vector_io providers instead: faiss, sqlite-vec',
      }),
    ]);
  });
});
