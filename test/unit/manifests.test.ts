import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseLlsd } from '../../src/llsd/llsd.js';
import { defaultRenderOptions } from '../../src/core/render-config.js';
import { generateConfig } from '../../src/llsd/generate.js';
import type { KrmObject } from '../../src/krm/item.js';
import { renderObjects } from '../../src/manifests/index.js';
import { inventoryOf } from '../../src/krm/inventory.js';
import { planLlsd } from '../../src/llsd/plan.js';
import { itemFrom, llsdYaml, releaseMetadata } from '../support.js';

function render(spec: string, metadata?: string, options = defaultRenderOptions()): KrmObject[] {
  const parsed = parseLlsd(itemFrom(llsdYaml(spec, metadata ?? releaseMetadata('0.7.1'))).object);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const planned = planLlsd(parsed.llsd, inventoryOf([]));
  if (!planned.ok) throw new Error(JSON.stringify(planned.problems));
  const generated = generateConfig(planned.plan);
  if (!generated.ok) throw new Error(JSON.stringify(generated.problems));
  return renderObjects(planned.plan, generated.config, options);
}

const vllmSpec =
  'distribution: {name: starter}\nproviders:\n' +
  '  inference: {provider: vllm, endpoint: "http://vllm:8000/v1", apiKey: {secretKeyRef: {name: creds, key: token}}}';
const byKind = (objects: KrmObject[], kind: string) => objects.find((o) => o.kind === kind) as KrmObject & { spec: any; data: any };

describe('objects of one LLSD', () => {
  it('come in a fixed order with the operator-compatible names', () => {
    expect(render(vllmSpec).map((o) => `${o.kind}/${o.metadata.name}`)).toEqual([
      expect.stringMatching(/^ConfigMap\/demo-config-[0-9a-f]{10}$/),
      'ServiceAccount/demo-sa',
      'Deployment/demo',
      'Service/demo-service',
    ]);
  });

  it('every object has the §6 labels, the owner annotation and the LLSD namespace; user labels pass, tool labels do not', () => {
    const objects = render(vllmSpec, `${releaseMetadata('0.7.1')}\n  labels: {team: search, app.kubernetes.io/version: "1"}`);
    for (const object of objects) {
      expect(object.metadata.namespace).toBe('ai');
      expect(object.metadata.annotations?.['llamastack.io/generated-from']).toBe('ai/demo');
      expect(object.metadata.labels).toMatchObject({
        team: 'search',
        'app.kubernetes.io/name': 'llama-stack',
        'app.kubernetes.io/instance': 'demo',
        'app.kubernetes.io/part-of': 'llama-stack',
        'app.kubernetes.io/managed-by': 'llsd-render',
      });
      expect(object.metadata.labels?.['app.kubernetes.io/version']).toBeUndefined();
    }
  });
});

describe('ConfigMap', () => {
  it('is immutable, named by the config hash, and carries the GitOps annotations', () => {
    const cm = byKind(render(vllmSpec), 'ConfigMap');
    const deployment = byKind(render(vllmSpec), 'Deployment');
    const hash = deployment.spec.template.metadata.annotations['llamastack.io/config-hash'];
    expect(cm.immutable).toBe(true);
    expect(cm.metadata.name).toBe(`demo-config-${hash.slice(0, 10)}`);
    expect(Object.keys(cm.data)).toEqual(['config.yaml']);
    expect(cm.metadata.annotations).toMatchObject({
      'kustomize.toolkit.fluxcd.io/substitute': 'disabled',
      'argocd.argoproj.io/sync-options': 'PruneLast=true',
    });
  });

  it('GitOps annotations can be switched off', () => {
    const cm = byKind(render(vllmSpec, undefined, { ...defaultRenderOptions(), gitopsAnnotations: false }), 'ConfigMap');
    expect(Object.keys(cm.metadata.annotations ?? {})).toEqual(['llamastack.io/generated-from']);
  });
});

