// Praxis mode (`spec.praxisMode`): the config rewrites of the OGX operator's pkg/config/generator.go
// @ 2580c378 (applyPraxisAuth, filterAPIList, applyPraxisVectorStoreMetadata,
// GeneratePraxisDefaultConfig), the release check, the migration Job of controllers/migration_job.go
// and the admission warnings of api/v1beta1/ogxserver_webhook.go. Expected values are upstream's
// literals, written out here, not read from configs/ogx-objects.yaml.
import { describe, expect, it } from 'vitest';
import { isError } from '../../src/lib/issues.js';
import { parseOgxServer } from '../../src/ogx/ogxserver.js';
import { generateOgxConfig } from '../../src/ogx/generate.js';
import { asServerConverts } from '../../src/core/legacy-forms.js';
import { checkReleaseSchema } from '../../src/core/release-schema.js';
import { checkStartupRules } from '../../src/core/startup/index.js';
import type { OgxPlan } from '../../src/ogx/plan.js';
import { praxisProblems } from '../../src/ogx/praxis.js';
import { renderJob } from '../../src/manifests/job.js';
import { ogxMigrationJob } from '../../src/manifests/ogx-pod.js';
import { renderOgxObjects } from '../../src/manifests/index.js';
import { renderConfigSchemas } from '../../src/core/render-config.js';
import type { GeneratedConfig } from '../../src/core/config-file.js';
import { ogxFieldOf } from '../../src/ogx/cr-fields.js';
import { itemFrom } from '../support.js';
import { ogxPlan, ogxServer } from './plan-fixtures.js';

type Obj = Record<string, any>;

const generated = (plan: OgxPlan) => {
  const outcome = generateOgxConfig(plan);
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.problems));
  return outcome;
};

/** The three rules of applyPraxisAuth, as upstream writes them. */
const upstreamAuth = {
  provider_config: { type: 'upstream_header', principal_header: 'x-user-id', tenant_header: 'x-tenant-id' },
  access_policy: [
    { permit: { actions: ['read'] }, when: 'resource is unowned', description: 'All users can read system resources' },
    { permit: { actions: ['create'] }, description: 'Authenticated users can create resources' },
    { permit: { actions: ['read', 'update', 'delete'] }, when: 'user is owner', description: 'Owners can manage their own resources' },
  ],
};

const distributionOnly = '  distribution: {name: starter}\n  praxisMode: {}\n';

describe('Praxis config: only spec.distribution (GeneratePraxisDefaultConfig)', () => {
  it('generates (mode generated) where the same spec without praxisMode uses the image config', () => {
    expect(ogxPlan(distributionOnly).mode).toBe('generated');
    expect(ogxPlan('  distribution: {name: starter}\n').mode).toBe('none');
    expect(ogxPlan('  distribution: {name: starter}\n  praxisMode: {enabled: false}\n').mode).toBe('none');
  });

  it('keeps every section of the default config and rewrites only auth, tenancy and apis', () => {
    const plan = ogxPlan(distributionOnly);
    const base = plan.baseConfig as Obj;
    const { config } = generated(plan);
    const value = config.value as Obj;
    expect(Object.keys(value).sort()).toEqual(Object.keys(base).sort());
    expect(value.providers).toEqual(base.providers);
    expect(value.registered_resources).toEqual(base.registered_resources);
    expect(value.vector_stores).toEqual(base.vector_stores);
    expect(base.apis).toContain('responses');
    expect(value.apis).toEqual((base.apis as string[]).filter((api) => api !== 'responses' && api !== 'conversations'));
    expect(value.server.auth).toEqual(upstreamAuth);
    expect(value.server.tenancy).toEqual({ mode: 'multi' });
    expect(value.server.port).toBe(base.server.port);
    // starter has vector_io providers and declares no vector_stores store: the one upstream injects.
    expect(base.storage.stores.vector_stores).toBeUndefined();
    expect(value.storage.stores.vector_stores).toEqual({ table_name: 'openai_vector_stores', backend: 'sql_default' });
  });

  it('sets server.port from spec.network.port', () => {
    const { config } = generated(ogxPlan(`${distributionOnly}  network: {port: 9000}\n`));
    expect((config.value as Obj).server.port).toBe(9000);
  });

  for (const release of ['1.2.2', '1.3.0']) {
    it(`${release}: passes the startup rules and the release schema with no error`, () => {
      const plan = ogxPlan(distributionOnly, release);
      const { config } = generated(plan);
      const context = { release, catalogRelease: plan.catalogRelease, profile: plan.profile, containerEnv: new Set<string>() };
      const { config: served } = asServerConverts(config.value, release, plan.catalogRelease);
      expect(checkStartupRules(served, context).filter((p) => p.severity === 'error')).toEqual([]);
      expect(checkReleaseSchema(served, { ...context, source: 'generated' }).filter((p) => p.severity === 'error')).toEqual([]);
    });
  }
});

