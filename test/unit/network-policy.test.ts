// The NetworkPolicy `<name>-network-policy` (FR-066, docs/render-options.md): when it is rendered (the
// `networkPolicy` option), its peers (as the v1alpha1 operator's), and the results.
import { isNode } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { RenderOptionsInput } from '../../src/core/render-config.js';
import type { KrmObject } from '../../src/krm/item.js';
import type { Result } from '../../src/krm/result.js';
import { process as render } from '../../src/process.js';
import { itemsFrom, llsdYaml } from '../support.js';

interface Rendered {
  objects: Array<KrmObject & { spec: any }>;
  results: Result[];
}

function renderLlsd(networking: string | undefined, options: RenderOptionsInput = {}, metadata?: string): Rendered {
  const spec = `distribution: {name: starter}${networking ? `\nnetworking: ${networking}` : ''}`;
  const out = render({ mode: 'build', items: itemsFrom(llsdYaml(spec, metadata)), options: [options] });
  return {
    objects: out.items.filter((item) => !isNode(item)) as Rendered['objects'],
    results: out.results.filter((r) => r.severity !== 'info'),
  };
}

const policyOf = (r: Rendered) => r.objects.find((o) => o.kind === 'NetworkPolicy');
const peersOf = (r: Rendered) => policyOf(r)?.spec.ingress[0].from;
const brief = (r: Result) => ({ severity: r.severity, field: r.field?.path, message: r.message });

