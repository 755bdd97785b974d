// The Deployment that runs the server with the generated config (DESIGN §6): config mounted
// read-only, secrets only through `secretKeyRef` env vars, pods rolled when the config changes;
// every `spec.workload` field, and the TLS certificate and CA bundle of `networking.tls`.
// For an OGXServer, the OGX operator's Deployment (renderOgxDeployment, below), sharing the
// resource defaults and the pod placement.
import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import type { FieldProblem } from '../lib/issues.js';
import type { GeneratedConfig } from '../llsd/generate.js';
import { externalProviderSettings, ogxObjects, workloadDefaults } from '../catalog/catalog.js';
import { annotation, type KrmObject } from '../krm/item.js';
import { isPlainObject } from '../lib/objects.js';
import { listOf, quote } from '../lib/quote.js';
import type { OgxPlan } from '../ogx/plan.js';
import {
  ogxAdoptedStorage,
  ogxHasRuntimeConfig,
  ogxHasStorage,
  ogxMetricsPort,
  ogxPort,
  ogxReplicas,
  ogxSource,
  ogxStatePath,
} from '../core/ogx-workload.js';
import type { Plan } from '../llsd/plan.js';
import { hasPersistentVolume, maxPods, serverPort, servesTls, stateDirectory } from '../core/workload.js';
import { caBundleName } from './config-map.js';
import { fitName, labelsFor, metadataFor, names, ogxMetadata, ogxNames, ogxSelectorLabels, selectorLabels } from './metadata.js';

type EnvVar = Record<string, unknown> & { name: string };

export function renderDeployment(plan: Plan, config: GeneratedConfig): KrmObject {
  const defaults = workloadDefaults();
  const { llsd } = plan;
  const workload = llsd.spec.workload ?? {};
  const overrides = workload.overrides ?? {};
  const c = defaults.container;
  const tls = tlsVolume(plan);
  const ca = caBundleVolume(plan);
  const external = externalProviderInstall(plan);

  const container: Record<string, unknown> = { name: c.name, image: plan.image };
  const startCommand = plan.profile.image.command?.map((part) => part.replaceAll('{config}', configPath()));
  if (overrides.command ?? startCommand) container.command = overrides.command ?? startCommand;
  if (overrides.args) container.args = overrides.args;
  container.ports = [{ name: c.portName, containerPort: serverPort(plan), protocol: 'TCP' }];
  container.env = containerEnv(plan, config);
  container.resources = resources(plan);
  container.volumeMounts = [
    { name: c.configVolumeName, mountPath: c.configMountPath, readOnly: true },
    { name: c.storageVolumeName, mountPath: stateDirectory(plan) },
    ...(tls ? [tls.mount] : []),
    ...(ca ? [ca.mount] : []),
    ...(external ? [external.mount] : []),
    ...(overrides.volumeMounts ?? []),
  ];
  const scheme = servesTls(llsd) ? 'HTTPS' : 'HTTP';
  container.startupProbe = probe(defaults.probes.startup, scheme);
  container.readinessProbe = probe(defaults.probes.readiness, scheme);
  container.livenessProbe = probe(defaults.probes.liveness, scheme);
  container.securityContext = serverSecurityContext(plan);

  const podSpec: Record<string, unknown> = { serviceAccountName: overrides.serviceAccountName ?? names.serviceAccount(llsd) };
  if (overrides.terminationGracePeriodSeconds !== undefined) podSpec.terminationGracePeriodSeconds = overrides.terminationGracePeriodSeconds;
  podSpec.securityContext = defaults.podSecurityContext;
  Object.assign(podSpec, placement(plan));
  if (external) podSpec.initContainers = external.initContainers;
  podSpec.containers = [container];
  podSpec.volumes = [
    { name: c.configVolumeName, configMap: { name: config.fromConfigMap ?? names.configMap(llsd, config.hash) } },
    hasPersistentVolume(llsd)
      ? { name: c.storageVolumeName, persistentVolumeClaim: { claimName: names.persistentVolumeClaim(llsd) } }
      : { name: c.storageVolumeName, emptyDir: {} },
    ...(tls ? [tls.volume] : []),
    ...(ca ? [ca.volume] : []),
    ...(external ? [external.volume] : []),
    ...(overrides.volumes ?? []),
  ];

  const spec: Record<string, unknown> = {};
  // The HPA owns the replica count: a replicas field here would reset it on every apply.
  if (!workload.autoscaling) spec.replicas = workload.replicas ?? defaults.replicas;
  spec.selector = { matchLabels: selectorLabels(llsd) };
  // A ReadWriteOnce volume cannot be attached to the old and the new pod on different nodes.
  if (hasPersistentVolume(llsd)) spec.strategy = { type: 'Recreate' };
  spec.template = {
    metadata: {
      labels: labelsFor(llsd, 'server'),
      annotations: { [annotation.configHash]: config.hash },
    },
    spec: podSpec,
  };
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: metadataFor(llsd, names.deployment(llsd), 'server'), spec };
}

