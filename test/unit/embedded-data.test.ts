// The data in configs/ reaches the bundle parsed at build time (scripts/embed-yaml.mjs) and is not
// checked at start-up: here it is checked against its schemas, and the base configs against the
// parser the server-side checks use, so the embedding cannot drift from what the files say.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { baseConfig, baseConfigPaths } from '../../src/catalog/catalog.js';
import {
  distributionsSchema,
  externalProviderSettingsSchema,
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
