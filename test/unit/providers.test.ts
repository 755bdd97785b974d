// Issue 16 item 3: provider types from the release's own registry, new providers from the release's
// sample config, the base's localhost vLLM replaced, and `config` on every 0.2.x entry.
import { describe, expect, it } from 'vitest';
import { parseLlsd } from '../../src/llsd/llsd.js';
import { profileFor } from '../../src/catalog/versions.js';
import type { Plan } from '../../src/llsd/plan.js';
import { itemFrom, llsdYaml } from '../support.js';
import { base02, configOf, generate, inlinePlan, problemLines, starterPlan } from './plan-fixtures.js';

function planAt(release: string, spec: string, base?: string): Plan {
  const profile = profileFor(release);
  if (!profile) throw new Error(`no profile for ${release}`);
  const text = base ?? (profile.layout === 'top-level-stores' ? base02 : `version: 2\n${profile.nameKey}: test\napis: []\nproviders: {}\n`);
  return inlinePlan(`distribution: {name: x}\n${spec}`, release, profile, text);
}

const entryOf = (plan: Plan, api: string, id: string): Record<string, any> | undefined =>
  (configOf(generate(plan)).providers[api] as Array<Record<string, any>>).find((p) => p.provider_id === id);

describe('provider types from the release registry', () => {
  it('0.7.1 has vector_io inline::builtin; 0.8.0 does not, and says which it has', () => {
    expect(entryOf(planAt('0.7.1', 'providers:\n  vectorIo: {id: b, provider: "inline::builtin"}'), 'vector_io', 'b')?.provider_type).toBe('inline::builtin');
    const lines = problemLines(generate(planAt('0.8.0', 'providers:\n  vectorIo: {id: b, provider: "inline::builtin"}')));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^error spec\.providers\.vectorIo\.provider: "inline::builtin" is not a vector_io provider in OGX 0\.8\.0\. .*Valid vector_io providers: chromadb, .*faiss.*pgvector/,
    );
  });

  it('remote::hf::endpoint (or hf::endpoint) resolves at 0.4.4, with the id hf-endpoint; 0.7.1 refuses it', () => {
    const short = planAt('0.4.4', 'providers:\n  inference: {provider: "hf::endpoint", settings: {endpoint_name: my-endpoint}}');
    expect(short.llsd.providers[0]?.id).toBe('hf-endpoint');
    expect(entryOf(short, 'inference', 'hf-endpoint')).toEqual({
      provider_id: 'hf-endpoint',
      provider_type: 'remote::hf::endpoint',
      config: { endpoint_name: 'my-endpoint' },
    });
    const full = planAt(
      '0.4.4',
      'providers:\n  inference: {id: hf, provider: "remote::hf::serverless", apiKey: {name: hf, key: token}, settings: {huggingface_repo: m}}',
    );
    expect(entryOf(full, 'inference', 'hf')?.config).toEqual({ huggingface_repo: 'm', api_token: '${env.LLSD_HF_API_KEY}' });
    expect(problemLines(generate(planAt('0.7.1', 'providers:\n  inference: {id: hf, provider: "remote::hf::endpoint"}')))[0]).toMatch(
      /^error spec\.providers\.inference\.provider: "remote::hf::endpoint" is not an inference provider in llama-stack 0\.7\.1\./,
    );
  });

  it('0.2.14 accepts inline::vllm and the *-openai-compat adapters', () => {
    expect(entryOf(planAt('0.2.14', 'providers:\n  inference: {id: local, provider: "inline::vllm"}'), 'inference', 'local')?.provider_type).toBe(
      'inline::vllm',
    );
    expect(
      entryOf(planAt('0.2.14', 'providers:\n  inference: {id: t, provider: together-openai-compat, endpoint: "https://api.together.xyz/v1"}'), 'inference', 't')
        ?.config,
    ).toMatchObject({
      openai_compat_api_base: 'https://api.together.xyz/v1',
    });
  });

  it('the CR schema takes one second `::` part and no more', () => {
    const parse = (provider: string) =>
      parseLlsd(itemFrom(llsdYaml(`distribution: {name: starter}\nproviders:\n  inference: {id: p, provider: "${provider}"}`)).object);
    expect(parse('remote::hf::endpoint').ok).toBe(true);
    const refused = parse('remote::hf::endpoint::x');
    expect(refused.ok).toBe(false);
    expect(refused.problems.map((p) => [p.path.join('.'), p.message])).toEqual([
      ['spec.providers.inference.provider', 'must be a provider name such as `vllm`, or a provider type such as `remote::vllm` or `inline::llama-guard`'],
    ]);
  });
});