const declarative = `  distribution: {name: starter}
  providers:
    inference:
      remote:
        vllm:
        - {id: vllm, endpoint: http://vllm.ai.svc:8000/v1}
  storage: {}
  praxisMode: {}
`;

describe('Praxis config: declarative spec (GenerateConfig with praxisMode)', () => {
  it('filters responses and conversations, keeps their providers, replaces auth and sets tenancy', () => {
    const { config } = generated(ogxPlan(declarative));
    const value = config.value as Obj;
    expect(value.apis).not.toContain('responses');
    expect(value.apis).toContain('inference');
    expect(value.providers.responses).toHaveLength(1);
    expect(value.server.auth).toEqual(upstreamAuth);
    expect(value.server.tenancy).toEqual({ mode: 'multi' });
  });

  it('replaces an auth the base config has', () => {
    const plan = ogxPlan(declarative);
    const base = { ...(plan.baseConfig as Obj), server: { port: 8321, auth: { provider_config: { type: 'kubernetes' } } } };
    const { config } = generated({ ...plan, baseConfig: base });
    expect((config.value as Obj).server.auth).toEqual(upstreamAuth);
  });

  it('injects the vector_stores store only with a vector_io provider and none declared', () => {
    const plan = ogxPlan(declarative);
    const base = plan.baseConfig as Obj;
    const withStore = generated(plan).config.value as Obj;
    expect(withStore.storage.stores.vector_stores).toEqual({ table_name: 'openai_vector_stores', backend: 'sql_default' });
    const noVectorIo = generated({ ...plan, baseConfig: { ...base, providers: { ...base.providers, vector_io: [] } } }).config.value as Obj;
    expect(noVectorIo.storage.stores.vector_stores).toBeUndefined();
    const declared = { backend: 'sql_default', table_name: 'mine' };
    const baseWith = { ...base, storage: { ...base.storage, stores: { ...base.storage.stores, vector_stores: declared } } };
    const kept = generated({ ...ogxPlan(declarative.replace('  storage: {}\n', '')), baseConfig: baseWith }).config.value as Obj;
    expect(kept.storage.stores.vector_stores).toEqual(declared);
  });

  it('picks the first SQL backend by name when there is no sql_default', () => {
    const plan = ogxPlan(declarative.replace('  storage: {}\n', ''));
    const base = plan.baseConfig as Obj;
    const storage = {
      backends: { kv_default: base.storage.backends.kv_default, sql_b: { type: 'sql_sqlite', db_path: '/.ogx/b.db' },
        sql_a: { type: 'sql_sqlite', db_path: '/.ogx/a.db' } },
      stores: { metadata: { backend: 'kv_default', namespace: 'registry' } },
    };
    const value = generated({ ...plan, baseConfig: { ...base, storage } }).config.value as Obj;
    expect(value.storage.stores.vector_stores).toEqual({ table_name: 'openai_vector_stores', backend: 'sql_a' });
  });

  it('is an error when a vector_io provider has no SQL backend to hold its store (OGX would stop)', () => {
    const plan = ogxPlan(declarative.replace('  storage: {}\n', ''));
    const base = plan.baseConfig as Obj;
    const storage = { backends: { kv_default: base.storage.backends.kv_default }, stores: {} };
    const outcome = generateOgxConfig({ ...plan, baseConfig: { ...base, storage } });
    expect(outcome.ok).toBe(false);
    expect(outcome.problems.filter(isError).map((p) => p.path)).toEqual([['spec', 'praxisMode']]);
    expect(outcome.problems[0]?.message).toContain("metadata_store is required when tenancy mode is 'multi'");
  });

  it('leaves apis alone, with a warning, when only Praxis-served APIs are listed', () => {
    const plan = ogxPlan(declarative);
    const base = { ...(plan.baseConfig as Obj), apis: ['responses', 'conversations'] };
    const outcome = generated({ ...plan, baseConfig: base });
    expect((outcome.config.value as Obj).apis).toEqual(['responses', 'conversations']);
    expect(outcome.problems.map((p) => p.code)).toContain('praxis-apis-kept');
  });

  it('is an error before OGX 1.2 (no server.tenancy, no tenant_header), naming 1.2.0', () => {
    const outcome = generateOgxConfig(ogxPlan(declarative, '1.1.3'));
    expect(outcome.ok).toBe(false);
    expect(outcome.problems[0]?.path).toEqual(['spec', 'praxisMode']);
    expect(outcome.problems[0]?.message).toMatch(/^needs OGX 1\.2\.0 or newer: OGX 1\.1\.3 has no `server\.tenancy`/);
    expect(generateOgxConfig(ogxPlan(declarative, '1.2.2')).ok).toBe(true);
  });

  it('changes nothing with enabled: false', () => {
    const off = generated(ogxPlan(declarative.replace('praxisMode: {}', 'praxisMode: {enabled: false}'))).config.value as Obj;
    const absent = generated(ogxPlan(declarative.replace('  praxisMode: {}\n', ''))).config.value as Obj;
    expect(off).toEqual(absent);
    expect(off.server.tenancy).toBeUndefined();
  });
});

