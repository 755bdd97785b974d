// The target a CR renders against, for both front ends: the release it asks for (the
// `llamastack.io/release` annotation, the image tag, else the image's version label), the image
// the Deployment runs (pinned by digest when the render options ask), and what every plan carries.
import type { FieldProblem } from '../lib/issues.js';
import { clip } from '../lib/quote.js';
import type { ReleaseProfile } from '../catalog/catalog.js';
import { distributionOfRepository, parseImage, releaseOfTag, type Catalog, type CatalogEntry, type CatalogRelease } from '../catalog/distributions.js';
import type { ImageConfig, ImageLookup } from '../catalog/image-labels.js';
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
  release: string;
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

/**
 * The release a CR asks for before any registry lookup: its annotation, else the tag of its
 * `spec.distribution.image` when that is a release. `from`: the field that said so. `conflict`: the
 * annotation and the tag name two releases (a plan refuses the CR; the converter takes the annotation).
 */
export function askedRelease(
  annotations: Readonly<Record<string, string>> | undefined,
  image: string | undefined,
): { release: string | undefined; from: Path; conflict?: FieldProblem } {
  const annotated = annotations?.[annotation.release];
  const tagRelease = image === undefined ? undefined : releaseOfTag(parseImage(image).tag);
  const from = annotated !== undefined ? releasePath : imagePath;
  if (annotated !== undefined && tagRelease !== undefined && annotated !== tagRelease) {
    const message = `says release ${clip(annotated)}, but the image tag says ${tagRelease}; remove the annotation or make it agree with the tag`;
    return { release: annotated, from, conflict: { path: releasePath, message } };
  }
  return { release: annotated ?? tagRelease, from };
}

/** A named distribution's catalog release, when it has `release`. */
export function pinnedRelease(entry: CatalogEntry | undefined, release: string | undefined): CatalogRelease | undefined {
  return entry && release !== undefined && Object.hasOwn(entry.releases, release) ? entry.releases[release] : undefined;
}

/**
 * The named distribution an image belongs to (its repository or a mirror's), and its catalog
 * release at `release`: an image there renders on the catalog's base config for it.
 */
export function distributionOfImage(
  catalog: Catalog,
  image: string,
  release: string | undefined,
): { name?: string; entry?: CatalogEntry; pinned?: CatalogRelease } {
  const name = distributionOfRepository(catalog, parseImage(image).repository);
  if (name === undefined) return {};
  const entry = catalog[name] as CatalogEntry;
  const pinned = pinnedRelease(entry, release);
  return pinned ? { name, entry, pinned } : { name, entry };
}

/** The release an image's `org.opencontainers.image.version` label names, for an image whose tag names none. */
export const labelRelease = (config: ImageConfig): string | undefined => releaseOfTag(config.imageVersion);

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