export { serverPort };

/**
 * The image's own entrypoint runs the config named by the config-path env var, on the port env
 * var; then where state and trusted CAs are; then one env var per secret reference; then the
 * user's env, which wins on a name clash.
 */
function containerEnv(plan: Plan, config: GeneratedConfig): EnvVar[] {
  const { image } = plan.profile;
  const env: EnvVar[] = [];
  // Images whose entrypoint takes no config path env get it in the command instead.
  if (image.configPathEnv) env.push({ name: image.configPathEnv, value: configPath() });
  env.push({ name: image.portEnv, value: String(serverPort(plan)) });
  const state = stateDirectory(plan);
  // Images before OGX 1.3.0 run as root with HOME=/root; `~/.llama/…` in their configs means the
  // state directory only with HOME=/, which the images' directories are laid out for.
  if (!image.setsHome) env.push({ name: 'HOME', value: '/' });
  // 0.8.0 moves ~/.llama to ~/.ogx on start unless told where its state lives (the mounted volume).
  if (image.configDirEnv) env.push({ name: image.configDirEnv, value: state });
  // As the operator: the Hugging Face cache persists with the volume.
  if (hasPersistentVolume(plan.llsd)) env.push({ name: 'HF_HOME', value: state });
  env.push(...relocatedDefaults(plan, config));
  const ca = caBundleVolume(plan);
  if (ca) env.push(...workloadDefaults().caBundle.env.map((name) => ({ name, value: ca.file })));
  const external = externalProviderInstall(plan);
  if (external) env.push(external.env);
  env.push(...config.env.map((e) => ({ name: e.name, valueFrom: { secretKeyRef: { name: e.secretName, key: e.key } } })));
  for (const user of (plan.llsd.spec.workload?.overrides?.env ?? []) as EnvVar[]) {
    const at = env.findIndex((e) => e.name === user.name);
    if (at >= 0) env[at] = user;
    else env.push(user);
  }
  return env;
}

/**
 * The base configs keep their files under the image's state directory through env defaults
 * (`${env.SQLITE_STORE_DIR:=~/.llama/distributions/starter}`). With the volume mounted elsewhere
 * (`workload.storage.mountPath`), each such variable is set to the same place on the volume, so
 * the state persists.
 */
function relocatedDefaults(plan: Plan, config: GeneratedConfig): EnvVar[] {
  const home = plan.profile.image.home;
  const state = stateDirectory(plan);
  if (state === home) return [];
  const env = new Map<string, string>();
  for (const match of config.text.matchAll(/\$\{env\.([A-Za-z_][A-Za-z0-9_]*):=([^}]*)\}/g)) {
    const [, name, fallback] = match as unknown as [string, string, string];
    for (const prefix of [`~${home}`, home]) {
      if (fallback === prefix || fallback.startsWith(`${prefix}/`)) env.set(name, posix.join(state, fallback.slice(prefix.length)));
    }
  }
  return [...env].sort(([a], [b]) => a.localeCompare(b)).map(([name, value]) => ({ name, value }));
}

