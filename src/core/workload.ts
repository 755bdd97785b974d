// Facts about an LLSD's workload that more than one stage needs (the config's sqlite paths, the
// Deployment, the PVC, HPA and PDB, the checks), each decided once here.
import { posix } from 'node:path';
import type { Llsd } from '../llsd/llsd.js';
import { distributions, workloadDefaults } from '../catalog/catalog.js';
import type { ImageFacts } from '../catalog/schema.js';
import type { Plan } from '../llsd/plan.js';
import type { ServerTarget } from './target.js';

/**
 * What the image needs of the pod: the release's upstream image (the profile's `image`), with the
 * named distribution's own `imageFacts` laid over it where its image differs (configs/distributions.yaml,
 * e.g. `rh`: its entrypoint, HOME and user). The pod builders read these, never the profile's.
 */
export function imageFacts(target: Pick<ServerTarget, 'profile' | 'distributionName'>): ImageFacts {
  const catalog = distributions();
  const own = Object.hasOwn(catalog, target.distributionName) ? catalog[target.distributionName]?.imageFacts : undefined;
  return own ? { ...target.profile.image, ...own } : target.profile.image;
}

/** The image's state directory as an absolute path: `home` under the HOME the image runs with (`/.ogx`, `/opt/app-root/src/.ogx`). */
export const imageStateDirectory = (facts: ImageFacts): string => posix.join(facts.homeDirectory ?? '/', facts.home);

/**
 * Where the state volume is mounted: `workload.storage.mountPath`, else the image's state
 * directory (`/.llama`, `/.ogx`), where the base configs keep their files.
 */
export const stateDirectory = (plan: Plan): string => plan.llsd.spec.workload?.storage?.mountPath ?? imageStateDirectory(imageFacts(plan));

/** `workload.storage` (even `{}`, as in v1alpha1) asks for a PersistentVolumeClaim. */
export const hasPersistentVolume = (llsd: Llsd): boolean => llsd.spec.workload?.storage !== undefined;

/** The port the server listens on: `networking.port`, else the default container port. */
export const serverPort = (plan: Plan): number => plan.llsd.spec.networking?.port ?? workloadDefaults().container.port;

/** `networking.tls.enabled`: the server serves HTTPS. */
export const servesTls = (llsd: Llsd): boolean => llsd.spec.networking?.tls?.enabled === true;

/** The name of the container and Service port, which says the protocol: `https` when the server serves TLS, else `http`. */
export const serverPortName = (llsd: Llsd): string => {
  const { portName, tlsPortName } = workloadDefaults().container;
  return servesTls(llsd) ? tlsPortName : portName;
};

/**
 * The most pods the Deployment may run: `replicas` (default 1), or with autoscaling the HPA's
 * maximum. More than one turns on the spreading and disruption defaults, and the checks for state
 * that cannot be shared.
 */
export function maxPods(workload: ScaledWorkload | undefined): number {
  if (workload?.autoscaling) return Math.max(workload.autoscaling.maxReplicas, minReplicas(workload));
  return workload?.replicas ?? workloadDefaults().replicas;
}

/** The scaling fields an LLSD's and an OGXServer's `spec.workload` share. */
export interface ScaledWorkload {
  replicas?: number | undefined;
  autoscaling?: { minReplicas?: number | undefined; maxReplicas: number } | undefined;
}

/** The HPA's minimum, as the operator computes it: max(1, replicas, autoscaling.minReplicas). */
export function minReplicas(workload: ScaledWorkload | undefined): number {
  return Math.max(1, workload?.replicas ?? 1, workload?.autoscaling?.minReplicas ?? 1);
}
