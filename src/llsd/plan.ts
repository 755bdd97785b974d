// Plan: which distribution, release, image and base config an LLSD renders against (docs/config-generation.md).
//
// The release, in this order: the `llamastack.io/release` annotation (another release of a named
// distribution); the named distribution's default release; for `distribution.image`, the image
// tag when it is a release; for an image whose config comes from its labels, also its version labels
// (`com.ogx.distribution.version`, then `org.opencontainers.image.version`); else the layout of the
// config.yaml (overrideConfig or labels). A release a named distribution lacks renders with its
// newest release of the line, or (newer than the catalog) its newest: core/target.ts `namedRelease`.
import type { FieldProblem } from '../lib/issues.js';
import { closest, isError } from '../lib/issues.js';
import { clip, listOf, quote } from '../lib/quote.js';
import type { Llsd } from './llsd.js';
import { catalogReleases, newestRelease, providableApis, type ReleaseProfile } from '../catalog/catalog.js';
import { layoutOf, shippedCatalog, unsupportedVersionMessage, type Catalog, type CatalogEntry, type CatalogRelease } from '../catalog/distributions.js';
import { compareVersions, releaseSupport, supportedReleases } from '../catalog/versions.js';
import { annotation } from '../krm/item.js';
import type { Inventory } from '../krm/inventory.js';
import { isPlainObject } from '../lib/objects.js';
import { readCaBundle } from '../core/ca-bundle.js';
import { askedRelease, awaitingLabels, buildOf, distributionOfImage, labelRelease, namedRelease, releaseNote, runImage, writtenOf } from '../core/target.js';
import { imagePath, namePath, releasePath, type ImageLabels, type ServerTarget } from '../core/target.js';
import { catalogBase, configMapConfig, parseConfigYaml } from '../core/base-config.js';
import { imageBaseWarnings } from '../core/base-credentials.js';
import { releaseName } from '../catalog/versions.js';

// What every plan carries is declared in core; named here too for the stages that read an LLSD's plan.

export interface Plan extends ServerTarget {
  llsd: Llsd;
  /** Set when the release was not given but assumed (from the overrideConfig layout): says so, for the summary. */
  releaseNote?: string;
  /**
   * The distribution's config.yaml as the server would parse it (with overrideConfig and no base:
   * that config). Shared with the catalog and other plans: never changed (generateConfig copies it).
   */
  baseConfig: Record<string, unknown>;
  /** `spec.overrideConfig`: the user's ConfigMap and its config.yaml, used instead of a generated one. */
  overrideConfig?: { configMapName: string; text: string; /** `text` as the server parses it. */ value: Record<string, unknown> };
}

/**
 * `problems` of a plan that succeeded are warnings. `pendingImage`: the plan needs the config in
 * the labels of that image, which the registry adapter has not looked up yet (see `process`).
 */
export type PlanOutcome = { ok: true; plan: Plan; problems?: FieldProblem[] } | { ok: false; problems: FieldProblem[]; pendingImage?: string };

interface OverrideConfig {
  configMapName: string;
  text: string;
  value: Record<string, unknown>;
}

/**
 * `catalog`: the named distributions, shipped ones with the RenderConfig `distributions` laid over
 * them (RenderOptions.distributions).
 */
export function planLlsd(llsd: Llsd, inventory: Inventory, catalog: Catalog = shippedCatalog(), labels: ImageLabels = {}): PlanOutcome {
  const { name, image } = llsd.spec.distribution;
  // A named distribution is planned first, so its errors come before the overrideConfig's; an
  // image may need the overrideConfig's layout to tell its release.
  const named = name !== undefined ? planNamed(llsd, name, catalog) : undefined;
  if (named && !named.ok) return named;
  let override: OverrideConfig | undefined;
  if (llsd.spec.overrideConfig) {
    const read = readOverrideConfig(llsd, inventory);
    if ('problem' in read) return { ok: false, problems: [read.problem] };
    override = read;
  }
  const planned = named ?? planImage(llsd, String(image), catalog, override, labels);
  if (!planned.ok) return planned;
  if (override) planned.plan.overrideConfig = { configMapName: override.configMapName, text: override.text, value: override.value };
  const ca = readCaBundle(llsd, inventory);
  if (ca.problems.some(isError)) return { ok: false, problems: ca.problems };
  if (ca.bundle) planned.plan.caBundle = ca.bundle;
  return ca.problems.length > 0 ? { ...planned, problems: ca.problems } : planned;
}

