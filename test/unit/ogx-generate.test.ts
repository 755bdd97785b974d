// OGXServer config generation: every OGX release of the catalog starts with a typical spec (the
// same startup and release-schema checks as LLSD output), and the OGX operator's
// generation rules for Secret env vars, models, storage and disabledAPIs.
import { describe, expect, it } from 'vitest';
import { isError } from '../../src/lib/issues.js';
import { ogxServerReleases } from '../../src/catalog/catalog.js';
import { generateOgxConfig, naturalLess, sortedDocument, splitRedisEndpoint } from '../../src/ogx/generate.js';
import { expandOgxProviders, normEnv } from '../../src/ogx/providers.js';
import { ogxProviderIds } from '../../src/ogx/rules.js';
import { asServerConverts } from '../../src/core/legacy-forms.js';
import { checkReleaseSchema } from '../../src/core/release-schema.js';
import { checkStartupRules } from '../../src/core/startup/index.js';
import { ogxPlan, ogxServer } from './plan-fixtures.js';

const typical = `  distribution: {name: starter}
  providers:
    inference:
      remote:
        vllm:
        - id: vllm
          endpoint: http://vllm.ai.svc:8000/v1
          apiToken: {name: vllm, key: token}
    vectorIo:
      remote:
        pgvector:
        - host: pg.ai.svc
          db: vectors
          user: ogx
          password: {name: pg, key: password}
          vectorIndex: {hnsw: {m: 16}}
  resources:
    models:
    - name: granite
  storage: {}
`;

describe('a typical OGXServer on every OGX release', () => {
  it('the catalog has OGX releases', () => expect(ogxServerReleases().length).toBeGreaterThan(0));

  for (const release of ogxServerReleases()) {
    it(`${release}: passes the startup rules and the release schema with no error`, () => {
      const plan = ogxPlan(typical, release);
      expect(plan.release).toBe(release);
      const generated = generateOgxConfig(plan);
      if (!generated.ok) throw new Error(JSON.stringify(generated.problems));
      const containerEnv = new Set(generated.config.env.map((e) => e.name));
      expect([...containerEnv]).toEqual(['OGX_REMOTE_PGVECTOR_PASSWORD', 'OGX_VLLM_API_TOKEN']);
      const context = { release, catalogRelease: plan.catalogRelease, profile: plan.profile, containerEnv };
      // As src/process.ts checkAsServer judges it: what the server converts first is converted.
      const { config, notes } = asServerConverts(generated.config.value, release, plan.catalogRelease);
      expect(notes).toEqual([]);
      expect(checkStartupRules(config, context).filter((p) => p.severity === 'error')).toEqual([]);
      expect(checkReleaseSchema(config, { ...context, source: 'generated' }).filter((p) => p.severity === 'error')).toEqual([]);
    });
  }
});

const generate = (spec: string, release?: string) => {
  const generated = generateOgxConfig(ogxPlan(spec, release));
  if (!generated.ok) throw new Error(JSON.stringify(generated.problems));
  return generated;
};
const providersOf = (config: Record<string, unknown>, api: string) => (config.providers as Record<string, Array<Record<string, unknown>>>)[api] ?? [];