describe('the CRD rules of praxisMode', () => {
  const parse = (praxis: string) =>
    parseOgxServer(itemFrom(`apiVersion: ogx.io/v1beta1\nkind: OGXServer\nmetadata: {name: demo, namespace: ai}\nspec:\n  distribution: {name: starter}\n` +
      `  praxisMode:\n${praxis}`).object);

  it('defaults enabled (and migrationJob.enabled) to true when present', () => {
    const parsed = parse('    migrationJob: {targetConnectionString: {name: db, key: url}}\n');
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    expect(parsed.server.spec.praxisMode?.enabled).toBe(true);
    expect(parsed.server.spec.praxisMode?.migrationJob?.enabled).toBe(true);
  });

  it('refuses an empty podSelector with the CRD message', () => {
    const parsed = parse('    praxisSelector: {namespace: praxis, podSelector: {matchLabels: {}}}\n');
    expect(parsed.ok).toBe(false);
    expect(parsed.problems[0]?.path).toEqual(['spec', 'praxisMode', 'praxisSelector', 'podSelector']);
    expect(parsed.problems[0]?.message).toMatch(/^podSelector must not be empty/);
    expect(parse('    praxisSelector: {namespace: praxis, podSelector: {matchExpressions: [{key: app, operator: Exists}]}}\n').ok).toBe(true);
  });

  it('requires targetConnectionString and checks the fallbackTenant pattern and a blank owner subject', () => {
    expect(parse('    migrationJob: {}\n').ok).toBe(false);
    expect(parse('    migrationJob: {targetConnectionString: {name: db, key: url}, fallbackTenant: Team_A}\n').ok).toBe(false);
    expect(parse('    migrationJob: {targetConnectionString: {name: db, key: url}, fallbackTenant: team_a-1}\n').ok).toBe(true);
    const blank = parse('    migrationJob: {targetConnectionString: {name: db, key: url}, fallbackOwnerSubject: "  "}\n');
    expect(blank.ok).toBe(false);
    expect(blank.problems[0]?.path).toEqual(['spec', 'praxisMode', 'migrationJob', 'fallbackOwnerSubject']);
  });
});