/**
 * As the operator: the LLSD's requests and limits, then requests.cpu one core per worker (1 without
 * `workers`) and requests.memory 1Gi; with `workers`, a missing limit equals the request. A request
 * whose limit is given is left to Kubernetes, which takes the limit (a default above it is refused).
 */
function resources(plan: Plan): Record<string, Record<string, unknown>> {
  const { workers, resources: given = {} } = plan.llsd.spec.workload ?? {};
  return defaultedResources(workers, given);
}

function defaultedResources(workers: number | undefined, given: { requests?: Record<string, unknown>; limits?: Record<string, unknown> }): Record<string, Record<string, unknown>> {
  const { cpuPerWorker, memoryRequest } = workloadDefaults().resources;
  // The given quantities in key order, not the CR's: reordering a mapping must not change the bytes.
  const requests: Record<string, unknown> = byKey(given.requests);
  const limits: Record<string, unknown> = byKey(given.limits);
  const fallback: Record<string, unknown> = { cpu: String((workers ?? 1) * cpuPerWorker), memory: memoryRequest };
  for (const [resource, value] of Object.entries(fallback)) {
    if (requests[resource] === undefined && limits[resource] === undefined) requests[resource] = value;
    if (workers !== undefined && limits[resource] === undefined) limits[resource] = requests[resource];
  }
  const out: Record<string, Record<string, unknown>> = {};
  if (Object.keys(requests).length > 0) out.requests = requests;
  if (Object.keys(limits).length > 0) out.limits = limits;
  return out;
}

