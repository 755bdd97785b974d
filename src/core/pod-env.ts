// The env of the server's container as the pod will have it, for judging the config as the server
// reads it (docs/validation.md "The config the pod reads"): each variable is set with a value
// we know (a literal `value`, a key of a ConfigMap in the input), set with a value we may not see (a
// Secret's key: present and opaque), possibly set (an optional reference, or `envFrom` of something
// not in the input), or unset. Secret values are never read.
import type { Inventory } from '../krm/inventory.js';
import { isPlainObject } from '../lib/objects.js';

/** A variable of the pod: `value` when the render knows it; `maybe`: it may be set or not. */
export type EnvState = { state: 'set'; value?: string } | { state: 'maybe' } | { state: 'unset' };

export interface PodEnv {
  /** Certainly set (its value may be unknown). */
  has(name: string): boolean;
  /** Possibly set, possibly not: what hangs on it is judged both ways, and never an error. */
  maybe(name: string): boolean;
  /** Its value, when the render knows it. */
  value(name: string): string | undefined;
  /** What every variable comes to, for memo keys: names, known values and sources of unknown ones. */
  readonly key: string;
  /** Sources the render cannot read (an `envFrom` of an object not in the input): any variable may come from them. */
  readonly unknownSources: readonly string[];
  /** Variables the image reads from a file that the pod also sets directly (`X` and `X_FILE`): its entrypoint stops. */
  readonly fileConflicts?: readonly string[];
}

/** A pod env from its variables, and the sources that may set others. */
export function podEnv(vars: ReadonlyMap<string, EnvState>, unknownSources: readonly string[] = []): PodEnv {
  const open = unknownSources.length > 0;
  const stateOf = (name: string): EnvState => vars.get(name) ?? (open ? { state: 'maybe' } : { state: 'unset' });
  const parts = [...vars.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, s]) => (s.state === 'set' ? (s.value === undefined ? name : `${name}=${JSON.stringify(s.value)}`) : `${name}?`));
  return {
    has: (name) => stateOf(name).state === 'set',
    maybe: (name) => stateOf(name).state === 'maybe',
    value: (name) => {
      const s = stateOf(name);
      return s.state === 'set' ? s.value : undefined;
    },
    key: `${parts.join(',')}${open ? `|${unknownSources.join(',')}` : ''}`,
    unknownSources,
  };
}

/**
 * A pod env from the names of the variables it sets, values unknown, and no other (a unit of the
 * checks, the converter); `unknownSources` may set any other. A PodEnv is taken as it is.
 */
export function asPodEnv(env: PodEnv | ReadonlySet<string>, unknownSources: readonly string[] = []): PodEnv {
  if (!(env instanceof Set)) return env as PodEnv;
  return podEnv(new Map([...env].map((name: string) => [name, { state: 'set' as const }])), unknownSources);
}

interface EnvVar {
  name?: unknown;
  value?: unknown;
  valueFrom?: unknown;
}

/**
 * The env of the first container of a Deployment (the server's), with the ConfigMaps of the input
 * read: later entries win, as Kubernetes has it; `envFrom` comes before `env`. `fileSecrets` are
 * the variables the image's entrypoint sets from `<VAR>_FILE` (ImageFacts.fileSecrets).
 */
export function podEnvOf(deployment: unknown, inventory: Inventory | undefined, fileSecrets: readonly string[] = []): PodEnv {
  return containerEnvOf(firstContainer(deployment), namespaceOf(deployment), inventory, fileSecrets);
}

/**
 * The env of one container (`env` and `envFrom`), as podEnvOf reads it; before the Deployment is
 * built, the CR's `workload.overrides.env` alone (`{env}`, no inventory: a reference is set).
 */
