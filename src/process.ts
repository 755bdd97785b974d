// The whole render as one pure function (STYLE §2): items in, items and results out.
// read → parse & validate → plan → generate config.yaml → render objects → assemble (DESIGN §10).
import { posix } from 'node:path';
import { readFunctionConfig, isRenderConfig, renderConfigNearMiss } from './function-config.js';
import { llsdKind, llsdNearMiss, llsdReaders, supportedLlsdVersions, type LlsdVersion } from './llsd/llsd.js';
import { parseRenderOptions, type RegistryOptions, type RenderOptions, type RenderOptionsInput } from './core/render-config.js';
import { isError, type FieldProblem } from './lib/issues.js';
import { checkReferences } from './llsd/references.js';
import { isOgxServerObject, ogxKind, ogxNearMiss, parseOgxServer } from './ogx/ogxserver.js';
import { checkOgxReferences } from './ogx/references.js';
import { isRenderedObject } from './front-ends.js';
import { crFieldOf, ogxFieldOf } from './cr-paths.js';
import { asServerConverts } from './core/legacy-forms.js';
import { generateConfig, type GeneratedConfig } from './llsd/generate.js';
import { generateOgxConfig } from './ogx/generate.js';
import { checkOgxScaling } from './core/server-settings.js';
import { checkReleaseSchema } from './core/release-schema.js';
import { checkStartupRules } from './core/startup/index.js';
import { annotation, annotationsOf, identityOf, isClientSideOnly, resultFor, type InputItem, type KrmObject } from './krm/item.js';
import { inventoryOf, type Inventory } from './krm/inventory.js';
import { Prepared, Written, type OutputItem, type OutputStore } from './krm/resource-list.js';
import { capRepeats, hasErrors, sortResults, type Result, type WarningCode } from './krm/result.js';
import { codesFromText, silenceAnnotation, silencedNote, unknownCodeMessage, withoutSilenced } from './krm/silence.js';
import { clip, code, count as grouped, elide, quote } from './lib/quote.js';
import { exposureProblems } from './manifests/exposure.js';
import { overrideMountProblems } from './manifests/deployment.js';
import { ogxObjectProblems, renderObjects, renderOgxObjects } from './manifests/index.js';
import { networkPolicyProblems } from './manifests/network-policy.js';
import { planOgxServer, type OgxPlan } from './ogx/plan.js';
import { planLlsd, type Plan, type ServerTarget } from './llsd/plan.js';
import type { ImageLookup } from './catalog/image-labels.js';

/**
 * `krm`: a KRM function under kpt or kustomize; the output is the whole item list.
 * `build`: what should be applied to a cluster; no LLSDs, no local-config objects.
 */
export type Mode = 'krm' | 'build';

export interface ProcessInput {
  mode: Mode;
  items: InputItem[];
  functionConfig?: InputItem;
  /** Option sources from the command line (`build --config`): applied last, so each key they set wins over the same key of a RenderConfig among the items. */
  options?: RenderOptionsInput[];
  /** The file `options` came from, for the results that name it. */
  optionsFrom?: string;
  /** Configs read from image labels by the registry adapter, by image as written in the LLSDs. */
  images?: ReadonlyMap<string, ImageLookup>;
  /** Write generated objects to this store as they are rendered (`Written`), to bound memory on large inputs. */
  store?: OutputStore;
  /** From the render that stopped for `pending` images: what it made of each LLSD that needed none, taken as it is. */
  earlier?: EarlierOutcomes;
}

/** The outcome of each LLSD that needed no image lookup, by item (the same items are passed again). */
export type EarlierOutcomes = ReadonlyMap<InputItem, LlsdOutcome>;

interface LlsdOutcome<Generated = KrmObject | Written> {
  results: Result[];
  /** `path`: KRM mode, the file kpt writes the objects to. */
  rendered?: { objects: Generated[]; summary: Result; path?: string };
  pendingImage?: string;
}

export interface ProcessOutput {
  items: OutputItem[];
  results: Result[];
  /** The warning codes the options silence: the edge leaves out its own warnings of these too. */
  silence: readonly WarningCode[];
  /**
   * Images whose labels must be read before this render can finish, and the registry options to
   * read them with: the edge looks them up and calls `process` again with `images` (DESIGN §10:
   * the registry is I/O, so it stays out of here). Until then the output is an error.
   */
  pending?: { images: string[]; registry: RegistryOptions; earlier: EarlierOutcomes };
}

interface Rendered {
  item: InputItem;
  objects: Array<KrmObject | Written>;
  path?: string | undefined;
}

