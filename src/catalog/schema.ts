// The shapes of the data in configs/ (one source for their types). The data is checked against
// them when it changes (test/unit/embedded-data.test.ts), not at every start: a render should not
// pay for checking the files it was built with. Only types leave this module for the bundle.
import { z } from '../lib/zod.js';

const version = z.string().check(z.regex(/^\d+\.\d+\.\d+$/));

/**
 * What an image needs of the pod: a release profile's `image` (the upstream image of the release),
 * and, in part, a named distribution's `imageFacts` where its image differs (read through
 * `imageFacts(target)` in src/core/workload.ts, which lays the second over the first).
 */
const imageFactsSchema = z.strictObject({
  /**
   * The image's entrypoint script (its file name, or its path), for messages and to tell an
   * `overrides.command` that runs it again from one that replaces it.
   */
  entrypoint: z.optional(z.string()),
  /** Env var the stock entrypoint reads the config path from (RUN_CONFIG_PATH), or null when the command must name it. */
  configPathEnv: z.nullable(z.string()),
  /** Command and args that start the server on `{config}` when configPathEnv is null (≤ 0.2 images). */
  command: z.optional(z.array(z.string())),
  portEnv: z.string(),
  /** Env var that overrides `server.workers` (OGX_WORKERS, 1.2.0+). */
  workersEnv: z.optional(z.string()),
  /** The entrypoint always passes `--insecure` (1.2.0+), so the stock command never needs `server.insecure`. */
  entrypointInsecure: z.optional(z.boolean()),
  /** Env var naming the state directory (OGX_CONFIG_DIR in 0.8.0), if the image has one. */
  configDirEnv: z.optional(z.string()),
  /**
   * HOME-relative state directory of the image (`/.llama`, `/.ogx`: a config's `~/.ogx/…`), where
   * the state volume is mounted (at `homeDirectory` + `home`).
   */
  home: z.string(),
  /** The HOME the image sets (`/opt/app-root/src` in a UBI Python image); absent: `/` (the Deployment's or the image's HOME=/). */
  homeDirectory: z.optional(z.string()),
  /** The numeric USER the image runs as (1001 from 1.3.0, with HOME=/); absent: root. */
  user: z.optional(z.number().check(z.int())),
  /**
   * The image sets its HOME itself (1.3.0: HOME=/; a vendor image: `homeDirectory`). Otherwise it runs as root with HOME=/root, and a config's
   * `~/.llama`/`~/.ogx` paths would miss the state directory: the Deployment sets HOME=/ (what the
   * image's `/.llama`/`/.ogx` and `/.cache` directories, made group-writable, are laid out for).
   */
  setsHome: z.optional(z.boolean()),
  /**
   * Variables the entrypoint reads from a file: with `<VAR>_FILE` set it sets `<VAR>` to that
   * file's content, and it stops when both are set (the rh image; upstream images do not).
   */
  fileSecrets: z.optional(z.array(z.string())),
});
export type ImageFacts = z.infer<typeof imageFactsSchema>;

export const distributionsSchema = z.record(
  z.string(),
  z.strictObject({
    defaultRelease: version,
    /** Where its image differs from the upstream image of the release (a vendor's build): only those facts. */
    imageFacts: z.optional(z.partial(imageFactsSchema)),
    releases: z.record(version, z.strictObject({ image: z.string(), config: z.string() })),
  }),
);
export type DistributionCatalog = z.infer<typeof distributionsSchema>;

export const providerRowSchema = z.strictObject({
  type: z.string(),
  api: z.string(),
  /** Config keys the CR's `endpoint` may go to, in preference order: the first the release's schema has wins. */
  urlKeys: z.optional(z.array(z.string()).check(z.minLength(1))),
  /** Config keys the CR's `apiKey` may go to, in preference order: the first the release's schema has wins. */
  credentialKeys: z.optional(z.array(z.string()).check(z.minLength(1))),
  /** Keys that locate the service when it is more than one URL (pgvector host/port/db, …). */
  connectionKeys: z.optional(z.array(z.string())),
  /** A safety provider whose shields run a guard model through inference: a shield is named after a registered model. */
  shieldIsModel: z.optional(z.literal(true)),
});
export type ProviderRow = z.infer<typeof providerRowSchema>;