const byKey = (map: Record<string, unknown> = {}): Record<string, unknown> => Object.fromEntries(Object.entries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/**
 * Where pods go: the LLSD's topology spread constraints; else, when more than one pod may run,
 * the operator's defaults: spread over regions, zones and nodes, and prefer another node, never
 * refusing to schedule.
 */
function placement(plan: Plan): Record<string, unknown> {
  const { llsd } = plan;
  return placementFor(selectorLabels(llsd), llsd.spec.workload?.topologySpreadConstraints, maxPods(llsd.spec.workload) > 1);
}

/** `affinity` and `topologySpreadConstraints` of a pod spec, both selecting pods by `labels`. */
function placementFor(labels: Record<string, string>, given: unknown[] | undefined, several: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const selector = { matchLabels: labels };
  if (several) {
    const { weight, topologyKey } = workloadDefaults().podAntiAffinity;
    out.affinity = { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight, podAffinityTerm: { labelSelector: selector, topologyKey } }] } };
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
 * The workload default; the server container of an image that runs as a non-root USER (OGX
 * 1.3.0+: 1001, HOME=/, state in /.ogx owned 1001:0) also gets `runAsNonRoot` — on the container,
 * not the pod, so the init containers of external providers (the user's images) keep their own
 * user. No `runAsUser`: OpenShift's restricted SCC assigns its own UID, which the image allows
 * (its directories are group 0 writable).
 */
function serverSecurityContext(plan: Plan): Record<string, unknown> {
  const defaults = workloadDefaults().containerSecurityContext;
  return plan.profile.image.user !== undefined && plan.profile.image.user !== 0 ? { ...defaults, runAsNonRoot: true } : defaults;
}

/** `networking.tls`: the kubernetes.io/tls Secret, read-only, where config.yaml's server.tls_* point. */
function tlsVolume(plan: Plan) {
  const tls = plan.llsd.spec.networking?.tls;
  if (!servesTls(plan.llsd) || !tls?.secretName) return undefined;
  const { volumeName, mountPath, certFile, keyFile } = workloadDefaults().tls;
  return {
    mount: { name: volumeName, mountPath, readOnly: true },
    volume: { name: volumeName, secret: { secretName: tls.secretName, items: [{ key: 'tls.crt', path: certFile }, { key: 'tls.key', path: keyFile }] } },
  };
}

/** `networking.tls.caBundle`: the generated bundle ConfigMap, read-only, named by the CA env vars. */
function caBundleVolume(plan: Plan) {
  const name = caBundleName(plan);
  if (!name) return undefined;
  const { volumeName, mountPath, fileName } = workloadDefaults().caBundle;
  return {
    file: posix.join(mountPath, fileName),
    mount: { name: volumeName, mountPath, readOnly: true },
    volume: { name: volumeName, configMap: { name, items: [{ key: fileName, path: fileName }] } },
  };
}

/**
 * `copy-provider-<id>`: a container name is a DNS label, so an id with other characters (`my_db`)
 * is cleaned, and then carries a hash of the id so that `my_db` and `my-db` stay apart.
 */
function initContainerName(providerId: string): string {
  const clean = providerId.toLowerCase().replace(/[^a-z0-9-]/g, '-').replace(/^-+|-+$/g, '');
  if (clean === providerId) return fitName(`copy-provider-${clean}`, '');
  return fitName(`copy-provider-${clean}`, `-${createHash('sha256').update(providerId).digest('hex').slice(0, 8)}`);
}

/**
 * Spec 001: each provider image's wheels are copied to a shared volume by an init container of
 * that image, then installed there (no dependencies: the distribution image has them) by an init
 * container of the distribution image; the server finds them through PYTHONPATH.
 */
function externalProviderInstall(plan: Plan) {
  const providers = Object.values(plan.llsd.spec.externalProviders ?? {}).flatMap((list) => list ?? []);
  if (providers.length === 0) return undefined;
  const s = externalProviderSettings();
  const securityContext = workloadDefaults().containerSecurityContext;
  const mount = { name: s.volumeName, mountPath: s.mountPath };
  const initContainers = [
    ...providers.map((p) => ({
      name: initContainerName(p.providerId),
      image: p.image,
      command: ['sh', '-c', `mkdir -p ${s.mountPath}/wheels/${p.providerId} && cp -R ${s.wheelsInImage}/. ${s.mountPath}/wheels/${p.providerId}/`],
      volumeMounts: [mount],
      securityContext,
    })),
    {
      name: 'install-providers',
      image: plan.image,
      command: ['sh', '-c', `pip install --no-deps --no-index --target ${s.mountPath}/python ${s.mountPath}/wheels/*/*.whl`],
      volumeMounts: [mount],
      securityContext,
    },
  ];
  return {
    initContainers,
    mount: { ...mount, readOnly: true },
    env: { name: 'PYTHONPATH', value: `${s.mountPath}/python` },
    volume: { name: s.volumeName, emptyDir: { sizeLimit: s.sizeLimit } },
  };
}

function configPath(): string {
  const c = workloadDefaults().container;
  return `${c.configMountPath}/${c.configFileName}`;
}

function probe(timing: { periodSeconds: number; timeoutSeconds: number; failureThreshold: number }, scheme: 'HTTP' | 'HTTPS'): Record<string, unknown> {
  const { healthPath, container } = workloadDefaults();
  return { httpGet: { path: healthPath, port: container.portName, scheme }, ...timing };
}

// ---------------------------------------------------------------------------------------------
// OGXServer: the Deployment `<name>` as the OGX operator builds it (reference OBJECTS.md §3).

/**
 * The image's entrypoint runs the server (with `--insecure` from OGX 1.2, per the release profile)
 * on the mounted config, or on the image's own config without one. Labels: the common ones;
 * selector and pod labels `{app: ogx, instance}`. The operator's pod annotations hold cluster
 * resourceVersions; instead, content hashes of the mounted config and CA bundle roll the pods.
 */
export function renderOgxDeployment(plan: OgxPlan, config: GeneratedConfig | undefined): KrmObject {
  const source = ogxSource(plan);
  const workload = plan.server.spec.workload;
  const storage = ogxStorageVolume(plan);
  const ca = ogxCaBundleVolume(plan);
  const runtime = ogxRuntimeConfigVolume(plan, config);
  const overrides = workload?.overrides ?? {};

  const podSpec: Record<string, unknown> = { serviceAccountName: overrides.serviceAccountName ?? ogxNames.serviceAccount(source) };
  podSpec.securityContext = ogxObjects().podSecurityContext;
  const instance = { 'app.kubernetes.io/instance': source.name };
  Object.assign(podSpec, placementFor(instance, workload?.topologySpreadConstraints, ogxReplicas(plan) > 1));
  if (workload?.resourceClaims) podSpec.resourceClaims = workload.resourceClaims;
  podSpec.containers = [ogxContainer(plan, config)];
  podSpec.volumes = [storage.volume, ...(ca ? [ca.volume] : []), ...(runtime ? [runtime.volume] : []), ...(overrides.volumes ?? [])];

  const spec: Record<string, unknown> = {};
  // The HPA owns the replica count: a replicas field here would reset it on every apply.
  if (!workload?.autoscaling) spec.replicas = ogxReplicas(plan);
  spec.selector = { matchLabels: ogxSelectorLabels(source) };
  // A ReadWriteOnce volume cannot be attached to the old and the new pod on different nodes.
  if (ogxHasStorage(plan)) spec.strategy = { type: 'Recreate' };
  const template: Record<string, unknown> = { labels: ogxSelectorLabels(source) };
  const annotations = ogxRolloutAnnotations(plan, config);
  if (Object.keys(annotations).length > 0) template.annotations = annotations;
  spec.template = { metadata: template, spec: podSpec };
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: ogxMetadata(source, ogxNames.deployment(source)), spec };
}

