// `spec.storage` → where the server keeps its state (docs/config-generation.md, FR-050–FR-053; notes §1.4, §1.7).
//
// 0.3.0+ (`storage-backends`): every store and provider (`persistence`, `kvstore`,
// `metadata_store`) names a backend of `storage.backends`, and an omitted store defaults to
// `kv_default`/`sql_default`. The CR's backend therefore replaces each backend of its family in
// place, under the same name: every reference keeps working, nothing else changes.
// ≤ 0.2 (`top-level-stores`): the stores are full configs: the top-level `metadata_store` (kv) and
// `inference_store` (sql), and each provider's own (`kvstore`, `persistence_store`,
// `responses_store`, files' `metadata_store`). Each of the family is replaced by the CR's.
//
// sqlite files go on the workload volume: the image's state directory, or `workload.storage.mountPath`.
// `spec.storage` absent, or a family absent: the base config is left as it is (FR-053), except that a
// base without storage backends gets the server's default backend for the family the CR leaves out.
import { posix } from 'node:path';
import type { FieldProblem } from '../lib/issues.js';
import type { SecretRefInput, StorageBackendInput } from './llsd-v1alpha2.js';
import { isPlainObject, setOwn } from '../lib/objects.js';
import type { Plan } from './plan.js';
import { stateDirectory } from '../core/workload.js';
import { conditionalId } from './providers.js';
import { envName, placeholder, selectorOf, type SecretEnv } from '../core/secrets.js';
import { releaseName } from '../catalog/versions.js';

type Family = 'kv' | 'sql';
type Kind = 'sqlite' | 'redis' | 'postgres';

/**
 * CR field → server key, per kind. The redis backend takes host and port only, in every release
 * (0.3.0+ `kv_redis`, ≤ 0.2 `RedisKVStoreConfig`); postgres takes host, port, db, user, password.
 */
const serverKeys: Record<Kind, ReadonlyArray<readonly [keyof StorageBackendInput, string]>> = {
  sqlite: [],
  redis: [
    ['host', 'host'],
    ['port', 'port'],
  ],
  postgres: [
    ['host', 'host'],
    ['port', 'port'],
    ['database', 'db'],
    ['user', 'user'],
    ['password', 'password'],
  ],
};

/** The CR's backend in server keys, without the sqlite file (that depends on where it goes). */
interface Backend {
  kind: Kind;
  fields: Array<[string, unknown]>;
}

export function applyStorage(config: Record<string, unknown>, plan: Plan, env: SecretEnv[], problems: FieldProblem[]): void {
  const storage = plan.llsd.spec.storage;
  if (!storage) return;
  const files = new Set<string>();
  // Read before the CR's backends are placed: a base without backends leaves both families to the server's defaults.
  const serverDefaults = plan.profile.layout === 'storage-backends' && !hasBackends(config);
  for (const family of ['kv', 'sql'] as const) {
    const input = storage[family];
    if (!input) continue;
    const backend = buildBackend(family, input, env, problems);
    if (!backend) continue;
    const home = stateDirectory(plan);
    if (plan.profile.layout === 'storage-backends') {
      placeBackends(config, family, backend, home, files);
    } else if (placeStores(config, family, backend, home, files) === 0) {
      problems.push({
        severity: 'warning',
        code: 'field-has-no-effect',
        path: ['spec', 'storage', family],
        message: `has no effect: the ${releaseName(plan.release)} config of distribution ${plan.distributionName} keeps no SQL store (inference_store, ` +
          `responses_store or files metadata_store); remove it`,
      });
    }
  }
  if (serverDefaults && hasBackends(config)) writeServerDefaults(config, stateDirectory(plan), files);
}

const hasBackends = (config: Record<string, unknown>): boolean => isPlainObject(config.storage) && isPlainObject(config.storage.backends);

/**
 * A base with no `storage.backends` (a RenderConfig or image-label base) runs on the server's
 * defaults: sqlite `kv_default` and `sql_default`, which every omitted store names. Once the CR
 * writes one family's backend, the server takes no defaults any more, so the other family's
 * default backend is written as the shipped configs write it (`kvstore.db`, `sql_store.db`), on
 * the workload volume like the CR's own sqlite files.
 */