export const releaseProfileSchema = z.strictObject({
  /** First release this profile covers; it lasts until the next profile's `since`. */
  since: version,
  /**
   * `storage-backends` (0.3.0+): `storage.backends` + `storage.stores`, resources under
   * `registered_resources`. `top-level-stores` (≤ 0.2): `metadata_store`/`inference_store` and
   * top-level `models`/`shields`/`tool_groups`.
   */
  layout: z.enum(['storage-backends', 'top-level-stores']),
  /** The server's name in messages: `OGX` from 0.8.0 (llama-stack was renamed); absent: `llama-stack`. */
  serverName: z.optional(z.literal('OGX')),
  /** Top-level key naming the distribution: `distro_name` (0.5.0+) or `image_name`. */
  nameKey: z.enum(['distro_name', 'image_name']),
  // The APIs of a release (which take providers, which are routed) are the catalog's
  // (serverRelease(r).apis), not a profile's.
  /**
   * API names this release does not have, mapped to the name it uses for the same API: from 0.7.0
   * `agents → responses` (the rename), before it `responses → agents`. The LLSD accepts both names.
   */
  renamedApis: z.record(z.string(), z.string()),
  /**
   * The env placeholder forms with a default or a value: `bash` reads `${env.X:=default}` and
   * `${env.X:+value}` (0.2.13+), `colon` reads `${env.X:default}` and `${env.X+value}`.
   */
  envSyntax: z.enum(['bash', 'colon']),
  /** A registered model may name `provider_id: all` (every inference provider). */
  modelsForAllProviders: z.boolean(),
  /** Inference `base_url` holds the full URL including /v1 (0.4.0+); before, providers used `url`. */
  inferenceUrlHasApiPrefix: z.boolean(),
  /** Tool groups: `registered` in `tool_groups` (≤ 0.6), or `auto` from tool_runtime providers (0.7.0+). */
  toolGroups: z.enum(['registered', 'auto']),
  /** `server.workers` exists (0.3.1+). */
  serverWorkers: z.boolean(),
  /** `safety.default_shield_id` exists (0.4.0+). */
  defaultShieldId: z.boolean(),
  /**
   * APIs an LLSD can name that this release no longer has, each mapped to what to use instead
   * (1.0.0+: `safety`). The last release that had the API is read from the catalog.
   */
  removedApis: z.optional(z.record(z.string(), z.string())),
  /** The server falls back to `server.port` when `--port` and the port env var are unset (1.1.0+; before, it never read it). */
  serverPortRead: z.optional(z.boolean()),
  /**
   * Strict TLS (1.2.0+): the server exits unless `server.tls_certfile` and `tls_keyfile` are set or
   * it is insecure (`server.insecure: true` or `--insecure`); with certificates and not insecure it
   * forces the ciphers to a FIPS list.
   */
  strictTls: z.optional(z.boolean()),
  image: imageFactsSchema,
});
export type ReleaseProfile = z.infer<typeof releaseProfileSchema>;

const probeSchema = z.strictObject({
  periodSeconds: z.number().check(z.int()),
  timeoutSeconds: z.number().check(z.int()),
  failureThreshold: z.number().check(z.int()),
});

const quantity = z.union([z.string(), z.number()]);

