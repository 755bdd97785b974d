import { describe, expect, it } from 'vitest';
import { parseLlsd } from '../../src/llsd/llsd.js';
import { generateConfig } from '../../src/llsd/generate.js';
import type { GenerateOutcome } from '../../src/core/config-file.js';
import { envName } from '../../src/core/secrets.js';
import { parseYaml11 } from '../../src/krm/yaml.js';
import { inventoryOf } from '../../src/krm/inventory.js';
import { planLlsd } from '../../src/llsd/plan.js';
import { itemFrom, llsdYaml, releaseMetadata } from '../support.js';

function generate(spec: string, metadata?: string): GenerateOutcome {
  const parsed = parseLlsd(itemFrom(llsdYaml(spec, metadata ?? releaseMetadata('0.7.1'))).object);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const planned = planLlsd(parsed.llsd, inventoryOf([]));
  if (!planned.ok) throw new Error(JSON.stringify(planned.problems));
  return generateConfig(planned.plan);
}

type Config = { providers: Record<string, Array<Record<string, unknown>>>; apis: string[]; registered_resources: { models: unknown[] } };
function configOf(outcome: GenerateOutcome): Config {
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.problems));
  const read = parseYaml11(outcome.config.text).value as Config;
  // The startup check uses `value` instead of parsing `text` again: they must be the same config.
  expect(read).toEqual(outcome.config.value);
  return read;
}
const provider = (config: Config, api: string, id: string) => config.providers[api]?.find((p) => p.provider_id === id);

describe('providers on the starter 0.7.1 base', () => {
  it('vLLM takes the endpoint as base_url and the API key as api_token, over the base entry switched by VLLM_URL', () => {
    const config = configOf(
      generate(
        'distribution: {name: starter}\nproviders:\n  inference:\n    provider: vllm\n    endpoint: http://vllm:8000/v1\n    apiKey: {secretKeyRef: {name: ' +
          'creds, key: token}}',
      ),
    );
    const vllm = config.providers.inference?.filter((p) => p.provider_type === 'remote::vllm');
    expect(vllm).toEqual([
      {
        provider_id: 'vllm',
        provider_type: 'remote::vllm',
        config: {
          base_url: 'http://vllm:8000/v1',
          max_tokens: '${env.VLLM_MAX_TOKENS:=4096}',
          api_token: '${env.LLSD_VLLM_API_KEY}',
          network: { tls: { verify: '${env.VLLM_TLS_VERIFY:=true}' } },
        },
      },
    ]);
  });

  it('the env var of a secret names the CR field; the container gets it from the Secret', () => {
    const outcome = generate(
      'distribution: {name: starter}\nproviders:\n  inference: {id: vllm-primary, provider: vllm, endpoint: "http://v/v1", apiKey: {name: creds, key: token}}',
    );
    expect(outcome.ok && outcome.config.env.map(({ name, secretName, key }) => ({ name, secretName, key }))).toEqual([
      { name: 'LLSD_VLLM_PRIMARY_API_KEY', secretName: 'creds', key: 'token' },
    ]);
  });

  it('completes a bare inference endpoint with /v1 and says so', () => {
    const outcome = generate('distribution: {name: starter}\nproviders:\n  inference: {provider: vllm, endpoint: "http://vllm:8000"}');
    expect(provider(configOf(outcome), 'inference', 'vllm')?.config).toMatchObject({ base_url: 'http://vllm:8000/v1' });
    expect(outcome.problems).toEqual([
      expect.objectContaining({
        severity: 'info',
        path: ['spec', 'providers', 'inference', 'endpoint'],
        message: expect.stringMatching(/wrote base_url "http:\/\/vllm:8000\/v1"/),
      }),
    ]);
  });

  it('settings merge into config; a secretKeyRef leaf becomes a placeholder named by its path', () => {
    const outcome = generate(
      'distribution: {name: starter}\nproviders:\n  inference:\n    provider: vllm\n    endpoint: http://v/v1\n    settings:\n      max_tokens: 8192\n      ' +
        'network: {headers: {X-Token: {secretKeyRef: {name: h, key: k}}}}',
    );
    const config = provider(configOf(outcome), 'inference', 'vllm')?.config as Record<string, unknown>;
    expect(config.max_tokens).toBe(8192);
    expect(config.network).toEqual({ tls: { verify: '${env.VLLM_TLS_VERIFY:=true}' }, headers: { 'X-Token': '${env.LLSD_VLLM_NETWORK_HEADERS_X_TOKEN}' } });
  });

  it('a provider with a new id is appended, and a new API is added to `apis`', () => {
    const config = configOf(
      generate(
        'distribution: {name: starter}\nproviders:\n  inference:\n    - {id: a, provider: vllm, endpoint: "http://a/v1"}\n    - {id: b, provider: ollama, ' +
          'endpoint: "http://b:11434/v1"}',
      ),
    );
    const ids = config.providers.inference?.map((p) => p.provider_id) ?? [];
    expect(ids.slice(-2)).toEqual(['a', 'b']);
    expect(provider(config, 'inference', 'b')).toEqual({ provider_id: 'b', provider_type: 'remote::ollama', config: { base_url: 'http://b:11434/v1' } });
  });

  it('an unknown provider is an error naming the likely one and the first 10 valid ones (issue 15: bounded lists)', () => {
    const outcome = generate('distribution: {name: starter}\nproviders:\n  inference: {provider: vlm}');
    expect(outcome.ok).toBe(false);
    expect(outcome.problems[0]?.path).toEqual(['spec', 'providers', 'inference', 'provider']);
    expect(outcome.problems[0]?.message).toMatch(
      /^"vlm" is not an inference provider in llama-stack 0\.7\.1\. Did you mean "vllm"\? Valid inference providers: (?:[\w-]+, ){10}… and 13 more\.$/,
    );
  });

  it('an endpoint on a provider without a URL key is an error, not a silently ignored key', () => {
    const outcome = generate('distribution: {name: starter}\nproviders:\n  inference: {provider: anthropic, endpoint: "http://x"}');
    expect(outcome.problems).toEqual([
      { path: ['spec', 'providers', 'inference', 'endpoint'], message: expect.stringMatching(/^cannot be set for remote::anthropic: it has no URL setting/) },
    ]);
  });

  it('two secret references that would share an env var name are an error', () => {
    const outcome = generate(
      'distribution: {name: starter}\nproviders:\n  inference:\n    provider: vllm\n    endpoint: http://v/v1\n    secretRefs: {api-key: {name: a, key: b}, ' +
        'api_key: {name: c, key: d}}',
    );
    expect(outcome.ok).toBe(false);
    expect(outcome.problems[0]?.message).toMatch(
      /would use the env var LLSD_VLLM_API_KEY, which already carries the secret of `spec\.providers\.inference\.secretRefs\.api-key`/,
    );
  });
});

