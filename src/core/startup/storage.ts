// Startup rules on storage. 0.3.0+: `storage.backends`, the `storage.stores` that name them, and
// the backend references in provider configs. ≤ 0.2: full store configs {type: sqlite|postgres|…},
// at the top level and in provider configs. The backend and store types, and the keys that name a
// store, are configs/startup-facts.yaml's.
import { isPlainObject } from '../../lib/objects.js';
import { clip, code, listOf, quote } from '../../lib/quote.js';
import { runConfigStores, type StoreSpec } from '../../catalog/catalog.js';
import { startupFacts, type StoreFamily } from '../../catalog/startup-facts.js';
import {
  possiblyOn,
  problem,
  providersOf,
  severityOf,
  storageLayoutSince,
  type Path,
  type Provider,
  type RuleContext,
  type Severity,
  type StartupProblem,
} from './context.js';
import { releaseName } from '../../catalog/versions.js';

/** The storage rule of the config's layout. */
export const checkStorage = (ctx: RuleContext): StartupProblem[] => (ctx.newLayout ? checkBackendsAndStores(ctx) : checkLegacyStores(ctx));

/** Backend name → its family, as storage.backends (or the release's defaults) define them. */
type Backends = Map<string, StoreFamily>;

function checkBackendsAndStores(ctx: RuleContext): StartupProblem[] {
  const { config, release } = ctx;
  const facts = startupFacts().storage;
  const out: StartupProblem[] = [];
  // The stores of the release's run-config schema; where they have defaults, so do the backends
  // they name (sqlite kv_default and sql_default under $SQLITE_STORE_DIR or the config dir).
  const stores = runConfigStores(ctx.catalogRelease);
  const defaults = stores.some((store) => store.defaultBackend !== undefined);
  for (const [key, legacy] of Object.entries(facts.legacyTopLevelStores)) {
    if (config[key] !== undefined && config[key] !== null) {
      const message = `is the ≤ 0.2 layout; ${releaseName(release)} ignores it and reads \`storage.stores.${legacy.store}\``;
      out.push(problem('warning', [key], 'storage', message, 'ignored-by-release'));
    }
  }
  let backends: Backends;
  const storage = config.storage;
  if (storage === undefined || storage === null) {
    if (!defaults) {
      const message = `is missing: ${releaseName(release)} has no default storage; write storage.backends and storage.stores (metadata, inference, ` +
        `conversations)`;
      return [...out, problem('error', ['storage'], 'storage', message)];
    }
    // 0.4.0+: sqlite kv_default and sql_default under $SQLITE_STORE_DIR (or the config dir).
    backends = defaultBackends();
  } else if (!isPlainObject(storage)) {
    return [...out, problem('error', ['storage'], 'storage', 'must be a mapping with `backends` and `stores`')];
  } else {
    const read = readBackends(ctx, storage, defaults);
    backends = read.backends;
    out.push(...read.problems, ...storeProblems(ctx, storage, stores, backends, defaults));
  }
  for (const p of ctx.providers) {
    if (!p.validApi || !possiblyOn(p)) continue;
    const severity = severityOf(p);
    for (const ref of providerStoreRefs(p)) {
      out.push(...backendRefProblems(ctx, ref.path, ref.value, ref.family, backends, severity, `the ${ref.key} of ${p.type ?? 'this provider'}`));
    }
  }
  const server = config.server;
  if (isPlainObject(server) && isPlainObject(server.quota) && server.quota.kvstore !== undefined && server.quota.kvstore !== null) {
    out.push(...backendRefProblems(ctx, ['server', 'quota', 'kvstore'], server.quota.kvstore, 'kv', backends, 'error', 'the quota store'));
  }
  return out;
}

const defaultBackends = (): Backends => new Map<string, StoreFamily>([['kv_default', 'kv'], ['sql_default', 'sql']]);

function readBackends(ctx: RuleContext, storage: Record<string, unknown>, defaults: boolean): { backends: Backends; problems: StartupProblem[] } {
  const facts = startupFacts().storage.backends;
  const types = Object.keys(facts);
  const raw = storage.backends;
  if (raw === undefined || raw === null) {
    if (defaults) {
      const message = 'is missing: write the backends the stores name (kv_default and sql_default unless you name them otherwise)';
      return { backends: defaultBackends(), problems: [problem('warning', ['storage', 'backends'], 'storage', message, 'storage-backends-missing')] };
    }
    const message = `is missing: ${releaseName(ctx.release)} has no default backends`;
    return { backends: new Map(), problems: [problem('error', ['storage', 'backends'], 'storage', message)] };
  }
  if (!isPlainObject(raw)) {
    return { backends: new Map(), problems: [problem('error', ['storage', 'backends'], 'storage', 'must be a mapping from backend name to backend')] };
  }
  const backends: Backends = new Map();
  const problems: StartupProblem[] = [];
  for (const [name, backend] of Object.entries(raw)) {
    const path = ['storage', 'backends', name];
    if (!isPlainObject(backend)) {
      problems.push(problem('error', path, 'storage', `must be a backend: {type: ${types.join('|')}, …}`));
      continue;
    }
    const type = backend.type;
    if (typeof type === 'string' && type.includes('${')) continue;
    const fact = typeof type === 'string' && Object.hasOwn(facts, type) ? facts[type] : undefined;
    if (!fact) {
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a `type` the YAML gave as a scalar other than a string, shown as written
      const what = type === undefined ? 'is missing' : `${quote(String(type))} is not a backend type${legacyHint(type)}`;
      problems.push(problem('error', [...path, 'type'], 'storage', `${what}: one of ${listOf(types)}`));
      continue;
    }
    backends.set(name, fact.family);
    if (fact.requires && !Object.hasOwn(backend, fact.requires.key)) {
      problems.push(problem('error', [...path, fact.requires.key], 'storage', `is missing: a ${clip(type as string)} backend ${fact.requires.why}`));
    }
  }
  return { backends, problems };
}

