// The data llsd-render consults, from configs/*.yaml. The build parses the files into the bundle
// (scripts/embed-yaml.mjs), and test/unit/embedded-data.test.ts checks them against their schemas
// (catalog-schema.ts), so nothing is parsed or checked at start-up.
import type { DistributionCatalog, ProviderRow, ReleaseProfile, WorkloadDefaults } from './catalog-schema.js';
import distributionsData from '../../configs/distributions.yaml';
import metaReferenceGpu044 from '../../configs/distributions/meta-reference-gpu/0.4.4.yaml';
import postgresDemo071 from '../../configs/distributions/postgres-demo/0.7.1.yaml';
import remoteVllm0214 from '../../configs/distributions/remote-vllm/0.2.14.yaml';
import starter071 from '../../configs/distributions/starter/0.7.1.yaml';
import starter080 from '../../configs/distributions/starter/0.8.0.yaml';
import providersData from '../../configs/providers.yaml';
import releasesData from '../../configs/releases.yaml';
import workloadData from '../../configs/workload.yaml';

export type { DistributionCatalog, ProviderRow, ReleaseProfile, WorkloadDefaults };

/** Base config files shipped with the bundle (as the server parses them: YAML 1.1), by their path under configs/distributions/. */
const baseConfigs: Record<string, unknown> = {
  'meta-reference-gpu/0.4.4.yaml': metaReferenceGpu044,
  'postgres-demo/0.7.1.yaml': postgresDemo071,
  'remote-vllm/0.2.14.yaml': remoteVllm0214,
  'starter/0.7.1.yaml': starter071,
  'starter/0.8.0.yaml': starter080,
};

export const distributions = (): DistributionCatalog => distributionsData as DistributionCatalog;
export const providerTable = (): ProviderRow[] => providersData as ProviderRow[];
export const releaseProfiles = (): ReleaseProfile[] => releasesData as ReleaseProfile[];
export const workloadDefaults = (): WorkloadDefaults => workloadData as WorkloadDefaults;

/** Paths (under configs/distributions/) of every embedded base config. */
export const baseConfigPaths = (): string[] => Object.keys(baseConfigs).sort();

/** A shipped base config, or undefined when no such file is embedded. */
export const baseConfig = (path: string): unknown => (Object.hasOwn(baseConfigs, path) ? baseConfigs[path] : undefined);
