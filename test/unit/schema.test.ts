// The published schemas (docs/validation.md: "the CRD we publish compiles"): every CEL rule of the CRD is
// compiled by a CEL implementation against the type of the node it sits on and run on examples;
// the CRD is structural; the JSON Schema agrees with the zod schema on every LLSD we ship.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { structural, type StructuralSchema, type ValidationRule } from '../../src/core/crd.js';
import { environmentFor, evaluate, undeclaredFields } from './cel.js';
import { crd } from '../../src/llsd/crd.js';
import { ogxCrd } from '../../src/ogx/crd.js';
import { jsonSchemaOf, jsonSchemaOfLlsd, jsonSchemaOfSpec } from '../../src/llsd/json-schema.js';
import { parseLlsd } from '../../src/llsd/llsd.js';
import { llsdV1alpha2Schemas } from '../../src/llsd/llsd-v1alpha2.js';
import type { KrmObject } from '../../src/krm/item.js';
import { described, z } from '../../src/lib/zod.js';

const { distributionSpec, llsdSchema, specSchema } = llsdV1alpha2Schemas();

const repoRoot = join(import.meta.dirname, '..', '..');
const definition = crd();
/** The field doc a schema carries, as the JSON Schema and the CRD read it. */
/** The field doc registered for `schema`; a schema without one fails the test (comparing undefined with undefined proves nothing). */
const descriptionOf = (schema: z.core.$ZodType): string => {
  const description = z.globalRegistry.get(schema)?.description;
  expect(description, 'the schema has a description').toMatch(/\S/);
  return description as string;
};

// ---- (a) CEL rules ----

/** Every rule in the CRD, with the node it sits on and where. */
interface PlacedRule extends ValidationRule {
  at: string;
  node: StructuralSchema;
}

function placedRules(schema: StructuralSchema, at: string): PlacedRule[] {
  const here = (schema['x-kubernetes-validations'] ?? []).map((rule) => ({ ...rule, at, node: schema }));
  const below = [
    ...Object.entries(schema.properties ?? {}).map(([key, child]) => placedRules(child, `${at}.${key}`)),
    schema.items ? placedRules(schema.items, `${at}[]`) : [],
    schema.additionalProperties ? placedRules(schema.additionalProperties, `${at}.*`) : [],
  ];
  return [...here, ...below.flat()];
}

const allRules = definition.spec.versions.flatMap((v) => placedRules(v.schema.openAPIV3Schema, v.name));

/** Values at the rule's node: each valid one must give true, each invalid one false. */
interface RuleExamples {
  valid: unknown[];
  invalid: unknown[];
}

const secretForms = {
  valid: [{ secretKeyRef: { name: 's', key: 'k' } }, { name: 's', key: 'k' }],
  invalid: [{}, { name: 's' }, { secretKeyRef: { name: 's', key: 'k' }, name: 's' }, { secretKeyRef: { name: 's', key: 'k' }, key: 'k' }],
};
const overrideExclusive = (field: string, value: unknown): RuleExamples => ({
  valid: [{ distribution: { name: 'starter' }, [field]: value }, { distribution: { name: 'starter' }, overrideConfig: { configMapName: 'cfg' } }],
  invalid: [{ distribution: { name: 'starter' }, overrideConfig: { configMapName: 'cfg' }, [field]: value }],
});
const secret = { secretKeyRef: { name: 'db', key: 'password' } };