/** What every LLSD's render shares: the options, the inventory, and the LLSDs to render, in order. */
interface RenderContext {
  results: Result[];
  options: RenderOptions;
  kept: InputItem[];
  /** The LLSDs and OGXServers rendered, in the order their outcomes are reported. */
  renderable: InputItem[];
  render: (item: InputItem) => LlsdOutcome;
}

function prepare(input: ProcessInput): RenderContext {
  const results: Result[] = [];
  const optionSources: RenderOptionsInput[] = [];
  let generatorLlsd: InputItem | undefined;

  if (input.functionConfig) {
    const fc = readFunctionConfig(input.functionConfig);
    if (fc.role === 'llsd') generatorLlsd = input.functionConfig;
    else {
      if (fc.role === 'options') optionSources.push(fc.options);
      results.push(...fc.problems.map((p) => fromProblem(input.functionConfig as InputItem, p)));
    }
  }
  let items = input.items;
  if (input.mode === 'build') {
    const found = optionsAmongItems(items);
    optionSources.push(...found.sources);
    results.push(...found.results, ...commandLineOverrides(items.filter(isRenderConfig), input.options ?? [], input.optionsFrom));
    items = items.filter((item) => !isRenderConfig(item));
  }
  // The command line last, so it wins: an explicit `--config` beats a RenderConfig that happens to
  // lie among the inputs, as a flag beats a config file in every CLI (key by key, so a RenderConfig
  // in an app directory can still add what the shared file leaves unset).
  optionSources.push(...(input.options ?? []));
  const options = mergeOptions(optionSources);

  // Mark and replace (DESIGN §4): what an earlier render generated is dropped and rendered anew.
  const kept = items.filter((item) => annotationsOf(item.object)[annotation.generatedFrom] === undefined);
  // An LLSD never carries the mark (it is no output of ours): dropped with the output, it would
  // render nothing and say nothing.
  for (const item of items) {
    if (isLlsd(item) && annotationsOf(item.object)[annotation.generatedFrom] !== undefined) {
      results.push(resultFor(item, 'error', `must not carry the annotation ${annotation.generatedFrom}: llsd-render marks its output with it and drops such objects on every run, so this LLSD would render nothing; remove the annotation`, ['metadata', 'annotations', annotation.generatedFrom]));
    }
  }
  const llsdItems = kept.filter(isLlsd);
  if (generatorLlsd && !llsdItems.some((item) => sameObject(item.object, (generatorLlsd as InputItem).object))) {
    llsdItems.push(generatorLlsd);
  }
  const duplicates = duplicateNames(llsdItems);
  results.push(...duplicates.results, ...duplicateObjects(kept.filter((item) => !isLlsd(item))), ...nearMisses(kept));

  // A generator's input holds no resources: kustomize passes it its functionConfig (and, v4, that
  // again as the only item).
  const generator = generatorLlsd;
  const inventory = { ...inventoryOf(kept), generator: generator !== undefined && input.items.every((item) => sameObject(item.object, generator.object)) };
  // kpt refuses to write a generated object over a file of the package ("already exists").
  const packageFiles = new Set(kept.flatMap((item) => (item.origin.file === undefined ? [] : [posix.normalize(item.origin.file)])));
  const render = (item: InputItem): LlsdOutcome => {
    const renderOne = isOgxServerObject(item.object) ? renderOgxServer : renderLlsd;
    return written(placed(item, renderOne(item, options, inventory, input.images), input.mode, options, packageFiles), input.store);
  };
  return { results, options, kept, renderable: llsdItems.filter((i) => !duplicates.items.has(i)), render };
}

export function process(input: ProcessInput): ProcessOutput {
  const { results, options, kept, renderable, render } = prepare(input);
  const rendered: Rendered[] = [];
  const summaries: Result[] = [];
  const pendingImages: string[] = [];
  // Each LLSD's outcome, unless it waits for an image: an LLSD that needed no image renders the
  // same with the images, so the render after the lookups takes it from here.
  const outcomes = new Map<InputItem, LlsdOutcome>();
  for (const item of renderable) {
    const outcome = input.earlier?.get(item) ?? render(item);
    results.push(...silenced(item, outcome.results, options.silence));
    if (outcome.pendingImage !== undefined) pendingImages.push(outcome.pendingImage);
    else outcomes.set(item, outcome);
    if (outcome.rendered) {
      rendered.push({ item, objects: outcome.rendered.objects, path: outcome.rendered.path });
      summaries.push(outcome.rendered.summary);
    }
  }
  results.push(...clashes(kept, rendered));
  if (input.mode === 'krm') results.push(...sharedOutputPaths(rendered, options));

  // What no LLSD said (options, duplicates, near misses) is silenced by `silence` alone.
  const { kept: reported } = withoutSilenced(results, new Set(options.silence));
  if (hasErrors(reported)) {
    // Nothing half-done: kpt keeps the package as it was, `build` prints nothing.
    const pending = pendingImages.length > 0 ? { pending: { images: [...new Set(pendingImages)].sort(), registry: options.registry, earlier: outcomes } } : {};
    return { items: input.mode === 'krm' ? input.items.map(asRead) : [], results: capWarningsPerFile(capRepeats(sortResults(reported))), silence: options.silence, ...pending };
  }
  const output = input.mode === 'krm' ? krmOutput(kept) : buildOutput(kept);
  for (const { objects } of rendered) output.push(...objects);
  // One summary per LLSD, only when its objects are really in the output.
  return { items: output, results: capWarningsPerFile(capRepeats(sortResults([...reported, ...summaries]))), silence: options.silence };
}

