// The whole render as one pure function (STYLE §2): the list and the options in, items and results
// out, as kyaml's processors are. read → parse & validate → plan → generate config.yaml → render
// objects → assemble (docs/development.md). Each LLSD or OGXServer goes through the front end the table of
// src/front-ends.ts picks by apiVersion and kind, then through the checks every front end shares.
// The edge (src/cli/render.ts) takes the same steps an item at a time (`startRender`), to write
// each item's objects out as they are made and to look up the image labels a render asks for.
import { posix } from 'node:path';
import {
  baseConfigWarnings,
  commandLineOverrides,
  isRenderConfig,
  mergeOptions,
  optionsAmongItems,
  readFunctionConfig,
  renderConfigNearMiss,
} from './function-config.js';
import type { RegistryOptions, RenderOptions, RenderOptionsInput } from './core/render-config.js';
import { isError, type FieldProblem } from './lib/issues.js';
import { frontEndOf, inputApiNearMiss, inputApiOf, isRenderedObject, type FrontEnd } from './front-ends.js';
import { judgeAsServer } from './core/judge.js';
import { annotation, annotationsOf, identityOf, isClientSideOnly, isEarlierOutput, resultFor, type InputItem, type KrmObject } from './krm/item.js';
import { inventoryOf, type Inventory } from './krm/inventory.js';
import { objectOf, Prepared, type OutputItem, type Written } from './krm/resource-list.js';
import { capRepeats, hasErrors, sortResults, type Result, type WarningCode } from './krm/result.js';
import { capWarningsPerFile, fromProblem } from './krm/reporting.js';
import { codesFromText, silenceAnnotation, silencedNote, unknownCodeMessage, withoutSilenced } from './krm/silence.js';
import { clip, quote } from './lib/quote.js';
import { overrideMountProblems } from './manifests/deployment.js';
import { ownerOf } from './manifests/metadata.js';
import { configMapReferenceProblems } from './core/configmap-references.js';
import { metadataProblems } from './core/object-metadata.js';
import { secretDataProblems } from './core/secret-data.js';
import type { Plan } from './llsd/plan.js';
import type { ServerTarget } from './core/target.js';
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
  /** Configs read from image labels (by the edge, from the registry), by image as written in the LLSDs. */
  images?: ReadonlyMap<string, ImageLookup>;
}

/** What became of one LLSD or OGXServer. `O`: its generated objects, or what the edge made of them (`Written`). */
export interface ItemOutcome<O = KrmObject> {
  results: Result[];
  /** `path`: KRM mode, the file kpt writes the objects to. */
  rendered?: { objects: O[]; summary: Result; path?: string };
  /** The image whose labels must be looked up before this item can render. */
  pendingImage?: string;
}

export interface ProcessOutput {
  items: OutputItem[];
  results: Result[];
  /** The warning codes the options silence: the edge leaves out its own warnings of these too. */
  silence: readonly WarningCode[];
  /**
   * Images whose labels must be read before this render can finish, and the registry options to
   * read them with (docs/development.md: the registry is I/O, so the edge reads them). Until then the output
   * is an error.
   */
  pending?: { images: string[]; registry: RegistryOptions };
}

/** A render begun: the options and the inventory settled once, then each item, then the output. */
export interface Render {
  /** The LLSDs and OGXServers to render, in the order their outcomes are reported. */
  items: readonly InputItem[];
  /** The options' registry settings, to look up the images outcomes wait for. */
  registry: RegistryOptions;
  /** One of `items`, with the image labels looked up so far. */
  renderItem(item: InputItem, images?: ReadonlyMap<string, ImageLookup>): ItemOutcome;
  /** The output from the outcome of each of `items`, in order. */
  finish(outcomes: ReadonlyArray<ItemOutcome<KrmObject | Written>>): ProcessOutput;
}

export function process(input: ProcessInput): ProcessOutput {
  const render = startRender(input);
  return render.finish(render.items.map((item) => render.renderItem(item, input.images)));
}

