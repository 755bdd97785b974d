// Issue 16 item 3, "a test per provider type": in every catalog release, for every provider type of
// the release's own registry that the CR can name and llsd-render has key choices for, an LLSD
// setting `endpoint` and `apiKey` gets exactly that release's keys (written out below where they
// differ from the newest release's), every key of the entry is one the release's schema defines,
// and a release without such a key gets an error instead.
import { describe, expect, it } from 'vitest';
import type { ProviderApi } from '../../src/llsd/llsd-v1alpha2.js';
import { catalogReleases, providerFields, providerRegistry, providerTable, type ProviderRow } from '../../src/catalog/catalog.js';
import { profileFor } from '../../src/catalog/versions.js';
import type { Plan } from '../../src/llsd/plan.js';
import { base02, configOf, generate, inlinePlan } from './plan-fixtures.js';

type Keys = [url: string | null, credential: string | null];

/** Inference URL keys before 0.4.0 (notes §3.2): `url`, and `openai_compat_api_base` for the OpenAI-compatible adapters. */
const before04: Record<string, Keys> = {
  'inference remote::ollama': ['url', null],
  'inference remote::vllm': ['url', 'api_token'],
  'inference remote::fireworks': ['url', 'api_key'],
  'inference remote::together': ['url', 'api_key'],
  'inference remote::databricks': ['url', 'api_token'],
  'inference remote::nvidia': ['url', 'api_key'],
  'inference remote::runpod': ['url', 'api_token'],
  'inference remote::groq': ['url', 'api_key'],
  'inference remote::llama-openai-compat': ['openai_compat_api_base', 'api_key'],
  'inference remote::sambanova': ['url', 'api_key'],
  'inference remote::passthrough': ['url', 'api_key'],
  'inference remote::watsonx': ['url', 'api_key'],
  'inference remote::tgi': ['url', null],
  // 0.2.14's OpenAI adapter has no URL setting.
  'inference remote::openai': [null, 'api_key'],
  // AWS key pairs only (the bearer api_key came in 0.4.0): not one value, so no apiKey.
  'inference remote::bedrock': [null, null],
  // 0.2.14's weaviate config has neither key (the client reads env vars).
  'vector_io remote::weaviate': [null, null],
  // 0.2.14's telemetry has otel_trace_endpoint/otel_metric_endpoint, not one endpoint.
  'telemetry inline::meta-reference': [null, null],
};

/** bedrock's bearer token is `api_key` from 0.4.0 and `aws_bedrock_bearer_token` from 1.1 (changes.md). */
const bedrockApiKey: Keys = [null, 'api_key'];

/** Where a release's keys differ from the first candidates (the newest releases' keys). */
const differences: Record<string, Record<string, Keys>> = {
  '0.2.14': before04,
  // vertexai took Application Default Credentials only before access_token.
  '0.4.4': { 'inference remote::vertexai': [null, null], 'inference remote::bedrock': bedrockApiKey },
  '0.7.1': { 'inference remote::bedrock': bedrockApiKey },
  '0.8.0': { 'inference remote::bedrock': bedrockApiKey },
  '1.0.0': { 'inference remote::bedrock': bedrockApiKey },
};

const crApis: Record<string, ProviderApi> = {
  inference: 'inference',
  safety: 'safety',
  vector_io: 'vectorIo',
  tool_runtime: 'toolRuntime',
  telemetry: 'telemetry',
};

const endpoint = 'http://probe.svc:8000/v1';
const spec = (api: string, type: string, fields: string) => `distribution: {name: x}\nproviders:\n  ${crApis[api]}: {id: probe, provider: "${type}"${fields}}`;

/** A minimal base of the release's layout: the keys checked here come from the CR and the release's sample only. */
function planFor(release: string, llsd: string): Plan {
  const profile = profileFor(release);
  if (!profile) throw new Error(`no release profile for ${release}`);
  const base = profile.layout === 'top-level-stores' ? base02 : `version: 2\n${profile.nameKey}: test\napis: []\nproviders: {}\n`;
  return inlinePlan(llsd, release, profile, base);
}

const choices = providerTable().filter((row) => (row.urlKeys !== undefined || row.credentialKeys !== undefined) && Object.hasOwn(crApis, row.api));