export function containerEnvOf(
  container: Record<string, unknown> | undefined,
  namespace: string | undefined,
  inventory: Inventory | undefined,
  fileSecrets: readonly string[] = [],
): PodEnv {
  const vars = new Map<string, EnvState>();
  const unknownSources: string[] = [];
  for (const source of listOf(container?.envFrom)) {
    if (!isPlainObject(source)) continue;
    const prefix = typeof source.prefix === 'string' ? source.prefix : '';
    const ref = isPlainObject(source.configMapRef) ? source.configMapRef : isPlainObject(source.secretRef) ? source.secretRef : undefined;
    if (!ref || typeof ref.name !== 'string') continue;
    const kind = source.configMapRef ? 'ConfigMap' : 'Secret';
    const object = inventory?.find('', kind, namespace, ref.name)?.object as Record<string, unknown> | undefined;
    // Not in the input (optional or not): what it sets is unknown.
    if (!object) {
      unknownSources.push(`${kind} ${ref.name}`);
      continue;
    }
    for (const [key, value] of Object.entries(dataOf(object, kind))) {
      vars.set(`${prefix}${key}`, kind === 'ConfigMap' ? { state: 'set', value } : { state: 'set' });
    }
  }
  for (const entry of listOf(container?.env) as EnvVar[]) {
    if (!isPlainObject(entry) || typeof entry.name !== 'string') continue;
    vars.set(entry.name, stateOfVar(entry, namespace, inventory));
  }
  const fileConflicts: string[] = [];
  for (const name of fileSecrets) {
    const file = vars.get(`${name}_FILE`);
    if (file === undefined || file.state === 'unset') continue;
    const direct = vars.get(name);
    if (direct?.state === 'set' && file.state === 'set') fileConflicts.push(name);
    // The entrypoint reads the file into the variable: set, its value unknown (a secret's, as a rule).
    else if (direct === undefined || direct.state === 'unset') vars.set(name, file.state === 'set' ? { state: 'set' } : { state: 'maybe' });
  }
  return { ...podEnv(vars, unknownSources), fileConflicts };
}

function stateOfVar(entry: EnvVar, namespace: string | undefined, inventory: Inventory | undefined): EnvState {
  if (!isPlainObject(entry.valueFrom)) return { state: 'set', value: typeof entry.value === 'string' ? entry.value : '' };
  const from = entry.valueFrom;
  if (isPlainObject(from.configMapKeyRef) && typeof from.configMapKeyRef.name === 'string') {
    const ref = from.configMapKeyRef;
    const object = inventory?.find('', 'ConfigMap', namespace, ref.name as string)?.object as Record<string, unknown> | undefined;
    if (!object) return ref.optional === true ? { state: 'maybe' } : { state: 'set' };
    const value = typeof ref.key === 'string' ? dataOf(object, 'ConfigMap')[ref.key] : undefined;
    // A missing key stops the pod unless optional; the kubelet reports that, not the server.
    return value === undefined ? (ref.optional === true ? { state: 'unset' } : { state: 'set' }) : { state: 'set', value };
  }
  if (isPlainObject(from.secretKeyRef) && from.secretKeyRef.optional === true) return { state: 'maybe' };
  // A Secret's key, a field or resource of the pod: present, its value not ours to read.
  return { state: 'set' };
}

/** The string values of a ConfigMap (data) or the keys of a Secret (values never kept). */
function dataOf(object: Record<string, unknown>, kind: 'ConfigMap' | 'Secret'): Record<string, string> {
  const out: Record<string, string> = {};
  const sections = kind === 'ConfigMap' ? [object.data] : [object.data, object.stringData];
  for (const section of sections) {
    if (!isPlainObject(section)) continue;
    for (const [key, value] of Object.entries(section)) out[key] = kind === 'ConfigMap' && typeof value === 'string' ? value : '';
  }
  return out;
}

function firstContainer(deployment: unknown): Record<string, unknown> | undefined {
  const spec = isPlainObject(deployment) && isPlainObject(deployment.spec) ? deployment.spec : undefined;
  const pod = spec && isPlainObject(spec.template) && isPlainObject(spec.template.spec) ? spec.template.spec : undefined;
  const first: unknown = Array.isArray(pod?.containers) ? pod.containers[0] : undefined;
  return isPlainObject(first) ? first : undefined;
}

function namespaceOf(object: unknown): string | undefined {
  const metadata = isPlainObject(object) && isPlainObject(object.metadata) ? object.metadata : undefined;
  return typeof metadata?.namespace === 'string' ? metadata.namespace : undefined;
}

const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
