// The data in configs/ reaches the bundle parsed at build time (scripts/embed-yaml.mjs) and is not
// checked at start-up: here it is checked against its schemas, and the base configs against the
// parser the server-side checks use, so the embedding cannot drift from what the files say.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { baseConfig, baseConfigPaths } from '../../src/catalog/catalog.js';
import { catalogReleases, providerRegistry, schemaDefs, serverRelease } from '../../src/catalog/catalog.js';
import {
  providerRegistrySchema,
  serverReleaseSchema,
  distributionsSchema,
  externalProviderSettingsSchema,
  ogxObjectsSchema,
  ogxDivergencesSchema,
  ogxLlsdFieldsSchema,
  providerRowSchema,
  releaseProfileSchema,
  toolGroupsSchema,
  workloadDefaultsSchema,
} from '../../src/catalog/schema.js';
import { parseYaml11 } from '../../src/krm/yaml.js';
import { z } from '../../src/lib/zod.js';

const configs = join(import.meta.dirname, '..', '..', 'configs');
const read = (name: string): string => readFileSync(join(configs, name), 'utf8');

describe('configs/ data against its schemas', () => {
  it.each([
    ['distributions.yaml', distributionsSchema],
    ['providers.yaml', z.array(providerRowSchema)],
    ['releases.yaml', z.array(releaseProfileSchema)],
    ['workload.yaml', workloadDefaultsSchema],
    ['tool-groups.yaml', toolGroupsSchema],
    ['external-providers.yaml', externalProviderSettingsSchema],
    ['ogx-objects.yaml', ogxObjectsSchema],
    ['ogx-divergences.yaml', ogxDivergencesSchema],
    ['ogx-llsd-fields.yaml', ogxLlsdFieldsSchema],
  ] as const)('%s', (file, schema) => {
    const result = (schema as z.ZodMiniType).safeParse(parse(read(file)));
    expect(result.success ? [] : result.error.issues).toEqual([]);
  });

  it('every base config named in distributions.yaml is embedded, as parseYaml11 reads its file', () => {
    const named = Object.values(distributionsSchema.parse(parse(read('distributions.yaml')))).flatMap((d) => Object.values(d.releases).map((r) => r.config));
    expect(baseConfigPaths()).toEqual([...new Set(named)].sort());
    for (const path of baseConfigPaths()) {
      expect(baseConfig(path), path).toEqual(parseYaml11(read(path)).value);
    }
  });
});

describe('the release catalog (configs/catalog/, written by scripts/import-catalog.mjs)', () => {
  const releases = catalogReleases();

  it('holds releases, each with release.yaml and providers.yaml in their shapes', () => {
    expect(releases.length).toBeGreaterThan(0);
    for (const release of releases) {
      const facts = serverReleaseSchema.safeParse(parse(read(join('catalog', release, 'release.yaml'))));
      expect(facts.success ? [] : facts.error.issues, `${release}/release.yaml`).toEqual([]);
      expect(facts.data?.release).toBe(release);
      const registry = providerRegistrySchema.safeParse(parse(read(join('catalog', release, 'providers.yaml'))));
      expect(registry.success ? [] : registry.error.issues, `${release}/providers.yaml`).toEqual([]);
    }
  });

  it('names only schemas that schemas.json holds, and every $ref there resolves', () => {
    const defs = schemaDefs();
    const keys = new Set(Object.keys(defs));
    for (const release of releases) {
      expect(keys.has(serverRelease(release)?.runConfigSchema ?? ''), `${release} run-config schema`).toBe(true);
      for (const [api, types] of Object.entries(providerRegistry(release))) {
        for (const [type, spec] of Object.entries(types)) expect(keys.has(spec.schema), `${release} ${api} ${type}`).toBe(true);
      }
    }
    const refs = [...JSON.stringify(defs).matchAll(/"\$ref":"#\/\$defs\/([^"]+)"/g)].map((m) => m[1] as string);
    expect(refs.length).toBeGreaterThan(0);
    expect(refs.filter((ref) => !keys.has(ref))).toEqual([]);
  });

  it('is what the bundle embeds (the embedded files parse to what the files say)', () => {
    for (const release of releases) expect(serverRelease(release)).toEqual(parse(read(join('catalog', release, 'release.yaml'))));
    expect(schemaDefs()).toEqual(JSON.parse(read(join('catalog', 'schemas.json'))).$defs);
  });
});