describe('secret env vars (upstream config generation: Secret references as env vars)', () => {
  it('normalises ids as upstream: runs of other characters one _, trimmed, a leading digit prefixed', () => {
    expect(normEnv('my-vllm')).toBe('MY_VLLM');
    expect(normEnv('a__b')).toBe('A_B');
    expect(normEnv('-x-')).toBe('X');
    expect(normEnv('1st')).toBe('_1ST');
    expect(normEnv('---')).toBe('_');
    expect(normEnv('vllm.é.prod')).toBe('VLLM_PROD');
  });

  it('custom secretRefs keys stay config keys verbatim; env vars are sorted by name with each once', () => {
    const { config } = generate(`  distribution: {name: starter}
  providers:
    inference:
      remote:
        vllm:
        - {id: b-vllm, endpoint: http://b/v1, apiToken: {name: vault-secret, key: b}}
        custom:
        - id: a.custom
          type: remote::openai
          secretRefs: {api_key: {name: vault-secret, key: a}}
          settings: {base_url: http://a/v1}
`);
    expect(config.env.map((e) => [e.name, e.secretName, e.key])).toEqual([
      ['OGX_A_CUSTOM_API_KEY', 'vault-secret', 'a'],
      ['OGX_B_VLLM_API_TOKEN', 'vault-secret', 'b'],
    ]);
    expect(providersOf(config.value, 'inference')[1]).toEqual({
      config: { api_key: '${env.OGX_A_CUSTOM_API_KEY}', base_url: 'http://a/v1' },
      provider_id: 'a.custom',
      provider_type: 'remote::openai',
    });
    expect(config.text).not.toContain('vault-secret');
  });

  it('two references that normalise to one env var name but name different secrets are an error at the later one', () => {
    const generated = generateOgxConfig(ogxPlan(`  distribution: {name: starter}
  providers:
    inference:
      remote:
        vllm:
        - {id: my-vllm, endpoint: http://a/v1, apiToken: {name: s1, key: k}}
        - {id: my.vllm, endpoint: http://b/v1, apiToken: {name: s2, key: k}}
`));
    expect(generated.ok).toBe(false);
    expect(generated.problems.filter(isError)).toEqual([
      {
        path: ['spec', 'providers', 'inference', 'remote', 'vllm', 1, 'apiToken'],
        message: expect.stringContaining('would use the env var OGX_MY_VLLM_API_TOKEN, which already carries "s1/k"'),
      },
    ]);
  });

  it('a key in both secretRefs and settings is an error naming the settings key', () => {
    const generated = generateOgxConfig(ogxPlan(`  distribution: {name: starter}
  providers:
    inference:
      remote:
        custom:
        - type: remote::openai
          secretRefs: {base_url: {name: s, key: k}}
          settings: {base_url: "http://openai.svc/v1"}
`));
    // (Not `api_key`: a literal credential in settings is refused before generation, src/ogx/credentials.ts.)
    expect(generated.ok).toBe(false);
    expect(generated.problems.filter(isError)).toEqual([
      {
        path: ['spec', 'providers', 'inference', 'remote', 'custom', 0, 'settings', 'base_url'],
        message: expect.stringContaining('is also a key of `secretRefs`'),
      },
    ]);
  });
});

describe('models (upstream config generation: models)', () => {
  it('a model without provider gets the byte-order smallest inference id, not the first listed', () => {
    const { config } = generate(`  distribution: {name: starter}
  providers:
    inference:
      remote:
        vllm:
        - {id: zeta, endpoint: http://z/v1}
        - {id: alpha, endpoint: http://a/v1}
  resources:
    models:
    - name: m1
    - {name: m2, provider: zeta, modelType: embedding}
`);
    expect((config.value.registered_resources as { models: unknown[] }).models).toEqual([
      { model_id: 'm1', provider_id: 'alpha', model_type: 'llm' },
      { model_id: 'm2', provider_id: 'zeta', model_type: 'embedding' },
    ]);
    expect(config.modelCount).toBe(2);
  });

  it('B2: context_length and quantization, which OGX ignores, are left out', () => {
    const { config } = generate(`  distribution: {name: starter}
  providers:
    inference:
      remote:
        vllm:
        - {endpoint: http://z/v1}
  resources:
    models:
    - {name: m1, contextLength: 4096, quantization: int8}
`);
    expect((config.value.registered_resources as { models: unknown[] }).models).toEqual([{ model_id: 'm1', provider_id: 'remote-vllm', model_type: 'llm' }]);
  });
});

