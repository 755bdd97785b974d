// `spec.networking.expose` (FR-064/065, docs/render-options.md): Ingress, OpenShift Route or Gateway API
// HTTPRoute, host name choice, class, TLS, annotations, and the results that go with them.
import { isNode } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { RenderOptionsInput } from '../../src/core/render-config.js';
import type { KrmObject } from '../../src/krm/item.js';
import type { Result } from '../../src/krm/result.js';
import { process as render } from '../../src/process.js';
import { itemsFrom, llsdYaml } from '../support.js';

interface Rendered {
  objects: Array<KrmObject & { spec: any }>;
  /** Every result but the per-LLSD summary. */
  results: Result[];
}

function renderLlsd(networking: string, options: RenderOptionsInput = {}, metadata?: string): Rendered {
  const spec = `distribution: {name: starter}\nnetworking: ${networking}`;
  const out = render({ mode: 'build', items: itemsFrom(llsdYaml(spec, metadata)), options: [options] });
  return {
    objects: out.items.filter((item) => !isNode(item)) as Rendered['objects'],
    results: out.results.filter((r) => !r.message.startsWith('generated config.yaml')),
  };
}

const kindsOf = (r: Rendered) => r.objects.map((o) => `${o.kind}/${o.metadata.name}`);
const find = (r: Rendered, kind: string) => {
  const object = r.objects.find((o) => o.kind === kind);
  if (!object) throw new Error(`no ${kind} in ${kindsOf(r).join(', ')}`);
  return object;
};
const brief = (r: Result) => ({ severity: r.severity, field: r.field?.path, message: r.message });

