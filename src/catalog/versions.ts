// llama-stack release numbers and the profile (config layout, image conventions) of each.
import { catalogReleaseFor, catalogReleases, releaseProfiles, type ReleaseProfile } from './catalog.js';

/** The numbers of a version; the few distinct versions are split once (a render compares thousands of times). */
const parts = new Map<string, number[]>();
function partsOf(version: string): number[] {
  let found = parts.get(version);
  if (!found) {
    found = version.split('.').map(Number);
    if (parts.size < 10_000) parts.set(version, found);
  }
  return found;
}

/** Compares `0.7.1`-style versions numerically. */
export function compareVersions(a: string, b: string): number {
  const pa = partsOf(a);
  const pb = partsOf(b);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

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