/**
 * An LLSD's results without the warnings silenced for the whole render (`silence`) or for it alone
 * (annotation `llamastack.io/silence`), and one info that counts them. An unknown code in the
 * annotation is an error naming the nearest code.
 */
function silenced(item: InputItem, results: readonly Result[], global: readonly WarningCode[]): Result[] {
  const text = annotationsOf(item.object)[silenceAnnotation];
  const own = typeof text === 'string' ? codesFromText(text) : { codes: [], unknown: [] };
  const path = ['metadata', 'annotations', silenceAnnotation];
  const unknown = own.unknown.map((word) => resultFor(item, 'error', unknownCodeMessage(word), path));
  const { kept, silenced: left } = withoutSilenced(results, new Set([...global, ...own.codes]));
  const note = silencedNote(left);
  return [...kept, ...unknown, ...(note === undefined ? [] : [resultFor(item, 'info', note)])];
}

/** With a store, the generated objects go to it as they are made (placed first in KRM mode: a Written object is final). */
function written(outcome: LlsdOutcome<KrmObject>, store: OutputStore | undefined): LlsdOutcome {
  if (!store || !outcome.rendered) return outcome;
  return { ...outcome, rendered: { ...outcome.rendered, objects: outcome.rendered.objects.map((object) => new Written(object, store)) } };
}

function renderLlsd(
  item: InputItem,
  options: RenderOptions,
  inventory: Inventory,
  images: ReadonlyMap<string, ImageLookup> | undefined,
): LlsdOutcome<KrmObject> {
  const apiVersion = item.object.apiVersion;
  const reader = Object.hasOwn(llsdReaders, apiVersion) ? llsdReaders[apiVersion as LlsdVersion] : undefined;
  if (!reader) {
    return {
      results: [
        resultFor(item, 'error', `apiVersion ${quote(apiVersion)} is not supported for ${llsdKind}; use ${supportedLlsdVersions.join(' or ')}`, ['apiVersion']),
      ],
    };
  }
  // Problems at the item's own field paths (a v1alpha1 LLSD is rendered as its v1alpha2 conversion).
  const toResult = (p: FieldProblem): Result => fromProblem(item, reader.localise(p));
  const parsed = reader.parse(item.object);
  const results = parsed.problems.map((p) => fromProblem(item, p));
  if (!parsed.ok) return { results };
  const references = checkReferences(parsed.llsd, inventory, options);
  results.push(...references.map(toResult));
  if (references.some(isError)) return { results };
  const planned = planLlsd(parsed.llsd, inventory, options.distributions, { lookups: images, pinDigest: options.registry.pinDigest });
  if (!planned.ok) return { results: [...results, ...planned.problems.map(toResult)], ...(planned.pendingImage !== undefined && { pendingImage: planned.pendingImage }) };
  results.push(...(planned.problems ?? []).map(toResult));
  if (planned.plan.imageSource) results.push(toResult(imageSourceInfo(String(parsed.llsd.spec.distribution.image), planned.plan)));
  // Exposure and NetworkPolicy: the CR against the render options (host names, Gateway, peers).
  const networking = [...exposureProblems(planned.plan, options), ...networkPolicyProblems(planned.plan, options)];
  results.push(...networking.map(toResult));
  const generated = generateConfig(planned.plan);
  results.push(...generated.problems.map(toResult));
  if (!generated.ok || networking.some(isError)) return { results };
  const { plan } = planned;
  const { config } = generated;
  const target = `${serverOf(plan)} (distribution ${clip(plan.distributionName)}, image ${clip(plan.image)})${plan.releaseNote ? `; ${plan.releaseNote}` : ''}`;
  const summary = resultFor(
    item,
    'info',
    config.fromConfigMap
      ? `uses config.yaml from the ConfigMap ${quote(config.fromConfigMap)} (overrideConfig) for ${target}`
      : `generated config.yaml with ${count(config.providerCount.fromLlsd, 'provider')} from the LLSD (${config.providerCount.total} in all) and ${count(config.modelCount, 'model')} for ${target}`,
  );
  const objects = renderObjects(plan, config, options);
  const mounts = overrideMountProblems(objects.find((o) => o.kind === 'Deployment'), plan.llsd.spec.workload?.overrides);
  results.push(...mounts.map(toResult));
  if (mounts.length > 0) return { results };
  // Check config.yaml as the server will at startup, with the env the container really gets.
  const startup = checkAsServer(plan, config, objects, (configPath, parsed) => crFieldOf(configPath, plan, parsed), ['spec', 'overrideConfig', 'configMapName']);
  results.push(...startup.map(toResult));
  if (startup.some(isError)) return { results };
  return { results, rendered: { objects, summary } };
}