/** Keyed by rule text: a rule placed at several nodes (kv and sql) is checked at each with these. */
const examples: Record<string, RuleExamples> = {
  '(has(self.secretKeyRef) && !has(self.name) && !has(self.key)) || (has(self.name) && has(self.key) && !has(self.secretKeyRef))': secretForms,
  '!has(self.overrideConfig) || !has(self.providers)': overrideExclusive('providers', { inference: { provider: 'vllm' } }),
  '!has(self.overrideConfig) || !has(self.resources)': overrideExclusive('resources', { models: ['m'] }),
  '!has(self.overrideConfig) || !has(self.storage)': overrideExclusive('storage', { kv: { type: 'sqlite' } }),
  '!has(self.overrideConfig) || !has(self.disabled)': overrideExclusive('disabled', ['safety']),
  'has(self.name) || has(self.image)': {
    valid: [{ name: 'starter' }, { image: 'docker.io/llamastack/distribution-starter:0.7.1' }],
    invalid: [{}],
  },
  '!has(self.name) || !has(self.image)': {
    valid: [{ name: 'starter' }, { image: 'x:1' }, {}],
    invalid: [{ name: 'starter', image: 'x:1' }],
  },
  '!has(self.connectionString)': {
    valid: [{ type: 'postgres', host: 'pg', user: 'u' }],
    invalid: [{ type: 'postgres', connectionString: secret }],
  },
  "(has(self.type) && self.type != 'sqlite') || !(has(self.endpoint) || has(self.host) || has(self.port) || has(self.database) || has(self.user) || has(self.password))":
    {
      valid: [{}, { type: 'sqlite' }, { type: 'postgres', host: 'pg', user: 'u' }],
      invalid: [{ host: 'pg' }, { type: 'sqlite', password: secret }, { port: 5432 }],
    },
  "!has(self.type) || self.type != 'redis' || !(has(self.database) || has(self.user))": {
    valid: [
      { type: 'redis', endpoint: 'redis://r:6379' },
      { type: 'postgres', host: 'pg', user: 'u', database: 'd' },
    ],
    invalid: [
      { type: 'redis', host: 'r', user: 'u' },
      { type: 'redis', host: 'r', database: 'd' },
    ],
  },
  "!has(self.type) || self.type != 'redis' || has(self.endpoint) || has(self.host)": {
    valid: [{ type: 'redis', endpoint: 'redis://r:6379' }, { type: 'redis', host: { secretKeyRef: { name: 'r', key: 'host' } } }, {}],
    invalid: [{ type: 'redis' }, { type: 'redis', port: 6379 }],
  },
  "!has(self.type) || self.type != 'redis' || !has(self.endpoint) || !(has(self.host) || has(self.port))": {
    valid: [
      { type: 'redis', endpoint: 'redis://r:6379' },
      { type: 'redis', host: 'r', port: 6379 },
    ],
    invalid: [
      { type: 'redis', endpoint: 'redis://r:6379', port: 6379 },
      { type: 'redis', endpoint: 'redis://r:6379', host: 'r' },
    ],
  },
  "!has(self.type) || self.type != 'postgres' || !has(self.endpoint)": {
    valid: [
      { type: 'postgres', host: 'pg', user: 'u' },
      { type: 'redis', endpoint: 'redis://r:6379' },
    ],
    invalid: [{ type: 'postgres', host: 'pg', user: 'u', endpoint: 'postgres://pg' }],
  },
  "!has(self.type) || self.type != 'postgres' || has(self.host)": {
    valid: [{ type: 'postgres', host: 'pg', user: 'u' }, { type: 'sqlite' }],
    invalid: [{ type: 'postgres', user: 'u' }],
  },
  "!has(self.type) || self.type != 'postgres' || has(self.user)": {
    valid: [{ type: 'postgres', host: 'pg', user: { secretKeyRef: { name: 'db', key: 'user' } } }, {}],
    invalid: [{ type: 'postgres', host: 'pg' }],
  },
  "!has(self.type) || self.type != 'redis'": {
    valid: [{}, { type: 'sqlite' }, { type: 'postgres', host: 'pg', user: 'u' }],
    invalid: [{ type: 'redis', endpoint: 'redis://r:6379' }],
  },
  '!has(self.enabled) || !self.enabled || has(self.secretName)': {
    valid: [{}, { enabled: false }, { enabled: true, secretName: 'tls' }, { caBundle: { configMapName: 'ca' } }],
    invalid: [{ enabled: true }],
  },
  '!has(self.secretName) || (has(self.enabled) && self.enabled)': {
    valid: [{}, { enabled: true, secretName: 'tls' }, { enabled: false }],
    invalid: [{ secretName: 'tls' }, { enabled: false, secretName: 'tls' }],
  },
  '!has(self.minReplicas) || self.maxReplicas >= self.minReplicas': {
    valid: [{ maxReplicas: 3 }, { minReplicas: 2, maxReplicas: 2 }, { minReplicas: 1, maxReplicas: 5 }],
    invalid: [{ minReplicas: 4, maxReplicas: 2 }],
  },
  'has(self.minAvailable) || has(self.maxUnavailable)': {
    valid: [{ minAvailable: 1 }, { maxUnavailable: '50%' }],
    invalid: [{}],
  },
  '!has(self.minAvailable) || !has(self.maxUnavailable)': {
    valid: [{ minAvailable: '50%' }, { maxUnavailable: 1 }, {}],
    invalid: [{ minAvailable: 1, maxUnavailable: 1 }],
  },
};