/** `distribution.name`: the annotation's release or the default one, with its pinned image and base config. */
function planNamed(llsd: Llsd, name: string, catalog: Catalog): PlanOutcome {
  const entry = Object.hasOwn(catalog, name) ? catalog[name] : undefined;
  if (!entry) {
    const known = Object.keys(catalog).sort();
    const near = closest(name, known);
    return fail(
      namePath,
      `unknown distribution ${quote(name)}.${near ? ` Did you mean "${near}"?` : ''} Known distributions: ${listOf(known)}; ` +
        'or set `spec.distribution.image` instead.',
    );
  }
  const asked = askedRelease(llsd.annotations, undefined);
  if (asked.problem) return { ok: false, problems: [asked.problem] };
  const release = asked.release ?? entry.defaultRelease;
  const chosen = namedRelease(name, entry, Object.keys(entry.releases).sort(compareVersions), { ...asked, release }, releasePath);
  if (!chosen.ok) {
    const written = llsd.annotations?.[annotation.release] ?? release;
    const message =
      `distribution "${name}" has no release ${quote(written)}; available: ${releasesOf(entry)}: ` +
      'write one of those, or set `spec.distribution.image` to the image that runs the release instead of `name`';
    return fail(releasePath, chosen.message ?? message);
  }
  return withBase(llsd, name, chosen.image, release, chosen.pinned, namePath, { ...buildOf(asked), note: chosen.note });
}

/**
 * `distribution.image`: the release is the annotation's or the tag's. An image of a named
 * distribution (its repository or a mirror's) at a release with a base config uses that base;
 * with `overrideConfig`, that config; any other image, the config in its OCI labels (docs/configuration.md).
 */
function planImage(llsd: Llsd, image: string, catalog: Catalog, override: OverrideConfig | undefined, labels: ImageLabels): PlanOutcome {
  const asked = askedRelease(llsd.annotations, image);
  if (asked.problem) return { ok: false, problems: [asked.problem] };
  const { release, from: fromPath } = asked;
  const { name, entry, pinned, release: pinnedAt } = distributionOfImage(catalog, image, release);
  if (name !== undefined && pinned && pinnedAt !== undefined) {
    const support = releaseSupport(pinnedAt);
    const note = support && release !== undefined && releaseNote(writtenOf(asked), pinnedAt, support.catalogRelease, fromPath, `image ${clip(image)}`);
    return withBase(llsd, name, image, pinnedAt, pinned, fromPath, { ...buildOf(asked), note: note || undefined });
  }
  if (override) {
    return planConfig(llsd, image, name ?? nameInConfig(override.value) ?? 'custom', asked, fromPath, override.value, 'the overrideConfig config.yaml');
  }

  const lookup = labels.lookups?.get(image);
  if (!lookup) return awaitingLabels(image, `the config in the labels of ${clip(image)} has not been looked up (a render without registry access)`);
  if (!lookup.ok) {
    const shipped = entry ? `; "${name}" ships base configs for ${releasesOf(entry)}: use one of them` : '';
    return fail(imagePath, `${lookup.message}${shipped}`);
  }
  const parsed = parseConfigYaml(lookup.config.text);
  if (!parsed.ok) {
    const message = `the config.yaml in the labels of ${clip(image)} is not a YAML mapping${parsed.detail}`;
    return fail(imagePath, `${message}; fix the image's labels or use \`spec.overrideConfig\``);
  }
  const version = unsupportedVersionMessage(parsed.value);
  if (version) return fail(imagePath, `the config.yaml in the labels of ${image}: ${version}`);
  const labelled = release === undefined ? labelRelease(lookup.config) : undefined;
  const planned = planConfig(
    llsd,
    runImage(image, lookup.config.digest, labels.pinDigest),
    name ?? nameInConfig(parsed.value) ?? 'custom',
    labelled ?? asked,
    labelled !== undefined ? imagePath : fromPath,
    parsed.value,
    `the config.yaml in the labels of ${clip(image)}`,
    labelled !== undefined ? `the image's label ${labelled.label}` : undefined,
  );
  if (planned.ok) {
    planned.plan.imageSource = lookup;
    const warnings = imageBaseWarnings(parsed.value, image, imagePath);
    if (warnings.length > 0) planned.problems = [...(planned.problems ?? []), ...warnings];
  }
  return planned;
}

/**
 * A plan on a config.yaml given whole (overrideConfig, or an image's labels): the release given,
 * or assumed from the config's layout, with a note saying so.
 */
