// The CustomResourceDefinition of LlamaStackDistribution (`schema --crd`), generated from the zod
// schemas (STYLE §9) for clusters that should accept LLSDs: with `kubectl apply` of the CRs
// (Argo CD, Flux) or for server-side validation and `kubectl explain`. llsd-render itself never
// needs it: it renders at commit time, and no controller writes `status`.
//
// zod's JSON Schema is turned into a structural OpenAPI v3 schema (the form Kubernetes requires
// for CRDs) by `structural()`, a pure transformation; the rules across fields of `rules.ts` that
// CEL can express on structural nodes are added as `x-kubernetes-validations`.
import type { z } from '../lib/zod.js';
import { jsonSchemaOf, type JsonSchema } from './json-schema.js';
import { v1alpha1Schemas } from './llsd-v1alpha1.js';
import { group, kind, llsdV1alpha2Schemas } from './llsd-v1alpha2.js';

/** The Service in front of `llsd-render webhook`, which converts between the served versions. */
export const conversionWebhook = {
  namespace: 'llsd-render-system',
  name: 'llsd-render-webhook',
  path: '/convert',
  port: 443,
} as const;

export const plural = 'llamastackdistributions';
export const crdName = `${plural}.${group}`;

export interface ValidationRule {
  rule: string;
  message: string;
  /** Relative to the node the rule sits on, e.g. `.secretName`. */
  fieldPath?: string;
}

/** The subset of OpenAPI v3 that a structural CRD schema uses. */
export interface StructuralSchema {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  description?: string;
  /** Applied by the API server, as the v1alpha1 operator's CRD did. */
  default?: unknown;
  properties?: Record<string, StructuralSchema>;
  required?: string[];
  additionalProperties?: StructuralSchema;
  items?: StructuralSchema;
  enum?: unknown[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  minItems?: number;
  maxItems?: number;
  minProperties?: number;
  maxProperties?: number;
  anyOf?: StructuralSchema[];
  'x-kubernetes-int-or-string'?: true;
  'x-kubernetes-preserve-unknown-fields'?: true;
  'x-kubernetes-validations'?: ValidationRule[];
}

export interface PrinterColumn {
  name: string;
  type: 'string' | 'integer' | 'date';
  jsonPath: string;
  description?: string;
  priority?: number;
}

export interface CrdVersion {
  name: string;
  served: boolean;
  storage: boolean;
  schema: { openAPIV3Schema: StructuralSchema };
  subresources: { status: Record<string, never> };
  additionalPrinterColumns: PrinterColumn[];
}

export interface CustomResourceDefinition {
  apiVersion: 'apiextensions.k8s.io/v1';
  kind: 'CustomResourceDefinition';
  metadata: { name: string; annotations?: Record<string, string> };
  spec: {
    group: string;
    names: { kind: string; listKind: string; plural: string; singular: string; shortNames: string[] };
    scope: 'Namespaced';
    conversion?: {
      strategy: 'Webhook';
      webhook: {
        conversionReviewVersions: string[];
        clientConfig: { service: { namespace: string; name: string; path: string; port: number } };
      };
    };
    versions: CrdVersion[];
  };
}

/** One served version, described by its zod `spec` schema. */
export interface VersionSource {
  name: string;
  spec: z.core.$ZodType;
  rules: Readonly<Record<string, readonly ValidationRule[]>>;
  columns: PrinterColumn[];
}

/** The CRD; the last of `versions` is the storage version. */
export function crd(versions: readonly VersionSource[] = servedVersions): CustomResourceDefinition {
  const webhook = versions.length > 1;
  const definition: CustomResourceDefinition = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: webhook
      ? { name: crdName, annotations: { 'cert-manager.io/inject-ca-from': `${conversionWebhook.namespace}/${conversionWebhook.name}` } }
      : { name: crdName },
    spec: {
      group,
      names: { kind, listKind: `${kind}List`, plural, singular: kind.toLowerCase(), shortNames: ['llsd'] },
      scope: 'Namespaced',
      versions: versions.map((source, i) => crdVersion(source, i === versions.length - 1)),
    },
  };
  if (webhook) {
    // Two served versions stored as one need a conversion webhook: `llsd-render webhook` serves
    // it; its CA bundle is injected by cert-manager (the annotation above) or set by the user.
    definition.spec.conversion = {
      strategy: 'Webhook',
      webhook: {
        conversionReviewVersions: ['v1'],
        clientConfig: { service: { ...conversionWebhook } },
      },
    };
  }
  return definition;
}