/**
 * `overrides.command` replaces the image entrypoint and with it the `--insecure` it passes (OGX
 * 1.2+, strict TLS): the server then exits at start unless its config serves TLS or says
 * `server.insecure: true` (the image's own config, in none mode, is not known here).
 */
export function ogxDeploymentProblems(plan: OgxPlan, config: GeneratedConfig | undefined): FieldProblem[] {
  const command = plan.server.spec.workload?.overrides?.command;
  const { strictTls, image } = plan.profile;
  if (!command || !strictTls || !image.entrypointInsecure) return [];
  const value = plan.mode === 'override' ? plan.overrideConfig?.value : plan.mode === 'generated' ? config?.value : undefined;
  const server = isPlainObject(value?.server) ? value.server : {};
  if (server.insecure === true || (server.tls_certfile !== undefined && server.tls_keyfile !== undefined)) return [];
  return [
    {
      severity: 'warning', code: 'entrypoint-replaced',
      path: ['spec', 'workload', 'overrides', 'command'],
      message: `replaces the image entrypoint${image.entrypoint ? ` (${image.entrypoint})` : ''}, which starts OGX ${plan.release} with \`--insecure\`; without it the server exits at start ("TLS required") unless its config.yaml sets \`server.insecure: true\` or \`server.tls_certfile\` and \`tls_keyfile\`. Use \`overrides.args\` to add arguments to the entrypoint's command instead`,
    },
  ];
}

function ogxContainer(plan: OgxPlan, config: GeneratedConfig | undefined): Record<string, unknown> {
  const c = ogxObjects().container;
  const overrides = plan.server.spec.workload?.overrides ?? {};
  const port = ogxPort(plan);
  const metrics = ogxMetricsPort(plan);
  const container: Record<string, unknown> = { name: c.name, image: plan.image };
  const command = overrides.command ?? ogxStartCommand(plan);
  if (command) container.command = command;
  if (overrides.args) container.args = overrides.args;
  // The API port has no name; the metrics port is added even when it is the API port (as upstream).
  container.ports = [{ containerPort: port }, ...(metrics !== undefined ? [{ name: c.metricsPortName, containerPort: metrics }] : [])];
  container.env = ogxEnv(plan, config);
  const { path, ...timing } = c.startupProbe;
  container.startupProbe = { httpGet: { path, port }, ...timing };
  const given = plan.server.spec.workload?.resources ?? {};
  const resources: Record<string, unknown> = defaultedResources(plan.server.spec.workload?.workers, given);
  if (given.claims) resources.claims = given.claims;
  container.resources = resources;
  const ca = ogxCaBundleVolume(plan);
  const runtime = ogxRuntimeConfigVolume(plan, config);
  container.volumeMounts = [ogxStorageVolume(plan).mount, ...(runtime ? [runtime.mount] : []), ...(ca ? [ca.mount] : []), ...(overrides.volumeMounts ?? [])];
  return container;
}

