// A release as people, tags and image labels write it: `1.2.4`, `v1.2.4`, `1.2.4+rhaiv.0`. One
// parser for every place a release is read (the `llamastack.io/release` annotation, an image tag,
// an image's version labels), so they all agree on what a release is (docs/releases.md).

/** A release read from text: the upstream release every comparison and the catalog use, and the build written after `+`. */
export interface ReleaseNumber {
  /** MAJOR.MINOR.PATCH, without `v` or build: `1.2.4`. */
  release: string;
  /**
   * The build after `+` (`rhaiv.0`, a Red Hat build of upstream 1.2.4). As in semver, a build does
   * not change which release it is: a vendor build of `vX.Y.Z` is upstream X.Y.Z, packaging aside.
   */
  build?: string;
}

// A leading `v` (git tags, OGX's image label); semver's build identifiers after `+`. No pre-release
// (`-rc1`): a release candidate is not the release, and the catalog has none to check it against.
const releasePattern = /^v?(\d+\.\d+\.\d+)(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/;

/** The release `text` names, or undefined when it names none (`latest`, `1.2`, `test-0.8.0`, `1.3.0-rc1`). */
export function parseReleaseNumber(text: string | undefined): ReleaseNumber | undefined {
  if (text === undefined) return undefined;
  const match = releasePattern.exec(text.trim());
  if (!match) return undefined;
  const release = match[1] as string;
  return match[2] === undefined ? { release } : { release, build: match[2] };
}

/** The line of a release, MAJOR.MINOR: `1.2` for `1.2.5`. */
export const releaseLine = (release: string): string => release.split('.').slice(0, 2).join('.');

/** The forms a release may be written in, for messages, shown with `release` (`1.3.0`, `v1.3.0` or `1.3.0+rhaiv.0`). */
export const releaseForms = (release: string): string => `\`${release}\`, \`v${release}\` or \`${release}+rhaiv.0\``;
