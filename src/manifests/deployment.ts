// The Deployment that runs the server, built once for either API: config mounted
// read-only, secrets only through `secretKeyRef` env vars, pods rolled when what they mount
// changes, placed by the operators' spreading defaults when more than one may run. The server
// container is each API's own (llsd-pod.ts, ogx-pod.ts): the OGX operator's differs in its env,
// ports, probes and key order, and the output keeps to it.
import { posix } from 'node:path';
import type { FieldProblem } from '../lib/issues.js';
import { workloadDefaults } from '../catalog/catalog.js';
import type { KrmObject } from '../krm/item.js';
import { listOf, quote } from '../lib/quote.js';
import type { Container, Deployment, Metadata, PodResourceClaim, PodSecurityContext, ResourceRequirements, TopologySpreadConstraint, Volume } from './k8s.js';

export interface DeploymentInput {
  metadata: Metadata;
  /** Undefined with autoscaling: the HPA owns the replica count, and a replicas field would reset it on every apply. */
  replicas: number | undefined;
  /** The Deployment's selector; the pods carry `podLabels`. */
  selector: Record<string, string>;
  /** A ReadWriteOnce volume cannot be attached to the old and the new pod on different nodes: Recreate. */
  persistentVolume: boolean;
  podLabels: Record<string, string>;
  /** Content hashes of what the pod mounts; none, no annotations. */
  podAnnotations: Record<string, string>;
  serviceAccountName: string;
  terminationGracePeriodSeconds?: number | undefined;
  podSecurityContext: PodSecurityContext;
  placement: Placement;
  resourceClaims?: PodResourceClaim[] | undefined;
  initContainers?: Container[] | undefined;
  container: Container;
  volumes: Volume[];
}

/**
 * Where pods go: the CR's topology spread constraints (`given`); else, when more than one pod may
 * run, the operators' defaults: spread over regions, zones and nodes, and prefer another node,
 * never refusing to schedule. Both select the pods by `labels`.
 */
export interface Placement {
  labels: Record<string, string>;
  given: TopologySpreadConstraint[] | undefined;
  several: boolean;
}

export function renderDeployment(input: DeploymentInput): Deployment {
  const { replicas, persistentVolume, podAnnotations, terminationGracePeriodSeconds: grace, resourceClaims, initContainers } = input;
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: input.metadata,
    spec: {
      ...(replicas !== undefined ? { replicas } : {}),
      selector: { matchLabels: input.selector },
      ...(persistentVolume ? { strategy: { type: 'Recreate' } } : {}),
      template: {
        metadata: { labels: input.podLabels, ...(Object.keys(podAnnotations).length > 0 ? { annotations: podAnnotations } : {}) },
        spec: {
          serviceAccountName: input.serviceAccountName,
          ...(grace !== undefined ? { terminationGracePeriodSeconds: grace } : {}),
          securityContext: input.podSecurityContext,
          ...placement(input.placement),
          ...(resourceClaims ? { resourceClaims } : {}),
          ...(initContainers ? { initContainers } : {}),
          containers: [input.container],
          volumes: input.volumes,
        },
      },
    },
  };
}

/**
 * As the operators: the CR's requests and limits, then requests.cpu one core per worker (1 without
 * `workers`) and requests.memory 1Gi; with `workers`, a missing limit equals the request. A request
 * whose limit is given is left to Kubernetes, which takes the limit (a default above it is refused).
 */
export function defaultedResources(workers: number | undefined, given: GivenResources): ResourceRequirements {
  const { cpuPerWorker, memoryRequest } = workloadDefaults().resources;
  // The given quantities in key order, not the CR's: reordering a mapping must not change the bytes.
  const requests = byKey(given.requests);
  const limits = byKey(given.limits);
  const fallback: Quantities = { cpu: String((workers ?? 1) * cpuPerWorker), memory: memoryRequest };
  for (const [resource, value] of Object.entries(fallback)) {
    if (requests[resource] === undefined && limits[resource] === undefined) requests[resource] = value;
    if (workers !== undefined && limits[resource] === undefined) limits[resource] = requests[resource] as string | number;
  }
  const out: ResourceRequirements = {};
  if (Object.keys(requests).length > 0) out.requests = requests;
  if (Object.keys(limits).length > 0) out.limits = limits;
  return out;
}

