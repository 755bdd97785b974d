// Praxis mode (`spec.praxisMode`, Tech Preview): OGX internal-only behind the Praxis gateway,
// which serves Responses and Conversations. What the OGX operator does for it on its main after
// v0.14.0 (ogx-ai/ogx-k8s-operator @ 2580c378; reference OPERATOR-MAIN-2026-09.md §2.3–§2.4):
// - config (pkg/config/generator.go): Praxis-served APIs out of `apis` (unless nothing would be
//   left), `server.auth` → upstream_header with the three-rule access policy, `server.tenancy.mode:
//   multi`, a `vector_stores` SQL store for vector_io; with only `spec.distribution`, the
//   distribution's default config with those rewrites (`GeneratePraxisDefaultConfig`);
// - objects: no Ingress, a NetworkPolicy admitting Praxis pods and the operator namespace (user
//   rules appended: src/manifests/network-policy.ts), the migration Job (src/manifests/job.ts);
// - whether it is on: `ogxPraxisEnabled` / `ogxPraxisMigration` in src/core/ogx-workload.ts, which the objects read too;
// - admission warnings (api/v1beta1/ogxserver_webhook.go) as warning results.
// The facts (labels, APIs, auth, Job shape) are configs/ogx-objects.yaml `praxis`.
import { ogxObjects } from '../catalog/catalog.js';
import { compareVersions } from '../catalog/versions.js';
import type { GeneratedConfig } from '../core/config-file.js';
import type { RenderOptions } from '../core/render-config.js';
import type { FieldProblem } from '../lib/issues.js';
import { clonePlain, freshCopy, isPlainObject } from '../lib/objects.js';
import { code, listOf, quote } from '../lib/quote.js';
import { ogxPraxisEnabled, ogxPraxisMigration } from '../core/ogx-workload.js';
import type { OgxServerSpec } from './ogxserver.js';
import type { OgxPlan } from './plan.js';
import { expandOgxProviders } from './providers.js';

type Obj = Record<string, unknown>;

const praxisPath = ['spec', 'praxisMode'];

/**
 * The release check: OGX before 1.2 has no `server.tenancy` and no upstream_header `tenant_header`
 * and drops both silently (pydantic extra: ignore), so the server would run without tenant
 * isolation behind Praxis. An error at `spec.praxisMode` naming the release that has them.
 */
export function praxisReleaseProblem(plan: OgxPlan): FieldProblem | undefined {
  if (!ogxPraxisEnabled(plan.server.spec)) return undefined;
  const since = ogxObjects().praxis.sinceRelease;
  if (compareVersions(plan.release, since) >= 0) return undefined;
  return {
    path: praxisPath,
    message: `needs OGX ${since} or newer: OGX ${plan.release} has no \`server.tenancy\` and no \`tenant_header\` for upstream_header auth, so it would ` +
      `drop both and serve every tenant as one behind Praxis; pin a newer release (annotation \`llamastack.io/release\`, for example "${since}"), or ` +
      'remove `praxisMode`',
  };
}

/**
 * `GeneratePraxisDefaultConfig`: only `spec.distribution` (and no override): every section of the
 * distribution's default config kept, `server.auth`, `server.tenancy`, `server.port` (when
 * `spec.network` sets it) and `apis` rewritten. Returns the document; `applyPraxisConfig` does the rest.
 */
export function praxisDefaultDocument(base: Obj, spec: OgxServerSpec): Obj {
  const config = freshCopy(base);
  const server: Obj = isPlainObject(config.server) ? config.server : {};
  if (spec.network?.port !== undefined && spec.network.port !== 0) server.port = spec.network.port;
  config.server = server;
  return config;
}

/** The expansion of a spec with no providers (the default path has none). */
export const emptyExpansion = () => expandOgxProviders(undefined);

/**
 * The operator's Praxis rewrites of a generated document, in place (`applyPraxisAuth`,
 * `filterAPIList` / `effectiveDisabledAPIs`, `applyPraxisVectorStoreMetadata`). Returns what the
 * user should know: the APIs not filtered, a vector store that cannot be declared.
 */
export function applyPraxisConfig(config: Obj, plan: OgxPlan): FieldProblem[] {
  const { praxis } = ogxObjects();
  const problems: FieldProblem[] = [];
  const server: Obj = isPlainObject(config.server) ? config.server : {};
  server.auth = clonePlain(praxis.auth);
  server.tenancy = clonePlain(praxis.tenancy);
  config.server = server;
  filterApis(config, problems);
  vectorStoresStore(config, plan, problems);
  return problems;
}