/** configs/workload.yaml: the workload defaults; each is documented there, next to its value. */
export const workloadDefaultsSchema = z.strictObject({
  container: z.strictObject({
    name: z.string(),
    port: z.number().check(z.int()),
    portName: z.string(),
    tlsPortName: z.string(),
    configMountPath: z.string(),
    configFileName: z.string(),
    storageVolumeName: z.string(),
    configVolumeName: z.string(),
  }),
  replicas: z.number().check(z.int()),
  resources: z.strictObject({ cpuPerWorker: z.number().check(z.positive()), memoryRequest: quantity }),
  healthPath: z.string(),
  probes: z.strictObject({ startup: probeSchema, readiness: probeSchema, liveness: probeSchema }),
  podSecurityContext: z.record(z.string(), z.unknown()),
  containerSecurityContext: z.record(z.string(), z.unknown()),
  storage: z.strictObject({ size: quantity, accessMode: z.string() }),
  topologySpread: z.strictObject({
    topologyKeys: z.array(z.string()).check(z.minLength(1)),
    maxSkew: z.number().check(z.int(), z.positive()),
    whenUnsatisfiable: z.enum(['ScheduleAnyway', 'DoNotSchedule']),
  }),
  podAntiAffinity: z.strictObject({ weight: z.number().check(z.int(), z.minimum(1), z.maximum(100)), topologyKey: z.string() }),
  autoscaling: z.strictObject({ targetCPUUtilization: z.number().check(z.int(), z.minimum(1), z.maximum(100)) }),
  podDisruptionBudget: z.strictObject({ maxUnavailable: z.union([z.number().check(z.int(), z.minimum(0)), z.string()]) }),
  tls: z.strictObject({ volumeName: z.string(), mountPath: z.string(), certFile: z.string(), keyFile: z.string() }),
  caBundle: z.strictObject({
    defaultKeys: z.array(z.string()).check(z.minLength(1)),
    volumeName: z.string(),
    mountPath: z.string(),
    fileName: z.string(),
    env: z.array(z.string()),
  }),
});
export type WorkloadDefaults = z.infer<typeof workloadDefaultsSchema>;

const stringMap = z.record(z.string(), z.string());
const envValue = z.strictObject({ name: z.string(), value: z.string() });

/** configs/ogx-objects.yaml: the objects of an OGXServer as the operator makes them; each value is documented there. */
export const ogxObjectsSchema = z.strictObject({
  commonLabels: stringMap,
  appLabel: stringMap,
  managedBy: stringMap,
  generatedConfigLabel: stringMap,
  watchLabel: stringMap,
  caBundleComponent: z.string(),
  configHashLength: z.number().check(z.int(), z.positive()),
  container: z.strictObject({
    name: z.string(),
    port: z.number().check(z.int()),
    servicePortName: z.string(),
    tlsServicePortName: z.string(),
    metricsPort: z.number().check(z.int()),
    metricsPortName: z.string(),
    storageVolumeName: z.string(),
    storageMountPath: z.string(),
    configVolumeName: z.string(),
    configMountPath: z.string(),
    configFileName: z.string(),
    configEnv: z.string(),
    workersEnv: z.string(),
    registryRefreshEnv: z.string(),
    hfHomeEnv: z.string(),
    metricsEnabledEnv: envValue,
    metricsHostEnv: envValue,
    metricsPortEnv: z.string(),
    startupProbe: z.strictObject({
      path: z.string(),
      initialDelaySeconds: z.number().check(z.int()),
      timeoutSeconds: z.number().check(z.int()),
      failureThreshold: z.number().check(z.int()),
      successThreshold: z.number().check(z.int()),
    }),
  }),
  podSecurityContext: z.record(z.string(), z.unknown()),
  caBundle: z.strictObject({ volumeName: z.string(), mountPath: z.string(), fileName: z.string(), env: z.string() }),
  roleBindingClusterRole: z.string(),
  networkPolicy: z.strictObject({ namespaceNameLabel: z.string(), routerPeer: stringMap, monitoringPeer: stringMap }),
  serviceMonitor: z.strictObject({ labels: stringMap, selectorKeys: z.array(z.string()), path: z.string(), interval: z.string() }),
  prometheusRule: z.strictObject({
    group: z.string(),
    interval: z.string(),
    record: z.string(),
    rules: z.array(z.strictObject({ api: z.string(), expr: z.string() })).check(z.minLength(1)),
  }),
  praxis: z.strictObject({
    podLabels: stringMap,
    namespace: z.string(),
    servedApis: z.array(z.string()).check(z.minLength(1)),
    auth: z.record(z.string(), z.unknown()),
    tenancy: z.record(z.string(), z.unknown()),
    vectorStoresTable: z.string(),
    preferredSqlBackend: z.string(),
    sinceRelease: version,
    migrationJob: z.strictObject({
      nameSuffix: z.string(),
      containerName: z.string(),
      componentLabel: stringMap,
      attemptAnnotation: z.string(),
      backoffLimit: z.number().check(z.int()),
      activeDeadlineSeconds: z.number().check(z.int()),
      restartPolicy: z.enum(['OnFailure', 'Never']),
      targetEnv: z.string(),
      command: z.array(z.string()).check(z.minLength(1)),
      migrate: z.string(),
      fallbackTenantFlag: z.string(),
      fallbackOwnerSubjectFlag: z.string(),
      podSecurityContext: z.record(z.string(), z.unknown()),
    }),
  }),
});
export type OgxObjects = z.infer<typeof ogxObjectsSchema>;