for (const release of catalogReleases()) {
  const rows = choices.filter((row) => Object.hasOwn(providerRegistry(release)[row.api] ?? {}, row.type));

  describe(`llama-stack ${release}`, () => {
    it('covers the providers with key choices that the release has', () => {
      expect(rows.length).toBeGreaterThan(15);
      for (const key of Object.keys(differences[release] ?? {})) expect(rows.map((r) => `${r.api} ${r.type}`)).toContain(key);
    });

    describe.each(rows.map((row) => [`${row.api} ${row.type}`, row] as const))('%s', (name, row: ProviderRow) => {
      const [url, credential] = differences[release]?.[name] ?? [row.urlKeys?.[0] ?? null, row.credentialKeys?.[0] ?? null];

      it('an LLSD with endpoint and apiKey gets exactly the release keys, or an error where the release has none', () => {
        const fields = `${row.urlKeys ? `, endpoint: "${endpoint}"` : ''}${row.credentialKeys ? ', apiKey: {name: probe-creds, key: key}' : ''}`;
        const outcome = generate(planFor(release, spec(row.api, row.type, fields)));
        const base = ['spec', 'providers', crApis[row.api]];
        const expectedErrors = [
          ...(row.urlKeys && url === null ? [[...base, 'endpoint']] : []),
          ...(row.credentialKeys && credential === null ? [[...base, 'apiKey']] : []),
        ];
        const errors = outcome.problems.filter((p) => (p.severity ?? 'error') === 'error');
        expect(errors.map((p) => p.path)).toEqual(expectedErrors);
        if (expectedErrors.length > 0) {
          for (const problem of errors)
            expect(problem.message).toMatch(
              new RegExp(
                `^cannot be set for ${row.type.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: it (has no URL setting|takes no API key) in ${profileFor(release)?.serverName ?? 'llama-stack'} ${release};`,
              ),
            );
          return;
        }
        const entry = (configOf(outcome).providers[row.api] as Array<Record<string, any>>).find((p) => p.provider_id === 'probe');
        expect(entry?.provider_type).toBe(row.type);
        const config = (entry?.config ?? {}) as Record<string, unknown>;
        if (url !== null) expect(config[url]).toBe(endpoint);
        if (credential !== null) expect(config[credential]).toBe('${env.LLSD_PROBE_API_KEY}');
        // Nothing but the release's own keys: the CR's and those of the release's sample config.
        const known = providerFields(release, row.api, row.type)?.keys ?? [];
        expect(Object.keys(config).filter((key) => !known.includes(key))).toEqual([]);
        // The CR's secret goes to one key only.
        expect(Object.entries(config).filter(([, v]) => v === '${env.LLSD_PROBE_API_KEY}').map(([k]) => k)).toEqual(credential === null ? [] : [credential]);
      });
    });
  });
}

describe('release-aware keys, spelled out', () => {
  it('bedrock: the bearer token is api_key at 0.8.0 and aws_bedrock_bearer_token from 1.1.3', () => {
    const llsd = 'distribution: {name: x}\nproviders:\n  inference: {provider: bedrock, apiKey: {name: a, key: b}}';
    expect(configOf(generate(planFor('0.8.0', llsd))).providers.inference[0].config.api_key).toBe('${env.LLSD_BEDROCK_API_KEY}');
    const config = configOf(generate(planFor('1.1.3', llsd))).providers.inference[0].config;
    expect(config.aws_bedrock_bearer_token).toBe('${env.LLSD_BEDROCK_API_KEY}');
    expect(config.api_key).toBeUndefined();
  });

  it('bedrock at 0.2.14: apiKey is an error that names the AWS keys to give in secretRefs', () => {
    const outcome = generate(
      inlinePlan('distribution: {name: x}\nproviders:\n  inference: {provider: bedrock, apiKey: {name: a, key: b}}', '0.2.14', profileFor('0.2.14')!, base02),
    );
    expect(outcome.problems).toEqual([
      {
        path: ['spec', 'providers', 'inference', 'apiKey'],
        message:
          "cannot be set for remote::bedrock: it takes no API key in llama-stack 0.2.14; remove `apiKey` or use `secretRefs` with the provider's own keys " +
            "(aws_access_key_id, aws_secret_access_key, aws_session_token)",
      },
    ]);
  });

  it('an old-release endpoint is written as is: /v1 is completed only for 0.4.0+ base_url', () => {
    const outcome = generate(
      inlinePlan(
        'distribution: {name: x}\nproviders:\n  inference: {provider: ollama, endpoint: "http://ollama:11434"}',
        '0.2.14',
        profileFor('0.2.14')!,
        base02,
      ),
    );
    expect(outcome.problems).toEqual([]);
    // The rest of the entry is 0.2.14's own sample config for ollama.
    expect(configOf(outcome).providers.inference.at(-1)).toEqual({
      provider_id: 'ollama',
      provider_type: 'remote::ollama',
      config: { url: 'http://ollama:11434', raise_on_connect_error: true },
    });
  });

  it('0.4.4 completes a bare-host base_url with /v1', () => {
    const outcome = generate(planFor('0.4.4', 'distribution: {name: x}\nproviders:\n  inference: {provider: ollama, endpoint: "http://ollama:11434"}'));
    expect(configOf(outcome).providers.inference[0].config.base_url).toBe('http://ollama:11434/v1');
    expect(outcome.problems.map((p) => [p.severity, p.path.join('.')])).toEqual([['info', 'spec.providers.inference.endpoint']]);
  });
});