/** For a ≤ 0.2 store type written as a backend type: " (the ≤ 0.2 store type; write kv_sqlite or sql_sqlite)". */
function legacyHint(type: unknown): string {
  const legacy = startupFacts().storage.legacyStoreTypes;
  if (typeof type !== 'string' || !Object.hasOwn(legacy, type)) return '';
  return ` (the ≤ 0.2 store type; write ${(legacy[type]?.families ?? []).map((family) => `${family}_${type}`).join(' or ')})`;
}

function storeProblems(
  ctx: RuleContext,
  storage: Record<string, unknown>,
  specs: readonly StoreSpec[],
  backends: Backends,
  defaults: boolean,
): StartupProblem[] {
  const raw = storage.stores;
  if (raw !== undefined && raw !== null && !isPlainObject(raw)) {
    return [problem('error', ['storage', 'stores'], 'storage', 'must be a mapping from store name to a backend reference')];
  }
  const out: StartupProblem[] = [];
  const stores = isPlainObject(raw) ? raw : {};
  const inferenceServed = providersOf(ctx, 'inference').length > 0 || (ctx.apisListed?.includes('inference') ?? false);
  for (const spec of specs) {
    const path = ['storage', 'stores', spec.name];
    const value = stores[spec.name];
    if (value !== undefined && value !== null) {
      out.push(...backendRefProblems(ctx, path, value, spec.family, backends, 'error', `the ${spec.name} store`));
      continue;
    }
    if (!defaults) {
      // A release without store defaults (0.3.x): every store is null unless written.
      if (spec.name === 'responses' || (spec.name === 'inference' && !inferenceServed)) continue;
      const ref = spec.family === 'kv' ? '{backend: <a kv_* backend>, namespace: …}' : '{backend: <a sql_* backend>, table_name: …}';
      out.push(problem('error', path, 'storage', `is missing: ${releaseName(ctx.release)} has no default for the ${spec.name} store; write ${ref}`));
      continue;
    }
    if (value === null && spec.name === 'metadata') {
      out.push(problem('error', path, 'storage', 'is null: the server needs the metadata store (registry) and stops at startup without it'));
      continue;
    }
    if (value === null || !spec.defaultBackend) continue;
    if (backends.get(spec.defaultBackend) !== spec.family) {
      const as = backends.has(spec.defaultBackend) ? ` as a ${spec.family}_* backend` : '';
      const message =
        `is omitted, so it defaults to the backend \`${spec.defaultBackend}\`, which storage.backends does not define${as}: ` +
        `write storage.stores.${spec.name} naming one of your ${spec.family}_* backends`;
      out.push(problem('error', path, 'storage', message));
    }
  }
  for (const name of Object.keys(stores)) {
    if (specs.some((s) => s.name === name)) continue;
    const message = `is not a store in ${releaseName(ctx.release)}; the server ignores it. Stores: ${listOf(specs.map((s) => s.name))}`;
    out.push(problem('warning', ['storage', 'stores', name], 'storage', message, 'ignored-by-release'));
  }
  return out;
}

function backendRefProblems(
  ctx: RuleContext,
  path: Path,
  value: unknown,
  family: StoreFamily,
  backends: Backends,
  severity: Severity,
  what: string,
): StartupProblem[] {
  if (!isPlainObject(value)) {
    const message = `must be a backend reference {backend: <a ${family}_* backend>, ${family === 'kv' ? 'namespace' : 'table_name'}: …}`;
    return [problem(severity, path, 'storage', message, 'env-conditional')];
  }
  const backend = value.backend;
  if (backend === undefined || backend === null) {
    const old = value.type !== undefined ? ` (a full store config {type: …} is the ≤ 0.2 layout; ${releaseName(ctx.release)} names a storage backend)` : '';
    const message = `is missing: ${what} must name a ${family}_* backend of storage.backends${old}`;
    return [problem(severity, [...path, 'backend'], 'storage', message, 'env-conditional')];
  }
  if (typeof backend !== 'string' || backend.includes('${')) return [];
  const found = backends.get(backend);
  if (found === undefined) {
    const names = [...backends].filter(([, f]) => f === family).map(([n]) => n);
    const message =
      `names the backend ${code(backend)}, which storage.backends does not define ("unknown backend" at startup)` +
      `${names.length ? `; ${family}_* backends: ${listOf(names)}` : ''}`;
    return [problem(severity, [...path, 'backend'], 'storage', message, 'env-conditional')];
  }
  if (found !== family) {
    const message = `names ${code(backend)}, a ${found}_* backend, but ${what} needs a ${family}_* backend`;
    return [problem(severity, [...path, 'backend'], 'storage', message, 'env-conditional')];
  }
  return [];
}

