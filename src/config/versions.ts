// llama-stack release numbers and the profile (config layout, image conventions) of each.
import { releaseProfiles, type ReleaseProfile } from './catalog.js';

/** Compares `0.7.1`-style versions numerically. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** The profile that covers `release`, or undefined when the release is older than every profile. */
export function profileFor(release: string): ReleaseProfile | undefined {
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
