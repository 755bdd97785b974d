// planOgxServer: the release (our catalog's, never :latest), the config mode, where the base comes
// from (distribution, spec.baseConfig, image labels) and the CA bundle (upstream config generation: its three config modes, where the base config comes from).
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseOgxServer, type OgxServer } from '../../src/ogx/ogxserver.js';
import { ogxServerReleases } from '../../src/catalog/catalog.js';
import { shippedCatalog } from '../../src/catalog/distributions.js';
import { inventoryOf } from '../../src/krm/inventory.js';
import { planOgxServer } from '../../src/ogx/plan.js';
import { configLocation, type ImageLookup } from '../../src/catalog/image-labels.js';
import { itemFrom, itemsFrom } from '../support.js';

function server(spec: string, annotations = ''): OgxServer {
  const meta = annotations === '' ? '' : `\n  annotations:\n${annotations}`;
  const parsed = parseOgxServer(
    itemFrom(`apiVersion: ogx.io/v1beta1\nkind: OGXServer\nmetadata:\n  name: demo\n  namespace: ai${meta}\nspec:\n${spec}`).object,
  );
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.server;
}
const none = inventoryOf([]);
const newest = (): string => ogxServerReleases().at(-1) as string;

describe('planOgxServer: release and image', () => {
  it('a named distribution renders against our catalog default release, with its pinned image and base', () => {
    const planned = planOgxServer(server('  distribution: {name: starter}\n  providers: {}\n'), none);
    if (!planned.ok) throw new Error(JSON.stringify(planned.problems));
    const pinned = shippedCatalog().starter?.releases[newest()];
    expect(planned.plan).toMatchObject({ distributionName: 'starter', release: newest(), image: pinned?.image, mode: 'generated', baseSource: 'distribution' });
    expect(planned.plan.image).not.toContain(':latest');
    expect(planned.plan.baseConfig?.distro_name).toBe('starter');
  });

  it('the release annotation picks another OGX release; an LLSD-only release is refused at the annotation', () => {
    const first = ogxServerReleases()[0] as string;
    const picked = planOgxServer(server('  distribution: {name: starter}\n', `    llamastack.io/release: "${first}"`), none);
    expect(picked.ok && picked.plan.release).toBe(first);
    const old = planOgxServer(server('  distribution: {name: starter}\n', '    llamastack.io/release: "0.7.1"'), none);
    expect(old).toEqual({
      ok: false,
      problems: [{ path: ['metadata', 'annotations', 'llamastack.io/release'], message: expect.stringContaining('has no OGX release "0.7.1"') }],
    });
  });

  it('an unknown (a RenderConfig catalog without it) or LLSD-only distribution name is an error listing the OGX distributions', () => {
    // The webhook check of parseOgxServer refuses names outside the catalog; a catalog passed to the plan may differ.
    const misspelt = server('  distribution: {name: starter}\n');
    misspelt.spec.distribution.name = 'startr';
    expect(planOgxServer(misspelt, none)).toEqual({
      ok: false,
      problems: [
        {
          path: ['spec', 'distribution', 'name'],
          message: expect.stringMatching(/"startr" is not a distribution llsd-render knows\. Did you mean "starter"\? OGX distributions: .*starter/),
        },
      ],
    });
    expect(planOgxServer(server('  distribution: {name: remote-vllm}\n'), none)).toEqual({
      ok: false,
      problems: [{ path: ['spec', 'distribution', 'name'], message: expect.stringContaining('has no OGX release in llsd-render\'s catalog') }],
    });
  });

  it('an image of a named distribution at a release tag is that distribution, on our base for it; in mode none that base is the config judged', () => {
    const image = `docker.io/ogxai/distribution-starter:${newest()}`;
    const generated = planOgxServer(server(`  distribution: {image: "${image}"}\n  storage: {}\n`), none);
    expect(generated.ok && [generated.plan.distributionName, generated.plan.release, generated.plan.baseSource]).toEqual(['starter', newest(), 'distribution']);
    const own = planOgxServer(server(`  distribution: {image: "${image}"}\n`), none);
    const sameBase = own.ok && generated.ok && own.plan.baseConfig === generated.plan.baseConfig;
    expect(own.ok && [own.plan.mode, own.plan.baseSource, sameBase]).toEqual(['none', 'distribution', true]);
    // Another repository: no base, and the image's labels are needed only for a release the tag does not give.
    const other = planOgxServer(server(`  distribution: {image: "quay.io/acme/ogx:${newest()}"}\n`), none);
    expect(other.ok && [other.plan.distributionName, other.plan.baseConfig]).toEqual(['custom', undefined]);
  });

  it('an image without a release tag needs its labels looked up, then takes the base and the release from them', () => {
    const image = 'quay.io/me/ogx:custom';
    const spec = `  distribution: {image: "${image}"}\n  providers: {}\n`;
    expect(planOgxServer(server(spec), none)).toEqual({
      ok: false,
      problems: [{ path: ['spec', 'distribution', 'image'], message: expect.stringContaining('have not been looked up') }],
      pendingImage: image,
    });
    const lookup: ImageLookup = {
      ok: true,
      host: 'quay.io',
      cached: false,
      tagResolved: true,
      config: { digest: `sha256:${'a'.repeat(64)}`, platform: 'linux/amd64', from: 'base64', imageVersion: newest(), text: 'version: 2\ndistro_name: mine\n' },
    };
    const planned = planOgxServer(server(spec), none, undefined, { lookups: new Map([[image, lookup]]) });
    if (!planned.ok) throw new Error(JSON.stringify(planned.problems));
    expect([planned.plan.release, planned.plan.baseSource, planned.plan.baseConfig]).toEqual([newest(), 'image-labels', { version: 2, distro_name: 'mine' }]);
    expect(planned.problems ?? []).toEqual([]);
    // A literal credential in the labelled base: a warning at the image naming the key, not the value (issue 29, S2).
    const text = 'version: 2\ndistro_name: mine\nstorage: {backends: {kv: {password: hunter2}}}\n';
    const secretive: ImageLookup = { ...lookup, config: { ...lookup.config, text } };
    const warned = planOgxServer(server(spec), none, undefined, { lookups: new Map([[image, secretive]]) });
    expect(warned.ok && warned.problems).toEqual([
      expect.objectContaining({
        severity: 'warning',
        code: 'base-literal-credential',
        path: ['spec', 'distribution', 'image'],
        message: expect.stringMatching(/^`storage\.backends\.kv\.password` of the config in the labels of the image quay\.io\/me\/ogx:custom holds a /),
      }),
    ]);
    expect(JSON.stringify(warned.problems)).not.toContain('hunter2');
  });
});