function crdVersion(source: VersionSource, storage: boolean): CrdVersion {
  const spec = withRules(structural(jsonSchemaOf(source.spec), 'spec'), source.rules);
  const name = structural(jsonSchemaOf(llsdV1alpha2Schemas().dnsLabel), 'metadata.name');
  return {
    name: source.name,
    served: true,
    storage,
    schema: {
      openAPIV3Schema: {
        type: 'object',
        description: `${kind} (${group}/${source.name}): a llama-stack server, rendered into a config.yaml and Kubernetes objects by llsd-render.`,
        required: ['spec'],
        properties: {
          apiVersion: { type: 'string', description: 'The versioned schema of this object.' },
          kind: { type: 'string', description: 'The REST resource this object represents.' },
          // Kubernetes allows only `name` and `generateName` restrictions here, and no description.
          metadata: { type: 'object', properties: { name } },
          spec,
          status: {
            type: 'object',
            description: 'Not written by llsd-render, which renders at commit time without a controller.',
            'x-kubernetes-preserve-unknown-fields': true,
          },
        },
      },
    },
    subresources: { status: {} },
    additionalPrinterColumns: [...source.columns, { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' }],
  };
}

// ---- JSON Schema (from zod) → structural OpenAPI v3 ----

/**
 * A structural schema for one node of zod's JSON Schema. `at` names the node in the error thrown
 * for a construct this function does not know (a bug to fix here, never a user error).
 *
 * - strict objects lose `additionalProperties: false`: Kubernetes prunes unknown fields instead;
 * - loose objects and records of unknown values get `x-kubernetes-preserve-unknown-fields`;
 * - key patterns (`propertyNames`) are dropped: the renderer checks them;
 * - unions become, by their members: int or string → `x-kubernetes-int-or-string`; objects only
 *   → one object with every member's fields and a CEL rule that exactly one member's fields are
 *   set; anything else (string or object, boolean or object, object or list) → a node that keeps
 *   any value, whose shape llsd-render checks.
 */
export function structural(node: JsonSchema, at: string): StructuralSchema {
  if (node.anyOf) return fromUnion(node, at);
  const unknown = Object.keys(node).filter((key) => !knownKeywords.has(key));
  if (unknown.length > 0) throw new Error(`${at}: no structural form for JSON Schema keyword ${unknown.join(', ')}`);

  const out: StructuralSchema = {};
  if (node.description !== undefined) out.description = node.description;
  if (node.default !== undefined) out.default = node.default;
  switch (node.type) {
    case undefined:
      if (Object.keys(node).some((key) => key !== 'description' && key !== 'default')) throw new Error(`${at}: a schema without a type`);
      out['x-kubernetes-preserve-unknown-fields'] = true;
      return out;
    case 'object':
      return objectNode(node, out, at);
    case 'array':
      if (!node.items || Array.isArray(node.items) || typeof node.items !== 'object') throw new Error(`${at}: an array without one items schema`);
      out.type = 'array';
      out.items = structural(node.items, `${at}[]`);
      copy(node, out, ['minItems', 'maxItems']);
      return out;
    case 'string':
      out.type = 'string';
      copy(node, out, ['enum', 'pattern', 'minLength', 'maxLength']);
      if (node.const !== undefined) out.enum = [node.const];
      return out;
    case 'integer':
    case 'number':
      out.type = node.type;
      numberBounds(node, out);
      return out;
    case 'boolean':
      out.type = 'boolean';
      if (node.const !== undefined) out.enum = [node.const];
      return out;
    default:
      throw new Error(`${at}: no structural form for type ${JSON.stringify(node.type)}`);
  }
}

/** The JSON Schema keywords `structural()` translates; any other one is an error to fix here. */
const knownKeywords = new Set(['$schema', 'title', 'description', 'default', 'type', 'properties', 'required', 'additionalProperties',
  'propertyNames', 'items', 'enum', 'const', 'pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'minItems', 'maxItems']);

function objectNode(node: JsonSchema, out: StructuralSchema, at: string): StructuralSchema {
  out.type = 'object';
  const properties = Object.entries(node.properties ?? {});
  if (properties.length > 0) {
    out.properties = Object.fromEntries(properties.map(([key, value]) => [key, structural(asSchema(value, `${at}.${key}`), `${at}.${key}`)]));
  }
  if (node.required && node.required.length > 0) out.required = [...node.required];
  const extra = node.additionalProperties;
  if (extra === undefined || extra === true || (typeof extra === 'object' && Object.keys(extra).length === 0)) {
    out['x-kubernetes-preserve-unknown-fields'] = true;
  } else if (extra !== false) {
    if (properties.length > 0) throw new Error(`${at}: an object with both properties and a schema for other keys`);
    out.additionalProperties = structural(extra, `${at}.*`);
  }
  return out;
}

function fromUnion(node: JsonSchema, at: string): StructuralSchema {
  const extra = Object.keys(node).filter((key) => !['anyOf', 'description', '$schema', 'title'].includes(key));
  if (extra.length > 0) throw new Error(`${at}: no structural form for ${extra.join(', ')} on a union`);
  const members = (node.anyOf ?? []).map((member, i) => asSchema(member, `${at}|${i}`));
  const types = members.map((member) => (member.anyOf ? 'union' : member.type));
  const description = node.description ?? members.map((m) => m.description).filter((d) => d !== undefined).join(' ');

  if (types.includes('string') && types.every((t) => t === 'string' || t === 'integer' || t === 'number')) {
    // As Kubernetes writes IntOrString and Quantity: value checks of either member sit on the node
    // and apply to values of their type. A fractional number is rejected here (Kubernetes quantities
    // are written as strings: "0.5").
    const out: StructuralSchema = { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] };
    if (description) out.description = description;
    for (const member of members) {
      if (member.type === 'string') copy(member, out, ['pattern', 'minLength', 'maxLength']);
      else numberBounds(member, out);
    }
    return out;
  }

  if (types.every((t) => t === 'object')) return mergedObjects(members, description, at);

  const kinds = [...new Set(types.map((t) => kindWords[String(t)] ?? 'another value'))];
  return {
    description: [description, `Written as ${kinds.join(' or ')}; the API server keeps it as written, and llsd-render checks its shape.`]
      .filter((d) => d)
      .join(' '),
    'x-kubernetes-preserve-unknown-fields': true,
  };
}

/** Objects of different fields, e.g. `{secretKeyRef: {name, key}}` or `{name, key}`: one object, and a rule that exactly one form is used. */
function mergedObjects(members: JsonSchema[], description: string, at: string): StructuralSchema {
  const properties: Record<string, StructuralSchema> = {};
  for (const member of members) {
    if (member.additionalProperties !== false) throw new Error(`${at}: a union of objects that are not strict`);
    for (const [key, value] of Object.entries(member.properties ?? {})) {
      const schema = structural(asSchema(value, `${at}.${key}`), `${at}.${key}`);
      if (properties[key] && JSON.stringify(properties[key]) !== JSON.stringify(schema)) throw new Error(`${at}.${key}: differs between union members`);
      properties[key] = schema;
    }
  }
  const all = Object.keys(properties);
  const forms = members.map((member) => {
    const own = Object.keys(member.properties ?? {});
    const conditions = [
      ...(member.required ?? []).map((key) => `has(self.${key})`),
      ...all.filter((key) => !own.includes(key)).map((key) => `!has(self.${key})`),
    ];
    return { own, condition: conditions.join(' && ') || 'true' };
  });
  const out: StructuralSchema = { type: 'object' };
  if (description) out.description = description;
  out.properties = properties;
  out['x-kubernetes-validations'] = [
    {
      rule: forms.map((form) => `(${form.condition})`).join(' || '),
      message: `must be written in one of these forms: ${forms.map((form) => `\`{${form.own.join(', ')}}\``).join(', ')}`,
    },
  ];
  return out;
}

const kindWords: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: '`true` or `false`',
  object: 'an object',
  array: 'a list',
};

/** Draft 2020-12 numeric bounds → OpenAPI v3.0; the ±2^53-1 bounds zod writes for every integer are left out. */
function numberBounds(node: JsonSchema, out: StructuralSchema): void {
  if (node.minimum !== undefined && node.minimum !== Number.MIN_SAFE_INTEGER) out.minimum = node.minimum;
  if (node.maximum !== undefined && node.maximum !== Number.MAX_SAFE_INTEGER) out.maximum = node.maximum;
  if (typeof node.exclusiveMinimum === 'number') {
    if (node.type === 'integer') out.minimum = node.exclusiveMinimum + 1;
    else Object.assign(out, { minimum: node.exclusiveMinimum, exclusiveMinimum: true });
  }
}

function copy(from: JsonSchema, to: StructuralSchema, keys: ReadonlyArray<keyof StructuralSchema>): void {
  for (const key of keys) {
    if (from[key] !== undefined) Object.assign(to, { [key]: from[key] });
  }
}

function asSchema(value: unknown, at: string): JsonSchema {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${at}: a boolean schema`);
  return value as JsonSchema;
}

/** The rules, by dotted path under `spec` ('' for `spec` itself), on their nodes. */
function withRules(spec: StructuralSchema, rules: Readonly<Record<string, readonly ValidationRule[]>>): StructuralSchema {
  for (const [path, list] of Object.entries(rules)) {
    let node = spec;
    for (const key of path ? path.split('.') : []) {
      const next = node.properties?.[key];
      if (!next) throw new Error(`rules for spec.${path}: no such node`);
      node = next;
    }
    node['x-kubernetes-validations'] = [...(node['x-kubernetes-validations'] ?? []), ...list];
  }
  return spec;
}

// ---- The rules of rules.ts that CEL can express on structural nodes ----
//
// Not here, because their nodes keep any value (a list or a single provider, a model string or
// object): provider ids required and unique across all APIs, embedding models' dimension. The
// renderer checks them, as it checks every rule here.

/** `rule` when the store's `type` is `name` (an absent `type` means sqlite). */
const whenType = (name: 'sqlite' | 'redis' | 'postgres', rule: string): string =>
  name === 'sqlite' ? `(has(self.type) && self.type != 'sqlite') || ${rule}` : `!has(self.type) || self.type != '${name}' || ${rule}`;

const storageRules: ValidationRule[] = [
  {
    rule: '!has(self.connectionString)',
    message:
      "is not supported: llama-stack's postgres backend takes host, port, db, user and password, not a connection string; write `host`, `port`, `database`, " +
        "`user` and `password` (each a value or `{secretKeyRef: {name, key}}`) instead",
    fieldPath: '.connectionString',
  },
  {
    rule: whenType('sqlite', '!(has(self.endpoint) || has(self.host) || has(self.port) || has(self.database) || has(self.user) || has(self.password))'),
    message: 'a sqlite store takes only `type`: `endpoint`, `host`, `port`, `database`, `user` and `password` are read only for redis and postgres',
  },
  {
    rule: whenType('redis', '!(has(self.database) || has(self.user))'),
    message: '`database` and `user` do not apply to a redis store; they are read only for postgres',
  },
  {
    rule: whenType('redis', 'has(self.endpoint) || has(self.host)'),
    message: 'needs the redis server: set `endpoint: redis://<host>:<port>` or `host` (and `port`)',
  },
  {
    rule: whenType('redis', '!has(self.endpoint) || !(has(self.host) || has(self.port))'),
    message: 'must not be combined with `host` or `port`; use one form',
    fieldPath: '.endpoint',
  },
  {
    rule: whenType('postgres', '!has(self.endpoint)'),
    message: 'does not apply to a postgres store; it is read only for redis: write `host` and `port`',
    fieldPath: '.endpoint',
  },
  { rule: whenType('postgres', 'has(self.host)'), message: 'is required for a postgres store (llama-stack needs the host)', fieldPath: '.host' },
  { rule: whenType('postgres', 'has(self.user)'), message: 'is required for a postgres store (llama-stack needs the user)', fieldPath: '.user' },
];

const onlyNameOrImage: ValidationRule = {
  rule: '!has(self.name) || !has(self.image)',
  message: 'must set only one of `name` and `image`: a named distribution already pins its image',
};

export const rulesV1alpha2: Readonly<Record<string, readonly ValidationRule[]>> = {
  '': (['providers', 'resources', 'storage', 'disabled'] as const).map((field) => ({
    rule: `!has(self.overrideConfig) || !has(self.${field})`,
    message: `cannot be combined with \`spec.overrideConfig\`, which supplies the whole config.yaml; put it in that ConfigMap's config.yaml, or remove ` +
      `\`overrideConfig\` to have the config generated`,
    fieldPath: `.${field}`,
  })),
  distribution: [
    { rule: 'has(self.name) || has(self.image)', message: 'must set `name` (a named distribution such as `starter`) or `image` (a distribution image)' },
    onlyNameOrImage,
  ],
  'storage.kv': storageRules,
  'storage.sql': [
    { rule: "!has(self.type) || self.type != 'redis'", message: 'must be `sqlite` or `postgres`: redis is a key-value store only', fieldPath: '.type' },
    ...storageRules,
  ],
  'networking.tls': [
    {
      rule: '!has(self.enabled) || !self.enabled || has(self.secretName)',
      message: 'is required when `enabled` is true: name the kubernetes.io/tls Secret with the server certificate',
      fieldPath: '.secretName',
    },
    {
      rule: '!has(self.secretName) || (has(self.enabled) && self.enabled)',
      message: 'must be true when `secretName` is set; set `enabled: true` to serve HTTPS, or remove `secretName`',
      fieldPath: '.enabled',
    },
  ],
  'workload.autoscaling': [
    { rule: '!has(self.minReplicas) || self.maxReplicas >= self.minReplicas', message: 'must be at least `minReplicas`', fieldPath: '.maxReplicas' },
  ],
  'workload.podDisruptionBudget': [
    { rule: 'has(self.minAvailable) || has(self.maxUnavailable)', message: 'must set `minAvailable` or `maxUnavailable`' },
    { rule: '!has(self.minAvailable) || !has(self.maxUnavailable)', message: 'must set only one of `minAvailable` and `maxUnavailable`' },
  ],
};

const v1alpha2: VersionSource = {
  name: 'v1alpha2',
  get spec() {
    return llsdV1alpha2Schemas().specSchema;
  },
  rules: rulesV1alpha2,
  columns: [
    { name: 'Distribution', type: 'string', jsonPath: '.spec.distribution.name', description: 'The named distribution.' },
    { name: 'Image', type: 'string', jsonPath: '.spec.distribution.image', description: 'The distribution image, when no name is given.', priority: 1 },
  ],
};

/** The v1alpha1 operator's CRD has one rule: not both `name` and `image` (there `!(has(self.name) && has(self.image))`). */
export const rulesV1alpha1: Readonly<Record<string, readonly ValidationRule[]>> = {
  'server.distribution': [onlyNameOrImage],
};

const v1alpha1: VersionSource = {
  name: 'v1alpha1',
  get spec() {
    return v1alpha1Schemas().specV1alpha1Schema;
  },
  rules: rulesV1alpha1,
  columns: [
    { name: 'Distribution', type: 'string', jsonPath: '.spec.server.distribution.name', description: 'The named distribution.' },
    { name: 'Image', type: 'string', jsonPath: '.spec.server.distribution.image', description: 'The distribution image, when no name is given.', priority: 1 },
  ],
};

/** Served versions, oldest first; the last is the storage version. */
const servedVersions: readonly VersionSource[] = [v1alpha1, v1alpha2];
