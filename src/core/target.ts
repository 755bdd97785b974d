// The target a CR renders against, for both front ends: the release it asks for (the
// `llamastack.io/release` annotation, the image tag, else the image's version labels), the release
// of a named distribution that serves it (its own, else its newest of the same line), the image
// the Deployment runs (pinned by digest when the render options ask), and what every plan carries.
import type { FieldProblem } from '../lib/issues.js';
import { clip, quote } from '../lib/quote.js';
import { parseReleaseNumber, releaseForms, releaseLine, type ReleaseNumber } from '../lib/release-number.js';
import { newestRelease, type ReleaseProfile } from '../catalog/catalog.js';
import { distributionOfRepository, parseImage, releaseOfTag, type Catalog, type CatalogEntry, type CatalogRelease } from '../catalog/distributions.js';
import { imageVersionLabel, ogxVersionLabel, type ImageConfig, type ImageLookup } from '../catalog/image-labels.js';
import { releaseRelation, releaseSupport, type ReleaseSupport } from '../catalog/versions.js';
import { annotation } from '../krm/item.js';
import type { CaBundle } from './ca-bundle.js';

type Path = FieldProblem['path'];

export const releasePath: Path = ['metadata', 'annotations', annotation.release];
export const namePath: Path = ['spec', 'distribution', 'name'];
export const imagePath: Path = ['spec', 'distribution', 'image'];

/**
 * What an LLSD and an OGXServer both plan to, and what the stages after the plan read alike (the
 * image, the release and its facts, the CA bundle, where a base config from image labels came
 * from). Each API's plan adds its validated CR and its config source: `Plan` (src/llsd/plan.ts),
 * `OgxPlan` (src/ogx/plan.ts).
 */
export interface ServerTarget {
  /** The named distribution; for an image of none, the config's `distro_name`/`image_name` or `custom`. */
  distributionName: string;
  /** The image the Deployment runs. */
  image: string;
  /** The upstream release, MAJOR.MINOR.PATCH (a `+build` the CR or a label wrote is in `build`). */
  release: string;
  /** The build written after the release (`rhaiv.0` of `1.2.4+rhaiv.0`): it renders as its upstream release; the summary names it. */
  build?: string;
  profile: ReleaseProfile;
  /** The catalog release whose schemas and provider registry answer for `release` (itself, or the catalog's release of its major.minor). */
  catalogRelease: string;
  /** The valid certificates of the CA bundle the CR names. */
  caBundle?: CaBundle;
  /** Set when the base config came from the labels of the CR's image: where from, for the info result. */
  imageSource?: Extract<ImageLookup, { ok: true }>;
}

/** How `spec.distribution.image` configs from labels are used: the lookups done so far, and the digest pin. */
export interface ImageLabels {
  lookups?: ReadonlyMap<string, ImageLookup> | undefined;
  pinDigest?: boolean | undefined;
}

/** The release a CR asks for: upstream MAJOR.MINOR.PATCH, the build written after it, and the field that said so. */
export interface AskedRelease {
  release: string | undefined;
  build?: string;
  from: Path;
  /** An annotation that is no release, or one the image tag contradicts (a plan refuses the CR; the converter takes the annotation). */
  problem?: FieldProblem;
}

/**
 * The release a CR asks for before any registry lookup: its annotation, else the tag of its
 * `spec.distribution.image` when that is a release. Both are read by one parser: `v1.2.2` is 1.2.2,
 * `1.2.4+rhaiv.0` is a build of 1.2.4 (an image tag cannot hold `+`, so a tag never has a build).
 */