/**
 * An OGXServer, through the same stages as an LLSD (DESIGN §10): its own schema and rules, its
 * plan, the operator's generation corrected for the release, its objects; then the same startup
 * and release-schema checks of the config the pod reads.
 */
function renderOgxServer(
  item: InputItem,
  options: RenderOptions,
  inventory: Inventory,
  images: ReadonlyMap<string, ImageLookup> | undefined,
): LlsdOutcome<KrmObject> {
  const toResult = (p: FieldProblem): Result => fromProblem(item, p);
  const unsupported = ogxNearMiss(item.object);
  if (unsupported) return { results: [toResult(unsupported)] };
  const parsed = parseOgxServer(item.object);
  const results = parsed.problems.map(toResult);
  if (!parsed.ok) return { results };
  const references = checkOgxReferences(parsed.server, inventory, options);
  results.push(...references.map(toResult));
  if (references.some(isError)) return { results };
  const planned = planOgxServer(parsed.server, inventory, options.distributions, { lookups: images, pinDigest: options.registry.pinDigest });
  if (!planned.ok) return { results: [...results, ...planned.problems.map(toResult)], ...(planned.pendingImage !== undefined && { pendingImage: planned.pendingImage }) };
  const { plan } = planned;
  results.push(...(planned.problems ?? []).map(toResult));
  if (plan.imageSource) results.push(toResult(imageSourceInfo(String(parsed.server.spec.distribution.image), plan)));
  let config: GeneratedConfig | undefined;
  if (plan.mode === 'generated') {
    const generated = generateOgxConfig(plan);
    results.push(...generated.problems.map(toResult));
    if (!generated.ok) return { results };
    config = generated.config;
  }
  // The config the pod reads; with none of its own (mode none), the image's, which is the base's.
  const served = config?.value ?? plan.overrideConfig?.value ?? plan.baseConfig ?? {};
  results.push(...checkOgxScaling(served, plan).map(toResult));
  results.push(...ogxObjectProblems(plan, config).map(toResult));
  if (results.some((r) => r.severity === 'error')) return { results };
  const objects = renderOgxObjects(plan, config, options);
  const mounts = overrideMountProblems(objects.find((o) => o.kind === 'Deployment'), plan.server.spec.workload?.overrides);
  results.push(...mounts.map(toResult));
  if (mounts.length > 0) return { results };
  const checked = checkOgxAsServer(plan, config, objects);
  results.push(...checked.map(toResult));
  if (checked.some(isError)) return { results };
  const target = `${serverOf(plan)} (distribution ${clip(plan.distributionName)}, image ${clip(plan.image)})`;
  const summary = resultFor(item, 'info', ogxSummary(plan, config, target));
  return { results, rendered: { objects, summary } };
}

/** The config the OGXServer's pod reads, checked as the server will: the generated one, or the override ConfigMap's. */
function checkOgxAsServer(plan: OgxPlan, config: GeneratedConfig | undefined, objects: readonly KrmObject[]): FieldProblem[] {
  const overridePath = ['spec', 'overrideConfig', 'name'];
  if (config) return checkAsServer(plan, config, objects, (configPath, parsed) => ogxFieldOf(configPath, plan.server.spec, parsed), overridePath);
  if (plan.overrideConfig) return checkAsServer(plan, { value: plan.overrideConfig.value, fromConfigMap: plan.overrideConfig.configMapName }, objects, () => overridePath, overridePath);
  return [];
}

function ogxSummary(plan: OgxPlan, config: GeneratedConfig | undefined, target: string): string {
  if (config) return `generated config.yaml with ${count(config.providerCount.fromLlsd, 'provider')} from the ${ogxKind} (${config.providerCount.total} in all) and ${count(config.modelCount, 'model')} for ${target}`;
  if (plan.overrideConfig) return `uses config.yaml from the ConfigMap ${quote(plan.overrideConfig.configMapName)} (overrideConfig) for ${target}`;
  return `sets no providers, resources, storage or disabledAPIs, so the image's own config.yaml is used, as the operator does, for ${target}`;
}