describe('models listed in the CR replace the models of a base the user wrote (base-models-replaced)', () => {
  const base = {
    version: 2,
    apis: ['inference'],
    providers: { inference: [{ provider_id: 'vllm', provider_type: 'remote::vllm', config: { base_url: 'http://v/v1' } }] },
    registered_resources: {
      models: [
        { model_id: 'nomic', provider_id: 'vllm', model_type: 'embedding', metadata: { embedding_dimension: 768 } },
        { model_id: '${env.EXTRA_MODEL:=}', provider_id: 'vllm', model_type: 'llm' },
      ],
    },
  };
  const withModels = (names: string[]) => {
    // Planned on a distribution, then given the user's base as `spec.baseConfig` would give it.
    const models = `  resources:\n    models: [${names.map((n) => `{name: ${n}}`).join(', ')}]\n`;
    const plan = { ...ogxPlan(`  distribution: {name: starter}\n${models}`, undefined, base), baseSource: 'baseConfig' as const };
    const generated = generateOgxConfig(plan);
    if (!generated.ok) throw new Error(JSON.stringify(generated.problems));
    return generated;
  };

  it('warns at spec.resources.models, naming each base model that is no longer registered (not one whose id comes from the env)', () => {
    const generated = withModels(['llama']);
    expect((generated.config.value.registered_resources as { models: Array<{ model_id: string }> }).models.map((m) => m.model_id)).toEqual(['llama']);
    expect(generated.problems.filter((p) => p.code === 'base-models-replaced')).toEqual([
      expect.objectContaining({
        severity: 'warning',
        path: ['spec', 'resources', 'models'],
        message: expect.stringMatching(/^replaces the models of the base config, so "nomic" is not registered: /),
      }),
    ]);
    expect(generated.config.modelCount).toBe(1);
  });

  it('is quiet when the CR lists the base models too, or lists none (then the base models are registered, and the summary counts them)', () => {
    expect(withModels(['llama', 'nomic']).problems.filter((p) => p.code === 'base-models-replaced')).toEqual([]);
    const plan = { ...ogxPlan('  distribution: {name: starter}\n', undefined, base), baseSource: 'baseConfig' as const };
    const generated = generateOgxConfig(plan);
    if (!generated.ok) throw new Error(JSON.stringify(generated.problems));
    expect(generated.problems.filter((p) => p.code === 'base-models-replaced')).toEqual([]);
    expect(generated.config.modelCount).toBe(2);
  });
});