describe('CEL rules in the CRD', () => {
  it('has rules, and every rule has valid and invalid examples here (a new rule needs examples)', () => {
    expect(allRules.length).toBeGreaterThan(10);
    const missing = [...new Set(allRules.map((r) => r.rule))].filter((rule) => !examples[rule]?.valid.length || !examples[rule]?.invalid.length);
    expect(missing).toEqual([]);
    const stale = Object.keys(examples).filter((rule) => !allRules.some((r) => r.rule === rule));
    expect(stale).toEqual([]);
  });

  it.each(allRules.map((r) => [`${r.at}: ${r.rule}`, r] as const))('%s', (_name, placed) => {
    expect(placed.message.length).toBeGreaterThan(0);
    const checked = environmentFor(placed.node).check(placed.rule);
    expect(checked.error?.message).toBeUndefined();
    expect(checked.type).toBe('bool');
    expect(undeclaredFields(placed, placed.node)).toEqual([]);
    const { valid, invalid } = examples[placed.rule] ?? { valid: [], invalid: [] };
    for (const value of valid) expect({ value, result: evaluate(placed.rule, placed.node, value) }).toEqual({ value, result: true });
    for (const value of invalid) expect({ value, result: evaluate(placed.rule, placed.node, value) }).toEqual({ value, result: false });
  });

  it("rejects the proposal's rules that do not compile", () => {
    const autoscaling = allRules.find((r) => r.at === 'v1alpha2.spec.workload.autoscaling')?.node ?? {};
    expect(environmentFor(autoscaling).check('!has(self.minReplicas) || self.maxReplicas >= *self.minReplicas').valid).toBe(false);
    expect(environmentFor({ type: 'array', items: { type: 'string' } }).check('self.size() == self.toSet().size()').valid).toBe(false);
  });
});

// ---- The CRD's rules against whole LLSDs ----

/** The messages of every rule that fails somewhere in `value`, as the API server would run them. */
function celViolations(schema: StructuralSchema, value: unknown, at: string): string[] {
  if (value === undefined || value === null) return [];
  const here = (schema['x-kubernetes-validations'] ?? [])
    .filter((rule) => {
      try {
        return evaluate(rule.rule, schema, value) !== true;
      } catch {
        return true; // Kubernetes reports an evaluation error as a failed rule
      }
    })
    .map((rule) => `${at}${rule.fieldPath ?? ''}: ${rule.message}`);
  const below: string[][] = [];
  if (Array.isArray(value) && schema.items) value.forEach((v, i) => below.push(celViolations(schema.items ?? {}, v, `${at}[${i}]`)));
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, v] of Object.entries(value)) {
      const child = schema.properties?.[key] ?? schema.additionalProperties;
      if (child) below.push(celViolations(child, v, `${at}.${key}`));
    }
  }
  return [...here, ...below.flat()];
}

const v1alpha2Spec = (): StructuralSchema => {
  const version = definition.spec.versions.find((v) => v.name === 'v1alpha2');
  const spec = version?.schema.openAPIV3Schema.properties?.spec;
  if (!spec) throw new Error('no v1alpha2 spec in the CRD');
  return spec;
};

