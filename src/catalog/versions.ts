// llama-stack release numbers and the profile (config layout, image conventions) of each.
import { compareVersions } from '../lib/compare-versions.js';
import { releaseLine } from '../lib/release-number.js';
import { catalogReleaseFor, catalogReleases, ogxServerReleases, releaseProfiles, type ReleaseProfile } from './catalog.js';
export { compareVersions };

const profiles = new Map<string, ReleaseProfile | undefined>();

/** The profile that covers `release`, or undefined when the release is older than every profile. */
export function profileFor(release: string): ReleaseProfile | undefined {
  if (profiles.has(release)) return profiles.get(release);
  const found = findProfile(release);
  if (profiles.size < 10_000) profiles.set(release, found);
  return found;
}

/**
 * A release as messages name it: `OGX 1.3.0` from 0.8.0 on (llama-stack was renamed OGX), else
 * `llama-stack 0.7.1` (configs/releases.yaml `serverName`). The one place a message names a release.
 */
export const releaseName = (release: string): string =>
  `${(isReleaseNumber(release) ? profileFor(release)?.serverName : undefined) ?? 'llama-stack'} ${release}`;

const isReleaseNumber = (release: string): boolean => /^\d+\.\d+\.\d+/.test(release);

function findProfile(release: string): ReleaseProfile | undefined {
  let found: ReleaseProfile | undefined;
  for (const profile of releaseProfiles()) {
    if (compareVersions(profile.since, release) <= 0 && (!found || compareVersions(profile.since, found.since) > 0)) found = profile;
  }
  return found;
}

/** What llsd-render knows of a release: its profile (layout, image) and the catalog release whose schemas and registry answer for it. */
export interface ReleaseSupport {
  profile: ReleaseProfile;
  /** The release itself, the catalog's newest release of its line, or (a release newer than the catalog) the newest release. */
  catalogRelease: string;
}

/**
 * A release is supported when a profile covers it and the release catalog has it, another release
 * of its major.minor (config schemas do not change in patch releases), or nothing as new: a newer
 * release is checked against the newest one, which `releaseRelation` says, so a plan warns.
 */
export function releaseSupport(release: string): ReleaseSupport | undefined {
  const profile = profileFor(release);
  const newest = catalogReleases().at(-1);
  const catalogRelease = catalogReleaseFor(release) ?? (newest !== undefined && compareVersions(release, newest) > 0 ? newest : undefined);
  return profile && catalogRelease ? { profile, catalogRelease } : undefined;
}

/**
 * How a release stands to the catalog release that answers for it: the same, a patch release of
 * the same line the catalog lacks (told as an info), or newer than every catalog release (a warning).
 */
export function releaseRelation(release: string, catalogRelease: string): 'same' | 'line' | 'newer' {
  if (release === catalogRelease) return 'same';
  return releaseLine(release) === releaseLine(catalogRelease) ? 'line' : 'newer';
}

/** A release an OGXServer renders against: supported, and at or after the first the catalog renders OGXServers for (configs/ogx-divergences.yaml). */
export function isOgxServerRelease(release: string): boolean {
  const first = ogxServerReleases()[0];
  return first !== undefined && compareVersions(release, first) >= 0 && releaseSupport(release) !== undefined;
}

/** The supported releases, for messages: "0.2.x (checked against 0.2.14), …". */
export function supportedReleases(): string {
  const minors = [...new Set(catalogReleases().map((r) => `${releaseLine(r)}.x`))];
  return `${minors.join(', ')} (the release catalog has ${catalogReleases().join(', ')}; docs/releases.md "Adding a release" says how to add one)`;
}
