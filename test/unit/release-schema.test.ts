import { describe, expect, it } from 'vitest';
import { checkReleaseSchema, type SchemaProblem } from '../../src/core/release-schema.js';

type Config = Record<string, unknown>;

/** The problems without `kind` (what the judge reads to tell a base's ignored keys apart; asserted where a test is about it). */
function check(config: Config, release: string, options: { env?: string[]; source?: 'generated' | 'override' } = {}): Array<Omit<SchemaProblem, 'kind'>> {
  const context = { release, catalogRelease: release, containerEnv: new Set(options.env ?? []), source: options.source ?? 'generated' } as const;
  return checkReleaseSchema(config, context).map(({ kind: _kind, ...rest }) => rest);
}

/** A 0.7.1 config with one provider of `api`/`type` and its `config`, valid but for what a test adds. */
function withProvider(api: string, type: string, config: Config, extra: Config = {}): Config {
  return { version: 2, distro_name: 'test', providers: { [api]: [{ provider_id: 'p', provider_type: type, config }] }, ...extra };
}
const vllm = (config: Config, extra: Config = {}): Config => withProvider('inference', 'remote::vllm', { base_url: 'http://vllm:8000/v1', ...config }, extra);

type Problem = Omit<SchemaProblem, 'kind'>;

/** The one problem found (fails when there are none or several). */
function only(problems: Problem[]): Problem {
  expect(problems, JSON.stringify(problems, null, 2)).toHaveLength(1);
  return problems[0] as Problem;
}

describe('release schema: keys the release does not define', () => {
  it('a provider config key, with the closest key', () => {
    const p = only(check(vllm({ max_tokenz: 10 }), '0.7.1'));
    expect(p).toEqual({
      severity: 'error',
      path: 'providers.inference[0].config.max_tokenz',
      message: 'is not a remote::vllm setting in llama-stack 0.7.1; the server silently ignores it. Did you mean `max_tokens`?',
    });
  });

  it('a provider config key with nothing close lists the keys the provider reads', () => {
    const p = only(check(vllm({ zzzzzzzz: 1 }), '0.7.1'));
    expect(p.path).toBe('providers.inference[0].config.zzzzzzzz');
    expect(p.message).toMatch(/It reads: allowed_models, refresh_models, api_token, network, base_url/);
  });

  it('a top-level key', () => {
    const p = only(check(vllm({}, { servre: { port: 8321 } }), '0.7.1'));
    expect(p.path).toBe('servre');
    expect(p.message).toBe('is not a top-level setting in llama-stack 0.7.1; the server silently ignores it. Did you mean `server`?');
  });

  it('a key under server and under storage', () => {
    const problems = check(vllm({}, { server: { prot: 8321 }, storage: { bakends: {} } }), '0.7.1');
    expect(problems.map((p) => [p.path, p.message])).toEqual([
      ['server.prot', 'is not a `server` setting in llama-stack 0.7.1; the server silently ignores it. Did you mean `port`?'],
      ['storage.bakends', 'is not a `storage` setting in llama-stack 0.7.1; the server silently ignores it. Did you mean `backends`?'],
    ]);
  });

  it('a key of the provider entry itself', () => {
    const config = vllm({});
    ((config.providers as Config).inference as Config[])[0]!.confg = {};
    const p = only(check(config, '0.7.1'));
    expect(p.path).toBe('providers.inference[0].confg');
    expect(p.message).toMatch(/^is not a key of a provider entry in llama-stack 0\.7\.1; .*Did you mean `config`\?$/);
  });

  it('in an overrideConfig an unknown key is a warning, a wrong type still an error', () => {
    const problems = check(vllm({ max_tokenz: 10, max_tokens: 'many' }), '0.7.1', { source: 'override' });
    expect(problems.map((p) => [p.severity, p.path])).toEqual([
      ['warning', 'providers.inference[0].config.max_tokenz'],
      ['error', 'providers.inference[0].config.max_tokens'],
    ]);
  });
});

