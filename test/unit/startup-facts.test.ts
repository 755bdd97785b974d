// configs/startup-facts.yaml: the file fits its schema, is what the bundle embeds, and agrees with
// the release catalog wherever the catalog says the same thing (provider types, backend types and
// the keys they require, APIs), so the startup rules cannot drift from the releases they check.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { catalogReleases, providerRegistry, releasesWithApi, schemaDefs } from '../../src/catalog/catalog.js';
import { startupFacts, startupFactsSchema } from '../../src/catalog/startup-facts.js';

const text = readFileSync(join(import.meta.dirname, '..', '..', 'configs', 'startup-facts.yaml'), 'utf8');

/** Provider types of `api` registered by any catalog release. */
const typesOfApi = (api: string): Set<string> => new Set(catalogReleases().flatMap((r) => Object.keys(providerRegistry(r)[api] ?? {})));

/** Every store config schema of the catalog whose `type` is a const: the const, its family (from the schema's name), its required keys. */
function storeSchemas(): Array<{ type: string; family: 'kv' | 'sql'; required: string[] }> {
  const defs = schemaDefs() as Record<string, Record<string, unknown>>;
  return Object.entries(defs).flatMap(([name, node]) => {
    const family = /KVStoreConfig/.test(name) ? 'kv' : /SqlStoreConfig/.test(name) ? 'sql' : undefined;
    const tag = (node.properties as Record<string, { anyOf?: Array<{ const?: unknown }>; const?: unknown }> | undefined)?.type;
    const type = [tag?.const, ...(tag?.anyOf ?? []).map((b) => b.const)].find((c): c is string => typeof c === 'string');
    return family && type ? [{ type, family, required: (node.required as string[] | undefined) ?? [] }] : [];
  });
}

describe('configs/startup-facts.yaml', () => {
  it('fits startupFactsSchema, and startupFacts() is the file as embedded', () => {
    const result = startupFactsSchema().safeParse(parse(text));
    expect(result.success ? [] : result.error.issues).toEqual([]);
    expect(startupFacts()).toEqual(parse(text));
  });

  it('the schema refuses a backend of a family that is neither kv nor sql, naming the field', () => {
    const facts = structuredClone(startupFacts());
    (facts.storage.backends as Record<string, unknown>).kv_sqlite = { family: 'blob' };
    const result = startupFactsSchema().safeParse(facts);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join('.'))).toEqual(['storage.backends.kv_sqlite.family']);
  });

  it('names inference provider types the catalog registers, and the URL and credential keys the rules look for', () => {
    const { inference } = startupFacts();
    const inferenceTypes = typesOfApi('inference');
    expect([...inference.v1BaseUrl, ...inference.urlRequired].filter((type) => !inferenceTypes.has(type))).toEqual([]);
    expect(inference.urlRequired).toEqual(['remote::vllm']);
    expect(inference.v1BaseUrl).toEqual(expect.arrayContaining(inference.urlRequired));
    expect(inference.urlKeys).toEqual(['base_url', 'url', 'openai_compat_api_base', 'api_base']);
    expect(inference.credentialKeys).toEqual(['api_key', 'api_token']);
  });

  it('has every backend type of the catalog, in its family, with the key its schema requires', () => {
    const { backends } = startupFacts().storage;
    const catalog = storeSchemas().filter((s) => /^(kv|sql)_/.test(s.type));
    expect(catalog.length).toBeGreaterThan(0);
    const fromCatalog = Object.fromEntries(catalog.map((s) => [s.type, { family: s.family, required: s.required }]));
    const fromFacts = Object.fromEntries(
      Object.entries(backends).map(([type, b]) => [type, { family: b.family, required: b.requires ? [b.requires.key] : [] }]),
    );
    expect(fromFacts).toEqual(fromCatalog);
    // Messages list the types kv_* first, as the rules always have.
    expect(Object.keys(backends)).toEqual(['kv_sqlite', 'kv_postgres', 'kv_redis', 'kv_mongodb', 'sql_sqlite', 'sql_postgres']);
  });

  it('has every ≤ 0.2 store type of the catalog, with the families that serve it and the key it requires', () => {
    const legacy = startupFacts().storage.legacyStoreTypes;
    const catalog = storeSchemas().filter((s) => !s.type.includes('_'));
    const families = (type: string): string[] => [...new Set(catalog.filter((s) => s.type === type).map((s) => s.family))].sort();
    const required = (type: string): string[] => [...new Set(catalog.filter((s) => s.type === type).flatMap((s) => s.required))];
    expect(Object.keys(legacy).sort()).toEqual([...new Set(catalog.map((s) => s.type))].sort());
    for (const [type, fact] of Object.entries(legacy)) {
      const written = { type, families: [...fact.families].sort(), required: fact.requires ? [fact.requires.key] : [] };
      expect(written).toEqual({ type, families: families(type), required: required(type) });
    }
    // Every ≤ 0.2 type has a 0.3.0+ backend per family it serves: the rules advise writing `<family>_<type>`.
    for (const [type, fact] of Object.entries(legacy)) {
      for (const family of fact.families) expect(startupFacts().storage.backends[`${family}_${type}`]?.family, `${family}_${type}`).toBe(family);
    }
  });

  it('names store keys, path keys, provider types, APIs and model types the rules and the catalog share', () => {
    const { storage, paths, resources } = startupFacts();
    expect(Object.keys(storage.providerStores)).toEqual(['persistence', 'kvstore', 'sqlstore', 'metadata_store']);
    expect(storage.providerStores.persistence?.parts).toEqual({ agent_state: 'kv', responses: 'sql' });
    expect(Object.values(storage.legacyTopLevelStores).map((s) => s.store)).toEqual(['metadata', 'inference']);
    expect(paths.keys).toEqual(['db_path', 'storage_dir', 'sqlite_db_path']);
    const vectorIoTypes = typesOfApi('vector_io');
    expect(Object.keys(paths.providerKeys).filter((type) => !vectorIoTypes.has(type))).toEqual([]);
    expect(Object.values(resources.apiOfList).filter((api) => releasesWithApi(api).length === 0)).toEqual([]);
    expect(Object.values(resources.vectorStoreDefaults).filter((type) => !resources.modelTypes.includes(type))).toEqual([]);
    expect(resources.modelTypes).toEqual(['llm', 'embedding', 'rerank']);
  });
});