export const toolGroupsSchema = z.array(
  z.strictObject({
    names: z.array(z.string()).check(z.minLength(1)),
    variants: z
      .array(
        z.strictObject({
          toolGroup: z.string(),
          providers: z.array(z.string()).check(z.minLength(1)),
          since: z.optional(z.string()),
          until: z.optional(z.string()),
        }),
      )
      .check(z.minLength(1)),
  }),
);
export type ToolGroupTable = z.infer<typeof toolGroupsSchema>;

export const externalProviderSettingsSchema = z.strictObject({
  wheelsInImage: z.string(),
  volumeName: z.string(),
  mountPath: z.string(),
  sizeLimit: z.string(),
});
export type ExternalProviderSettings = z.infer<typeof externalProviderSettingsSchema>;

// ---------------------------------------------------------------------------------------------
// The release catalog (configs/catalog/, written by scripts/import-catalog.mjs)

export const serverReleaseSchema = z.strictObject({
  release: version,
  source: z.strictObject({ repo: z.string(), tag: z.string(), commit: z.string() }),
  /** Key in configs/catalog/schemas.json of the run-config (StackConfig) schema. */
  runConfigSchema: z.string(),
  apis: z.strictObject({
    /** APIs that take providers (keys of `providers:`). */
    providable: z.array(z.string()),
    /** Providable APIs with a routing table: several providers behind a router. */
    routed: z.array(z.string()),
    /** Routing table API → the API it routes. */
    routingTables: z.record(z.string(), z.string()),
    /** APIs the server serves itself, with no provider. */
    internal: z.array(z.string()),
    /** Every API name of the release. */
    all: z.array(z.string()),
  }),
});
export type ServerRelease = z.infer<typeof serverReleaseSchema>;

export const providerSpecSchema = z.strictObject({
  /** Key in configs/catalog/schemas.json of the provider's config schema. */
  schema: z.string(),
  /** APIs the provider needs (the server stops without them). */
  dependencies: z.array(z.string()),
  optionalDependencies: z.array(z.string()),
  /** The provider refuses to start, with this message. */
  deprecationError: z.optional(z.string()),
  deprecationWarning: z.optional(z.string()),
  /** Config keys that hold secrets (pydantic SecretStr). */
  secretFields: z.optional(z.array(z.string())),
  /** The release's own sample config for the provider (`sample_run_config`), with `DISTRO` for the distribution directory. */
  sample: z.record(z.string(), z.unknown()),
});
export type ProviderSpec = z.infer<typeof providerSpecSchema>;
export const providerRegistrySchema = z.record(z.string(), z.record(z.string(), providerSpecSchema));

// ---------------------------------------------------------------------------------------------
// configs/release-notes.yaml: what no registry or schema of the catalog states (hand-written)

/** The catalog releases a fact holds for: from `since` through `through` (inclusive; open-ended without it). */
const releaseRange = {
  since: version,
  through: z.optional(version),
};

