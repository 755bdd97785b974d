// What checking a config against a catalog release's JSON Schemas needs beyond the schemas
// themselves: how that release substitutes `${env.…}` before it validates (server catalog
// <R>/env-substitution.md, read from each release's `replace_env_vars`), and the conversions its
// pydantic validators make that a JSON Schema cannot say.

/** How one catalog release turns `${env.…}` placeholders into the values pydantic validates. */
export interface Substitution {
  /**
   * 0.2.14 converts every string of the config ('' → null, "true" → true, "8321" → 8321), even one
   * without a placeholder; later releases convert only strings a substitution changed.
   */
  convertsEveryString: boolean;
  /** List entries with one of these id fields resolving to empty are dropped before validation. */
  droppedWhenEmpty: readonly string[];
  /** `server.auth.provider_config.type` resolving to empty disables auth (provider_config → null). */
  authTypeEmptyDisables: boolean;
}

// By catalog release (each env-substitution.md, "Type conversion" and "Special cases").
const SUBSTITUTION: Record<string, Substitution> = {
  '0.2.14': { convertsEveryString: true, droppedWhenEmpty: [], authTypeEmptyDisables: false },
  '0.4.4': {
    convertsEveryString: false,
    droppedWhenEmpty: ['vector_store_id', 'model_id', 'shield_id', 'dataset_id', 'scoring_fn_id', 'benchmark_id', 'toolgroup_id'],
    authTypeEmptyDisables: false,
  },
  '0.7.1': {
    convertsEveryString: false,
    droppedWhenEmpty: ['vector_store_id', 'model_id', 'shield_id', 'dataset_id', 'scoring_fn_id', 'benchmark_id'],
    authTypeEmptyDisables: true,
  },
  '0.8.0': { convertsEveryString: false, droppedWhenEmpty: ['vector_store_id', 'model_id', 'shield_id'], authTypeEmptyDisables: true },
};
/** 1.0.0 and later (1.0.0, 1.1.3, 1.2.2, 1.3.0 read the same). */
const NEWEST: Substitution = { convertsEveryString: false, droppedWhenEmpty: ['vector_store_id', 'model_id'], authTypeEmptyDisables: true };

/** The substitution rules of a catalog release. */
export const substitutionOf = (catalogRelease: string): Substitution => SUBSTITUTION[catalogRelease] ?? NEWEST;

/**
 * Provider settings a pydantic before-validator of the release converts, which its JSON Schema
 * cannot say: by catalog release, `<api> <provider type>` → keys whose comma-separated string
 * the server splits into a list (0.2.14 telemetry `sinks: console,sqlite`, in every 0.2.14
 * distribution).
 */
const COMMA_LISTS: Record<string, Record<string, readonly string[]>> = {
  '0.2.14': { 'telemetry inline::meta-reference': ['sinks'] },
};

/** The keys of a provider's config that the release splits at commas when given as a string. */
export const commaListKeys = (catalogRelease: string, api: string, type: string): readonly string[] => COMMA_LISTS[catalogRelease]?.[`${api} ${type}`] ?? [];
