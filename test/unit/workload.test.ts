// Issue 5, workload side (docs/config-generation.md; notes operator.md §1a): every `spec.workload` field, the
// PVC, HPA and PDB, server TLS and the CA bundle, and the warnings for state that pods cannot
// share. Renders go through the whole pipeline (process, build mode), so results are checked too.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isNode, parse } from 'yaml';
import type { KrmObject } from '../../src/krm/item.js';
import type { Result } from '../../src/krm/result.js';
import { parseCertificates } from '../../src/core/ca-bundle.js';
import { process as render } from '../../src/process.js';
import { itemsFrom, llsdYaml, releaseMetadata } from '../support.js';

const fixture = (name: string): string => readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8');
const rootCa = fixture('corp-root-ca.pem');
const otherCa = fixture('other-ca.pem');

interface Rendered {
  objects: Array<KrmObject & Record<string, any>>;
  results: Result[];
  byKind(kind: string): (KrmObject & Record<string, any>) | undefined;
  deployment: Record<string, any>;
  container: Record<string, any>;
  config: Record<string, any>;
}

/** Renders an LLSD (and other objects, as YAML documents) as `llsd-render build` does. */
function build(spec: string, others = '', metadata?: string): Rendered {
  const items = itemsFrom(`${llsdYaml(spec, metadata ?? releaseMetadata('0.7.1'))}${others ? `---\n${others}` : ''}`);
  const { items: out, results } = render({ mode: 'build', items });
  const objects = out.map((item) => (isNode(item) ? item.toJSON() : item)) as Rendered['objects'];
  const generated = objects.filter((o) => o.metadata.annotations?.['llamastack.io/generated-from'] !== undefined);
  const byKind = (kind: string) => generated.find((o) => o.kind === kind);
  const deployment = byKind('Deployment')?.spec ?? {};
  const configMap = generated.find((o) => o.kind === 'ConfigMap' && o.data?.['config.yaml'] !== undefined);
  return {
    objects: generated,
    results,
    byKind,
    deployment,
    container: deployment.template?.spec?.containers?.[0] ?? {},
    config: configMap ? (parse(configMap.data['config.yaml']) as Record<string, any>) : {},
  };
}

const errors = (r: Rendered) => r.results.filter((x) => x.severity === 'error');
const warnings = (r: Rendered) => r.results.filter((x) => x.severity === 'warning').map((x) => ({ field: x.field?.path, message: x.message }));
const envOf = (r: Rendered) => Object.fromEntries((r.container.env as Array<{ name: string; value?: string }>).map((e) => [e.name, e.value]));
const starter = 'distribution: {name: starter}';
const ogx = 'name: demo\n  namespace: ai\n  annotations: {llamastack.io/release: "0.8.0"}';
const sharedState = 'storage:\n  kv: {type: redis, host: redis}\n  sql: {type: postgres, host: pg, user: llama}';

describe('workers', () => {
  it('go to server.workers (0.3.1+), and set cpu requests and limits as the operator does', () => {
    const r = build(`${starter}\nworkload: {workers: 3}`);
    expect(errors(r)).toEqual([]);
    expect(r.config.server).toEqual({ port: 8321, workers: 3 });
    expect(r.container.resources).toEqual({ requests: { cpu: '3', memory: '1Gi' }, limits: { cpu: '3', memory: '1Gi' } });
  });

  it('on a release without server.workers are a warning, and config.yaml gets no such key', () => {
    const r = build(
      'distribution: {name: remote-vllm}\nworkload:\n  workers: 2\n  overrides:\n    env: [{name: INFERENCE_MODEL, value: m}]',
      '',
      releaseMetadata('0.2.14'),
    );
    expect(errors(r)).toEqual([]);
    expect(r.config.server?.workers).toBeUndefined();
    expect(warnings(r)).toEqual([
      {
        field: 'spec.workload.workers',
        message: expect.stringMatching(/^has no effect on llama-stack 0\.2\.14, which has no `server\.workers` setting \(it came in 0\.3\.1\)/),
      },
    ]);
  });
});