/** The server and release as messages name them: `llama-stack 0.7.1`, `OGX 1.3.0`. */
const serverOf = (plan: ServerTarget): string => `${plan.profile.serverName ?? 'llama-stack'} ${plan.release}`;

/** Where a base config from image labels came from: the tag's digest, the registry or mirror, the cache. */
function imageSourceInfo(image: string, plan: ServerTarget): FieldProblem {
  const source = plan.imageSource as NonNullable<Plan['imageSource']>;
  const { config } = source;
  const label = config.from === 'base64' ? 'io.llamastack.config.base64' : `io.llamastack.config.layer (${config.path} in ${config.layer})`;
  const resolved = source.tagResolved ? `${clip(image)} resolved to ${config.digest}` : clip(image);
  const where = source.cached ? `from the cache (${config.platform})` : `from ${source.host} (${config.platform})`;
  const pin = plan.image !== image ? `; the Deployment runs ${clip(plan.image)}` : '';
  return { severity: 'info', path: ['spec', 'distribution', 'image'], message: `base config from the label ${label}: ${resolved}, read ${where}${pin}` };
}

/**
 * The startup rules (DESIGN §5) on the config the pod will read: a violation is a result now
 * instead of a crash-looping pod later. Problems name the config.yaml path; for an overrideConfig
 * they point at the field naming that ConfigMap.
 */
function checkAsServer(
  plan: ServerTarget,
  config: Pick<GeneratedConfig, 'value' | 'fromConfigMap'>,
  objects: readonly KrmObject[],
  crField: (configPath: string, parsed: Record<string, unknown>) => FieldProblem['path'],
  overridePath: FieldProblem['path'],
): FieldProblem[] {
  // Judged as the server reads it: older forms it converts first are converted, with a warning each.
  const { config: parsed, notes } = asServerConverts(config.value, plan.release, plan.catalogRelease);
  const deployment = objects.find((o) => o.kind === 'Deployment') as { spec?: { template?: { spec?: { containers?: Array<{ env?: Array<{ name: string }> }> } } } } | undefined;
  const containerEnv = new Set((deployment?.spec?.template?.spec?.containers?.[0]?.env ?? []).map((e) => e.name));
  const where = config.fromConfigMap ? `the config.yaml of the ConfigMap ${quote(config.fromConfigMap)}` : 'the generated config.yaml';
  const pathOf = (configPath: string): FieldProblem['path'] => (config.fromConfigMap ? overridePath : crField(configPath, parsed));
  const startup = checkStartupRules(parsed, { release: plan.release, catalogRelease: plan.catalogRelease, profile: plan.profile, containerEnv });
  // The release's own schemas: what the startup rules did not already say about a field.
  const said = new Set(startup.map((p) => p.path));
  const source = config.fromConfigMap ? 'override' : 'generated';
  const schema = checkReleaseSchema(parsed, { release: plan.release, catalogRelease: plan.catalogRelease, containerEnv, source }).filter((p) => !said.has(p.path));
  const checked = plan.catalogRelease === plan.release ? '' : ` (checked against the catalog's ${plan.catalogRelease})`;
  return [
    ...notes.map((n) => ({ severity: 'warning' as const, code: 'legacy-config-form' as const, path: pathOf(n.path), message: `${where}: ${code(n.path)} ${n.message}` })),
    ...startup.map((p) =>
      problemOf(p, pathOf(p.path), `${where} would ${p.severity === 'error' ? 'stop' : 'trouble'} ${serverOf(plan)} at startup: ${code(p.path || '(top level)')} ${p.message}`),
    ),
    ...schema.map((p) => problemOf(p, pathOf(p.path), `${where} does not fit the schema of ${serverOf(plan)}${checked}: ${code(p.path)} ${p.message}`)),
  ];
}

/** A check's finding at a CR field: a warning keeps its code (each check that warns names one). */
function problemOf(found: { severity: 'error' | 'warning'; code?: WarningCode | undefined }, path: FieldProblem['path'], message: string): FieldProblem {
  if (found.severity === 'error') return { severity: 'error', path, message };
  return { severity: 'warning', code: found.code ?? 'env-conditional', path, message };
}

/**
 * KRM mode: kpt writes generated objects where their path annotations say, one file per LLSD,
 * next to it. Done as each LLSD is rendered, before its objects go to the store.
 */