describe('whether the server is exposed', () => {
  it('`expose: false` and no `expose` render no Ingress, Route or HTTPRoute', () => {
    for (const networking of ['{expose: false}', '{port: 8321}']) {
      for (const exposeKind of ['ingress', 'route', 'httproute'] as const) {
        const r = renderLlsd(networking, { exposeKind, gateway: { name: 'gw' } });
        expect(kindsOf(r)).toEqual([expect.stringMatching(/^ConfigMap\//), 'ServiceAccount/demo-sa', 'Deployment/demo', 'Service/demo-service']);
        expect(r.results).toEqual([]);
      }
    }
  });

  it('`expose: true`, `expose: {}` and `expose: {hostname}` each render the Ingress `<name>-ingress` right after the Service', () => {
    for (const networking of ['{expose: true}', '{expose: {}}', '{expose: {hostname: llama.example.com}}']) {
      const kinds = kindsOf(renderLlsd(networking, { ingressDomain: 'apps.example.com' }));
      expect(kinds.slice(3, 5)).toEqual(['Service/demo-service', 'Ingress/demo-ingress']);
    }
  });
});

describe('Ingress', () => {
  it('routes `/` (Prefix) to the Service port `http`, with the §6 labels and the owner annotation', () => {
    const ingress = find(renderLlsd('{expose: {hostname: llama.example.com}, port: 9000}'), 'Ingress');
    expect(ingress.apiVersion).toBe('networking.k8s.io/v1');
    expect(ingress.metadata).toEqual({
      name: 'demo-ingress',
      namespace: 'ai',
      labels: {
        'app.kubernetes.io/name': 'llama-stack',
        'app.kubernetes.io/instance': 'demo',
        'app.kubernetes.io/component': 'server',
        'app.kubernetes.io/part-of': 'llama-stack',
        'app.kubernetes.io/managed-by': 'llsd-render',
      },
      annotations: { 'llamastack.io/generated-from': 'ai/demo' },
    });
    expect(ingress.spec).toEqual({
      rules: [
        {
          host: 'llama.example.com',
          http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'demo-service', port: { name: 'http' } } } }] },
        },
      ],
    });
  });

  it('host: `expose.hostname` first, then `<name>-<namespace>.<ingressDomain>`, then none with an info result', () => {
    const options = { ingressDomain: 'apps.example.com' };
    expect(find(renderLlsd('{expose: {hostname: llama.example.com}}', options), 'Ingress').spec.rules[0].host).toBe('llama.example.com');
    expect(find(renderLlsd('{expose: true}', options), 'Ingress').spec.rules[0].host).toBe('demo-ai.apps.example.com');
    expect(find(renderLlsd('{expose: {}}', options), 'Ingress').spec.rules[0].host).toBe('demo-ai.apps.example.com');
    expect(find(renderLlsd('{expose: true}', options, 'name: demo'), 'Ingress').spec.rules[0].host).toBe('demo.apps.example.com');

    const r = renderLlsd('{expose: true}');
    expect(find(r, 'Ingress').spec.rules[0]).not.toHaveProperty('host');
    expect(r.results.map(brief)).toEqual([
      {
        severity: 'info',
        field: 'spec.networking.expose',
        message:
          'the Ingress "demo-ingress" has no host, so it answers on every host name its controller serves; set `spec.networking.expose.hostname`, or the ' +
            '`ingressDomain` option for host names `<name>-<namespace>.<domain>`',
      },
    ]);
  });

  it('a host name that is not a DNS name is an error at `expose.hostname`, and nothing is rendered', () => {
    for (const hostname of ['https://llama.example.com', 'Llama.example.com', 'llama.example.com:443', 'llama_1.example.com']) {
      const r = renderLlsd(`{expose: {hostname: "${hostname}"}}`);
      expect(r.objects).toEqual([]);
      expect(r.results.map(brief)).toEqual([
        {
          severity: 'error',
          field: 'spec.networking.expose.hostname',
          message: 'must be a DNS name such as `llama.example.com`: lower case letters, digits, `-` and `.`, with no scheme, port or path',
        },
      ]);
    }
  });

  it('an automatic host name whose first label exceeds 63 characters is an error that says to set `hostname`', () => {
    const name = 'n'.repeat(40);
    const r = renderLlsd('{expose: true}', { ingressDomain: 'apps.example.com' }, `name: ${name}\n  namespace: ${'s'.repeat(30)}`);
    expect(r.results.map(brief)).toEqual([
      {
        severity: 'error',
        field: 'spec.networking.expose',
        message: `gives the host name "${name}-${'s'.repeat(30)}.apps.example.com" (\`<name>-<namespace>.<ingressDomain>\`), which is not a valid DNS name: ` +
          `its first label must be at most 63 characters. Set \`spec.networking.expose.hostname\``,
      },
    ]);
  });

  it('`ingressClass` sets `ingressClassName`; `ingressAnnotations` add to the owner annotation', () => {
    const ingress = find(
      renderLlsd('{expose: {hostname: llama.example.com}}', {
        ingressClass: 'nginx',
        ingressAnnotations: { 'nginx.ingress.kubernetes.io/proxy-body-size': '50m', 'cert-manager.io/cluster-issuer': 'letsencrypt' },
      }),
      'Ingress',
    );
    expect(ingress.spec.ingressClassName).toBe('nginx');
    expect(ingress.metadata.annotations).toEqual({
      'llamastack.io/generated-from': 'ai/demo',
      'nginx.ingress.kubernetes.io/proxy-body-size': '50m',
      'cert-manager.io/cluster-issuer': 'letsencrypt',
    });
  });

  it('`ingressAnnotations` and `ingressTls` as ConfigMap data are YAML strings', () => {
    const ingress = find(
      renderLlsd('{expose: {hostname: llama.example.com}}', {
        ingressAnnotations: 'a.example.com/x: "true"',
        ingressTls: '{secretName: "{namespace}-{name}-cert"}',
      }),
      'Ingress',
    );
    expect(ingress.metadata.annotations?.['a.example.com/x']).toBe('true');
    expect(ingress.spec.tls).toEqual([{ hosts: ['llama.example.com'], secretName: 'ai-demo-cert' }]);
  });

  it('`ingressTls`: the Secret named by the pattern for the host; `{}` the controller default certificate; no host, no `hosts`', () => {
    expect(find(renderLlsd('{expose: true}', { ingressDomain: 'apps.example.com', ingressTls: { secretName: '{name}-tls' } }), 'Ingress').spec.tls).toEqual([
      { hosts: ['demo-ai.apps.example.com'], secretName: 'demo-tls' },
    ]);
    expect(find(renderLlsd('{expose: {hostname: llama.example.com}}', { ingressTls: { secretName: 'wildcard-tls' } }), 'Ingress').spec.tls).toEqual([
      { hosts: ['llama.example.com'], secretName: 'wildcard-tls' },
    ]);
    expect(find(renderLlsd('{expose: {hostname: llama.example.com}}', { ingressTls: {} }), 'Ingress').spec.tls).toEqual([{ hosts: ['llama.example.com'] }]);
    expect(find(renderLlsd('{expose: true}', { ingressTls: {} }), 'Ingress').spec.tls).toEqual([{}]);
    expect(find(renderLlsd('{expose: true}'), 'Ingress').spec).not.toHaveProperty('tls');
  });

  it('an HTTPS server behind an Ingress gives a warning, unless `ingressAnnotations` tell the controller the backend protocol', () => {
    const tls = '{expose: {hostname: llama.example.com}, tls: {enabled: true, secretName: llama-tls}}';
    const withSecret = (r: Rendered) => r.results.filter((x) => !x.message.includes('Secret "llama-tls", which is not in the input'));
    expect(withSecret(renderLlsd(tls)).map(brief)).toEqual([
      {
        severity: 'warning',
        field: 'spec.networking.tls.enabled',
        message:
          'makes the server serve HTTPS, but the Ingress "demo-ingress" sends plain HTTP to it unless its controller is told otherwise: add the ' +
            'controller\'s annotation to the `ingressAnnotations` option (ingress-nginx: `nginx.ingress.kubernetes.io/backend-protocol: HTTPS`)',
      },
    ]);
    expect(withSecret(renderLlsd(tls, { ingressAnnotations: { 'nginx.ingress.kubernetes.io/backend-protocol': 'HTTPS' } }))).toEqual([]);
  });
});

