import { describe, expect, it } from 'vitest';
import { distributions } from '../../src/catalog/catalog.js';
import { shippedConfigText } from '../support.js';
import { checkStartupRules, type StartupProblem, type StartupRuleId } from '../../src/core/startup/index.js';
import { asPodEnv } from '../../src/core/pod-env.js';
import { releaseSupport } from '../../src/catalog/versions.js';
import { formatFieldPath } from '../../src/krm/item.js';
import { parseYaml11 } from '../../src/krm/yaml.js';

type Config = Record<string, any>;

const parse = (text: string): Config => {
  const parsed = parseYaml11(text);
  if (parsed.problem) throw new Error(parsed.problem.message);
  return parsed.value as Config;
};

/** The rules with the container setting `env` and no other variable, or (`open`) any other possibly set too (an envFrom the render cannot read). */
function check(config: Config, release: string, env: readonly string[] = [], open = false): StartupProblem[] {
  const support = releaseSupport(release);
  if (!support) throw new Error(`llsd-render does not support ${release}`);
  return checkStartupRules(config, { release, ...support, containerEnv: asPodEnv(new Set(env), open ? ['ConfigMap extra-env'] : []) });
}
const checkOpen = (config: Config, release: string, env: readonly string[] = []): StartupProblem[] => check(config, release, env, true);

const errors = (problems: StartupProblem[]) => problems.filter((p) => p.severity === 'error');

/** The one problem of `rule` (fails when there is none or more than one). */
function only(problems: StartupProblem[], rule: StartupRuleId): StartupProblem {
  const found = problems.filter((p) => p.rule === rule);
  expect(found, JSON.stringify(problems, null, 2)).toHaveLength(1);
  return found[0] as StartupProblem;
}

// 0.3.0+ layout: the smallest config that serves responses (inference, vector_io, tool_runtime, files).
const NEW_LAYOUT = `
version: 2
distro_name: test
providers:
  inference:
  - provider_id: vllm
    provider_type: remote::vllm
    config:
      base_url: http://vllm:8000/v1
      api_token: \${env.VLLM_API_TOKEN:=fake}
  - provider_id: sentence-transformers
    provider_type: inline::sentence-transformers
  vector_io:
  - provider_id: faiss
    provider_type: inline::faiss
    config:
      persistence: {namespace: vector_io::faiss, backend: kv_default}
  files:
  - provider_id: localfs
    provider_type: inline::localfs
    config:
      storage_dir: /.llama/files
      metadata_store: {table_name: files_metadata, backend: sql_default}
  responses:
  - provider_id: builtin
    provider_type: inline::builtin
    config:
      persistence:
        agent_state: {namespace: agents, backend: kv_default}
        responses: {table_name: responses, backend: sql_default}
  tool_runtime:
  - provider_id: file-search
    provider_type: inline::file-search
  safety:
  - provider_id: llama-guard
    provider_type: inline::llama-guard
storage:
  backends:
    kv_default: {type: kv_sqlite, db_path: "\${env.SQLITE_STORE_DIR:=~/.llama/distributions/test}/kvstore.db"}
    sql_default: {type: sql_sqlite, db_path: "\${env.SQLITE_STORE_DIR:=~/.llama/distributions/test}/sql_store.db"}
  stores:
    metadata: {namespace: registry, backend: kv_default}
    inference: {table_name: inference_store, backend: sql_default}
    conversations: {table_name: openai_conversations, backend: sql_default}
    prompts: {namespace: prompts, backend: kv_default}
    connectors: {namespace: connectors, backend: kv_default}
registered_resources:
  models:
  - {model_id: llama, provider_id: vllm, model_type: llm}
  - {model_id: nomic, provider_id: sentence-transformers, model_type: embedding, metadata: {embedding_dimension: 768}}
  shields:
  - {shield_id: guard, provider_id: llama-guard}
vector_stores:
  default_provider_id: faiss
  default_embedding_model: {provider_id: sentence-transformers, model_id: nomic}
safety:
  default_shield_id: guard
server:
  port: 8321
`;

// ≤ 0.2 layout (remote-vllm-like).
const OLD_LAYOUT = `
version: 2
image_name: test
providers:
  inference:
  - provider_id: vllm
    provider_type: remote::vllm
    config: {url: "http://vllm:8000/v1", api_token: fake}
  vector_io:
  - provider_id: faiss
    provider_type: inline::faiss
    config:
      kvstore: {type: sqlite, db_path: /.llama/faiss.db}
  safety:
  - provider_id: llama-guard
    provider_type: inline::llama-guard
  agents:
  - provider_id: meta-reference
    provider_type: inline::meta-reference
    config:
      persistence_store: {type: sqlite, db_path: /.llama/agents.db}
      responses_store: {type: sqlite, db_path: /.llama/responses.db}
  tool_runtime:
  - provider_id: rag-runtime
    provider_type: inline::rag-runtime
metadata_store: {type: sqlite, db_path: /.llama/registry.db}
inference_store: {type: sqlite, db_path: /.llama/inference.db}
models:
- {model_id: llama, provider_id: vllm, model_type: llm}
shields: []
tool_groups:
- {toolgroup_id: builtin::rag, provider_id: rag-runtime}
server:
  port: 8321
`;

const newLayout = (): Config => parse(NEW_LAYOUT);
const oldLayout = (): Config => parse(OLD_LAYOUT);
/** The 0.3.x/0.4.x variant of the new layout: image_name, agents instead of responses. */
function layout04(): Config {
  const config = newLayout();
  config.image_name = config.distro_name;
  delete config.distro_name;
  config.providers.agents = config.providers.responses;
  config.providers.agents[0].provider_type = 'inline::meta-reference';
  delete config.providers.responses;
  config.providers.tool_runtime[0] = { provider_id: 'rag-runtime', provider_type: 'inline::rag-runtime' };
  delete config.vector_stores;
  delete config.storage.stores.connectors; // from 0.5.0
  return config;
}
describe('the base configs of each layout pass', () => {
  it.each([
    ['0.7.1', newLayout],
    ['0.8.0', newLayout],
    ['0.4.4', layout04],
    ['0.2.14', oldLayout],
  ] as const)('%s', (release, make) => {
    const config = make();
    if (release === '0.8.0') {
      // ~/.ogx is the 0.8.0 image's state directory.
      for (const backend of Object.values(config.storage.backends) as Config[]) backend.db_path = backend.db_path.replace('.llama', '.ogx');
    }
    expect(check(config, release)).toEqual([]);
  });
});

