// Fidelity of the OGXServer schema (src/ogx/ogxserver-schema.ts) to the CRD as upstream ships it: the
// same property paths, required lists, enums, bounds and defaults. Deliberate differences are
// listed below with their reasons.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { jsonSchemaOf } from '../../src/llsd/json-schema.js';
import { ogxSchemas } from '../../src/ogx/ogxserver.js';

/** The CRD's `spec` schema, trimmed to the facts compared here (the file's header says how). */
const crdPath = join(import.meta.dirname, '..', 'fixtures', 'ogxserver-crd-spec.yaml');

type Node = Record<string, unknown>;
/** The facts compared at each path. */
const facts = [
  'type',
  'required',
  'enum',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'default',
  'pattern',
] as const;

/** Bounds zod adds for its integer formats, which the CRD leaves implicit. */
const implicitBounds = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 2147483647, -2147483648]);

/** path → facts, for a JSON Schema (zod's) or an OpenAPI v3 schema (the CRD's). */
function flatten(node: Node, path: string, out: Map<string, Node>): Map<string, Node> {
  // zod writes an optional or defaulted field as the schema itself; a union (int-or-string) as anyOf.
  const own: Node = {};
  for (const fact of facts) {
    const value = node[fact];
    if (value === undefined) continue;
    if ((fact === 'minimum' || fact === 'maximum') && implicitBounds.has(value as number)) continue;
    own[fact] = fact === 'required' ? [...(value as string[])].sort() : value;
  }
  // int-or-string (a quantity): zod writes `anyOf: [integer, string with pattern]`, the CRD the pattern alone.
  const pattern = (node.anyOf as Node[] | undefined)?.find((branch) => branch.type === 'string')?.pattern;
  if (pattern !== undefined) own.pattern = pattern;
  out.set(path, own);
  const properties = node.properties as Record<string, Node> | undefined;
  for (const [key, child] of Object.entries(properties ?? {})) flatten(child, `${path}.${key}`, out);
  if (node.items && typeof node.items === 'object') flatten(node.items as Node, `${path}[]`, out);
  if (node.additionalProperties && typeof node.additionalProperties === 'object' && Object.keys(node.additionalProperties).length > 0) {
    flatten(node.additionalProperties as Node, `${path}{}`, out);
  }
  return out;
}

const crdSpec = (): Node => parse(readFileSync(crdPath, 'utf8')) as Node;

/**
 * Deliberate differences, by path prefix. A person reviewing the schema reads them here.
 * - Volume sources: one `Record<string, unknown>` for each of the thirty sources, passed to the
 *   pod as written (core-v1.ts `volume`, shared with the LLSD schemas: building thirty full
 *   source schemas was a tenth of start-up); the API server checks them when the Deployment is
 *   applied. Their inner fields and required lists are therefore not in our schema.
 */
const deliberate = [/^spec\.workload\.overrides\.volumes\[\]\.(?!name$)[A-Za-z]+(\.|$|\[|\{)/];
/* Not compared at all, also deliberate:
 * - `additionalProperties: false`: our objects are strict, so a misspelt field is an error with a
 *   "did you mean" instead of being pruned silently as the API server does; kubectl's default
 *   strict field validation refuses it too.
 * - The CEL rules (`x-kubernetes-validations`) are in ogxserver-rules.ts, tested one by one in
 *   ogxserver-rules.test.ts.
 * - `minProperties: 1` is a zod refinement, added to the JSON Schema through the registry; it is
 *   compared like the other bounds.
 */

/**
 * Newer than the CRD at 1784464: the operator's main (OPERATOR-MAIN-2026-09.md §2.3) adds
 * `conversations` to `disabledAPIs` (at most 8) and `externalAccess.tls`. Exact differences, so
 * that each shows here until the fixture is taken from a newer CRD.
 */
const newerOnMain = [
  'differs spec.disabledAPIs: ours {"type":"array","minItems":1,"maxItems":8}, CRD {"type":"array","minItems":1,"maxItems":7}',
  'differs spec.disabledAPIs[]: ours {"type":"string","enum":["batches","file_processors","inference","responses","tool_runtime","vector_io","files",' +
    '"conversations"]}, CRD {"type":"string","enum":["batches","file_processors","inference","responses","tool_runtime","vector_io","files"]}',
  'extra spec.network.externalAccess.tls',
  'extra spec.network.externalAccess.tls.secretName',
];

function differences(): string[] {
  const ours = flatten(jsonSchemaOf(ogxSchemas().spec) as Node, 'spec', new Map());
  const theirs = flatten(crdSpec(), 'spec', new Map());
  const diffs: string[] = [];
  for (const [path, fact] of theirs) {
    const own = ours.get(path);
    if (!own) diffs.push(`missing ${path}`);
    else if (JSON.stringify(own) !== JSON.stringify(fact)) diffs.push(`differs ${path}: ours ${JSON.stringify(own)}, CRD ${JSON.stringify(fact)}`);
  }
  for (const path of ours.keys()) if (!theirs.has(path)) diffs.push(`extra ${path}`);
  return diffs;
}

describe('OGXServer schema fidelity to the CRD', () => {
  it('has the CRD\'s property paths, required lists, enums, bounds, patterns and defaults, except the deliberate differences', () => {
    const diffs = differences().filter((d) => !deliberate.some((re) => re.test(d.replace(/^\w+ /, '').replace(/:.*/, ''))));
    expect(diffs).toEqual(newerOnMain);
  });

  it('compares the whole spec: every typed provider and every CRD default is among the compared paths', () => {
    const theirs = flatten(crdSpec(), 'spec', new Map());
    const ours = flatten(jsonSchemaOf(ogxSchemas().spec) as Node, 'spec', new Map());
    const defaults = [...ours].filter(([, f]) => f.default !== undefined).map(([p, f]) => `${p}=${JSON.stringify(f.default)}`);
    expect(defaults).toEqual([
      'spec.monitoring.enabled=true',
      'spec.network.externalAccess.enabled=false',
      'spec.network.policy.enabled=true',
      'spec.network.port=8321',
      'spec.praxisMode.enabled=true',
      'spec.praxisMode.migrationJob.enabled=true',
      'spec.storage.kv.type="sqlite"',
      'spec.storage.sql.type="sqlite"',
      'spec.workload.overrides.env[].valueFrom.configMapKeyRef.name=""',
      'spec.workload.overrides.env[].valueFrom.fileKeyRef.optional=false',
      'spec.workload.overrides.env[].valueFrom.secretKeyRef.name=""',
      'spec.workload.replicas=1',
      'spec.workload.storage.mountPath="/.ogx"',
    ]);
    expect(theirs.has('spec.providers.fileProcessors.inline.docling.doOcr') && ours.has('spec.providers.fileProcessors.inline.docling.doOcr')).toBe(true);
  });

  it('the deliberate differences are only the volume sources', () => {
    const listed = differences().filter((d) => deliberate.some((re) => re.test(d.replace(/^\w+ /, '').replace(/:.*/, ''))));
    expect(new Set(listed.map((d) => /volumes\[\]\.([A-Za-z]+)/.exec(d)?.[1])).size).toBeLessThanOrEqual(30);
    expect(listed.every((d) => d.includes('spec.workload.overrides.volumes[].'))).toBe(true);
  });
});