describe('OpenShift Route (`exposeKind: route`)', () => {
  it('is named after the LLSD and points at the Service port `http`', () => {
    const r = renderLlsd('{expose: {hostname: llama.example.com}}', { exposeKind: 'route' });
    expect(kindsOf(r)).not.toContain('Ingress/demo-ingress');
    const route = find(r, 'Route');
    expect(route.apiVersion).toBe('route.openshift.io/v1');
    expect(route.metadata.name).toBe('demo');
    expect(route.spec).toEqual({ host: 'llama.example.com', to: { kind: 'Service', name: 'demo-service', weight: 100 }, port: { targetPort: 'http' } });
    expect(r.results).toEqual([]);
  });

  it('without a host name leaves `host` to OpenShift and says which it will be', () => {
    const r = renderLlsd('{expose: true}', { exposeKind: 'route' });
    expect(find(r, 'Route').spec).not.toHaveProperty('host');
    expect(r.results.map(brief)).toEqual([
      {
        severity: 'info',
        field: 'spec.networking.expose',
        message:
          'the Route "demo" has no host, so OpenShift gives it "demo-ai.<router domain>"; for another one, set `spec.networking.expose.hostname`, or the ' +
            '`ingressDomain` option for host names `<name>-<namespace>.<domain>`',
      },
    ]);
    expect(find(renderLlsd('{expose: true}', { exposeKind: 'route', ingressDomain: 'apps.example.com' }), 'Route').spec.host).toBe('demo-ai.apps.example.com');
  });

  it('TLS: edge with `ingressTls`, passthrough for an HTTPS server, reencrypt with both; HTTP redirected', () => {
    const plain = '{expose: {hostname: llama.example.com}}';
    const https = '{expose: {hostname: llama.example.com}, tls: {enabled: true, secretName: llama-tls}}';
    const tlsOf = (networking: string, options: RenderOptionsInput) => find(renderLlsd(networking, { exposeKind: 'route', ...options }), 'Route').spec.tls;
    expect(tlsOf(plain, {})).toBeUndefined();
    expect(tlsOf(plain, { ingressTls: {} })).toEqual({ termination: 'edge', insecureEdgeTerminationPolicy: 'Redirect' });
    expect(tlsOf(https, {})).toEqual({ termination: 'passthrough', insecureEdgeTerminationPolicy: 'Redirect' });
    expect(tlsOf(https, { ingressTls: {} })).toEqual({ termination: 'reencrypt', insecureEdgeTerminationPolicy: 'Redirect' });
  });

  it('a Secret in `ingressTls` is not used by a Route: a warning says the router certificate serves', () => {
    const r = renderLlsd('{expose: {hostname: llama.example.com}}', { exposeKind: 'route', ingressTls: { secretName: '{name}-tls' } });
    expect(find(r, 'Route').spec.tls).toEqual({ termination: 'edge', insecureEdgeTerminationPolicy: 'Redirect' });
    expect(r.results.map(brief)).toEqual([
      {
        severity: 'warning',
        field: 'spec.networking.expose',
        message:
          'the Route "demo" terminates TLS with the router\'s default certificate, not the Secret "demo-tls" of the `ingressTls` option (a Route cannot ' +
            'refer to a Secret on every OpenShift release); use `ingressTls: {}`, or `exposeKind: ingress` for your own certificate',
      },
    ]);
  });

  it('`ingressAnnotations` go on the Route; `ingressClass` is for Ingresses only', () => {
    const route = find(
      renderLlsd('{expose: true}', { exposeKind: 'route', ingressClass: 'nginx', ingressAnnotations: { 'haproxy.router.openshift.io/timeout': '5m' } }),
      'Route',
    );
    expect(route.metadata.annotations).toEqual({ 'llamastack.io/generated-from': 'ai/demo', 'haproxy.router.openshift.io/timeout': '5m' });
    expect(JSON.stringify(route)).not.toContain('nginx');
  });
});

