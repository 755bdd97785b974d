// The data llsd-render consults, from configs/*.yaml (embedded in the bundle as text). Each file is
// parsed once, on first use, and checked against its schema: a broken data file is a bug, so it throws.
import { parse } from 'yaml';
import { z } from 'zod';
import distributionsText from '../../configs/distributions.yaml';
import starter071 from '../../configs/distributions/starter/0.7.1.yaml';
import providersText from '../../configs/providers.yaml';
import releasesText from '../../configs/releases.yaml';
import workloadText from '../../configs/workload.yaml';

const version = z.string().regex(/^\d+\.\d+\.\d+$/);

const distributionsSchema = z.record(
  z.string(),
  z.strictObject({
    defaultRelease: version,
    releases: z.record(version, z.strictObject({ image: z.string(), config: z.string() })),
  }),
);
export type DistributionCatalog = z.infer<typeof distributionsSchema>;

const providerRowSchema = z.strictObject({
  type: z.string(),
  api: z.string(),
  urlKey: z.string().nullable(),
  credentialKey: z.string().nullable(),
  /** Keys that locate the service when it is more than one URL (pgvector host/port/db, …). */
  connectionKeys: z.array(z.string()).optional(),
  presentIn: z.array(version),
  removedIn: version.optional(),
  requiresApis: z.array(z.string()).optional(),
  fieldsInOlderReleases: z.record(version, z.array(z.string())).optional(),
});
export type ProviderRow = z.infer<typeof providerRowSchema>;

const releaseProfileSchema = z.strictObject({
  since: version,
  layout: z.enum(['storage-backends']),
  inferenceUrlHasApiPrefix: z.boolean(),
  image: z.strictObject({ configPathEnv: z.string(), portEnv: z.string(), home: z.string() }),
});
export type ReleaseProfile = z.infer<typeof releaseProfileSchema>;

const probeSchema = z.strictObject({
  periodSeconds: z.number().int(),
  timeoutSeconds: z.number().int(),
  failureThreshold: z.number().int(),
});

const workloadDefaultsSchema = z.strictObject({
  container: z.strictObject({
    name: z.string(),
    port: z.number().int(),
    portName: z.string(),
    configMountPath: z.string(),
    configFileName: z.string(),
    storageVolumeName: z.string(),
    configVolumeName: z.string(),
  }),
  replicas: z.number().int(),
  resources: z.record(z.string(), z.record(z.string(), z.string())),
  healthPath: z.string(),
  probes: z.strictObject({ startup: probeSchema, readiness: probeSchema, liveness: probeSchema }),
  podSecurityContext: z.record(z.string(), z.unknown()),
  containerSecurityContext: z.record(z.string(), z.unknown()),
});
export type WorkloadDefaults = z.infer<typeof workloadDefaultsSchema>;

/** Base config files shipped with the bundle, by their path under configs/distributions/. */
const baseConfigTexts: Record<string, string> = {
  'starter/0.7.1.yaml': starter071,
};

const once = <T>(load: () => T): (() => T) => {
  let value: T | undefined;
  return () => (value ??= load());
};

export const distributions = once(() => distributionsSchema.parse(parse(distributionsText)));
export const providerTable = once(() => z.array(providerRowSchema).parse(parse(providersText)));
export const releaseProfiles = once(() => z.array(releaseProfileSchema).parse(parse(releasesText)));
export const workloadDefaults = once(() => workloadDefaultsSchema.parse(parse(workloadText)));

/** The text of a shipped base config, or undefined when no such file is embedded. */
export const baseConfigText = (path: string): string | undefined => (Object.hasOwn(baseConfigTexts, path) ? baseConfigTexts[path] : undefined);