function writeServerDefaults(config: Record<string, unknown>, home: string, used: Set<string>): void {
  const backends = objectAt(objectAt(config, 'storage'), 'backends');
  for (const family of ['kv', 'sql'] as const) {
    const name = `${family}_default`;
    if (Object.hasOwn(backends, name)) continue;
    const file = uniqueFile(family === 'kv' ? 'kvstore' : 'sql_store', used);
    setOwn(backends, name, storeObject(`${family}_sqlite`, { kind: 'sqlite', fields: [] }, posix.join(home, file)));
  }
}

function buildBackend(family: Family, input: StorageBackendInput, env: SecretEnv[], problems: FieldProblem[]): Backend | undefined {
  const path = ['spec', 'storage', family];
  const kind: Kind = input.type ?? 'sqlite';
  // rules.ts has reported fields that do not apply to the kind, connectionString and missing host/user.
  if (kind === 'redis' && input.password !== undefined) {
    problems.push({
      path: [...path, 'password'],
      message:
        "is not read by llama-stack's redis backend, which takes only host and port; remove `password` and let only the llama-stack pod reach redis (a " +
          "NetworkPolicy), or use a postgres store, which takes a password",
    });
    return undefined;
  }
  const given: Partial<Record<keyof StorageBackendInput, unknown>> = { ...input };
  if (kind === 'redis' && input.endpoint !== undefined) {
    const parsed = parseRedisEndpoint(input.endpoint, [...path, 'endpoint'], problems);
    if (!parsed) return undefined;
    given.host = parsed.host;
    if (parsed.port !== undefined) given.port = parsed.port;
  }
  const fields: Array<[string, unknown]> = [];
  for (const [field, key] of serverKeys[kind]) {
    const value = given[field];
    if (value === undefined) continue;
    fields.push([key, serverValue(family, field, value, [...path, field], env)]);
  }
  return { kind, fields };
}

/**
 * A value, or a Secret key as `${env.LLSD_STORAGE_<KV|SQL>_<FIELD>}` (the CR field's name, so the
 * env name is the same in every release).
 *
 * The server converts every value it substituted: one that reads as a number becomes an int or a
 * float, `true`/`false` a bool (notes §2). A port from a Secret is fine (an int is wanted), but a
 * password, user or database name that happens to be all digits would reach the postgres backend
 * as a number and fail its string validation at startup. The value is in the Secret, and there
 * is no way to write the placeholder so that the server keeps the string; so the Secret's value is checked where the Secret is in the input
 * (`secret-value-not-text`), and a warning says so where it is not (`numeric-secret-value`; both in
 * src/core/secret-references.ts).
 */
function serverValue(
  family: Family,
  field: keyof StorageBackendInput,
  value: unknown,
  path: Array<string | number>,
  env: SecretEnv[],
): unknown {
  // `password` is always a Secret key (either form); the other fields a value or {secretKeyRef}.
  const ref =
    field === 'password'
      ? selectorOf(value as SecretRefInput)
      : isPlainObject(value) && isPlainObject(value.secretKeyRef)
        ? (value.secretKeyRef as { name: string; key: string })
        : undefined;
  if (!ref) return value;
  const name = envName('STORAGE', family, field);
  env.push({ name, secretName: ref.name, key: ref.key, path });
  return placeholder(name);
}