describe('Gateway API HTTPRoute (`exposeKind: httproute`)', () => {
  it('attaches to the `gateway` option and sends `/` to the Service port number', () => {
    const r = renderLlsd('{expose: {hostname: llama.example.com}, port: 9000}', {
      exposeKind: 'httproute',
      gateway: { name: 'public', namespace: 'gateway-system', sectionName: 'https' },
    });
    const route = find(r, 'HTTPRoute');
    expect(route.apiVersion).toBe('gateway.networking.k8s.io/v1');
    expect(route.metadata.name).toBe('demo-httproute');
    expect(route.spec).toEqual({
      parentRefs: [{ name: 'public', namespace: 'gateway-system', sectionName: 'https' }],
      hostnames: ['llama.example.com'],
      rules: [{ matches: [{ path: { type: 'PathPrefix', value: '/' } }], backendRefs: [{ name: 'demo-service', port: 9000 }] }],
    });
    expect(r.results).toEqual([]);
  });

  it('`gateway` as ConfigMap data is a YAML string; without a host name, an info result', () => {
    const r = renderLlsd('{expose: {}}', { exposeKind: 'httproute', gateway: '{name: public}' });
    expect(find(r, 'HTTPRoute').spec.parentRefs).toEqual([{ name: 'public' }]);
    expect(find(r, 'HTTPRoute').spec).not.toHaveProperty('hostnames');
    expect(r.results.map(brief)).toEqual([
      {
        severity: 'info',
        field: 'spec.networking.expose',
        message:
          'the HTTPRoute "demo-httproute" has no host names, so it takes every host name of the Gateway listener; set `spec.networking.expose.hostname`, or ' +
            'the `ingressDomain` option for host names `<name>-<namespace>.<domain>`',
      },
    ]);
  });

  it('without the `gateway` option is an error at `spec.networking.expose`, and nothing is rendered', () => {
    const r = renderLlsd('{expose: {hostname: llama.example.com}}', { exposeKind: 'httproute' });
    expect(r.objects).toEqual([]);
    expect(r.results.map(brief)).toEqual([
      {
        severity: 'error',
        field: 'spec.networking.expose',
        message:
          'is rendered as an HTTPRoute (`exposeKind: httproute`), which needs a Gateway: set the `gateway` option, e.g. `gateway: {name: public, namespace: ' +
            'gateway-system}`',
      },
    ]);
    // Not exposed: the option is not needed.
    expect(renderLlsd('{expose: false}', { exposeKind: 'httproute' }).results).toEqual([]);
  });

  it('`ingressTls` and an HTTPS server are the Gateway\'s business: warnings say where to set them', () => {
    const r = renderLlsd('{expose: {hostname: llama.example.com}, tls: {enabled: true, secretName: llama-tls}}', {
      exposeKind: 'httproute',
      gateway: { name: 'public' },
      ingressTls: {},
    });
    expect(r.results.filter((x) => x.severity === 'warning' && !x.message.includes('not in the input')).map(brief)).toEqual([
      {
        severity: 'warning',
        field: 'spec.networking.expose',
        message:
          'the `ingressTls` option does not apply to the HTTPRoute "demo-httproute": TLS is set on the Gateway\'s listener (`certificateRefs`); remove the ' +
            'option or set up TLS there',
      },
      {
        severity: 'warning',
        field: 'spec.networking.tls.enabled',
        message:
          'makes the server serve HTTPS, but the Gateway sends plain HTTP to it through the HTTPRoute "demo-httproute" unless a BackendTLSPolicy for the ' +
            'Service "demo-service" says otherwise: add one next to the LLSD',
      },
    ]);
  });
});

