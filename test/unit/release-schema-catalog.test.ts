// The release-schema check over the configs we and upstream ship, and against a second validator.
import { readdirSync, readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { baseConfigPaths, catalogReleases, distributions, providerSpec, schemaDefs, serverRelease } from '../../src/catalog/catalog.js';
import { checkReleaseSchema } from '../../src/core/release-schema.js';
import { parseYaml11 } from '../../src/krm/yaml.js';
import { shippedConfigText } from '../support.js';

const read = (text: string): unknown => {
  const parsed = parseYaml11(text);
  if (parsed.problem) throw new Error(parsed.problem.message);
  return parsed.value;
};
const check = (config: unknown, release: string) =>
  checkReleaseSchema(config, { release, catalogRelease: release, containerEnv: new Set(), source: 'generated' });

/**
 * Each base config path with the release it is for; not a vendor's copied byte for byte (a SOURCE
 * beside it: `rh`), whose ignored keys are the vendor's (test/unit/rh-distribution.test.ts judges it).
 */
const vendor = (path: string): boolean =>
  /^distributions\/[^/]+\/config\.yaml$/.test(path) && shippedConfigText(path.replace(/config\.yaml$/, 'SOURCE')) !== undefined;
const bases = Object.values(distributions())
  .flatMap((d) => Object.entries(d.releases).map(([release, r]) => ({ release, path: r.config })))
  .filter((b) => !vendor(b.path));

describe('release schema: shipped configs', () => {
  it('every base config of a named distribution passes its release schema, with no unknown key', () => {
    expect(bases.map((b) => b.path).sort()).toEqual(baseConfigPaths().filter((path) => !vendor(path)));
    for (const { release, path } of bases) {
      const text = shippedConfigText(path);
      if (text === undefined) throw new Error(`configs/${path} is missing`);
      expect(check(read(text), release), path).toEqual([]);
    }
  });

  it('every upstream distribution config passes, or fails only with its reviewed deviations', () => {
    const expected = parse(readFileSync(new URL('./release-schema-upstream.expected.yaml', import.meta.url), 'utf8')) as Record<string, string[]>;
    const actual: Record<string, string[]> = {};
    for (const release of catalogReleases()) {
      const root = `configs/catalog/${release}/distributions`;
      for (const dist of readdirSync(root)) {
        for (const file of readdirSync(`${root}/${dist}`).filter((f) => /^(config|run.*)\.yaml$/.test(f))) {
          const problems = check(read(readFileSync(`${root}/${dist}/${file}`, 'utf8')), release);
          if (problems.length > 0) actual[`${release}/${dist}/${file}`] = problems.map((p) => p.path);
        }
      }
    }
    expect(actual).toEqual(expected);
  });
});

// ajv compiles the same schemas.json; on input without placeholders both validators must agree.
describe('release schema: agrees with ajv', () => {
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  ajv.addSchema({ $id: 'catalog', $defs: schemaDefs() });
  const ajvValid = (key: string, value: unknown): boolean => ajv.validate({ $ref: `catalog#/$defs/${key}` }, value);

  /** Valid by both for the whole config and for each provider config (ours checks those by type). */
  function agree(config: Record<string, any>, release: string): boolean {
    const ours = check(config, release).length === 0;
    let theirs = ajvValid(serverRelease(release)?.runConfigSchema as string, config);
    for (const [api, entries] of Object.entries(config.providers ?? {})) {
      for (const entry of entries as Array<Record<string, any>>) {
        const spec = providerSpec(release, api, entry.provider_type);
        if (spec && entry.config) theirs &&= ajvValid(spec.schema, entry.config);
      }
    }
    expect(ours, `${release}: ours ${ours ? 'valid' : 'invalid'}, ajv ${theirs ? 'valid' : 'invalid'}: ${JSON.stringify(config)}`).toBe(theirs);
    return ours;
  }

  const vllm = (config: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    version: 2,
    distro_name: 't',
    providers: { inference: [{ provider_id: 'v', provider_type: 'remote::vllm', config: { base_url: 'http://v:8000/v1', ...config } }] },
    ...extra,
  });

  it('on the base configs (placeholders left as strings, which both accept)', () => {
    // 0.2.14 remote-vllm: its `sinks` string is split by the server (and by us), not by a schema.
    for (const { release, path } of bases.filter((b) => b.release !== '0.2.14')) {
      expect(agree(read(shippedConfigText(path) as string) as Record<string, any>, release), path).toBe(true);
    }
  });

  it('on generated configs, valid and invalid', () => {
    for (const release of ['0.7.1', '0.8.0', '1.3.0']) {
      expect(agree(vllm({ max_tokens: 100 }, { server: { port: 8321 } }), release)).toBe(true);
      expect(agree(vllm({ max_tokens: 'many' }), release)).toBe(false);
      expect(agree(vllm({ max_tokenz: 1 }), release)).toBe(false);
      expect(agree(vllm({}, { server: { prot: 1 } }), release)).toBe(false);
      expect(agree(vllm({ tls_verify: 3 }), release)).toBe(false);
      expect(agree(vllm({}, { storage: { backends: { kv_default: { type: 'kv_sqlite', db_path: 5 } } } }), release)).toBe(false);
    }
  });
});