function planConfig(
  llsd: Llsd,
  image: string,
  distributionName: string,
  asked: { release: string | undefined; build?: string },
  releaseFrom: FieldProblem['path'],
  config: Record<string, unknown>,
  what: string,
  releaseSource?: string,
): PlanOutcome {
  const { release } = asked;
  if (release !== undefined) {
    const support = releaseSupport(release);
    if (!support) {
      const from = releaseSource ? ` (the release from ${releaseSource})` : '';
      return fail(releaseFrom, `${releaseName(clip(writtenOf(asked)))} is not supported${from}; supported releases: ${supportedReleases()}`);
    }
    const source = releaseSource && { releaseNote: `the release is ${releaseSource}` };
    const plan: Plan = { llsd, distributionName, image, release, ...buildOf(asked), ...support, baseConfig: config, ...source };
    const note = releaseNote(writtenOf(asked), release, support.catalogRelease, releaseFrom, `image ${clip(image)}`);
    return note ? { ok: true, plan, problems: [note] } : { ok: true, plan };
  }
  const assumed = assumeRelease(config);
  if (!assumed) {
    return fail(
      imagePath,
      `cannot tell which llama-stack release ${clip(image)} runs: no profile serves the APIs of ${what}. ` +
        `Tag the image with its release (e.g. \`:${newestRelease()}\`) or set the \`${annotation.release}\` annotation`,
    );
  }
  return {
    ok: true,
    plan: {
      llsd,
      distributionName,
      image,
      release: assumed.release,
      profile: assumed.profile,
      catalogRelease: assumed.release,
      releaseNote:
        `the release is assumed from ${assumed.why} of ${what}, as the image tag is not a release: ` +
        `tag the image with its release or set the \`${annotation.release}\` annotation`,
      baseConfig: config,
    },
  };
}

/** A plan on a catalog release: its base config parsed and checked for a config version the server supports. */
function withBase(
  llsd: Llsd,
  name: string,
  image: string,
  release: string,
  pinned: CatalogRelease,
  path: FieldProblem['path'],
  told: { build?: string; note?: FieldProblem | undefined },
): PlanOutcome {
  const support = releaseSupport(release);
  if (!support) return fail(path, `${releaseName(release)} is not supported; supported releases: ${supportedReleases()}`);
  const baseConfig = catalogBase(pinned);
  const version = unsupportedVersionMessage(baseConfig);
  if (version) return fail(['spec', 'distribution'], version);
  const plan: Plan = { llsd, distributionName: name, image, release, ...buildOf(told), ...support, baseConfig };
  return told.note ? { ok: true, plan, problems: [told.note] } : { ok: true, plan };
}

/**
 * The newest catalog release that can run `config`: its layout (`storage.backends` or the old
 * stores), its name key (`distro_name`) and its `providers:` APIs must fit.
 */
function assumeRelease(config: Record<string, unknown>): { release: string; profile: ReleaseProfile; why: string } | undefined {
  const layout = layoutOf(config);
  const apis = isPlainObject(config.providers) ? Object.keys(config.providers) : [];
  const hasDistroName = typeof config.distro_name === 'string';
  const fits = (release: string): ReleaseProfile | undefined => {
    const p = releaseSupport(release)?.profile;
    const fit = p && (layout === undefined || p.layout === layout) && (!hasDistroName || p.nameKey === 'distro_name');
    return fit && apis.every((api) => providableApis(release).includes(api)) ? p : undefined;
  };
  const release = [...catalogReleases()].sort((a, b) => compareVersions(b, a)).find((r) => fits(r) !== undefined);
  const profile = release === undefined ? undefined : fits(release);
  if (release === undefined || !profile) return undefined;
  const signs = [
    layout === 'storage-backends' ? '`storage.backends`' : layout === 'top-level-stores' ? '`metadata_store`' : undefined,
    hasDistroName ? '`distro_name`' : undefined,
    apis.length > 0 ? `the APIs ${listOf([...apis].sort())}` : undefined,
  ].filter((s): s is string => s !== undefined);
  return { release, profile, why: signs.length > 0 ? signs.join(', ') : 'nothing (the newest release)' };
}

const nameInConfig = (config: Record<string, unknown>): string | undefined =>
  [config.distro_name, config.image_name].find((v): v is string => typeof v === 'string' && v !== '');

const releasesOf = (entry: CatalogEntry): string => listOf(Object.keys(entry.releases).sort(compareVersions));

/**
 * The overrideConfig ConfigMap's config.yaml, checked the way the server reads it: a YAML mapping
 * of a config version the server supports.
 */
function readOverrideConfig(llsd: Llsd, inventory: Inventory): OverrideConfig | { problem: FieldProblem } {
  const configMapName = (llsd.spec.overrideConfig as { configMapName: string }).configMapName;
  const path = ['spec', 'overrideConfig', 'configMapName'];
  const read = configMapConfig(inventory, llsd.namespace, configMapName, 'config.yaml');
  // checkReferences has already reported a missing ConfigMap or key.
  if (!read.ok && read.missing) return { problem: { path, message: `the ConfigMap ${quote(configMapName)} must be in the input with a \`config.yaml\` key` } };
  if (!read.ok) return { problem: { path, message: `the config.yaml of the ConfigMap ${quote(configMapName)} is not a YAML mapping${read.detail}` } };
  const version = unsupportedVersionMessage(read.value);
  if (version) return { problem: { path, message: version } };
  return { configMapName, text: read.text, value: read.value };
}

const fail = (path: FieldProblem['path'], message: string): PlanOutcome => ({ ok: false, problems: [{ path, message }] });
