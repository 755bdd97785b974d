// llama-stack release numbers and the profile (config layout, image conventions) of each.
import { compareVersions } from '../lib/compare-versions.js';
import { catalogReleaseFor, catalogReleases, releaseProfiles, type ReleaseProfile } from './catalog.js';
export { compareVersions };

const profiles = new Map<string, ReleaseProfile | undefined>();

/** The profile that covers `release`, or undefined when the release is older than every profile. */
export function profileFor(release: string): ReleaseProfile | undefined {
  if (profiles.has(release)) return profiles.get(release);
  const found = findProfile(release);
  if (profiles.size < 10_000) profiles.set(release, found);
  return found;
}

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
  /** The release itself, or the catalog's release of the same major.minor. */
  catalogRelease: string;
}

/**
 * A release is supported when a profile covers it and the release catalog has it or another
 * release of its major.minor: every generated config is checked against a catalog release's schemas.
 */
export function releaseSupport(release: string): ReleaseSupport | undefined {
  const profile = profileFor(release);
  const catalogRelease = catalogReleaseFor(release);
  return profile && catalogRelease ? { profile, catalogRelease } : undefined;
}

/** The supported releases, for messages: "0.2.x (checked against 0.2.14), …". */
export function supportedReleases(): string {
  const minors = [...new Set(catalogReleases().map((r) => `${r.split('.').slice(0, 2).join('.')}.x`))];
  return `${minors.join(', ')} (the release catalog has ${catalogReleases().join(', ')}; docs/releases.md "Adding a release" says how to add one)`;
}