/** `workload.overrides.volumes` and `volumeMounts` as the CR gives them (either API). */
interface UserMounts {
  volumes?: unknown[] | undefined;
  volumeMounts?: unknown[] | undefined;
}

/** Resource quantities by resource name: `"500m"`, `2`, `"1Gi"`. */
type Quantities = Record<string, string | number>;

interface GivenResources {
  requests?: Quantities | undefined;
  limits?: Quantities | undefined;
}

const byKey = (map: Quantities = {}): Quantities => Object.fromEntries(Object.entries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** `affinity` and `topologySpreadConstraints` of the pod spec. */
function placement({ labels, given, several }: Placement): { affinity?: object; topologySpreadConstraints?: TopologySpreadConstraint[] } {
  const out: { affinity?: object; topologySpreadConstraints?: TopologySpreadConstraint[] } = {};
  const selector = { matchLabels: labels };
  if (several) {
    const { weight, topologyKey } = workloadDefaults().podAntiAffinity;
    const preferred = [{ weight, podAffinityTerm: { labelSelector: selector, topologyKey } }];
    out.affinity = { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: preferred } };
  }
  if (given) {
    out.topologySpreadConstraints = given;
  } else if (several) {
    const { topologyKeys, maxSkew, whenUnsatisfiable } = workloadDefaults().topologySpread;
    out.topologySpreadConstraints = topologyKeys.map((topologyKey) => ({ maxSkew, topologyKey, whenUnsatisfiable, labelSelector: selector }));
  }
  return out;
}

/**
 * `workload.overrides.volumes`/`volumeMounts` (either API) are appended to what llsd-render mounts:
 * a volume named like one of those, or like an earlier one, a mount of a volume the pod does not
 * have, or two mounts at one path make a Deployment the API server refuses, so each is an error at
 * the user's field (attacker probe: exit 0 with such a Deployment).
 */
export function overrideMountProblems(deployment: KrmObject | undefined, overrides: UserMounts | undefined): FieldProblem[] {
  // The Deployment renderDeployment built (process.ts finds it among the objects by kind).
  const podSpec = (deployment as Deployment | undefined)?.spec?.template?.spec;
  if (!podSpec || !overrides) return [];
  const base = ['spec', 'workload', 'overrides'];
  const problems: FieldProblem[] = [];
  const userVolumes = overrides.volumes ?? [];
  const volumes = podSpec.volumes ?? [];
  const generated = volumes.slice(0, volumes.length - userVolumes.length).map((v) => String(v.name));
  const seen = new Set(generated);
  userVolumes.forEach((volume, i) => {
    const name = String((volume as { name?: unknown }).name);
    if (seen.has(name)) {
      const whose = generated.includes(name)
        ? `llsd-render's own volume ${quote(name)} (it mounts ${listOf(generated)})`
        : `an earlier volume of \`overrides.volumes\``;
      const message = `is the name of ${whose}: the API server refuses a pod with two volumes of one name; give this volume another name`;
      problems.push({ path: [...base, 'volumes', i, 'name'], message });
    }
    seen.add(name);
  });
  const userMounts = overrides.volumeMounts ?? [];
  const mounts = podSpec.containers?.[0]?.volumeMounts ?? [];
  // Compared as paths (`/etc/ogx/`, `/etc/ogx` and `//etc/./ogx` are one), not as strings.
  const samePath = (path: unknown): string => posix.normalize(String(path)).replace(/(.)\/+$/, '$1');
  const generatedPaths = mounts.slice(0, mounts.length - userMounts.length).map((m) => samePath(m.mountPath));
  const paths = new Set(generatedPaths);
  userMounts.forEach((mount, i) => {
    const { name, mountPath } = mount as { name?: unknown; mountPath?: unknown };
    if (!seen.has(String(name))) {
      const message = `names no volume of the pod (${listOf([...seen])}); add the volume to \`overrides.volumes\` or name one of those`;
      problems.push({ path: [...base, 'volumeMounts', i, 'name'], message });
    }
    if (paths.has(samePath(mountPath))) {
      const whose = generatedPaths.includes(samePath(mountPath))
        ? 'a path llsd-render mounts already'
        : 'the path of an earlier mount of `overrides.volumeMounts`';
      const message = `is ${whose}: the API server refuses two mounts at one path; mount it elsewhere`;
      problems.push({ path: [...base, 'volumeMounts', i, 'mountPath'], message });
    }
    paths.add(samePath(mountPath));
  });
  return problems;
}