describe('release schema: required fields', () => {
  it('vertexai has no default project in 0.8.0', () => {
    const p = only(check(withProvider('inference', 'remote::vertexai', { location: 'global' }), '0.8.0'));
    expect(p).toEqual({
      severity: 'error',
      path: 'providers.inference[0].config.project',
      message: 'is missing: remote::vertexai has no default for it, so the server rejects the config at startup',
    });
  });

  it('an entry without `config` is checked as the server defaults it, `{}`: its required keys are missing (attacker probe)', () => {
    const config = { version: 2, distro_name: 'test', providers: { inference: [{ provider_id: 'v', provider_type: 'remote::vertexai' }] } };
    expect(only(check(config, '1.3.0'))).toEqual({
      severity: 'error',
      path: 'providers.inference[0].config.project',
      message: 'is missing: remote::vertexai has no default for it, so the server rejects the config at startup',
    });
  });

  it('files inline::localfs needs storage_dir', () => {
    const config = withProvider('files', 'inline::localfs', { metadata_store: { table_name: 'files_metadata', backend: 'sql_default' } });
    const p = only(check(config, '0.7.1'));
    expect(p.path).toBe('providers.files[0].config.storage_dir');
    expect(p.message).toBe('is missing: inline::localfs has no default for it, so the server rejects the config at startup');
  });
});

describe('release schema: types and enums', () => {
  it('a string where an integer belongs', () => {
    const p = only(check(vllm({ max_tokens: 'many' }), '0.7.1'));
    expect(p.path).toBe('providers.inference[0].config.max_tokens');
    expect(p.message).toBe('must be an integer, not "many"');
  });

  it('a string that spells a number or a boolean where one belongs: pydantic\'s lax mode reads it, so no problem (`version: "2"`, as the OGX operator writes it)', () => {
    expect(check({ ...vllm({ max_tokens: '4096', refresh_models: 'yes' }), version: '2' }, '1.3.0')).toEqual([]);
    expect(check(vllm({ max_tokens: ' 4_096 ', refresh_models: 'off' }), '0.7.1')).toEqual([]);
  });

  it('a string that does not spell one stays a problem, beside one that does', () => {
    const problems = check(vllm({ max_tokens: '40.5', refresh_models: 'maybe', api_token: 'x' }), '1.3.0');
    expect(problems.map((p) => [p.path, p.message])).toEqual([
      ['providers.inference[0].config.max_tokens', 'must be an integer, not "40.5"'],
      ['providers.inference[0].config.refresh_models', 'must be a boolean (true or false), not "maybe"'],
    ]);
    expect(check({ ...vllm({}), version: 'two' }, '1.3.0').map((p) => p.message)).toEqual(['must be an integer, not "two"']);
  });

  // The property test found it (seed 1991455437): `constructor` found Object's own function in the
  // table of lax booleans, and the validator threw ("internal error" in every mode).
  it('a string naming an Object member (`constructor`, `toString`) is a type problem, not a crash', () => {
    for (const word of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) {
      const problems = check(vllm({ max_tokens: word, refresh_models: word }), '1.3.0');
      expect(problems.map((p) => p.path)).toEqual(['providers.inference[0].config.max_tokens', 'providers.inference[0].config.refresh_models']);
    }
  });

  it('an integer where a string belongs', () => {
    const p = only(check(withProvider('inference', 'remote::vertexai', { project: 5 }), '0.8.0'));
    expect(p.path).toBe('providers.inference[0].config.project');
    expect(p.message).toBe('must be a string, not 5');
  });

  it('a secret setting of the wrong type is never quoted', () => {
    const p = only(check(vllm({ api_token: 123456 }), '0.7.1'));
    expect(p.path).toBe('providers.inference[0].config.api_token');
    expect(p.message).toBe('must be a string or null, not the value');
    expect(p.message).not.toContain('123456');
  });

  it('a value outside an enum, with the closest value (0.2.14 telemetry sinks)', () => {
    const config = {
      version: 2,
      image_name: 'test',
      providers: { telemetry: [{ provider_id: 'm', provider_type: 'inline::meta-reference', config: { sinks: ['consle'], sqlite_db_path: '/tmp/t.db' } }] },
    };
    const p = only(check(config, '0.2.14'));
    expect(p.path).toBe('providers.telemetry[0].config.sinks[0]');
    expect(p.message).toBe('must be one of `otel_trace`, `otel_metric`, `sqlite`, `console`, not "consle"; did you mean `console`?');
  });

  it('0.2.14 splits a comma-separated sinks string (a pydantic before-validator), so it passes', () => {
    const config = {
      version: '2',
      image_name: 'test',
      providers: {
        telemetry: [
          {
            provider_id: 'm',
            provider_type: 'inline::meta-reference',
            config: { sinks: '${env.TELEMETRY_SINKS:=console,sqlite}', sqlite_db_path: '/tmp/t.db' },
          },
        ],
      },
    };
    expect(check(config, '0.2.14')).toEqual([]);
  });
});

