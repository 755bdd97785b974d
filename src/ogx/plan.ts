// Plan for an `ogx.io/v1beta1` OGXServer: which OGX release, image and base config it renders
// against, and which of the operator's three config modes applies (as its generator decides them).
// The generation (src/ogx/generate.ts) and the objects read only this plan.
//
// The release: llsd-render renders against a release of its catalog, never `:latest`. A named
// distribution: the `llamastack.io/release` annotation, else the name's default release; an image:
// its tag (or the annotation), else the image's version labels (`com.ogx.distribution.version`, then
// `org.opencontainers.image.version`) when its base comes from its labels. Only OGX releases
// (configs/ogx-divergences.yaml `releases`, their patch releases and newer ones) qualify.
import { closest, type FieldProblem } from '../lib/issues.js';
import type { OgxServer } from './ogxserver.js';
import { ogxServerReleases } from '../catalog/catalog.js';
import { compareVersions, isOgxServerRelease, releaseSupport } from '../catalog/versions.js';
import { shippedCatalog, unsupportedVersionMessage, type Catalog, type CatalogEntry } from '../catalog/distributions.js';
import type { Inventory } from '../krm/inventory.js';
import { annotation } from '../krm/item.js';
import { clip, listOf, quote } from '../lib/quote.js';
import { readOgxCaBundle } from '../core/ca-bundle.js';
import { baseVersionProblem, catalogBase, configMapConfig, parseConfigYaml } from '../core/base-config.js';
import { imageBaseWarnings } from '../core/base-credentials.js';
import { askedRelease, awaitingLabels, buildOf, distributionOfImage, labelRelease, namedRelease, releaseNote, runImage, writtenOf } from '../core/target.js';
import { imagePath, namePath, releasePath, type ImageLabels, type ServerTarget } from '../core/target.js';
import { ogxPraxisEnabled } from '../core/ogx-workload.js';

/** `distributionName`: `spec.distribution.name`, or `custom` for `spec.distribution.image`. */
export interface OgxPlan extends ServerTarget {
  /** The parsed OGXServer, CRD defaults applied. */
  server: OgxServer;
  /**
   * The operator's modes: `generated` (a config.yaml is generated from the base and the spec),
   * `override` (spec.overrideConfig is mounted as is, no secret env vars), `none` (the image's own config).
   */
  mode: 'generated' | 'override' | 'none';
  /** Generated mode: the base config as the server parses it. Shared: never changed (the generator copies it). */
  baseConfig?: Record<string, unknown>;
  /** Where `baseConfig` came from. */
  baseSource?: 'distribution' | 'baseConfig' | 'image-labels';
  /** Override mode: the user's ConfigMap, its key (mounted as config.yaml), the text and its parse. */
  overrideConfig?: { configMapName: string; key: string; text: string; value: Record<string, unknown> };
}

/** `problems` of a plan that succeeded are warnings. `pendingImage`: the image whose labels must be looked up first. */
export type OgxPlanOutcome = { ok: true; plan: OgxPlan; problems?: FieldProblem[] } | { ok: false; problems: FieldProblem[]; pendingImage?: string };

type Path = FieldProblem['path'];

/**
 * As the operator decides: override wins; any declarative field (even `{}`), or a non-empty
 * disabledAPIs, generates; so does Praxis mode (`shouldGenerateConfig`), from the distribution's
 * default config when nothing is declarative (`ogxPraxisDefault`).
 */
export function ogxConfigMode(spec: OgxServer['spec']): OgxPlan['mode'] {
  if (spec.overrideConfig?.name && spec.overrideConfig.key) return 'override';
  return ogxDeclarative(spec) || ogxPraxisEnabled(spec) ? 'generated' : 'none';
}

/** `HasDeclarativeConfig()`: providers, resources or storage (even `{}`), or a non-empty disabledAPIs. */
export const ogxDeclarative = (spec: OgxServer['spec']): boolean =>
  spec.providers !== undefined || spec.resources !== undefined || spec.storage !== undefined || (spec.disabledAPIs?.length ?? 0) > 0;

/**
 * Plans an OGXServer: release, image, config mode and its config source, CA bundle. `catalog`:
 * the named distributions (RenderOptions.distributions laid over the shipped ones); `labels`: the
 * image label lookups done so far (a plan that needs one not done returns `pendingImage`).
 */