const withJob = `${declarative}`.replace(
  '  praxisMode: {}\n',
  "  praxisMode:\n    migrationJob:\n      targetConnectionString: {name: praxis-db, key: url}\n      fallbackOwnerSubject: \"o'brien\"\n",
);
const options = renderConfigSchemas().renderOptionsSchema.parse({});

describe('the migration Job (controllers/migration_job.go)', () => {
  const jobOf = (plan: OgxPlan, config: GeneratedConfig) => {
    const input = ogxMigrationJob(plan, config);
    if (!input) throw new Error('no Job');
    return renderJob(input) as Obj;
  };

  it('runs the dry run then the migration on $OGX_CONFIG, with backoffLimit 2 and the target only by secretKeyRef', () => {
    const plan = ogxPlan(withJob);
    const job = jobOf(plan, generated(plan).config);
    expect(job.apiVersion).toBe('batch/v1');
    expect(job.spec.backoffLimit).toBe(2);
    const pod = job.spec.template.spec;
    const [container] = pod.containers;
    expect(container.command).toEqual(['/bin/sh', '-c']);
    expect(container.args).toEqual([
      `set -eu; ogx migrate praxis --dry-run --fallback-owner-subject 'o'"'"'brien' "$OGX_CONFIG" && ` +
        `ogx migrate praxis --fallback-owner-subject 'o'"'"'brien' "$OGX_CONFIG"`,
    ]);
    const target = container.env.find((e: Obj) => e.name === 'PRAXIS_DATABASE_URL');
    expect(target).toEqual({ name: 'PRAXIS_DATABASE_URL', valueFrom: { secretKeyRef: { name: 'praxis-db', key: 'url' } } });
    expect(container.env.filter((e: Obj) => e.value !== undefined).map((e: Obj) => e.name)).toEqual(['OGX_CONFIG', 'RUN_CONFIG_PATH']);
    expect(container.volumeMounts).toEqual([{ name: 'user-config', mountPath: '/etc/ogx/', readOnly: true }]);
    expect(pod.serviceAccountName).toBe('demo-sa');
    expect(pod.securityContext.fsGroup).toBe(1001);
    expect(job.spec.template.metadata.labels.app).toBeUndefined();
  });

  it('names the Job by its attempt: the same render keeps the name, a changed config or target changes it', () => {
    const plan = ogxPlan(withJob);
    const config = generated(plan).config;
    const name = jobOf(plan, config).metadata.name as string;
    expect(name).toMatch(/^demo-praxis-migration-[0-9a-f]{16}$/);
    expect(jobOf(ogxPlan(withJob), generated(ogxPlan(withJob)).config).metadata.name).toBe(name);
    expect(jobOf(plan, { ...config, text: `${config.text}# changed\n` }).metadata.name).not.toBe(name);
    const other = ogxPlan(withJob.replace('key: url', 'key: dsn'));
    expect(jobOf(other, generated(other).config).metadata.name).not.toBe(name);
  });

  it('is rendered only with Praxis mode on and migrationJob enabled', () => {
    const kinds = (spec: string) => {
      const plan = ogxPlan(spec);
      return renderOgxObjects(plan, generated(plan).config, options).map((o) => o.kind);
    };
    expect(kinds(withJob)).toContain('Job');
    expect(kinds(withJob.replace('    migrationJob:\n', '    migrationJob:\n      enabled: false\n'))).not.toContain('Job');
    expect(kinds(withJob.replace('  praxisMode:\n', '  praxisMode:\n    enabled: false\n'))).not.toContain('Job');
  });

  it('refuses a target that is one of the server config\'s own Secret keys', () => {
    const vllm = '{id: vllm, endpoint: http://vllm.ai.svc:8000/v1}';
    const spec = withJob.replace(vllm, vllm.replace('}', ', apiToken: {name: praxis-db, key: url}}'));
    const plan = ogxPlan(spec);
    const problems = praxisProblems(plan, generated(plan).config, options);
    expect(problems.filter(isError).map((p) => p.path)).toEqual([['spec', 'praxisMode', 'migrationJob', 'targetConnectionString']]);
  });
});