/** Every v1alpha2 LLSD in the examples and golden inputs (items and functionConfig of ResourceLists). */
function shippedLlsds(): Array<{ source: string; object: KrmObject }> {
  const files = [
    ...yamlFilesUnder(join(repoRoot, 'examples')),
    ...readdirSync(join(repoRoot, 'test', 'golden')).map((dir) => join(repoRoot, 'test', 'golden', dir, 'input.yaml')),
  ];
  const found: Array<{ source: string; object: KrmObject }> = [];
  for (const file of files) {
    for (const doc of parseAllDocuments(readFileSync(file, 'utf8'))) {
      if (!('toJS' in doc)) continue;
      const value = doc.toJS() as Record<string, unknown> | null;
      const candidates = value?.kind === 'ResourceList' ? [...((value.items as unknown[]) ?? []), value.functionConfig] : [value];
      for (const object of candidates as Array<Record<string, unknown> | null | undefined>) {
        if (object?.kind === 'LlamaStackDistribution' && object.apiVersion === 'llamastack.io/v1alpha2') {
          found.push({ source: relative(repoRoot, file), object: object as unknown as KrmObject });
        }
      }
    }
  }
  return found;
}

function yamlFilesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return yamlFilesUnder(path);
    return /\.ya?ml$/.test(entry.name) ? [path] : [];
  });
}

const llsds = shippedLlsds();

describe('the CRD rules agree with the renderer', () => {
  it('finds the shipped LLSDs', () => {
    expect(llsds.filter((l) => l.source.startsWith('examples')).length).toBeGreaterThanOrEqual(5);
    expect(llsds.filter((l) => l.source.startsWith('test')).length).toBeGreaterThanOrEqual(5);
  });

  it.each(llsds.map((l) => [`${l.source} ${l.object.metadata.name}`, l] as const))(
    '%s: a rule fails only where the renderer reports an error',
    (_name, { object }) => {
      const violations = celViolations(v1alpha2Spec(), (object as { spec?: unknown }).spec, 'spec');
      const parsed = parseLlsd(object);
      if (violations.length > 0) expect(parsed.ok).toBe(false);
    },
  );

  it('every example under examples/ passes every rule', () => {
    for (const { source, object } of llsds.filter((l) => l.source.startsWith('examples'))) {
      expect({ source, violations: celViolations(v1alpha2Spec(), (object as { spec?: unknown }).spec, 'spec') }).toEqual({ source, violations: [] });
    }
  });

  it.each([
    ['distribution: {name: starter, image: "x:1"}', 'spec.distribution: must set only one of `name` and `image`'],
    ['distribution: {}', 'spec.distribution: must set `name`'],
    [
      'distribution: {name: starter}\noverrideConfig: {configMapName: c}\nresources: {models: [m]}',
      'spec.resources: cannot be combined with `spec.overrideConfig`',
    ],
    ['distribution: {name: starter}\nstorage: {sql: {type: redis, endpoint: "redis://r:6379"}}', 'spec.storage.sql.type: must be `sqlite` or `postgres`'],
    [
      'distribution: {name: starter}\nstorage: {sql: {type: postgres, connectionString: {name: db, key: url}}}',
      'spec.storage.sql.connectionString: is not supported',
    ],
    ['distribution: {name: starter}\nstorage: {kv: {type: postgres, host: pg}}', 'spec.storage.kv.user: is required for a postgres store'],
    ['distribution: {name: starter}\nstorage: {kv: {type: redis, password: {name: s}}}', 'spec.storage.kv.password: must be written in one of these forms'],
    ['distribution: {name: starter}\nnetworking: {tls: {secretName: tls}}', 'spec.networking.tls.enabled: must be true when `secretName` is set'],
    [
      'distribution: {name: starter}\nworkload: {autoscaling: {minReplicas: 3, maxReplicas: 2}}',
      'spec.workload.autoscaling.maxReplicas: must be at least `minReplicas`',
    ],
    [
      'distribution: {name: starter}\nworkload: {podDisruptionBudget: {minAvailable: 1, maxUnavailable: 1}}',
      'spec.workload.podDisruptionBudget: must set only one of',
    ],
  ])('rejects %j like the renderer', (specYaml, expected) => {
    const spec: unknown = parseAllDocuments(specYaml)[0]?.toJS();
    const violations = celViolations(v1alpha2Spec(), spec, 'spec');
    expect(violations.some((v) => v.startsWith(expected))).toBe(true);
    const parsed = parseLlsd({ apiVersion: 'llamastack.io/v1alpha2', kind: 'LlamaStackDistribution', metadata: { name: 'x' }, spec });
    expect(parsed.ok).toBe(false);
  });
});