/** What every item of the render shares, settled once: the options merged, the inventory, the items to render and their order. */
export function startRender(input: ProcessInput): Render {
  const results: Result[] = [];
  const optionSources: RenderOptionsInput[] = [];
  let generatorLlsd: InputItem | undefined;

  if (input.functionConfig) {
    const fc = readFunctionConfig(input.functionConfig);
    if (fc.role === 'llsd') generatorLlsd = input.functionConfig;
    else {
      if (fc.role === 'options') optionSources.push(fc.options);
      results.push(...fc.problems.map((p) => fromProblem(input.functionConfig as InputItem, p)));
      if (fc.role === 'options' && fc.problems.length === 0) results.push(...baseConfigWarnings(input.functionConfig));
    }
  }
  let items = input.items;
  if (input.mode === 'build') {
    const found = optionsAmongItems(items);
    optionSources.push(...found.sources);
    results.push(...found.results, ...commandLineOverrides(items.filter(isRenderConfig), input.options ?? [], input.optionsFrom));
    items = items.filter((item) => !isRenderConfig(item));
  } else {
    // kpt and kustomize hand the function only its own config: a RenderConfig among the package's
    // files is passed through unread, which a user who put it there expects to take effect.
    for (const item of items.filter(isRenderConfig)) {
      if (input.functionConfig && sameObject(item.object, input.functionConfig.object)) continue;
      const message =
        'is among the items, where a KRM function does not read its options: name this file as the function\'s config ' +
        '(kpt: `configPath:` beside the `exec:` or `image:` of the Kptfile; kustomize: the transformer or generator file itself)';
      results.push({ ...resultFor(item, 'warning', message), code: 'render-config-not-read' });
    }
  }
  // The command line last, so it wins: an explicit `--config` beats a RenderConfig that happens to
  // lie among the inputs, as a flag beats a config file in every CLI (key by key, so a RenderConfig
  // in an app directory can still add what the shared file leaves unset).
  optionSources.push(...(input.options ?? []));
  const options = mergeOptions(optionSources);

  // Mark and replace (docs/config-generation.md): what an earlier render generated is dropped and rendered anew.
  const kept = items.filter((item) => !isEarlierOutput(item.object));
  // An LLSD never carries the mark (it is no output of ours): dropped with the output, it would
  // render nothing and say nothing.
  for (const item of items) {
    if (isLlsd(item) && annotationsOf(item.object)[annotation.generatedFrom] !== undefined) {
      const message =
        `must not carry the annotation ${annotation.generatedFrom}: llsd-render marks its output with it and drops such objects on every run, ` +
        'so this LLSD would render nothing; remove the annotation';
      results.push(resultFor(item, 'error', message, ['metadata', 'annotations', annotation.generatedFrom]));
    }
  }
  const llsdItems = kept.filter(isLlsd);
  if (generatorLlsd && !llsdItems.some((item) => sameObject(item.object, (generatorLlsd as InputItem).object))) {
    llsdItems.push(generatorLlsd);
  }
  const duplicates = duplicateNames(llsdItems);
  results.push(...duplicates.results, ...duplicateObjects(kept.filter((item) => !isLlsd(item))), ...nearMisses(kept), ...passThroughMetadata(kept));

  // A generator's input holds no resources: kustomize passes it its functionConfig (and, v4, that
  // again as the only item).
  const generator = generatorLlsd;
  const inventory = { ...inventoryOf(kept), generator: generator !== undefined && input.items.every((item) => sameObject(item.object, generator.object)) };
  // kpt refuses to write a generated object over a file of the package ("already exists").
  const packageFiles = new Set(kept.flatMap((item) => (item.origin.file === undefined ? [] : [posix.normalize(item.origin.file)])));
  const renderable = llsdItems.filter((i) => !duplicates.items.has(i));
  const removed = removals(items, llsdItems);
  return {
    items: renderable,
    registry: options.registry,
    renderItem: (item, images) => placed(item, renderOne(item, options, inventory, images), input.mode, options, packageFiles),
    finish: (outcomes) => finish(input, { results: [...results], options, kept, renderable, removed }, outcomes),
  };
}