describe('objects and admission warnings in Praxis mode', () => {
  it('renders no Ingress for externalAccess and says so with the webhook text', () => {
    const spec = `${distributionOnly}  network:\n    externalAccess: {enabled: true, hostname: ogx.example.com, tls: {secretName: ogx-tls}}\n`;
    const plan = ogxPlan(spec);
    const objects = renderOgxObjects(plan, generated(plan).config, options);
    expect(objects.map((o) => o.kind)).not.toContain('Ingress');
    expect(objects.find((o) => o.kind === 'Service')?.spec).toMatchObject({ type: 'ClusterIP' });
    const warning = praxisProblems(plan, generated(plan).config, options).find((p) => p.path.join('.') === 'spec.network.externalAccess.enabled');
    expect(warning?.message).toMatch(/^spec\.network\.externalAccess\.enabled is not honored: OGX is internal-only/);
  });

  it('warns Tech Preview with the operator\'s text, and not without Praxis mode', () => {
    const plan = ogxPlan(distributionOnly);
    const texts = praxisProblems(plan, undefined, options).map((p) => p.message);
    expect(texts).toContain('Praxis mode is enabled (spec.praxisMode.enabled: true). The Responses API served by Praxis is Tech Preview.');
    expect(praxisProblems(ogxPlan('  distribution: {name: starter}\n  praxisMode: {enabled: false}\n'), undefined, options)).toEqual([]);
  });

  it('says that an overrideConfig gets none of the Praxis config rewrites', () => {
    const plan: OgxPlan = { ...ogxPlan(distributionOnly), mode: 'override' };
    const warning = praxisProblems(plan, undefined, options).find((p) => p.code === 'field-has-no-effect' && p.path.join('.') === 'spec.praxisMode');
    expect(warning?.message).toMatch(/^does not change the config\.yaml of `spec\.overrideConfig`/);
    expect(praxisProblems(ogxPlan(distributionOnly), undefined, options).some((p) => p.code === 'field-has-no-effect')).toBe(false);
  });

  it('admits only the Praxis peer and the operator namespace, then appends the user rules', () => {
    const spec = `${distributionOnly}  network:\n    policy:\n      ingress:\n        - from: [{podSelector: {matchLabels: {role: debug}}}]\n`;
    const plan = ogxPlan(spec);
    const policy = renderOgxObjects(plan, generated(plan).config, options).find((o) => o.kind === 'NetworkPolicy') as Obj;
    const [first, , user] = policy.spec.ingress;
    expect(first.from).toEqual([
      {
        podSelector: { matchLabels: { app: 'payload-processing' } },
        namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'openshift-ingress' } },
      },
      { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': options.ogxOperatorNamespace } } },
    ]);
    expect(user).toEqual({ from: [{ podSelector: { matchLabels: { role: 'debug' } } }] });
  });
});

describe('config paths Praxis mode writes lead to spec.praxisMode', () => {
  it('server.auth, server.tenancy and the vector_stores store, only in Praxis mode', () => {
    const on = ogxServer(distributionOnly).spec;
    const off = ogxServer('  distribution: {name: starter}\n  storage: {}\n').spec;
    for (const path of ['server.auth.provider_config.type', 'server.tenancy.mode', 'storage.stores.vector_stores.backend']) {
      expect(ogxFieldOf(path, on, {}), path).toEqual(['spec', 'praxisMode']);
      expect(ogxFieldOf(path, off, {}), path).not.toEqual(['spec', 'praxisMode']);
    }
    expect(ogxFieldOf('server.port', on, {})).toEqual(['spec', 'network', 'port']);
  });
});
