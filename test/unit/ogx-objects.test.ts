// The objects of an OGXServer (issue 17 "Objects"): each rule of how the OGX operator builds them (and
// the assertions of its tests: controllers/resource_helper_test.go, controllers/ogxserver_controller_test.go,
// pkg/deploy/*_test.go), on plans built by hand from a parsed OGXServer, so that
// every test shows one object decision.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseOgxServer } from '../../src/ogx/ogxserver.js';
import { defaultRenderOptions, renderConfigSchemas, type RenderOptions, type RenderOptionsInput } from '../../src/core/render-config.js';
import { releaseSupport } from '../../src/catalog/versions.js';
import type { GeneratedConfig } from '../../src/core/config-file.js';
import type { KrmObject } from '../../src/krm/item.js';
import { ogxObjectProblems, renderOgxObjects } from '../../src/manifests/index.js';
import type { OgxPlan } from '../../src/ogx/plan.js';
import { schemaProblem } from '../kubernetes-models.js';
import { itemFrom } from '../support.js';

/** External access as the operator's main requires it: `hostname` and `tls` with `enabled`. */
const exposed = 'externalAccess: {enabled: true, hostname: ogx.example.com, tls: {secretName: ogx-tls}}';

type Obj = Record<string, any>;

const commonLabels = { 'app.kubernetes.io/managed-by': 'ogx-operator', 'app.kubernetes.io/part-of': 'ogx', 'ogx.io/watch': 'true' };
const selector = { app: 'ogx', 'app.kubernetes.io/instance': 'srv' };

/** An OGXServer `srv` in `team` with `spec` (YAML, indented under spec:) parsed with the CRD defaults. */
function plan(spec: string, more: Partial<OgxPlan> = {}, metadata = ''): OgxPlan {
  const indented = spec
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
  const text = `apiVersion: ogx.io/v1beta1\nkind: OGXServer\nmetadata:\n  name: srv\n  namespace: team\n${metadata}spec:\n  distribution: {name: starter}\n` +
    `${indented}\n`;
  const parsed = parseOgxServer(itemFrom(text).object);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const release = more.release ?? '1.3.0';
  const support = releaseSupport(release);
  if (!support) throw new Error(`no release ${release}`);
  return {
    server: parsed.server,
    distributionName: 'starter',
    image: 'docker.io/ogxai/distribution-starter:1.3.0',
    release,
    ...support,
    mode: 'none',
    ...more,
  };
}

const configText = 'version: 2\ndistro_name: starter\n';
const generated: GeneratedConfig = {
  text: configText,
  value: { version: 2, distro_name: 'starter' },
  hash: createHash('sha256').update(configText).digest('hex'),
  env: [
    { name: 'OGX_VLLM_API_KEY', secretName: 'vllm', key: 'token', path: [] },
    { name: 'OGX_STORAGE_KV_PASSWORD', secretName: 'redis', key: 'password', path: [] },
  ],
  providerCount: { fromLlsd: 1, total: 1 },
  modelCount: 0,
};

const options = (input: RenderOptionsInput = {}): RenderOptions => renderConfigSchemas().renderOptionsSchema.parse(input);

function render(p: OgxPlan, config?: GeneratedConfig, opts: RenderOptions = defaultRenderOptions()): KrmObject[] {
  return renderOgxObjects(p, config, opts);
}

const find = (objects: KrmObject[], kind: string): Obj | undefined => objects.find((o) => o.kind === kind);
function get(objects: KrmObject[], kind: string): Obj {
  const object = find(objects, kind);
  if (!object) throw new Error(`no ${kind} among ${objects.map((o) => o.kind).join(', ')}`);
  return object;
}
const container = (objects: KrmObject[]): Obj => get(objects, 'Deployment').spec.template.spec.containers[0];
const envNames = (objects: KrmObject[]): string[] => container(objects).env.map((e: Obj) => e.name);
const envValue = (objects: KrmObject[], name: string): unknown => container(objects).env.find((e: Obj) => e.name === name)?.value;