describe('config-shape: providers and the distribution name', () => {
  it('providers is required', () => {
    const config = newLayout();
    delete config.providers;
    expect(only(check(config, '0.7.1'), 'config-shape')).toMatchObject({
      severity: 'error',
      path: 'providers',
      message: expect.stringContaining('is missing'),
    });
  });
  it('distro_name (0.5.0+), or the deprecated image_name with a warning', () => {
    const config = newLayout();
    delete config.distro_name;
    expect(only(check(config, '0.7.1'), 'config-shape')).toMatchObject({ severity: 'error', path: 'distro_name' });
    config.image_name = 'test';
    expect(only(check(config, '0.7.1'), 'config-shape')).toMatchObject({
      severity: 'warning',
      path: 'image_name',
      message: expect.stringContaining('deprecated'),
    });
  });
  it('image_name before 0.5.0; distro_name is not read there', () => {
    const config = layout04();
    config.distro_name = config.image_name;
    delete config.image_name;
    expect(only(check(config, '0.4.4'), 'config-shape')).toMatchObject({
      severity: 'error',
      path: 'image_name',
      message: expect.stringContaining('`distro_name` is read from 0.5.0 on'),
    });
  });
});

describe('api-names: API names', () => {
  it('a renamed API names its new name', () => {
    const config = newLayout();
    config.providers.agents = config.providers.responses;
    delete config.providers.responses;
    const problems = check(config, '0.7.1');
    expect(problems.filter((p) => p.rule === 'api-names')).toEqual([
      { severity: 'error', path: 'providers.agents', rule: 'api-names', message: expect.stringContaining('is called `responses` in llama-stack 0.7.1') },
    ]);
  });
  it('routing tables take no providers', () => {
    const config = newLayout();
    config.providers.models = [{ provider_id: 'x', provider_type: 'inline::x' }];
    expect(only(check(config, '0.7.1'), 'api-names')).toMatchObject({
      severity: 'error',
      path: 'providers.models',
      message: expect.stringContaining('cannot take providers'),
    });
  });
  it('an API the release does not have, in providers or apis', () => {
    const config = newLayout();
    config.apis = ['inference', 'vector_io', 'files', 'responses', 'tool_runtime', 'safety', 'telemetry'];
    expect(only(check(config, '0.7.1'), 'api-names')).toMatchObject({
      severity: 'error',
      path: 'apis[6]',
      message: expect.stringContaining('(the telemetry API was last in llama-stack 0.2.14; 0.3.x reads a top-level `telemetry: {enabled}`'),
    });
    const eval08 = newLayout();
    eval08.providers.eval = [{ provider_id: 'builtin', provider_type: 'inline::builtin', config: { kvstore: { namespace: 'eval', backend: 'kv_default' } } }];
    const ogx = (eval08.storage.backends as Config).kv_default;
    ogx.db_path = '/.ogx/kv.db';
    (eval08.storage.backends as Config).sql_default.db_path = '/.ogx/sql.db';
    expect(only(check(eval08, '0.8.0'), 'api-names')).toMatchObject({
      severity: 'error',
      path: 'providers.eval',
      message: expect.stringContaining('(the eval API was last in llama-stack 0.7.1)'),
    });
  });
});

