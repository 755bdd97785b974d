// Issue 4, "a test per provider row": for every provider of configs/providers.yaml with a URL or
// credential key, in each release the table has field lists for, an LLSD setting `endpoint` and
// `apiKey` gets exactly that provider's own keys for that release, and no other key. The expected
// keys are written out here from the notes (§3.2 and the "pre-v0.4.0" column), not computed.
import { describe, expect, it } from 'vitest';
import type { ProviderApi } from '../../src/api/llsd-v1alpha2.js';
import { providerTable, type ProviderRow } from '../../src/catalog/catalog.js';
import { existsIn, fieldsIn, providerKeys } from '../../src/config/providers.js';
import type { Plan } from '../../src/plan/plan.js';
import { base02, base03, configOf, generate, inlinePlan, profile02, profile03, starterPlan } from './plan-fixtures.js';

type Keys = [url: string | null, credential: string | null];

/** Inference providers before 0.4.0 (notes §3.2): `url`, and two special names. */
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
  'inference remote::azure': ['api_base', 'api_key'],
  'inference remote::tgi': ['url', null],
  // AWS key pairs only (the bearer api_key came in 0.4.0): not one value, so no apiKey.
  'inference remote::bedrock': [null, null],
  // access_token came in 0.8.0; before, Application Default Credentials only.
  'inference remote::vertexai': [null, null],
};

/** Where a release's keys differ from the newest release's (the table's urlKey/credentialKey). */
const differences: Record<string, Record<string, Keys>> = {
  '0.7.1': { 'inference remote::vertexai': [null, null] },
  '0.3.5': before04,
  '0.2.24': before04,
};

const expectedKeys = (row: ProviderRow, release: string): Keys =>
  differences[release]?.[`${row.api} ${row.type}`] ?? [row.urlKey, row.credentialKey];

const crApis: Record<string, ProviderApi> = { inference: 'inference', safety: 'safety', vector_io: 'vectorIo', tool_runtime: 'toolRuntime', telemetry: 'telemetry' };
/** Types the CR can name (`provider` allows one `::`); others are checked on the key choice alone. */
const renderable = (row: ProviderRow) => Object.hasOwn(crApis, row.api) && /^(remote|inline)::[a-z0-9][-a-z0-9_.]*$/.test(row.type);

const endpoint = 'http://probe.svc:8000/v1';
const spec = (row: ProviderRow, fields: string) => `distribution: {name: starter}\nproviders:\n  ${crApis[row.api]}: {id: probe, provider: "${row.type}"${fields}}`;

const releases: Array<{ release: string; plan: (spec: string) => Plan }> = [
  { release: '0.7.1', plan: (s) => starterPlan(s) },
  { release: '0.3.5', plan: (s) => inlinePlan(s, '0.3.5', profile03(), base03) },
  { release: '0.2.24', plan: (s) => inlinePlan(s, '0.2.24', profile02(), base02) },
];

const rowsWithKeys = providerTable().filter((row) => row.urlKey !== null || row.credentialKey !== null);

for (const { release, plan } of releases) {
  const rows = rowsWithKeys.filter((row) => existsIn(row, release));

  describe(`llama-stack ${release}`, () => {
    it('covers the providers the release has', () => {
      expect(rows.length).toBeGreaterThan(20);
      for (const key of Object.keys(differences[release] ?? {})) expect(rows.map((r) => `${r.api} ${r.type}`)).toContain(key);
    });

    describe.each(rows.map((row) => [`${row.api} ${row.type}`, row] as const))('%s', (_, row) => {
      const [url, credential] = expectedKeys(row, release);

      it('has its keys in the field list the table holds for the release', () => {
        expect(providerKeys(row, release)).toMatchObject({ urlKey: url, credentialKey: credential });
        const fields = fieldsIn(row, release);
        if (fields) for (const key of [url, credential]) if (key !== null) expect(fields).toContain(key);
      });

      if (!renderable(row)) return;

      it('an LLSD with endpoint and apiKey gets exactly those keys, or an error where the release has none', () => {
        const fields = `${row.urlKey ? `, endpoint: "${endpoint}"` : ''}${row.credentialKey ? ', apiKey: {name: probe-creds, key: key}' : ''}`;
        const outcome = generate(plan(spec(row, fields)));
        const base = ['spec', 'providers', crApis[row.api]];
        const expectedErrors = [
          ...(row.urlKey && url === null ? [[...base, 'endpoint']] : []),
          ...(row.credentialKey && credential === null ? [[...base, 'apiKey']] : []),
        ];
        expect(outcome.problems.filter((p) => (p.severity ?? 'error') === 'error').map((p) => p.path)).toEqual(expectedErrors);
        if (expectedErrors.length > 0) {
          for (const problem of outcome.problems) expect(problem.message).toMatch(/^cannot be set for /);
          return;
        }
        const entry = (configOf(outcome).providers[row.api] as Array<Record<string, any>>).find((p) => p.provider_id === 'probe');
        const expected: Record<string, string> = {};
        if (url !== null) expected[url] = endpoint;
        if (credential !== null) expected[credential] = '${env.LLSD_PROBE_API_KEY}';
        // Keys the server requires with no default (persistence, …) come from the base's entry of
        // the same type (seedFromSameType); they are neither URL nor credential keys.
        const seeded = Object.fromEntries((row.requiredKeys ?? []).filter((key) => key !== url && key !== credential && entry?.config?.[key] !== undefined).map((key) => [key, entry?.config?.[key]]));
        expect(entry).toEqual({ provider_id: 'probe', provider_type: row.type, config: { ...expected, ...seeded } });
        for (const key of Object.keys(seeded)) expect(['persistence', 'db_path', 'kvstore', 'metadata_store'], key).toContain(key);
      });
    });
  });
}