describe('resources', () => {
  it('default to 1 cpu and 1Gi requested, no limits, without workers', () => {
    expect(build(starter).container.resources).toEqual({ requests: { cpu: '1', memory: '1Gi' } });
  });

  it("keep the LLSD's values and fill in only what is missing", () => {
    const r = build(`${starter}\nworkload:\n  workers: 2\n  resources: {requests: {memory: 4Gi}, limits: {memory: 6Gi}}`);
    expect(r.container.resources).toEqual({ requests: { memory: '4Gi', cpu: '2' }, limits: { memory: '6Gi', cpu: '2' } });
  });

  it('leave a request to Kubernetes when only its limit is given (a default above the limit would be refused)', () => {
    const r = build(`${starter}\nworkload:\n  resources: {limits: {cpu: 500m}}`);
    expect(r.container.resources).toEqual({ requests: { memory: '1Gi' }, limits: { cpu: '500m' } });
  });
});

describe('replicas, autoscaling and disruption budget', () => {
  it('one replica: no HPA, no PDB, no spreading', () => {
    const r = build(starter);
    expect(r.deployment.replicas).toBe(1);
    expect(r.objects.map((o) => o.kind)).toEqual(['ConfigMap', 'ServiceAccount', 'Deployment', 'Service']);
    expect(r.deployment.template.spec.affinity).toBeUndefined();
    expect(r.deployment.template.spec.topologySpreadConstraints).toBeUndefined();
  });

  it('more than one replica: the operator\'s spreading, anti-affinity and maxUnavailable 1, selecting name + instance', () => {
    const r = build(`${starter}\n${sharedState}\nworkload: {replicas: 2}`);
    const selector = { matchLabels: { 'app.kubernetes.io/name': 'llama-stack', 'app.kubernetes.io/instance': 'demo' } };
    const pod = r.deployment.template.spec;
    expect(r.deployment.replicas).toBe(2);
    expect(pod.topologySpreadConstraints).toEqual(
      ['topology.kubernetes.io/region', 'topology.kubernetes.io/zone', 'kubernetes.io/hostname'].map((topologyKey) => ({
        maxSkew: 1,
        topologyKey,
        whenUnsatisfiable: 'ScheduleAnyway',
        labelSelector: selector,
      })),
    );
    expect(pod.affinity).toEqual({
      podAntiAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, podAffinityTerm: { labelSelector: selector, topologyKey: 'kubernetes.io/hostname' } }],
      },
    });
    const pdb = r.byKind('PodDisruptionBudget');
    expect(pdb?.apiVersion).toBe('policy/v1');
    expect(pdb?.metadata.name).toBe('demo-pdb');
    expect(pdb?.spec).toEqual({ maxUnavailable: 1, selector });
  });

  it("the LLSD's topology spread constraints are used as written", () => {
    const constraint = { maxSkew: 2, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'DoNotSchedule' };
    const r = build(`${starter}\nworkload:\n  topologySpreadConstraints: [${JSON.stringify(constraint)}]`);
    expect(r.deployment.template.spec.topologySpreadConstraints).toEqual([constraint]);
  });

  it('autoscaling: replicas left to the HPA; minReplicas = max(1, replicas, minReplicas); CPU 80% by default', () => {
    const r = build(`${starter}\n${sharedState}\nworkload:\n  replicas: 3\n  autoscaling: {minReplicas: 2, maxReplicas: 5}`);
    expect(r.deployment).not.toHaveProperty('replicas');
    const hpa = r.byKind('HorizontalPodAutoscaler');
    expect(hpa?.apiVersion).toBe('autoscaling/v2');
    expect(hpa?.metadata.name).toBe('demo-hpa');
    expect(hpa?.spec).toEqual({
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'demo' },
      minReplicas: 3,
      maxReplicas: 5,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }],
    });
    // Up to five pods: the spreading and disruption defaults apply.
    expect(r.byKind('PodDisruptionBudget')?.spec.maxUnavailable).toBe(1);
    expect(r.deployment.template.spec.topologySpreadConstraints).toHaveLength(3);
  });

  it('autoscaling targets: CPU and memory as given', () => {
    const r = build(`${starter}\nworkload:\n  autoscaling: {maxReplicas: 1, targetCPUUtilization: 60, targetMemoryUtilization: 70}`);
    const hpa = r.byKind('HorizontalPodAutoscaler');
    expect(hpa?.spec.minReplicas).toBe(1);
    expect(hpa?.spec.metrics.map((m: any) => [m.resource.name, m.resource.target.averageUtilization])).toEqual([
      ['cpu', 60],
      ['memory', 70],
    ]);
    expect(r.byKind('PodDisruptionBudget')).toBeUndefined();
  });

  it("the LLSD's disruption budget is used as written", () => {
    const r = build(`${starter}\n${sharedState}\nworkload:\n  replicas: 4\n  podDisruptionBudget: {minAvailable: "50%"}`);
    expect(r.byKind('PodDisruptionBudget')?.spec).toEqual({ minAvailable: '50%', selector: expect.any(Object) });
  });

  it('replicas above autoscaling.maxReplicas are an error (the HPA minimum would exceed its maximum)', () => {
    const r = build(`${starter}\nworkload:\n  replicas: 4\n  autoscaling: {maxReplicas: 2}`);
    expect(errors(r).map((e) => [e.field?.path, e.message])).toEqual([
      ['spec.workload.replicas', expect.stringMatching(/^is 4, above `autoscaling\.maxReplicas` \(2\)/)],
    ]);
  });
});