describe('provider-types: the provider type exists for the API in the release', () => {
  it('a type renamed in 0.7.0', () => {
    const config = newLayout();
    config.providers.tool_runtime[0].provider_type = 'inline::rag-runtime';
    expect(only(check(config, '0.7.1'), 'provider-types')).toMatchObject({
      severity: 'error',
      path: 'providers.tool_runtime[0].provider_type',
      message: expect.stringMatching(
        /not available for the tool_runtime API in llama-stack 0\.7\.1.*; it was last in llama-stack 0\.4\.4; renamed `inline::file-search`/,
      ),
    });
  });
  it('the new name on a release before the rename', () => {
    const config = layout04();
    config.providers.tool_runtime[0] = { provider_id: 'file-search', provider_type: 'inline::file-search' };
    expect(only(check(config, '0.4.4'), 'provider-types')).toMatchObject({
      severity: 'error',
      message: expect.stringContaining('called `inline::rag-runtime` before 0.7.0'),
    });
  });
  it('a typo gets a suggestion; a provider switched by an env var gets a warning', () => {
    const config = newLayout();
    config.providers.inference.push({ provider_id: '${env.OLLAMA_URL:+ollama}', provider_type: 'remote::olama', config: {} });
    // Off in a pod without OLLAMA_URL: the server never looks it up.
    expect(check(config, '0.7.1').filter((p) => p.rule === 'provider-types')).toEqual([]);
    expect(only(check(config, '0.7.1', ['OLLAMA_URL']), 'provider-types').severity).toBe('error');
    expect(only(checkOpen(config, '0.7.1'), 'provider-types')).toMatchObject({
      severity: 'warning',
      path: 'providers.inference[2].provider_type',
      message: expect.stringContaining('Did you mean `remote::ollama`?'),
    });
    config.providers.inference[2].provider_id = 'ollama';
    expect(only(check(config, '0.7.1'), 'provider-types').severity).toBe('error');
  });
  it('a disabled provider is not looked up', () => {
    const config = newLayout();
    config.providers.inference.push({ provider_id: null, provider_type: 'remote::nope' });
    expect(check(config, '0.7.1')).toEqual([]);
  });
  it('a type that arrives in a later release: an error naming the first release that has it', () => {
    const config = layout04();
    config.providers.vector_io.push({ provider_id: 'es', provider_type: 'remote::elasticsearch', config: {} });
    expect(only(check(config, '0.4.4'), 'provider-types')).toMatchObject({
      severity: 'error',
      path: 'providers.vector_io[1].provider_type',
      message: expect.stringContaining('is not available for the vector_io API in llama-stack 0.4.4, so the server stops at startup'),
    });
    expect(only(check(config, '0.4.4'), 'provider-types').message).toContain('; it arrives in 0.7.1.');
  });
  it('the registry of the catalog release is exact: 0.2.14 has inline::torchtune, not inline::torchtune-cpu', () => {
    const config = oldLayout();
    config.providers.post_training = [{ provider_id: 'torchtune', provider_type: 'inline::torchtune-cpu', config: {} }];
    expect(only(check(config, '0.2.14'), 'provider-types')).toMatchObject({
      severity: 'error',
      message: expect.stringContaining(
        'it arrives in 0.4.4. Did you mean `inline::torchtune`? post_training providers: inline::huggingface, inline::torchtune',
      ),
    });
    config.providers.post_training[0].provider_type = 'inline::torchtune';
    expect(check(config, '0.2.14').filter((p) => p.rule === 'provider-types')).toEqual([]);
  });
  it("a deprecated type gets the release's own deprecation message", () => {
    const config = newLayout();
    config.providers.vector_io[0].provider_type = 'inline::sqlite_vec';
    config.providers.vector_io[0].config = { db_path: '/.llama/v.db', persistence: { namespace: 'v', backend: 'kv_default' } };
    expect(only(check(config, '0.7.1'), 'provider-types')).toMatchObject({
      severity: 'warning',
      path: 'providers.vector_io[0].provider_type',
      message:
        'inline::sqlite_vec is deprecated in llama-stack 0.7.1: ' +
        '"Please use the `inline::sqlite-vec` provider (notice the hyphen instead of underscore) instead."',
    });
  });
  const once = 'a type the release registers is accepted even where llsd-render once refused it by name';
  it(`${once} (0.7.1 vector_io inline::builtin: its deprecation warning)`, () => {
    const config = newLayout();
    config.providers.vector_io[0].provider_type = 'inline::builtin';
    expect(only(check(config, '0.7.1'), 'provider-types')).toMatchObject({
      severity: 'warning',
      message: 'inline::builtin is deprecated in llama-stack 0.7.1: "Please use the `inline::faiss` provider instead."',
    });
    expect(errors(check(config, '0.7.1'))).toEqual([]);
  });
  it('remote::databricks and remote::runpod cannot start in 0.2.14 itself (release notes)', () => {
    for (const type of ['remote::databricks', 'remote::runpod']) {
      const config = oldLayout();
      config.providers.inference.push({ provider_id: 'other', provider_type: type, config: { url: 'https://x.example/v1', api_token: 'x' } });
      expect(only(check(config, '0.2.14'), 'provider-types')).toMatchObject({
        severity: 'error',
        path: 'providers.inference[1].provider_type',
        message: expect.stringContaining(`${type} cannot start in llama-stack 0.2.14: its adapter fails at startup in llama-stack 0.2.14 itself`),
      });
      const later = newLayout();
      later.providers.inference.push({ provider_id: 'other', provider_type: type, config: { base_url: 'https://x.example/v1', api_token: 'x' } });
      expect(check(later, '0.7.1').filter((p) => p.rule === 'provider-types')).toEqual([]);
    }
  });
  it('inline::qdrant cannot start in 0.2.14 (its module has no get_provider_impl), whatever its config; remote::qdrant and later releases can', () => {
    const config = oldLayout();
    config.providers.vector_io.push({ provider_id: 'qdrant', provider_type: 'inline::qdrant', config: { path: '/.llama/qdrant.db' } });
    expect(only(check(config, '0.2.14'), 'provider-types')).toMatchObject({
      severity: 'error',
      path: 'providers.vector_io[1].provider_type',
      message: expect.stringContaining(
        'inline::qdrant cannot start in llama-stack 0.2.14: its module (llama_stack.providers.inline.vector_io.qdrant) has no get_provider_impl',
      ),
    });
    const remote = oldLayout();
    remote.providers.vector_io.push({ provider_id: 'qdrant', provider_type: 'remote::qdrant', config: { url: 'http://qdrant:6333' } });
    expect(check(remote, '0.2.14').filter((p) => p.rule === 'provider-types')).toEqual([]);
    const later = newLayout();
    later.providers.vector_io.push({
      provider_id: 'qdrant', provider_type: 'inline::qdrant', config: { path: '/.llama/qdrant.db', persistence: { namespace: 'q', backend: 'kv_default' } },
    });
    expect(check(later, '0.7.1').filter((p) => p.rule === 'provider-types')).toEqual([]);
  });
});

describe('provider-ids: provider ids', () => {
  it('unique within an API, a conditional id counting by its id', () => {
    const config = newLayout();
    config.providers.inference.push({ provider_id: '${env.VLLM2_URL:+vllm}', provider_type: 'remote::vllm', config: { base_url: '${env.VLLM2_URL:=}' } });
    expect(check(config, '0.7.1').filter((p) => p.rule === 'provider-ids')).toEqual([]);
    expect(only(checkOpen(config, '0.7.1'), 'provider-ids')).toMatchObject({
      severity: 'error',
      path: 'providers.inference[2].provider_id',
      message: expect.stringContaining('repeats the inference provider id "vllm" of `providers.inference[0]`'),
    });
  });
  it('the key is required', () => {
    const config = newLayout();
    delete config.providers.safety[0].provider_id;
    const problem = check(config, '0.7.1').find((p) => p.rule === 'provider-ids');
    expect(problem).toMatchObject({ severity: 'error', path: 'providers.safety[0].provider_id', message: expect.stringContaining('is missing') });
  });
});

describe('single-provider-apis: APIs without a routing table take one provider', () => {
  it('two enabled files providers', () => {
    const config = newLayout();
    config.providers.files.push({ ...config.providers.files[0], provider_id: 'other' });
    expect(only(check(config, '0.7.1'), 'single-provider-apis')).toMatchObject({
      severity: 'error',
      path: 'providers.files[1]',
      message: expect.stringContaining('the last one silently wins'),
    });
  });
  it('two that are enabled by env vars: a warning', () => {
    const config = newLayout();
    const files = config.providers.files[0];
    config.providers.files = [
      { ...files, provider_id: '${env.FILES_A:+a}' },
      { ...files, provider_id: '${env.FILES_B:+b}' },
    ];
    expect(only(check(config, '0.7.1', ['FILES_A', 'FILES_B']), 'single-provider-apis').severity).toBe('error');
    const problem = only(checkOpen(config, '0.7.1'), 'single-provider-apis');
    expect(problem).toMatchObject({ severity: 'warning', path: 'providers.files', message: expect.stringContaining('FILES_A and FILES_B are set') });
  });
});

describe('apis-list: apis and providers agree', () => {
  it('a listed API without a routing table needs a provider', () => {
    const config = newLayout();
    config.apis = ['inference', 'vector_io', 'files', 'responses', 'tool_runtime', 'safety', 'batches'];
    expect(only(check(config, '0.7.1'), 'apis-list')).toMatchObject({
      severity: 'error',
      path: 'apis[6]',
      message: expect.stringContaining('batches, which has no enabled provider'),
    });
  });
  it('an API with providers that apis leaves out is not served', () => {
    const config = newLayout();
    config.apis = ['inference', 'vector_io', 'files', 'responses', 'tool_runtime'];
    expect(only(check(config, '0.7.1'), 'apis-list')).toMatchObject({
      severity: 'warning',
      path: 'providers.safety',
      message: expect.stringContaining('does not list safety'),
    });
  });
});