describe('release-aware keys, spelled out', () => {
  const row = (api: string, type: string) => providerTable().find((r) => r.api === api && r.type === type) as ProviderRow;

  it('vLLM: base_url/api_token from 0.4.0 (0.4.4 takes the 0.7.1 list), url/api_token before', () => {
    expect(providerKeys(row('inference', 'remote::vllm'), '0.8.0')).toMatchObject({ urlKey: 'base_url', credentialKey: 'api_token' });
    expect(providerKeys(row('inference', 'remote::vllm'), '0.4.4')).toMatchObject({ urlKey: 'base_url', credentialKey: 'api_token' });
    expect(providerKeys(row('inference', 'remote::vllm'), '0.3.0')).toMatchObject({ urlKey: 'url', credentialKey: 'api_token' });
    expect(providerKeys(row('inference', 'remote::vllm'), '0.2.14')).toMatchObject({ urlKey: 'url', credentialKey: 'api_token' });
  });

  it('a provider exists in the releases between those the table saw it in, before the oldest one, and before its removal', () => {
    expect(existsIn(row('inference', 'remote::vllm'), '0.2.14')).toBe(true);
    expect(existsIn(row('inference', 'remote::vllm'), '0.4.4')).toBe(true);
    expect(existsIn(row('tool_runtime', 'inline::rag-runtime'), '0.6.1')).toBe(true);
    expect(existsIn(row('tool_runtime', 'inline::rag-runtime'), '0.7.1')).toBe(false);
    expect(existsIn(row('tool_runtime', 'inline::file-search'), '0.2.24')).toBe(false);
    expect(existsIn(row('vector_io', 'remote::elasticsearch'), '0.3.5')).toBe(false);
    expect(fieldsIn(row('inference', 'remote::vllm'), '0.2.14')).toEqual(row('inference', 'remote::vllm').fieldsInOlderReleases?.['0.2.24']);
  });

  it('bedrock before 0.4.0: apiKey is an error that names the AWS keys to give in secretRefs', () => {
    const outcome = generate(inlinePlan('distribution: {name: x}\nproviders:\n  inference: {provider: bedrock, apiKey: {name: a, key: b}}', '0.3.5', profile03(), base03));
    expect(outcome.problems).toEqual([
      {
        path: ['spec', 'providers', 'inference', 'apiKey'],
        message:
          "cannot be set for remote::bedrock: it takes no API key in llama-stack 0.3.5; remove `apiKey` or use `secretRefs` with the provider's own keys (aws_access_key_id, aws_secret_access_key, aws_session_token)",
      },
    ]);
  });

  it('an old-release endpoint is written as is: /v1 is completed only for 0.4.0+ base_url', () => {
    const outcome = generate(inlinePlan('distribution: {name: x}\nproviders:\n  inference: {provider: ollama, endpoint: "http://ollama:11434"}', '0.3.5', profile03(), base03));
    expect(outcome.problems).toEqual([]);
    expect(configOf(outcome).providers.inference.at(-1)).toEqual({ provider_id: 'ollama', provider_type: 'remote::ollama', config: { url: 'http://ollama:11434' } });
  });
});