/** The output from every item's outcome, with the checks across items; nothing half-done while an error is left. */
function finish(
  input: ProcessInput,
  { results, options, kept, renderable, removed }: {
    results: Result[];
    options: RenderOptions;
    kept: readonly InputItem[];
    renderable: readonly InputItem[];
    removed: readonly Result[];
  },
  outcomes: ReadonlyArray<ItemOutcome<KrmObject | Written>>,
): ProcessOutput {
  const rendered: Rendered[] = [];
  const summaries: Result[] = [];
  const pendingImages: string[] = [];
  renderable.forEach((item, i) => {
    const outcome = outcomes[i] as ItemOutcome<KrmObject | Written>;
    results.push(...silenced(item, outcome.results, options.silence));
    if (outcome.pendingImage !== undefined) pendingImages.push(outcome.pendingImage);
    if (outcome.rendered) {
      rendered.push({ item, objects: outcome.rendered.objects, path: outcome.rendered.path });
      summaries.push(outcome.rendered.summary);
    }
  });
  results.push(...clashes(kept, rendered));
  if (input.mode === 'krm') results.push(...sharedOutputPaths(rendered, options));

  // What no LLSD said (options, duplicates, near misses) is silenced by `silence` alone.
  const { kept: reported } = withoutSilenced(results, new Set(options.silence));
  if (hasErrors(reported)) {
    // Nothing half-done: kpt keeps the package as it was, `build` prints nothing.
    const pending = pendingImages.length > 0 ? { pending: { images: [...new Set(pendingImages)].sort(), registry: options.registry } } : {};
    const items = input.mode === 'krm' ? input.items.map(asRead) : [];
    return { items, results: capWarningsPerFile(capRepeats(sortResults(reported))), silence: options.silence, ...pending };
  }
  const output = input.mode === 'krm' ? krmOutput(kept) : buildOutput(kept);
  for (const { objects } of rendered) output.push(...objects);
  // One summary per LLSD, only when its objects are really in the output; the removals only when
  // they really happen (with an error, kpt keeps the package and `build` prints nothing).
  const { kept: removals } = withoutSilenced(removed, new Set(options.silence));
  return { items: output, results: capWarningsPerFile(capRepeats(sortResults([...reported, ...summaries, ...removals]))), silence: options.silence };
}

