// An LLSD's Deployment: every `spec.workload` field, the image's start command and env (its
// facts: `imageFacts`), the TLS certificate and CA bundle of `networking.tls`, and the init containers
// that install external providers. The Deployment itself is built by renderDeployment.
import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import type { GeneratedConfig } from '../core/config-file.js';
import { externalProviderSettings, workloadDefaults } from '../catalog/catalog.js';
import { annotation } from '../krm/item.js';
import type { Plan } from '../llsd/plan.js';
import { hasPersistentVolume, imageFacts, imageStateDirectory, maxPods, serverPort, serverPortName, servesTls, stateDirectory } from '../core/workload.js';
import { defaultedResources, type DeploymentInput } from './deployment.js';
import type { Container, EnvVar, Probe, SecurityContext, TopologySpreadConstraint, Volume, VolumeMount } from './k8s.js';
import { fitName } from '../lib/names.js';
import { labelsFor, metadataFor, names, selectorLabels } from './metadata.js';

export function llsdDeployment(plan: Plan, config: GeneratedConfig): DeploymentInput {
  const defaults = workloadDefaults();
  const { llsd } = plan;
  const workload = llsd.spec.workload ?? {};
  const overrides = workload.overrides ?? {};
  const c = defaults.container;
  const tls = tlsVolume(plan);
  const ca = caBundleVolume(plan);
  const external = externalProviderInstall(plan);
  // As the user wrote them, checked by the LLSD schema (and by overrideMountProblems).
  const userVolumes = (overrides.volumes ?? []) as Volume[];
  return {
    metadata: metadataFor(llsd, names.deployment(llsd), 'server'),
    replicas: workload.autoscaling ? undefined : (workload.replicas ?? defaults.replicas),
    selector: selectorLabels(llsd),
    persistentVolume: hasPersistentVolume(llsd),
    podLabels: labelsFor(llsd, 'server'),
    podAnnotations: { [annotation.configHash]: config.hash },
    serviceAccountName: overrides.serviceAccountName ?? names.serviceAccount(llsd),
    terminationGracePeriodSeconds: overrides.terminationGracePeriodSeconds,
    podSecurityContext: defaults.podSecurityContext,
    placement: {
      labels: selectorLabels(llsd),
      given: workload.topologySpreadConstraints as TopologySpreadConstraint[] | undefined,
      several: maxPods(llsd.spec.workload) > 1,
    },
    initContainers: external?.initContainers,
    container: container(plan, config),
    volumes: [
      { name: c.configVolumeName, configMap: { name: config.fromConfigMap ?? names.configMap(llsd, config.hash) } },
      hasPersistentVolume(llsd)
        ? { name: c.storageVolumeName, persistentVolumeClaim: { claimName: names.persistentVolumeClaim(llsd) } }
        : { name: c.storageVolumeName, emptyDir: {} },
      ...(tls ? [tls.volume] : []),
      ...(ca ? [ca.volume] : []),
      ...(external ? [external.volume] : []),
      ...userVolumes,
    ],
  };
}

/** The name of the CA bundle ConfigMap, when the LLSD has one: hash-named, so a changed bundle rolls the pods. */
export function caBundleName(plan: Plan): string | undefined {
  return plan.caBundle && names.caBundle(plan.llsd, createHash('sha256').update(plan.caBundle.pem).digest('hex'));
}