describe('api-dependencies: API dependencies', () => {
  it('responses needs a files provider', () => {
    const config = newLayout();
    delete config.providers.files;
    const problems = check(config, '0.7.1').filter((p) => p.rule === 'api-dependencies');
    expect(problems.map((p) => [p.severity, p.path])).toEqual([
      ['error', 'providers.responses[0]'],
      ['error', 'providers.tool_runtime[0]'],
    ]);
    expect(problems[0]?.message).toContain(
      `inline::builtin needs the files API, and no files provider is enabled: the server stops at startup ("required dependency 'files' is not available")`,
    );
  });
  it('a files provider switched by an env var: a warning', () => {
    const config = newLayout();
    config.providers.files[0].provider_id = '${env.ENABLE_FILES:+localfs}';
    // Without the variable, the pod has no files provider: a required dependency unmet stops the server.
    expect(check(config, '0.7.1').filter((p) => p.rule === 'api-dependencies').map((p) => [p.severity, p.message])).toEqual([
      ['error', expect.stringContaining('inline::builtin needs the files API, and no files provider is enabled: the server stops at startup')],
      ['error', expect.stringContaining('inline::file-search needs the files API, and no files provider is enabled: the server stops at startup')],
    ]);
    const problems = checkOpen(config, '0.7.1').filter((p) => p.rule === 'api-dependencies');
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatchObject({
      severity: 'warning',
      path: 'providers.responses[0]',
      message: expect.stringContaining('enabled only when ENABLE_FILES is set'),
    });
    // ... and none when the container sets the variable.
    expect(check(config, '0.7.1', ['ENABLE_FILES'])).toEqual([]);
  });
  it('a routed API is met by its router, which apis must list when set', () => {
    const config = newLayout();
    config.apis = ['vector_io', 'files', 'responses', 'tool_runtime', 'safety'];
    const problems = check(config, '0.7.1').filter((p) => p.rule === 'api-dependencies');
    expect(problems.map((p) => p.path)).toEqual(['providers.vector_io[0]', 'providers.responses[0]', 'providers.tool_runtime[0]', 'providers.safety[0]']);
    expect(problems[0]).toMatchObject({
      severity: 'error',
      message: expect.stringContaining('`apis` does not list inference, so the server builds no inference router'),
    });
  });
  it("the 0.4.4 agents provider needs files (its registry entry's dependencies); 0.2.14's needs safety", () => {
    const config = layout04();
    delete config.providers.files;
    expect(check(config, '0.4.4').filter((p) => p.rule === 'api-dependencies')).toEqual([
      expect.objectContaining({
        severity: 'error',
        path: 'providers.tool_runtime[0]',
        message: expect.stringContaining('inline::rag-runtime needs the files API'),
      }),
      {
        severity: 'error',
        rule: 'api-dependencies',
        path: 'providers.agents[0]',
        message:
          'inline::meta-reference needs the files API, and no files provider is enabled: ' +
          "the server stops at startup (\"required dependency 'files' is not available\"); add a files provider",
      },
    ]);
    const old = oldLayout();
    old.apis = ['inference', 'vector_io', 'agents', 'tool_runtime'];
    expect(check(old, '0.2.14').filter((p) => p.rule === 'api-dependencies')).toEqual([
      expect.objectContaining({
        severity: 'error',
        path: 'providers.agents[0]',
        message: expect.stringContaining('needs the safety API, but `apis` does not list safety'),
      }),
    ]);
  });
});