// ---- (b) the CRD is structural ----

/** The fields of apiextensions.k8s.io/v1 JSONSchemaProps this CRD may use. */
const schemaKeys = new Set([
  'type', 'description', 'default', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'pattern', 'minLength', 'maxLength',
  'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minItems', 'maxItems', 'minProperties', 'maxProperties', 'anyOf',
  'x-kubernetes-int-or-string', 'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-validations',
]);

/** Problems that make Kubernetes reject a schema as not structural (or not a JSONSchemaProps). */
function structuralProblems(schema: StructuralSchema, at: string): string[] {
  const problems: string[] = [];
  const node = schema as Record<string, unknown>;
  for (const key of Object.keys(node)) if (!schemaKeys.has(key)) problems.push(`${at}: ${key} is not allowed`);
  if (schema['x-kubernetes-int-or-string']) {
    if (schema.type !== undefined) problems.push(`${at}: int-or-string with a type`);
    if (JSON.stringify(schema.anyOf) !== JSON.stringify([{ type: 'integer' }, { type: 'string' }]))
      problems.push(`${at}: int-or-string anyOf must be [integer, string]`);
  } else {
    if (schema.anyOf) problems.push(`${at}: anyOf outside int-or-string`);
    if (schema.type === undefined && !schema['x-kubernetes-preserve-unknown-fields']) problems.push(`${at}: no type`);
  }
  if (schema.type === undefined && (schema.properties || schema.items || schema.additionalProperties)) problems.push(`${at}: children without a type`);
  if (schema.properties && schema.type !== 'object') problems.push(`${at}: properties on a ${schema.type}`);
  if (schema.additionalProperties !== undefined) {
    if (typeof schema.additionalProperties !== 'object') problems.push(`${at}: additionalProperties must be a schema`);
    if (schema.properties) problems.push(`${at}: properties and additionalProperties together`);
    if (schema.type !== 'object') problems.push(`${at}: additionalProperties on a ${schema.type}`);
  }
  if ((schema.type === 'array') !== (schema.items !== undefined)) problems.push(`${at}: items go with type array`);
  for (const key of ['exclusiveMinimum', 'exclusiveMaximum'] as const) {
    if (schema[key] !== undefined && typeof schema[key] !== 'boolean') problems.push(`${at}: ${key} must be a boolean in OpenAPI v3.0`);
  }
  // Kubernetes checks that a default validates against its node.
  if (schema.default !== undefined && !matchesType(schema.default, schema))
    problems.push(`${at}: default ${JSON.stringify(schema.default)} is not a ${schema.type}`);
  for (const key of schema.required ?? []) if (!schema.properties?.[key]) problems.push(`${at}: required ${key} is not a property`);
  for (const rule of schema['x-kubernetes-validations'] ?? []) {
    if (!rule.rule || !rule.message) problems.push(`${at}: a rule without rule or message`);
    if (Object.keys(rule).some((k) => !['rule', 'message', 'fieldPath'].includes(k))) problems.push(`${at}: unknown rule field`);
    for (const field of undeclaredFields(rule, schema)) problems.push(`${at}: rule names undeclared field ${field}`);
  }
  for (const [key, child] of Object.entries(schema.properties ?? {})) problems.push(...structuralProblems(child, `${at}.${key}`));
  if (schema.items) problems.push(...structuralProblems(schema.items, `${at}[]`));
  if (typeof schema.additionalProperties === 'object') problems.push(...structuralProblems(schema.additionalProperties, `${at}.*`));
  for (const member of schema.anyOf ?? []) {
    if (Object.keys(member).some((k) => k !== 'type')) problems.push(`${at}: anyOf members may hold only a type here`);
  }
  return problems;
}

