// Issue 16 item 3 through the built bundle: providers the CR adds are configured from the target
// release's own registry and sample configs, and Secret values the server would not take as text
// are reported (by Secret and key, never the value).
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { expectNoCrash, parseStream, run, stderrLines, tempDir, writeTree, type KrmObject } from './run.js';

/** An LLSD in namespace `llama` with the given spec (indented under `spec:`), at `release` when given. */
const llsd = (spec: string, release?: string): string =>
  [
    'apiVersion: llamastack.io/v1alpha2',
    'kind: LlamaStackDistribution',
    'metadata:',
    '  name: demo',
    '  namespace: llama',
    ...(release ? ['  annotations:', `    llamastack.io/release: "${release}"`] : []),
    'spec:',
    spec.replace(/^/gm, '  '),
    '',
  ].join('\n');

const secret = (name: string, body: string): string => `apiVersion: v1\nkind: Secret\nmetadata:\n  name: ${name}\n  namespace: llama\ntype: Opaque\n${body}\n`;

function build(files: Record<string, string>) {
  const dir = writeTree(tempDir(), files);
  const r = run(['build', dir]);
  expectNoCrash(r);
  return r;
}

/** config.yaml of the generated ConfigMap, as the server reads it. */
function configOf(stdout: string): Record<string, any> {
  const configMap = parseStream(stdout).find((o: KrmObject) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('demo-config')) as KrmObject & {
    data: Record<string, string>;
  };
  return parse(configMap.data['config.yaml'] ?? '', { version: '1.1' }) as Record<string, any>;
}

describe('build: providers from the release registry and samples', () => {
  it('a pgvector provider the CR adds on 0.7.1 gets the sample config, persistence included', () => {
    const spec =
      'distribution: {name: starter}\nproviders:\n  vectorIo:\n    id: pg\n    provider: pgvector\n    host: pg.llama.svc\n    settings: {db: vectors, ' +
        'user: app}\n    secretRefs:\n      password: {name: pg, key: password}';
    const r = build({ 'llsd.yaml': llsd(spec, '0.7.1'), 'secret.yaml': secret('pg', 'stringData:\n  password: not-a-number') });
    expect(r.status, r.stderr).toBe(0);
    const entry = configOf(r.stdout).providers.vector_io.find((p: Record<string, unknown>) => p.provider_id === 'pg');
    // The sample's namespace is the base pgvector entry's too: renamed after the id, so the two never share state.
    expect(entry.config.persistence).toEqual({ namespace: 'vector_io::pg', backend: 'kv_default' });
    expect(entry.config).toMatchObject({ host: 'pg.llama.svc', db: 'vectors', user: 'app', password: '${env.LLSD_PG_PASSWORD}', distance_metric: 'COSINE' });
  });

  it('remote-vllm 0.2.14: a vLLM provider under a new id replaces the base localhost vLLM entry, and the base model follows it', () => {
    const spec =
      'distribution: {name: remote-vllm}\nworkload:\n  overrides:\n    env: [{name: INFERENCE_MODEL, value: m}]\nproviders:\n  inference:\n    id: my-vllm\n ' +
        '   provider: vllm\n    endpoint: http://vllm.llama.svc:8000/v1';
    const dir = writeTree(tempDir(), { 'llsd.yaml': llsd(spec) });
    const r = run(['build', dir]);
    expect(r.status, r.stderr).toBe(0);
    // `build` prints warnings and errors; `validate` prints the info result too.
    expect(r.stderr).toBe('');
    const validated = run(['validate', dir]);
    expect(`${validated.stdout}${validated.stderr}`.split('\n').filter((line) => line.includes('replaces the base'))).toEqual([
      expect.stringMatching(
        /spec\.providers\.inference: info: replaces the base config's provider "vllm-inference" \(remote::vllm at http:\/\/localhost:8000\/v1, .*\); resources registered with it now use "my-vllm"; to configure that entry instead, give this provider `id: vllm-inference`$/,
      ),
    ]);
    const config = configOf(r.stdout);
    const inference = config.providers.inference as Array<Record<string, any>>;
    expect(inference.map((p) => p.provider_id)).toEqual(['my-vllm', 'sentence-transformers']);
    expect(inference[0]?.config.url).toBe('http://vllm.llama.svc:8000/v1');
    expect(config.models.find((m: Record<string, unknown>) => m.model_type === 'llm').provider_id).toBe('my-vllm');
    // 0.2.14 requires `config` in every provider entry.
    for (const list of Object.values<Array<Record<string, unknown>>>(config.providers))
      for (const p of list) expect(Object.hasOwn(p, 'config'), String(p.provider_id)).toBe(true);
  });

  // Property tests (a random seed): the CR's own first provider, on the sample's localhost URL, was
  // taken for a base entry its second provider stands in for, and dropped without a word.
  it('two providers of one type, the first without an endpoint: both are configured, neither replaces the other', () => {
    const r = build({
      'llsd.yaml': llsd(
        'distribution: {name: starter}\nproviders:\n  inference:\n    - {id: a, provider: llama-cpp-server}\n    - {id: a-a, provider: llama-cpp-server, ' +
          'endpoint: "http://a.svc"}\nresources:\n  models: [a]',
      ),
    });
    expect(r.status, r.stderr).toBe(0);
    const inference = (configOf(r.stdout).providers.inference as Array<{ provider_id: string }>).map((p) => p.provider_id);
    expect(inference).toEqual(expect.arrayContaining(['a', 'a-a']));
    expect(r.stderr).not.toContain('replaces the base config');
  });

  it('remote-vllm 0.2.14 accepts the registry types llsd-render used to refuse by name', () => {
    const spec =
      'distribution: {name: remote-vllm}\nworkload:\n  overrides:\n    env: [{name: INFERENCE_MODEL, value: m}]\nproviders:\n  inference:\n    - {id: ' +
        'vllm-inference, provider: vllm, endpoint: "http://vllm:8000/v1"}\n    - {id: groq, provider: groq-openai-compat, endpoint: ' +
        '"https://api.groq.com/openai/v1"}\n    - {id: local, provider: "inline::vllm"}';
    const r = build({ 'llsd.yaml': llsd(spec) });
    expect(r.status, r.stderr).toBe(0);
    const inference = configOf(r.stdout).providers.inference as Array<Record<string, any>>;
    expect(inference.find((p) => p.provider_id === 'groq')).toMatchObject({
      provider_type: 'remote::groq-openai-compat',
      config: { openai_compat_api_base: 'https://api.groq.com/openai/v1' },
    });
    expect(inference.find((p) => p.provider_id === 'local')?.provider_type).toBe('inline::vllm');
  });
});

