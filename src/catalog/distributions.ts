// The named distributions a render can use (docs/config-generation.md): the shipped ones (configs/
// distributions.yaml) with the RenderConfig `distributions` overrides laid over them, and the
// image-reference helpers that map `spec.distribution.image` to one of them.
import { isPlainObject } from '../lib/objects.js';
import { clip, listOf, quote } from '../lib/quote.js';
import { parseReference } from '../lib/image-reference.js';
import { parseReleaseNumber } from '../lib/release-number.js';
import { baseConfig, distributions, firstProfileSince, newestRelease, type ReleaseProfile } from './catalog.js';
import { compareVersions, releaseSupport, supportedReleases } from './versions.js';
import { releaseName } from './versions.js';

/** A release of a named distribution: the image that runs it and its base config.yaml. */
export interface CatalogRelease {
  image: string;
  /** The base config: a shipped file's text (parsed per render), or a mapping given in the RenderConfig. */
  config: { text: string } | { value: Record<string, unknown> };
  /** Where the base config comes from, for messages. */
  source: string;
}

export interface CatalogEntry {
  defaultRelease: string;
  releases: Record<string, CatalogRelease>;
}

/** Named distributions by name. */
export type Catalog = Record<string, CatalogEntry>;

/** One RenderConfig `distributions.<name>` entry, after the edge has read any `configPath`. */
export interface DistributionOverride {
  image?: string | undefined;
  release?: string | undefined;
  config?: Record<string, unknown> | undefined;
  configPath?: string | undefined;
}

export const supportedConfigVersions = ['2'];

/** FR-029: `version` must be 2 (a number or a string); the message names the version found. */
export function unsupportedVersionMessage(config: Record<string, unknown>): string | undefined {
  if (config.version === undefined || config.version === null) {
    return `has no \`version\`: write \`version: ${supportedConfigVersions.at(-1) ?? '2'}\` at its top (a config.yaml of OGX or llama-stack 0.2.14+ has one)`;
  }
  const version = typeof config.version === 'object' ? JSON.stringify(config.version) : String(config.version as string | number | boolean);
  return supportedConfigVersions.includes(version)
    ? undefined
    : `Unsupported config.yaml version ${clip(version)}. Supported versions: ${listOf(supportedConfigVersions)}`;
}

/** The layout a config.yaml is written in, when it shows: `storage.backends` (0.3+) or the old top-level stores (≤ 0.2). */
export function layoutOf(config: Record<string, unknown>): ReleaseProfile['layout'] | undefined {
  if (isPlainObject(config.storage) && isPlainObject(config.storage.backends)) return 'storage-backends';
  if (['metadata_store', 'inference_store'].some((key) => Object.hasOwn(config, key))) return 'top-level-stores';
  return undefined;
}

const layoutWords = (layout: ReleaseProfile['layout']): string => {
  const since = firstProfileSince((p) => p.layout === 'storage-backends');
  return layout === 'storage-backends'
    ? `\`storage.backends\` (${releaseName(String(since))} and later)`
    : `the top-level \`metadata_store\` (before ${releaseName(String(since))})`;
};

/** Why a base config cannot serve `release`, or undefined when its layout fits the release's profile. */
export function layoutMismatch(config: Record<string, unknown>, release: string, profile: ReleaseProfile): string | undefined {
  const layout = layoutOf(config);
  if (layout === undefined || layout === profile.layout) return undefined;
  return `is written for ${layoutWords(layout)}, but ${releaseName(release)} reads ${layoutWords(profile.layout)}`;
}

let shipped: Catalog | undefined;

/** The distributions shipped in configs/; a name or file missing there is a bug, so it throws. */
export function shippedCatalog(): Catalog {
  if (shipped) return shipped;
  const catalog: Catalog = {};
  for (const [name, entry] of Object.entries(distributions())) {
    const releases: Record<string, CatalogRelease> = {};
    for (const [release, pinned] of Object.entries(entry.releases)) {
      // Parsed when a plan asks for it: a render needs one or two of the shipped base configs.
      const path = pinned.config;
      const config = {
        get value(): Record<string, unknown> {
          const value = baseConfig(path);
          if (!isPlainObject(value)) throw new Error(`configs/distributions.yaml names ${path}, which is not embedded`);
          return value;
        },
      };
      releases[release] = { image: pinned.image, config, source: `configs/${pinned.config}` };
    }
    if (!Object.hasOwn(releases, entry.defaultRelease)) throw new Error(`configs/distributions.yaml: ${name} has no release ${entry.defaultRelease}`);
    catalog[name] = { defaultRelease: entry.defaultRelease, releases };
  }
  return (shipped = catalog);
}

export interface OverrideProblem {
  /** Path under the `distributions` option: `[name, field]`. */
  path: string[];
  message: string;
}

/**
 * Checks RenderConfig `distributions` entries against the shipped catalog: each one must end up
 * with an image, a supported release and a base config of version 2 in that release's layout.
 */