describe('disabledAPIs and providers (upstream config generation: disabledAPIs, output OGX 1.3.0 ignores or rejects)', () => {
  it('removes the APIs from `apis` in base order and leaves their providers', () => {
    const { config } = generate(`  distribution: {name: starter}
  disabledAPIs: [batches, files]
`);
    const apis = config.value.apis as string[];
    expect(apis).not.toContain('batches');
    expect(apis).not.toContain('files');
    expect(apis).toContain('inference');
    expect(providersOf(config.value, 'batches').length).toBeGreaterThan(0);
  });

  // The operator's main (OPERATOR-MAIN-2026-09.md §2.3): `conversations` is filtered like the others,
  // from a base that lists it (the catalog's OGX starters serve it without listing it).
  it('removes `conversations` from a base that lists it', () => {
    const plan = ogxPlan(`  distribution: {name: starter}
  disabledAPIs: [conversations, files]
`);
    const apis = [...((plan.baseConfig?.apis ?? []) as string[]), 'conversations'];
    const generated = generateOgxConfig({ ...plan, baseConfig: { ...plan.baseConfig, apis } });
    if (!generated.ok) throw new Error(JSON.stringify(generated.problems));
    expect(generated.config.value.apis).toEqual(apis.filter((api) => api !== 'conversations' && api !== 'files'));
    expect(generated.config.value.apis).toContain('inference');
  });

  it('A14: typed inference providers keep the base provider the default embedding model names, with an info result', () => {
    const generated = generateOgxConfig(ogxPlan(typical));
    if (!generated.ok) throw new Error(JSON.stringify(generated.problems));
    const ids = providersOf(generated.config.value, 'inference').map((p) => p.provider_id);
    expect(ids).toEqual(['vllm', 'sentence-transformers']);
    expect(generated.problems).toEqual([
      {
        severity: 'info',
        path: ['spec', 'providers', 'inference'],
        message: expect.stringContaining('keeps the base config\'s inference provider "sentence-transformers"'),
      },
      // A18 (test/unit/vector-defaults.test.ts): the spec's pgvector is the default vector provider.
      { severity: 'info', path: ['spec', 'providers', 'vectorIo', 'remote', 'pgvector', 0], message: expect.stringContaining('default vector_io provider') },
    ]);
  });

  // Every release and setting: test/unit/vector-defaults.test.ts.
  it('A18: the base\'s `vector_stores.default_provider_id` (faiss) names the spec\'s first vector_io provider, which replaced it', () => {
    const { value } = generate(typical).config;
    expect((value.vector_stores as Record<string, unknown>).default_provider_id).toBe('remote-pgvector');
    expect(providersOf(value, 'vector_io').map((p) => p.provider_id)).toEqual(['remote-pgvector']);
  });

  it('A1, A2, A4–A9: typed responses, batches, localfs and milvus are written with the types and required keys the release reads', () => {
    const { config } = generate(`  distribution: {name: starter}
  providers:
    responses:
      inline:
        builtin: {}
    batches:
      inline:
        reference: {maxConcurrentBatches: 2}
    files:
      inline:
        localfs: {ttlSecs: 60}
    vectorIo:
      remote:
        milvus:
        - uri: http://milvus:19530
`);
    const [responses] = providersOf(config.value, 'responses');
    expect(responses?.provider_type).toBe('inline::builtin');
    expect(Object.keys(responses?.config as object)).toContain('persistence');
    const [batches] = providersOf(config.value, 'batches');
    expect(batches).toEqual({
      config: { max_concurrent_batches: 2, sqlstore: { backend: 'sql_default', table_name: 'batches' } },
      provider_id: 'inline-reference',
      provider_type: 'inline::reference',
    });
    const [files] = providersOf(config.value, 'files');
    expect(files?.config).toEqual({
      ttl_secs: 60,
      storage_dir: '${env.FILES_STORAGE_DIR:=~/.ogx/distributions/starter/files}',
      metadata_store: { table_name: 'files_metadata', backend: 'sql_default' },
    });
    const [milvus] = providersOf(config.value, 'vector_io');
    expect(milvus?.config).toEqual({ uri: 'http://milvus:19530', token: null, persistence: { namespace: 'vector_io::milvus_remote', backend: 'kv_default' } });
  });

  it('B3: a proxy CA file is written as `cacert`', () => {
    const { config } = generate(`  distribution: {name: starter}
  providers:
    inference:
      remote:
        vllm:
        - endpoint: http://z/v1
          network: {proxy: {url: http://proxy:3128, cacert: /etc/ca.pem}, timeout: {connect: 5}}
`);
    expect(providersOf(config.value, 'inference')[0]?.config).toEqual({
      base_url: 'http://z/v1',
      network: { proxy: { url: 'http://proxy:3128', cacert: '/etc/ca.pem' }, timeout: { connect: 5 } },
    });
  });
});