describe('planOgxServer: spec.baseConfig and the CA bundle', () => {
  const spec = '  distribution: {name: starter}\n  baseConfig: {name: base, key: config.yaml}\n  providers: {}\n';

  it('spec.baseConfig: the ConfigMap key of the input is the base', () => {
    const inventory = inventoryOf(
      itemsFrom('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: base, namespace: ai}\ndata:\n  config.yaml: "version: 2\\ndistro_name: mine\\n"\n'),
    );
    const planned = planOgxServer(server(spec), inventory);
    expect(planned.ok && [planned.plan.baseSource, planned.plan.baseConfig]).toEqual(['baseConfig', { version: 2, distro_name: 'mine' }]);
  });

  it('spec.baseConfig missing from the input, or its key missing: errors in upstream\'s words with what to add', () => {
    expect(planOgxServer(server(spec), none)).toEqual({
      ok: false,
      problems: [{ path: ['spec', 'baseConfig', 'name'], message: expect.stringContaining('failed to find referenced base ConfigMap ai/base') }],
    });
    const inventory = inventoryOf(itemsFrom('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: base, namespace: ai}\ndata: {other: x}\n'));
    expect(planOgxServer(server(spec), inventory)).toEqual({
      ok: false,
      problems: [
        {
          path: ['spec', 'baseConfig', 'key'],
          message: expect.stringContaining("failed to find base ConfigMap key 'config.yaml' in ConfigMap ai/base); its keys: other"),
        },
      ],
    });
  });

  it('a CA ConfigMap key without a valid certificate is an error at that reference', () => {
    const inventory = inventoryOf(
      itemsFrom(
        'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ca, namespace: ai}\ndata: {ca.crt: "-----BEGIN CERTIFICATE-----\\nnotbase64!\\n-----END ' +
          'CERTIFICATE-----\\n"}\n',
      ),
    );
    const planned = planOgxServer(server('  distribution: {name: starter}\n  tls: {trust: {caCertificates: [{name: ca, key: ca.crt}]}}\n'), inventory);
    expect(planned).toEqual({
      ok: false,
      problems: [{ path: ['spec', 'tls', 'trust', 'caCertificates', 0, 'key'], message: expect.stringContaining('not a valid X.509 certificate') }],
    });
  });
});

