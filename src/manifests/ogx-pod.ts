// An OGXServer's Deployment `<name>`, as the OGX operator builds it: the image's entrypoint runs
// the server (with `--insecure` from OGX 1.2, per the image's facts) on the mounted config, or on
// the image's own config without one. Labels: the common ones; selector and pod labels
// `{app: ogx, instance}`. The operator's pod annotations hold cluster resourceVersions; instead,
// content hashes of the mounted config and CA bundle roll the pods. The Deployment itself is built
// by renderDeployment.
import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import type { FieldProblem } from '../lib/issues.js';
import type { GeneratedConfig } from '../core/config-file.js';
import { ogxObjects } from '../catalog/catalog.js';
import { annotation } from '../krm/item.js';
import { isPlainObject } from '../lib/objects.js';
import type { OgxPlan } from '../ogx/plan.js';
import {
  ogxAdoptedStorage,
  ogxHasRuntimeConfig,
  ogxHasStorage,
  ogxMetricsPort,
  ogxPort,
  ogxReplicas,
  ogxServesTls,
  ogxSource,
  ogxStatePath,
  servesTls,
} from '../core/ogx-workload.js';
import { imageFacts } from '../core/workload.js';
import { passesInsecure } from '../core/server-settings.js';
import { quote } from '../lib/quote.js';
import { defaultedResources, type DeploymentInput } from './deployment.js';
import type { JobInput } from './job.js';
import { fitName } from '../lib/names.js';
import type { Container, EnvVar, PodResourceClaim, TopologySpreadConstraint, Volume, VolumeMount } from './k8s.js';
import { ogxMetadata, ogxNames, ogxOwnMetadata, ogxSelectorLabels } from './metadata.js';

export function ogxDeployment(plan: OgxPlan, config: GeneratedConfig | undefined): DeploymentInput {
  const source = ogxSource(plan);
  const workload = plan.server.spec.workload;
  const storage = ogxStorageVolume(plan);
  const ca = ogxCaBundleVolume(plan);
  const runtime = ogxRuntimeConfigVolume(plan, config);
  const overrides = workload?.overrides ?? {};
  return {
    metadata: ogxMetadata(source, ogxNames.deployment(source)),
    replicas: workload?.autoscaling ? undefined : ogxReplicas(plan),
    selector: ogxSelectorLabels(source),
    persistentVolume: ogxHasStorage(plan),
    podLabels: ogxSelectorLabels(source),
    podAnnotations: ogxRolloutAnnotations(plan, config),
    serviceAccountName: overrides.serviceAccountName ?? ogxNames.serviceAccount(source),
    podSecurityContext: ogxObjects().podSecurityContext,
    placement: {
      labels: { 'app.kubernetes.io/instance': source.name },
      given: workload?.topologySpreadConstraints as TopologySpreadConstraint[] | undefined,
      several: ogxReplicas(plan) > 1,
    },
    resourceClaims: workload?.resourceClaims as PodResourceClaim[] | undefined,
    container: ogxContainer(plan, config),
    // The user's volumes as written, checked by the OGXServer schema (and by overrideMountProblems).
    volumes: [storage.volume, ...(ca ? [ca.volume] : []), ...(runtime ? [runtime.volume] : []), ...((overrides.volumes ?? []) as Volume[])],
  };
}

/**
 * `overrides.command` replaces the image entrypoint and with it the `--insecure` it passes (OGX
 * 1.2+, strict TLS): the server then exits at start unless its config serves TLS or says
 * `server.insecure: true`. A generated config says it (divergence A17); an overrideConfig that
 * does not is an error, as for an LLSD; the image's own config (none mode) is not known here, so
 * a warning.
 */