/**
 * Praxis-served APIs out of `apis`. OGX serves every API when `apis` is absent or empty (a Python
 * truthiness test), so a list that would be left empty stays as it is (upstream: "emitting the
 * maximally-permissive config in response to the maximally-restrictive request is the one outcome
 * worth ruling out", ogx-ai/ogx#6558), with a warning that the server still serves them.
 */
function filterApis(config: Obj, problems: FieldProblem[]): void {
  const { servedApis } = ogxObjects().praxis;
  const apis = Array.isArray(config.apis) ? config.apis : undefined;
  const kept = apis?.filter((api) => !servedApis.includes(String(api)));
  if (apis && kept && kept.length > 0) {
    // The Praxis-served APIs' providers stay, as upstream: `ogx migrate praxis` finds the responses store there.
    config.apis = kept;
    return;
  }
  const why = apis ? `every API of \`apis\` (${listOf(apis.map(String))}) is one Praxis serves` : 'the config has no `apis` list';
  problems.push({
    severity: 'warning', code: 'praxis-apis-kept',
    path: praxisPath,
    message: `does not take ${listOf(servedApis, { each: (api) => code(api) })} out of the server: ${why}, and OGX serves every API when \`apis\` is ` +
      'absent or empty, as the operator leaves it; give the server an API of its own (for example `inference`) in `apis` of the base config',
  });
}

/**
 * Multi-tenancy makes OGX refuse to start a vector_io provider without a `storage.stores.vector_stores`
 * SQL store ("metadata_store is required when tenancy mode is 'multi'"): with a vector_io provider
 * and none declared, `{table_name: openai_vector_stores, backend: sql_default}` (else the first SQL
 * backend by name). With no SQL backend the operator writes nothing and the server stops: an error.
 */
function vectorStoresStore(config: Obj, plan: OgxPlan, problems: FieldProblem[]): void {
  const { vectorStoresTable, preferredSqlBackend } = ogxObjects().praxis;
  const providers = isPlainObject(config.providers) ? config.providers.vector_io : undefined;
  if (!Array.isArray(providers) || providers.length === 0) return;
  const storage: Obj | undefined = isPlainObject(config.storage) ? config.storage : undefined;
  const stores = storage?.stores;
  if (isPlainObject(stores) && stores.vector_stores !== undefined && stores.vector_stores !== null) return;
  if (stores !== undefined && stores !== null && !isPlainObject(stores)) return;
  const backends = storage && isPlainObject(storage.backends) ? storage.backends : {};
  const isSql = (name: string): boolean => isPlainObject(backends[name]) && String((backends[name] as Obj).type).startsWith('sql_');
  const backend = isSql(preferredSqlBackend) ? preferredSqlBackend : Object.keys(backends).filter(isSql).sort()[0];
  if (!storage || backend === undefined) {
    problems.push({
      path: praxisPath,
      message: `makes OGX ${plan.release} multi-tenant, and then it stops at startup without a SQL store for its vector_io provider's metadata ` +
        `("metadata_store is required when tenancy mode is 'multi'"); the config has no SQL backend to put ${quote(vectorStoresTable)} on: add ` +
        '`spec.storage: {sql: {type: sqlite}}`, or a base config with a `sql_*` backend',
    });
    return;
  }
  const declared: Obj = isPlainObject(stores) ? stores : {};
  declared.vector_stores = { table_name: vectorStoresTable, backend };
  storage.stores = declared;
}

/**
 * The admission warnings of the operator's webhook in Praxis mode, as warning results: Tech
 * Preview, `externalAccess` not honoured, the NetworkPolicy switched off; and (docs/upgrade-praxis-
 * migration.md) the migration not opted in. An override config gets none of the config rewrites.
 */
