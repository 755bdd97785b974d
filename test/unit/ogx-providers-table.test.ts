// configs/ogx-providers.yaml (the OGX operator's typed-provider table) against its own shape and
// against the OGXServer zod schema, which declares the same fields with their docs and bounds: every
// typed provider and field of the table is in the schema with the table's shape, and the schema has
// no typed provider or field the table lacks. The generation, the id check and the conversion read
// the table, so a field added to one and not the other fails here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  ogxDecimalKeys,
  ogxProvidersSchema,
  ogxTypedApis,
  ogxTypedProviders,
  type OgxTypedField,
  type OgxTypedProvider,
} from '../../src/catalog/ogx-providers.js';
import { ogxStorage, ogxStorageSchema } from '../../src/catalog/ogx-storage.js';
import { jsonSchemaOf } from '../../src/llsd/json-schema.js';
import { ogxDisableableApis, ogxSchemas } from '../../src/ogx/ogxserver.js';

type Node = Record<string, unknown>;
const props = (node: Node): Record<string, Node> => (node.properties ?? {}) as Record<string, Node>;
/** zod's bounds of its integer formats, which say nothing of the field. */
const implicit = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

/** What the schema node says differently from the table's field, as `path: difference` lines. */
function fieldDifferences(f: OgxTypedField, node: Node | undefined, path: string): string[] {
  if (!node) return [`${path}: not in the schema`];
  const own = (want: unknown, got: unknown, what: string): string[] => (JSON.stringify(want) === JSON.stringify(got) ? [] : [
    `${path}: ${what} ${JSON.stringify(got)}, table ${JSON.stringify(want)}`]);
  switch (f.kind) {
    case 'string':
    case 'decimal':
      return own('string', node.type, 'type');
    case 'bool':
      return own('boolean', node.type, 'type');
    case 'int': {
      const max = implicit.has(node.maximum as number) ? undefined : node.maximum;
      return [...own('integer', node.type, 'type'), ...own(f.min ?? 1, node.minimum, 'minimum'), ...own(f.max, max, 'maximum')];
    }
    case 'strings':
      return [...own('array', node.type, 'type'), ...own('string', (node.items as Node | undefined)?.type, 'item type')];
    case 'enum':
      return own(f.values, node.enum, 'enum');
    case 'secret':
      return own(['key', 'name'], Object.keys(props(node)).sort(), 'a Secret reference with');
    case 'map':
      return [...own('object', node.type, 'type'), ...own('string', (node.additionalProperties as Node | undefined)?.type, 'value type')];
    case 'object':
      return [...own('object', node.type, 'type'), ...objectDifferences(f.fields ?? [], node, path, [])];
  }
}

/** The fields of an object node against the table's: the same names, required ones and shapes. */
function objectDifferences(fields: readonly OgxTypedField[], node: Node, path: string, extra: readonly string[]): string[] {
  const names = [...fields.map((f) => f.field), ...extra].sort();
  const required = fields.filter((f) => f.required).map((f) => f.field).sort();
  const diffs: string[] = [];
  if (JSON.stringify(Object.keys(props(node)).sort()) !== JSON.stringify(names)) diffs.push(
    `${path}: fields ${Object.keys(props(node)).sort().join(',')}, table ${names.join(',')}`);
  if (JSON.stringify([...((node.required ?? []) as string[])].sort()) !== JSON.stringify(required)) diffs.push(
    `${path}: required ${JSON.stringify(node.required ?? [])}, table ${JSON.stringify(required)}`);
  for (const f of fields) diffs.push(...fieldDifferences(f, props(node)[f.field], `${path}.${f.field}`));
  return diffs;
}