const ownNamespace = { podSelector: {} };
const namespace = (name: string) => ({ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': name } } });
const withLabel = (key: string) => ({ namespaceSelector: { matchExpressions: [{ key, operator: 'Exists' }] } });

describe('when a NetworkPolicy is rendered', () => {
  it('`auto` (the default): only with `allowedFrom`, which `{}` counts as', () => {
    expect(policyOf(renderLlsd(undefined))).toBeUndefined();
    expect(policyOf(renderLlsd('{port: 8321}'))).toBeUndefined();
    expect(policyOf(renderLlsd('{allowedFrom: {namespaces: [apps]}}'))?.metadata.name).toBe('demo-network-policy');
    expect(peersOf(renderLlsd('{allowedFrom: {}}'))).toEqual([ownNamespace]);
  });

  it('`on`: for every LLSD; without `allowedFrom` only the own namespace may connect', () => {
    expect(peersOf(renderLlsd(undefined, { networkPolicy: 'on' }))).toEqual([ownNamespace]);
    expect(peersOf(renderLlsd('{allowedFrom: {namespaces: [apps]}}', { networkPolicy: 'on' }))).toEqual([ownNamespace, namespace('apps')]);
    // A RenderConfig may write the YAML booleans.
    expect(peersOf(renderLlsd(undefined, { networkPolicy: true }))).toEqual([ownNamespace]);
  });

  it('`off`: never, and `allowedFrom` then gives a warning', () => {
    const r = renderLlsd('{allowedFrom: {namespaces: [apps]}}', { networkPolicy: 'off' });
    expect(policyOf(r)).toBeUndefined();
    expect(r.results.map(brief)).toEqual([
      {
        severity: 'warning',
        field: 'spec.networking.allowedFrom',
        message: 'is set, but the `networkPolicy` option is `off`: no NetworkPolicy is rendered, so every pod of the cluster may connect',
      },
    ]);
    expect(policyOf(renderLlsd(undefined, { networkPolicy: false }))).toBeUndefined();
  });

  it('comes after the Service and the exposure object', () => {
    const kinds = renderLlsd('{expose: {hostname: llama.example.com}, allowedFrom: {}}', { ingressControllerNamespace: 'ingress-nginx' }).objects.map(
      (o) => o.kind,
    );
    expect(kinds.slice(0, 6)).toEqual(['ConfigMap', 'ServiceAccount', 'Deployment', 'Service', 'Ingress', 'NetworkPolicy']);
  });
});

describe('the NetworkPolicy', () => {
  it('selects the server pods, admits Ingress traffic to the server port only, and carries the §6 labels', () => {
    const policy = policyOf(renderLlsd('{port: 9000, allowedFrom: {namespaces: [apps]}}', {}, 'name: demo\n  namespace: ai\n  labels: {team: search}'));
    expect(policy).toEqual({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: {
        name: 'demo-network-policy',
        namespace: 'ai',
        labels: {
          team: 'search',
          'app.kubernetes.io/name': 'llama-stack',
          'app.kubernetes.io/instance': 'demo',
          'app.kubernetes.io/component': 'server',
          'app.kubernetes.io/part-of': 'llama-stack',
          'app.kubernetes.io/managed-by': 'llsd-render',
        },
        annotations: { 'llamastack.io/generated-from': 'ai/demo' },
      },
      spec: {
        podSelector: { matchLabels: { 'app.kubernetes.io/name': 'llama-stack', 'app.kubernetes.io/instance': 'demo' } },
        policyTypes: ['Ingress'],
        ingress: [{ from: [ownNamespace, namespace('apps')], ports: [{ protocol: 'TCP', port: 9000 }] }],
      },
    });
  });

  it('peers in order: own namespace, each namespace (once), each label key as `Exists`', () => {
    expect(peersOf(renderLlsd('{allowedFrom: {namespaces: [apps, batch, apps], labels: [llama-access, example.com/team]}}'))).toEqual([
      ownNamespace,
      namespace('apps'),
      namespace('batch'),
      withLabel('llama-access'),
      withLabel('example.com/team'),
    ]);
  });

  it('`"*"` admits every namespace with one peer, whatever else is listed', () => {
    expect(peersOf(renderLlsd('{allowedFrom: {namespaces: ["*", apps], labels: [llama-access]}}'))).toEqual([{ namespaceSelector: {} }]);
  });

  it('an exposed server: the `ingressControllerNamespace` is admitted last (once)', () => {
    const options = { ingressControllerNamespace: 'ingress-nginx' };
    expect(peersOf(renderLlsd('{expose: true, allowedFrom: {labels: [llama-access]}}', options))).toEqual([
      ownNamespace,
      withLabel('llama-access'),
      namespace('ingress-nginx'),
    ]);
    expect(peersOf(renderLlsd('{expose: true, allowedFrom: {namespaces: [ingress-nginx]}}', options))).toEqual([ownNamespace, namespace('ingress-nginx')]);
    // Not exposed: the controller has no business with the server.
    expect(peersOf(renderLlsd('{allowedFrom: {namespaces: [apps]}}', options))).toEqual([ownNamespace, namespace('apps')]);
  });

  it('an exposed server without `ingressControllerNamespace`: a warning that the controller may be shut out', () => {
    const r = renderLlsd('{expose: {hostname: llama.example.com}, allowedFrom: {namespaces: [apps]}}');
    expect(peersOf(r)).toEqual([ownNamespace, namespace('apps')]);
    expect(r.results.map(brief)).toEqual([
      {
        severity: 'warning',
        field: 'spec.networking.expose',
        message:
          'is on, but the NetworkPolicy "demo-network-policy" may shut out the ingress controller: set the `ingressControllerNamespace` option to its ' +
            'namespace (e.g. `ingress-nginx`) so the policy admits it',
      },
    ]);
    const gateway = renderLlsd('{expose: {hostname: llama.example.com}, allowedFrom: {}}', { exposeKind: 'httproute', gateway: { name: 'public' } });
    expect(gateway.results.map((x) => x.message)).toEqual([expect.stringContaining("may shut out the Gateway's proxies")]);
    // No warning where nothing is shut out: every namespace admitted, or no policy.
    expect(renderLlsd('{expose: {hostname: llama.example.com}, allowedFrom: {namespaces: ["*"]}}').results).toEqual([]);
    expect(renderLlsd('{expose: {hostname: llama.example.com}}').results).toEqual([]);
  });

  it('an exposed Route without `ingressControllerNamespace` admits the OpenShift router namespaces, with no warning', () => {
    const r = renderLlsd('{expose: {hostname: llama.example.com}, allowedFrom: {namespaces: [apps]}}', { exposeKind: 'route' });
    expect(peersOf(r)).toEqual([ownNamespace, namespace('apps'), { namespaceSelector: { matchLabels: { 'network.openshift.io/policy-group': 'ingress' } } }]);
    expect(r.results).toEqual([]);
    expect(peersOf(renderLlsd('{expose: true, allowedFrom: {}}', { exposeKind: 'route', ingressControllerNamespace: 'openshift-ingress' }))).toEqual([
      ownNamespace,
      namespace('openshift-ingress'),
    ]);
  });

  it('namespaces and label keys the API server would reject are errors at their index', () => {
    const r = renderLlsd('{allowedFrom: {namespaces: [apps, Apps_1], labels: [ok, "bad key"]}}');
    expect(r.objects).toEqual([]);
    expect(r.results.map(brief)).toEqual([
      {
        severity: 'error',
        field: 'spec.networking.allowedFrom.labels[1]',
        message: 'must be a label key such as `llama-access` or `example.com/llama-access`',
      },
      {
        severity: 'error',
        field: 'spec.networking.allowedFrom.namespaces[1]',
        message: 'must be a namespace name (lower case letters, digits and `-`, at most 63 characters) or `"*"` for every namespace',
      },
    ]);
  });
});

describe('v1alpha1 `network.allowedFrom`', () => {
  it('renders the same NetworkPolicy; problems point at the v1alpha1 field', () => {
    const v1 = (allowedFrom: string) => `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: old, namespace: ai}
spec:
  server:
    distribution: {name: starter}
  network: {allowedFrom: ${allowedFrom}}
`;
    const ok = render({ mode: 'build', items: itemsFrom(v1('{namespaces: [apps], labels: [llama-access]}')) });
    const policy = ok.items.find((i) => !isNode(i) && (i as KrmObject).kind === 'NetworkPolicy') as (KrmObject & { spec: any }) | undefined;
    expect(policy?.metadata.name).toBe('old-network-policy');
    expect(policy?.spec.ingress[0].from).toEqual([ownNamespace, namespace('apps'), withLabel('llama-access')]);
    const bad = render({ mode: 'build', items: itemsFrom(v1('{namespaces: [Bad]}')) });
    expect(bad.results.filter((r) => r.severity === 'error').map(brief)).toEqual([
      expect.objectContaining({ field: 'spec.network.allowedFrom.namespaces[0]' }),
    ]);
  });
});

describe('an OGXServer with `externalAccess` (end to end: the render options reach its policy and its results)', () => {
  function renderOgx(network: string, options: RenderOptionsInput = {}): Rendered {
    const text = 'apiVersion: ogx.io/v1beta1\nkind: OGXServer\nmetadata: {name: pub, namespace: ai}\n' +
      `spec:\n  distribution: {name: starter}\n  network: ${network}\n`;
    const out = render({ mode: 'build', items: itemsFrom(text), options: [options] });
    return { objects: out.items.filter((item) => !isNode(item)) as Rendered['objects'], results: out.results.filter((r) => r.severity !== 'info') };
  }
  const access = 'externalAccess: {enabled: true, hostname: ogx.example.com, tls: {secretName: ogx-cert}}';

  it('without `ingressControllerNamespace`: a warning at `externalAccess.enabled`; with it, the namespace is admitted on the API port', () => {
    expect(renderOgx(`{${access}}`).results.map((r) => [r.severity, r.field?.path, r.message.split(':')[0]])).toEqual([
      ['warning', 'spec.network.externalAccess.enabled', 'is on, but the NetworkPolicy "pub-network-policy" may shut out the ingress controller'],
    ]);
    const r = renderOgx(`{${access}}`, { ingressControllerNamespace: 'ingress-nginx' });
    expect(r.results).toEqual([]);
    expect(peersOf(r)?.at(-1)).toEqual(namespace('ingress-nginx'));
  });

  it('with `policy.ingress`: the option adds a rule of its own after the user\'s, which are kept as written; without it a warning there', () => {
    const rules = `{${access}, policy: {ingress: [{from: [{podSelector: {matchLabels: {app: web}}}]}]}}`;
    const r = renderOgx(rules, { ingressControllerNamespace: 'ingress-nginx' });
    expect(r.results).toEqual([]);
    expect(policyOf(r)?.spec.ingress).toEqual([
      { from: [{ podSelector: { matchLabels: { app: 'web' } } }] },
      { from: [namespace('ingress-nginx')], ports: [{ protocol: 'TCP', port: 8321 }] },
    ]);
    expect(renderOgx(rules).results.map((r) => [r.field?.path, r.message.split(':')[0]])).toEqual([
      ['spec.network.policy.ingress', 'replaces the default rules, and `externalAccess` is on'],
    ]);
  });
});
