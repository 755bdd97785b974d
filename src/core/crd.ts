// What both CustomResourceDefinitions (`schema --crd`, `schema --kind OGXServer --crd`) and JSON
// Schemas are made with, from the zod schemas (STYLE §9: the field docs are the `described()`
// texts, nothing is written twice): zod's JSON Schema (draft 2020-12), its structural OpenAPI v3
// form (the form Kubernetes requires for CRDs, by `structural()`, a pure transformation), the CEL
// rules placed on their nodes, and one served version. Each front end (src/llsd/crd.ts,
// src/ogx/crd.ts) gives its names, versions, rules and printer columns.
import { z } from '../lib/zod.js';

export type JsonSchema = z.core.JSONSchema.BaseSchema;

/** The JSON Schema of any zod schema, as a user writes it: before any default is applied. */
export const jsonSchemaOf = (schema: z.core.$ZodType): JsonSchema => z.toJSONSchema(schema, jsonSchemaOptions);

/** `$schema` and `title` first, for a reader of the printed schema. */
export const titled = (schema: JsonSchema, title: string, extra: JsonSchema = {}): JsonSchema => ({ $schema: schema.$schema, title, ...schema, ...extra });

/** `io: 'input'`: the schema of what a user writes, before any default is applied. */
const jsonSchemaOptions = { target: 'draft-2020-12', io: 'input' } as const;

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
    names: { kind: string; listKind: string; plural: string; singular: string; shortNames?: string[] };
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
  /** CEL rules by path under `spec` (`crdRulesAt` says how a path is written). */
  rules: Readonly<Record<string, readonly ValidationRule[]>>;
  columns: PrinterColumn[];
  /** The description of the whole object. */
  description: string;
  /** The schema of `metadata.name`, when the kind restricts it. */
  metadataName?: z.core.$ZodType;
}

/** One version of a CRD: the structural `spec` with its rules, `status` kept as written, and the printer columns then Age. */
export function crdVersion(source: VersionSource, storage: boolean): CrdVersion {
  const spec = withRules(structural(jsonSchemaOf(source.spec), 'spec'), source.rules);
  // Kubernetes allows only `name` and `generateName` restrictions on metadata, and no description.
  const metadata: StructuralSchema = source.metadataName
    ? { type: 'object', properties: { name: structural(jsonSchemaOf(source.metadataName), 'metadata.name') } }
    : { type: 'object' };
  return {
    name: source.name,
    served: true,
    storage,
    schema: {
      openAPIV3Schema: {
        type: 'object',
        description: source.description,
        required: ['spec'],
        properties: {
          apiVersion: { type: 'string', description: 'The versioned schema of this object.' },
          kind: { type: 'string', description: 'The REST resource this object represents.' },
          metadata,
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
  'propertyNames', 'items', 'enum', 'const', 'pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'minItems', 'maxItems',
  'minProperties', 'maxProperties', 'examples']);

function objectNode(node: JsonSchema, out: StructuralSchema, at: string): StructuralSchema {
  out.type = 'object';
  copy(node, out, ['minProperties', 'maxProperties']);
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
  const extra = Object.keys(node).filter((key) => !['anyOf', 'description', '$schema', 'title', 'examples'].includes(key));
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

/**
 * The rules, by path under `spec` ('' for `spec` itself), on their nodes. A path is dotted keys;
 * `key[]` is the items of the list `key`, `*` every property, `*[]` the items of every property
 * that is a list (as the CRD's rules sit on each provider list's items). A path that names no node
 * is a bug here.
 */
export function withRules(spec: StructuralSchema, rules: Readonly<Record<string, readonly ValidationRule[]>>): StructuralSchema {
  for (const [path, list] of Object.entries(rules)) {
    const nodes = nodesAt(spec, path ? path.split('.') : []);
    if (nodes.length === 0) throw new Error(`rules for spec.${path}: no such node`);
    for (const node of nodes) node['x-kubernetes-validations'] = [...(node['x-kubernetes-validations'] ?? []), ...list];
  }
  return spec;
}

function nodesAt(node: StructuralSchema, segments: readonly string[]): StructuralSchema[] {
  const [segment, ...rest] = segments;
  if (segment === undefined) return [node];
  const list = segment.endsWith('[]');
  const key = list ? segment.slice(0, -2) : segment;
  const children = key === '*' ? Object.values(node.properties ?? {}) : [node.properties?.[key]].filter((c) => c !== undefined);
  return children.flatMap((child) => {
    if (!list) return nodesAt(child, rest);
    return child.items ? nodesAt(child.items, rest) : [];
  });
}