function placed(item: InputItem, outcome: LlsdOutcome<KrmObject>, mode: Mode, options: RenderOptions, packageFiles: ReadonlySet<string>): LlsdOutcome<KrmObject> {
  if (mode !== 'krm' || !outcome.rendered || !item.origin.file) return outcome;
  const path = posix.normalize(
    options.outputPath
      .replaceAll('{dir}', posix.dirname(item.origin.file))
      .replaceAll('{name}', item.object.metadata.name)
      .replaceAll('{namespace}', item.object.metadata.namespace ?? 'default'),
  );
  if (path.startsWith('../') || path === '..' || posix.isAbsolute(path)) {
    const error = resultFor(item, 'error', `the output path ${quote(path)} (from the \`outputPath\` option ${quote(options.outputPath)}) leaves the package; use a path under the package such as "{dir}/{name}.generated.yaml"`);
    return { ...outcome, results: [...outcome.results, error] };
  }
  const clash = !/\.ya?ml$/.test(path)
    ? 'is not a .yaml file (kpt writes objects only to YAML files)'
    : packageFiles.has(path)
      ? 'is a file of the package that holds other objects (kpt would refuse to write there)'
      : undefined;
  if (clash) {
    const error = resultFor(item, 'error', `the output path ${quote(path)} (from the \`outputPath\` option ${quote(options.outputPath)}) ${clash}; use a file of its own such as "{dir}/{name}.generated.yaml"`);
    return { ...outcome, results: [...outcome.results, error] };
  }
  outcome.rendered.objects.forEach((object, index) => {
    object.metadata.annotations = {
      ...object.metadata.annotations,
      [annotation.path]: path,
      [annotation.legacyPath]: path,
      [annotation.index]: String(index),
      [annotation.legacyIndex]: String(index),
    };
  });
  return { ...outcome, rendered: { ...outcome.rendered, path } };
}

/**
 * KRM output: every item we do not own as it came. The LLSD stays (kpt writes the list back to the
 * package) marked local-config so nothing applies it; under a kustomize transformer it is removed.
 */
function krmOutput(items: readonly InputItem[]): OutputItem[] {
  const out: OutputItem[] = [];
  for (const item of items) {
    if (isLlsd(item)) {
      const annotations = annotationsOf(item.object);
      if (annotations[annotation.kustomizeId] !== undefined) continue;
      if (annotations[annotation.localConfig] !== 'true') {
        (item.node as { setIn(path: unknown[], value: unknown): void }).setIn(['metadata', 'annotations', annotation.localConfig], 'true');
      }
    }
    out.push(asRead(item));
  }
  return out;
}

/** An item to write as it was read: its text when it was kept so (`build`, KRM pass-through items), else its node. */
const asRead = (item: InputItem): OutputItem => (item.output === undefined ? item.node : new Prepared(item.object, item.output));

/** Build output: only what a cluster should get. */
function buildOutput(items: readonly InputItem[]): OutputItem[] {
  return items.filter((item) => !isLlsd(item) && !isClientSideOnly(item.object)).map(asRead);
}

/** An item llsd-render renders (an LLSD or an OGXServer): not passed through, not applied itself. */
const isLlsd = (item: InputItem): boolean => isRenderedObject(item.object);

const sameObject = (a: KrmObject, b: KrmObject): boolean =>
  a.kind === b.kind && a.metadata.name === b.metadata.name && (a.metadata.namespace ?? '') === (b.metadata.namespace ?? '');

/** Two LLSDs with one namespace/name would render over each other: the later ones are reported, not rendered. */
function duplicateNames(llsds: readonly InputItem[]): { results: Result[]; items: Set<InputItem> } {
  const seen = new Map<string, InputItem>();
  const results: Result[] = [];
  const items = new Set<InputItem>();
  for (const item of llsds) {
    const key = `${item.object.metadata.namespace ?? ''}/${item.object.metadata.name}`;
    const earlier = seen.get(key);
    if (earlier) {
      const where = earlier.origin.file ? ` in ${earlier.origin.file}` : '';
      results.push(resultFor(item, 'error', `another ${earlier.object.kind} has the same name${where}; rename one of them`, ['metadata', 'name']));
      items.add(item);
    } else {
      seen.set(key, item);
    }
  }
  return { results, items };
}

/** Objects that look like a misspelt LLSD (llsdNearMiss): an error each, not a silently empty render. */
function nearMisses(items: readonly InputItem[]): Result[] {
  return items.flatMap((item) => {
    const problem = llsdNearMiss(item.object) ?? (isOgxServerObject(item.object) ? undefined : ogxNearMiss(item.object)) ?? renderConfigNearMiss(item.object);
    return problem ? [fromProblem(item, problem)] : [];
  });
}