/**
 * Images whose entrypoint reads no config path env (before llama-stack 0.3) need the command that
 * names the config; every OGX image runs its entrypoint, so no command is set.
 */
function ogxStartCommand(plan: OgxPlan): string[] | undefined {
  const { image } = plan.profile;
  if (image.configPathEnv !== null || !ogxHasRuntimeConfig(plan)) return undefined;
  return image.command?.map((part) => part.replaceAll('{config}', ogxConfigPath()));
}

/**
 * In the operator's order (OBJECTS.md §3): HF_HOME, SSL_CERT_FILE, workers, port, the config path
 * twice, the registry refresh interval, metrics, the secret env vars sorted by name; then the
 * user's, each replacing the variable of the same name.
 */
function ogxEnv(plan: OgxPlan, config: GeneratedConfig | undefined): EnvVar[] {
  const c = ogxObjects().container;
  const { image } = plan.profile;
  const spec = plan.server.spec;
  const env: EnvVar[] = [{ name: c.hfHomeEnv, value: ogxStatePath(plan) }];
  // Divergence: images before OGX 1.3.0 run as root with HOME=/root, so `~/.ogx` in their configs
  // would miss the state volume; HOME=/ is what their `/.ogx` directory is laid out for.
  if (!image.setsHome) env.push({ name: 'HOME', value: '/' });
  const ca = ogxCaBundleVolume(plan);
  if (ca) env.push({ name: ogxObjects().caBundle.env, value: ca.file });
  env.push({ name: c.workersEnv, value: String(spec.workload?.workers ?? 1) });
  env.push({ name: image.portEnv, value: String(ogxPort(plan)) });
  if (ogxHasRuntimeConfig(plan)) {
    if (image.configPathEnv) env.push({ name: image.configPathEnv, value: ogxConfigPath() });
    env.push({ name: c.configEnv, value: ogxConfigPath() });
  }
  if (spec.registryRefreshIntervalSeconds !== undefined) env.push({ name: c.registryRefreshEnv, value: String(spec.registryRefreshIntervalSeconds) });
  const metrics = ogxMetricsPort(plan);
  if (metrics !== undefined) env.push(c.metricsEnabledEnv, c.metricsHostEnv, { name: c.metricsPortEnv, value: String(metrics) });
  if (plan.mode === 'generated' && config) {
    const secrets = [...config.env].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    env.push(...secrets.map((e) => ({ name: e.name, valueFrom: { secretKeyRef: { name: e.secretName, key: e.key } } })));
  }
  const user = (spec.workload?.overrides?.env ?? []) as EnvVar[];
  const overridden = new Set(user.map((e) => e.name));
  return [...env.filter((e) => !overridden.has(e.name)), ...user];
}

/** `ogx-storage`: the PVC (`<name>-pvc`, or an adopted LLSD's) with `workload.storage`, else an emptyDir. */
function ogxStorageVolume(plan: OgxPlan) {
  const name = ogxObjects().container.storageVolumeName;
  const adopted = ogxAdoptedStorage(plan);
  const claimName = adopted !== undefined ? `${adopted}-pvc` : ogxNames.persistentVolumeClaim(ogxSource(plan));
  return {
    mount: { name, mountPath: ogxStatePath(plan) },
    volume: ogxHasStorage(plan) ? { name, persistentVolumeClaim: { claimName } } : { name, emptyDir: {} },
  };
}

