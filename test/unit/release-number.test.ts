// src/lib/release-number.ts: the one parser of a release as the annotation, an image tag and the
// image labels write it; and src/catalog/versions.ts: which catalog release answers for one.
import { describe, expect, it } from 'vitest';
import { parseReleaseNumber, releaseLine } from '../../src/lib/release-number.js';
import { releaseRelation, releaseSupport } from '../../src/catalog/versions.js';
import { releaseOfTag } from '../../src/catalog/distributions.js';

describe('parseReleaseNumber', () => {
  it('reads MAJOR.MINOR.PATCH, with a leading `v` and a build after `+`', () => {
    expect(parseReleaseNumber('1.2.2')).toEqual({ release: '1.2.2' });
    expect(parseReleaseNumber('v1.2.2')).toEqual({ release: '1.2.2' });
    expect(parseReleaseNumber('1.2.4+rhaiv.0')).toEqual({ release: '1.2.4', build: 'rhaiv.0' });
    expect(parseReleaseNumber('v1.2.4+rhaiv.0')).toEqual({ release: '1.2.4', build: 'rhaiv.0' });
    expect(parseReleaseNumber('10.20.30+build-7.x')).toEqual({ release: '10.20.30', build: 'build-7.x' });
  });

  it('names no release for a line, a pre-release, an empty build, other text or nothing', () => {
    for (const text of ['1.2', '1', '1.3.0-rc1', '1.2.4+', '1.2.4+a..b', 'V1.2.2', 'vv1.2.2', 'latest', 'test-0.8.0', '1.2.2.1', '', 'rhoai-3.5']) {
      expect(parseReleaseNumber(text), text).toBeUndefined();
    }
    expect(parseReleaseNumber(undefined)).toBeUndefined();
  });

  it('an image tag is read by the same parser (a tag cannot hold `+`, so a tag never has a build)', () => {
    const tags = [releaseOfTag('v1.2.2'), releaseOfTag('1.3.0'), releaseOfTag('rhoai-3.5'), releaseOfTag(undefined)];
    expect(tags).toEqual(['1.2.2', '1.3.0', undefined, undefined]);
  });

  it('the line of a release', () => {
    expect([releaseLine('1.2.5'), releaseLine('0.7.1')]).toEqual(['1.2', '0.7']);
  });
});

describe('the catalog release that answers for a release', () => {
  it('the same one; the newest of its line; the newest of all for a newer release; none for a line the catalog lacks', () => {
    expect(releaseSupport('1.2.2')?.catalogRelease).toBe('1.2.2');
    expect(releaseSupport('1.2.5')?.catalogRelease).toBe('1.2.2');
    expect(releaseSupport('1.2.0')?.catalogRelease).toBe('1.2.2');
    expect(releaseSupport('1.4.0')?.catalogRelease).toBe('1.3.0');
    expect(releaseSupport('2.0.0')?.catalogRelease).toBe('1.3.0');
    expect(releaseSupport('0.9.0')).toBeUndefined();
    expect(releaseSupport('0.5.0')).toBeUndefined();
    expect(releaseSupport('0.1.9')).toBeUndefined();
  });

  it('how a release stands to it: the same, a release of its line, or newer', () => {
    const pairs = [['1.2.2', '1.2.2'], ['1.2.5', '1.2.2'], ['1.5.0', '1.3.0'], ['2.0.0', '1.3.0']];
    const relations = pairs.map(([release, catalog]) => releaseRelation(release as string, catalog as string));
    expect(relations).toEqual(['same', 'line', 'newer', 'newer']);
  });
});
