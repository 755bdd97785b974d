// The OGXServer CRD llsd-render publishes (`schema --kind OGXServer --crd`, src/ogx/crd.ts) against
// the CRD upstream ships (ogx-ai/ogx-k8s-operator at 1784464, trimmed in
// test/fixtures/ogxserver-crd-spec.yaml): the names, and field by field where they must agree
// (types, required lists, enums, bounds, defaults, CEL rules and their messages). Where ours
// differs on purpose, the lists below say so and why. Every rule compiles as the API server
// compiles it and the operator's main's two new rules are run on examples.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { StructuralSchema } from '../../src/core/crd.js';
import { ogxCrd } from '../../src/ogx/crd.js';
import { parseOgxServer } from '../../src/ogx/ogxserver.js';
import type { KrmObject } from '../../src/krm/item.js';
import { environmentFor, evaluate, undeclaredFields } from './cel.js';

type Node = Record<string, unknown>;
const upstream = parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'ogxserver-crd-spec.yaml'), 'utf8')) as Node;
const definition = ogxCrd();
const version = definition.spec.versions[0];
const spec = version?.schema.openAPIV3Schema.properties?.spec as StructuralSchema;

/** Facts that must agree at each path. */
const facts = ['type', 'required', 'enum', 'minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'default', 'pattern'];

/**
 * The bounds of an int32, which ours writes out and upstream leaves to `format: int32` (not kept in
 * the fixture): the same range either way.
 */
const int32Bounds = new Set([2147483647, -2147483648]);

/** path → the facts at it, and the CEL rules (`rule → message`) on it. */
function flatten(node: Node, path: string, out: Map<string, Node>): Map<string, Node> {
  const own: Node = {};
  for (const fact of facts) {
    const value = node[fact];
    if (value === undefined || ((fact === 'minimum' || fact === 'maximum') && int32Bounds.has(value as number))) continue;
    own[fact] = fact === 'required' ? [...(value as string[])].sort() : value;
  }
  const rules = (node['x-kubernetes-validations'] ?? []) as Array<{ rule: string; message: string }>;
  if (rules.length > 0) own.rules = Object.fromEntries(rules.map((r) => [r.rule, r.message]).sort(([a], [b]) => ((a as string) < (b as string) ? -1 : 1)));
  out.set(path, own);
  for (const [key, child] of Object.entries((node.properties ?? {}) as Record<string, Node>)) flatten(child, `${path}.${key}`, out);
  if (node.items && typeof node.items === 'object') flatten(node.items as Node, `${path}[]`, out);
  const extra = node.additionalProperties;
  if (extra && typeof extra === 'object' && Object.keys(extra).length > 0) flatten(extra as Node, `${path}{}`, out);
  return out;
}

function differences(): string[] {
  const ours = flatten(spec as Node, 'spec', new Map());
  const theirs = flatten(upstream, 'spec', new Map());
  const diffs: string[] = [];
  for (const [path, fact] of theirs) {
    const own = ours.get(path);
    if (!own) diffs.push(`missing ${path}`);
    else if (JSON.stringify(own) !== JSON.stringify(fact)) diffs.push(`differs ${path}: ours ${JSON.stringify(own)}, upstream ${JSON.stringify(fact)}`);
  }
  for (const path of ours.keys()) if (!theirs.has(path)) diffs.push(`extra ${path}`);
  return diffs;
}

/**
 * Newer than the CRD at 1784464: the operator's main (OPERATOR-MAIN-2026-09.md §2.3). Exact, so
 * that each shows here until the fixture is taken from a newer CRD.
 */
const newerOnMain = [
  'differs spec.disabledAPIs: ours {"type":"array","minItems":1,"maxItems":8}, upstream {"type":"array","minItems":1,"maxItems":7}',
  'differs spec.disabledAPIs[]: ours {"type":"string","enum":["batches","file_processors","inference","responses","tool_runtime","vector_io","files",' +
    '"conversations"]}, upstream {"type":"string","enum":["batches","file_processors","inference","responses","tool_runtime","vector_io","files"]}',
  'differs spec.network.externalAccess: ours {"type":"object","rules":{"!has(self.hostname) || self.hostname.size() > 0":"hostname must not be empty ' +
    'if specified","!self.enabled || has(self.hostname)":"hostname is required when external access is enabled","!self.enabled || has(self.tls)":"tls ' +
    'is required when external access is enabled"}}, upstream {"type":"object","rules":{"!has(self.hostname) || self.hostname.size() > 0":"hostname ' +
    'must not be empty if specified"}}',
  'extra spec.network.externalAccess.tls',
  'extra spec.network.externalAccess.tls.secretName',
];

/**
 * Deliberate, by path: the thirty volume sources are kept as written (core-v1.ts `volume`: the API
 * server checks them when the Deployment is applied), so their inner fields are not in our CRD;
 * an int-or-string (a quantity, a PDB count) has its `type` in `anyOf`, which is what Kubernetes
 * writes for `x-kubernetes-int-or-string` nodes, where upstream leaves it out.
 */
const deliberate = (diff: string): boolean =>
  /^(missing|differs) spec\.workload\.overrides\.volumes\[\]\.(?!name[: ])[A-Za-z]+[.:[{ ]/.test(`${diff} `) ||
  /^missing spec\.workload\.overrides\.volumes\[\]\.[A-Za-z]+$/.test(diff);

describe('the OGXServer CRD against upstream\'s', () => {
  it('has upstream\'s names, one served and stored version v1beta1, `spec` required and the status subresource', () => {
    expect(definition.metadata.name).toBe('ogxservers.ogx.io');
    expect(definition.spec.group).toBe('ogx.io');
    expect(definition.spec.names).toEqual({ kind: 'OGXServer', listKind: 'OGXServerList', plural: 'ogxservers', singular: 'ogxserver' });
    expect(definition.spec.scope).toBe('Namespaced');
    expect(definition.spec.versions.map((v) => [v.name, v.served, v.storage])).toEqual([['v1beta1', true, true]]);
    expect(version?.schema.openAPIV3Schema.required).toEqual(['spec']);
    expect(version?.subresources).toEqual({ status: {} });
  });

  // Upstream's columns read `status`, which only its operator writes; ours read the spec (src/ogx/crd.ts).
  it('prints the distribution and the age, from the spec (upstream\'s columns read the status)', () => {
    expect(version?.additionalPrinterColumns.map((c) => c.jsonPath)).toEqual([
      '.spec.distribution.name',
      '.spec.distribution.image',
      '.metadata.creationTimestamp',
    ]);
  });

  it('agrees field by field (types, required, enums, bounds, defaults, patterns, CEL rules and messages), but for the main\'s changes', () => {
    expect(differences().filter((d) => !deliberate(d))).toEqual(newerOnMain);
  });

  it('differs on purpose only in the volume sources, which it keeps as written', () => {
    const listed = differences().filter(deliberate);
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((d) => d.includes('spec.workload.overrides.volumes[].'))).toBe(true);
  });

  it('has all of upstream\'s 125 rules, and the main\'s two', () => {
    const count = (node: Node): number =>
      ((node['x-kubernetes-validations'] as unknown[] | undefined)?.length ?? 0) +
      Object.values((node.properties ?? {}) as Record<string, Node>).reduce((n, child) => n + count(child), 0) +
      (node.items ? count(node.items as Node) : 0);
    expect(count(upstream)).toBe(125);
    expect(count(spec as Node)).toBe(127);
  });
});

/** Every rule with its node. */
function placed(node: StructuralSchema, at: string): Array<{ at: string; node: StructuralSchema; rule: string; message: string }> {
  return [
    ...(node['x-kubernetes-validations'] ?? []).map((r) => ({ at, node, rule: r.rule, message: r.message })),
    ...Object.entries(node.properties ?? {}).flatMap(([key, child]) => placed(child, `${at}.${key}`)),
    ...(node.items ? placed(node.items, `${at}[]`) : []),
  ];
}

describe('the OGXServer CRD\'s CEL rules', () => {
  const rules = placed(spec, 'spec');

  // `quantity()` is Kubernetes' CEL library, which cel-js lacks; that rule is upstream's, compared verbatim above.
  const compiled = rules.filter((r) => !r.rule.includes('quantity('));

  it('are all compiled here but the quantity rule', () => expect(rules.length - compiled.length).toBe(1));

  it.each(compiled.map((r) => [`${r.at}: ${r.message}`, r] as const))('%s compiles against its node', (_name, rule) => {
    const checked = environmentFor(rule.node).check(rule.rule);
    expect(checked.error?.message).toBeUndefined();
    expect(checked.type).toBe('bool');
    expect(undeclaredFields(rule, rule.node)).toEqual([]);
  });

  it('external access needs hostname and tls when enabled, as the renderer says', () => {
    const access = rules.filter((r) => r.at === 'spec.network.externalAccess' && r.message.endsWith('is required when external access is enabled'));
    expect(access.map((r) => r.message)).toEqual(['hostname is required when external access is enabled', 'tls is required when external access is enabled']);
    const failing = (value: unknown) => access.filter((r) => evaluate(r.rule, r.node, value) !== true).map((r) => r.message.split(' ')[0]);
    // `enabled` is always present: the API server defaults it to false before the rules run.
    expect(failing({ enabled: false })).toEqual([]);
    expect(failing({ enabled: true, hostname: 'h', tls: { secretName: 't' } })).toEqual([]);
    expect(failing({ enabled: true })).toEqual(['hostname', 'tls']);
    expect(failing({ enabled: true, hostname: 'h' })).toEqual(['tls']);
    // The renderer reports the same, with the CRD's message first.
    const object = parse('apiVersion: ogx.io/v1beta1\nkind: OGXServer\nmetadata: {name: s}\nspec: {distribution: {name: starter}, network: ' +
      '{externalAccess: {enabled: true}}}') as KrmObject;
    const parsed = parseOgxServer(object, { distributions: ['starter'] });
    expect(parsed.problems.map((p) => p.message.slice(0, p.message.indexOf(':')))).toEqual(access.map((r) => r.message));
  });
});