describe('build: Secret values the server would not take as text', () => {
  const spec =
    'distribution: {name: starter}\nproviders:\n  inference:\n    provider: vllm\n    endpoint: http://vllm:8000/v1\n    apiKey: {secretKeyRef: {name: ' +
      'vllm-credentials, key: token}}';

  it.each([
    ['stringData', 'stringData:\n  token: "0755"', 'a number'],
    ['data (base64)', `data:\n  token: ${Buffer.from('123456').toString('base64')}`, 'a number'],
    ['a boolean', 'stringData:\n  token: "True"', 'a boolean'],
  ])('%s: a warning naming the Secret and key, never the value; the render still succeeds', (_, body, reads) => {
    const r = build({ 'llsd.yaml': llsd(spec, '0.7.1'), 'secret.yaml': secret('vllm-credentials', body) });
    expect(r.status, r.stderr).toBe(0);
    const lines = stderrLines(r).filter((line) => line.includes('spec.providers.inference.apiKey'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`refers to key "token" of the Secret "vllm-credentials", whose value reads as ${reads}`);
    expect(lines[0]).toMatch(/: spec\.providers\.inference\.apiKey: warning: /);
    for (const value of ['0755', '123456', 'True', 'MTIzNDU2']) expect(r.stderr).not.toContain(value);
  });

  it('a text value, or a Secret that is not in the input, gives no such warning', () => {
    const text = build({ 'llsd.yaml': llsd(spec, '0.7.1'), 'secret.yaml': secret('vllm-credentials', 'stringData:\n  token: abc-0755') });
    expect(text.status).toBe(0);
    expect(text.stderr).not.toContain('whose value reads as');
    const absent = build({ 'llsd.yaml': llsd(spec, '0.7.1') });
    expect(absent.stderr).not.toContain('whose value reads as');
  });
});
