// Facts about an OGXServer's workload that more than one object needs, each decided once here as
// the OGX operator decides it, with the operator's fallbacks where the CRD has no default.
import { ogxObjects } from '../catalog/catalog.js';
import { isPlainObject } from '../lib/objects.js';
import type { FieldProblem } from '../lib/issues.js';
import { quote } from '../lib/quote.js';
import type { OgxPlan } from '../ogx/plan.js';
import type { OgxServerSpec } from '../ogx/ogxserver.js';
import type { GeneratedConfig } from './config-file.js';
import { imageFacts, imageStateDirectory } from './workload.js';

/** The name and namespace of the OGXServer. */
export function ogxSource(plan: OgxPlan): { name: string; namespace?: string } {
  const { name, namespace } = plan.server.metadata;
  return namespace === undefined ? { name } : { name, namespace };
}

/** `spec.network.port`; 8321 also without `network` (the CRD default applies only inside it). */
export const ogxPort = (plan: OgxPlan): number => plan.server.spec.network?.port ?? ogxObjects().container.port;

/** The metrics port, or undefined when monitoring is disabled (it is on when `monitoring` is absent). */
export function ogxMetricsPort(plan: OgxPlan): number | undefined {
  const monitoring = plan.server.spec.monitoring;
  if (monitoring?.enabled === false) return undefined;
  return monitoring?.metricsPort ?? ogxObjects().container.metricsPort;
}

/** `workload.replicas` (default 1): more than one turns on the PDB, topology spread and anti-affinity; the HPA bounds do not. */
export const ogxReplicas = (plan: OgxPlan): number => plan.server.spec.workload?.replicas ?? 1;

/**
 * Where the state volume is mounted, and HF_HOME: `workload.storage.mountPath`, default the
 * operator's `/.ogx` (the upstream image's state directory); an image with a HOME of its own (`rh`:
 * /opt/app-root/src) keeps its state under that HOME, where its config's paths point.
 */
export function ogxStatePath(plan: OgxPlan): string {
  const given = plan.server.spec.workload?.storage?.mountPath;
  if (given !== undefined) return given;
  const facts = imageFacts(plan);
  return facts.homeDirectory !== undefined ? imageStateDirectory(facts) : ogxObjects().container.storageMountPath;
}

/** `workload.storage` (even `{}`): a PersistentVolumeClaim instead of an emptyDir, and the Recreate strategy. */
export const ogxHasStorage = (plan: OgxPlan): boolean => plan.server.spec.workload?.storage !== undefined;

/** Whether a config.yaml is mounted at /etc/ogx (override or generated mode; none mode runs the image's own config). */
export const ogxHasRuntimeConfig = (plan: OgxPlan): boolean => plan.mode !== 'none';

/**
 * Whether the server serves HTTPS: no OGXServer field makes it (`network.tls.secretName` configures
 * nothing), but the config the pod reads can, with `server.tls_certfile` and `tls_keyfile` (the
 * generated config from a `baseConfig` that has them, an `overrideConfig`, or the image's own).
 */
export function ogxServesTls(plan: OgxPlan, config: GeneratedConfig | undefined): boolean {
  const served = plan.mode === 'generated' ? config?.value : plan.mode === 'override' ? plan.overrideConfig?.value : plan.baseConfig;
  return servesTls(served?.server);
}

/** A config's `server` names both TLS files: null or empty ones are as absent (the server reads no file then). */
export const servesTls = (server: unknown): boolean => isPlainObject(server) && isSet(server.tls_certfile) && isSet(server.tls_keyfile);

const isSet = (value: unknown): boolean => typeof value === 'string' && value !== '';

/**
 * The legacy LLSD whose PVC `<llsd>-pvc` the pod uses instead of `<name>-pvc` (annotation
 * `ogx.io/adopt-storage`, see docs/ogxserver.md). As the operator: a value that is no DNS label, or the
 * OGXServer's own name, adopts nothing (the webhook refuses the latter).
 */
export const ogxAdoptedStorage = (plan: OgxPlan): string | undefined => adoptedLlsd(plan, adoptStorageAnnotation);

/** The legacy LLSD whose Service `<llsd>-service` is kept, selecting this server's pods (annotation `ogx.io/adopt-networking`). */
export const ogxAdoptedNetworking = (plan: OgxPlan): string | undefined => adoptedLlsd(plan, adoptNetworkingAnnotation);

function adoptedLlsd(plan: OgxPlan, annotation: string): string | undefined {
  const value = plan.server.metadata.annotations?.[annotation];
  if (value === undefined || value === plan.server.metadata.name) return undefined;
  return value.length <= 63 && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(value) ? value : undefined;
}

/**
 * Adoption annotations that adopt nothing, said (attacker probe: a typo, or adopt-storage without
 * storage, left the legacy PVC out of the output, to be pruned with its data). The operator sets
 * the condition AdoptionConfigInvalid for a value that is no DNS label; a render warns.
 */
export function ogxAdoptionProblems(plan: OgxPlan): FieldProblem[] {
  const annotations = plan.server.metadata.annotations ?? {};
  const problems: FieldProblem[] = [];
  for (const key of [adoptStorageAnnotation, adoptNetworkingAnnotation]) {
    const value = annotations[key];
    if (value === undefined || value === plan.server.metadata.name) continue;
    const path = ['metadata', 'annotations', key];
    if (adoptedLlsd(plan, key) === undefined) {
      const message = 'is not the name of an LLSD (a DNS label: lower-case letters, digits and "-", at most 63), ' +
        'so nothing is adopted, as the operator does; ' +
        "write the LLSD's metadata.name";
      problems.push({ severity: 'warning', code: 'nothing-adopted', path, message });
    } else if (key === adoptStorageAnnotation && !ogxHasStorage(plan)) {
      const message = 'has no effect without `spec.workload.storage`: the pod keeps its state on an emptyDir, ' +
        `and ${quote(`${value}-pvc`)} is not in the output, ` +
        'so a GitOps prune would delete it and its data; add `workload: {storage: {}}`';
      problems.push({ severity: 'warning', code: 'field-has-no-effect', path, message });
    }
  }
  return problems;
}

export const adoptStorageAnnotation = 'ogx.io/adopt-storage';
export const adoptNetworkingAnnotation = 'ogx.io/adopt-networking';
/** The label the operator puts on what it adopted. */
export const adoptedFromLabel = 'ogx.io/adopted-from';

/** As `IsPraxisModeEnabled()`: `praxisMode` present, `enabled` not false (the CRD default is true). */
export const ogxPraxisEnabled = (spec: OgxServerSpec): boolean => spec.praxisMode !== undefined && spec.praxisMode.enabled;

/** The migration Job is wanted: Praxis mode on and `migrationJob` present with `enabled` not false. */
export const ogxPraxisMigration = (spec: OgxServerSpec): boolean => ogxPraxisEnabled(spec) && spec.praxisMode?.migrationJob?.enabled === true;