function matchesType(value: unknown, schema: StructuralSchema): boolean {
  switch (schema.type) {
    case 'integer':
      return (
        Number.isInteger(value) &&
        (schema.minimum === undefined || (value as number) >= schema.minimum) &&
        (schema.maximum === undefined || (value as number) <= schema.maximum)
      );
    case 'string':
      return (
        typeof value === 'string' &&
        (schema.minLength === undefined || value.length >= schema.minLength) &&
        (schema.pattern === undefined || new RegExp(schema.pattern).test(value))
      );
    case 'boolean':
      return typeof value === 'boolean';
    default:
      return false; // no defaults on other nodes yet; check them when one appears
  }
}

describe('the CRD', () => {
  it('names LlamaStackDistribution as the operator did', () => {
    expect(definition.metadata.name).toBe('llamastackdistributions.llamastack.io');
    expect(definition.spec).toMatchObject({
      group: 'llamastack.io',
      scope: 'Namespaced',
      names: {
        kind: 'LlamaStackDistribution',
        listKind: 'LlamaStackDistributionList',
        plural: 'llamastackdistributions',
        singular: 'llamastackdistribution',
        shortNames: ['llsd'],
      },
    });
  });

  it('serves every version, stores v1alpha2, and has the status subresource and printer columns', () => {
    const versions = definition.spec.versions;
    expect(versions.map((v) => v.served)).toEqual(versions.map(() => true));
    expect(versions.filter((v) => v.storage).map((v) => v.name)).toEqual(['v1alpha2']);
    for (const v of versions) {
      expect(v.subresources).toEqual({ status: {} });
      expect(v.additionalPrinterColumns.map((c) => c.name)).toContain('Age');
      expect(v.schema.openAPIV3Schema.properties?.status).toEqual(expect.objectContaining({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true }));
    }
  });

  it('converts through the llsd-render webhook exactly when more than one version is served', () => {
    if (definition.spec.versions.length === 1) {
      expect(definition.spec.conversion).toBeUndefined();
      return;
    }
    expect(definition.spec.conversion).toEqual({
      strategy: 'Webhook',
      webhook: {
        conversionReviewVersions: ['v1'],
        clientConfig: { service: { namespace: 'llsd-render-system', name: 'llsd-render-webhook', path: '/convert', port: 443 } },
      },
    });
    expect(definition.metadata.annotations).toEqual({ 'cert-manager.io/inject-ca-from': 'llsd-render-system/llsd-render-webhook' });
  });

  it('a webhook and its CA annotation appear with a second version', () => {
    const v2 = { name: 'v1alpha2', spec: specSchema, rules: {}, columns: [], description: 'An LLSD.' };
    const two = crd([{ ...v2, name: 'v1alpha1' }, v2]);
    expect(two.spec.conversion?.strategy).toBe('Webhook');
    expect(two.spec.versions.map((v) => [v.name, v.storage])).toEqual([['v1alpha1', false], ['v1alpha2', true]]);
    expect(crd([v2]).spec.conversion).toBeUndefined();
    expect(crd([v2]).metadata.annotations).toBeUndefined();
  });

  it.each(definition.spec.versions.map((v) => [v.name, v] as const))('%s has a structural schema', (_name, version) => {
    const root = version.schema.openAPIV3Schema;
    expect(structuralProblems(root, version.name)).toEqual([]);
    expect(JSON.stringify(root)).not.toMatch(/"\$ref"|"oneOf"|"allOf"|"not"|"\$schema"|"const"|"propertyNames"|"additionalProperties":false/);
    // Kubernetes allows only restrictions on metadata.name and generateName, and no description.
    expect(root.properties?.metadata).toEqual({ type: 'object', properties: { name: expect.objectContaining({ type: 'string' }) } });
    expect(Object.keys(root.properties ?? {})).toEqual(['apiVersion', 'kind', 'metadata', 'spec', 'status']);
  });

  // The OGXServer's CRD (src/ogx/crd.ts) is made by the same structural(); test/unit/ogx-crd.test.ts compares it with upstream's.
  it('the OGXServer CRD has a structural schema too', () => {
    const root = ogxCrd().spec.versions[0]?.schema.openAPIV3Schema ?? {};
    expect(structuralProblems(root, 'v1beta1')).toEqual([]);
    expect(JSON.stringify(root)).not.toMatch(/"\$ref"|"oneOf"|"allOf"|"not"|"\$schema"|"const"|"propertyNames"|"examples"|"additionalProperties":false/);
  });

  it('the v1alpha2 field docs are the zod descriptions', () => {
    expect(v1alpha2Spec().properties?.distribution?.description).toBe(descriptionOf(distributionSpec));
    expect(v1alpha2Spec().properties?.distribution?.properties?.name?.description).toBe(descriptionOf(distributionSpec.shape.name));
  });

  it('encodes the unions the API server cannot check as nodes that keep any value, saying so', () => {
    const spec = v1alpha2Spec();
    for (const node of [
      spec.properties?.providers?.properties?.inference,
      spec.properties?.resources?.properties?.models?.items,
      spec.properties?.networking?.properties?.expose,
      spec.properties?.storage?.properties?.kv?.properties?.host,
    ]) {
      expect(node).toEqual({ description: expect.stringMatching(/llsd-render checks its shape/), 'x-kubernetes-preserve-unknown-fields': true });
    }
    expect(spec.properties?.workload?.properties?.podDisruptionBudget?.properties?.minAvailable).toMatchObject({
      'x-kubernetes-int-or-string': true,
      pattern: '^[0-9]+%$',
      minimum: 0,
    });
  });
});