interface Rendered {
  item: InputItem;
  objects: ReadonlyArray<KrmObject | Written>;
  path?: string | undefined;
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

/**
 * One LLSD or OGXServer through its front end's stages, in the same order for every front end,
 * each stopping the render of this item on an error; then the check every front end shares: the
 * config the pod reads, as the server will read it.
 */
function renderOne(item: InputItem, options: RenderOptions, inventory: Inventory, images: ReadonlyMap<string, ImageLookup> | undefined): ItemOutcome {
  const picked = frontEndOf(item.object);
  if ('problem' in picked) return { results: [fromProblem(item, picked.problem)] };
  const frontEnd: FrontEnd = picked.frontEnd;
  // Problems at the item's own field paths.
  const toResult = (p: FieldProblem): Result => fromProblem(item, frontEnd.localise(p));
  const parsed = frontEnd.parse(item.object, options);
  const results = parsed.problems.map((p) => fromProblem(item, p));
  if (!parsed.ok) return { results };
  const references = frontEnd.references(parsed.value, inventory, options);
  results.push(...references.map(toResult));
  if (references.some(isError)) return { results };
  const planned = frontEnd.plan(parsed.value, inventory, options, images);
  if (!planned.ok) {
    return { results: [...results, ...planned.problems.map(toResult)], ...(planned.pendingImage !== undefined && { pendingImage: planned.pendingImage }) };
  }
  const { plan } = planned;
  results.push(...(planned.problems ?? []).map(toResult));
  if (plan.imageSource) results.push(toResult(imageSourceInfo(frontEnd.image(parsed.value), plan)));
  const generated = frontEnd.generate(plan, options);
  results.push(...generated.problems.map(toResult));
  if (!generated.ok) return { results };
  const objects = frontEnd.objects(plan, generated.config, options);
  const mounts = overrideMountProblems(objects.find((o) => o.kind === 'Deployment'), frontEnd.overrides(plan));
  results.push(...mounts.map(toResult));
  results.push(...configMapReferenceProblems(item.object.metadata.namespace, frontEnd.overrides(plan)?.env, inventory).map(toResult));
  if (mounts.length > 0) return { results };
  const served = frontEnd.served(plan, generated.config);
  const startup = served
    ? judgeAsServer({ plan, config: served.config, objects, inventory, crField: served.fieldOf, overridePath: frontEnd.overridePath })
    : [];
  results.push(...startup.map(toResult));
  if (startup.some(isError)) return { results };
  return { results, rendered: { objects, summary: resultFor(item, 'info', frontEnd.summary(plan, generated.config)) } };
}

/** Where a base config from image labels came from: the tag's digest, the registry or mirror, the cache. */
function imageSourceInfo(image: string, plan: ServerTarget): FieldProblem {
  const source = plan.imageSource as NonNullable<Plan['imageSource']>;
  const { config } = source;
  const label = config.from === 'base64' ? (config.label ?? 'io.llamastack.config.base64') : `io.llamastack.config.layer (${config.path} in ${config.layer})`;
  const resolved = source.tagResolved ? `${clip(image)} resolved to ${config.digest}` : clip(image);
  const where = source.cached ? `from the cache (${config.platform})` : `from ${source.host} (${config.platform})`;
  const pin = plan.image !== image ? `; the Deployment runs ${clip(plan.image)}` : '';
  return { severity: 'info', path: ['spec', 'distribution', 'image'], message: `base config from the label ${label}: ${resolved}, read ${where}${pin}` };
}

/**
 * KRM mode: kpt writes generated objects where their path annotations say, one file per LLSD,
 * next to it. Done as each LLSD is rendered, before the edge writes its objects out.
 */
function placed(item: InputItem, outcome: ItemOutcome, mode: Mode, options: RenderOptions, packageFiles: ReadonlySet<string>): ItemOutcome {
  if (mode !== 'krm' || !outcome.rendered || !item.origin.file) return outcome;
  const path = posix.normalize(
    options.outputPath
      .replaceAll('{dir}', posix.dirname(item.origin.file))
      .replaceAll('{name}', item.object.metadata.name)
      .replaceAll('{namespace}', item.object.metadata.namespace ?? 'default'),
  );
  if (path.startsWith('../') || path === '..' || posix.isAbsolute(path)) {
    const error = resultFor(
      item,
      'error',
      `the output path ${quote(path)} (from the \`outputPath\` option ${quote(options.outputPath)}) leaves the package; ` +
        'use a path under the package such as "{dir}/{name}.generated.yaml"',
    );
    return { ...outcome, results: [...outcome.results, error] };
  }
  const clash = !/\.ya?ml$/.test(path)
    ? 'is not a .yaml file (kpt writes objects only to YAML files)'
    : packageFiles.has(path)
      ? 'is a file of the package that holds other objects (kpt would refuse to write there)'
      : undefined;
  if (clash) {
    const error = resultFor(
      item,
      'error',
      `the output path ${quote(path)} (from the \`outputPath\` option ${quote(options.outputPath)}) ${clash}; ` +
        'use a file of its own such as "{dir}/{name}.generated.yaml"',
    );
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

/** removals among `items`, whose LLSDs and OGXServers are the sources: for `convert`, which leaves earlier output out as a render does. */
export const removedGeneratedObjects = (items: readonly InputItem[]): Result[] => removals(items, items.filter(isLlsd));

/**
 * The objects an earlier render generated from an LLSD or OGXServer that is not in the input
 * (deleted, renamed, or its mark copied into a file of the user's): dropped like all generated
 * objects, which is right for a deleted LLSD, but never silently (issue 29, G1; kpt deletes the
 * file it came from). One info each, naming the object, its file and where it came from.
 */
function removals(items: readonly InputItem[], sources: readonly InputItem[]): Result[] {
  const present = new Set(sources.map((item) => ownerOf({ name: item.object.metadata.name, namespace: item.object.metadata.namespace })));
  const out: Result[] = [];
  for (const item of items) {
    const from: unknown = annotationsOf(item.object)[annotation.generatedFrom];
    if (from === undefined || isLlsd(item) || (typeof from === 'string' && present.has(from))) continue;
    const { kind, metadata } = item.object;
    const name = typeof metadata.namespace === 'string' && metadata.namespace !== '' ? `${metadata.namespace}/${metadata.name}` : metadata.name;
    const file = item.origin.file === undefined ? '' : ` in ${quote(item.origin.file)}`;
    const source = typeof from === 'string' ? quote(from) : 'a value that is not text';
    const message =
      `${clip(kind)} ${quote(name)}${file} is removed: an earlier render generated it (annotation ${annotation.generatedFrom}: ${source}) from an LLSD ` +
      'or OGXServer that is not in the input; to keep this object, remove that annotation';
    out.push({ ...resultFor(item, 'info', message), code: 'generated-object-removed' });
  }
  return out;
}

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

/**
 * The metadata of each object passed through that Kubernetes would refuse (a namespace that is a
 * mapping, a label that is a number), and a Secret's data that is not base64 or not text: an error at the field. An LLSD's or OGXServer's own schema
 * checks its metadata; a kustomization or Kptfile is never applied.
 */
function passThroughMetadata(items: readonly InputItem[]): Result[] {
  return items
    .filter((item) => !isLlsd(item) && !isClientSideOnly(item.object))
    .flatMap((item) => {
      const secret = item.object.kind === 'Secret' && item.object.apiVersion === 'v1' ? secretDataProblems(item.object) : [];
      return [...metadataProblems(item.object.metadata), ...secret].map((problem) => fromProblem(item, problem));
    });
}

/** Objects that look like a misspelt LLSD (llsdNearMiss): an error each, not a silently empty render. */
function nearMisses(items: readonly InputItem[]): Result[] {
  return items.flatMap((item) => {
    const problem = inputApiNearMiss(item.object) ?? renderConfigNearMiss(item.object);
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
    else {
      const also = earlier.origin.file ? ` (also in ${earlier.origin.file})` : '';
      results.push(resultFor(item, 'error', `${clip(item.object.kind)} ${quote(item.object.metadata.name)} is defined twice${also}; keep one`));
    }
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
        `writes its objects to ${quote(path)} (the \`outputPath\` option ${quote(options.outputPath)}), as ${other} does, ` +
          'and kpt refuses two objects at one path and index; set `outputPath` to a path with {namespace}, ' +
          'such as "{dir}/{namespace}-{name}.generated.yaml", or keep the two in different directories',
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
      const object = objectOf(entry);
      const id = identityOf(object);
      const owner = taken.get(id);
      if (owner) {
        const noun = inputApiOf(item.object)?.noun ?? 'LLSD';
        const message = `would generate ${object.kind} ${quote(object.metadata.name)}, which ${owner} already defines; rename the ${noun} or the other object`;
        results.push(resultFor(item, 'error', message, ['metadata', 'name']));
      } else {
        taken.set(id, `the ${item.object.kind} ${quote(item.object.metadata.name)}`);
      }
    }
  }
  return results;
}