export function checkOverrides(overrides: Record<string, DistributionOverride>, base: Catalog = shippedCatalog()): OverrideProblem[] {
  const problems: OverrideProblem[] = [];
  for (const [name, override] of Object.entries(overrides)) {
    const at = (field?: string): string[] => (field === undefined ? [name] : [name, field]);
    if (override.configPath !== undefined) {
      problems.push({
        path: at('configPath'),
        message:
          override.config !== undefined
            ? 'give either `config` or `configPath`, not both'
            : 'is read from a file only by `llsd-render build` and `validate` (relative to the file that holds the RenderConfig); a KRM function cannot ' +
              'read files: give the base config inline as `config`',
      });
      continue;
    }
    // A malformed release or image is the options schema's to report.
    if ((override.release !== undefined && !/^\d+\.\d+\.\d+$/.test(override.release)) || (override.image !== undefined && /\s/.test(override.image))) continue;
    const existing = Object.hasOwn(base, name) ? base[name] : undefined;
    const tagRelease = override.image === undefined ? undefined : releaseOfTag(parseImage(override.image).tag);
    if (override.release !== undefined && tagRelease !== undefined && tagRelease !== override.release) {
      problems.push({
        path: at('image'),
        message: `has the tag of release ${clip(tagRelease)}, but \`release\` is ${clip(override.release)}; make them agree`,
      });
      continue;
    }
    const release = override.release ?? tagRelease ?? existing?.defaultRelease;
    const releaseField = override.release !== undefined ? 'release' : 'image';
    if (release === undefined) {
      problems.push({
        path: at('release'),
        message: `is required: ${quote(name)} is not a shipped distribution and the image tag is not a release such as \`${newestRelease()}\``,
      });
      continue;
    }
    const support = releaseSupport(release);
    if (!support) {
      problems.push({ path: at(releaseField), message: `${releaseName(clip(release))} is not supported; supported releases: ${supportedReleases()}` });
      continue;
    }
    const pinned = existing && Object.hasOwn(existing.releases, release) ? existing.releases[release] : undefined;
    const ships = existing ? `; ${quote(name)} ships ${listOf(Object.keys(existing.releases).sort(compareVersions))}` : '';
    if (override.image === undefined && !pinned) {
      problems.push({
        path: at('image'),
        message: `is required: ` +
          `${existing ? `${quote(name)} has no image for release ${clip(release)}${ships}` : `${quote(name)} is not a shipped distribution`}`,
      });
    }
    if (override.config === undefined) {
      if (!pinned) {
        problems.push({
          path: at('config'),
          message: `is required: ` +
            `${existing ? `${quote(name)} has no base config for release ${clip(release)}${ships}` : `${quote(name)} is not a shipped distribution`}; give ` +
            `its config.yaml as \`config\` (or as \`configPath\` with \`llsd-render build\`)`,
        });
      }
      continue;
    }
    const version = unsupportedVersionMessage(override.config);
    if (version) {
      problems.push({ path: [name, 'config', 'version'], message: version });
      continue;
    }
    const mismatch = layoutMismatch(override.config, release, support.profile);
    if (mismatch) problems.push({ path: at('config'), message: mismatch });
  }
  return problems;
}

/**
 * The shipped catalog with the overrides laid over it (checked by `checkOverrides` first). An
 * override applies to one release, `release` or the image tag's or the default one, and makes it
 * the distribution's default: `{starter: {image: mirror/…:0.7.1}}` mirrors the default release's
 * image, `{starter: {release: 0.8.0}}` makes 0.8.0 the default.
 */
export function mergeCatalog(overrides: Record<string, DistributionOverride> | undefined, base: Catalog = shippedCatalog()): Catalog {
  if (!overrides || Object.keys(overrides).length === 0) return base;
  const merged: Catalog = { ...base };
  for (const [name, override] of Object.entries(overrides)) {
    const existing = Object.hasOwn(base, name) ? base[name] : undefined;
    const tagRelease = override.image === undefined ? undefined : releaseOfTag(parseImage(override.image).tag);
    const release = override.release ?? tagRelease ?? existing?.defaultRelease;
    if (release === undefined) continue;
    const releases = { ...existing?.releases };
    const pinned = Object.hasOwn(releases, release) ? releases[release] : undefined;
    const image = override.image ?? pinned?.image;
    const config = override.config !== undefined ? { value: override.config } : pinned?.config;
    if (image === undefined || config === undefined) continue;
    releases[release] = {
      image,
      config,
      source: override.config !== undefined ? `the RenderConfig option \`distributions.${name}.config\`` : (pinned as CatalogRelease).source,
    };
    merged[name] = { defaultRelease: release, releases };
  }
  return merged;
}

// ---- image references ----------------------------------------------------------------------

export interface ImageRef {
  /** Registry and path, normalised: `docker.io/llamastack/distribution-starter`. */
  repository: string;
  tag?: string;
  digest?: string;
}

/**
 * Splits an image reference as the container runtime reads it (a name without a registry is on
 * Docker Hub); a string that is no reference keeps its text as the repository, so it matches nothing.
 */
export function parseImage(reference: string): ImageRef {
  const parsed = parseReference(reference);
  if (!parsed.ok) return { repository: reference };
  const { registry, repository, tag, digest } = parsed.ref;
  return { repository: `${registry}/${repository}`, ...(tag !== undefined && { tag }), ...(digest !== undefined && { digest }) };
}

/** The release an image tag names (`0.7.1`, `v0.7.1`), or undefined for `latest`, `test-0.8.0`, …. */
export const releaseOfTag = (tag: string | undefined): string | undefined => parseReleaseNumber(tag)?.release;

/**
 * The named distribution whose images live in `repository`: one of its release images' (mirrors
 * included), or the upstream `llamastack/distribution-<name>` and `ogx/distribution-<name>`.
 */
export function distributionOfRepository(catalog: Catalog, repository: string): string | undefined {
  for (const name of Object.keys(catalog).sort()) {
    const entry = catalog[name] as CatalogEntry;
    const repositories = new Set([
      `docker.io/llamastack/distribution-${name}`,
      `docker.io/ogx/distribution-${name}`,
      ...Object.values(entry.releases).map((r) => parseImage(r.image).repository),
    ]);
    if (repositories.has(repository)) return name;
  }
  return undefined;
}