export function praxisProblems(plan: OgxPlan, config: GeneratedConfig | undefined, options: Pick<RenderOptions, 'networkPolicy'>): FieldProblem[] {
  const { spec } = plan.server;
  if (!ogxPraxisEnabled(spec)) return [];
  const problems: FieldProblem[] = [
    {
      severity: 'warning', code: 'tech-preview',
      path: [...praxisPath, 'enabled'],
      message: 'Praxis mode is enabled (spec.praxisMode.enabled: true). The Responses API served by Praxis is Tech Preview.',
    },
  ];
  if (spec.network?.externalAccess?.enabled === true) {
    problems.push({
      severity: 'warning', code: 'field-has-no-effect',
      path: ['spec', 'network', 'externalAccess', 'enabled'],
      message: 'spec.network.externalAccess.enabled is not honored: OGX is internal-only (Praxis-fronted, spec.praxisMode.enabled: true) and the ' +
        'operator does not create external exposure. This value is treated as false. (No Ingress is rendered; clients reach OGX through Praxis.)',
    });
  }
  if (spec.network?.policy?.enabled === false || options.networkPolicy === 'off') {
    const by = spec.network?.policy?.enabled === false ? 'spec.network.policy.enabled: false' : 'The `networkPolicy` option `off`';
    problems.push({
      severity: 'warning', code: 'network-policy-off',
      path: spec.network?.policy?.enabled === false ? ['spec', 'network', 'policy', 'enabled'] : praxisPath,
      message: `${by} disables the operator-managed NetworkPolicy entirely, removing the mandatory Praxis-fronted ingress lock-down (OGX is ` +
        'internal-only, spec.praxisMode.enabled: true). OGX may then be reachable directly by co-located workloads, bypassing Praxis. Prefer ' +
        'additive spec.network.policy.ingress rules instead.',
    });
  }
  if (!ogxPraxisMigration(spec)) {
    const written = spec.praxisMode?.migrationJob !== undefined;
    problems.push({
      severity: 'warning', code: 'praxis-migration-off',
      path: written ? [...praxisPath, 'migrationJob', 'enabled'] : praxisPath,
      message: `${written ? 'turns the migration Job off' : 'has no `migrationJob`'}, so no Job moves the Responses and Conversations stored in OGX to ` +
        'Praxis: they stay in OGX, which no longer serves them. If you opted in before, turning it off is a soft rollback: writes made through ' +
        'Praxis after cutover do not flow back to OGX, and data loss is possible. To migrate, add `migrationJob: {targetConnectionString: ' +
        '{name: <secret>, key: <key>}}`',
    });
  }
  if (ogxPraxisMigration(spec)) problems.push(...migrationSourceProblems(plan, config));
  if (plan.mode === 'override') {
    problems.push({
      severity: 'warning', code: 'field-has-no-effect',
      path: praxisPath,
      message: 'does not change the config.yaml of `spec.overrideConfig`, which the server reads as written (as by the operator): for Praxis mode it ' +
        'needs `server.auth` with upstream_header (principal x-user-id, tenant x-tenant-id), `server.tenancy.mode: multi` and no `responses` or ' +
        '`conversations` in `apis`; or remove `overrideConfig` to have them generated',
    });
  }
  return problems;
}

/**
 * What the migration Job reads: the OGX stores of the mounted config.yaml. Its preflight's check
 * that the target is not the source ("targetConnectionString must not reference the same Secret
 * key"), here against every Secret the config reads; and a source on sqlite, a file on the
 * server's volume that the Job's pod does not mount (the operator's preflight requires
 * `spec.storage.sql` postgres and creates no Job otherwise).
 */
function migrationSourceProblems(plan: OgxPlan, config: GeneratedConfig | undefined): FieldProblem[] {
  const job = plan.server.spec.praxisMode?.migrationJob;
  if (!job) return [];
  const target = job.targetConnectionString;
  const jobPath = [...praxisPath, 'migrationJob'];
  const same = (config?.env ?? []).find((e) => e.secretName === target.name && e.key === target.key);
  if (same) {
    return [{
      path: [...jobPath, 'targetConnectionString'],
      message: `targetConnectionString must not reference the same Secret key as the OGX server (${quote(`${target.name}/${target.key}`)} is its ` +
        `${same.name}): Praxis needs its own database, as both schemas have openai_conversations; name the Praxis database's Secret`,
    }];
  }
  const value = config?.value ?? plan.overrideConfig?.value;
  const storage = isPlainObject(value?.storage) ? value.storage : {};
  const backends = isPlainObject(storage.backends) ? storage.backends : {};
  const stores = isPlainObject(storage.stores) ? storage.stores : {};
  const conversations = isPlainObject(stores.conversations) ? stores.conversations.backend : undefined;
  const local = typeof conversations === 'string' && isPlainObject(backends[conversations]) && String(backends[conversations].type).endsWith('_sqlite');
  if (!local) return [];
  return [{
    severity: 'warning', code: 'praxis-migration-source',
    path: jobPath,
    message: `migrates from the OGX stores of config.yaml, whose conversations store is sqlite (${quote(String(conversations))}), a file on the server's ` +
      'volume that the Job does not mount, so it finds nothing to move (the operator refuses to start the Job without PostgreSQL storage); keep the ' +
      'OGX state in PostgreSQL (a base config with `sql_postgres` backends, by `spec.baseConfig`) before migrating',
  }];
}