describe('OGXServer objects: names, order, labels (upstream objects: names, labels and order)', () => {
  it('are the kustomization kinds in its order, each `<name>-<suffix>` but the Deployment, with the generated config first', () => {
    const objects = render(
      plan(`workload:\n  replicas: 2\n  storage: {}\n  autoscaling: {maxReplicas: 3}\nnetwork:\n  ${exposed}`, {
        mode: 'generated',
        caBundle: { configMapName: 'my-ca', pem: 'PEM', certificates: 1 },
      }),
      generated,
      options({ openshiftAnyuid: true }),
    );
    expect(objects.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual([
      `ConfigMap/srv-config-${generated.hash.slice(0, 16)}`,
      'ConfigMap/srv-ca-bundle',
      'PersistentVolumeClaim/srv-pvc',
      'ServiceAccount/srv-sa',
      'Service/srv-service',
      'NetworkPolicy/srv-network-policy',
      'Deployment/srv',
      'HorizontalPodAutoscaler/srv-hpa',
      'PodDisruptionBudget/srv-pdb',
      'RoleBinding/srv-rb',
      'PrometheusRule/srv-prometheus-rules',
      'ServiceMonitor/srv-service-monitor',
      'Ingress/srv-ingress',
    ]);
    for (const object of objects) {
      expect(object.metadata.namespace).toBe('team');
      // the mark-and-replace of process.ts (docs/config-generation.md)
      expect(object.metadata.annotations?.['llamastack.io/generated-from']).toBe('team/srv');
      expect(schemaProblem(object)).toBeUndefined();
    }
  });

  it('put the common labels on metadata only: selectors and pod labels are `{app: ogx, instance}`', () => {
    const objects = render(plan(''));
    for (const kind of ['ServiceAccount', 'NetworkPolicy', 'Deployment', 'PrometheusRule'])
      expect(get(objects, kind).metadata.labels).toEqual(commonLabels);
    // Not upstream: the Service carries the instance label too, which its ServiceMonitor selects it by.
    expect(get(objects, 'Service').metadata.labels).toEqual({ 'app.kubernetes.io/instance': 'srv', ...commonLabels });
    const deployment = get(objects, 'Deployment');
    expect(deployment.spec.selector).toEqual({ matchLabels: selector });
    expect(deployment.spec.template.metadata.labels).toEqual(selector);
    expect(get(objects, 'Service').spec.selector).toEqual(selector);
    expect(get(objects, 'NetworkPolicy').spec.podSelector).toEqual({ matchLabels: selector });
  });

  it('without a generated config have no ConfigMap, no config mount and no config env (none mode)', () => {
    const objects = render(plan(''));
    expect(objects.filter((o) => o.kind === 'ConfigMap')).toEqual([]);
    expect(envNames(objects)).not.toContain('RUN_CONFIG_PATH');
    expect(envNames(objects)).not.toContain('OGX_CONFIG');
    expect(container(objects).volumeMounts.map((m: Obj) => m.name)).toEqual(['ogx-storage']);
    expect(container(objects).command).toBeUndefined();
  });
});

describe('generated config ConfigMap (§1)', () => {
  it('is immutable, named by the first 16 hex of the sha256 of its data, labelled as the operator does (no part-of)', () => {
    const configMap = get(render(plan('', { mode: 'generated' }), generated), 'ConfigMap');
    expect(configMap.metadata.name).toBe(`srv-config-${generated.hash.slice(0, 16)}`);
    expect(configMap.immutable).toBe(true);
    expect(configMap.data).toEqual({ 'config.yaml': configText });
    expect(configMap.metadata.labels).toEqual({
      'app.kubernetes.io/managed-by': 'ogx-operator',
      'app.kubernetes.io/instance': 'srv',
      'ogx.io/generated-config': 'true',
      'ogx.io/watch': 'true',
    });
  });
});

describe('CA bundle (§2)', () => {
  const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
  const withCa = plan('', { caBundle: { configMapName: 'my-ca', pem, certificates: 1 } });

  it('is the ConfigMap `<name>-ca-bundle` with key ca-bundle.crt and the component label', () => {
    const bundle = get(render(withCa), 'ConfigMap');
    expect(bundle.metadata.name).toBe('srv-ca-bundle');
    expect(bundle.data).toEqual({ 'ca-bundle.crt': pem });
    expect(bundle.metadata.labels).toEqual({
      'app.kubernetes.io/managed-by': 'ogx-operator',
      'app.kubernetes.io/instance': 'srv',
      'app.kubernetes.io/component': 'ca-bundle',
      'ogx.io/watch': 'true',
    });
  });

  it('is mounted at /etc/ssl/certs/ca-bundle, named by SSL_CERT_FILE, and rolls the pods by its hash', () => {
    const objects = render(withCa);
    const pod = get(objects, 'Deployment').spec.template;
    expect(pod.spec.volumes[1]).toEqual({ name: 'ca-bundle', configMap: { name: 'srv-ca-bundle', items: [{ key: 'ca-bundle.crt', path: 'ca-bundle.crt' }] } });
    expect(container(objects).volumeMounts).toContainEqual({ name: 'ca-bundle', mountPath: '/etc/ssl/certs/ca-bundle', readOnly: true });
    expect(envValue(objects, 'SSL_CERT_FILE')).toBe('/etc/ssl/certs/ca-bundle/ca-bundle.crt');
    expect(pod.metadata.annotations['llamastack.io/ca-bundle-hash']).toBe(createHash('sha256').update(pem).digest('hex'));
  });
});

describe('Deployment (§3)', () => {
  it('has the env in the operator order; secret env vars sorted by name, after metrics', () => {
    const objects = render(plan('registryRefreshIntervalSeconds: 30', { mode: 'generated' }), generated);
    expect(envNames(objects)).toEqual([
      'HF_HOME',
      'OGX_WORKERS',
      'OGX_PORT',
      'RUN_CONFIG_PATH',
      'OGX_CONFIG',
      'OGX_REGISTRY_REFRESH_INTERVAL_SECONDS',
      'OGX_METRICS_ENDPOINT_ENABLED',
      'OGX_METRICS_HOST',
      'OGX_METRICS_PORT',
      'OGX_STORAGE_KV_PASSWORD',
      'OGX_VLLM_API_KEY',
    ]);
    expect(envValue(objects, 'HF_HOME')).toBe('/.ogx');
    expect(envValue(objects, 'OGX_WORKERS')).toBe('1');
    expect(envValue(objects, 'OGX_PORT')).toBe('8321');
    expect(envValue(objects, 'RUN_CONFIG_PATH')).toBe('/etc/ogx/config.yaml');
    expect(envValue(objects, 'OGX_CONFIG')).toBe('/etc/ogx/config.yaml');
    expect(envValue(objects, 'OGX_REGISTRY_REFRESH_INTERVAL_SECONDS')).toBe('30');
    expect(envValue(objects, 'OGX_METRICS_ENDPOINT_ENABLED')).toBe('1');
    expect(envValue(objects, 'OGX_METRICS_HOST')).toBe('0.0.0.0');
    expect(envValue(objects, 'OGX_METRICS_PORT')).toBe('9464');
    expect(container(objects).env.at(-1)).toEqual({ name: 'OGX_VLLM_API_KEY', valueFrom: { secretKeyRef: { name: 'vllm', key: 'token' } } });
  });

  it('lets a user env var replace the operator one of the same name, once, at the end (TestContainerEnvVarDedup)', () => {
    const objects = render(plan('workload:\n  overrides:\n    env:\n      - {name: OGX_WORKERS, value: "99"}\n      - {name: EXTRA, value: x}'));
    expect(envNames(objects).filter((n) => n === 'OGX_WORKERS')).toHaveLength(1);
    expect(envNames(objects).slice(-2)).toEqual(['OGX_WORKERS', 'EXTRA']);
    expect(envValue(objects, 'OGX_WORKERS')).toBe('99');
  });

  it('mounts the generated ConfigMap as /etc/ogx/config.yaml, read-only, and rolls the pods by the config hash', () => {
    const objects = render(plan('', { mode: 'generated' }), generated);
    const pod = get(objects, 'Deployment').spec.template;
    expect(pod.spec.volumes.at(-1)).toEqual({
      name: 'user-config',
      configMap: { name: `srv-config-${generated.hash.slice(0, 16)}`, items: [{ key: 'config.yaml', path: 'config.yaml' }] },
    });
    expect(container(objects).volumeMounts[1]).toEqual({ name: 'user-config', mountPath: '/etc/ogx/', readOnly: true });
    expect(pod.metadata.annotations).toEqual({ 'llamastack.io/config-hash': generated.hash });
  });

  it('mounts the override ConfigMap key as config.yaml, with no secret env vars and no generated ConfigMap', () => {
    const text = 'version: 2\n';
    const p = plan('overrideConfig: {name: mine, key: run.yaml}', {
      mode: 'override',
      overrideConfig: { configMapName: 'mine', key: 'run.yaml', text, value: { version: 2 } },
    });
    const objects = render(p);
    expect(objects.filter((o) => o.kind === 'ConfigMap')).toEqual([]);
    expect(get(objects, 'Deployment').spec.template.spec.volumes.at(-1)).toEqual({
      name: 'user-config',
      configMap: { name: 'mine', items: [{ key: 'run.yaml', path: 'config.yaml' }] },
    });
    expect(envValue(objects, 'RUN_CONFIG_PATH')).toBe('/etc/ogx/config.yaml');
    expect(envNames(objects).filter((n) => n.startsWith('OGX_VLLM'))).toEqual([]);
    expect(get(objects, 'Deployment').spec.template.metadata.annotations['llamastack.io/config-hash']).toBe(createHash('sha256').update(text).digest('hex'));
  });

  it('runs the image entrypoint (no command) with container `ogx`, the image, two ports and the operator startup probe only ' +
    '(TestBuildContainerSpec/defaults)', () => {
    const c = container(render(plan('')));
    expect(c.name).toBe('ogx');
    expect(c.image).toBe('docker.io/ogxai/distribution-starter:1.3.0');
    expect(c.command).toBeUndefined();
    expect(c.ports).toEqual([{ containerPort: 8321 }, { name: 'metrics', containerPort: 9464 }]);
    expect(c.startupProbe).toEqual({
      httpGet: { path: '/v1/health', port: 8321 },
      initialDelaySeconds: 15,
      timeoutSeconds: 30,
      failureThreshold: 3,
      successThreshold: 1,
    });
    expect(c.livenessProbe).toBeUndefined();
    expect(c.readinessProbe).toBeUndefined();
    expect(c.imagePullPolicy).toBeUndefined();
  });

  it('uses a custom port for the container port, the probe, OGX_PORT and the Service (custom port test)', () => {
    const objects = render(plan('network: {port: 9000}'));
    expect(container(objects).ports[0]).toEqual({ containerPort: 9000 });
    expect(container(objects).startupProbe.httpGet.port).toBe(9000);
    expect(envValue(objects, 'OGX_PORT')).toBe('9000');
    expect(get(objects, 'Service').spec.ports[0]).toEqual({ name: 'http', protocol: 'TCP', port: 9000, targetPort: 9000 });
  });

  it('passes overrides.command and args as written', () => {
    const c = container(render(plan('workload:\n  overrides:\n    command: [python, -m, x]\n    args: [--flag]')));
    expect(c.command).toEqual(['python', '-m', 'x']);
    expect(c.args).toEqual(['--flag']);
  });

  it('has the pod security context {fsGroup: 1001} only, and runs as `<name>-sa` unless overridden', () => {
    const pod = get(render(plan('')), 'Deployment').spec.template.spec;
    expect(pod.securityContext).toEqual({ fsGroup: 1001 });
    expect(pod.serviceAccountName).toBe('srv-sa');
    expect(container(render(plan(''))).securityContext).toBeUndefined();
    const custom = render(plan('workload:\n  overrides: {serviceAccountName: custom-sa}'));
    expect(get(custom, 'Deployment').spec.template.spec.serviceAccountName).toBe('custom-sa');
    // §5: the operator's ServiceAccount is still created
    expect(get(custom, 'ServiceAccount').metadata.name).toBe('srv-sa');
  });

  it('defaults requests to cpu = workers and memory 1Gi; limits only when workers is set', () => {
    expect(container(render(plan(''))).resources).toEqual({ requests: { cpu: '1', memory: '1Gi' } });
    expect(container(render(plan('workload: {workers: 3}'))).resources).toEqual({ requests: { cpu: '3', memory: '1Gi' }, limits: { cpu: '3', memory: '1Gi' } });
    const claims = container(render(plan('workload:\n  resources:\n    requests: {memory: 4Gi}\n    claims: [{name: gpu}]'))).resources;
    expect(claims).toEqual({ requests: { memory: '4Gi', cpu: '1' }, claims: [{ name: 'gpu' }] });
  });

  it('writes the given requests and limits in key order, whatever order the CR lists them in (found by the property tests)', () => {
    const ordered = container(
      render(plan('workload:\n  workers: 1\n  resources:\n    requests: {cpu: 250m, memory: 512Mi}\n    limits: {memory: 512Mi}')),
    ).resources;
    const reordered = container(
      render(plan('workload:\n  workers: 1\n  resources:\n    requests: {memory: 512Mi, cpu: 250m}\n    limits: {memory: 512Mi}')),
    ).resources;
    expect(Object.keys(reordered.requests)).toEqual(['cpu', 'memory']);
    expect(JSON.stringify(reordered)).toBe(JSON.stringify(ordered));
    // A defaulted quantity still comes after the given ones (the goldens' order).
    expect(Object.keys(reordered.limits)).toEqual(['memory', 'cpu']);
  });

  it('copies workload.resourceClaims to the pod (TestConfigureResourceClaims)', () => {
    const pod = get(render(plan('workload:\n  resourceClaims: [{name: gpu, resourceClaimTemplateName: gpu-template}]')), 'Deployment').spec.template.spec;
    expect(pod.resourceClaims).toEqual([{ name: 'gpu', resourceClaimTemplateName: 'gpu-template' }]);
  });

  it('with storage: a PVC `<name>-pvc` of 10Gi ReadWriteOnce, mounted at /.ogx, and the Recreate strategy (TestStorageConfiguration)', () => {
    const objects = render(plan('workload:\n  storage: {}'));
    expect(get(objects, 'PersistentVolumeClaim').spec).toEqual({ accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '10Gi' } } });
    expect(get(objects, 'PersistentVolumeClaim').metadata.labels).toEqual(commonLabels);
    const deployment = get(objects, 'Deployment');
    expect(deployment.spec.strategy).toEqual({ type: 'Recreate' });
    expect(deployment.spec.template.spec.volumes[0]).toEqual({ name: 'ogx-storage', persistentVolumeClaim: { claimName: 'srv-pvc' } });
    expect(container(objects).volumeMounts[0]).toEqual({ name: 'ogx-storage', mountPath: '/.ogx' });
  });

  it('with storage size and mountPath: both respected, and HF_HOME follows the mount', () => {
    const objects = render(plan('workload:\n  storage: {size: 20Gi, mountPath: /custom/path}'));
    expect(get(objects, 'PersistentVolumeClaim').spec.resources.requests.storage).toBe('20Gi');
    expect(container(objects).volumeMounts[0]).toEqual({ name: 'ogx-storage', mountPath: '/custom/path' });
    expect(envValue(objects, 'HF_HOME')).toBe('/custom/path');
  });

  it('without storage: an emptyDir, no PVC and no strategy', () => {
    const objects = render(plan(''));
    expect(find(objects, 'PersistentVolumeClaim')).toBeUndefined();
    expect(get(objects, 'Deployment').spec.strategy).toBeUndefined();
    expect(get(objects, 'Deployment').spec.template.spec.volumes[0]).toEqual({ name: 'ogx-storage', emptyDir: {} });
  });

  // The operator adopts the PVC in the cluster; a render keeps it in its output (the new-user probe:
  // a GitOps prune of the LLSD's render would delete `<llsd>-pvc` and its data, and the pod would stay Pending).
  it('with `ogx.io/adopt-storage`: the legacy `<llsd>-pvc` is mounted and kept in the output, labelled adopted; no new PVC (§4, MIGRATION §5.1)', () => {
    const objects = render(plan('workload:\n  storage: {size: 20Gi}', {}, '  annotations: {ogx.io/adopt-storage: old-llsd}\n'));
    const claims = objects.filter((o) => o.kind === 'PersistentVolumeClaim');
    expect(claims.map((o) => o.metadata.name)).toEqual(['old-llsd-pvc']);
    expect(claims[0]?.metadata.labels).toMatchObject({ 'ogx.io/adopted-from': 'old-llsd' });
    expect((claims[0] as unknown as { spec: unknown }).spec).toEqual({ accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '20Gi' } } });
    expect(get(objects, 'Deployment').spec.template.spec.volumes[0]).toEqual({ name: 'ogx-storage', persistentVolumeClaim: { claimName: 'old-llsd-pvc' } });
  });

  it('with `ogx.io/adopt-networking`: the legacy `<llsd>-service` selects this server\'s pods, next to `<name>-service` (MIGRATION §5.2)', () => {
    const objects = render(plan('', {}, '  annotations: {ogx.io/adopt-networking: old-llsd}\n'));
    const services = objects.filter((o) => o.kind === 'Service') as unknown as Array<{
      metadata: { name: string; labels: Record<string, string> };
      spec: { selector: unknown; ports: unknown };
    }>;
    expect(services.map((s) => s.metadata.name)).toEqual([services[0]?.metadata.name, 'old-llsd-service']);
    expect(services[1]?.metadata.labels['ogx.io/adopted-from']).toBe('old-llsd');
    // Not labelled with the instance: the ServiceMonitor does not scrape the same pods through it a second time.
    expect(services[1]?.metadata.labels['app.kubernetes.io/instance']).toBeUndefined();
    const monitor = get(objects, 'ServiceMonitor').spec.selector.matchLabels as Record<string, string>;
    expect(services.filter((s) => Object.entries(monitor).every(([k, v]) => s.metadata.labels[k] === v)).map((s) => s.metadata.name)).toEqual([
      'srv-service',
    ]);
    expect(services[1]?.spec.selector).toEqual({ app: 'ogx', 'app.kubernetes.io/instance': services[0]?.metadata.name.replace(/-service$/, '') });
    expect(services[1]?.spec.ports).toEqual(services[0]?.spec.ports);
  });

  it('with replicas 1: no PDB, no topology spread, no anti-affinity', () => {
    const objects = render(plan('workload: {replicas: 1}'));
    expect(find(objects, 'PodDisruptionBudget')).toBeUndefined();
    expect(get(objects, 'Deployment').spec.template.spec.topologySpreadConstraints).toBeUndefined();
    expect(get(objects, 'Deployment').spec.template.spec.affinity).toBeUndefined();
    expect(get(objects, 'Deployment').spec.replicas).toBe(1);
  });

  it('with replicas > 1: three spread constraints and an anti-affinity on the instance label, and a PDB maxUnavailable 1', () => {
    const objects = render(plan('workload: {replicas: 2}'));
    const pod = get(objects, 'Deployment').spec.template.spec;
    const instance = { matchLabels: { 'app.kubernetes.io/instance': 'srv' } };
    expect(pod.topologySpreadConstraints).toEqual(
      ['topology.kubernetes.io/region', 'topology.kubernetes.io/zone', 'kubernetes.io/hostname'].map((topologyKey) => ({
        maxSkew: 1,
        topologyKey,
        whenUnsatisfiable: 'ScheduleAnyway',
        labelSelector: instance,
      })),
    );
    expect(pod.affinity).toEqual({
      podAntiAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, podAffinityTerm: { labelSelector: instance, topologyKey: 'kubernetes.io/hostname' } }],
      },
    });
    const pdb = get(objects, 'PodDisruptionBudget');
    expect(pdb.spec).toEqual({ maxUnavailable: 1, selector: { matchLabels: selector } });
    expect(pdb.metadata.labels).toEqual({ app: 'ogx', 'app.kubernetes.io/instance': '', ...commonLabels });
  });

  it('with given topology constraints: those verbatim, and the anti-affinity still with replicas > 1', () => {
    const given = { maxSkew: 2, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' };
    const pod = get(render(plan(`workload:\n  replicas: 3\n  topologySpreadConstraints: [${JSON.stringify(given)}]`)), 'Deployment').spec.template.spec;
    expect(pod.topologySpreadConstraints).toEqual([given]);
    expect(pod.affinity.podAntiAffinity).toBeDefined();
  });
});