describe('storage (upstream config generation: storage, output OGX 1.3.0 ignores or rejects)', () => {
  it('`storage: {}` replaces the base storage with sqlite backends and the four stores; S1: prompts in the SQL form the release reads', () => {
    const { config } = generate(`  distribution: {name: starter}
  storage: {}
`);
    expect(config.value.storage).toEqual({
      backends: {
        kv_default: { type: 'kv_sqlite', db_path: '${env.SQLITE_STORE_DIR:=/.ogx}/kvstore.db' },
        sql_default: { type: 'sql_sqlite', db_path: '${env.SQLITE_STORE_DIR:=/.ogx}/sqlstore.db' },
      },
      stores: {
        metadata: { backend: 'kv_default', namespace: 'registry' },
        inference: { backend: 'sql_default', table_name: 'inference_store' },
        conversations: { backend: 'sql_default', table_name: 'openai_conversations' },
        prompts: { backend: 'sql_default', table_name: 'prompts' },
      },
    });
  });

  it('B1: redis gets host and port from the endpoint; its password is not used, with a warning and no env var', () => {
    const generated = generateOgxConfig(ogxPlan(`  distribution: {name: starter}
  storage:
    kv: {type: redis, endpoint: "redis://redis.ai.svc:6380", password: {name: redis, key: password}}
`));
    if (!generated.ok) throw new Error(JSON.stringify(generated.problems));
    expect((generated.config.value.storage as { backends: Record<string, unknown> }).backends.kv_default).toEqual({
      type: 'kv_redis',
      host: 'redis.ai.svc',
      port: 6380,
    });
    expect(generated.config.env).toEqual([]);
    expect(generated.problems).toEqual([
      {
        severity: 'warning',
        code: 'field-has-no-effect',
        path: ['spec', 'storage', 'kv', 'password'],
        message: expect.stringContaining('redis store has no password setting'),
      },
    ]);
    expect(splitRedisEndpoint('redis')).toEqual({ host: 'redis' });
    expect(splitRedisEndpoint('rediss://u:p@r:1/0')).toEqual({ host: 'r', port: 1 });
  });

  it('A11: postgres from a connection string is an error saying what to write instead', () => {
    const generated = generateOgxConfig(ogxPlan(`  distribution: {name: starter}
  storage:
    sql: {type: postgres, connectionString: {name: pg, key: dsn}}
`));
    expect(generated).toEqual({ ok: false, problems: [{ path: ['spec', 'storage', 'sql', 'type'], message: expect.stringContaining('spec.overrideConfig') }] });
  });
});

describe('serialisation (upstream config generation: serialisation and hash)', () => {
  it('is deterministic and orders keys as yaml.v3 does', () => {
    expect(generate(typical).config.text).toBe(generate(typical).config.text);
    expect(generate(typical).config.hash).toMatch(/^[0-9a-f]{64}$/);
    const keys = ['a10', 'a2', 'A', '_x', 'b', 'a'];
    expect([...keys].sort((x, y) => (naturalLess(x, y) ? -1 : naturalLess(y, x) ? 1 : 0))).toEqual(['_x', 'A', 'a', 'a2', 'a10', 'b']);
    expect(Object.keys(sortedDocument({ version: 2, apis: [], distro_name: 'x', registered_resources: { vector_stores: [], models: [] } }))).toEqual([
      'apis',
      'distro_name',
      'registered_resources',
      'version',
    ]);
  });
});

describe('B4', () => {
  it('a file search vectorStoresConfig that the base top-level vector_stores overrides gets a warning at that field', () => {
    const generated = generateOgxConfig(ogxPlan(`  distribution: {name: starter}
  providers:
    toolRuntime:
      inline:
        fileSearch:
        - vectorStoresConfig: {defaultProviderId: faiss}
`));
    if (!generated.ok) throw new Error(JSON.stringify(generated.problems));
    expect(providersOf(generated.config.value, 'tool_runtime')[0]).toMatchObject({
      provider_type: 'inline::file-search',
      config: { vector_stores_config: { default_provider_id: 'faiss' } },
    });
    expect(generated.problems).toEqual([
      {
        severity: 'warning',
        code: 'field-has-no-effect',
        path: ['spec', 'providers', 'toolRuntime', 'inline', 'fileSearch', 0, 'vectorStoresConfig'],
        message: expect.stringContaining('has no effect'),
      },
    ]);
  });
});