export function planOgxServer(server: OgxServer, inventory: Inventory, catalog: Catalog = shippedCatalog(), labels: ImageLabels = {}): OgxPlanOutcome {
  const { spec } = server;
  const mode = ogxConfigMode(spec);
  const { name, image } = spec.distribution;
  const where = name !== undefined ? planNamed(server, name, catalog) : planImage(server, String(image), catalog, mode, labels);
  if (!where.ok) return where;
  const plan: OgxPlan = { server, ...where.value, mode };
  // Warnings and infos of the release (a release the catalog lacks), told when the plan succeeds.
  const told = where.problems ?? [];
  if (mode === 'override') {
    const read = readConfigMapConfig(server, inventory, spec.overrideConfig as { name: string; key: string }, ['spec', 'overrideConfig'], 'override');
    if (!read.ok) return read;
    plan.overrideConfig = { configMapName: read.name, key: read.key, text: read.text, value: read.value };
    delete plan.baseConfig;
    delete plan.baseSource;
    delete plan.imageSource;
  } else if (mode === 'generated' && spec.baseConfig) {
    const read = readConfigMapConfig(server, inventory, spec.baseConfig, ['spec', 'baseConfig'], 'base');
    if (!read.ok) return read;
    plan.baseConfig = read.value;
    plan.baseSource = 'baseConfig';
    delete plan.imageSource;
  } else if (mode === 'none') {
    // The image's own config runs: nothing is generated. A named distribution's is the catalog's
    // base, kept so the config the pod reads is judged (rh's needs POSTGRES_DB); no other is sought.
    if (plan.baseSource !== 'distribution') {
      delete plan.baseConfig;
      delete plan.baseSource;
    }
  } else if (plan.baseConfig) {
    const missing = baseVersionProblem(plan.baseConfig);
    if (missing) return fail(plan.baseSource === 'image-labels' ? imagePath : namePath, missing);
  }
  const ca = readOgxCaBundle(spec.tls?.trust?.caCertificates, server.metadata.namespace, inventory);
  if (ca.problems.length > 0) return { ok: false, problems: ca.problems };
  if (ca.bundle) plan.caBundle = ca.bundle;
  return told.length > 0 ? { ok: true, plan, problems: told } : { ok: true, plan };
}

type Where = Omit<OgxPlan, 'server' | 'mode'>;
type WhereOutcome = { ok: true; value: Where; problems?: FieldProblem[] } | { ok: false; problems: FieldProblem[]; pendingImage?: string };

/** `distribution.name`: our catalog's release (the annotation's, else the default), its pinned image and base. */
function planNamed(server: OgxServer, name: string, catalog: Catalog): WhereOutcome {
  const entry = Object.hasOwn(catalog, name) ? catalog[name] : undefined;
  const named = Object.keys(catalog).filter((n) => ogxReleasesOf(catalog[n] as CatalogEntry).length > 0).sort();
  if (!entry || ogxReleasesOf(entry).length === 0) {
    const near = closest(name, named);
    const why = entry ? `has no OGX release in llsd-render's catalog (an LLSD can use it)` : 'is not a distribution llsd-render knows';
    const hint = near && near !== name ? ` Did you mean "${near}"?` : '';
    const message = `${quote(name)} ${why}.${hint} OGX distributions: ${listOf(named)}`;
    return fail(namePath, `${message}; or set \`spec.distribution.image\` to an OGX image with a release tag`);
  }
  const asked = askedRelease(server.metadata.annotations, undefined);
  if (asked.problem) return { ok: false, problems: [asked.problem] };
  const release = asked.release ?? (isOgxServerRelease(entry.defaultRelease) ? entry.defaultRelease : (ogxReleasesOf(entry).at(-1) as string));
  const chosen = isOgxServerRelease(release) ? namedRelease(name, entry, ogxReleasesOf(entry), { ...asked, release }, releasePath) : { ok: false as const };
  if (!chosen.ok) {
    const written = server.metadata.annotations?.[annotation.release] ?? release;
    const message =
      `distribution ${quote(name)} has no OGX release ${quote(written)}; OGX releases of it: ${listOf(ogxReleasesOf(entry))}: ` +
      'write one of those, or set `spec.distribution.image` to the image that runs the release instead of `name`';
    return fail(releasePath, chosen.message ?? message);
  }
  const value: Where = {
    distributionName: name,
    image: chosen.image,
    release,
    ...buildOf(asked),
    ...chosen.support,
    baseConfig: catalogBase(chosen.pinned),
    baseSource: 'distribution',
  };
  return { ok: true, value, ...(chosen.note && { problems: [chosen.note] }) };
}

/**
 * `distribution.image`: the release from the tag or the annotation; the base is our catalog's when
 * the image is a named distribution's at a pinned release, else the image's labels.
 */