describe('HPA and PDB (§10, §11)', () => {
  it('autoscaling: an HPA min max(1, replicas, minReplicas), cpu then memory targets, and no Deployment replicas', () => {
    const objects = render(
      plan(
        'workload:\n  replicas: 2\n  autoscaling: {minReplicas: 1, maxReplicas: 5, targetCPUUtilizationPercentage: 70, targetMemoryUtilizationPercentage: 60}',
      ),
    );
    const hpa = get(objects, 'HorizontalPodAutoscaler');
    expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'srv' });
    expect(hpa.spec.minReplicas).toBe(2);
    expect(hpa.spec.maxReplicas).toBe(5);
    expect(hpa.spec.metrics.map((m: Obj) => [m.resource.name, m.resource.target.averageUtilization])).toEqual([
      ['cpu', 70],
      ['memory', 60],
    ]);
    expect(hpa.metadata.labels).toEqual({ app: 'ogx', 'app.kubernetes.io/instance': '', ...commonLabels });
    expect('replicas' in get(objects, 'Deployment').spec).toBe(false);
  });

  it('autoscaling without targets: cpu at 80', () => {
    const hpa = get(render(plan('workload:\n  autoscaling: {maxReplicas: 3}')), 'HorizontalPodAutoscaler');
    expect(hpa.spec.metrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }]);
    // the HPA maximum does not count as replicas (§3 "Replicas")
    expect(find(render(plan('workload:\n  autoscaling: {maxReplicas: 3}')), 'PodDisruptionBudget')).toBeUndefined();
  });

  it('an explicit PDB with one replica: minAvailable as given, a percentage stays a string', () => {
    const pdb = get(render(plan('workload:\n  podDisruptionBudget: {minAvailable: "50%"}')), 'PodDisruptionBudget');
    expect(pdb.spec).toEqual({ minAvailable: '50%', selector: { matchLabels: selector } });
  });
});