/** Every difference between the table's typed providers and the schema of `spec.providers`. */
function differences(providers: readonly OgxTypedProvider[], schema: Node): string[] {
  const diffs: string[] = [];
  const apis = [...new Set(providers.map((p) => p.apiField))];
  if (JSON.stringify(Object.keys(props(schema)).sort()) !== JSON.stringify([...apis].sort())) diffs.push(
    `providers: APIs ${Object.keys(props(schema)).sort().join(',')}, table ${apis.join(',')}`);
  for (const apiField of apis) {
    for (const placement of ['remote', 'inline'] as const) {
      const group = props(props(props(schema)[apiField] ?? {})[placement] ?? {});
      const typed = providers.filter((p) => p.apiField === apiField && p.placement === placement);
      const names = [...typed.map((p) => p.field), 'custom'].sort();
      if (JSON.stringify(Object.keys(group).sort()) !== JSON.stringify(names)) diffs.push(
        `${apiField}.${placement}: types ${Object.keys(group).sort().join(',')}, table ${names.join(',')}`);
      for (const p of typed) {
        const path = `${apiField}.${placement}.${p.field}`;
        const node = group[p.field];
        if (!node) continue;
        if (p.single) {
          diffs.push(...(node.type === 'object' ? objectDifferences(p.fields, node, path, []) : [`${path}: a list in the schema, single in the table`]));
        } else if (node.type !== 'array' || node.minItems !== 1 || node.maxItems !== 100) {
          diffs.push(`${path}: not a list of 1 to 100 entries in the schema`);
        } else diffs.push(...objectDifferences(p.fields, node.items as Node, `${path}[]`, ['id']));
      }
    }
  }
  return diffs;
}

const schema = (): Node => jsonSchemaOf(ogxSchemas().providers) as Node;

const configFile = (name: string): unknown => parse(readFileSync(join(import.meta.dirname, '..', '..', 'configs', name), 'utf8'));

describe('configs/ogx-storage.yaml', () => {
  it('has the shape src/catalog/ogx-storage.ts reads', () => {
    const result = ogxStorageSchema().safeParse(configFile('ogx-storage.yaml'));
    expect(result.success ? [] : result.error.issues).toEqual([]);
  });

  it('names a backend of its own for every store', () => {
    const { backends, stores } = ogxStorage();
    expect(Object.values(stores).filter((s) => !Object.hasOwn(backends, s.backend))).toEqual([]);
    expect(Object.keys(stores)).toEqual(['metadata', 'inference', 'conversations', 'prompts']);
  });
});

describe('configs/ogx-providers.yaml', () => {
  it('has the shape src/catalog/ogx-providers.ts reads', () => {
    const result = ogxProvidersSchema().safeParse(configFile('ogx-providers.yaml'));
    expect(result.success ? [] : result.error.issues).toEqual([]);
  });

  it('and the OGXServer schema have the same typed providers, fields, required fields and shapes', () => {
    expect(differences(ogxTypedProviders(), schema())).toEqual([]);
  });

  it('a field or provider in one and not the other is a difference', () => {
    const [vllm, ...rest] = ogxTypedProviders() as [OgxTypedProvider, ...OgxTypedProvider[]];
    const renamed = { ...vllm, fields: vllm.fields.map((f) => (f.field === 'maxTokens' ? { ...f, field: 'maxTokenz' } : f)) };
    expect(differences([renamed, ...rest], schema())).toEqual([
      'inference.remote.vllm[]: fields allowedModels,apiToken,endpoint,id,maxTokens,network,refreshModels, table ' +
        'allowedModels,apiToken,endpoint,id,maxTokenz,network,refreshModels',
      'inference.remote.vllm[].maxTokenz: not in the schema',
    ]);
    const bounded = { ...vllm, fields: vllm.fields.map((f) => (f.field === 'maxTokens' ? { ...f, max: 10 } : f)) };
    expect(differences([bounded, ...rest], schema())).toEqual(['inference.remote.vllm[].maxTokens: maximum undefined, table 10']);
    expect(differences(rest, schema())).toEqual([
      'inference.remote: types azure,bedrock,custom,openai,vertexai,vllm,watsonx, table azure,bedrock,custom,openai,vertexai,watsonx']);
  });

  it('has the APIs `disabledAPIs` accepts, one each, except `conversations`, which takes no providers', () => {
    expect(ogxTypedApis().map((a) => a.api).sort()).toEqual(ogxDisableableApis.filter((api) => api !== 'conversations').sort());
  });

  it('gives every typed provider its own default id and field', () => {
    const ids = ogxTypedProviders().map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ogxTypedProviders().find((p) => p.field === 'fileSearch')).toMatchObject({ type: 'inline::rag-runtime', id: 'inline-file-search', single: false });
  });

  it('names the decimal-string keys OGX reads as floats (divergence S2)', () => {
    expect([...ogxDecimalKeys()].sort()).toEqual(['rrf_impact_factor', 'temperature', 'weighted_search_alpha']);
  });
});