describe('provider ids', () => {
  it('the generator derives the same ids, in the same order and at the same paths, as the webhook check (ogxProviderIds)', () => {
    const server = ogxServer(`  distribution: {name: starter}
  providers:
    inference:
      remote:
        watsonx: [{apiKey: {name: s, key: k}}]
        vllm: [{endpoint: http://a/v1}, {id: second, endpoint: http://b/v1}]
        custom: [{type: "remote::x::y"}]
      inline:
        custom: [{id: mine, type: "inline::z"}]
    toolRuntime:
      inline:
        fileSearch: [{}]
      remote:
        braveSearch: [{apiKey: {name: s, key: k}}]
    files:
      inline: {localfs: {}}
      remote: {s3: {bucketName: b}}
    fileProcessors:
      inline: {pypdf: {}, auto: {}}
`);
    const expanded = [...expandOgxProviders(server.spec.providers).providers.values()].flat().map((p) => [p.api, p.entry.provider_id, p.path]);
    expect(expanded).toEqual(ogxProviderIds(server.spec).map((p) => [p.api, p.id, p.path]));
    expect(expanded.map((e) => e[1])).toEqual([
      'remote-vllm',
      'second',
      'remote-watsonx',
      'remote-x-y',
      'mine',
      'remote-brave-search',
      'inline-file-search',
      'remote-s3',
      'inline-localfs',
      'inline-auto',
      'inline-pypdf',
    ]);
  });
});

describe('divergences the release checks report (A12, A13) and numbers as written (A15)', () => {
  /** The release-schema and startup errors for the config generated from `spec`, as src/process.ts checks it. */
  const serverErrors = (spec: string): Array<{ path: string; message: string }> => {
    const plan = ogxPlan(spec);
    const generated = generate(spec);
    const context = {
      release: plan.release,
      catalogRelease: plan.catalogRelease,
      profile: plan.profile,
      containerEnv: new Set(generated.config.env.map((e) => e.name)),
    };
    const { config } = asServerConverts(generated.config.value, plan.release, plan.catalogRelease);
    return [...checkStartupRules(config, context), ...checkReleaseSchema(config, { ...context, source: 'generated' })].filter((p) => p.severity === 'error');
  };

  it('A12: a modelType OGX does not have is an error at that model', () => {
    const errors = serverErrors(`  distribution: {name: starter}
  resources:
    models:
    - name: granite
      modelType: chat
`);
    expect(errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: expect.stringMatching(/^registered_resources\.models\[\d+\]\.model_type$/) })]),
    );
    expect(serverErrors('  distribution: {name: starter}\n  resources:\n    models:\n    - name: granite\n      modelType: rerank\n')).toEqual([]);
  });

  it('A13: a network.port below 1024 is an error at server.port', () => {
    expect(serverErrors('  distribution: {name: starter}\n  network: {port: 80}\n  storage: {}\n')).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: 'server.port' })]),
    );
    expect(serverErrors('  distribution: {name: starter}\n  network: {port: 8080}\n  storage: {}\n')).toEqual([]);
  });

  it('A15: a custom setting of 1000000 is written as 1000000 (PyYAML reads 1e+06 as a string)', () => {
    const { config } = generate(`  distribution: {name: starter}
  providers:
    inference:
      remote:
        custom:
        - id: big
          type: remote::vllm
          settings: {base_url: "http://v:8000/v1", max_tokens: 1000000}
`);
    expect(config.text).toMatch(/^ +max_tokens: 1000000$/m);
    expect(config.text).not.toContain('1e+06');
  });
});

describe('S2', () => {
  // Attacker probe: no value of these fields rendered (quoted: the schema check wanted a number).
  it('decimal strings of temperature, rrf_impact_factor and weighted_search_alpha are written as numbers, and pass the release checks', () => {
    const spec = `  distribution: {name: starter}
  providers:
    toolRuntime:
      inline:
        fileSearch:
        - vectorStoresConfig:
            rewriteQueryParams: {prompt: "Rewrite {query}", temperature: "0.3"}
            chunkRetrievalParams: {rrfImpactFactor: "60.0", weightedSearchAlpha: ".5"}
`;
    const { config } = generate(spec);
    const vsc = (providersOf(config.value, 'tool_runtime')[0]?.config as { vector_stores_config: Record<string, Record<string, unknown>> })
      .vector_stores_config;
    expect(vsc.rewrite_query_params?.temperature).toBe(0.3);
    expect(vsc.chunk_retrieval_params).toMatchObject({ rrf_impact_factor: 60, weighted_search_alpha: 0.5 });
    const plan = ogxPlan(spec);
    const context = { release: plan.release, catalogRelease: plan.catalogRelease, profile: plan.profile, containerEnv: new Set<string>() };
    const { config: served } = asServerConverts(config.value, plan.release, plan.catalogRelease);
    expect(checkReleaseSchema(served, { ...context, source: 'generated' }).filter((p) => p.severity === 'error')).toEqual([]);
  });
});

