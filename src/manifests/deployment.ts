// The Deployment that runs the server with the generated config (DESIGN §6): config mounted
// read-only, secrets only through `secretKeyRef` env vars, pods rolled when the config changes.
import type { GeneratedConfig } from '../config/generate.js';
import { workloadDefaults } from '../config/catalog.js';
import { externalProviderSettings, externalProvidersOf } from '../config/external-providers.js';
import { annotation, type KrmObject } from '../krm/item.js';
import type { Plan } from '../plan/plan.js';
import { labelsFor, metadataFor, names, selectorLabels } from './metadata.js';

type EnvVar = Record<string, unknown> & { name: string };

export function renderDeployment(plan: Plan, config: GeneratedConfig): KrmObject {
  const defaults = workloadDefaults();
  const { llsd } = plan;
  const workload = llsd.spec.workload ?? {};
  const overrides = workload.overrides ?? {};
  const c = defaults.container;

  const container: Record<string, unknown> = { name: c.name, image: plan.image };
  const startCommand = plan.profile.image.command?.map((part) => part.replaceAll('{config}', configPath()));
  if (overrides.command ?? startCommand) container.command = overrides.command ?? startCommand;
  if (overrides.args) container.args = overrides.args;
  container.ports = [{ name: c.portName, containerPort: serverPort(plan), protocol: 'TCP' }];
  container.env = containerEnv(plan, config);
  container.resources = workload.resources ?? defaults.resources;
  container.volumeMounts = [
    { name: c.configVolumeName, mountPath: c.configMountPath, readOnly: true },
    { name: c.storageVolumeName, mountPath: plan.profile.image.home },
    ...(overrides.volumeMounts ?? []),
  ];
  container.startupProbe = probe(defaults.probes.startup);
  container.readinessProbe = probe(defaults.probes.readiness);
  container.livenessProbe = probe(defaults.probes.liveness);
  container.securityContext = defaults.containerSecurityContext;

  const podSpec: Record<string, unknown> = {
    serviceAccountName: overrides.serviceAccountName ?? names.serviceAccount(llsd),
    securityContext: defaults.podSecurityContext,
  };
  const external = externalProviderInstall(plan);
  if (external) {
    podSpec.initContainers = external.initContainers;
    (container.volumeMounts as unknown[]).push(external.mount);
  }
  podSpec.containers = [container];
  podSpec.volumes = [
    { name: c.configVolumeName, configMap: { name: config.fromConfigMap ?? names.configMap(llsd, config.hash) } },
    { name: c.storageVolumeName, emptyDir: {} },
    ...(external ? [external.volume] : []),
    ...(overrides.volumes ?? []),
  ];

  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: metadataFor(llsd, names.deployment(llsd), 'server'),
    spec: {
      replicas: workload.replicas ?? defaults.replicas,
      selector: { matchLabels: selectorLabels(llsd) },
      template: {
        metadata: {
          labels: labelsFor(llsd, 'server'),
          annotations: { [annotation.configHash]: config.hash },
        },
        spec: podSpec,
      },
    },
  };
}

export const serverPort = (plan: Plan): number => plan.llsd.spec.networking?.port ?? workloadDefaults().container.port;

/**
 * The image's own entrypoint runs the config named by the config-path env var, on the port env
 * var; then one env var per secret reference; then the user's env, which wins on a name clash.
 */
function containerEnv(plan: Plan, config: GeneratedConfig): EnvVar[] {
  const { image } = plan.profile;
  const env: EnvVar[] = [];
  // Images whose entrypoint takes no config path env get it in the command instead.
  if (image.configPathEnv) env.push({ name: image.configPathEnv, value: configPath() });
  env.push({ name: image.portEnv, value: String(serverPort(plan)) });
  // 0.8.0 moves ~/.llama to ~/.ogx on start unless told where its state lives (the mounted volume).
  if (image.configDirEnv) env.push({ name: image.configDirEnv, value: image.home });
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
 * Spec 001: each provider image's wheels are copied to a shared volume by an init container of
 * that image, then installed there (no dependencies: the distribution image has them) by an init
 * container of the distribution image; the server finds them through PYTHONPATH.
 */
function externalProviderInstall(plan: Plan) {
  const providers = externalProvidersOf(plan.llsd);
  if (providers.length === 0) return undefined;
  const s = externalProviderSettings();
  const securityContext = workloadDefaults().containerSecurityContext;
  const mount = { name: s.volumeName, mountPath: s.mountPath };
  const initContainers = [
    ...providers.map((p) => ({
      name: `copy-provider-${p.providerId}`.slice(0, 63).replace(/-+$/, ''),
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

function probe(timing: { periodSeconds: number; timeoutSeconds: number; failureThreshold: number }): Record<string, unknown> {
  const { healthPath, container } = workloadDefaults();
  return { httpGet: { path: healthPath, port: container.portName, scheme: 'HTTP' }, ...timing };
}