/** The same object twice in the input: one would silently replace the other when applied. */
function duplicateObjects(items: readonly InputItem[]): Result[] {
  const seen = new Map<string, InputItem>();
  const results: Result[] = [];
  for (const item of items) {
    const id = identityOf(item.object);
    const earlier = seen.get(id);
    if (!earlier) seen.set(id, item);
    else results.push(resultFor(item, 'error', `${clip(item.object.kind)} ${quote(item.object.metadata.name)} is defined twice${earlier.origin.file ? ` (also in ${earlier.origin.file})` : ''}; keep one`));
  }
  return results;
}

/**
 * KRM mode: two rendered items whose objects go to one file (the same name in two namespaces, in one
 * directory) would write index 0, 1, … twice, and kpt refuses the second ("already exists").
 */
function sharedOutputPaths(rendered: readonly Rendered[], options: RenderOptions): Result[] {
  const first = new Map<string, InputItem>();
  const results: Result[] = [];
  for (const { item, path } of rendered) {
    if (path === undefined) continue;
    const earlier = first.get(path);
    if (!earlier) {
      first.set(path, item);
      continue;
    }
    const other = `${earlier.object.kind} ${quote(`${earlier.object.metadata.namespace ?? 'default'}/${earlier.object.metadata.name}`)}`;
    results.push(
      resultFor(
        item,
        'error',
        `writes its objects to ${quote(path)} (the \`outputPath\` option ${quote(options.outputPath)}), as ${other} does, and kpt refuses two objects at one path and index; set \`outputPath\` to a path with {namespace}, such as "{dir}/{namespace}-{name}.generated.yaml", or keep the two in different directories`,
        ['metadata', 'name'],
      ),
    );
  }
  return results;
}

/** A generated object must not replace an object the user wrote, nor one another LLSD generates. */
function clashes(inputs: readonly InputItem[], rendered: readonly Rendered[]): Result[] {
  const taken = new Map<string, string>();
  for (const item of inputs) taken.set(identityOf(item.object), `the input${item.origin.file ? ` (${item.origin.file})` : ''}`);
  const results: Result[] = [];
  for (const { item, objects } of rendered) {
    for (const entry of objects) {
      const object = entry instanceof Written ? entry.object : entry;
      const id = identityOf(object);
      const owner = taken.get(id);
      if (owner) {
        results.push(resultFor(item, 'error', `would generate ${object.kind} ${quote(object.metadata.name)}, which ${owner} already defines; rename the ${isOgxServerObject(item.object) ? ogxKind : 'LLSD'} or the other object`, ['metadata', 'name']));
      } else {
        taken.set(id, `the ${item.object.kind} ${quote(item.object.metadata.name)}`);
      }
    }
  }
  return results;
}

/** The RenderConfigs among `build` inputs, in order; a later one that sets an option otherwise wins, and says so. */
function optionsAmongItems(items: readonly InputItem[]): { sources: RenderOptionsInput[]; results: Result[] } {
  const sources: RenderOptionsInput[] = [];
  const results: Result[] = [];
  const setBy = new Map<string, { item: InputItem; value: string }>();
  for (const item of items.filter(isRenderConfig)) {
    const fc = readFunctionConfig(item);
    if (fc.role === 'options') {
      sources.push(fc.options);
      for (const [key, value] of Object.entries(fc.options)) {
        const json = JSON.stringify(value);
        const earlier = setBy.get(key);
        if (earlier && earlier.value !== json) {
          const where = earlier.item.origin.file === undefined ? '' : ` in ${earlier.item.origin.file}`;
          results.push(warningFor(item, 'render-config-conflict', `is also set, otherwise, by the RenderConfig ${quote(earlier.item.object.metadata.name)}${where}; this one, read later, wins: keep each option in one RenderConfig`, ['spec', key]));
        }
        setBy.set(key, { item, value: json });
      }
    }
    if (fc.role !== 'llsd') results.push(...fc.problems.map((p) => fromProblem(item, p)));
  }
  return { sources, results };
}

/**
 * A RenderConfig among the inputs that sets an option `--config` sets too: a warning per key it
 * sets otherwise (the command line wins), one info for the keys it sets alike. Values are compared
 * as parsed, so `"true"` in a ConfigMap and `true` in a RenderConfig agree.
 */