describe('provider-settings: provider config keys', () => {
  it('url where 0.4.0+ reads base_url', () => {
    const config = newLayout();
    config.providers.inference[0].config = { url: 'http://vllm:8000/v1' };
    const problems = check(config, '0.7.1').filter((p) => p.rule === 'provider-settings');
    expect(problems).toEqual([
      {
        severity: 'error',
        rule: 'provider-settings',
        path: 'providers.inference[0].config.url',
        message: expect.stringContaining('its URL key is `base_url` (the full URL including /v1)'),
        ignoredKey: true,
      },
      {
        severity: 'error',
        rule: 'provider-settings',
        path: 'providers.inference[0].config.base_url',
        message: expect.stringContaining('remote::vllm has no default URL'),
      },
    ]);
  });
  it('base_url where 0.2.14 reads url', () => {
    const config = oldLayout();
    config.providers.inference[0].config = { base_url: 'http://vllm:8000/v1' };
    const problems = check(config, '0.2.14').filter((p) => p.rule === 'provider-settings');
    expect(problems.map((p) => [p.severity, p.path])).toEqual([
      ['error', 'providers.inference[0].config.base_url'],
      ['error', 'providers.inference[0].config.url'],
    ]);
    expect(problems[0]?.message).toContain('its URL key is `url`');
  });
  it('api_key where vLLM reads api_token', () => {
    const config = newLayout();
    config.providers.inference[0].config = { base_url: 'http://vllm:8000/v1', api_key: 'x' };
    expect(only(check(config, '0.7.1'), 'provider-settings')).toMatchObject({
      severity: 'error',
      path: 'providers.inference[0].config.api_key',
      message: expect.stringContaining('its credential key is `api_token`'),
    });
  });
  it('base_url is an absolute http(s) URL, with /v1', () => {
    const config = newLayout();
    config.providers.inference[0].config.base_url = 'vllm:8000/v1';
    expect(only(check(config, '0.7.1'), 'provider-settings')).toMatchObject({
      severity: 'error',
      message: expect.stringContaining('not an absolute http(s) URL'),
    });
    config.providers.inference[0].config.base_url = '${env.VLLM_URL:=http://vllm:8000}';
    expect(only(check(config, '0.7.1'), 'provider-settings')).toMatchObject({
      severity: 'warning',
      message: expect.stringContaining('write "http://vllm:8000/v1"'),
    });
  });
  it("vLLM's URL empty unless a variable is set", () => {
    const config = newLayout();
    config.providers.inference[0].config.base_url = '${env.VLLM_URL:=}';
    expect(only(check(config, '0.7.1'), 'provider-settings')).toMatchObject({
      severity: 'error',
      message: expect.stringContaining('set VLLM_URL in `spec.workload.overrides.env` (name: VLLM_URL, value: …)'),
    });
    expect(check(config, '0.7.1', ['VLLM_URL'])).toEqual([]);
    // Switched on by the same variable: fine (the starter's pattern).
    config.providers.inference[0].provider_id = '${env.VLLM_URL:+vllm}';
    config.registered_resources.models[0].provider_id = '${env.VLLM_URL:+vllm}';
    expect(check(config, '0.7.1')).toEqual([]);
  });
  it('a pgvector provider without persistence stops 0.4.4 to OGX 1.3.0 at startup (release notes)', () => {
    const config = newLayout();
    config.providers.vector_io.push({ provider_id: 'pgvector', provider_type: 'remote::pgvector', config: { host: 'pg', db: 'v', user: 'u', password: 'p' } });
    for (const release of ['0.4.4', '0.7.1', '0.8.0', '1.0.0', '1.1.3', '1.2.2', '1.3.0']) {
      const layout = release === '0.4.4' ? layout04() : config;
      if (release === '0.4.4') layout.providers.vector_io.push(structuredClone(config.providers.vector_io[1]));
      expect(only(check(layout, release), 'provider-settings'), release).toMatchObject({
        severity: 'error',
        path: 'providers.vector_io[1].config.persistence',
        message: expect.stringContaining(
          `remote::pgvector in ${['0.4.4', '0.7.1'].includes(release) ? 'llama-stack' : 'OGX'} ${release} needs it although its schema makes it optional: ` +
            `the pgvector provider reads persistence.backend at startup and the server stops with "'NoneType' object has no attribute 'backend'"`,
        ),
      });
    }
    config.providers.vector_io[1].config.persistence = { namespace: 'vector_io::pgvector', backend: 'kv_default' };
    expect(check(config, '0.7.1').filter((p) => p.rule === 'provider-settings')).toEqual([]);
  });
  it('deprecated vLLM tls_verify (0.5.0+)', () => {
    const config = newLayout();
    config.providers.inference[0].config.tls_verify = false;
    expect(only(check(config, '0.7.1'), 'provider-settings')).toMatchObject({
      severity: 'warning',
      path: 'providers.inference[0].config.tls_verify',
      message: expect.stringContaining('write `network: {tls: {verify: …}}`'),
    });
    expect(check(layout04(), '0.4.4')).toEqual([]);
  });
  it('vLLM tls_verify beside network.tls changes nothing (the server copies it only while network.tls is unset): said so, not "deprecated"', () => {
    // starter's base sets network.tls.verify: an LLSD's `tls_verify: false` left TLS verified.
    const config = newLayout();
    config.providers.inference[0].config.tls_verify = false;
    config.providers.inference[0].config.network = { tls: { verify: '${env.VLLM_TLS_VERIFY:=true}' } };
    expect(only(check(config, '0.7.1'), 'provider-settings')).toMatchObject({
      severity: 'warning',
      code: 'ignored-by-release',
      path: 'providers.inference[0].config.tls_verify',
      message: expect.stringMatching(/^has no effect in llama-stack 0\.7\.1: `network\.tls` is set in this provider's config, and the server then ignores/),
    });
    // `network` without `tls`: the server still copies tls_verify there.
    config.providers.inference[0].config.network = { timeout: 30 };
    expect(only(check(config, '0.7.1'), 'provider-settings')).toMatchObject({ code: 'deprecated' });
  });
});

describe('storage: storage', () => {
  it('a store names a backend that does not exist, or one of the wrong family', () => {
    const config = newLayout();
    config.storage.stores.metadata.backend = 'kv_main';
    config.storage.stores.inference.backend = 'kv_default';
    const problems = check(config, '0.7.1').filter((p) => p.rule === 'storage');
    expect(problems).toEqual([
      {
        severity: 'error',
        rule: 'storage',
        path: 'storage.stores.metadata.backend',
        message: expect.stringContaining('names the backend `kv_main`, which storage.backends does not define'),
      },
      {
        severity: 'error',
        rule: 'storage',
        path: 'storage.stores.inference.backend',
        message: 'names `kv_default`, a kv_* backend, but the inference store needs a sql_* backend',
      },
    ]);
  });
  it('0.4.0+: an omitted store defaults to kv_default / sql_default', () => {
    const config = newLayout();
    config.storage.backends = { kv_main: config.storage.backends.kv_default, sql_main: config.storage.backends.sql_default };
    config.storage.stores = {
      metadata: { namespace: 'registry', backend: 'kv_main' },
      inference: { table_name: 'inference_store', backend: 'sql_main' },
      conversations: { table_name: 'conversations', backend: 'sql_main' },
    };
    for (const p of [config.providers.vector_io[0].config.persistence, config.providers.responses[0].config.persistence.agent_state]) p.backend = 'kv_main';
    for (const p of [config.providers.files[0].config.metadata_store, config.providers.responses[0].config.persistence.responses]) p.backend = 'sql_main';
    const problems = check(config, '0.7.1').filter((p) => p.rule === 'storage');
    expect(problems.map((p) => p.path)).toEqual(['storage.stores.prompts', 'storage.stores.connectors']);
    expect(problems[0]?.message).toContain('is omitted, so it defaults to the backend `kv_default`');
    // 0.4.x has no connectors store.
    expect(check({ ...config, image_name: 'x' }, '0.4.4').filter((p) => p.rule === 'storage').map((p) => p.path)).toEqual(['storage.stores.prompts']);
  });
  it("the stores and their families come from the release's run-config schema: prompts is an SQL store from 1.0.0", () => {
    const config = newLayout();
    delete config.providers.safety;
    delete config.registered_resources.shields;
    delete config.safety;
    for (const backend of Object.values(config.storage.backends) as Config[]) backend.db_path = backend.db_path.replace('.llama', '.ogx');
    expect(check(config, '0.8.0').filter((p) => p.rule === 'storage')).toEqual([]);
    expect(check(config, '1.0.0').filter((p) => p.rule === 'storage')).toEqual([
      {
        severity: 'error',
        rule: 'storage',
        path: 'storage.stores.prompts.backend',
        message: 'names `kv_default`, a kv_* backend, but the prompts store needs a sql_* backend',
      },
      {
        severity: 'error',
        rule: 'storage',
        path: 'storage.stores.connectors.backend',
        message: 'names `kv_default`, a kv_* backend, but the connectors store needs a sql_* backend',
      },
    ]);
    config.storage.stores.vectors = { table_name: 'v', backend: 'sql_default' };
    expect(check(config, '0.8.0').filter((p) => p.path === 'storage.stores.vectors')).toEqual([
      expect.objectContaining({
        severity: 'warning',
        message: 'is not a store in OGX 0.8.0; the server ignores it. Stores: metadata, inference, conversations, responses, prompts, connectors',
      }),
    ]);
  });
  it('postgres backends need a user', () => {
    const config = newLayout();
    config.storage.backends.kv_default = { type: 'kv_postgres', host: 'db', password: 'x' };
    expect(only(check(config, '0.7.1'), 'storage')).toMatchObject({ severity: 'error', path: 'storage.backends.kv_default.user' });
  });
  it('provider references', () => {
    const config = newLayout();
    config.providers.files[0].config.metadata_store.backend = 'kv_default';
    config.providers.vector_io[0].config.persistence = { type: 'sqlite', db_path: '/.llama/faiss.db' };
    const problems = check(config, '0.7.1').filter((p) => p.rule === 'storage');
    expect(problems.map((p) => [p.severity, p.path])).toEqual([
      ['error', 'providers.vector_io[0].config.persistence.backend'],
      ['error', 'providers.files[0].config.metadata_store.backend'],
    ]);
    expect(problems[0]?.message).toContain('the ≤ 0.2 layout');
  });
  it('the ≤ 0.2 layout: full store configs', () => {
    const config = oldLayout();
    config.providers.vector_io[0].config.kvstore = { backend: 'kv_default', namespace: 'faiss' };
    config.metadata_store = { type: 'postgres', host: 'db' };
    const problems = check(config, '0.2.14').filter((p) => p.rule === 'storage');
    expect(problems.map((p) => [p.severity, p.path])).toEqual([
      ['error', 'metadata_store.user'],
      ['error', 'providers.vector_io[0].config.kvstore'],
    ]);
  });
});

describe('models: registered models', () => {
  it('a model without provider_id is silently skipped', () => {
    const config = newLayout();
    delete config.registered_resources.models[0].provider_id;
    expect(only(check(config, '0.7.1'), 'models')).toMatchObject({
      severity: 'warning',
      path: 'registered_resources.models[0].provider_id',
      message: expect.stringContaining('silently skips'),
    });
  });
  it('provider_id names an enabled inference provider', () => {
    const config = newLayout();
    config.registered_resources.models[0].provider_id = 'vlm';
    expect(only(check(config, '0.7.1'), 'models')).toMatchObject({
      severity: 'error',
      path: 'registered_resources.models[0].provider_id',
      message: expect.stringMatching(/"vlm", which is not configured: the server stops at startup \("Provider not found"\)\. Did you mean "vllm"\?/),
    });
    config.registered_resources.models[0].provider_id = 'vllm';
    config.providers.inference[0].provider_id = '${env.VLLM_URL:+vllm}';
    config.providers.inference[0].config.base_url = '${env.VLLM_URL:=}';
    expect(only(check(config, '0.7.1'), 'models')).toMatchObject({
      severity: 'error',
      message: expect.stringContaining('"vllm", which is off in this pod: VLLM_URL switches it on, and it is unset'),
    });
    expect(only(checkOpen(config, '0.7.1'), 'models')).toMatchObject({
      severity: 'warning',
      message: expect.stringContaining('enabled only when VLLM_URL is set'),
    });
    expect(check(config, '0.7.1', ['VLLM_URL'])).toEqual([]);
  });
  it('model_type, and the embedding dimension', () => {
    const config = newLayout();
    config.registered_resources.models[0].model_type = 'chat';
    delete config.registered_resources.models[1].metadata;
    const problems = check(config, '0.7.1').filter((p) => p.rule === 'models');
    expect(problems.map((p) => [p.severity, p.path])).toEqual([
      ['error', 'registered_resources.models[0].model_type'],
      ['error', 'registered_resources.models[1].metadata.embedding_dimension'],
    ]);
  });
  it('provider_id: all from 0.8.0 on', () => {
    const config = newLayout();
    config.registered_resources.models[0].provider_id = 'all';
    expect(only(check(config, '0.7.1'), 'models').severity).toBe('error');
    const ogx = newLayout();
    ogx.registered_resources.models[0].provider_id = 'all';
    for (const backend of Object.values(ogx.storage.backends) as Config[]) backend.db_path = '/.ogx/db';
    expect(check(ogx, '0.8.0')).toEqual([]);
  });
  it('the ≤ 0.2 layout reads the top-level models; 0.3.0+ ignores them', () => {
    const config = oldLayout();
    config.models[0].provider_id = 'ollama';
    expect(only(check(config, '0.2.14'), 'models')).toMatchObject({ severity: 'error', path: 'models[0].provider_id' });
    const moved = newLayout();
    moved.models = moved.registered_resources.models;
    expect(only(check(moved, '0.7.1'), 'models')).toMatchObject({ severity: 'warning', path: 'models', message: expect.stringContaining('ignores it') });
  });
});

describe('resources: shields, vector stores, tool groups', () => {
  it('a shield names a safety provider', () => {
    const config = newLayout();
    config.registered_resources.shields[0].provider_id = 'vllm';
    expect(only(check(config, '0.7.1'), 'resources')).toMatchObject({
      severity: 'error',
      path: 'registered_resources.shields[0].provider_id',
      message: expect.stringContaining('the safety provider "vllm"'),
    });
  });
  it('a shield without provider_id is silently skipped', () => {
    const config = newLayout();
    delete config.registered_resources.shields[0].provider_id;
    delete config.safety;
    expect(only(check(config, '0.7.1'), 'resources')).toMatchObject({ severity: 'warning', path: 'registered_resources.shields[0].provider_id' });
  });
  it('a vector store needs its fields and a vector_io provider', () => {
    const config = newLayout();
    config.registered_resources.vector_stores = [{ vector_store_id: 'docs', embedding_model: 'nomic', provider_id: 'chroma' }];
    const problems = check(config, '0.7.1').filter((p) => p.rule === 'resources');
    expect(problems.map((p) => [p.severity, p.path])).toEqual([
      ['error', 'registered_resources.vector_stores[0].embedding_dimension'],
      ['error', 'registered_resources.vector_stores[0].provider_id'],
    ]);
  });
  it('tool_groups are ignored from 0.7.0 on', () => {
    const config = newLayout();
    config.registered_resources.tool_groups = [{ toolgroup_id: 'builtin::websearch', provider_id: 'tavily' }];
    expect(only(check(config, '0.7.1'), 'resources')).toMatchObject({
      severity: 'warning',
      path: 'registered_resources.tool_groups',
      message: expect.stringContaining('is ignored'),
    });
  });
  it('before 0.7.0 a tool group names a tool_runtime provider', () => {
    const config = oldLayout();
    config.tool_groups[0].provider_id = 'tavily-search';
    expect(only(check(config, '0.2.14'), 'resources')).toMatchObject({ severity: 'error', path: 'tool_groups[0].provider_id' });
  });
});

describe('resource-defaults: defaults', () => {
  it('the default embedding model is an embedding model', () => {
    const config = newLayout();
    config.vector_stores.default_embedding_model = { provider_id: 'vllm', model_id: 'llama' };
    expect(only(check(config, '0.7.1'), 'resource-defaults')).toMatchObject({
      severity: 'error',
      path: 'vector_stores.default_embedding_model.model_id',
      message: expect.stringContaining('model_type llm'),
    });
  });
  it('the default embedding model names an inference provider', () => {
    const config = newLayout();
    config.vector_stores.default_embedding_model = { provider_id: 'sentence-transformer', model_id: 'nomic' };
    expect(only(check(config, '0.7.1'), 'resource-defaults')).toMatchObject({ severity: 'error', path: 'vector_stores.default_embedding_model.provider_id' });
  });
  it('default_shield_id names a registered shield', () => {
    const config = newLayout();
    config.safety.default_shield_id = 'llama-guard';
    expect(only(check(config, '0.7.1'), 'resource-defaults')).toMatchObject({
      severity: 'error',
      path: 'safety.default_shield_id',
      message: expect.stringContaining('(guard)'),
    });
  });
  it('default_provider_id names a vector_io provider', () => {
    const config = newLayout();
    config.vector_stores.default_provider_id = 'milvus';
    expect(only(check(config, '0.7.1'), 'resource-defaults')).toMatchObject({ severity: 'warning', path: 'vector_stores.default_provider_id' });
  });
});

describe('server: server', () => {
  it('port', () => {
    const config = newLayout();
    config.server.port = 80;
    expect(only(check(config, '0.7.1'), 'server')).toMatchObject({ severity: 'error', path: 'server.port', message: expect.stringContaining('1024 to 65535') });
  });
  it('TLS certificate and key together', () => {
    const config = newLayout();
    config.server.tls_certfile = '/certs/tls.crt';
    expect(only(check(config, '0.7.1'), 'server')).toMatchObject({ severity: 'error', path: 'server.tls_keyfile' });
  });
  it('oauth2: exactly one of jwks and introspection', () => {
    const config = newLayout();
    config.server.auth = { provider_config: { type: 'oauth2_token', jwks: { uri: 'https://x/jwks' }, introspection: { url: 'https://x/i' } } };
    expect(only(check(config, '0.7.1'), 'server')).toMatchObject({
      severity: 'error',
      path: 'server.auth.provider_config',
      message: expect.stringContaining('sets both'),
    });
    config.server.auth.provider_config = { type: 'oauth2_token' };
    expect(only(check(config, '0.7.1'), 'server').message).toContain('sets neither');
  });
  it("auth types are the release's run-config schema's: upstream_header from 0.8.0", () => {
    const config = newLayout();
    config.server.auth = { provider_config: { type: 'upstream_header', principal_header: 'x-user' } };
    expect(only(check(config, '0.7.1'), 'server')).toMatchObject({
      severity: 'error',
      path: 'server.auth.provider_config.type',
      message: '"upstream_header" is not an auth provider type in llama-stack 0.7.1: one of oauth2_token, github_token, custom, kubernetes',
    });
    for (const backend of Object.values(config.storage.backends) as Config[]) backend.db_path = backend.db_path.replace('.llama', '.ogx');
    expect(check(config, '0.8.0').filter((p) => p.rule === 'server')).toEqual([]);
  });
  it('workers before 0.3.1', () => {
    const config = oldLayout();
    config.server.workers = 2;
    expect(only(check(config, '0.2.14'), 'server')).toMatchObject({ severity: 'warning', path: 'server.workers' });
  });
});

describe('env-placeholders: env placeholders', () => {
  it('in a credential field, a placeholder is never quoted: its default may be the secret (attacker probe)', () => {
    for (const value of ['${env.tok:=SEKRET1}', '${env.TOK:-SEKRET5}', '${env.TOK:=SEKRET4']) {
      const config = newLayout();
      config.providers.inference[0].config = { ...config.providers.inference[0].config, api_token: value };
      const found = check(config, '0.7.1').filter((p) => p.rule === 'env-placeholders');
      expect(found.length, value).toBeGreaterThan(0);
      expect(JSON.stringify(found)).not.toContain('SEKRET');
      expect(found.every((p) => p.path === 'providers.inference[0].config.api_token')).toBe(true);
    }
  });

  it('a bare placeholder needs the variable on the container', () => {
    const config = newLayout();
    config.registered_resources.models[0].model_id = '${env.INFERENCE_MODEL}';
    expect(only(check(config, '0.7.1'), 'env-placeholders')).toEqual({
      severity: 'error',
      rule: 'env-placeholders',
      path: 'registered_resources.models[0].model_id',
      message:
        '`${env.INFERENCE_MODEL}` has no default, so the server stops at startup when INFERENCE_MODEL is unset: ' +
        'set INFERENCE_MODEL in `spec.workload.overrides.env` (name: INFERENCE_MODEL, value: …), or write `${env.INFERENCE_MODEL:=<default>}`.',
    });
    expect(check(config, '0.7.1', ['INFERENCE_MODEL'])).toEqual([]);
  });
  it('… even inside a provider disabled by ${env.X:+id}', () => {
    const config = newLayout();
    config.providers.inference.push({
      provider_id: '${env.OPENAI_ENABLED:+openai}',
      provider_type: 'remote::openai',
      config: { api_key: '${env.OPENAI_API_KEY}' },
    });
    expect(only(check(config, '0.7.1'), 'env-placeholders')).toMatchObject({
      severity: 'error',
      path: 'providers.inference[2].config.api_key',
      message: expect.stringContaining('The provider is off in this pod, but the server expands its config even while it is disabled'),
    });
    // A variable that may come from a source the render cannot read: a warning, never an error.
    expect(only(checkOpen(config, '0.7.1'), 'env-placeholders')).toMatchObject({ severity: 'warning', code: 'env-conditional' });
  });
  it('… but not inside an entry removed by __disabled__', () => {
    const config = newLayout();
    config.providers.inference.push({ provider_id: '__disabled__', provider_type: 'remote::openai', config: { api_key: '${env.OPENAI_API_KEY}' } });
    expect(check(config, '0.7.1')).toEqual([]);
  });
  it('forms the server leaves literal', () => {
    const config = newLayout();
    const at = config.providers.inference[0].config;
    const cases: Array<[string, string]> = [
      ['${env.vllm_token}', 'upper case'],
      ['${env.VLLM_TOKEN:-fake}', '`:-` is not supported; write `${env.VLLM_TOKEN:=fake}`'],
      ['${env.VLLM_TOKEN:}', 'write `${env.VLLM_TOKEN:=}` for an empty default'],
      ['${VLLM_TOKEN}', 'only `${env.NAME}` placeholders are substituted'],
    ];
    for (const [value, why] of cases) {
      at.max_tokens = value;
      expect(only(check(config, '0.7.1'), 'env-placeholders')).toMatchObject({
        severity: 'warning',
        path: 'providers.inference[0].config.max_tokens',
        message: expect.stringMatching(new RegExp(`is not a placeholder the server substitutes.*${why.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`)),
      });
    }
  });
  it('a default cannot contain }', () => {
    const config = newLayout();
    config.providers.inference[0].config.max_tokens = '${env.TOKEN:={"a": 1}}';
    expect(only(check(config, '0.7.1'), 'env-placeholders')).toMatchObject({
      severity: 'warning',
      message: expect.stringContaining('a default cannot contain `}`'),
    });
  });
  it('before 0.2.13 the forms are ${env.X:default} and ${env.X+value}', () => {
    const config = oldLayout();
    config.providers.inference[0].config.max_tokens = '${env.VLLM_API_TOKEN:=fake}';
    expect(only(check(config, '0.2.10'), 'env-placeholders')).toMatchObject({
      severity: 'warning',
      message: expect.stringContaining('the default here starts with "="'),
    });
    config.providers.inference[0].config.max_tokens = '${env.VLLM_API_TOKEN:fake}';
    expect(check(config, '0.2.10')).toEqual([]);
    expect(only(check(config, '0.2.14'), 'env-placeholders').message).toContain('write `${env.VLLM_API_TOKEN:=fake}` for a default');
  });
  it('auth switched off by an empty type is not expanded further', () => {
    const config = newLayout();
    config.server.auth = { provider_config: { type: '${env.AUTH:+oauth2_token}', jwks: { uri: '${env.JWKS_URI}' } } };
    expect(check(config, '0.7.1')).toEqual([]);
    expect(errors(check(config, '0.7.1', ['AUTH'])).map((p) => [p.rule, p.path])).toEqual([['env-placeholders', 'server.auth.provider_config.jwks.uri']]);
  });
});

describe('state-paths: paths', () => {
  it('a relative sqlite path', () => {
    const config = newLayout();
    config.storage.backends.kv_default.db_path = 'data/kvstore.db';
    expect(only(check(config, '0.7.1'), 'state-paths')).toMatchObject({
      severity: 'warning',
      path: 'storage.backends.kv_default.db_path',
      message: expect.stringContaining('relative path'),
    });
  });
  it('~ outside the state volume', () => {
    const config = newLayout();
    config.providers.files[0].config.storage_dir = '${env.FILES_DIR:=~/files}';
    expect(only(check(config, '0.7.1'), 'state-paths')).toMatchObject({
      severity: 'warning',
      path: 'providers.files[0].config.storage_dir',
      message: expect.stringContaining(
        '"~/files" (with FILES_DIR unset) resolves against the server\'s HOME (/: the image or the Deployment sets it) to /files, ' +
          'outside the state volume at /.llama',
      ),
    });
  });
  it('~/.llama is the state volume of a 0.7.1 image, not of a 0.8.0 one', () => {
    expect(check(newLayout(), '0.7.1').filter((p) => p.rule === 'state-paths')).toEqual([]);
    const paths = check(newLayout(), '0.8.0').filter((p) => p.rule === 'state-paths').map((p) => p.path);
    expect(paths).toEqual(['storage.backends.kv_default.db_path', 'storage.backends.sql_default.db_path']);
  });
});

// Every base config llsd-render ships (configs/distributions.yaml) passes the rules once the
// container sets the variables it needs, and without them fails on exactly those: each bare
// `${env.X}` (env-placeholders), and a vLLM URL that is empty unless a variable is set (provider-settings).
describe('shipped base configs', () => {
  // A vendor's base copied byte for byte (a SOURCE beside it: `rh`) keeps forms only the whole
  // check forgives (older store forms, ignored keys: info); test/unit/rh-distribution.test.ts judges it.
  const vendor = (file: string): boolean =>
    /^distributions\/[^/]+\/config\.yaml$/.test(file) && shippedConfigText(file.replace(/config\.yaml$/, 'SOURCE')) !== undefined;
  const cases = Object.entries(distributions())
    .flatMap(([name, d]) => Object.entries(d.releases).map(([release, r]) => ({ name, release, file: r.config })))
    .filter((c) => !vendor(c.file));

  /** Every `${env.X}` without a default, found independently of the checker. */
  function barePlaceholders(value: unknown, path: Array<string | number> = []): Array<{ path: string; name: string }> {
    if (typeof value === 'string') return [...value.matchAll(/\$\{env\.([A-Z0-9_]+)\}/g)].map((m) => ({ path: formatFieldPath(path), name: m[1] as string }));
    if (Array.isArray(value)) return value.flatMap((v, i) => barePlaceholders(v, [...path, i]));
    if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => barePlaceholders(v, [...path, k]));
    return [];
  }
  const toSet = /set ([A-Z0-9_]+) in `spec\.workload\.overrides\.env` \(name: \1, value: …\)/;

  it('covers the distributions', () => {
    expect(cases.map((c) => c.name)).toEqual(expect.arrayContaining(['starter']));
  });

  it.each(cases)('$name $release', ({ name, release, file }) => {
    const text = shippedConfigText(file);
    expect(text, `configs/distributions/${file} is not embedded`).toBeDefined();
    const config = parse(text as string);
    const bare = barePlaceholders(config);

    // Without the variables: the bare placeholders exactly, and otherwise only "set X" errors.
    const withoutEnv = errors(check(config, release));
    expect(withoutEnv.filter((p) => p.rule === 'env-placeholders').map((p) => p.path)).toEqual(bare.map((b) => b.path));
    withoutEnv.forEach((p) => expect(p.message, JSON.stringify(p)).toMatch(toSet));
    const others = withoutEnv.filter((p) => p.rule !== 'env-placeholders');
    expect(others.every((p) => p.rule === 'provider-settings' && p.message.includes('refuses to start without a URL'))).toBe(true);
    const needed = [...new Set(withoutEnv.map((p) => (toSet.exec(p.message) as RegExpExecArray)[1] as string))];
    expect(needed).toEqual(expect.arrayContaining(bare.map((b) => b.name)));
    if (['remote-vllm', 'postgres-demo', 'meta-reference-gpu'].includes(name)) expect(needed).toContain('INFERENCE_MODEL');

    // With them: no errors (the starter, nothing at all).
    const withEnv = check(config, release, needed);
    expect(errors(withEnv), JSON.stringify(withEnv, null, 2)).toEqual([]);
    if (name === 'starter') expect(withEnv).toEqual([]);
  });
});