describe('Service (§7)', () => {
  it('is ClusterIP with `http` on the API port and `metrics` on 9464 (TestMonitoringConfiguration)', () => {
    const service = get(render(plan('')), 'Service');
    expect(service.spec).toEqual({
      type: 'ClusterIP',
      selector,
      ports: [
        { name: 'http', protocol: 'TCP', port: 8321, targetPort: 8321 },
        { name: 'metrics', protocol: 'TCP', port: 9464, targetPort: 9464 },
      ],
    });
  });

  it('names the API port `https`, with that appProtocol, when the config the pod reads serves TLS (not upstream); the probe is HTTPS', () => {
    const tls = { version: 2, server: { port: 8321, tls_certfile: '/etc/tls/tls.crt', tls_keyfile: '/etc/tls/tls.key' } };
    const served = { ...generated, value: tls };
    const objects = render(plan('', { mode: 'generated' }), served);
    expect(get(objects, 'Service').spec.ports).toEqual([
      { name: 'https', protocol: 'TCP', appProtocol: 'https', port: 8321, targetPort: 8321 },
      { name: 'metrics', protocol: 'TCP', port: 9464, targetPort: 9464 },
    ]);
    expect(container(objects).startupProbe.httpGet).toEqual({ path: '/v1/health', port: 8321, scheme: 'HTTPS' });
    // An overrideConfig serving TLS, as well; a certificate without its key serves none.
    const overridden = plan('overrideConfig: {name: mine, key: config.yaml}', {
      mode: 'override',
      overrideConfig: { configMapName: 'mine', key: 'config.yaml', text: '', value: tls },
    });
    expect(get(render(overridden), 'Service').spec.ports[0].name).toBe('https');
    const certOnly = { ...generated, value: { version: 2, server: { tls_certfile: '/etc/tls/tls.crt' } } };
    const plain = render(plan('', { mode: 'generated' }), certOnly);
    expect(get(plain, 'Service').spec.ports[0]).toEqual({ name: 'http', protocol: 'TCP', port: 8321, targetPort: 8321 });
    expect(container(plain).startupProbe.httpGet).toEqual({ path: '/v1/health', port: 8321 });
  });

  it('has no metrics port when it equals the API port, yet the container lists it twice (service transformer)', () => {
    const objects = render(plan('monitoring: {metricsPort: 8321}'));
    expect(get(objects, 'Service').spec.ports.map((p: Obj) => p.name)).toEqual(['http']);
    expect(container(objects).ports).toEqual([{ containerPort: 8321 }, { name: 'metrics', containerPort: 8321 }]);
  });
});

