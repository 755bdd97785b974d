// The startup rules, each by a named id, in the order their problems are reported: a config's
// problems are sorted by rule, then kept in the order found. The ids are internal (tests filter by
// them); what a user sees of a warning is its code (src/krm/result.ts warningCodes).
export const startupRuleIds = [
  // The config is a mapping with `providers` and the distribution name; `providers` maps APIs to lists.
  'config-shape',
  // Each key of `providers` and entry of `apis` is an API of the release that takes providers.
  'api-names',
  // Each provider type exists for its API in the release and can start there.
  'provider-types',
  // Each provider entry is a mapping with a provider_id, unique within its API.
  'provider-ids',
  // An API without a routing table takes one provider.
  'single-provider-apis',
  // `apis` agrees with `providers`.
  'apis-list',
  // Each provider's API dependencies are served.
  'api-dependencies',
  // Provider config keys: those needed at startup, the credential key, the URL key and its value.
  'provider-settings',
  // Storage: backends, stores and the store references of providers (≤ 0.2: full store configs).
  'storage',
  // Registered models.
  'models',
  // Registered shields, vector stores, tool groups, and lists of APIs the release lacks.
  'resources',
  // Defaults naming registered resources: vector_stores defaults, safety.default_shield_id.
  'resource-defaults',
  // `server`: port, TLS pair, CORS, auth provider.
  'server',
  // `${env.…}` placeholders: set, well formed, recognised.
  'env-placeholders',
  // Paths on the server's filesystem lie on the state volume.
  'state-paths',
] as const;

export type StartupRuleId = (typeof startupRuleIds)[number];

const rank = new Map<string, number>(startupRuleIds.map((id, i) => [id, i]));

/** The rule's place in the report order. */
export const ruleRank = (id: StartupRuleId): number => rank.get(id) as number;