describe('state that pods cannot share', () => {
  it('sqlite with more than one pod is a warning naming the stores; none with one pod', () => {
    expect(warnings(build(`${starter}\nstorage:\n  kv: {type: sqlite}\n  sql: {type: sqlite}`))).toEqual([]);
    const r = build(`${starter}\nstorage:\n  kv: {type: sqlite}\nworkload: {replicas: 2}`);
    expect(errors(r)).toEqual([]);
    expect(warnings(r)).toEqual([
      {
        field: 'spec.workload.replicas',
        message: expect.stringMatching(
          /^runs 2 pods, but the config keeps state on each pod's own volume \(sqlite: storage\.backends\.kv_default, storage\.backends\.sql_default; .*each pod would have its own copy/,
        ),
      },
    ]);
  });

  it("the distribution's default sqlite counts too, and autoscaling is more than one pod", () => {
    const [warning] = warnings(build(`${starter}\nworkload:\n  autoscaling: {maxReplicas: 3}`));
    expect(warning?.field).toBe('spec.workload.autoscaling.maxReplicas');
    expect(warning?.message).toMatch(
      /^lets the autoscaler run up to 3 pods, but the distribution's default config keeps state .*sqlite: storage\.backends\.kv_default/,
    );
  });

  it('with postgres and redis only the providers that keep their own files are named', () => {
    const [warning] = warnings(build(`${starter}\n${sharedState}\nworkload: {replicas: 2}`));
    expect(warning?.message).not.toMatch(/sqlite:/);
    expect(warning?.message).toMatch(/provider files: vector_io sqlite-vec \(db_path\), files builtin-files \(storage_dir\)/);
  });

  it('a ReadWriteOnce PVC with more than one pod is a warning', () => {
    const r = build(`${starter}\nworkload:\n  replicas: 2\n  storage: {}`);
    expect(warnings(r)).toEqual([
      {
        field: 'spec.workload.replicas',
        message: expect.stringMatching(/^runs 2 pods, but `workload\.storage` is a ReadWriteOnce volume, which attaches to one node only/),
      },
    ]);
  });

  it('a budget that allows no eviction of the only pod is a warning', () => {
    const r = build(`${starter}\nworkload:\n  podDisruptionBudget: {minAvailable: 1}`);
    expect(warnings(r)).toEqual([
      { field: 'spec.workload.podDisruptionBudget.minAvailable', message: expect.stringMatching(/^is 1 with 1 replica: no pod may ever be evicted/) },
    ]);
    expect(r.byKind('PodDisruptionBudget')?.spec.minAvailable).toBe(1);
  });
});