describe('monitoring (§3, §12, §13)', () => {
  it('custom metrics port 9090 reaches the env, the container port and the Service', () => {
    const objects = render(plan('monitoring: {metricsPort: 9090}'));
    expect(envValue(objects, 'OGX_METRICS_PORT')).toBe('9090');
    expect(container(objects).ports[1]).toEqual({ name: 'metrics', containerPort: 9090 });
    expect(get(objects, 'Service').spec.ports[1].port).toBe(9090);
  });

  it('disabled: no metrics env, one container port, one Service port, no ServiceMonitor, no PrometheusRule, no monitoring policy rule', () => {
    const objects = render(plan('monitoring: {enabled: false}'));
    expect(envNames(objects).filter((n) => n.startsWith('OGX_METRICS'))).toEqual([]);
    expect(container(objects).ports).toEqual([{ containerPort: 8321 }]);
    expect(get(objects, 'Service').spec.ports).toHaveLength(1);
    expect(find(objects, 'ServiceMonitor')).toBeUndefined();
    expect(find(objects, 'PrometheusRule')).toBeUndefined();
    expect(get(objects, 'NetworkPolicy').spec.ingress).toHaveLength(1);
  });

  it('a user OGX_METRICS_HOST overrides the operator one', () => {
    expect(envValue(render(plan('workload:\n  overrides:\n    env: [{name: OGX_METRICS_HOST, value: 127.0.0.1}]')), 'OGX_METRICS_HOST')).toBe('127.0.0.1');
  });

  it('ServiceMonitor: scrape label, the `metrics` port at /metrics every 60s (TestRenderManifest); selects its own Service only (not upstream)', () => {
    const monitor = get(render(plan('')), 'ServiceMonitor');
    expect(monitor.apiVersion).toBe('monitoring.coreos.com/v1');
    expect(monitor.metadata.labels).toEqual({ 'monitoring.opendatahub.io/scrape': 'true', ...commonLabels });
    expect(monitor.spec).toEqual({
      selector: { matchLabels: { 'app.kubernetes.io/managed-by': 'ogx-operator', 'app.kubernetes.io/part-of': 'ogx', 'app.kubernetes.io/instance': 'srv' } },
      endpoints: [{ targetPort: 'metrics', path: '/metrics', interval: '60s' }],
    });
  });

  it('ServiceMonitor: two OGXServers of a namespace each select their own Service and not the other\'s', () => {
    const one = render(plan(''));
    const two = plan('');
    const other = render({ ...two, server: { ...two.server, metadata: { ...two.server.metadata, name: 'two' } } });
    const services = [get(one, 'Service'), get(other, 'Service')];
    const selects = (monitor: Obj) =>
      services.filter((s) => Object.entries(monitor.spec.selector.matchLabels as Record<string, string>).every(([k, v]) => s.metadata.labels[k] === v));
    expect(selects(get(one, 'ServiceMonitor')).map((s) => s.metadata.name)).toEqual(['srv-service']);
    expect(selects(get(other, 'ServiceMonitor')).map((s) => s.metadata.name)).toEqual(['two-service']);
  });

  it('PrometheusRule: group telemetry.rules every 60s, five `ogx:api_info:max` rules by api', () => {
    const rule = get(render(plan('')), 'PrometheusRule');
    expect(rule.metadata.labels).toEqual(commonLabels);
    const [group] = rule.spec.groups;
    expect(rule.spec.groups).toHaveLength(1);
    expect(group.name).toBe('telemetry.rules');
    expect(group.interval).toBe('60s');
    expect(group.rules.map((r: Obj) => [r.record, r.labels.api])).toEqual(
      ['inference', 'vector_io', 'responses', 'rag', 'agentic'].map((api) => ['ogx:api_info:max', api]),
    );
    expect(group.rules[0].expr).toBe('clamp_max(sum(ogx_requests_total{api="inference"}) or vector(0), 1)');
  });

  it('the `monitoringCrds: false` option drops both monitoring objects, and keeps the metrics env and port', () => {
    const objects = render(plan(''), undefined, options({ monitoringCrds: false }));
    expect(find(objects, 'ServiceMonitor')).toBeUndefined();
    expect(find(objects, 'PrometheusRule')).toBeUndefined();
    expect(envValue(objects, 'OGX_METRICS_PORT')).toBe('9464');
  });
});

