// core/target.ts: the release a CR asks for (annotation, image tag), the label release, the digest
// pin and the pending lookup, as both front ends read them; the release of a named distribution that
// serves a release it lacks (its line's newest, or for a release newer than the catalog its newest).
import { describe, expect, it } from 'vitest';
import {
  askedRelease,
  awaitingLabels,
  distributionOfImage,
  labelRelease,
  namedRelease,
  pinnedRelease,
  releaseNote,
  runImage,
  withTag,
} from '../../src/core/target.js';
import type { Catalog, CatalogEntry } from '../../src/catalog/distributions.js';
import type { ImageConfig } from '../../src/catalog/image-labels.js';
import { catalogReleases } from '../../src/catalog/catalog.js';

const annotated = (release: string): Record<string, string> => ({ 'llamastack.io/release': release });
const digest = `sha256:${'a'.repeat(64)}`;

describe('askedRelease', () => {
  it('takes the annotation over the tag and says it came from the annotation', () => {
    const asked = askedRelease(annotated('0.7.1'), 'docker.io/llamastack/distribution-starter:latest');
    expect(asked).toEqual({ release: '0.7.1', from: ['metadata', 'annotations', 'llamastack.io/release'] });
  });

  it('reads a release tag (with or without `v`, also before a digest) and says it came from the image', () => {
    expect(askedRelease({}, 'quay.io/acme/stack:v0.7.1')).toEqual({ release: '0.7.1', from: ['spec', 'distribution', 'image'] });
    expect(askedRelease(undefined, `quay.io/acme/stack:0.6.0@${digest}`).release).toBe('0.6.0');
    expect(askedRelease({}, 'quay.io/acme/stack:test-0.8.0').release).toBeUndefined();
    expect(askedRelease({}, undefined)).toEqual({ release: undefined, from: ['spec', 'distribution', 'image'] });
  });

  it('reads the annotation with the same parser: a leading `v`, and a build that is its upstream release', () => {
    const from = ['metadata', 'annotations', 'llamastack.io/release'];
    expect(askedRelease(annotated('v1.2.2'), undefined)).toEqual({ release: '1.2.2', from });
    expect(askedRelease(annotated('1.2.4+rhaiv.0'), undefined)).toEqual({ release: '1.2.4', build: 'rhaiv.0', from });
    // The tag of the same upstream release agrees with a build of it.
    expect(askedRelease(annotated('1.2.4+rhaiv.0'), 'quay.io/acme/stack:v1.2.4')).toEqual({ release: '1.2.4', build: 'rhaiv.0', from });
  });

  it('an annotation that is no release is a problem at the annotation that shows the forms', () => {
    const asked = askedRelease(annotated('latest'), 'quay.io/acme/stack:1.2.2');
    expect(asked.release).toBeUndefined();
    expect(asked.problem?.path).toEqual(['metadata', 'annotations', 'llamastack.io/release']);
    const newest = catalogReleases().at(-1) as string;
    expect(asked.problem?.message).toBe(`must name a release, such as \`${newest}\`, \`v${newest}\` or \`${newest}+rhaiv.0\`, not "latest"`);
    expect(askedRelease(annotated('1.3.0-rc1'), undefined).problem?.message).toContain('not "1.3.0-rc1"');
  });

  it('an annotation the tag contradicts is a conflict at the annotation, and the annotation is the release', () => {
    expect(askedRelease(annotated('0.6.0'), 'quay.io/acme/stack:0.7.1')).toEqual({
      release: '0.6.0',
      from: ['metadata', 'annotations', 'llamastack.io/release'],
      problem: {
        path: ['metadata', 'annotations', 'llamastack.io/release'],
        message: 'says release 0.6.0, but the image tag says 0.7.1; remove the annotation or make it agree with the tag',
      },
    });
  });
});