describe('release schema: placeholders', () => {
  it('a placeholder whose value is unknown satisfies an integer field', () => {
    expect(check(vllm({ max_tokens: '${env.VLLM_MAX_TOKENS}' }), '0.7.1')).toEqual([]);
    expect(check(vllm({ max_tokens: '${env.VLLM_MAX_TOKENS:=4096}' }), '0.7.1')).toEqual([]);
  });

  it('a default that is no integer is rejected when the variable is unset, accepted when the container sets it', () => {
    const config = vllm({ max_tokens: '${env.VLLM_MAX_TOKENS:=abc}' });
    const p = only(check(config, '0.7.1'));
    expect(p.path).toBe('providers.inference[0].config.max_tokens');
    expect(p.message).toBe('must be an integer, not "abc"');
    expect(check(config, '0.7.1', { env: ['VLLM_MAX_TOKENS'] })).toEqual([]);
  });

  it('a provider switched off by __disabled__ is not checked', () => {
    const config = vllm({ max_tokens: 'many' });
    ((config.providers as Config).inference as Config[])[0]!.provider_id = '${env.VLLM_URL:=__disabled__}';
    expect(check(config, '0.7.1')).toEqual([]);
    expect(only(check(config, '0.7.1', { env: ['VLLM_URL'] })).path).toBe('providers.inference[0].config.max_tokens');
  });

  it('a conditional provider is judged with its switch set', () => {
    const config = withProvider('inference', 'remote::vertexai', { project: '${env.VERTEX_AI_PROJECT:=}' });
    ((config.providers as Config).inference as Config[])[0]!.provider_id = '${env.VERTEX_AI_PROJECT:+vertexai}';
    expect(check(config, '0.8.0')).toEqual([]);
  });
});

describe('release schema: unions', () => {
  const storage = (backend: Config): Config => vllm({}, { storage: { backends: { kv_default: backend } } });

  it('reports the branch the type tag names', () => {
    const p = only(check(storage({ type: 'kv_sqlite', db_path: 5 }), '0.7.1'));
    expect(p.path).toBe('storage.backends.kv_default.db_path');
    expect(p.message).toBe('must be a string, not 5');
  });

  it('a tag no branch has: the tags accepted, with the closest', () => {
    const p = only(check(storage({ type: 'kv_sqlit', db_path: '/x' }), '0.7.1'));
    expect(p.path).toBe('storage.backends.kv_default.type');
    expect(p.message).toMatch(/^must be one of `kv_redis`, `kv_sqlite`, .*not "kv_sqlit"; did you mean `kv_sqlite`\?$/);
  });

  it('a scalar no branch takes: what the union accepts', () => {
    const p = only(check(vllm({ tls_verify: 3 }), '0.7.1'));
    expect(p.path).toBe('providers.inference[0].config.tls_verify');
    expect(p.message).toBe('must be a boolean (true or false), a string or null, not 3');
  });
});