/** `user-config`: the generated ConfigMap or the override's key, as config.yaml under /etc/ogx/. */
function ogxRuntimeConfigVolume(plan: OgxPlan, config: GeneratedConfig | undefined) {
  const c = ogxObjects().container;
  const source = plan.mode === 'override' && plan.overrideConfig
    ? { name: plan.overrideConfig.configMapName, key: plan.overrideConfig.key }
    : plan.mode === 'generated' && config
      ? { name: ogxNames.configMap(ogxSource(plan), config.hash), key: c.configFileName }
      : undefined;
  if (!source) return undefined;
  return {
    mount: { name: c.configVolumeName, mountPath: c.configMountPath, readOnly: true },
    volume: { name: c.configVolumeName, configMap: { name: source.name, items: [{ key: source.key, path: c.configFileName }] } },
  };
}

/** `ca-bundle`: the `<name>-ca-bundle` ConfigMap, read-only, named by SSL_CERT_FILE. */
function ogxCaBundleVolume(plan: OgxPlan) {
  if (!plan.caBundle) return undefined;
  const { volumeName, mountPath, fileName } = ogxObjects().caBundle;
  return {
    file: posix.join(mountPath, fileName),
    mount: { name: volumeName, mountPath, readOnly: true },
    volume: { name: volumeName, configMap: { name: ogxNames.caBundle(ogxSource(plan)), items: [{ key: fileName, path: fileName }] } },
  };
}

/** Content hashes of what the pod mounts under names that do not change with it (the override ConfigMap, the CA bundle). */
function ogxRolloutAnnotations(plan: OgxPlan, config: GeneratedConfig | undefined): Record<string, string> {
  const annotations: Record<string, string> = {};
  const text = plan.mode === 'override' ? plan.overrideConfig?.text : plan.mode === 'generated' ? config?.text : undefined;
  if (text !== undefined) annotations[annotation.configHash] = sha256(text);
  if (plan.caBundle) annotations[annotation.caBundleHash] = sha256(plan.caBundle.pem);
  return annotations;
}

function ogxConfigPath(): string {
  const c = ogxObjects().container;
  return posix.join(c.configMountPath, c.configFileName);
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * `workload.overrides.volumes`/`volumeMounts` (either API) are appended to what llsd-render mounts:
 * a volume named like one of those, or like an earlier one, a mount of a volume the pod does not
 * have, or two mounts at one path make a Deployment the API server refuses, so each is an error at
 * the user's field (attacker probe: exit 0 with such a Deployment).
 */
export function overrideMountProblems(deployment: KrmObject | undefined, overrides: { volumes?: unknown[] | undefined; volumeMounts?: unknown[] | undefined } | undefined): FieldProblem[] {
  const podSpec = (deployment as { spec?: { template?: { spec?: { volumes?: Array<{ name?: unknown }>; containers?: Array<{ volumeMounts?: Array<{ name?: unknown; mountPath?: unknown }> }> } } } } | undefined)?.spec?.template?.spec;
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
      const whose = generated.includes(name) ? `llsd-render's own volume ${quote(name)} (it mounts ${listOf(generated)})` : `an earlier volume of \`overrides.volumes\``;
      problems.push({ path: [...base, 'volumes', i, 'name'], message: `is the name of ${whose}: the API server refuses a pod with two volumes of one name; give this volume another name` });
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
      problems.push({ path: [...base, 'volumeMounts', i, 'name'], message: `names no volume of the pod (${listOf([...seen])}); add the volume to \`overrides.volumes\` or name one of those` });
    }
    if (paths.has(samePath(mountPath))) {
      const whose = generatedPaths.includes(samePath(mountPath)) ? 'a path llsd-render mounts already' : 'the path of an earlier mount of `overrides.volumeMounts`';
      problems.push({ path: [...base, 'volumeMounts', i, 'mountPath'], message: `is ${whose}: the API server refuses two mounts at one path; mount it elsewhere` });
    }
    paths.add(samePath(mountPath));
  });
  return problems;
}