/** configs/startup-facts.yaml `providerStores` as lists, made once: every provider of every config is walked with them. */
let storeKeys: Array<{ key: string; family: StoreFamily; parts: Array<[string, StoreFamily]> }> | undefined;

/** The backend references in a provider's config, in the order of configs/startup-facts.yaml `providerStores`. */
function providerStoreRefs(p: Provider): Array<{ key: string; path: Path; value: unknown; family: StoreFamily }> {
  storeKeys ??= Object.entries(startupFacts().storage.providerStores).map(([key, s]) => ({ key, family: s.family, parts: Object.entries(s.parts ?? {}) }));
  const out: Array<{ key: string; path: Path; value: unknown; family: StoreFamily }> = [];
  for (const { key, family, parts } of storeKeys) {
    const value = p.config[key];
    if (value === undefined || value === null) continue;
    if (parts.length > 0 && isPlainObject(value) && parts.some(([part]) => Object.hasOwn(value, part))) {
      // responses (and ≤ 0.6 agents): {agent_state: kv ref, responses: sql ref}.
      for (const [part, partFamily] of parts) {
        const ref = value[part];
        if (ref !== undefined && ref !== null) out.push({ key: `${key}.${part}`, path: [...p.path, 'config', key, part], value: ref, family: partFamily });
      }
    } else {
      out.push({ key, path: [...p.path, 'config', key], value, family });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// ≤ 0.2: full store configs {type: sqlite|postgres|…} everywhere

function checkLegacyStores(ctx: RuleContext): StartupProblem[] {
  const { config, release } = ctx;
  const facts = startupFacts().storage;
  const out: StartupProblem[] = [];
  if (config.storage !== undefined && config.storage !== null) {
    const message = `is read from ${storageLayoutSince()} on; ${releaseName(release)} ignores it and reads \`metadata_store\`, \`inference_store\` and each ` +
      `provider's own store config`;
    out.push(problem('warning', ['storage'], 'storage', message, 'ignored-by-release'));
  }
  for (const [key, store] of Object.entries(facts.legacyTopLevelStores)) {
    const value = config[key];
    if (value === undefined || value === null) continue;
    const nested = store.nestedUnder;
    const inner = nested !== undefined && isPlainObject(value) && isPlainObject(value[nested]) ? value[nested] : undefined;
    if (inner !== undefined) out.push(...legacyStoreProblems(ctx, [key, nested as string], inner, store.family, 'error'));
    else out.push(...legacyStoreProblems(ctx, [key], value, store.family, 'error'));
  }
  for (const p of ctx.providers) {
    if (!p.validApi || !possiblyOn(p)) continue;
    const severity = severityOf(p);
    for (const [key, family] of Object.entries(facts.legacyProviderStores)) {
      const value = p.config[key];
      if (value !== undefined && value !== null) out.push(...legacyStoreProblems(ctx, [...p.path, 'config', key], value, family, severity));
    }
  }
  return out;
}

function legacyStoreProblems(ctx: RuleContext, path: Path, value: unknown, family: StoreFamily, severity: Severity): StartupProblem[] {
  const legacy = startupFacts().storage.legacyStoreTypes;
  const types = Object.keys(legacy).filter((type) => legacy[type]?.families.includes(family));
  if (!isPlainObject(value)) return [problem(severity, path, 'storage', `must be a store config {type: ${types.join('|')}, …}`, 'env-conditional')];
  if (value.backend !== undefined && value.type === undefined) {
    const message = `is a {backend, …} reference, which is read from ${storageLayoutSince()} on; ${releaseName(ctx.release)} needs a full store config such ` +
      `as {type: sqlite, db_path: …}`;
    return [problem(severity, path, 'storage', message, 'env-conditional')];
  }
  const type = value.type;
  if (typeof type === 'string' && type.includes('${')) return [];
  if (typeof type !== 'string' || !types.includes(type)) {
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a `type` the YAML gave as a scalar other than a string, shown as written
    const what = type === undefined ? 'is missing' : `${quote(String(type))} is not a ${family === 'kv' ? 'key-value' : 'SQL'} store type`;
    return [problem(severity, [...path, 'type'], 'storage', `${what}: one of ${listOf(types)}`, 'env-conditional')];
  }
  const requires = legacy[type]?.requires;
  if (requires && !Object.hasOwn(value, requires.key)) {
    return [problem(severity, [...path, requires.key], 'storage', `is missing: a ${type} store ${requires.why}`, 'env-conditional')];
  }
  return [];
}