function planImage(server: OgxServer, image: string, catalog: Catalog, mode: OgxPlan['mode'], labels: ImageLabels): WhereOutcome {
  const asked = askedRelease(server.metadata.annotations, image);
  if (asked.problem) return { ok: false, problems: [asked.problem] };
  // The release and where it was read: the annotation or the tag, else the image's labels.
  let told: { release: string | undefined; build?: string; from: Path; label?: string } = asked;
  const { name, pinned, release: pinnedAt } = distributionOfImage(catalog, image, told.release);
  // An image the catalog pins exactly (`…:rhoai-3.5`) is that release, though its tag names none.
  if (told.release === undefined && pinnedAt !== undefined) told = { release: pinnedAt, from: imagePath };
  const needsBase = mode === 'generated' && !server.spec.baseConfig;
  let base: Pick<Where, 'baseConfig' | 'baseSource' | 'imageSource'> = {};
  let run = image;
  // The catalog's base also in mode none: the pod runs the image's own config, which is judged.
  if (pinned && (needsBase || mode === 'none')) {
    base = { baseConfig: catalogBase(pinned), baseSource: 'distribution' };
  } else if (needsBase || told.release === undefined) {
    const lookup = labels.lookups?.get(image);
    if (!lookup) return awaitingLabels(image, `the labels of ${clip(image)} have not been looked up (a render without registry access)`);
    if (!lookup.ok) return fail(imagePath, `${lookup.message}; or give the base config by \`spec.baseConfig\``);
    if (needsBase) {
      const parsed = parseConfigYaml(lookup.config.text);
      if (!parsed.ok) {
        const message = `the config in the labels of ${clip(image)} is not a YAML mapping`;
        return fail(imagePath, `${message}; fix the image's labels or give the base by \`spec.baseConfig\``);
      }
      base = { baseConfig: parsed.value, baseSource: 'image-labels', imageSource: lookup };
    }
    if (told.release === undefined) {
      const labelled = labelRelease(lookup.config);
      if (labelled) told = { ...labelled, from: imagePath };
    }
    run = runImage(image, lookup.config.digest, labels.pinDigest);
  }
  const { release } = told;
  if (release === undefined) {
    const newest = ogxServerReleases().at(-1) ?? '';
    const what = `tag it with the release (e.g. \`:${newest}\`) or set the annotation \`${annotation.release}\``;
    return fail(imagePath, `does not say which OGX release it runs: ${what}`);
  }
  const support = isOgxServerRelease(release) ? releaseSupport(release) : undefined;
  const written = writtenOf(told);
  if (!support) {
    const releases = `${listOf(ogxServerReleases())} (and their patch releases)`;
    const from = told.label === undefined ? '' : ` (the release from the image's label ${told.label})`;
    return fail(told.from, `OGX ${clip(written)} is not a release an OGXServer renders against${from}; OGX releases: ${releases}`);
  }
  const note = releaseNote(written, release, support.catalogRelease, told.from, `image ${clip(image)}`);
  // An image of a named distribution (its repository or a mirror's) has that distribution's image facts (rh: its entrypoint, HOME).
  const value: Where = { distributionName: name ?? 'custom', image: run, release, ...buildOf(told), ...support, ...base };
  const warnings = base.baseSource === 'image-labels' ? imageBaseWarnings(base.baseConfig, image, imagePath) : [];
  const problems = [...(note ? [note] : []), ...warnings];
  return { ok: true, value, ...(problems.length > 0 && { problems }) };
}


const ogxReleasesOf = (entry: CatalogEntry): string[] => Object.keys(entry.releases).filter(isOgxServerRelease).sort(compareVersions);

type ReadConfig = { ok: true; name: string; key: string; text: string; value: Record<string, unknown> } | { ok: false; problems: FieldProblem[] };

/** `spec.baseConfig` / `spec.overrideConfig`: the ConfigMap key in the input, parsed as the server does, with `version`. */
function readConfigMapConfig(server: OgxServer, inventory: Inventory, ref: { name: string; key: string }, path: Path, what: 'base' | 'override'): ReadConfig {
  const namespace = server.metadata.namespace;
  const read = configMapConfig(inventory, namespace, ref.name, ref.key);
  const where = `${namespace ?? '<namespace>'}/${ref.name}`;
  const base = what === 'base' ? 'base ' : '';
  if (!read.ok && read.missing === 'configMap') {
    const message =
      `names the ConfigMap ${quote(ref.name)}, which is not in the input (the operator fails: failed to find referenced ${base}ConfigMap ${where}); ` +
      'add it to the input, labelled `ogx.io/watch: "true"`';
    return fail([...path, 'name'], message);
  }
  if (!read.ok && read.missing === 'key') {
    const keys = read.keys.length > 0 ? `; its keys: ${listOf(read.keys)}` : '';
    const operator = `the operator fails: failed to find ${base}ConfigMap key '${clip(ref.key)}' in ConfigMap ${where}`;
    return fail([...path, 'key'], `names the key ${quote(ref.key)}, which the ConfigMap ${quote(ref.name)} does not have (${operator})${keys}`);
  }
  if (!read.ok) return fail([...path, 'key'], `names a config.yaml that is not a YAML mapping${read.detail}`);
  // The operator refuses a base without `version`; the server, an override of another version.
  const missing = what === 'base' ? baseVersionProblem(read.value) : unsupportedVersionMessage(read.value);
  if (missing) return fail([...path, 'key'], `names a config.yaml ${what === 'base' ? 'the operator' : 'the server'} refuses: ${missing}`);
  return { ok: true, name: ref.name, key: ref.key, text: read.text, value: read.value };
}

const fail = (path: Path, message: string): { ok: false; problems: FieldProblem[] } => ({ ok: false, problems: [{ path, message }] });