describe('v1alpha1 `network.exposeRoute`', () => {
  it('renders the operator-compatible Ingress, and results point at the v1alpha1 field', () => {
    const v1 = `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: old, namespace: ai}
spec:
  server:
    distribution: {name: starter}
  network: {exposeRoute: true}
`;
    const out = render({ mode: 'build', items: itemsFrom(v1) });
    const ingress = out.items.find((i) => !isNode(i) && (i as KrmObject).kind === 'Ingress') as KrmObject | undefined;
    expect(ingress?.metadata.name).toBe('old-ingress');
    expect(out.results.filter((r) => r.severity === 'info' && r.field).map(brief)).toEqual([
      expect.objectContaining({ field: 'spec.network.exposeRoute', message: expect.stringMatching(/^the Ingress "old-ingress" has no host/) }),
    ]);
  });
});

describe('RenderConfig options for exposure', () => {
  it('reject values the API server would reject, at the option path', async () => {
    const { renderOptionsSchema } = (await import('../../src/core/render-config.js')).renderConfigSchemas();
    const { problemsFromIssues } = await import('../../src/lib/issues.js');
    const problems = (input: unknown) => {
      const parsed = renderOptionsSchema.safeParse(input, { reportInput: true });
      return parsed.success ? [] : problemsFromIssues(parsed.error.issues, renderOptionsSchema);
    };
    expect(problems({ exposeKind: 'routes' })).toEqual([
      { path: ['exposeKind'], message: 'must be one of `ingress`, `route`, `httproute`, not "routes"; did you mean `route`?' },
    ]);
    expect(problems({ ingressDomain: 'Apps.Example.com' })).toEqual([
      { path: ['ingressDomain'], message: 'must be a DNS name such as `apps.example.com` (lower case letters, digits, `-` and `.`)' },
    ]);
    expect(problems({ ingressAnnotations: { 'a.example.com/x': true } })).toEqual([
      { path: ['ingressAnnotations', 'a.example.com/x'], message: 'must be a string, not `true`; quote it: "true"' },
    ]);
    expect(problems({ ingressAnnotations: { 'llamastack.io/generated-from': 'x' } })).toEqual([
      {
        path: ['ingressAnnotations', 'llamastack.io/generated-from'],
        message: "uses the `llamastack.io/` prefix, which is llsd-render's own; use another key",
      },
    ]);
    expect(problems({ ingressAnnotations: 'a: [' })).toEqual([
      { path: ['ingressAnnotations'], message: expect.stringMatching(/^is not valid YAML \(line 1\)/) },
    ]);
    expect(problems({ gateway: '{namespace: infra}' })).toEqual([{ path: ['gateway', 'name'], message: 'is required' }]);
    expect(problems({ ingressTls: { secretName: '{nme}-tls' } })).toEqual([
      { path: ['ingressTls', 'secretName'], message: 'may use only the placeholders `{name}` and `{namespace}`, not `{nme}`' },
    ]);
    expect(problems({ ingressTls: { certificate: 'x' } })).toEqual([
      { path: ['ingressTls', 'certificate'], message: 'is not a known field; known fields: secretName' },
    ]);
    expect(problems({ ingressControllerNamespace: 'ingress_nginx' })).toEqual([
      { path: ['ingressControllerNamespace'], message: 'must be a Kubernetes name such as `ingress-nginx` (lower case letters, digits and `-`)' },
    ]);
    expect(problems({ exposeKnd: 'route' })).toEqual([{ path: ['exposeKnd'], message: 'is not a known field; did you mean `exposeKind`?' }]);
  });
});