describe('models', () => {
  it('string models go to the first inference provider of the CR with an explicit provider_id (FR-040)', () => {
    const config = configOf(
      generate(
        'distribution: {name: starter}\nproviders:\n  inference: [{id: a, provider: vllm, endpoint: "http://a/v1"}, {id: b, provider: ollama}]\nresources:\n ' +
          ' models: [m1, {name: m2, provider: b, contextLength: 4096}]',
      ),
    );
    expect(config.registered_resources.models).toEqual([
      { model_id: 'm1', provider_id: 'a', provider_model_id: 'm1', model_type: 'llm' },
      { model_id: 'm2', provider_id: 'b', provider_model_id: 'm2', model_type: 'llm', metadata: { context_length: 4096 } },
    ]);
  });

  it('a model naming a provider the config does not enable lists the ones it does', () => {
    const outcome = generate(
      'distribution: {name: starter}\nproviders:\n  inference: {provider: vllm, endpoint: "http://a/v1"}\nresources:\n  models: [{name: m, provider: nope}]',
    );
    expect(outcome.problems).toEqual([
      {
        path: ['spec', 'resources', 'models', 0, 'provider'],
        message: expect.stringMatching(/^names the inference provider "nope", which the rendered config does not enable; use one of: .*vllm/),
      },
    ]);
  });

  it('without an inference provider in the CR a string model says how to pick one', () => {
    const outcome = generate('distribution: {name: starter}\nresources:\n  models: [m]');
    expect(outcome.problems[0]?.path).toEqual(['spec', 'resources', 'models', 0]);
    expect(outcome.problems[0]?.message).toMatch(
      /^needs an inference provider: configure `spec.providers.inference`, or write the model as `\{name: m, provider: <id>\}` with one of the distribution's inference providers: fireworks, together/,
    );
  });
});

describe('fields rendered since issue 4', () => {
  it('storage, disabled, shields and tools plan and render, no longer refused as pending', () => {
    const outcome = generate(
      'distribution: {name: starter}\nproviders:\n  inference: {provider: vllm, endpoint: "http://v/v1"}\n  safety: {provider: code-scanner}\nresources:\n  ' +
        'models: [m]\n  shields: [code-scanner]\n  tools: [websearch]\nstorage:\n  sql: {type: postgres, host: pg, user: llama}\ndisabled: ' +
        '[fileProcessors]',
    );
    expect(outcome.problems.filter((p) => (p.severity ?? 'error') === 'error')).toEqual([]);
    const config = configOf(outcome) as unknown as Record<string, any>;
    expect(config.storage.backends.sql_default).toEqual({ type: 'sql_postgres', host: 'pg', user: 'llama' });
    expect(config.apis).not.toContain('file_processors');
    expect(config.registered_resources.shields.at(-1)).toEqual({ shield_id: 'code-scanner', provider_id: 'code-scanner', provider_shield_id: 'code-scanner' });
  });
});

describe('serialisation', () => {
  it('is deterministic and hashed with sha256', () => {
    const spec = 'distribution: {name: starter}\nproviders:\n  inference: {provider: vllm, endpoint: "http://a/v1"}';
    const a = generate(spec);
    const b = generate(spec);
    expect(a.ok && b.ok).toBe(true);
    if (a.ok && b.ok) {
      expect(a.config.text).toBe(b.config.text);
      expect(a.config.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(a.config.hash).toBe(b.config.hash);
    }
  });

  it('env names are upper case with anything outside [A-Z0-9_] turned into _', () => {
    expect(envName('vllm-primary', 'api.key')).toBe('LLSD_VLLM_PRIMARY_API_KEY');
  });
});
