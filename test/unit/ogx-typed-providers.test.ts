// Every typed OGXServer provider kind (configs/ogx-providers.yaml) on every OGX release of the
// catalog: rendered alone and together with the others, the generated config has every key the
// release needs for the provider (its schema's required keys and those it needs at startup,
// configs/release-notes.yaml `requiredAtRuntime`) and passes the startup rules and the release
// schema as `build` judges them. pgvector was once written without `persistence`, which every
// OGX 1.x server stops on; this keeps any kind from being left out that way again.
import { describe, expect, it } from 'vitest';
import { ogxServerReleases, providerFields, serverRelease } from '../../src/catalog/catalog.js';
import { ogxTypedProviders, type OgxTypedField, type OgxTypedProvider } from '../../src/catalog/ogx-providers.js';
import { runtimeRequiredKeys } from '../../src/catalog/schemas.js';
import { asServerConverts } from '../../src/core/legacy-forms.js';
import { checkReleaseSchema } from '../../src/core/release-schema.js';
import { checkStartupRules } from '../../src/core/startup/index.js';
import { inventoryOf } from '../../src/krm/inventory.js';
import { isPlainObject } from '../../src/lib/objects.js';
import { generateOgxConfig } from '../../src/ogx/generate.js';
import { parseOgxServer } from '../../src/ogx/ogxserver.js';
import { planOgxServer } from '../../src/ogx/plan.js';
import { itemFrom } from '../support.js';

/** A value the CRD accepts for a field, for the fields an entry must have. */
function valueOf(field: OgxTypedField): unknown {
  switch (field.kind) {
    case 'secret':
      return { name: 'creds', key: field.key };
    case 'int':
      return field.min ?? 1;
    case 'bool':
      return true;
    case 'enum':
      return field.values?.[0];
    case 'strings':
      return ['a'];
    case 'decimal':
      return '0.5';
    case 'map':
      return {};
    case 'object':
      return Object.fromEntries((field.fields ?? []).filter((f) => f.required).map((f) => [f.field, valueOf(f)]));
    default:
      return /url|endpoint|uri/i.test(field.field) ? 'http://svc.ai.svc.cluster.local:8000/v1' : 'value';
  }
}

/** The smallest entry the CRD accepts: its required fields, and the first of a `oneOf`. */
function minimalEntry(provider: OgxTypedProvider): Record<string, unknown> {
  const wanted = provider.fields.filter((f) => f.required || f.key === provider.oneOf[0]);
  return Object.fromEntries(wanted.map((f) => [f.field, valueOf(f)]));
}

/** `spec.providers` with these kinds: a list of one entry per kind, a single provider as an object. */
function providersOf(kinds: readonly OgxTypedProvider[]): Record<string, unknown> {
  const providers: Record<string, Record<string, Record<string, unknown>>> = {};
  for (const p of kinds) {
    const placement = ((providers[p.apiField] ??= {})[p.placement] ??= {});
    placement[p.field] = p.single ? minimalEntry(p) : [minimalEntry(p)];
  }
  return providers;
}

/** Renders the providers at the release and returns the problems `build` would report as errors, and every missing key. */
function judge(kinds: readonly OgxTypedProvider[], release: string): string[] {
  const object = itemFrom(
    JSON.stringify({
      apiVersion: 'ogx.io/v1beta1',
      kind: 'OGXServer',
      metadata: { name: 'kinds', namespace: 'ai', annotations: { 'llamastack.io/release': release } },
      spec: { distribution: { name: 'starter' }, providers: providersOf(kinds) },
    }),
  ).object;
  const parsed = parseOgxServer(object);
  if (!parsed.ok) return parsed.problems.map((p) => `schema: ${p.path.join('.')}: ${p.message}`);
  const planned = planOgxServer(parsed.server, inventoryOf([]));
  if (!planned.ok) return planned.problems.map((p) => `plan: ${p.message}`);
  const plan = planned.plan;
  const generated = generateOgxConfig(plan);
  if (!generated.ok) return generated.problems.map((p) => `generate: ${p.path.join('.')}: ${p.message}`);
  const out = generated.problems.filter((p) => p.severity === undefined || p.severity === 'error').map((p) => `generate: ${p.message}`);
  const config = generated.config.value;
  const providers = config.providers as Record<string, Array<Record<string, unknown>>>;
  for (const kind of kinds) {
    const entries = (providers[kind.api] ?? []).filter((e) => e.provider_id === kind.id);
    if (entries.length !== 1) {
      out.push(`${kind.apiField}.${kind.placement}.${kind.field}: ${entries.length} entries with id ${kind.id}`);
      continue;
    }
    const entry = entries[0] as Record<string, unknown>;
    const type = String(entry.provider_type);
    const given = isPlainObject(entry.config) ? entry.config : {};
    // The schema's required keys must be there (milvus `token` may be null, as its schema allows); a key needed at startup needs a value.
    const required = providerFields(plan.catalogRelease, kind.api, type)?.required ?? [];
    for (const key of required) if (!Object.hasOwn(given, key)) out.push(`${type}: missing ${key}`);
    for (const key of runtimeRequiredKeys(plan.catalogRelease, kind.api, type)) {
      if (given[key] === undefined || given[key] === null) out.push(`${type}: no ${key}`);
    }
  }
  const containerEnv = new Set(generated.config.env.map((e) => e.name));
  const context = { release, catalogRelease: plan.catalogRelease, profile: plan.profile, containerEnv };
  const { config: judged } = asServerConverts(config, release, plan.catalogRelease);
  const errors = [...checkStartupRules(judged, context), ...checkReleaseSchema(judged, { ...context, source: 'generated' })].filter(
    (p) => p.severity === 'error',
  );
  return [...out, ...errors.map((p) => `${String(p.path)}: ${p.message}`)];
}

/**
 * Every kind in as few renders as possible: an API with a routing table takes all its kinds at
 * once; one without (files, batches, …) takes exactly one provider, so render i takes its i-th.
 */
function together(release: string): OgxTypedProvider[][] {
  const routed = new Set(serverRelease(release)?.apis.routed ?? []);
  const kinds = ogxTypedProviders();
  const byApi = new Map<string, OgxTypedProvider[]>();
  for (const p of kinds) byApi.set(p.api, [...(byApi.get(p.api) ?? []), p]);
  const renders = Math.max(...[...byApi].map(([api, list]) => (routed.has(api) ? 1 : list.length)));
  return Array.from({ length: renders }, (_, i) =>
    [...byApi].flatMap(([api, list]) => (routed.has(api) ? list : [list[i % list.length] as OgxTypedProvider])),
  );
}

describe('every typed OGXServer provider kind on every OGX release', () => {
  it('the table has the kinds the operator types (pgvector among them)', () => {
    expect(ogxTypedProviders().map((p) => p.type)).toContain('remote::pgvector');
    expect(ogxTypedProviders().length).toBeGreaterThan(20);
  });

  for (const release of ogxServerReleases()) {
    describe(release, () => {
      for (const kind of ogxTypedProviders()) {
        it(`${kind.apiField}.${kind.placement}.${kind.field} alone has the keys the release needs and passes its startup and schema checks`, () => {
          expect(judge([kind], release)).toEqual([]);
        });
      }
      it('all kinds together (one per render for an API that takes one provider) pass the same checks', () => {
        const renders = together(release);
        expect(new Set(renders.flat()).size).toBe(ogxTypedProviders().length);
        for (const kinds of renders) expect(judge(kinds, release)).toEqual([]);
      });
    });
  }
});