/** `redis://host:port` → host and port; anything the backend cannot take is an error. */
function parseRedisEndpoint(endpoint: string, path: Array<string | number>, problems: FieldProblem[]): { host: string; port?: number } | undefined {
  const url = URL.canParse(endpoint) ? new URL(endpoint) : undefined;
  if (url?.protocol === 'rediss:') {
    problems.push({
      path,
      message: "uses TLS (rediss://), which llama-stack's redis backend does not support: it takes only host and port; write `redis://<host>:<port>`",
    });
    return undefined;
  }
  if (!url || url.protocol !== 'redis:' || url.hostname === '') {
    problems.push({ path, message: 'must be `redis://<host>:<port>`, for example `redis://redis.storage.svc:6379`; or set `host` and `port` instead' });
    return undefined;
  }
  if (url.username !== '' || url.password !== '') {
    problems.push({ path, message: "must not hold a user or password: llama-stack's redis backend takes only host and port; write `redis://<host>:<port>`" });
    return undefined;
  }
  if ((url.pathname !== '' && url.pathname !== '/') || url.search !== '' || url.hash !== '') {
    problems.push({
      path,
      message: "must not choose a database or options: llama-stack's redis backend takes only host and port; write `redis://<host>:<port>`",
    });
    return undefined;
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return url.port === '' ? { host } : { host, port: Number(url.port) };
}

/** A backend (0.3.0+) or store (≤ 0.2) object: type first, then the connection keys, then the file. */
function storeObject(type: string, backend: Backend, dbPath: string | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  setOwn(out, 'type', type);
  for (const [key, value] of backend.fields) setOwn(out, key, value);
  if (dbPath !== undefined) setOwn(out, 'db_path', dbPath);
  return out;
}

/** A sqlite file name not used yet by this render: `name.db`, else `name_2.db`, … */
function uniqueFile(name: string, used: Set<string>): string {
  const stem = name.replace(/\.db$/, '').replace(/[^A-Za-z0-9_.-]/g, '_') || 'store';
  let file = `${stem}.db`;
  for (let n = 2; used.has(file); n++) file = `${stem}_${n}.db`;
  used.add(file);
  return file;
}

const objectAt = (parent: Record<string, unknown>, key: string): Record<string, unknown> => {
  const current = parent[key];
  if (isPlainObject(current)) return current;
  const created: Record<string, unknown> = {};
  setOwn(parent, key, created);
  return created;
};

/** 0.3.0+: the CR's backend under the name of each base backend of the family (`kv_*`, `sql_*`). */
function placeBackends(config: Record<string, unknown>, family: Family, backend: Backend, home: string, used: Set<string>): void {
  const backends = objectAt(objectAt(config, 'storage'), 'backends');
  const names = Object.keys(backends).filter((name) => {
    const type = (backends[name] as { type?: unknown } | undefined)?.type;
    return typeof type === 'string' && type.startsWith(`${family}_`);
  });
  // A base without one gets the name an omitted store defaults to.
  if (names.length === 0) names.push(`${family}_default`);
  for (const name of names) {
    const file = backend.kind === 'sqlite' ? uniqueFile(name === `${family}_default` ? (family === 'kv' ? 'kvstore' : 'sql_store') : name, used) : undefined;
    setOwn(backends, name, storeObject(`${family}_${backend.kind}`, backend, file && posix.join(home, file)));
  }
}

/** ≤ 0.2: provider config keys holding a full store config, per family. */
const providerStoreKeys: Record<Family, readonly string[]> = {
  kv: ['kvstore', 'persistence_store'],
  sql: ['responses_store', 'metadata_store'],
};

/**
 * ≤ 0.2: the top-level store of the family, and each provider's own store of the family; returns
 * how many stores were placed. `metadata_store` (the registry) is in every 0.2 release;
 * `inference_store` only in later ones, so it is replaced where the base has it, not added.
 */
function placeStores(config: Record<string, unknown>, family: Family, backend: Backend, home: string, used: Set<string>): number {
  const sqlite = backend.kind === 'sqlite';
  let placed = 0;
  const store = (file: string): Record<string, unknown> => {
    placed++;
    return storeObject(backend.kind, backend, sqlite ? posix.join(home, uniqueFile(file, used)) : undefined);
  };
  if (family === 'kv') {
    setOwn(config, 'metadata_store', store('registry'));
  } else if (isPlainObject(config.inference_store) && isPlainObject(config.inference_store.sql_store_config)) {
    // The wrapped form {sql_store_config, max_write_queue_size, num_writers} keeps its tuning.
    setOwn(config.inference_store, 'sql_store_config', store('inference_store'));
  } else if (config.inference_store !== undefined) {
    setOwn(config, 'inference_store', store('inference_store'));
  }
  const providers = isPlainObject(config.providers) ? config.providers : {};
  for (const entries of Object.values(providers)) {
    if (!Array.isArray(entries)) continue;
    for (const entry of entries) {
      if (!isPlainObject(entry) || !isPlainObject(entry.config)) continue;
      for (const key of providerStoreKeys[family]) {
        const current = entry.config[key];
        if (!isPlainObject(current) || typeof current.type !== 'string') continue;
        // Keep the base's file name where it has one (faiss_store.db, agents_store.db, …).
        const base = typeof current.db_path === 'string' ? /([A-Za-z0-9_.-]+)\.db$/.exec(current.db_path)?.[1] : undefined;
        const id = typeof entry.provider_id === 'string' ? (conditionalId(entry.provider_id) ?? entry.provider_id) : 'provider';
        setOwn(entry.config, key, store(base ?? `${id}_${key}`));
      }
    }
  }
  return placed;
}