export function ogxDeploymentProblems(plan: OgxPlan, config: GeneratedConfig | undefined): FieldProblem[] {
  const overrides = plan.server.spec.workload?.overrides ?? {};
  const { strictTls } = plan.profile;
  const image = imageFacts(plan);
  if (!overrides.command || !strictTls || !image.entrypointInsecure || passesInsecure(overrides, image)) return [];
  const value = plan.mode === 'override' ? plan.overrideConfig?.value : plan.mode === 'generated' ? config?.value : undefined;
  const server = isPlainObject(value?.server) ? value.server : {};
  if (server.insecure === true || servesTls(server)) return [];
  const replaces = `replaces the image entrypoint${image.entrypoint ? ` (${image.entrypoint})` : ''}, which starts OGX ${plan.release} with \`--insecure\``;
  if (plan.mode === 'override') {
    return [
      {
        path: ['spec', 'workload', 'overrides', 'command'],
        message: `${replaces}: the server then exits at start ("TLS required") because the config.yaml of the ConfigMap ` +
          `${quote(plan.overrideConfig?.configMapName ?? '')} (overrideConfig) sets neither \`server.tls_certfile\`/\`tls_keyfile\` nor ` +
          '`server.insecure: true`. Add `server: {insecure: true}` there, pass `--insecure` in the command, or use `overrides.args` ' +
          "to add arguments to the entrypoint's command instead",
      },
    ];
  }
  return [
    {
      severity: 'warning', code: 'entrypoint-replaced',
      path: ['spec', 'workload', 'overrides', 'command'],
      message: `${replaces}; without it the server exits at start ("TLS required") unless its config.yaml sets \`server.insecure: true\` ` +
        'or `server.tls_certfile` and `tls_keyfile`. ' +
        "Use `overrides.args` to add arguments to the entrypoint's command instead",
    },
  ];
}

function ogxContainer(plan: OgxPlan, config: GeneratedConfig | undefined): Container {
  const c = ogxObjects().container;
  const overrides = plan.server.spec.workload?.overrides ?? {};
  const port = ogxPort(plan);
  const metrics = ogxMetricsPort(plan);
  const command = overrides.command ?? ogxStartCommand(plan);
  const { path, ...timing } = c.startupProbe;
  const given = plan.server.spec.workload?.resources ?? {};
  const ca = ogxCaBundleVolume(plan);
  const runtime = ogxRuntimeConfigVolume(plan, config);
  return {
    name: c.name,
    image: plan.image,
    ...(command ? { command } : {}),
    ...(overrides.args ? { args: overrides.args } : {}),
    // The API port has no name; the metrics port is added even when it is the API port (as upstream).
    ports: [{ containerPort: port }, ...(metrics !== undefined ? [{ name: c.metricsPortName, containerPort: metrics }] : [])],
    env: ogxEnv(plan, config),
    // HTTPS when the config serves TLS (not upstream, whose HTTP probe fails on such a server).
    startupProbe: { httpGet: { path, port, ...(ogxServesTls(plan, config) ? { scheme: 'HTTPS' as const } : {}) }, ...timing },
    resources: { ...defaultedResources(plan.server.spec.workload?.workers, given), ...(given.claims ? { claims: given.claims } : {}) },
    volumeMounts: [
      ogxStorageVolume(plan).mount,
      ...(runtime ? [runtime.mount] : []),
      ...(ca ? [ca.mount] : []),
      ...((overrides.volumeMounts ?? []) as VolumeMount[]),
    ],
  };
}

/**
 * Images whose entrypoint reads no config path env (before llama-stack 0.3) need the command that
 * names the config; every OGX image runs its entrypoint, so no command is set.
 */
function ogxStartCommand(plan: OgxPlan): string[] | undefined {
  const image = imageFacts(plan);
  if (image.configPathEnv !== null || !ogxHasRuntimeConfig(plan)) return undefined;
  return image.command?.map((part) => part.replaceAll('{config}', ogxConfigPath()));
}

/**
 * In the operator's order: HF_HOME, SSL_CERT_FILE, workers, port, the config path
 * twice, the registry refresh interval, metrics, the secret env vars sorted by name; then the
 * user's, each replacing the variable of the same name.
 */
function ogxEnv(plan: OgxPlan, config: GeneratedConfig | undefined): EnvVar[] {
  const c = ogxObjects().container;
  const image = imageFacts(plan);
  const spec = plan.server.spec;
  const env: EnvVar[] = [{ name: c.hfHomeEnv, value: ogxStatePath(plan) }];
  // Divergence: images before OGX 1.3.0 run as root with HOME=/root, so `~/.ogx` in their configs
  // would miss the state volume; HOME=/ is what their `/.ogx` directory is laid out for. An image
  // that sets its own HOME (1.3.0, `rh`) keeps it.
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
 * The Praxis migration Job (controllers/migration_job.go @ 2580c378): `ogx migrate praxis --dry-run`,
 * then `ogx migrate praxis`, on the mounted config.yaml, with the config's Secret env vars, the
 * target database as PRAXIS_DATABASE_URL (secretKeyRef only), the CA bundle with SSL_CERT_FILE,
 * the server's ServiceAccount, fsGroup and resources; backoffLimit 2 (configs/ogx-objects.yaml
 * `praxis.migrationJob`). Named `<name>-praxis-migration-<attempt>`: the attempt (config, image,
 * target, fallbacks) hashed into the name, so a changed attempt is a new Job, never an update of an
 * immutable pod template (docs/ogxserver.md "Praxis mode").
 */