describe('the image to run and the label release', () => {
  it('pins the digest only when asked, keeping the tag and replacing an earlier digest', () => {
    expect(runImage('quay.io/acme/stack:1.0', digest, false)).toBe('quay.io/acme/stack:1.0');
    expect(runImage('quay.io/acme/stack:1.0', digest, true)).toBe(`quay.io/acme/stack:1.0@${digest}`);
    expect(runImage(`quay.io/acme/stack:1.0@sha256:${'b'.repeat(64)}`, digest, true)).toBe(`quay.io/acme/stack:1.0@${digest}`);
  });

  it('reads the release of the version labels as a tag: OGX\'s label first, then the OCI one', () => {
    const config = (imageVersion?: string, distributionVersion?: string): ImageConfig => ({
      digest,
      platform: 'linux/amd64',
      from: 'base64',
      text: 'version: 2\n',
      ...(imageVersion !== undefined && { imageVersion }),
      ...(distributionVersion !== undefined && { distributionVersion }),
    });
    const oci = 'org.opencontainers.image.version';
    const ogx = 'com.ogx.distribution.version';
    expect(labelRelease(config('v0.7.1'))).toEqual({ release: '0.7.1', label: oci });
    expect(labelRelease(config('nightly'))).toBeUndefined();
    expect(labelRelease(config())).toBeUndefined();
    // The rh image: OGX's label names the OGX build; a base image's OCI version (9.6) names none.
    expect(labelRelease(config('9.6', 'v1.2.4+rhaiv.0'))).toEqual({ release: '1.2.4', build: 'rhaiv.0', label: ogx });
    expect(labelRelease(config('1.2.2', 'v1.2.4+rhaiv.0'))).toEqual({ release: '1.2.4', build: 'rhaiv.0', label: ogx });
    expect(labelRelease(config('v1.2.2', 'dev'))).toEqual({ release: '1.2.2', label: oci });
  });

  it('an image with another tag: the tag (and a digest, which named the old content) replaced', () => {
    expect(withTag('docker.io/ogxai/distribution-starter:1.2.2', '1.2.5')).toBe('docker.io/ogxai/distribution-starter:1.2.5');
    expect(withTag(`localhost:5000/starter:v1.2.2@${digest}`, 'v1.2.5')).toBe('localhost:5000/starter:v1.2.5');
    expect(withTag('localhost:5000/starter', '1.2.5')).toBe('localhost:5000/starter:1.2.5');
  });

  it('a plan awaiting labels names the image at `spec.distribution.image`', () => {
    expect(awaitingLabels('quay.io/acme/stack:1.0', 'not yet')).toEqual({
      ok: false,
      problems: [{ path: ['spec', 'distribution', 'image'], message: 'not yet' }],
      pendingImage: 'quay.io/acme/stack:1.0',
    });
  });
});

describe('the named distribution of an image', () => {
  const pinned = { image: 'quay.io/mirror/starter:0.7.1', config: { value: { version: 2 } }, source: 'test' };
  const catalog: Catalog = { starter: { defaultRelease: '0.7.1', releases: { '0.7.1': pinned } } };

  it('an image of its repository, of upstream\'s or of a mirror it names, at a catalog release, has that release', () => {
    const upstream = distributionOfImage(catalog, 'docker.io/llamastack/distribution-starter:0.7.1', '0.7.1');
    expect(upstream).toEqual({ name: 'starter', entry: catalog.starter, pinned, release: '0.7.1' });
    expect(distributionOfImage(catalog, 'quay.io/mirror/starter:x', '0.7.1').pinned).toBe(pinned);
  });

  it('an image whose tag names no release is the catalog release that pins exactly that image (a digest aside), else none', () => {
    const stable = { image: 'quay.io/vendor/stack:stable-3.5', config: { value: { version: 2 } }, source: 'test' };
    const vendor: Catalog = { vendor: { defaultRelease: '1.2.4', releases: { '1.2.4': stable } } };
    const found = { name: 'vendor', entry: vendor.vendor, pinned: stable, release: '1.2.4' };
    expect(distributionOfImage(vendor, 'quay.io/vendor/stack:stable-3.5', undefined)).toEqual(found);
    expect(distributionOfImage(vendor, `quay.io/vendor/stack:stable-3.5@sha256:${'b'.repeat(64)}`, undefined)).toEqual(found);
    expect(distributionOfImage(vendor, 'quay.io/vendor/stack:stable-3.6', undefined)).toEqual({ name: 'vendor', entry: vendor.vendor });
  });

  it('another release of it has no catalog release; another repository has no distribution', () => {
    expect(distributionOfImage(catalog, 'quay.io/mirror/starter:0.6.0', '0.6.0')).toEqual({ name: 'starter', entry: catalog.starter });
    expect(distributionOfImage(catalog, 'quay.io/mirror/starter:x', undefined)).toEqual({ name: 'starter', entry: catalog.starter });
    expect(distributionOfImage(catalog, 'quay.io/acme/stack:0.7.1', '0.7.1')).toEqual({});
    expect(pinnedRelease(undefined, '0.7.1')).toBeUndefined();
    expect(pinnedRelease(catalog.starter, 'toString')).toBeUndefined();
  });
});