export const releaseNotesSchema = z.strictObject({
  /** API name → what became of it (a rename, its replacement), for messages. */
  apis: z.record(z.string(), z.string()),
  /** `<api> <provider type>` → its rename, for messages. */
  providerTypes: z.record(z.string(), z.string()),
  /** Provider types the release registers but that cannot start there. */
  brokenProviders: z.array(z.strictObject({ api: z.string(), type: z.string(), ...releaseRange, why: z.string() })),
  /** Config keys the schema makes optional that the provider needs at startup. */
  requiredAtRuntime: z.array(z.strictObject({ api: z.string(), type: z.string(), key: z.string(), ...releaseRange, why: z.string() })),
  /** Config keys the release still reads but has replaced; `ignoredWhenSet`: the replacement that, when set, makes the server ignore the key. */
  deprecatedKeys: z.array(
    z.strictObject({ api: z.string(), type: z.string(), key: z.string(), ...releaseRange, instead: z.string(), ignoredWhenSet: z.optional(z.string()) }),
  ),
  /**
   * `storage.stores` entries the release still accepts in their older KV form `{backend: kv_X,
   * namespace}`, converting them (a pydantic before-validator) to the SQL form `{backend: sql_X,
   * table_name}` before it validates: what no schema can say.
   */
  kvStoresMigratedToSql: z.array(z.strictObject({ stores: z.array(z.string()), ...releaseRange, source: z.string() })),
  /** How a release substitutes `${env.…}` before it validates; the entry of the newest `since` at or before a release applies. */
  envSubstitution: z.array(
    z.strictObject({
      since: version,
      /** Every string is converted ('' → null, "true" → true, "8321" → 8321), not only substituted ones. */
      convertsEveryString: z.boolean(),
      /** List entries with one of these id fields resolving to empty are dropped before validation. */
      droppedWhenEmpty: z.array(z.string()),
      /** `server.auth.provider_config.type` resolving to empty disables auth (provider_config → null). */
      authTypeEmptyDisables: z.boolean(),
    }),
  ),
  /** Provider settings the release splits at commas when given as a string (a pydantic before-validator). */
  commaLists: z.array(z.strictObject({ api: z.string(), type: z.string(), keys: z.array(z.string()), ...releaseRange })),
});
export type Substitution = Omit<ReleaseNotes['envSubstitution'][number], 'since'>;
export type ReleaseNotes = z.infer<typeof releaseNotesSchema>;

// ---------------------------------------------------------------------------------------------
// configs/ogx-divergences.yaml: where the OGXServer config differs from the OGX operator's (hand-written)

export const ogxDivergencesSchema = z.strictObject({
  /** The first release an OGXServer renders against. */
  releases: z.strictObject({ since: version }),
  /** Provider types the operator writes that no OGX release registers, and the release's type. */
  providerTypes: z.array(z.strictObject({ ref: z.string(), api: z.string(), operator: z.string(), server: z.string() })),
  /** Required config keys whose release sample has no usable value, and the value to write. */
  requiredValues: z.array(z.strictObject({ ref: z.string(), api: z.string(), type: z.string(), key: z.string(), value: z.unknown() })),
  /** The divergence table of docs/ogxserver.md: what the operator writes, what llsd-render writes, why. */
  table: z.array(z.strictObject({ ref: z.string(), operator: z.string(), ours: z.string(), why: z.string() })),
});
export type OgxDivergences = z.infer<typeof ogxDivergencesSchema>;

// ---------------------------------------------------------------------------------------------
// configs/ogx-llsd-fields.yaml: LlamaStackDistribution fields and where an OGXServer has them (hand-written)

export const ogxLlsdFieldsSchema = z.strictObject({
  fields: z.array(
    z.strictObject({
      /** The LLSD path under `spec`, dotted, without list indexes. */
      llsd: z.string(),
      /** The OGXServer path under `spec`, or null when there is none. */
      ogx: z.nullable(z.string()),
      /** What else to write, or what to do instead. */
      note: z.optional(z.string()),
    }),
  ),
});
export type OgxLlsdFields = z.infer<typeof ogxLlsdFieldsSchema>;
