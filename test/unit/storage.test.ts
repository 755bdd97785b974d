// spec.storage → storage backends (0.3.0+) or the old top-level and per-provider stores (≤ 0.2)
// (docs/config-generation.md, FR-050–FR-053; notes §1.4, §1.7).
import { describe, expect, it } from 'vitest';
import type { ReleaseProfile } from '../../src/catalog/catalog.js';
import { checkStartupRules } from '../../src/core/startup/index.js';
import { profileFor } from '../../src/catalog/versions.js';
import { base02, base03, configOf, generate, inlinePlan, problemLines, profile02, profile03, starterPlan, type Config } from './plan-fixtures.js';

const starter = (storage: string) => generate(starterPlan(`distribution: {name: starter}\n${storage}`));
const old = (storage: string, base = base02) => generate(inlinePlan(`distribution: {name: x}\n${storage}`, '0.2.24', profile02(), base));
const envOf = (outcome: ReturnType<typeof generate>) =>
  outcome.ok ? outcome.config.env.map(({ name, secretName, key }) => `${name}=${secretName}/${key}`) : [];

/** Every `{backend: name, …}` reference in the config, with where it is. */
function backendReferences(value: unknown, path = ''): Array<{ path: string; reference: Record<string, unknown> }> {
  if (Array.isArray(value)) return value.flatMap((v, i) => backendReferences(v, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  const object = value as Record<string, unknown>;
  if (typeof object.backend === 'string') return [{ path, reference: object }];
  return Object.entries(object).flatMap(([key, child]) => backendReferences(child, path ? `${path}.${key}` : key));
}

describe('0.3.0+ layout (starter 0.7.1)', () => {
  const base = configOf(starter('')).storage as Config;

  it('without spec.storage the base storage is untouched (FR-053)', () => {
    expect(base.backends.kv_default).toEqual({ type: 'kv_sqlite', db_path: '${env.SQLITE_STORE_DIR:=~/.llama/distributions/starter}/kvstore.db' });
    expect(configOf(starter('storage: {}')).storage).toEqual(base);
  });

  it('a redis kv store replaces kv_default in place: same name, host and port from the endpoint; sql and the stores stay', () => {
    const outcome = starter('storage:\n  kv: {type: redis, endpoint: "redis://redis.storage.svc:6380"}');
    expect(outcome.problems).toEqual([]);
    const storage = configOf(outcome).storage as Config;
    expect(Object.keys(storage.backends)).toEqual(['kv_default', 'sql_default']);
    expect(storage.backends.kv_default).toEqual({ type: 'kv_redis', host: 'redis.storage.svc', port: 6380 });
    expect(storage.backends.sql_default).toEqual(base.backends.sql_default);
    expect(storage.stores).toEqual(base.stores);
  });

  it('every store and provider reference still names a backend of its family', () => {
    const config = configOf(
      starter('storage:\n  kv: {type: redis, host: redis}\n  sql: {type: postgres, host: pg, user: llama, password: {name: pg, key: password}}'),
    );
    const references = backendReferences(config);
    expect(references.length).toBeGreaterThan(15);
    for (const { path, reference } of references) {
      // kv references carry a namespace, sql references a table_name.
      const family = 'table_name' in reference ? 'sql' : 'kv';
      expect(config.storage.backends[reference.backend as string]?.type, `${path} → ${String(reference.backend)}`).toMatch(new RegExp(`^${family}_`));
    }
    expect(config.storage.backends.kv_default).toEqual({ type: 'kv_redis', host: 'redis' });
  });

  it('postgres: host, port, database → db, user, password; Secret keys become LLSD_STORAGE_SQL_<FIELD> placeholders', () => {
    const outcome = starter(
      'storage:\n  sql:\n    type: postgres\n    host: {secretKeyRef: {name: pg, key: host}}\n    port: {secretKeyRef: {name: pg, key: port}}\n    ' +
        'database: llamastack\n    user: llama\n    password: {secretKeyRef: {name: pg, key: password}}',
    );
    expect(configOf(outcome).storage.backends.sql_default).toEqual({
      type: 'sql_postgres',
      host: '${env.LLSD_STORAGE_SQL_HOST}',
      port: '${env.LLSD_STORAGE_SQL_PORT}',
      db: 'llamastack',
      user: 'llama',
      password: '${env.LLSD_STORAGE_SQL_PASSWORD}',
    });
    expect(envOf(outcome)).toEqual(['LLSD_STORAGE_SQL_HOST=pg/host', 'LLSD_STORAGE_SQL_PORT=pg/port', 'LLSD_STORAGE_SQL_PASSWORD=pg/password']);
  });

  it('a port, database, user or password from a Secret becomes an env var, with no warning here (the Secret check says what it sees: storage-secret-values.test.ts)', () => {
    const outcome = starter(
      'storage:\n  kv:\n    type: postgres\n    host: pg\n    port: {secretKeyRef: {name: pg, key: port}}\n    database: {secretKeyRef: {name: pg, key: ' +
        'db}}\n    user: {secretKeyRef: {name: pg, key: user}}\n    password: {name: pg, key: password}',
    );
    expect(outcome.ok).toBe(true);
    expect(outcome.problems).toEqual([]);
    expect(envOf(outcome)).toEqual([
      'LLSD_STORAGE_KV_PORT=pg/port',
      'LLSD_STORAGE_KV_DATABASE=pg/db',
      'LLSD_STORAGE_KV_USER=pg/user',
      'LLSD_STORAGE_KV_PASSWORD=pg/password',
    ]);
  });

  it('sqlite files go on the workload volume, under the image home', () => {
    const storage = configOf(starter('storage:\n  kv: {type: sqlite}\n  sql: {}')).storage as Config;
    expect(storage.backends).toEqual({
      kv_default: { type: 'kv_sqlite', db_path: '/.llama/kvstore.db' },
      sql_default: { type: 'sql_sqlite', db_path: '/.llama/sql_store.db' },
    });
  });

  it('several base backends of a family each get the CR backend, with their own sqlite file', () => {
    const base = base03.replace('    sql_default:\n', '    kv_extra:\n      type: kv_sqlite\n      db_path: /tmp/extra.db\n    sql_default:\n');
    const storage = configOf(generate(inlinePlan('distribution: {name: x}\nstorage:\n  kv: {}', '0.3.5', profile03(), base))).storage as Config;
    expect(storage.backends.kv_default).toEqual({ type: 'kv_sqlite', db_path: '/.llama/kvstore.db' });
    expect(storage.backends.kv_extra).toEqual({ type: 'kv_sqlite', db_path: '/.llama/kv_extra.db' });
  });

  it('a base without a backend of the family gets one under the name omitted stores default to', () => {
    const base = base03.replace(/ {4}kv_default:\n(?: {6}.*\n)+/, '');
    const storage = configOf(generate(inlinePlan('distribution: {name: x}\nstorage:\n  kv: {type: redis, host: r}', '0.3.5', profile03(), base)))
      .storage as Config;
    expect(Object.keys(storage.backends)).toEqual(['sql_default', 'kv_default']);
    expect(storage.backends.kv_default).toEqual({ type: 'kv_redis', host: 'r' });
  });

  describe('redis takes host and port only', () => {
    it('a password is an error that names the alternatives, not a key the server ignores', () => {
      const outcome = starter('storage:\n  kv: {type: redis, endpoint: "redis://r:6379", password: {name: r, key: p}}');
      expect(problemLines(outcome)).toEqual([
        "error spec.storage.kv.password: is not read by llama-stack's redis backend, which takes only host and port; remove `password` and let only the " +
          "llama-stack pod reach redis (a NetworkPolicy), or use a postgres store, which takes a password",
      ]);
    });

    it.each([
      ['rediss://r:6379', /^uses TLS \(rediss:\/\/\)/],
      ['redis://user:pw@r:6379', /^must not hold a user or password/],
      ['redis://r:6379/2', /^must not choose a database or options/],
      ['r:6379', /^must be `redis:\/\/<host>:<port>`/],
    ])('endpoint %s is an error', (endpoint, message) => {
      const outcome = starter(`storage:\n  kv: {type: redis, endpoint: "${endpoint}"}`);
      expect(outcome.ok).toBe(false);
      expect(outcome.problems).toEqual([{ path: ['spec', 'storage', 'kv', 'endpoint'], message: expect.stringMatching(message) }]);
      expect(outcome.problems[0]?.message).not.toContain('pw');
    });

    it('host and port, the port from a Secret (an int is wanted, so no warning)', () => {
      const outcome = starter('storage:\n  kv: {type: redis, host: redis, port: {secretKeyRef: {name: r, key: port}}}');
      expect(outcome.problems).toEqual([]);
      expect(configOf(outcome).storage.backends.kv_default).toEqual({ type: 'kv_redis', host: 'redis', port: '${env.LLSD_STORAGE_KV_PORT}' });
    });
  });

  it('is deterministic', () => {
    const spec = 'storage:\n  kv: {type: redis, host: r}\n  sql: {type: postgres, host: pg, user: u, password: {name: pg, key: pw}}';
    const a = starter(spec);
    const b = starter(spec);
    expect(a.ok && b.ok && a.config.text === b.config.text).toBe(true);
  });
});

describe('≤ 0.2 layout (top-level stores)', () => {
  it('kv: metadata_store and every provider kv store (faiss kvstore, agents persistence_store) take the CR backend; sql stores stay', () => {
    const outcome = old('storage:\n  kv: {type: postgres, host: pg, database: llama, user: llama, password: {name: pg, key: pw}}');
    const config = configOf(outcome);
    const pg = { type: 'postgres', host: 'pg', db: 'llama', user: 'llama', password: '${env.LLSD_STORAGE_KV_PASSWORD}' };
    expect(config.metadata_store).toEqual(pg);
    expect(config.providers.vector_io[0].config.kvstore).toEqual(pg);
    expect(config.providers.agents[0].config.persistence_store).toEqual(pg);
    expect(config.providers.agents[0].config.responses_store.db_path).toBe('${env.SQLITE_STORE_DIR:=~/.llama/distributions/test}/responses_store.db');
    expect(config.inference_store.db_path).toBe('${env.SQLITE_STORE_DIR:=~/.llama/distributions/test}/inference_store.db');
    expect(config.storage).toBeUndefined();
    expect(envOf(outcome)).toEqual(['LLSD_STORAGE_KV_PASSWORD=pg/pw']);
  });

  it('sql sqlite: inference_store, agents responses_store and files metadata_store on the volume, keeping their file names', () => {
    const config = configOf(old('storage:\n  sql: {type: sqlite}'));
    expect(config.inference_store).toEqual({ type: 'sqlite', db_path: '/.llama/inference_store.db' });
    expect(config.providers.agents[0].config.responses_store).toEqual({ type: 'sqlite', db_path: '/.llama/responses_store.db' });
    expect(config.providers.files[0].config.metadata_store).toEqual({ type: 'sqlite', db_path: '/.llama/files_metadata.db' });
    // telemetry's sqlite_db_path is not a store config
    expect(config.providers.telemetry[0].config.sqlite_db_path).toMatch(/trace_store\.db$/);
  });

  it('kv sqlite: one file per store, registry first', () => {
    const config = configOf(old('storage:\n  kv: {}'));
    expect(config.metadata_store).toEqual({ type: 'sqlite', db_path: '/.llama/registry.db' });
    expect(config.providers.vector_io[0].config.kvstore).toEqual({ type: 'sqlite', db_path: '/.llama/faiss_store.db' });
    expect(config.providers.agents[0].config.persistence_store).toEqual({ type: 'sqlite', db_path: '/.llama/agents_store.db' });
  });

  it('kv redis: {type: redis, host, port}', () => {
    expect(configOf(old('storage:\n  kv: {type: redis, endpoint: "redis://r:6379"}')).metadata_store).toEqual({ type: 'redis', host: 'r', port: 6379 });
  });

  it('the wrapped inference_store form keeps its tuning', () => {
    const base = base02.replace(
      /inference_store:\n(?: {2}.*\n)+/,
      'inference_store:\n  sql_store_config:\n    type: sqlite\n    db_path: /x.db\n  num_writers: 2\n',
    );
    const config = configOf(old('storage:\n  sql: {type: postgres, host: pg, user: u}', base));
    expect(config.inference_store).toEqual({ sql_store_config: { type: 'postgres', host: 'pg', user: 'u' }, num_writers: 2 });
  });

  it('a base without any SQL store: inference_store is not added (older 0.2 releases do not read it), and the CR is told', () => {
    const base = base02
      .replace(/inference_store:\n(?: {2}.*\n)+/, '')
      .replace(/  agents:\n(?:  - .*\n|    .*\n)+/, '')
      .replace(/  files:\n(?:  - .*\n|    .*\n)+/, '');
    const outcome = old('storage:\n  sql: {type: postgres, host: pg, user: u}', base);
    expect(problemLines(outcome)).toEqual([
      'warning spec.storage.sql: has no effect: the llama-stack 0.2.24 config of distribution test keeps no SQL store (inference_store, responses_store or ' +
        'files metadata_store); remove it',
    ]);
    expect(configOf(outcome).inference_store).toBeUndefined();
  });

  it('0.3.x (storage backends, no top-level stores)', () => {
    const config = configOf(
      generate(inlinePlan('distribution: {name: x}\nstorage:\n  sql: {type: postgres, host: pg, user: u}', '0.3.5', profile03(), base03)),
    );
    expect(config.storage.backends.sql_default).toEqual({ type: 'sql_postgres', host: 'pg', user: 'u' });
    expect(config.inference_store).toBeUndefined();
    expect(config.metadata_store).toBeUndefined();
  });
});

describe('a base config without a storage block (a RenderConfig or image-label base, 0.4.0+)', () => {
  // The server's defaults for an absent `storage`: sqlite kv_default and sql_default (notes §1.4).
  const render = (storage: string) => {
    const plan = starterPlan(`distribution: {name: starter}\n${storage}`);
    const { storage: _dropped, ...bare } = plan.baseConfig;
    return generate({ ...plan, baseConfig: bare });
  };
  const startupErrors = (outcome: ReturnType<typeof generate>) =>
    outcome.ok
      ? checkStartupRules(outcome.config.value, {
          release: '0.7.1',
          catalogRelease: '0.7.1',
          profile: profileFor('0.7.1') as ReleaseProfile,
          containerEnv: new Set(),
        }).filter((p) => p.severity === 'error')
      : ['not generated'];

  it('the base without its storage block renders as it is, with no storage written', () => {
    const outcome = render('');
    expect(configOf(outcome).storage).toBeUndefined();
    expect(startupErrors(outcome)).toEqual([]);
  });

  it.each([
    ['kv', 'kv: {type: redis, host: r}', { kv_default: { type: 'kv_redis', host: 'r' }, sql_default: { type: 'sql_sqlite', db_path: '/.llama/sql_store.db' } }],
    [
      'sql',
      'sql: {type: postgres, host: pg, user: u}',
      { sql_default: { type: 'sql_postgres', host: 'pg', user: 'u' }, kv_default: { type: 'kv_sqlite', db_path: '/.llama/kvstore.db' } },
    ],
  ])('storage.%s alone: the other family gets its default sqlite backend, as the server would write it', (_family, storage, backends) => {
    const outcome = render(`storage:\n  ${storage}`);
    expect(outcome.problems).toEqual([]);
    expect(configOf(outcome).storage).toEqual({ backends });
    expect(startupErrors(outcome)).toEqual([]);
  });
});
