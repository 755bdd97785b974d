// The release matrix (issue 16), for every release of the catalog:
// 1. every shipped distribution config, as the base of an LLSD that sets nothing else, renders
//    unchanged, and the startup rules find in it only the reviewed upstream defects listed in
//    release-matrix.upstream.yaml (its schema deviations: release-schema-catalog.test.ts);
// 2. every provider type of every API the CR can express, added by an LLSD to that release's
//    starter config, renders a provider entry that passes the release's schemas with no unknown key.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { catalogReleases, providerRegistry, providerSpec, schemaOf } from '../../src/catalog/catalog.js';
import { profileFor } from '../../src/catalog/versions.js';
import { generateConfig } from '../../src/llsd/generate.js';
import { checkReleaseSchema } from '../../src/core/release-schema.js';
import { checkStartupRules } from '../../src/core/startup/index.js';
import { parseYaml11 } from '../../src/krm/yaml.js';
import { inlinePlan } from './plan-fixtures.js';

const catalogDir = join(import.meta.dirname, '..', '..', 'configs', 'catalog');
const defectsFile = new URL('./release-matrix.upstream.yaml', import.meta.url);
const defectsText = readFileSync(defectsFile, 'utf8');
const upstreamDefects = parse(defectsText) as Record<string, string[]>;
// UPDATE_MATRIX=1 rewrites the list (keeping its header comment): review the diff before committing.
const update = process.env.UPDATE_MATRIX === '1';
const found: Record<string, string[]> = {};
afterAll(() => {
  if (!update) return;
  const header = defectsText.split('\n').filter((line) => line.startsWith('#')).join('\n');
  const sorted = Object.fromEntries(Object.keys(found).sort().map((key) => [key, found[key]]));
  writeFileSync(defectsFile, `${header}\n${stringify(sorted, { lineWidth: 0 })}`);
});

/** Shipped run configs of a release: `<distribution>/<file>` (config.yaml, run*.yaml; not build.yaml). */
function shippedConfigs(release: string): string[] {
  const dir = join(catalogDir, release, 'distributions');
  return readdirSync(dir)
    .flatMap((name) => readdirSync(join(dir, name)).map((file) => `${name}/${file}`))
    .filter((path) => /\/(config|run[^/]*)\.yaml$/.test(path))
    .sort();
}
const shippedText = (release: string, path: string): string => readFileSync(join(catalogDir, release, 'distributions', path), 'utf8');

/** Every `${env.X}` without a default: the container must set X (the LLSD would, in overrides.env). */
const bareVariables = (text: string): Set<string> => new Set([...text.matchAll(/\$\{env\.([A-Z0-9_]+)\}/g)].map((m) => m[1] as string));

function render(spec: string, release: string, baseText: string) {
  const profile = profileFor(release);
  if (!profile) throw new Error(`no profile for ${release}`);
  return generateConfig(inlinePlan(spec, release, profile, baseText));
}

describe.each(catalogReleases())('release %s', (release) => {
  describe('1. shipped distribution configs render unchanged; the startup rules find only reviewed upstream defects', () => {
    it.each(shippedConfigs(release))('%s', (path) => {
      const text = shippedText(release, path);
      const out = render('distribution: {name: test}', release, text);
      expect(out.ok ? [] : out.problems).toEqual([]);
      if (!out.ok) return;
      expect(out.config.value).toEqual(parseYaml11(text).value);
      const profile = profileFor(release);
      if (!profile) throw new Error(`no profile for ${release}`);
      const errors = checkStartupRules(out.config.value, { release, catalogRelease: release, profile, containerEnv: bareVariables(text) })
        .filter((p) => p.severity === 'error')
        .map((p) => `${p.path}: ${p.message}`);
      if (errors.length > 0) found[`${release}/${path}`] = errors;
      if (!update) expect(errors).toEqual(upstreamDefects[`${release}/${path}`] ?? []);
    });
  });

  describe('2. every provider type the CR can express renders an entry that passes the release schema', () => {
    const starter = shippedConfigs(release).find((p) => p === 'starter/config.yaml' || p === 'starter/run.yaml');
    const crApis: Record<string, string> = { inference: 'inference', safety: 'safety', vector_io: 'vectorIo', tool_runtime: 'toolRuntime' };
    const cases = Object.entries(providerRegistry(release))
      .filter(([api]) => Object.hasOwn(crApis, api))
      .flatMap(([api, types]) => Object.keys(types).map((type) => [api, type] as const));

    it.each(cases)('%s %s', (api, type) => {
      if (!starter) throw new Error(`${release} ships no starter config`);
      const out = render(
        `distribution: {name: test}\nproviders:\n  ${crApis[api]}:\n    provider: "${type}"\n    id: matrix${requiredSettings(release, api, type)}`,
        release,
        shippedText(release, starter),
      );
      if (!out.ok) {
        // A refusal must say why; it may not be about a key the release lacks.
        expect(out.problems.map((p) => p.message).join('\n')).not.toMatch(/is not a .* setting/);
        return;
      }
      const problems = checkReleaseSchema(out.config.value, { release, catalogRelease: release, containerEnv: new Set(), source: 'generated' });
      const entries = (out.config.value.providers as Record<string, Array<{ provider_id: string }>>)[api] ?? [];
      const at = entries.findIndex((e) => e.provider_id === 'matrix');
      expect(at).toBeGreaterThanOrEqual(0);
      expect(problems.filter((p) => p.path.startsWith(`providers.${api}[${at}]`))).toEqual([]);
    });
  });
});

/**
 * Settings for the keys the release's schema requires and its sample config does not give (absent,
 * or only a variable without a default, which the renderer leaves out, or with an empty one): a
 * value of the schema's type, as a user would write. What the renderer writes on its own is tested.
 */
function requiredSettings(release: string, api: string, type: string): string {
  const spec = providerSpec(release, api, type);
  const schema = spec ? schemaOf(spec.schema) : undefined;
  const properties = (schema?.properties ?? {}) as Record<string, Record<string, unknown>>;
  const sample = spec?.sample ?? {};
  const unset = (value: unknown): boolean => typeof value === 'string' && /^\$\{env\.[A-Z0-9_]+(:=)?\}$/.test(value);
  const required = ((schema?.required ?? []) as string[]).filter((key) => !Object.hasOwn(sample, key));
  const missing = [...new Set([...required, ...Object.keys(sample).filter((key) => unset(sample[key]))])];
  if (missing.length === 0) return '';
  return `\n    settings:\n${missing.map((key) => `      ${key}: ${exampleValue(properties[key] ?? {})}`).join('\n')}`;
}

function exampleValue(node: Record<string, unknown>): string {
  // The catalog wraps scalars as `anyOf: [scalar, EnvPlaceholder]`.
  const branches = [node, ...((node.anyOf as Array<Record<string, unknown>> | undefined) ?? [])].filter(
    (b) => !String((b.$ref as string | undefined) ?? '').endsWith('/EnvPlaceholder'),
  );
  if (branches.some((b) => b.type === 'string')) return '"example"';
  const types = branches.map((b) => b.type).filter((t): t is string => typeof t === 'string');
  if (types.includes('integer') || types.includes('number')) return '1';
  if (types.includes('boolean')) return 'true';
  if (types.includes('array')) return '[]';
  if (types.includes('object') || branches.some((b) => b.$ref)) return '{}';
  return '"example"';
}