/** The server container, readiness and liveness probed on the health path, HTTPS when the server serves TLS. */
function container(plan: Plan, config: GeneratedConfig): Container {
  const defaults = workloadDefaults();
  const overrides = plan.llsd.spec.workload?.overrides ?? {};
  const c = defaults.container;
  const tls = tlsVolume(plan);
  const ca = caBundleVolume(plan);
  const external = externalProviderInstall(plan);
  const startCommand = imageFacts(plan).command?.map((part) => part.replaceAll('{config}', configPath()));
  const command = overrides.command ?? startCommand;
  const scheme = servesTls(plan.llsd) ? 'HTTPS' : 'HTTP';
  const port = serverPortName(plan.llsd);
  const { workers, resources: given = {} } = plan.llsd.spec.workload ?? {};
  return {
    name: c.name,
    image: plan.image,
    ...(command ? { command } : {}),
    ...(overrides.args ? { args: overrides.args } : {}),
    ports: [{ name: port, containerPort: serverPort(plan), protocol: 'TCP' }],
    env: containerEnv(plan, config),
    resources: defaultedResources(workers, given),
    volumeMounts: [
      { name: c.configVolumeName, mountPath: c.configMountPath, readOnly: true },
      { name: c.storageVolumeName, mountPath: stateDirectory(plan) },
      ...(tls ? [tls.mount] : []),
      ...(ca ? [ca.mount] : []),
      ...(external ? [external.mount] : []),
      ...((overrides.volumeMounts ?? []) as VolumeMount[]),
    ],
    startupProbe: probe(defaults.probes.startup, port, scheme),
    readinessProbe: probe(defaults.probes.readiness, port, scheme),
    livenessProbe: probe(defaults.probes.liveness, port, scheme),
    securityContext: serverSecurityContext(plan),
  };
}

/**
 * The image's own entrypoint runs the config named by the config-path env var, on the port env
 * var; then where state and trusted CAs are; then one env var per secret reference; then the
 * user's env, which wins on a name clash.
 */
function containerEnv(plan: Plan, config: GeneratedConfig): EnvVar[] {
  const image = imageFacts(plan);
  const env: EnvVar[] = [];
  // Images whose entrypoint takes no config path env get it in the command instead.
  if (image.configPathEnv) env.push({ name: image.configPathEnv, value: configPath() });
  env.push({ name: image.portEnv, value: String(serverPort(plan)) });
  const state = stateDirectory(plan);
  // Images before OGX 1.3.0 run as root with HOME=/root; `~/.llama/…` in their configs means the
  // state directory only with HOME=/, which the images' directories are laid out for (an image
  // that sets its own HOME keeps it).
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
  const facts = imageFacts(plan);
  const home = imageStateDirectory(facts);
  const state = stateDirectory(plan);
  if (state === home) return [];
  const env = new Map<string, string>();
  for (const match of config.text.matchAll(/\$\{env\.([A-Za-z_][A-Za-z0-9_]*):=([^}]*)\}/g)) {
    const [, name, fallback] = match as unknown as [string, string, string];
    for (const prefix of [`~${facts.home}`, home]) {
      if (fallback === prefix || fallback.startsWith(`${prefix}/`)) env.set(name, posix.join(state, fallback.slice(prefix.length)));
    }
  }
  return [...env].sort(([a], [b]) => a.localeCompare(b)).map(([name, value]) => ({ name, value }));
}

/**
 * The workload default; the server container of an image that runs as a non-root USER (OGX
 * 1.3.0+: 1001, HOME=/, state in /.ogx owned 1001:0; the `rh` image: 1001) also gets `runAsNonRoot` — on the container,
 * not the pod, so the init containers of external providers (the user's images) keep their own
 * user. No `runAsUser`: OpenShift's restricted SCC assigns its own UID, which the image allows
 * (its directories are group 0 writable).
 */
function serverSecurityContext(plan: Plan): SecurityContext {
  const defaults = workloadDefaults().containerSecurityContext;
  const { user } = imageFacts(plan);
  return user !== undefined && user !== 0 ? { ...defaults, runAsNonRoot: true } : defaults;
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
 * External providers: each provider image's wheels are copied to a shared volume by an init
 * container of that image, then installed there (no dependencies: the distribution image has them)
 * by an init container of the distribution image; the server finds them through PYTHONPATH.
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

function probe(timing: { periodSeconds: number; timeoutSeconds: number; failureThreshold: number }, port: string, scheme: 'HTTP' | 'HTTPS'): Probe {
  return { httpGet: { path: workloadDefaults().healthPath, port, scheme }, ...timing };
}