export function askedRelease(annotations: Readonly<Record<string, string>> | undefined, image: string | undefined): AskedRelease {
  const annotated = annotations?.[annotation.release];
  const tagRelease = image === undefined ? undefined : releaseOfTag(parseImage(image).tag);
  if (annotated === undefined) return { release: tagRelease, from: imagePath };
  const parsed = parseReleaseNumber(annotated);
  if (!parsed) {
    const message = `must name a release, such as ${releaseForms(newestRelease())}, not ${quote(clip(annotated))}`;
    return { release: undefined, from: releasePath, problem: { path: releasePath, message } };
  }
  const asked: AskedRelease = { release: parsed.release, ...buildOf(parsed), from: releasePath };
  if (tagRelease !== undefined && parsed.release !== tagRelease) {
    const message = `says release ${clip(annotated)}, but the image tag says ${tagRelease}; remove the annotation or make it agree with the tag`;
    return { ...asked, problem: { path: releasePath, message } };
  }
  return asked;
}

/** `{build}` when one is written, for spreading into a plan. */
export const buildOf = (parsed: { build?: string | undefined }): { build?: string } => (parsed.build === undefined ? {} : { build: parsed.build });

/** A release as written, build included: `1.2.4+rhaiv.0`. */
export const writtenOf = (asked: { release?: string | undefined; build?: string | undefined }): string =>
  `${asked.release ?? ''}${asked.build === undefined ? '' : `+${asked.build}`}`;

/** A named distribution's catalog release, when it has `release`. */
export function pinnedRelease(entry: CatalogEntry | undefined, release: string | undefined): CatalogRelease | undefined {
  return entry && release !== undefined && Object.hasOwn(entry.releases, release) ? entry.releases[release] : undefined;
}

/**
 * The named distribution an image belongs to (its repository or a mirror's), and its catalog
 * release at `release`: an image there renders on the catalog's base config for it. An image whose
 * tag names no release (`…:rhoai-3.5`) but that is exactly one a catalog release pins is that
 * release (`release` in the answer): the catalog already knows its config, no registry needed.
 */
export function distributionOfImage(
  catalog: Catalog,
  image: string,
  release: string | undefined,
): { name?: string; entry?: CatalogEntry; pinned?: CatalogRelease; release?: string } {
  const name = distributionOfRepository(catalog, parseImage(image).repository);
  if (name === undefined) return {};
  const entry = catalog[name] as CatalogEntry;
  if (release === undefined) {
    const withoutDigest = image.split('@')[0];
    const found = Object.entries(entry.releases).find(([, r]) => r.image === withoutDigest);
    return found ? { name, entry, pinned: found[1], release: found[0] } : { name, entry };
  }
  const pinned = pinnedRelease(entry, release);
  return pinned ? { name, entry, pinned, release } : { name, entry };
}

/**
 * The release an image's labels name, for an image whose tag names none: OGX's own
 * `com.ogx.distribution.version` first (it names the OGX release; a vendor's base image may set the
 * OCI label to its own version), else `org.opencontainers.image.version`. `label`: the one read.
 */
export function labelRelease(config: ImageConfig): (ReleaseNumber & { label: string }) | undefined {
  for (const [label, value] of [[ogxVersionLabel, config.distributionVersion], [imageVersionLabel, config.imageVersion]] as const) {
    const parsed = parseReleaseNumber(value);
    if (parsed) return { ...parsed, label };
  }
  return undefined;
}

/** A named distribution's release that serves a CR's release: its base config and image, and what to tell the user. */
export type NamedRelease =
  | {
      ok: true;
      /** The distribution's own release whose base config serves: the asked one, or its newest of the same line. */
      base: string;
      pinned: CatalogRelease;
      /** The image to run: the pinned one, or the same repository tagged with the asked release. */
      image: string;
      support: ReleaseSupport;
      /** The info (a release of the line the distribution lacks) or warning (newer than the catalog) that says so. */
      note?: FieldProblem;
    }
  | { ok: false; message?: string };

/**
 * Which of `releases` (a named distribution's, oldest first) serves `release`: the same one; else,
 * for a patch release it lacks, its newest release of the same line (the schemas of a line do not
 * change in patch releases); else, for a release newer than every catalog release, its release of
 * the catalog's newest line. The image is then the pinned one's repository at the asked release,
 * when the pinned tag is a release; a distribution tagged otherwise (`rh`: `rhoai-3.5`) cannot say
 * which image runs another release, so it gives a message. `ok: false` without a message: no
 * release of it serves, which the caller words with the list of its releases.
 */