describe('storage', () => {
  it('a PVC <name>-pvc (ReadWriteOnce, 10Gi) replaces the emptyDir, at the image home; Recreate; HF_HOME on it', () => {
    const r = build(`${starter}\nworkload:\n  storage: {}`, '', ogx);
    const pvc = r.byKind('PersistentVolumeClaim');
    expect(pvc?.metadata.name).toBe('demo-pvc');
    expect(pvc?.spec).toEqual({ accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '10Gi' } } });
    expect(r.deployment.strategy).toEqual({ type: 'Recreate' });
    expect(r.deployment.template.spec.volumes[1]).toEqual({ name: 'lls-storage', persistentVolumeClaim: { claimName: 'demo-pvc' } });
    expect(r.container.volumeMounts[1]).toEqual({ name: 'lls-storage', mountPath: '/.ogx' });
    expect(envOf(r)).toMatchObject({ OGX_CONFIG_DIR: '/.ogx', HF_HOME: '/.ogx' });
    // At the image home, the base config's own paths are on the volume already.
    expect(envOf(r)).not.toHaveProperty('SQLITE_STORE_DIR');
  });

  it('without workload.storage: an emptyDir, rolling updates, no HF_HOME', () => {
    const r = build(starter);
    expect(r.deployment.strategy).toBeUndefined();
    expect(r.deployment.template.spec.volumes[1]).toEqual({ name: 'lls-storage', emptyDir: {} });
    expect(envOf(r)).not.toHaveProperty('HF_HOME');
  });

  it('mounted elsewhere: sqlite files of spec.storage and the base config state directories follow the volume', () => {
    const r = build(`${starter}\nstorage:\n  kv: {type: sqlite}\nworkload:\n  storage: {size: 5Gi, mountPath: /var/lib/llama}`);
    expect(r.byKind('PersistentVolumeClaim')?.spec.resources.requests.storage).toBe('5Gi');
    expect(r.config.storage.backends.kv_default).toEqual({ type: 'kv_sqlite', db_path: '/var/lib/llama/kvstore.db' });
    expect(r.container.volumeMounts[1]).toEqual({ name: 'lls-storage', mountPath: '/var/lib/llama' });
    expect(envOf(r)).toMatchObject({
      HF_HOME: '/var/lib/llama',
      SQLITE_STORE_DIR: '/var/lib/llama/distributions/starter',
      FILES_STORAGE_DIR: '/var/lib/llama/distributions/starter/files',
    });
  });

  it("the user's env wins over a relocated default", () => {
    const r = build(`${starter}\nworkload:\n  storage: {mountPath: /data}\n  overrides:\n    env: [{name: SQLITE_STORE_DIR, value: /data/db}]`);
    expect(envOf(r).SQLITE_STORE_DIR).toBe('/data/db');
  });
});

describe('overrides', () => {
  it('terminationGracePeriodSeconds, command, volumes and mounts are set as written', () => {
    const r = build(
      `${starter}\nworkload:\n  overrides:\n    terminationGracePeriodSeconds: 90\n    command: [ogx, stack, run]\n    volumes: [{name: extra, emptyDir: ` +
        `{}}]\n    volumeMounts: [{name: extra, mountPath: /extra}]`,
    );
    const pod = r.deployment.template.spec;
    expect(pod.terminationGracePeriodSeconds).toBe(90);
    expect(r.container.command).toEqual(['ogx', 'stack', 'run']);
    expect(pod.volumes.at(-1)).toEqual({ name: 'extra', emptyDir: {} });
    expect(r.container.volumeMounts.at(-1)).toEqual({ name: 'extra', mountPath: '/extra' });
  });
});

