// configs/startup-facts.yaml: what the startup rules (src/core/startup/) know of config keys,
// provider types and storage in every release, beside the release catalog. As for the other
// configs/ files, the data is not checked at start-up: test/unit/startup-facts.test.ts checks the
// file against `startupFactsSchema`, built only when asked for.
import { configFile } from './files.js';
import { lazily, z } from '../lib/zod.js';

export const startupFactsSchema = lazily(() => {
  const family = z.enum(['kv', 'sql']);
  /** A key the server has no default for, and what the message says of it ("needs the path of its database file"). */
  const requiredKey = z.strictObject({ key: z.string(), why: z.string() });
  const names = z.array(z.string());
  return z.strictObject({
    inference: z.strictObject({
      /** Keys that have held an inference provider's URL, in the order messages name them. */
      urlKeys: names,
      /** The credential keys that differ between providers. */
      credentialKeys: names,
      /** Provider types whose base_url ends in /v1. */
      v1BaseUrl: names,
      /** Provider types with no default URL. */
      urlRequired: names,
    }),
    storage: z.strictObject({
      /** 0.3.0+ backend type → its family and the key it needs. */
      backends: z.record(z.string(), z.strictObject({ family, requires: z.optional(requiredKey) })),
      /** 0.3.0+ provider config key → the family of the backend it references, or one per part. */
      providerStores: z.record(z.string(), z.strictObject({ family, parts: z.optional(z.record(z.string(), family)) })),
      /** ≤ 0.2 store type → the families it serves and the key it needs. */
      legacyStoreTypes: z.record(z.string(), z.strictObject({ families: z.array(family), requires: z.optional(requiredKey) })),
      /** ≤ 0.2 provider config key → the family of its store config. */
      legacyProviderStores: z.record(z.string(), family),
      /** ≤ 0.2 top-level store key → its family, the 0.3.0+ store, the key it may sit under. */
      legacyTopLevelStores: z.record(z.string(), z.strictObject({ family, store: z.string(), nestedUnder: z.optional(z.string()) })),
    }),
    paths: z.strictObject({
      /** Keys whose value is a path on the server's filesystem, anywhere. */
      keys: names,
      /** Provider type → keys of its config that are paths there. */
      providerKeys: z.record(z.string(), names),
    }),
    resources: z.strictObject({
      modelTypes: names,
      /** `registered_resources` list → the API it belongs to. */
      apiOfList: z.record(z.string(), z.string()),
      /** `vector_stores` default → the model type it names. */
      vectorStoreDefaults: z.record(z.string(), z.string()),
      /** Paths of the settings that name a vector_io provider: in the run config, and in a provider's config. */
      vectorProviderSettings: z.strictObject({
        runConfig: z.array(z.strictObject({ path: names, why: z.string() })),
        /** `replacedBy`: a run-config key that, when present, replaces the provider's setting at startup. */
        provider: z.array(z.strictObject({ path: names, why: z.string(), replacedBy: z.optional(z.string()) })),
      }),
    }),
  });
});
export type StartupFacts = z.infer<ReturnType<typeof startupFactsSchema>>;
/** kv or sql: what a store reference needs, a `kv_*` or a `sql_*` backend. */
export type StoreFamily = StartupFacts['storage']['legacyProviderStores'][string];

let facts: StartupFacts | undefined;
/** The facts of configs/startup-facts.yaml. */
export function startupFacts(): StartupFacts {
  if (facts === undefined) {
    const value = configFile('startup-facts.yaml');
    if (value === undefined) throw new Error('configs/startup-facts.yaml is not embedded');
    facts = value as StartupFacts;
  }
  return facts;
}