describe('Deployment', () => {
  it('mounts the config, takes the secret only through secretKeyRef, and starts the image entrypoint on the config', () => {
    const objects = render(vllmSpec);
    const cm = byKind(objects, 'ConfigMap');
    const pod = byKind(objects, 'Deployment').spec.template.spec;
    const [container] = pod.containers;
    expect(pod.volumes[0]).toEqual({ name: 'config', configMap: { name: cm.metadata.name } });
    expect(container.volumeMounts[0]).toEqual({ name: 'config', mountPath: '/etc/llama-stack', readOnly: true });
    expect(container.env).toEqual([
      { name: 'RUN_CONFIG_PATH', value: '/etc/llama-stack/config.yaml' },
      { name: 'LLAMA_STACK_PORT', value: '8321' },
      // the 0.7.1 image runs as root (HOME=/root): HOME=/ puts `~/.llama` on the state volume
      { name: 'HOME', value: '/' },
      { name: 'LLSD_VLLM_API_KEY', valueFrom: { secretKeyRef: { name: 'creds', key: 'token' } } },
    ]);
    expect(container.image).toBe('docker.io/llamastack/distribution-starter:0.7.1');
    for (const probe of ['startupProbe', 'readinessProbe', 'livenessProbe']) {
      expect(container[probe].httpGet).toEqual({ path: '/v1/health', port: 'http', scheme: 'HTTP' });
    }
    expect(container.securityContext).toEqual({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
  });

  it('selects pods by name and instance only', () => {
    const deployment = byKind(render(vllmSpec, 'name: demo\n  labels: {team: x}\n  annotations: {llamastack.io/release: "0.7.1"}'), 'Deployment');
    expect(deployment.spec.selector).toEqual({ matchLabels: { 'app.kubernetes.io/name': 'llama-stack', 'app.kubernetes.io/instance': 'demo' } });
    expect(deployment.spec.template.metadata.labels).toMatchObject(deployment.spec.selector.matchLabels);
  });

  it('honours port, replicas, resources and overrides; user env wins on a name clash', () => {
    const objects = render(
      `${vllmSpec}\nnetworking: {port: 9000}\nworkload:\n  replicas: 3\n  resources: {requests: {cpu: 2}}\n  overrides:\n    serviceAccountName: mine\n` +
        '    env: [{name: LLAMA_STACK_LOGGING, value: "all=debug"}, {name: LLAMA_STACK_PORT, value: "9000"}]\n    args: ["--verbose"]',
    );
    const deployment = byKind(objects, 'Deployment');
    const [container] = deployment.spec.template.spec.containers;
    expect(deployment.spec.replicas).toBe(3);
    expect(deployment.spec.template.spec.serviceAccountName).toBe('mine');
    expect(objects.some((o) => o.kind === 'ServiceAccount')).toBe(false);
    expect(container.ports).toEqual([{ name: 'http', containerPort: 9000, protocol: 'TCP' }]);
    expect(container.resources).toEqual({ requests: { cpu: 2, memory: '1Gi' } });
    expect(container.args).toEqual(['--verbose']);
    const envNames = container.env.map((e: { name: string }) => e.name);
    expect(envNames).toEqual(['RUN_CONFIG_PATH', 'LLAMA_STACK_PORT', 'HOME', 'LLSD_VLLM_API_KEY', 'LLAMA_STACK_LOGGING']);
    expect(byKind(objects, 'Service').spec.ports).toEqual([{ name: 'http', protocol: 'TCP', port: 9000, targetPort: 'http' }]);
  });

  it('a server that serves TLS names its port `https` (container, probes, Service with appProtocol, Ingress backend, Route)', () => {
    const tls = `${vllmSpec}\nnetworking: {port: 9000, expose: true, tls: {enabled: true, secretName: llama-tls}}`;
    const objects = render(tls);
    const [container] = byKind(objects, 'Deployment').spec.template.spec.containers;
    expect(container.ports).toEqual([{ name: 'https', containerPort: 9000, protocol: 'TCP' }]);
    for (const probe of ['startupProbe', 'readinessProbe', 'livenessProbe']) expect(container[probe].httpGet).toMatchObject({ port: 'https', scheme: 'HTTPS' });
    expect(byKind(objects, 'Service').spec.ports).toEqual([{ name: 'https', protocol: 'TCP', appProtocol: 'https', port: 9000, targetPort: 'https' }]);
    expect(byKind(objects, 'Ingress').spec.rules[0].http.paths[0].backend.service).toEqual({ name: 'demo-service', port: { name: 'https' } });
    const route = byKind(render(tls, undefined, { ...defaultRenderOptions(), exposeKind: 'route' }), 'Route');
    expect(route.spec.port).toEqual({ targetPort: 'https' });
    expect(route.spec.tls).toEqual({ termination: 'passthrough', insecureEdgeTerminationPolicy: 'Redirect' });
    // Without TLS, `http` and no appProtocol.
    const plain = render(`${vllmSpec}\nnetworking: {expose: true}`);
    expect(byKind(plain, 'Service').spec.ports).toEqual([{ name: 'http', protocol: 'TCP', port: 8321, targetPort: 'http' }]);
    expect(byKind(plain, 'Ingress').spec.rules[0].http.paths[0].backend.service.port).toEqual({ name: 'http' });
  });

  it('a changed provider changes the ConfigMap name and the config-hash annotation', () => {
    const a = render(vllmSpec);
    const b = render(vllmSpec.replace('http://vllm:8000/v1', 'http://other:8000/v1'));
    expect(byKind(a, 'ConfigMap').metadata.name).not.toBe(byKind(b, 'ConfigMap').metadata.name);
    const hashA = byKind(a, 'Deployment').spec.template.metadata.annotations['llamastack.io/config-hash'];
    const hashB = byKind(b, 'Deployment').spec.template.metadata.annotations['llamastack.io/config-hash'];
    expect(hashA).not.toBe(hashB);
  });
});

describe('RoleBinding (OpenShift anyuid, as the v1alpha1 operator)', () => {
  it('is rendered only when the RenderConfig asks, for the ServiceAccount the pod runs as', () => {
    expect(render(vllmSpec).some((o) => o.kind === 'RoleBinding')).toBe(false);
    const objects = render(`${vllmSpec}\nworkload:\n  overrides: {serviceAccountName: mine}`, undefined, { ...defaultRenderOptions(), openshiftAnyuid: true });
    const binding = byKind(objects, 'RoleBinding') as unknown as KrmObject & { roleRef: unknown; subjects: unknown };
    expect(binding.metadata.name).toBe('demo-rb');
    expect(binding.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:openshift:scc:anyuid' });
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'mine', namespace: 'ai' }]);
  });
});