export function namedRelease(
  name: string,
  entry: CatalogEntry,
  releases: readonly string[],
  asked: { release: string; build?: string },
  path: Path,
): NamedRelease {
  const { release } = asked;
  const support = releaseSupport(release);
  if (!support) return { ok: false };
  const written = writtenOf(asked);
  if (releases.includes(release)) {
    const pinned = entry.releases[release] as CatalogRelease;
    const note = releaseNote(written, release, support.catalogRelease, path, `distribution ${quote(name)} at ${release}, image ${clip(pinned.image)}`);
    return { ok: true, base: release, pinned, image: pinned.image, support, ...(note && { note }) };
  }
  const newer = releaseRelation(release, support.catalogRelease) === 'newer';
  const line = releaseLine(newer ? support.catalogRelease : release);
  const base = [...releases].reverse().find((r) => releaseLine(r) === line);
  if (base === undefined) return { ok: false };
  const pinned = entry.releases[base] as CatalogRelease;
  const { tag } = parseImage(pinned.image);
  if (tag === undefined || releaseOfTag(tag) !== base) {
    return {
      ok: false,
      message:
        `distribution ${quote(name)} has no release ${quote(written)}, and its images are not tagged by release (${base} runs ${clip(pinned.image)}), so ` +
        `llsd-render cannot tell which image runs ${release}: set \`spec.distribution.image\` to that image instead of \`name\``,
    };
  }
  const image = withTag(pinned.image, tag.startsWith('v') ? `v${release}` : release);
  const what = `the base config of distribution ${quote(name)} at ${base}, image ${clip(image)}`;
  const note = releaseNote(written, release, support.catalogRelease, path, what, base);
  return { ok: true, base, pinned, image, support, ...(note && { note }) };
}

/**
 * What a render tells of a release the catalog lacks: an info for a release of a line it has (the
 * line's newest release answers), a warning for one newer than every catalog release; nothing for
 * a catalog release, or for a distribution's own release checked within its line (`base` unset: the
 * distribution pins it, and the judge's messages name the catalog release they check against).
 */
export function releaseNote(
  written: string,
  release: string,
  catalogRelease: string,
  path: Path,
  what: string,
  base?: string,
): FieldProblem | undefined {
  const relation = releaseRelation(release, catalogRelease);
  if (relation === 'newer') {
    const message =
      `release ${written} is newer than every release llsd-render knows (the newest is ${catalogRelease}), so it renders with the facts of ` +
      `${catalogRelease} (${what}): what ${release} added or changed is not checked; update llsd-render, or pin a release it knows`;
    return { severity: 'warning', code: 'release-newer-than-catalog', path, message };
  }
  if (relation === 'same' || base === undefined) return undefined;
  const message = `release ${written} renders with the facts of ${catalogRelease}, the newest ${releaseLine(release)} release llsd-render knows (${what})`;
  return { severity: 'info', path, message };
}

/** `image` with its tag (and any digest, which named the old tag's content) replaced by `tag`. */
export function withTag(image: string, tag: string): string {
  const at = image.indexOf('@');
  const name = at < 0 ? image : image.slice(0, at);
  const colon = name.lastIndexOf(':');
  return `${colon > name.lastIndexOf('/') ? name.slice(0, colon) : name}:${tag}`;
}

/** The image the Deployment runs: with `pin`, `repo:tag@sha256:…` (the tag stays for people to read; the runtime pulls by the digest). */
export function runImage(image: string, digest: string, pin: boolean | undefined): string {
  if (!pin) return image;
  const at = image.indexOf('@');
  return `${at < 0 ? image : image.slice(0, at)}@${digest}`;
}

/** A plan that needs the labels of `image`, which the registry adapter has not looked up yet (process() looks them up and plans again). */
export const awaitingLabels = (image: string, message: string): { ok: false; problems: FieldProblem[]; pendingImage: string } => ({
  ok: false,
  problems: [{ path: imagePath, message }],
  pendingImage: image,
});
