// Issue 15, "Secrets and honesty of output": a credential written as a value in `settings`, or a
// password in a URL, would land in the ConfigMap; like a literal `apiKey`, it is an error that
// names the field and the way to take the value from a Secret, and never quotes the value.
import { describe, expect, it } from 'vitest';
import { configOf, generate, starterPlan } from './plan-fixtures.js';

const SECRET = 'sk-Zq81literalvalue';
const render = (provider: string) => generate(starterPlan(`distribution: {name: starter}\nproviders:\n  ${provider}`));

function expectOneError(provider: string, path: string, message: RegExp): void {
  const outcome = render(provider);
  expect(outcome.ok).toBe(false);
  const errors = outcome.problems.filter((p) => (p.severity ?? 'error') === 'error');
  expect(errors.map((p) => [p.path.join('.'), p.message])).toEqual([[path, expect.stringMatching(message)]]);
  expect(JSON.stringify(outcome.problems)).not.toContain(SECRET);
  expect(JSON.stringify(outcome.problems)).not.toContain('PASS');
}

describe('literal credentials in provider settings', () => {
  it("vLLM's api_token (its credential key) names `apiKey` and `secretRefs`", () => {
    expectOneError(
      `inference: {provider: vllm, endpoint: "http://vllm:8000/v1", settings: {api_token: ${SECRET}}}`,
      'spec.providers.inference.settings.api_token',
      /^must reference a Secret, not hold the value: api_token is a credential, and a value written here would end up in the ConfigMap; remove it from `settings` and write `apiKey: \{name: <secret>, key: <key>\}` \(or `secretRefs: \{api_token: \{name: <secret>, key: <key>\}\}`\)$/,
    );
  });

  it("openai's api_key", () => {
    expectOneError(
      `inference: {provider: openai, settings: {api_key: ${SECRET}}}`,
      'spec.providers.inference.settings.api_key',
      /api_key is a credential.*`apiKey: /,
    );
  });

  it('a credential setting that is not the credential key names `secretRefs` only; a number is a value too', () => {
    expectOneError(
      'vectorIo: {provider: oci, settings: {ewallet_password: 123456}}',
      'spec.providers.vectorIo.settings.ewallet_password',
      /ewallet_password is a credential.*; remove it from `settings` and write `secretRefs: \{ewallet_password: \{name: <secret>, key: <key>\}\}`$/,
    );
  });

  it('a credential-named key that is no setting of the provider names its credential and `apiKey` (secretRefs with that key was refused next)', () => {
    expectOneError(
      `inference: {provider: vllm, endpoint: "http://vllm:8000/v1", settings: {apikey: ${SECRET}}}`,
      'spec.providers.inference.settings.apikey',
      /apikey is a credential.*; remove it from `settings` \(apikey is no setting of this provider, whose credential is api_token\) and write `apiKey: \{name/,
    );
    expectOneError('inference: {provider: openai, settings: {password: 123456}}', 'spec.providers.inference.settings.password', /whose credential is api_key/);
  });

  it('a nested credential names `secretKeyRef` in its place', () => {
    expectOneError(
      `vectorIo: {provider: faiss, settings: {persistence: {backend: kv_default, namespace: v, password: ${SECRET}}}}`,
      'spec.providers.vectorIo.settings.persistence.password',
      /password is a credential.*; write `\{secretKeyRef: \{name: <secret>, key: <key>\}\}` in its place$/,
    );
  });

  it('placeholders, empty values and Secret references are not literals', () => {
    const outcome = render(
      'inference: {provider: openai, settings: {api_key: "${env.MY_OPENAI_KEY}", password: "", token: {secretKeyRef: {name: creds, key: token}}}}',
    );
    expect(outcome.problems).toEqual([]);
    const openai = (configOf(outcome).providers.inference as Array<{ provider_id: string; config: Record<string, unknown> }>).find(
      (p) => p.provider_id === 'openai',
    );
    expect(openai?.config).toMatchObject({ api_key: '${env.MY_OPENAI_KEY}', token: '${env.LLSD_OPENAI_TOKEN}' });
  });
});

describe('a credential hidden in a placeholder (attacker probe)', () => {
  it.each([
    ['a default', `\${env.TOK:=${SECRET}}`],
    ['text around a placeholder', `x\${env.TOK:+y}${SECRET}`],
    ['a `:+` value', `\${env.TOK:+${SECRET}}`],
    ['a lower-case name the server does not substitute', `\${env.tok:=${SECRET}}`],
  ])('%s is the value itself: an error that never quotes it', (_, value) => {
    expectOneError(
      `inference: {provider: vllm, endpoint: "http://vllm:8000/v1", settings: {api_token: "${value}"}}`,
      'spec.providers.inference.settings.api_token',
      /^must reference a Secret, not hold the value/,
    );
  });

  it('a placeholder with an empty default is not a value', () => {
    expect(
      render('inference: {provider: openai, settings: {api_key: "${env.MY_OPENAI_KEY:=}"}}').problems.filter((p) => (p.severity ?? 'error') === 'error'),
    ).toEqual([]);
  });
});

describe('a password in a URL', () => {
  it('in `endpoint`: move the credential to `apiKey` or `secretRefs`', () => {
    expectOneError(
      'inference: {provider: vllm, endpoint: "http://user:PASS@vllm:8000/v1"}',
      'spec.providers.inference.endpoint',
      /^must not hold a password: the `user:password@` part of a URL would end up in the ConfigMap; remove it from the URL and give the credential from a Secret in `apiKey` or `secretRefs`$/,
    );
  });

  it('in a settings value, for a provider without an API key: `secretRefs` only', () => {
    expectOneError(
      'inference: {provider: ollama, endpoint: "http://ollama:11434", settings: {proxy: {url: "http://u:PASS@proxy:3128"}}}',
      'spec.providers.inference.settings.proxy.url',
      /^must not hold a password: .* in `secretRefs`$/,
    );
  });

  it('a user name alone is refused too: a token is often written there (`https://TOKEN@host`)', () => {
    const errors = render('inference: {provider: vllm, endpoint: "http://user@vllm:8000/v1"}').problems.filter((p) => (p.severity ?? 'error') === 'error');
    expect(errors.map((p) => p.message)).toEqual([expect.stringMatching(/^must not hold a password: the `user:password@` part of a URL/)]);
  });
});

describe('credentials the attacker probe found passing or echoed', () => {
  it.each([
    'Password',
    'API_KEY',
    'apiKey',
    'passwd',
    'secret_key',
    'client_secret',
    'auth_token',
    'bearer_token',
    'private_key',
    'hf_token',
    'openai_api_key',
    'access_key',
    'credentials',
    'secret',
    'pwd',
    'pat',
    'signing_key',
    'encryption_key',
    'cookie',
  ])('settings key %s (any case and spelling of a credential name) is refused', (key) => {
    expectOneError(
      `inference: {provider: openai, settings: {${key}: ${SECRET}}}`,
      `spec.providers.inference.settings.${key}`,
      new RegExp(`^must reference a Secret, not hold the value: ${key} is a credential`),
    );
  });

  it('an Authorization header is a credential too', () => {
    expectOneError(
      `inference: {provider: openai, settings: {extra_headers: {Authorization: "Bearer ${SECRET}"}}}`,
      'spec.providers.inference.settings.extra_headers.Authorization',
      /Authorization is a credential/,
    );
  });

  it('max_tokens, a count, and names that only mention a credential are no credential', () => {
    const outcome = render(
      'inference: {provider: openai, settings: {max_tokens: 4096, token_limit: 5, tokenizer: x, password_file: /f, credentials_path: /p, tls_verify: true, api_key: "${env.OPENAI_API_KEY:=}"}}',
    );
    expect(outcome.problems.filter((p) => (p.severity ?? 'error') === 'error')).toEqual([]);
  });

  it.each([
    'user:PASS123@vllm.llama.svc:8000/v1',
    '//u:PASS123@h/v1',
    'ftp://u:PASS123@h/v1',
    'http://u:PASS123@h:99999/v1',
    'http://h/v1?token=PASS123',
    'http://PASS123@h/v1',
    'http://u%3APASS123@h/v1',
    'http://h/v1?key=PASS123',
    'http://h/v1?jwt=PASS123',
    'http://h/v1;token=PASS123',
  ])('endpoint %s: refused for the password, which no message quotes', (endpoint) => {
    const outcome = render(`inference: {provider: vllm, endpoint: "${endpoint}"}`);
    expect(outcome.ok).toBe(false);
    expect(outcome.problems.map((p) => p.message)).toContainEqual(
      expect.stringMatching(/[?;]/.test(endpoint) ? /^must not hold a credential: a URL query parameter/ : /^must not hold a password/),
    );
    expect(JSON.stringify(outcome.problems)).not.toContain('PASS123');
  });
});