describe('NetworkPolicy (§8)', () => {
  const routerPeer = { namespaceSelector: { matchLabels: { 'network.openshift.io/policy-group': 'ingress' } } };
  const operatorPeer = { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ogx-k8s-operator-system' } } };
  const monitoringRule = {
    from: [{ namespaceSelector: { matchLabels: { 'network.openshift.io/policy-group': 'monitoring' } } }],
    ports: [{ protocol: 'TCP', port: 9464 }],
  };

  it('default without `spec.network`: own namespace and operator namespace on the API port, monitoring on the metrics port, Ingress only (TestReconcile)', () => {
    const policy = get(render(plan('')), 'NetworkPolicy');
    expect(policy.spec).toEqual({
      podSelector: { matchLabels: selector },
      policyTypes: ['Ingress'],
      ingress: [{ from: [{ podSelector: {} }, operatorPeer], ports: [{ protocol: 'TCP', port: 8321 }] }, monitoringRule],
    });
  });

  it('adds the OpenShift router peer iff `spec.network` is set, even `{}`', () => {
    expect(get(render(plan('network: {}')), 'NetworkPolicy').spec.ingress[0].from).toEqual([{ podSelector: {} }, operatorPeer, routerPeer]);
    expect(get(render(plan(''), undefined, options({ openshiftRouterPeer: 'on' })), 'NetworkPolicy').spec.ingress[0].from).toContainEqual(routerPeer);
    expect(get(render(plan('network: {}'), undefined, options({ openshiftRouterPeer: 'off' })), 'NetworkPolicy').spec.ingress[0].from).not.toContainEqual(
      routerPeer,
    );
  });

  it('uses the `ogxOperatorNamespace` option for the operator peer, and a custom port', () => {
    const policy = get(render(plan('network: {port: 9000}'), undefined, options({ ogxOperatorNamespace: 'ogx-system' })), 'NetworkPolicy');
    expect(policy.spec.ingress[0].from[1]).toEqual({ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ogx-system' } } });
    expect(policy.spec.ingress[0].ports).toEqual([{ protocol: 'TCP', port: 9000 }]);
  });

  it('a non-empty `policy.ingress` replaces every default rule; egress only with it, then policyTypes [Ingress, Egress]', () => {
    const rules = 'network:\n  policy:\n    ingress: [{from: [{namespaceSelector: {}}]}]\n    egress: [{to: [{ipBlock: {cidr: 10.0.0.0/8}}]}]';
    const policy = get(render(plan(rules)), 'NetworkPolicy');
    expect(policy.spec).toEqual({
      podSelector: { matchLabels: selector },
      policyTypes: ['Ingress', 'Egress'],
      ingress: [{ from: [{ namespaceSelector: {} }] }],
      egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/8' } }] }],
    });
  });

  it('egress without ingress is ignored; policyTypes is never read', () => {
    const policy = get(render(plan('network:\n  policy:\n    policyTypes: [Egress]\n    egress: [{to: [{ipBlock: {cidr: 10.0.0.0/8}}]}]')), 'NetworkPolicy');
    expect(policy.spec.policyTypes).toEqual(['Ingress']);
    expect(policy.spec.egress).toBeUndefined();
    expect(policy.spec.ingress[0].from).toContainEqual(routerPeer);
  });

  it('`policy.enabled: false`, or the `networkPolicy: off` option, gives none (TestNetworkPolicyConfiguration)', () => {
    expect(find(render(plan('network:\n  policy: {enabled: false}')), 'NetworkPolicy')).toBeUndefined();
    expect(find(render(plan(''), undefined, options({ networkPolicy: 'off' })), 'NetworkPolicy')).toBeUndefined();
  });
});

describe('Ingress (§9)', () => {
  const paths = (port: number) => ({ paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'srv-service', port: { number: port } } } }] });

  it('externalAccess.enabled: one rule, `/` Prefix to `<name>-service` on the port number, no class; at the hostname with the TLS Secret (PR #330)', () => {
    const access = 'network:\n  port: 9000\n  externalAccess: {enabled: true, hostname: ogx.example.com, tls: {secretName: ogx-cert}}';
    const ingress = get(render(plan(access)), 'Ingress');
    expect(ingress.metadata.name).toBe('srv-ingress');
    expect(ingress.metadata.labels).toEqual({ 'app.kubernetes.io/managed-by': 'ogx-operator', 'app.kubernetes.io/instance': 'srv' });
    expect(ingress.spec).toEqual({
      tls: [{ hosts: ['ogx.example.com'], secretName: 'ogx-cert' }],
      rules: [{ host: 'ogx.example.com', http: paths(9000) }],
    });
  });

  it('not without externalAccess, nor with enabled false', () => {
    expect(find(render(plan('')), 'Ingress')).toBeUndefined();
    expect(find(render(plan('network:\n  externalAccess: {enabled: false}')), 'Ingress')).toBeUndefined();
  });

  it('takes the `ingressClass` and `ingressAnnotations` options', () => {
    const ingress = get(
      render(
        plan(`network:\n  ${exposed}`),
        undefined,
        options({ ingressClass: 'nginx', ingressAnnotations: { 'a.example.com/b': 'c' } }),
      ),
      'Ingress',
    );
    expect(ingress.spec.ingressClassName).toBe('nginx');
    expect(ingress.metadata.annotations['a.example.com/b']).toBe('c');
  });
});

