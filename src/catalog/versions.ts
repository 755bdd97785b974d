// llama-stack release numbers and the profile (config layout, image conventions) of each.
import { releaseProfiles, type ReleaseProfile } from './catalog.js';

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

/** Releases the profiles cover, for messages: "0.2.0 and later". */
export function supportedReleases(): string {
  const oldest = [...releaseProfiles()].sort((a, b) => compareVersions(a.since, b.since))[0];
  return oldest ? `${oldest.since} and later` : 'none';
}