describe('names longer than 63 characters (hostile or just long LLSD names)', () => {
  const longName = `a${'-b'.repeat(31)}`; // 63 characters, the longest an LLSD may have
  const full = 'distribution: {name: starter}\nworkload: {replicas: 2, storage: {size: 1Gi}, autoscaling: {maxReplicas: 4}}\n' +
    'networking: {expose: {hostname: x.example.com}, allowedFrom: {namespaces: [a]}}';

  it('every generated name is a DNS label of at most 63 characters; the short ones stay the operator\'s', () => {
    const objects = render(full, `name: ${longName}\n  namespace: ai`);
    for (const o of objects) {
      expect(o.metadata.name.length, `${o.kind}/${o.metadata.name}`).toBeLessThanOrEqual(63);
      expect(o.metadata.name, o.kind).toMatch(/^[a-z]([-a-z0-9]*[a-z0-9])?$/);
    }
    expect(byKind(objects, 'Deployment').metadata.name).toBe(longName);
    const objectNames = render(full, 'name: demo\n  namespace: ai').map((o) => o.metadata.name);
    expect(objectNames).toEqual(expect.arrayContaining(['demo-service', 'demo-pvc', 'demo-hpa', 'demo-network-policy', 'demo-ingress']));
  });

  it('shortening is deterministic, keeps the suffix, and keeps two long names that share a prefix apart', () => {
    const other = `${longName.slice(0, 61)}-c`;
    const service = (name: string) => byKind(render(full, `name: ${name}\n  namespace: ai`), 'Service').metadata.name;
    expect(service(longName)).toBe(service(longName));
    expect(service(longName)).toMatch(/^a(-b)+-[0-9a-f]{8}-service$/);
    expect(service(longName).length).toBeLessThanOrEqual(63);
    expect(service(other)).not.toBe(service(longName));
    // The Deployment's serviceAccountName and the Service the Ingress targets follow the shortened names.
    const objects = render(full, `name: ${longName}\n  namespace: ai`);
    expect(byKind(objects, 'Deployment').spec.template.spec.serviceAccountName).toBe(byKind(objects, 'ServiceAccount').metadata.name);
    expect(byKind(objects, 'Ingress').spec.rules[0].http.paths[0].backend.service.name).toBe(byKind(objects, 'Service').metadata.name);
  });
});

describe('one builder per kind (each API passes its choices as data)', () => {
  const folder = join(import.meta.dirname, '..', '..', 'src', 'manifests');
  // network-policy.ts also holds each API's rules and the LLSD's checks; exposure.ts, the pod and
  // objects modules are the APIs' choices, metadata.ts their names.
  const kinds = readdirSync(folder).filter((file) => !/^(index|k8s|metadata|exposure|network-policy|(llsd|ogx)-(objects|pod))\.ts$/.test(file));

  it('a kind file exports one render function and reads neither API\'s plan', () => {
    expect(kinds.length).toBeGreaterThanOrEqual(12);
    for (const file of kinds) {
      const text = readFileSync(join(folder, file), 'utf8');
      expect({ file, renders: text.match(/^export (function|const) render\w+/gm)?.length }).toEqual({ file, renders: 1 });
      expect({ file, plans: text.match(/from '\.\.\/(llsd|ogx)\/(plan|llsd|ogxserver)\.js'/g) }).toEqual({ file, plans: null });
    }
  });

  it('the Kubernetes wire types are imported as types only, so the bundle holds none of their package', () => {
    for (const file of readdirSync(folder)) {
      const imports = readFileSync(join(folder, file), 'utf8').match(/^import (?!type ).*kubernetes-models.*$/gm);
      expect({ file, imports }).toEqual({ file, imports: null });
    }
  });
});