describe('ServiceAccount and RoleBinding (§5, §6)', () => {
  it('no RoleBinding by default (the anyuid ClusterRole exists only on OpenShift)', () => {
    expect(find(render(plan('')), 'RoleBinding')).toBeUndefined();
  });

  it('with `openshiftAnyuid`: `<name>-rb` binds anyuid to `<name>-sa`, even when the pod uses an override SA', () => {
    const binding = get(render(plan('workload:\n  overrides: {serviceAccountName: custom-sa}'), undefined, options({ openshiftAnyuid: true })), 'RoleBinding');
    expect(binding.metadata.labels).toEqual(commonLabels);
    expect(binding.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:openshift:scc:anyuid' });
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'srv-sa', namespace: 'team' }]);
  });
});

describe('release facts', () => {
  it('an image before OGX 1.3.0 (HOME=/root) gets HOME=/ after HF_HOME, so `~/.ogx` is the state volume', () => {
    const objects = render(plan('', { release: '1.2.2', image: 'docker.io/ogxai/distribution-starter:1.2.2' }));
    expect(envNames(objects).slice(0, 2)).toEqual(['HF_HOME', 'HOME']);
    expect(envValue(objects, 'HOME')).toBe('/');
    expect(envNames(render(plan('')))).not.toContain('HOME');
  });
});