describe('structural()', () => {
  const of = (schema: z.core.$ZodType) => structural(jsonSchemaOf(schema), 'x');

  it('drops `additionalProperties: false` (the API server prunes) and keeps loose objects open', () => {
    expect(of(z.strictObject({ a: z.string() }))).toEqual({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] });
    expect(of(z.looseObject({ a: z.optional(z.string()) }))).toEqual({
      type: 'object',
      properties: { a: { type: 'string' } },
      'x-kubernetes-preserve-unknown-fields': true,
    });
    expect(of(z.record(z.string(), z.unknown()))).toEqual({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
    expect(of(z.record(z.string().check(z.regex(/^a/)), z.int().check(z.minimum(0))))).toEqual({
      type: 'object',
      additionalProperties: { type: 'integer', minimum: 0 },
    });
  });

  it('translates draft 2020-12 keywords to OpenAPI v3.0', () => {
    expect(of(z.literal('x'))).toEqual({ type: 'string', enum: ['x'] });
    expect(of(z.int().check(z.positive()))).toEqual({ type: 'integer', minimum: 1 });
    expect(of(z.number().check(z.positive()))).toEqual({ type: 'number', minimum: 0, exclusiveMinimum: true });
    expect(of(described(z._default(z.string(), 'a'), 'd'))).toEqual({ type: 'string', default: 'a', description: 'd' });
  });

  it('encodes int-or-string, objects of different fields, and other unions', () => {
    expect(of(z.union([z.int().check(z.minimum(0)), z.string().check(z.regex(/^[0-9]+%$/))]))).toEqual({
      'x-kubernetes-int-or-string': true,
      anyOf: [{ type: 'integer' }, { type: 'string' }],
      minimum: 0,
      pattern: '^[0-9]+%$',
    });
    expect(of(z.union([z.strictObject({ a: z.string() }), z.strictObject({ b: z.int(), c: z.optional(z.int()) })]))).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'integer' }, c: { type: 'integer' } },
      'x-kubernetes-validations': [
        {
          rule: '(has(self.a) && !has(self.b) && !has(self.c)) || (has(self.b) && !has(self.a))',
          message: 'must be written in one of these forms: `{a}`, `{b, c}`',
        },
      ],
    });
    expect(of(described(z.union([z.string(), z.array(z.string())]), 'One or many.'))).toEqual({
      description: 'One or many. Written as a string or a list; the API server keeps it as written, and llsd-render checks its shape.',
      'x-kubernetes-preserve-unknown-fields': true,
    });
  });

  it('refuses what it cannot translate instead of dropping it', () => {
    expect(() => of(z.email())).toThrow('x: no structural form for JSON Schema keyword format');
    expect(() => of(z._default(z.union([z.string(), z.int()]), 1))).toThrow('x: no structural form for default on a union');
  });
});