describe('planOgxServer: the CA bundle as the operator gathers it (upstream objects: the CA bundle ConfigMap)', () => {
  const pem = (name: string): string => readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8');
  const indent = (text: string): string => text.trimEnd().split('\n').map((line) => `    ${line}`).join('\n');
  const cas = (data: Record<string, string>) =>
    inventoryOf(
      itemsFrom(
        `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cas, namespace: ai}\ndata:\n${Object.entries(data)
          .map(([k, v]) => `  ${k}: |\n${indent(v)}\n`)
          .join('')}`,
      ),
    );
  const trusting = (keys: string[]) =>
    server(`  distribution: {name: starter}\n  tls: {trust: {caCertificates: [${keys.map((k) => `{name: cas, key: ${k}}`).join(', ')}]}}\n`);

  it('joins the certificates of the refs in list order with "\\n", so each re-encoded PEM is followed by an empty line but the last', () => {
    const planned = planOgxServer(trusting(['b.pem', 'a.pem']), cas({ 'a.pem': pem('corp-root-ca.pem'), 'b.pem': pem('other-ca.pem') }));
    if (!planned.ok) throw new Error(JSON.stringify(planned.problems));
    const other = new X509Certificate(pem('other-ca.pem')).toString();
    const corp = new X509Certificate(pem('corp-root-ca.pem')).toString();
    expect(planned.plan.caBundle).toEqual({ configMapName: 'cas', pem: `${other}\n${corp}`, certificates: 2 });
    expect(planned.plan.caBundle?.pem).toContain('-----END CERTIFICATE-----\n\n-----BEGIN CERTIFICATE-----');
  });

  it("an odh-trusted-ca-bundle ConfigMap in the namespace adds its keys' certificates after the named ones (keys in name order, invalid keys skipped), even " +
    "without tls.trust", () => {
    const odh = (data: Record<string, string>) =>
      itemsFrom(
        `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: odh-trusted-ca-bundle, namespace: ai}\ndata:\n${Object.entries(data)
          .map(([k, v]) => `  ${k}: |\n${indent(v)}\n`)
          .join('')}`,
      );
    const other = new X509Certificate(pem('other-ca.pem')).toString();
    const corp = new X509Certificate(pem('corp-root-ca.pem')).toString();
    const both = planOgxServer(
      trusting(['a.pem']),
      inventoryOf([
        ...itemsFrom(`apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cas, namespace: ai}\ndata:\n  a.pem: |\n${indent(pem('corp-root-ca.pem'))}\n`),
        ...odh({ 'z.crt': pem('other-ca.pem'), 'bad.crt': '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n' }),
      ]),
    );
    if (!both.ok) throw new Error(JSON.stringify(both.problems));
    expect(both.plan.caBundle).toEqual({ configMapName: 'cas', pem: `${corp}\n${other}`, certificates: 2 });
    const alone = planOgxServer(server('  distribution: {name: starter}\n'), inventoryOf(odh({ 'ca.crt': pem('other-ca.pem') })));
    if (!alone.ok) throw new Error(JSON.stringify(alone.problems));
    expect(alone.plan.caBundle).toEqual({ configMapName: 'odh-trusted-ca-bundle', pem: other, certificates: 1 });
    const none = planOgxServer(server('  distribution: {name: starter}\n'), inventoryOf([]));
    expect(none.ok && none.plan.caBundle).toBeUndefined();
  });

  it('refs whose keys hold only whitespace are an error (the operator fails: no valid certificates)', () => {
    const planned = planOgxServer(
      trusting(['a.pem']),
      inventoryOf(itemsFrom('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cas, namespace: ai}\ndata: {a.pem: "\\n  \\n"}\n')),
    );
    expect(planned).toEqual({
      ok: false,
      problems: [
        { path: ['spec', 'tls', 'trust', 'caCertificates'], message: expect.stringContaining('failed to find valid certificates in CA bundle ConfigMaps') },
      ],
    });
  });
});

describe('OGX image labels', () => {
  it('com.ogx.distribution.default-config names the com.ogx.config.<file> label that holds the config', () => {
    const text = 'version: 2\n';
    const b64 = Buffer.from(text).toString('base64');
    expect(configLocation({ 'com.ogx.distribution.default-config': 'config.yaml', 'com.ogx.config.config.yaml': b64 })).toEqual({ kind: 'base64', text });
    expect(configLocation({ 'com.ogx.distribution.default-config': 'run.yaml' })).toEqual({
      kind: 'invalid',
      message: expect.stringContaining('has no label com.ogx.config.run.yaml'),
    });
    // The llama-stack labels come first.
    expect(
      configLocation({
        'io.llamastack.config.base64': Buffer.from('version: 2\nx: 1\n').toString('base64'),
        'com.ogx.distribution.default-config': 'config.yaml',
        'com.ogx.config.config.yaml': b64,
      }),
    ).toEqual({ kind: 'base64', text: 'version: 2\nx: 1\n' });
  });
});