describe('ingress controller and warnings', () => {
  it('the `ingressControllerNamespace` option admits that namespace to an externally accessible server (not upstream)', () => {
    const from = get(
      render(plan(`network:\n  ${exposed}`), undefined, options({ ingressControllerNamespace: 'ingress-nginx' })),
      'NetworkPolicy',
    ).spec.ingress[0].from;
    expect(from.at(-1)).toEqual({ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } } });
    const closed = get(render(plan('network: {}'), undefined, options({ ingressControllerNamespace: 'ingress-nginx' })), 'NetworkPolicy').spec.ingress[0].from;
    expect(closed).toHaveLength(3);
  });

  const controllerPeer = { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } } };
  const withController = options({ ingressControllerNamespace: 'ingress-nginx' });
  const access = 'network:\n  externalAccess: {enabled: true, hostname: ogx.example.com, tls: {secretName: ogx-cert}}';
  const userRules = `${access}\n  policy:\n    ingress: [{from: [{namespaceSelector: {matchLabels: {team: web}}}]}]`;

  it('warns, without the `ingressControllerNamespace` option, that the default policy may shut out the ingress controller', () => {
    expect(ogxObjectProblems(plan(access), undefined, defaultRenderOptions())).toEqual([
      {
        severity: 'warning',
        code: 'network-policy-ingress-peer',
        path: ['spec', 'network', 'externalAccess', 'enabled'],
        message: 'is on, but the NetworkPolicy "srv-network-policy" may shut out the ingress controller: ' +
          'set the `ingressControllerNamespace` option to its namespace (e.g. `ingress-nginx`) so the policy admits it; ' +
          'on OpenShift, whose routers it admits, set the `openshiftRouterPeer` option to `on`',
      },
    ]);
    // Said once the option is set, on OpenShift with the routers admitted, or with no policy; and never without externalAccess.
    expect(ogxObjectProblems(plan(access), undefined, withController)).toEqual([]);
    expect(ogxObjectProblems(plan(access), undefined, options({ openshiftRouterPeer: 'on' }))).toEqual([]);
    expect(ogxObjectProblems(plan(access), undefined, options({ networkPolicy: 'off' }))).toEqual([]);
    expect(ogxObjectProblems(plan(`${access}\n  policy: {enabled: false}`), undefined, defaultRenderOptions())).toEqual([]);
    expect(ogxObjectProblems(plan('network: {port: 9000}'), undefined, defaultRenderOptions())).toEqual([]);
  });

  it('warns at the user\'s `policy.ingress`, which replaces the default peers, even with `openshiftRouterPeer: on`; not when a rule admits everyone', () => {
    const [problem, ...more] = ogxObjectProblems(plan(userRules), undefined, options({ openshiftRouterPeer: 'on' }));
    expect(more).toEqual([]);
    expect(problem).toEqual({
      severity: 'warning',
      code: 'network-policy-ingress-peer',
      path: ['spec', 'network', 'policy', 'ingress'],
      message: 'replaces the default rules, and `externalAccess` is on: the NetworkPolicy "srv-network-policy" admits only these rules, ' +
        'which may shut out the ingress controller: set the `ingressControllerNamespace` option to its namespace (e.g. `ingress-nginx`), ' +
        'and a rule admitting it on the server port is added to yours',
    });
    expect(ogxObjectProblems(plan(userRules), undefined, withController)).toEqual([]);
    const open = `${access}\n  policy:\n    ingress: [{from: [{namespaceSelector: {}}]}]`;
    expect(ogxObjectProblems(plan(open), undefined, defaultRenderOptions())).toEqual([]);
  });

  it('with the option, adds a rule for the controller after the user\'s `policy.ingress` rules, unless one names that peer already (not upstream)', () => {
    const policy = get(render(plan(`${userRules}\n    egress: [{to: [{ipBlock: {cidr: 10.0.0.0/8}}]}]`), undefined, withController), 'NetworkPolicy');
    expect(policy.spec).toEqual({
      podSelector: { matchLabels: selector },
      policyTypes: ['Ingress', 'Egress'],
      ingress: [{ from: [{ namespaceSelector: { matchLabels: { team: 'web' } } }] }, { from: [controllerPeer], ports: [{ protocol: 'TCP', port: 8321 }] }],
      egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/8' } }] }],
    });
    const named = `${access}\n  policy:\n    ingress: [{from: [{namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: ingress-nginx}}}]}]`;
    expect(get(render(plan(named), undefined, withController), 'NetworkPolicy').spec.ingress).toEqual([{ from: [controllerPeer] }]);
    // Without externalAccess the user's rules stay as written.
    const closed = 'network:\n  policy:\n    ingress: [{from: [{podSelector: {}}]}]';
    expect(get(render(plan(closed), undefined, withController), 'NetworkPolicy').spec.ingress).toEqual([{ from: [{ podSelector: {} }] }]);
  });

  it('refuses an `externalAccess.hostname` that is no host name; takes a wildcard', () => {
    const access = (host: string) => plan(`network:\n  externalAccess: {enabled: true, hostname: "${host}", tls: {secretName: t}}`);
    const problems = ogxObjectProblems(access('https://ogx.example.com'), undefined, withController);
    expect(problems).toEqual([
      {
        path: ['spec', 'network', 'externalAccess', 'hostname'],
        message: 'must be a DNS name such as `ogx.example.com` (or `*.example.com`): lower case letters, digits, `-` and `.`, with no scheme, port or path',
      },
    ]);
    expect(ogxObjectProblems(access('*.apps.example.com'), undefined, withController)).toEqual([]);
    // An IP address is refused by the API server as an Ingress host (attacker F1).
    expect(ogxObjectProblems(access('1.2.3.4'), undefined, withController).map((p) => p.path.join('.'))).toEqual(['spec.network.externalAccess.hostname']);
  });

  it('warns that the Ingress sends plain HTTP to a server that serves TLS, unless an annotation says the backend protocol', () => {
    const tls = { ...generated, value: { version: 2, server: { tls_certfile: '/t/tls.crt', tls_keyfile: '/t/tls.key' } } };
    const [problem] = ogxObjectProblems(plan(access, { mode: 'generated' }), tls, withController);
    expect(problem?.code).toBe('backend-https');
    expect(problem?.path).toEqual(['spec', 'network', 'externalAccess', 'enabled']);
    expect(problem?.message).toContain('`nginx.ingress.kubernetes.io/backend-protocol: HTTPS`');
    const told = options({ ingressControllerNamespace: 'ingress-nginx', ingressAnnotations: { 'nginx.ingress.kubernetes.io/backend-protocol': 'HTTPS' } });
    expect(ogxObjectProblems(plan(access, { mode: 'generated' }), tls, told)).toEqual([]);
  });

  it('warns that `overrides.command` drops the entrypoint `--insecure` on OGX 1.2+, unless the config says insecure', () => {
    const withCommand = 'workload:\n  overrides:\n    command: [ogx, stack, run, /etc/ogx/config.yaml]';
    const [problem] = ogxObjectProblems(plan(withCommand), undefined, defaultRenderOptions());
    expect(problem?.severity).toBe('warning');
    expect(problem?.path).toEqual(['spec', 'workload', 'overrides', 'command']);
    expect(problem?.message).toContain('starts OGX 1.3.0 with `--insecure`; without it the server exits at start ("TLS required")');
    const insecure = { ...generated, value: { version: 2, server: { insecure: true } } };
    expect(ogxObjectProblems(plan(withCommand, { mode: 'generated' }), insecure, defaultRenderOptions())).toEqual([]);
    expect(ogxObjectProblems(plan(''), undefined, defaultRenderOptions())).toEqual([]);
    // A command that passes `--insecure` itself needs nothing more.
    const passes = plan('workload:\n  overrides:\n    command: [ogx, stack, run, --insecure, /etc/ogx/config.yaml]');
    expect(ogxObjectProblems(passes, undefined, defaultRenderOptions())).toEqual([]);
  });

  it('an overrideConfig without `server.insecure` under `overrides.command` on OGX 1.2+ is an error, as for an LLSD (the server exits)', () => {
    const spec = 'overrideConfig: {name: mine, key: run.yaml}\nworkload:\n  overrides:\n    command: [ogx, stack, run, /etc/ogx/config.yaml]';
    const override = (value: Record<string, unknown>) =>
      plan(spec, { mode: 'override', overrideConfig: { configMapName: 'mine', key: 'run.yaml', text: '', value } });
    expect(ogxObjectProblems(override({ version: 2, server: { port: 8321 } }), undefined, defaultRenderOptions())).toEqual([
      {
        path: ['spec', 'workload', 'overrides', 'command'],
        message: expect.stringContaining(
          'the server then exits at start ("TLS required") because the config.yaml of the ConfigMap "mine" (overrideConfig) sets neither ' +
            '`server.tls_certfile`/`tls_keyfile` nor `server.insecure: true`. Add `server: {insecure: true}` there',
        ),
      },
    ]);
    expect(ogxObjectProblems(override({ version: 2, server: { insecure: true } }), undefined, defaultRenderOptions())).toEqual([]);
    // Null or empty TLS files are no TLS: the server exits the same way (attacker F3).
    for (const files of [{ tls_certfile: null, tls_keyfile: null }, { tls_certfile: '', tls_keyfile: '' }]) {
      expect(ogxObjectProblems(override({ version: 2, server: files }), undefined, defaultRenderOptions()).map((p) => p.path.join('.'))).toEqual([
        'spec.workload.overrides.command',
      ]);
    }
  });
});

describe('valid Kubernetes', () => {
  const text = 'version: 2\n';
  it.each([
    ['none mode, defaults', plan('')],
    [
      'override mode, monitoring off, custom policy',
      plan('overrideConfig: {name: mine, key: run.yaml}\nmonitoring: {enabled: false}\nnetwork:\n  policy:\n    ingress: [{from: [{podSelector: {}}]}]', {
        mode: 'override',
        overrideConfig: { configMapName: 'mine', key: 'run.yaml', text, value: { version: 2 } },
      }),
    ],
    [
      'generated, workload in full',
      plan(
        'workload:\n  replicas: 3\n  workers: 2\n  storage: {size: 5Gi}\n  podDisruptionBudget: {maxUnavailable: "25%"}\n  resourceClaims: [{name: gpu, ' +
          'resourceClaimName: gpu}]\n  overrides:\n    volumes: [{name: extra, emptyDir: {}}]\n    volumeMounts: [{name: extra, mountPath: /extra}]',
        { mode: 'generated' },
      ),
    ],
  ])('%s: every object passes its schema', (_name, p) => {
    const objects = render(p, p.mode === 'generated' ? generated : undefined, options({ openshiftAnyuid: true }));
    expect(objects.map((o) => [o.kind, schemaProblem(o)]).filter(([, problem]) => problem !== undefined)).toEqual([]);
    expect(objects.length).toBeGreaterThanOrEqual(5);
  });
});