describe('S3', () => {
  // Property tests: doOcr on OGX 1.0.0 was an error ("the server silently ignores it").
  it('a typed field the release\'s provider does not read is left out with a warning at the provider', () => {
    const spec = '  distribution: {name: starter}\n  providers:\n    fileProcessors:\n      inline:\n        docling: {doOcr: true}\n';
    const releases = ogxServerReleases().filter((r) => {
      const generated = generateOgxConfig(ogxPlan(spec, r));
      return generated.ok && generated.problems.some((p) => p.message.includes('does not read'));
    });
    expect(releases.length).toBeGreaterThan(0);
    const release = releases[0] as string;
    const generated = generate(spec, release);
    expect(JSON.stringify(providersOf(generated.config.value, 'file_processors'))).not.toContain('do_ocr');
    expect(generated.problems).toEqual(
      expect.arrayContaining([
        {
          severity: 'warning',
          code: 'provider-setting-not-read',
          path: ['spec', 'providers', 'fileProcessors', 'inline', 'docling'],
          message: expect.stringMatching(/^sets `do_ocr`, which inline::docling of OGX [\d.]+ does not read, so it is left out of config\.yaml/),
        },
      ]),
    );
  });
});

describe('A17', () => {
  const withCommand = (command: string) => `  distribution: {name: starter}
  storage: {}
  workload:
    overrides:
      command: ${command}
`;
  for (const release of ogxServerReleases()) {
    it(`${release}: \`overrides.command\` gets \`server.insecure: true\` where the release refuses to start without TLS (1.2+), and nothing before`, () => {
      const plan = ogxPlan(withCommand('[ogx, stack, run, /etc/ogx/config.yaml]'), release);
      const generated = generateOgxConfig(plan);
      if (!generated.ok) throw new Error(JSON.stringify(generated.problems));
      const server = generated.config.value.server as Record<string, unknown>;
      const info = generated.problems.filter((p) => p.path.join('.') === 'spec.workload.overrides.command');
      // OGX 1.2 made TLS strict (server catalog changes.md 1.1.3 → 1.2.2); the stock entrypoint passes `--insecure` from then on.
      if (plan.profile.strictTls) {
        expect(server.insecure).toBe(true);
        expect(info).toEqual([
          expect.objectContaining({ severity: 'info', message: expect.stringContaining('the generated config.yaml sets `server.insecure: true`') }),
        ]);
        const containerEnv = new Set(generated.config.env.map((e) => e.name));
        const context = { release, catalogRelease: plan.catalogRelease, profile: plan.profile, containerEnv };
        const { config } = asServerConverts(generated.config.value, release, plan.catalogRelease);
        expect(checkReleaseSchema(config, { ...context, source: 'generated' }).filter((p) => p.severity === 'error')).toEqual([]);
      } else {
        expect(server.insecure).toBeUndefined();
        expect(info).toEqual([]);
      }
      // A command that passes `--insecure` itself: nothing added.
      const own = generateOgxConfig(ogxPlan(withCommand('[ogx, stack, run, --insecure, /etc/ogx/config.yaml]'), release));
      if (!own.ok) throw new Error(JSON.stringify(own.problems));
      expect((own.config.value.server as Record<string, unknown>).insecure).toBeUndefined();
    });
  }
  it('strict TLS is 1.2.2 and 1.3.0 of the catalog', () => {
    expect(ogxServerReleases().filter((r) => ogxPlan('  distribution: {name: starter}\n  storage: {}\n', r).profile.strictTls)).toEqual(['1.2.2', '1.3.0']);
  });
});
