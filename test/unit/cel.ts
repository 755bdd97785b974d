// CEL as the API server runs a CRD's `x-kubernetes-validations` (cel-js): `self` typed from the
// structural schema of the rule's node, JSON numbers as CEL ints where the schema says integer.
// Used by the tests of both CRDs (schema.test.ts, ogx-crd.test.ts).
import { Environment } from '@marcbachmann/cel-js';
import type { StructuralSchema, ValidationRule } from '../../src/core/crd.js';

/** The CEL type of a node, as Kubernetes declares `self` from the schema. */
function celType(schema: StructuralSchema): unknown {
  if (schema['x-kubernetes-int-or-string'] || schema.type === undefined) return 'dyn';
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'integer':
      return 'int';
    case 'number':
      return 'double';
    case 'boolean':
      return 'bool';
    case 'array': {
      const items = celType(schema.items ?? {});
      return `list<${typeof items === 'string' ? items : 'dyn'}>`;
    }
    case 'object': {
      if (schema.properties) return Object.fromEntries(Object.entries(schema.properties).map(([key, child]) => [key, celType(child)]));
      const values = schema.additionalProperties ? celType(schema.additionalProperties) : 'dyn';
      return `map<string, ${typeof values === 'string' ? values : 'dyn'}>`;
    }
  }
}

export function environmentFor(node: StructuralSchema): Environment {
  const type = celType(node);
  return typeof type === 'string'
    ? new Environment().registerVariable('self', type)
    : new Environment().registerVariable({ name: 'self', schema: type as Record<string, string> });
}

/** JSON numbers as CEL sees them: integers are `int` (bigint) where the schema says integer or leaves the type open. */
function celValue(value: unknown, schema: StructuralSchema | undefined): unknown {
  if (typeof value === 'number') return Number.isInteger(value) && schema?.type !== 'number' ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map((v) => celValue(v, schema?.items));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, v]) => [key, celValue(v, schema?.properties?.[key] ?? schema?.additionalProperties)]),
    );
  }
  return value;
}

/** Kubernetes rejects a rule naming a field its node does not declare; cel-js's `has()` does not check that. */
export function undeclaredFields(rule: ValidationRule, node: StructuralSchema): string[] {
  const paths = [...rule.rule.matchAll(/\bself((?:\.[A-Za-z_][A-Za-z0-9_]*)+)(\()?/g)].map((m) => {
    const keys = (m[1] ?? '').slice(1).split('.');
    return m[2] ? keys.slice(0, -1) : keys; // `self.x.size()`: `size` is a method
  });
  if (rule.fieldPath) paths.push(rule.fieldPath.slice(1).split('.'));
  return paths
    .filter((keys) => {
      let at: StructuralSchema | undefined = node;
      for (const key of keys) at = at?.properties?.[key];
      return at === undefined;
    })
    .map((keys) => keys.join('.'));
}

export function evaluate(rule: string, node: StructuralSchema, value: unknown): unknown {
  return environmentFor(node).evaluate(rule, { self: celValue(value, node) });
}