// Findings are kept by the place of a value and by its text (many LLSDs share most of a config):
// what a check says must still depend only on the config it is given.
describe('release schema: findings kept from earlier checks', () => {
  it('a config changed in place after a check is judged anew', () => {
    const config = vllm({ max_tokens: 10 });
    expect(check(config, '0.7.1')).toEqual([]);
    const settings = ((config.providers as Config).inference as Config[])[0]!.config as Config;
    settings.max_tokenz = 10;
    expect(only(check(config, '0.7.1')).path).toBe('providers.inference[0].config.max_tokenz');
    delete settings.max_tokenz;
    settings.max_tokens = 'many';
    expect(only(check(config, '0.7.1'))).toEqual({
      severity: 'error',
      path: 'providers.inference[0].config.max_tokens',
      message: 'must be an integer, not "many"',
    });
  });

  it('the same provider entry at another index is reported at its own index', () => {
    const bad = { provider_id: 'v', provider_type: 'remote::vllm', config: { base_url: 'http://vllm:8000/v1', max_tokenz: 1 } };
    const ollama = { provider_id: 'o', provider_type: 'remote::ollama', config: { base_url: 'http://ollama:11434' } };
    const at = (entries: Config[]): string[] => check({ version: 2, distro_name: 't', providers: { inference: entries } }, '0.7.1').map((p) => p.path);
    expect(at([bad])).toEqual(['providers.inference[0].config.max_tokenz']);
    expect(at([ollama, bad])).toEqual(['providers.inference[1].config.max_tokenz']);
    expect(at([ollama])).toEqual([]);
  });

  it('findings follow the key order of the config checked, not of an earlier equal-looking one', () => {
    const keys = (server: Config): string[] => check(vllm({}, { server }), '0.7.1').map((p) => p.path);
    expect(keys({ prot: 1, hots: 'x' })).toEqual(['server.prot', 'server.hots']);
    expect(keys({ hots: 'x', prot: 1 })).toEqual(['server.hots', 'server.prot']);
  });

  it('the same section with other container env names is judged with those', () => {
    const config = vllm({ max_tokens: '${env.MAX:=many}' });
    expect(only(check(config, '0.7.1')).path).toBe('providers.inference[0].config.max_tokens');
    expect(check(config, '0.7.1', { env: ['MAX'] })).toEqual([]);
    expect(only(check(config, '0.7.1')).path).toBe('providers.inference[0].config.max_tokens');
  });

  it('a value that is not plain data (a YAML 1.1 timestamp) is judged each time', () => {
    const config = vllm({ base_url: new Date(0) });
    const first = check(config, '0.7.1');
    expect(first.map((p) => p.path)).toEqual(['providers.inference[0].config.base_url']);
    expect(check(config, '0.7.1')).toEqual(first);
  });
});

describe('release schema: infinity and NaN (YAML .inf, .nan) (attacker round 8)', () => {
  it('an integer field refuses .inf, -.inf and .nan, as the server does, and the message writes them as YAML does', () => {
    for (const [value, shown] of [
      [Number.POSITIVE_INFINITY, '.inf'],
      [Number.NEGATIVE_INFINITY, '-.inf'],
      [Number.NaN, '.nan'],
    ] as const) {
      const p = only(check(vllm({ max_tokens: value }), '0.7.1'));
      expect(p).toEqual({ severity: 'error', path: 'providers.inference[0].config.max_tokens', message: `must be an integer, not ${shown}` });
    }
  });

  it('a value JSON writes as null is not mistaken for null: each is judged on its own, in either order', () => {
    const infinityFirst = [
      check(vllm({ max_tokens: Number.POSITIVE_INFINITY }), '0.7.1'),
      check(vllm({ max_tokens: null }), '0.7.1'),
      check(vllm({ max_tokens: 4096 }), '0.7.1'),
    ];
    expect(infinityFirst.map((problems) => problems.map((p) => p.message))).toEqual([['must be an integer, not .inf'], ['must be an integer, not null'], []]);
  });
});