describe('server TLS', () => {
  const tlsSecret = 'apiVersion: v1\nkind: Secret\nmetadata: {name: demo-tls, namespace: ai}\ntype: kubernetes.io/tls\nstringData: {tls.crt: x, tls.key: y}\n';

  it('mounts the Secret read-only, names its files in server.tls_*, and probes with HTTPS', () => {
    const r = build(`${starter}\nnetworking:\n  tls: {enabled: true, secretName: demo-tls}`, tlsSecret);
    expect(errors(r)).toEqual([]);
    expect(r.config.server).toEqual({ port: 8321, tls_certfile: '/etc/llama-stack-tls/tls.crt', tls_keyfile: '/etc/llama-stack-tls/tls.key' });
    expect(r.container.volumeMounts).toContainEqual({ name: 'tls', mountPath: '/etc/llama-stack-tls', readOnly: true });
    expect(r.deployment.template.spec.volumes).toContainEqual({
      name: 'tls',
      secret: { secretName: 'demo-tls', items: [{ key: 'tls.crt', path: 'tls.crt' }, { key: 'tls.key', path: 'tls.key' }] },
    });
    for (const probe of ['startupProbe', 'readinessProbe', 'livenessProbe']) expect(r.container[probe].httpGet.scheme).toBe('HTTPS');
  });

  it('`tls: {enabled: false}` changes nothing', () => {
    const plain = build(starter);
    const off = build(`${starter}\nnetworking:\n  tls: {enabled: false}`);
    expect(off.objects).toEqual(plain.objects);
  });

  const override = (server: string) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: full, namespace: ai}\ndata:\n  config.yaml: |\n    version: 2\n    distro_name: custom\n    apis: ` +
      `[inference]\n    providers:\n      inference:\n        - {provider_id: ollama, provider_type: remote::ollama, config: {base_url: ` +
      `"http://ollama:11434/v1"}}\n    storage:\n      backends:\n        kv_default: {type: kv_sqlite, db_path: /.llama/kv.db}\n        sql_default: ` +
      `{type: sql_sqlite, db_path: /.llama/sql.db}\n      stores:\n        metadata: {backend: kv_default, namespace: registry}\n        inference: ` +
      `{backend: sql_default, table_name: inference_store}\n        conversations: {backend: sql_default, table_name: openai_conversations}\n        ` +
      `prompts: {backend: kv_default, namespace: prompts}\n    server: ${server}\n---\n${tlsSecret}`;
  const withOverride = `${starter}\noverrideConfig: {configMapName: full}\nnetworking:\n  tls: {enabled: true, secretName: demo-tls}`;

  it('with overrideConfig: the config must name the mounted files; other paths are a warning', () => {
    expect(errors(build(withOverride, override('{port: 8321}'))).map((e) => e.field?.path)).toEqual(['spec.networking.tls.enabled']);
    expect(
      build(withOverride, override('{tls_certfile: /etc/llama-stack-tls/tls.crt, tls_keyfile: /etc/llama-stack-tls/tls.key}')).results.filter(
        (x) => x.severity !== 'info',
      ),
    ).toEqual([]);
    const elsewhere = build(withOverride, override('{tls_certfile: /certs/tls.crt, tls_keyfile: /etc/llama-stack-tls/tls.key}'));
    expect(errors(elsewhere)).toEqual([]);
    expect(warnings(elsewhere)).toEqual([
      {
        field: 'spec.networking.tls.secretName',
        message: expect.stringMatching(/^is mounted at \/etc\/llama-stack-tls\/tls\.crt, but .* sets `server\.tls_certfile: \/certs\/tls\.crt`/),
      },
    ]);
  });

  it('an overrideConfig that serves HTTPS without networking.tls is a warning (HTTP probes)', () => {
    const r = build(`${starter}\noverrideConfig: {configMapName: full}`, override('{tls_certfile: /a.crt, tls_keyfile: /a.key}'));
    expect(warnings(r).map((w) => w.field)).toEqual(['spec.overrideConfig.configMapName']);
  });
});

describe('CA bundle', () => {
  const caConfigMap = (data: Record<string, string>) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: corp-ca, namespace: ai}\ndata: ${JSON.stringify(data)}\n`;
  const caSpec = (keys?: string[]) =>
    `${starter}\nnetworking:\n  tls:\n    caBundle: {configMapName: corp-ca${keys ? `, configMapKeys: ${JSON.stringify(keys)}` : ''}}`;

  it('builds an immutable hash-named ConfigMap of the valid certificates, mounts it and points SSL_CERT_FILE and REQUESTS_CA_BUNDLE at it', () => {
    const r = build(caSpec(['a.pem', 'b.pem']), caConfigMap({ 'a.pem': rootCa, 'b.pem': `# comment\n${otherCa}`, 'c.pem': 'ignored' }));
    expect(errors(r)).toEqual([]);
    const bundle = r.objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('demo-ca-bundle-'));
    expect(bundle?.metadata.name).toMatch(/^demo-ca-bundle-[0-9a-f]{10}$/);
    expect(bundle?.immutable).toBe(true);
    expect(bundle?.metadata.labels?.['app.kubernetes.io/component']).toBe('ca-bundle');
    expect(bundle?.data).toEqual({ 'ca-bundle.crt': `${rootCa}${otherCa}` });
    expect(r.objects.at(-1)).toBe(bundle);
    expect(r.deployment.template.spec.volumes).toContainEqual({
      name: 'ca-bundle',
      configMap: { name: bundle?.metadata.name, items: [{ key: 'ca-bundle.crt', path: 'ca-bundle.crt' }] },
    });
    expect(r.container.volumeMounts).toContainEqual({ name: 'ca-bundle', mountPath: '/etc/ssl/certs/ca-bundle', readOnly: true });
    expect(envOf(r)).toMatchObject({ SSL_CERT_FILE: '/etc/ssl/certs/ca-bundle/ca-bundle.crt', REQUESTS_CA_BUNDLE: '/etc/ssl/certs/ca-bundle/ca-bundle.crt' });
    // CA only: the server itself still serves HTTP.
    expect(r.container.readinessProbe.httpGet.scheme).toBe('HTTP');
  });

  it('the default key is ca-bundle.crt; other content gives another name', () => {
    const a = build(caSpec(), caConfigMap({ 'ca-bundle.crt': rootCa }));
    const b = build(caSpec(), caConfigMap({ 'ca-bundle.crt': otherCa }));
    const name = (r: Rendered) => r.objects.find((o) => o.metadata.name.startsWith('demo-ca-bundle-'))?.metadata.name;
    expect(name(a)).toBeDefined();
    expect(name(a)).not.toBe(name(b));
  });

  it('zero certificates is an error; a missing key is an error naming the keys there are', () => {
    expect(errors(build(caSpec(), caConfigMap({ 'ca-bundle.crt': '  \n' }))).map((e) => [e.field?.path, e.message])).toEqual([
      [
        'spec.networking.tls.caBundle.configMapName',
        expect.stringMatching(/^names the ConfigMap "corp-ca", which holds no valid PEM certificate under "ca-bundle\.crt"/),
      ],
    ]);
    expect(errors(build(caSpec(['x.pem']), caConfigMap({ 'a.pem': rootCa }))).map((e) => [e.field?.path, e.message])).toEqual([
      ['spec.networking.tls.caBundle.configMapKeys[0]', 'names the key "x.pem", which the ConfigMap "corp-ca" does not have; its keys: a.pem'],
    ]);
  });

  it('a broken certificate block is left out with a warning', () => {
    const broken = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n';
    const r = build(caSpec(), caConfigMap({ 'ca-bundle.crt': `${broken}${rootCa}` }));
    expect(warnings(r)).toEqual([
      {
        field: 'spec.networking.tls.caBundle.configMapName',
        message:
          'names the ConfigMap "corp-ca", whose key "ca-bundle.crt" holds 1 CERTIFICATE block that is not a valid X.509 certificate; it is left out of the ' +
            'bundle',
      },
    ]);
    expect(r.objects.find((o) => o.metadata.name.startsWith('demo-ca-bundle-'))?.data['ca-bundle.crt']).toBe(rootCa);
  });
});

