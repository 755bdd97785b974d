// The release of an image whose tag names none, read from its labels by both plans: OGX's
// `com.ogx.distribution.version` (the rh image's `v1.2.4+rhaiv.0`) before the OCI version label;
// and a release newer than the catalog from a label, planned with a warning.
import { describe, expect, it } from 'vitest';
import { parseOgxServer } from '../../src/ogx/ogxserver.js';
import { planOgxServer } from '../../src/ogx/plan.js';
import { parseLlsd } from '../../src/llsd/llsd.js';
import { planLlsd } from '../../src/llsd/plan.js';
import { inventoryOf } from '../../src/krm/inventory.js';
import type { ImageConfig, ImageLookup } from '../../src/catalog/image-labels.js';
import { itemFrom, llsdYaml } from '../support.js';
import { toOgxServer } from '../../src/convert/to-ogxserver.js';
import type { KrmObject } from '../../src/krm/item.js';

// An rh image the catalog does not pin (rhoai-3.5 itself is the catalog's 1.2.4, no labels needed).
const image = 'quay.io/rhoai/odh-ogx-core-rhel9:rhoai-3.4';
const base = `version: 2
distro_name: rh
apis: [inference]
providers:
  inference:
    - provider_id: vllm
      provider_type: remote::vllm
      config: {base_url: "http://vllm:8000/v1"}
storage:
  backends:
    kv_default: {type: kv_sqlite, db_path: /tmp/kv.db}
    sql_default: {type: sql_sqlite, db_path: /tmp/sql.db}
  stores:
    metadata: {backend: kv_default, namespace: registry}
`;
const lookups = (labels: Pick<ImageConfig, 'imageVersion' | 'distributionVersion'>): Map<string, ImageLookup> => {
  const config: ImageConfig = { digest: `sha256:${'a'.repeat(64)}`, platform: 'linux/amd64', from: 'base64', text: base, ...labels };
  return new Map([[image, { ok: true, host: 'quay.io', cached: false, tagResolved: true, config }]]);
};

function ogxPlan(labels: Pick<ImageConfig, 'imageVersion' | 'distributionVersion'>) {
  const parsed = parseOgxServer(itemFrom(`apiVersion: ogx.io/v1beta1
kind: OGXServer
metadata: {name: chat, namespace: ai}
spec:
  distribution: {image: "${image}"}
  providers:
    inference:
      remote:
        vllm:
          - endpoint: http://vllm.ai.svc:8000/v1
`).object);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return planOgxServer(parsed.server, inventoryOf([]), undefined, { lookups: lookups(labels) });
}

function llsdPlan(labels: Pick<ImageConfig, 'imageVersion' | 'distributionVersion'>) {
  const parsed = parseLlsd(itemFrom(llsdYaml(`distribution: {image: "${image}"}`)).object);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return planLlsd(parsed.llsd, inventoryOf([]), undefined, { lookups: lookups(labels) });
}

describe('the release from the labels of an image', () => {
  it('an OGXServer on the rh image: OGX\'s label `v1.2.4+rhaiv.0` is 1.2.4 (a build of it), checked against 1.2.2; the OCI label is not read', () => {
    const planned = ogxPlan({ distributionVersion: 'v1.2.4+rhaiv.0', imageVersion: '9.6' });
    if (!planned.ok) throw new Error(JSON.stringify(planned.problems));
    expect(planned.plan).toMatchObject({ release: '1.2.4', build: 'rhaiv.0', catalogRelease: '1.2.2', baseSource: 'image-labels', distributionName: 'rh' });
    // An image's own base: a patch release of a line is told by the schema messages, not by a result of its own.
    expect(planned.problems).toBeUndefined();
  });

  it('an LLSD on the same image reads the same label, and says the release came from it', () => {
    const planned = llsdPlan({ distributionVersion: 'v1.2.4+rhaiv.0' });
    if (!planned.ok) throw new Error(JSON.stringify(planned.problems));
    expect(planned.plan).toMatchObject({ release: '1.2.4', build: 'rhaiv.0', catalogRelease: '1.2.2' });
    expect(planned.plan.releaseNote).toBe('the release is the image\'s label com.ogx.distribution.version');
  });

  it('a label newer than the catalog renders against the newest release, with a warning at the image', () => {
    const planned = ogxPlan({ imageVersion: 'v1.5.0' });
    if (!planned.ok) throw new Error(JSON.stringify(planned.problems));
    expect(planned.plan).toMatchObject({ release: '1.5.0', catalogRelease: '1.3.0' });
    expect(planned.problems).toEqual([
      expect.objectContaining({ severity: 'warning', code: 'release-newer-than-catalog', path: ['spec', 'distribution', 'image'] }),
    ]);
    expect(planned.problems?.[0]?.message).toMatch(/^release v?1\.5\.0 is newer than every release llsd-render knows \(the newest is 1\.3\.0\)/);
  });

  it('labels that name no release leave the OGXServer without one, as before', () => {
    const planned = ogxPlan({ imageVersion: '9.6', distributionVersion: 'dev' });
    expect(planned.ok).toBe(false);
    expect(!planned.ok && planned.problems[0]?.message).toMatch(/^does not say which OGX release it runs/);
  });
});

describe('the converter keeps the release annotation in any form an OGXServer renders', () => {
  const llsd = (release: string): KrmObject =>
    ({
      apiVersion: 'llamastack.io/v1alpha2',
      kind: 'LlamaStackDistribution',
      metadata: { name: 'demo', namespace: 'ai', annotations: { 'llamastack.io/release': release } },
      spec: { distribution: { name: 'starter' } },
    }) as unknown as KrmObject;
  const annotationOf = (release: string): string | undefined =>
    ((toOgxServer(llsd(release)).object.metadata as { annotations?: Record<string, string> }).annotations ?? {})['llamastack.io/release'];

  it('as written: a build, a `v`, a patch release the catalog lacks, a newer release', () => {
    expect(['1.2.4+rhaiv.0', 'v1.2.2', '1.2.5', '1.5.0'].map(annotationOf)).toEqual(['1.2.4+rhaiv.0', 'v1.2.2', '1.2.5', '1.5.0']);
  });

  it('a release before OGX, or no release at all, is dropped with a warning', () => {
    for (const release of ['0.7.1', 'latest']) {
      const result = toOgxServer(llsd(release));
      expect(annotationOf(release), release).toBeUndefined();
      const path = ['metadata', 'annotations', 'llamastack.io/release'];
      expect(result.problems).toContainEqual(expect.objectContaining({ severity: 'warning', code: 'ogx-conversion', path }));
    }
  });
});