function commandLineOverrides(renderConfigs: readonly InputItem[], commandLine: readonly RenderOptionsInput[], file: string | undefined): Result[] {
  if (commandLine.length === 0) return [];
  const winning = parsedOptions(Object.assign({}, ...commandLine));
  if (!winning) return [];
  const source = file === undefined ? 'the command line (`--config`)' : `--config ${file}`;
  const results: Result[] = [];
  for (const item of renderConfigs) {
    const fc = readFunctionConfig(item);
    const own = fc.role === 'options' && fc.problems.length === 0 ? parsedOptions(fc.options) : undefined;
    if (fc.role !== 'options' || !own) continue;
    const shared = Object.keys(fc.options).filter((key) => commandLine.some((options) => Object.hasOwn(options, key)));
    const alike: string[] = [];
    for (const key of shared) {
      const ownValue = JSON.stringify(own[key as keyof RenderOptions]);
      if (ownValue === JSON.stringify(winning[key as keyof RenderOptions])) alike.push(key);
      else results.push(warningFor(item, 'render-config-conflict', `is set otherwise by ${source}, which wins: the command line takes precedence over a RenderConfig among the inputs; remove \`${key}\` here or from ${file ?? 'the --config file'}`, ['spec', key]));
    }
    if (alike.length > 0) {
      results.push(resultFor(item, 'info', `sets ${alike.map((key) => code(key)).join(', ')} as ${source} does (the command line wins where both set an option); ${alike.length === 1 ? 'it' : 'they'} can be left out here`, ['spec']));
    }
  }
  return results;
}

/** How many warnings of one code one file shows. */
export const MAX_WARNINGS_OF_A_CODE = 10;

/**
 * `sorted` with at most `MAX_WARNINGS_OF_A_CODE` warnings of one code per file, then one warning
 * of that code that counts the rest: 20,000 documents that are no Kubernetes object give 11
 * stderr lines, not 20,000. The count goes where the first one left out was (its file index and
 * line), so it sorts after those shown.
 */
export function capWarningsPerFile(sorted: readonly Result[]): Result[] {
  const groups = new Map<string, { shown: number; hidden: Result[] }>();
  const out: Result[] = [];
  for (const result of sorted) {
    // Warnings by code; errors (which have none) by field and very message, as an object
    // defined 5,000 times over gives 4,999 of the same line (attacker round 7).
    const capped = result.file !== undefined && ((result.severity === 'warning' && result.code !== undefined) || result.severity === 'error');
    if (!capped || result.file === undefined) {
      out.push(result);
      continue;
    }
    const key = result.severity === 'error' ? `error\u0000${result.file.path}\u0000${result.field?.path ?? ''}\u0000${result.message}` : `${result.code}\u0000${result.file.path}`;
    const group = groups.get(key) ?? { shown: 0, hidden: [] };
    groups.set(key, group);
    if (group.shown < MAX_WARNINGS_OF_A_CODE) {
      group.shown++;
      out.push(result);
    } else group.hidden.push(result);
  }
  const counts = [...groups.values()].flatMap(({ hidden }) => (hidden[0] === undefined ? [] : [leftOutCount(hidden[0], hidden.length)]));
  return counts.length === 0 ? out : sortResults([...out, ...counts]);
}

/** The warning that stands for `n` warnings like `first` left out of one file. */
function leftOutCount(first: Result, n: number): Result {
  const { file, line, code: warningCode } = first;
  if (first.severity === 'error') {
    return { severity: 'error', ...(file !== undefined && { file }), ...(line !== undefined && { line }), message: `${grouped(n)} more of the same error (${elide(first.message, 80)}), from this line of the file on, are left out` };
  }
  return {
    severity: 'warning',
    ...(warningCode !== undefined && { code: warningCode }),
    ...(file !== undefined && { file }),
    ...(line !== undefined && { line }),
    message: `${grouped(n)} more ${n === 1 ? 'warning' : 'warnings'} like the ${MAX_WARNINGS_OF_A_CODE} above, from this line of the file on, are left out; fix those shown (or silence the code), then run again`,
  };
}

const parsedOptions = (options: RenderOptionsInput): RenderOptions | undefined => {
  const parsed = parseRenderOptions(options);
  return parsed.success ? parsed.data : undefined;
};

function mergeOptions(sources: readonly RenderOptionsInput[]): RenderOptions {
  const parsed = parseRenderOptions(Object.assign({}, ...sources));
  // Each source was checked on its own: merged ones that fail are a bug (an internal error).
  if (!parsed.success) throw parsed.error;
  return parsed.data;
}

export const fromProblem = (item: InputItem, problem: FieldProblem): Result => {
  const result = resultFor(item, problem.severity ?? 'error', problem.message, problem.path);
  return problem.severity === 'warning' ? { ...result, code: problem.code } : result;
};

const warningFor = (item: InputItem, code: WarningCode, message: string, path: FieldProblem['path']): Result => ({ ...resultFor(item, 'warning', message, path), code });

const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