describe('parseCertificates', () => {
  const body = (pem: string) => pem.replace(/-----[A-Z ]+-----|\s/g, '');

  it('keeps blocks that are base64 DER of an X.509 certificate, re-encoded', () => {
    const squashed = `-----BEGIN CERTIFICATE-----${body(rootCa)}-----END CERTIFICATE-----`;
    expect(parseCertificates(`text before\n${squashed}\ntext after`)).toEqual({ valid: [rootCa], invalid: 0 });
  });

  it('counts blocks that are not base64, or not a certificate, as invalid', () => {
    const notBase64 = '-----BEGIN CERTIFICATE-----\nnot*base64\n-----END CERTIFICATE-----';
    const notDer = `-----BEGIN CERTIFICATE-----\n${Buffer.from('hello, world').toString('base64')}\n-----END CERTIFICATE-----`;
    const truncated = `-----BEGIN CERTIFICATE-----\n${body(rootCa).slice(0, 200)}\n-----END CERTIFICATE-----`;
    expect(parseCertificates(`${notBase64}\n${notDer}\n${truncated}\n${otherCa}`)).toEqual({ valid: [otherCa], invalid: 3 });
  });

  it('ignores PEM blocks of other types (keys, CRLs)', () => {
    expect(parseCertificates('-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n')).toEqual({ valid: [], invalid: 0 });
  });
});

describe('a changed provider', () => {
  it('changes the ConfigMap name and the pod template annotation, and nothing else in the Deployment', () => {
    const spec = (endpoint: string) =>
      `${starter}\nproviders:\n  inference: {provider: vllm, endpoint: "${endpoint}"}\nworkload: {workers: 2}\nnetworking:\n  port: 9000`;
    const a = build(spec('http://vllm-a:8000/v1'));
    const b = build(spec('http://vllm-b:8000/v1'));
    const configA = a.byKind('ConfigMap')?.metadata.name;
    const configB = b.byKind('ConfigMap')?.metadata.name;
    expect(configA).not.toBe(configB);
    const differences = diff(a.byKind('Deployment'), b.byKind('Deployment'));
    const hashA = a.deployment.template.metadata.annotations['llamastack.io/config-hash'];
    const hashB = b.deployment.template.metadata.annotations['llamastack.io/config-hash'];
    expect(differences).toEqual([
      { path: 'spec.template.metadata.annotations.llamastack.io/config-hash', a: hashA, b: hashB },
      { path: 'spec.template.spec.volumes.0.configMap.name', a: configA, b: configB },
    ]);
    expect(configA).toBe(`demo-config-${hashA.slice(0, 10)}`);
  });
});

/** Every leaf that differs between two plain values, by dotted path. */
function diff(a: unknown, b: unknown, path: string[] = []): Array<{ path: string; a: unknown; b: unknown }> {
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    return keys.flatMap((key) => diff((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], [...path, key]));
  }
  return Object.is(a, b) ? [] : [{ path: path.join('.'), a, b }];
}