export function ogxMigrationJob(plan: OgxPlan, config: GeneratedConfig | undefined): JobInput | undefined {
  const job = plan.server.spec.praxisMode?.migrationJob;
  if (!job) return undefined;
  const { praxis, podSecurityContext } = ogxObjects();
  const m = praxis.migrationJob;
  const source = ogxSource(plan);
  const runtime = ogxRuntimeConfigVolume(plan, config);
  const ca = ogxCaBundleVolume(plan);
  const image = imageFacts(plan);
  const overrides = plan.server.spec.workload?.overrides ?? {};
  const configText = plan.mode === 'override' ? plan.overrideConfig?.text : config?.text;
  const attempt = sha256(
    JSON.stringify([configText ?? '', plan.image, job.targetConnectionString, job.fallbackTenant ?? '', job.fallbackOwnerSubject ?? '']),
  ).slice(0, ogxObjects().configHashLength);
  const env: EnvVar[] = [...(config?.env ?? [])]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((e) => ({ name: e.name, valueFrom: { secretKeyRef: { name: e.secretName, key: e.key } } }));
  env.push({ name: ogxObjects().container.configEnv, value: ogxConfigPath() });
  if (image.configPathEnv) env.push({ name: image.configPathEnv, value: ogxConfigPath() });
  env.push({ name: m.targetEnv, valueFrom: { secretKeyRef: { name: job.targetConnectionString.name, key: job.targetConnectionString.key } } });
  if (ca) env.push({ name: ogxObjects().caBundle.env, value: ca.file });
  // Not upstream: the user's env too (as the server's, last), so the Job reads the config as the server does.
  const user = (overrides.env ?? []) as EnvVar[];
  const named = new Set(user.map((e) => e.name));
  const given = plan.server.spec.workload?.resources ?? {};
  // Pod labels without `app: ogx`: the server's Service, PDB and NetworkPolicy select that label.
  const podLabels = { ...ogxObjects().managedBy, ...m.componentLabel, 'app.kubernetes.io/instance': source.name };
  return {
    metadata: ogxOwnMetadata(source, fitName(source.name, `${m.nameSuffix}-${attempt}`), { ...m.componentLabel, ...ogxObjects().appLabel }, {
      [m.attemptAnnotation]: attempt,
    }),
    podLabels,
    backoffLimit: m.backoffLimit,
    activeDeadlineSeconds: m.activeDeadlineSeconds,
    restartPolicy: m.restartPolicy,
    serviceAccountName: overrides.serviceAccountName ?? ogxNames.serviceAccount(source),
    podSecurityContext: { ...podSecurityContext, ...m.podSecurityContext },
    container: {
      name: m.containerName,
      image: plan.image,
      imagePullPolicy: 'IfNotPresent',
      command: m.command,
      args: [migrationShell(job)],
      env: [...env.filter((e) => !named.has(e.name)), ...user],
      resources: { ...defaultedResources(plan.server.spec.workload?.workers, given), ...(given.claims ? { claims: given.claims } : {}) },
      volumeMounts: [...(runtime ? [runtime.mount] : []), ...(ca ? [ca.mount] : [])],
    },
    volumes: [...(runtime ? [runtime.volume] : []), ...(ca ? [ca.volume] : [])],
  };
}

/** `migrationJobShell`: the dry run, then the migration, each with the fallback flags, on "$OGX_CONFIG". */
function migrationShell(job: { fallbackTenant?: string | undefined; fallbackOwnerSubject?: string | undefined }): string {
  const m = ogxObjects().praxis.migrationJob;
  let flags = '';
  if (job.fallbackTenant) flags += ` ${m.fallbackTenantFlag} ${shellQuote(job.fallbackTenant)}`;
  if (job.fallbackOwnerSubject) flags += ` ${m.fallbackOwnerSubjectFlag} ${shellQuote(job.fallbackOwnerSubject)}`;
  const configEnv = ogxObjects().container.configEnv;
  return `set -eu; ${m.migrate} --dry-run${flags} "$${configEnv}" && ${m.migrate}${flags} "$${configEnv}"`;
}

/** A single-quoted shell word. */
const shellQuote = (value: string): string => `'${value.replaceAll("'", `'"'"'`)}'`;