describe('the release of a named distribution that serves a release', () => {
  const release = (image: string) => ({ image, config: { value: { version: 2 } }, source: 'test' });
  const starter: CatalogEntry = {
    defaultRelease: '1.3.0',
    releases: { '1.1.3': release('docker.io/ogxai/distribution-starter:1.1.3'), '1.2.2': release('docker.io/ogxai/distribution-starter:1.2.2'),
      '1.3.0': release('docker.io/ogxai/distribution-starter:1.3.0') },
  };
  const starterReleases = ['1.1.3', '1.2.2', '1.3.0'];
  const rh: CatalogEntry = {
    defaultRelease: '1.2.4',
    releases: { '1.2.2': release('quay.io/rhoai/odh-ogx-core-rhel9:rhoai-3.6-ea.2'), '1.2.4': release('quay.io/rhoai/odh-ogx-core-rhel9:rhoai-3.5') },
  };
  const at = ['metadata', 'annotations', 'llamastack.io/release'];

  it('its own release: that release, its image, and nothing to tell', () => {
    const chosen = namedRelease('starter', starter, starterReleases, { release: '1.2.2' }, at);
    expect(chosen).toMatchObject({ ok: true, base: '1.2.2', image: 'docker.io/ogxai/distribution-starter:1.2.2', support: { catalogRelease: '1.2.2' } });
    expect(chosen.ok && chosen.note).toBeUndefined();
  });

  it('a patch release it lacks: its newest release of the line, the image tagged with the asked release, and an info naming both', () => {
    const chosen = namedRelease('starter', starter, starterReleases, { release: '1.2.5' }, at);
    expect(chosen).toMatchObject({ ok: true, base: '1.2.2', image: 'docker.io/ogxai/distribution-starter:1.2.5', support: { catalogRelease: '1.2.2' } });
    expect(chosen.ok && chosen.note).toEqual({
      severity: 'info',
      path: at,
      message: 'release 1.2.5 renders with the facts of 1.2.2, the newest 1.2 release llsd-render knows (the base config of distribution "starter" at ' +
        '1.2.2, image docker.io/ogxai/distribution-starter:1.2.5)',
    });
    // A build is its upstream release: the tag is the upstream one (a tag cannot hold `+`); the message names the build.
    const built = namedRelease('starter', starter, starterReleases, { release: '1.2.4', build: 'rhaiv.0' }, at);
    expect(built).toMatchObject({ ok: true, base: '1.2.2', image: 'docker.io/ogxai/distribution-starter:1.2.4' });
    expect(built.ok && built.note?.message).toMatch(/^release 1\.2\.4\+rhaiv\.0 renders with the facts of 1\.2\.2/);
  });

  it('a release newer than every catalog release: the newest, with a warning naming both', () => {
    const newest = catalogReleases().at(-1) as string;
    expect(newest).toBe('1.3.0');
    const chosen = namedRelease('starter', starter, starterReleases, { release: '1.5.0' }, at);
    expect(chosen).toMatchObject({ ok: true, base: '1.3.0', image: 'docker.io/ogxai/distribution-starter:1.5.0', support: { catalogRelease: '1.3.0' } });
    expect(chosen.ok && chosen.note).toEqual({
      severity: 'warning',
      code: 'release-newer-than-catalog',
      path: at,
      message: 'release 1.5.0 is newer than every release llsd-render knows (the newest is 1.3.0), so it renders with the facts of 1.3.0 (the base ' +
        'config of distribution "starter" at 1.3.0, image docker.io/ogxai/distribution-starter:1.5.0): what 1.5.0 added or changed is not checked; ' +
        'update llsd-render, or pin a release it knows',
    });
    expect(namedRelease('starter', starter, starterReleases, { release: '2.0.0' }, at)).toMatchObject({ ok: true, base: '1.3.0' });
  });

  it('no release of the line, a line the catalog lacks, or a newer release without one of the newest line: none serves', () => {
    expect(namedRelease('starter', starter, starterReleases, { release: '1.0.1' }, at)).toEqual({ ok: false });
    expect(namedRelease('starter', starter, starterReleases, { release: '0.9.0' }, at)).toEqual({ ok: false });
    expect(namedRelease('rh', rh, ['1.2.2', '1.2.4'], { release: '1.5.0' }, at)).toEqual({ ok: false });
  });

  it('a distribution whose tags are not releases serves its own releases, and says which image to name for another', () => {
    expect(namedRelease('rh', rh, ['1.2.2', '1.2.4'], { release: '1.2.4', build: 'rhaiv.0' }, at)).toMatchObject({
      ok: true, base: '1.2.4', image: 'quay.io/rhoai/odh-ogx-core-rhel9:rhoai-3.5' });
    expect(namedRelease('rh', rh, ['1.2.2', '1.2.4'], { release: '1.2.5' }, at)).toEqual({
      ok: false,
      message: 'distribution "rh" has no release "1.2.5", and its images are not tagged by release (1.2.4 runs quay.io/rhoai/odh-ogx-core-rhel9:rhoai-3.5), ' +
        'so llsd-render cannot tell which image runs 1.2.5: set `spec.distribution.image` to that image instead of `name`',
    });
  });

  it('a release note: nothing for a catalog release or a pinned one within its line; an image of a newer release warns', () => {
    expect(releaseNote('1.2.2', '1.2.2', '1.2.2', at, 'x', '1.2.2')).toBeUndefined();
    expect(releaseNote('1.2.4', '1.2.4', '1.2.2', at, 'x')).toBeUndefined();
    expect(releaseNote('1.2.5', '1.2.5', '1.2.2', at, 'x', '1.2.2')?.severity).toBe('info');
    expect(releaseNote('v1.4.0', '1.4.0', '1.3.0', ['spec', 'distribution', 'image'], 'image quay.io/a/b:v1.4.0')).toMatchObject({
      severity: 'warning',
      code: 'release-newer-than-catalog',
      path: ['spec', 'distribution', 'image'],
    });
  });
});
