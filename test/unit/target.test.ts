// core/target.ts: the release a CR asks for (annotation, image tag), the label release, the digest
// pin and the pending lookup, as both front ends read them.
import { describe, expect, it } from 'vitest';
import { askedRelease, awaitingLabels, distributionOfImage, labelRelease, pinnedRelease, runImage } from '../../src/core/target.js';
import type { Catalog } from '../../src/catalog/distributions.js';
import type { ImageConfig } from '../../src/catalog/image-labels.js';

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

  it('an annotation the tag contradicts is a conflict at the annotation, and the annotation is the release', () => {
    expect(askedRelease(annotated('0.6.0'), 'quay.io/acme/stack:0.7.1')).toEqual({
      release: '0.6.0',
      from: ['metadata', 'annotations', 'llamastack.io/release'],
      conflict: {
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

  it('reads the release of the version label as a tag', () => {
    const config = (imageVersion?: string): ImageConfig => ({
      digest,
      platform: 'linux/amd64',
      from: 'base64',
      text: 'version: 2\n',
      ...(imageVersion !== undefined && { imageVersion }),
    });
    expect(labelRelease(config('v0.7.1'))).toBe('0.7.1');
    expect(labelRelease(config('nightly'))).toBeUndefined();
    expect(labelRelease(config())).toBeUndefined();
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
    expect(upstream).toEqual({ name: 'starter', entry: catalog.starter, pinned });
    expect(distributionOfImage(catalog, 'quay.io/mirror/starter:x', '0.7.1').pinned).toBe(pinned);
  });

  it('another release of it has no catalog release; another repository has no distribution', () => {
    expect(distributionOfImage(catalog, 'quay.io/mirror/starter:0.6.0', '0.6.0')).toEqual({ name: 'starter', entry: catalog.starter });
    expect(distributionOfImage(catalog, 'quay.io/mirror/starter:x', undefined)).toEqual({ name: 'starter', entry: catalog.starter });
    expect(distributionOfImage(catalog, 'quay.io/acme/stack:0.7.1', '0.7.1')).toEqual({});
    expect(pinnedRelease(undefined, '0.7.1')).toBeUndefined();
    expect(pinnedRelease(catalog.starter, 'toString')).toBeUndefined();
  });
});