describe('a provider the CR adds starts from the release sample config', () => {
  it('pgvector on 0.7.1 gets the sample persistence, with the CR fields laid over; required env vars of the sample are left out', () => {
    const config = entryOf(planAt('0.7.1', 'providers:\n  vectorIo: {id: pg, provider: pgvector, host: db.svc}'), 'vector_io', 'pg')?.config;
    expect(config).toEqual({
      host: 'db.svc',
      port: '${env.PGVECTOR_PORT:=5432}',
      distance_metric: 'COSINE',
      vector_index: { type: 'HNSW', m: 16, ef_construction: 64, ef_search: 40 },
      persistence: { namespace: 'vector_io::pgvector', backend: 'kv_default' },
    });
  });

  it('DISTRO is the distribution directory under the profile home; a storage file another entry uses is renamed after the id', () => {
    const config = entryOf(planAt('0.2.14', 'providers:\n  vectorIo: {id: faiss-2, provider: faiss}'), 'vector_io', 'faiss-2')?.config;
    // base02's faiss keeps its state in faiss_store.db under ~/.llama/distributions/test: the same file as the sample's.
    expect(config).toEqual({ kvstore: { type: 'sqlite', db_path: '${env.SQLITE_STORE_DIR:=~/.llama/distributions/test}/faiss-2.db' } });
    const sqlite = entryOf(planAt('0.2.14', 'providers:\n  vectorIo: {id: sv, provider: sqlite-vec}'), 'vector_io', 'sv')?.config;
    expect(sqlite).toEqual({ db_path: '${env.SQLITE_STORE_DIR:=~/.llama/distributions/test}/sqlite_vec.db' });
  });

  it('0.2.14: every provider entry has a `config` mapping; 0.7.1 writes none when empty', () => {
    // base02 writes its sentence-transformers entry without `config`, as 0.2.24 allows.
    const old = configOf(generate(planAt('0.2.14', 'providers:\n  toolRuntime: {id: mcp, provider: model-context-protocol}')));
    for (const list of Object.values<Array<Record<string, unknown>>>(old.providers))
      for (const p of list) expect(p.config, String(p.provider_id)).toBeTypeOf('object');
    expect(old.providers.inference.find((p: Record<string, unknown>) => p.provider_id === 'sentence-transformers').config).toEqual({});
    expect(old.providers.tool_runtime.find((p: Record<string, unknown>) => p.provider_id === 'mcp')).toEqual({
      provider_id: 'mcp',
      provider_type: 'remote::model-context-protocol',
      config: {},
    });
    const current = configOf(generate(planAt('0.7.1', 'providers:\n  toolRuntime: {id: mcp, provider: model-context-protocol}')));
    expect(current.providers.tool_runtime[0]).toEqual({ provider_id: 'mcp', provider_type: 'remote::model-context-protocol' });
  });
});

describe('a base entry at a localhost default', () => {
  // base02's vllm-inference is at ${env.VLLM_URL:=http://localhost:8000/v1} and serves its first model.
  const base = base02;

  it('is replaced by a provider of its type under a new id, which takes over its resources, with an info result', () => {
    const outcome = generate(planAt('0.2.14', 'providers:\n  inference: {id: mine, provider: vllm, endpoint: "http://vllm:8000/v1"}', base));
    const config = configOf(outcome);
    expect(config.providers.inference.map((p: Record<string, unknown>) => p.provider_id)).toEqual(['mine', 'sentence-transformers']);
    expect(config.models.map((m: Record<string, unknown>) => [m.model_id, m.provider_id])).toEqual([
      ['${env.INFERENCE_MODEL}', 'mine'],
      ['all-MiniLM-L6-v2', 'sentence-transformers'],
    ]);
    expect(problemLines(outcome)).toEqual([
      'info spec.providers.inference: replaces the base config\'s provider "vllm-inference" (remote::vllm at http://localhost:8000/v1, a default address ' +
        'nothing in the pod serves, which would stop the server at startup); resources registered with it now use "mine"; to configure that entry instead, ' +
        'give this provider `id: vllm-inference`',
    ]);
  });

  it('stays when the CR configures it by its id, or gives no endpoint, or the entry points elsewhere', () => {
    expect(
      configOf(generate(planAt('0.2.14', 'providers:\n  inference: {id: vllm-inference, provider: vllm, endpoint: "http://vllm:8000/v1"}', base))).providers
        .inference[0].config.url,
    ).toBe('http://vllm:8000/v1');
    const noEndpoint = configOf(generate(planAt('0.2.14', 'providers:\n  inference: {id: mine, provider: vllm}', base)));
    expect(noEndpoint.providers.inference.map((p: Record<string, unknown>) => p.provider_id)).toEqual(['vllm-inference', 'sentence-transformers', 'mine']);
    const remote = base.replace('http://localhost:8000/v1', 'http://vllm.shared.svc:8000/v1');
    const elsewhere = configOf(generate(planAt('0.2.14', 'providers:\n  inference: {id: mine, provider: vllm, endpoint: "http://vllm:8000/v1"}', remote)));
    expect(elsewhere.providers.inference.map((p: Record<string, unknown>) => p.provider_id)).toEqual(['vllm-inference', 'sentence-transformers', 'mine']);
  });

  it('a conditional base entry (switched on by an env var) is left alone', () => {
    const outcome = generate(
      starterPlan('distribution: {name: starter}\nproviders:\n  inference: {id: mine, provider: vllm, endpoint: "http://vllm:8000/v1"}'),
    );
    expect(outcome.problems.filter((p) => p.message.includes('replaces the base'))).toEqual([]);
  });
});