// ---- (c) the JSON Schema ----

const ajv = new Ajv2020({ allErrors: true, strict: true });
const validateSpec = ajv.compile(jsonSchemaOfSpec());
const validateLlsd = ajv.compile(jsonSchemaOfLlsd());

describe('the JSON Schema', () => {
  it('is draft 2020-12, documented, and strict where zod is', () => {
    const schema = jsonSchemaOfSpec();
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.description).toBe(descriptionOf(specSchema));
    expect(schema.additionalProperties).toBe(false);
    expect(JSON.stringify(schema)).not.toContain('"$ref"');
  });

  it.each(llsds.map((l) => [`${l.source} ${l.object.metadata.name}`, l] as const))('%s: accepts the spec exactly when zod does', (_name, { object }) => {
    const spec = (object as { spec?: unknown }).spec;
    expect({ accepted: validateSpec(spec), errors: validateSpec.errors }).toMatchObject({ accepted: specSchema.safeParse(spec).success });
    expect({ accepted: validateLlsd(object), errors: validateLlsd.errors }).toMatchObject({ accepted: llsdSchema.safeParse(object).success });
  });

  it('accepts every example', () => {
    for (const { source, object } of llsds.filter((l) => l.source.startsWith('examples'))) {
      expect({ source, ok: validateSpec((object as { spec?: unknown }).spec), errors: validateSpec.errors }).toEqual({ source, ok: true, errors: null });
      expect({ source, ok: validateLlsd(object), errors: validateLlsd.errors }).toEqual({ source, ok: true, errors: null });
    }
  });

  it.each([
    ['an unknown field', { distribution: { nam: 'starter' } }, '/distribution', 'additionalProperties'],
    ['an unknown top-level field', { distribution: { name: 'starter' }, provider: {} }, '', 'additionalProperties'],
    ['a wrong type', { distribution: { name: 'starter' }, workload: { replicas: 'two' } }, '/workload/replicas', 'type'],
    ['a missing distribution', { providers: {} }, '', 'required'],
    ['an empty provider list', { distribution: { name: 'starter' }, providers: { inference: [] } }, '/providers/inference', 'minItems'],
    [
      'a secret value written inline',
      { distribution: { name: 'starter' }, providers: { inference: { provider: 'vllm', apiKey: 'sk-123' } } },
      '/providers/inference/apiKey',
      'type',
    ],
    ['an unknown disabled API', { distribution: { name: 'starter' }, disabled: ['vectorio'] }, '/disabled/0', 'enum'],
    ['a bad quantity', { distribution: { name: 'starter' }, workload: { storage: { size: '10 GB' } } }, '/workload/storage/size', 'pattern'],
  ])('rejects %s', (_what, spec, instancePath, keyword) => {
    expect(validateSpec(spec)).toBe(false);
    expect(specSchema.safeParse(spec).success).toBe(false);
    expect(validateSpec.errors?.map((e) => [e.instancePath, e.keyword])).toContainEqual([instancePath, keyword]);
  });

  it('the document schema rejects another kind or version', () => {
    const llsd = {
      apiVersion: 'llamastack.io/v1alpha2',
      kind: 'LlamaStackDistribution',
      metadata: { name: 'demo' },
      spec: { distribution: { name: 'starter' } },
    };
    expect(validateLlsd(llsd)).toBe(true);
    expect(validateLlsd({ ...llsd, apiVersion: 'llamastack.io/v1alpha1' })).toBe(false);
    expect(validateLlsd({ ...llsd, kind: 'Deployment' })).toBe(false);
    expect(validateLlsd({ ...llsd, metadata: { name: 'Demo_1' } })).toBe(false);
  });
});

