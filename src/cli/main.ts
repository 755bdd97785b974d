// The command line: read, call `process`, write, and set the exit code from the results
// (STYLE §2). The ResourceList with its results is written before a non-zero exit.
import { realpathSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import type { ParseArgsConfig } from 'node:util';
import { commonOptions, parseCommand } from './args.js';
import { isNode } from 'yaml';
import { llsdApiVersions } from '../llsd/conversion.js';
import { convertChecked } from '../llsd/convert-checked.js';
import { baseConfigWarnings, isRenderConfig, readFunctionConfig } from '../function-config.js';
import { isRenderedObject } from '../front-ends.js';
import { ogxApiVersion, ogxKind } from '../ogx/ogxserver.js';
import { group as llsdGroup, kind as llsdKind } from '../llsd/llsd-v1alpha2.js';
import type { RenderOptionsInput } from '../core/render-config.js';
import { annotation, isEarlierOutput, resultFor, withObject, type InputItem, type KrmObject } from '../krm/item.js';
import { objectOf, readResourceList, resourceListChunks, streamDocuments, writeResourceList, writeStream, type OutputItem } from '../krm/resource-list.js';
import { exitCodeOf, formatLine, hasErrors, sortResults, type ExitCode, type Result, type WarningCode } from '../krm/result.js';
import { withoutSilenced } from '../krm/silence.js';
import { parseYaml11, stringifyYaml } from '../krm/yaml.js';
import { v8 } from '../lib/builtins.js';
import { elide, escapeControl, quote } from '../lib/quote.js';
import { closest } from '../lib/issues.js';
import { quotedAsWritten } from './as-written.js';
import { isPlainObject, setOwn } from '../lib/objects.js';
import { removedGeneratedObjects, type ProcessInput } from '../process.js';
import type { OgxConversion } from '../convert/to-ogxserver.js';
import { capWarningsPerFile, fromProblem } from '../krm/reporting.js';
import type { Environment } from '../registry/credentials.js';
import { registryLookUp, renderWithImages } from './render.js';
import {
  cannotRead,
  decodeInput,
  findYamlFiles,
  inputProblem,
  leavesDirectory,
  maxInputBytes,
  readInputFile,
  readItems,
  readUpTo,
  tooLarge,
  UsageError,
} from './files.js';
import { writeOutputDir, type OutputFile } from './output-dir.js';
import { openOutputStore } from './output-store.js';
import { help, version } from './help.js';

export interface Io {
  argv: string[];
  /** All of stdin, or (bytes) at most one byte more than the input limit: more means too large. */
  readStdin: () => Promise<string | Uint8Array>;
  /** Writes to stdout; a promise means the reader is behind, and a large output should wait for it. */
  stdout: (text: string) => void | Promise<void>;
  stderr: (text: string) => void;
  /** The environment: registry credentials and the cache directory come from it. Default: this process's. */
  env?: Environment;
  /** KRM mode under a host that shows the results itself (kpt): no stderr line repeats them. */
  hostShowsResults?: boolean;
}

export async function main(io: Io): Promise<ExitCode> {
  const [command, ...rest] = io.argv;
  try {
    switch (command) {
      case undefined:
        return await krm(io);
      case 'build':
        return await build(io, rest, 'build');
      case 'validate':
        return await build(io, rest, 'validate');
      case 'convert':
        return await convert(io, rest);
      case 'schema':
        return (await import('./schema.js')).schemaCommand(rest, io);
      case 'webhook':
        return await webhook(io, rest);
      case 'image-labels':
        return (await import('./image-labels.js')).imageLabelsCommand(rest, io);
      case '-h':
      case '--help':
      case 'help':
        void io.stdout(help.main);
        return 0;
      case '-v':
      case '--version':
        void io.stdout(`${version}\n`);
        return 0;
      default:
        throw new UsageError(unknownCommand(command));
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`llsd-render: ${(error as Error).message}\nRun \`llsd-render --help\` for usage.\n`);
      return 2;
    }
    throw error;
  }
}

function unknownCommand(command: string): string {
  const commands = ['build', 'validate', 'convert', 'schema', 'webhook', 'image-labels'];
  const near = closest(command, commands);
  return `unknown command ${quote(command)}${near ? `; did you mean \`${near}\`?` : ''} (commands: ${commands.join(', ')}; none for KRM function mode)`;
}

async function krm(io: Io): Promise<ExitCode> {
  const read = stdinText(await io.readStdin(), maxInputBytes(io.env ?? process.env));
  if ('problem' in read) return refuseList(io, [{ severity: 'error', message: `stdin ${read.problem}` }]);
  // As in `build`: a large list is rendered with the heap growing a fifth at a time.
  return read.text.length < largeInputBytes ? await renderList(io, read.text) : await withSlowHeapGrowth(() => renderList(io, read.text));
}

async function renderList(io: Io, text: string): Promise<ExitCode> {
  const list = readKrmInput(text);
  if ('results' in list) return refuseList(io, list.results);
  // Generated objects wait in a temporary file, as in `build`: held as objects, those of 10,000 LLSDs took 180 MB.
  const { store, close } = openOutputStore();
  try {
    const output = await renderWithImages({ mode: 'krm', ...list }, registryLookUp(io.env ?? process.env), store);
    if (!io.hostShowsResults) report(io, output.results);
    for (const chunk of resourceListChunks(output.items, output.results)) await io.stdout(chunk);
    return exitCodeOf(output.results);
  } finally {
    close();
  }
}

/** The items and functionConfig of the ResourceList, or the results that refuse it. */
function readKrmInput(text: string): Pick<ProcessInput, 'items' | 'functionConfig'> | { results: Result[] } {
  const list = readResourceList(text, isRenderedObject);
  if (list.results.length > 0) return { results: list.results };
  const items = list.items.map(withoutPassThroughNode);
  return list.functionConfig ? { items, functionConfig: list.functionConfig } : { items };
}

/** No ResourceList to render: the results alone, in an empty list. */
function refuseList(io: Io, results: Result[]): ExitCode {
  if (!io.hostShowsResults) report(io, results);
  void io.stdout(writeResourceList([], results));
  return exitCodeOf(results);
}

/**
 * An item that is not rendered goes back to kpt as it came: its text is made now and its node let
 * go (a node tree is about ten times its text). An LLSD or OGXServer keeps its node: it is marked
 * local-config when written.
 */
function withoutPassThroughNode(item: InputItem): InputItem {
  if (isRenderedObject(item.object) || item.output !== undefined) return item;
  const output = stringifyYaml(item.node);
  const { object, origin } = item;
  return {
    object,
    origin,
    output,
    get node(): never {
      throw new Error(`internal: the node of ${object.kind} "${object.metadata.name}" was dropped when it was read (KRM mode keeps its text)`);
    },
  };
}

/**
 * `run` with V8's heap growing a fifth at a time (see `build`): for a large input, a peak near what
 * is live. The flag is reset after, since V8 refuses a code cache made under other flags.
 */
async function withSlowHeapGrowth<T>(run: () => Promise<T>): Promise<T> {
  const { setFlagsFromString } = v8();
  setFlagsFromString('--heap-growing-percent=20');
  try {
    return await run();
  } finally {
    setFlagsFromString('--heap-growing-percent=0');
  }
}

const buildOptions = {
  output: { type: 'string', short: 'o' },
  // Every --config is collected, so a repeated one is refused instead of the last silently winning.
  config: { type: 'string', multiple: true },
  'allow-empty': { type: 'boolean' },
  offline: { type: 'boolean' },
  ...commonOptions,
} satisfies ParseArgsConfig['options'];

type BuildValues = { output?: string; config?: string; 'allow-empty'?: boolean; offline?: boolean };

/** The text of stdin, or why it is refused: too large, not UTF-8, or too many lines and commas. */
function stdinText(input: string | Uint8Array, limit: number): { text: string } | { problem: string } {
  if (typeof input !== 'string' && input.length > limit) return { problem: tooLarge(limit) };
  const decoded = typeof input === 'string' ? { text: input } : decodeInput(input);
  if ('problem' in decoded) return decoded;
  const problem = inputProblem(decoded.text, limit);
  return problem ? { problem } : decoded;
}

async function build(io: Io, args: string[], command: 'build' | 'validate'): Promise<ExitCode> {
  const parsed = parseCommand(args, buildOptions, help[command], (text: string) => void io.stdout(text));
  if (!parsed) return 0;
  const { config, ...flags } = parsed.values;
  const values: BuildValues = { ...flags, ...(config !== undefined && { config: oneConfig(config) }) };
  const { positionals } = parsed;
  if (command === 'validate' && (values.output !== undefined || values['allow-empty'])) {
    throw new UsageError('validate takes only --config, --offline and PATH...');
  }
  if (positionals.length === 0) throw new UsageError(`${command} needs at least one PATH`);

  const { files, results: found } = findYamlFiles(positionals);
  // `build` holds the whole input and every result until the end. V8 lets its heap grow to several
  // times what is live before it collects (a 480 MB peak for 10,000 LLSDs with 130 MB live);
  // growing by a fifth at a time keeps the peak near what is live, for a few more full
  // collections: worth it for a large input only (1,000 LLSDs, 1.2 MB, would take 6 % longer).
  // The flag is reset at the end: V8 refuses a code cache made under other flags (src/loader.cjs).
  const large = files.reduce((bytes, file) => bytes + statSync(file).size, 0) >= largeInputBytes;
  const render = () => renderFiles(io, command, values, positionals, files, found);
  return large ? await withSlowHeapGrowth(render) : await render();
}

/**
 * The one `--config` FILE. Several are a usage error: merging them key by key would make their
 * order on the command line matter, and Argo CD or CI would pass them as a hidden list.
 */
function oneConfig(paths: readonly string[]): string {
  const [first, ...more] = paths;
  if (first === undefined || more.length > 0) {
    throw new UsageError(
      `--config is given ${paths.length} times (${paths.map((p) => quote(p)).join(', ')}), but llsd-render reads one: ` +
        'merge their options into one RenderConfig and pass that, or put the other RenderConfigs among the input files (`--config` wins over them key by key)',
    );
  }
  return first;
}

/** About 3,000 LLSDs with their Secrets. */
const largeInputBytes = 4 * 1024 * 1024;

/** What `build` and `validate` render, read from their files and `--config`. */
function readBuildInput(files: string[], config: string | undefined) {
  const read = readItems(files, { nodes: 'drop' });
  const options: RenderOptionsInput[] = [];
  const baseFiles = new Set<string>();
  const configResults = config === undefined ? [] : readConfigFile(config, options, baseFiles);
  // The --config file may lie among the inputs too: read once, as the command line's.
  const configFile = config === undefined ? undefined : resolve(config);
  const inputs = read.items.filter((item) => !(isRenderConfig(item) && item.origin.file !== undefined && resolve(item.origin.file) === configFile));
  const resolved = inputs.map((item) => (isRenderConfig(item) ? resolveConfigPaths(item, baseFiles) : { item, results: [] }));
  const input: ProcessInput = { mode: 'build', items: resolved.map((r) => r.item), options, ...(config !== undefined && { optionsFrom: config }) };
  return { read, baseFiles, configResults, inputs, resolved, input };
}

async function renderFiles(
  io: Io,
  command: 'build' | 'validate',
  values: BuildValues,
  positionals: string[],
  files: string[],
  found: Result[],
): Promise<ExitCode> {
  const { read, baseFiles, configResults, inputs, resolved, input } = readBuildInput(files, values.config);
  // A base config read through `configPath` is not a Kubernetes object: no "skipped" warning for it.
  const readResults = [...found, ...read.results].filter((r) => !(r.severity === 'warning' && r.file && baseFiles.has(resolve(r.file.path))));
  const { store, close } = openOutputStore();
  try {
    const output = await renderWithImages(input, registryLookUp(io.env ?? process.env, values.offline === true), store);
    const results = [...readResults, ...configResults, ...resolved.flatMap((r) => r.results), ...nothingToValidate(command, positionals, inputs, readResults)];
    return await writeBuild(io, command, values, positionals, files, output, results);
  } finally {
    close();
  }
}

/**
 * `validate` that found no LLSD or OGXServer checked nothing: an error, as an empty `build` is. Not when reading
 * already failed (a file that is not valid YAML may well hold the LLSD): that error says it.
 */
function nothingToValidate(
  command: 'build' | 'validate',
  positionals: readonly string[],
  items: readonly InputItem[],
  readResults: readonly Result[],
): Result[] {
  if (command !== 'validate' || hasErrors(readResults) || items.some((item) => isRenderedObject(item.object))) return [];
  const message =
    `found no ${llsdKind} (apiVersion ${llsdGroup}/v1alpha2) or ${ogxKind} (apiVersion ${ogxApiVersion}) under ${positionals.join(', ')}, ` +
    'so nothing was validated; check the paths and the apiVersion and kind of the LLSDs and OGXServers';
  return [{ severity: 'error', message }];
}

/** The end of `build` and `validate`: results on stderr (and infos on stdout for validate), then the output. */
async function writeBuild(
  io: Io,
  command: 'build' | 'validate',
  values: BuildValues,
  positionals: readonly string[],
  inputs: readonly string[],
  output: { items: OutputItem[]; results: Result[]; silence: readonly WarningCode[] },
  readResults: Result[],
): Promise<ExitCode> {
  const silence = new Set(output.silence);
  // The read's results are capped as the render's were (process caps those).
  const results = quotedAsWritten(sortResults([...capWarningsPerFile(sortResults(withoutSilenced(readResults, silence).kept)), ...output.results]));

  if (command === 'validate') {
    report(io, results);
    for (const r of results.filter((r) => r.severity === 'info' && r.code === undefined)) void io.stdout(`${formatLine(r)}\n`);
    return exitCodeOf(results);
  }
  if (exitCodeOf(results) === 0 && output.items.length === 0 && !values['allow-empty']) {
    results.push({
      severity: 'error',
      message:
        `nothing to render under ${positionals.join(', ')}: no objects were produced. ` +
        'Argo CD prunes every resource of an application whose plugin prints nothing; pass --allow-empty if an empty result is intended',
    });
  }
  report(io, results);
  if (exitCodeOf(results) !== 0) return 1;
  if (values.output !== undefined) {
    const problems = await writeOutputDir(values.output, filesPerLlsd(output.items), inputs);
    report(io, problems);
    if (exitCodeOf(problems) !== 0) return 1;
    report(io, withoutSilenced(outputInsideInput(values.output, positionals), silence).kept);
  }
  // Waiting for a slow reader (a pipe) keeps the output from piling up in memory.
  else for (const document of streamDocuments(output.items)) await io.stdout(document);
  return 0;
}

/**
 * `-o DIR` inside a PATH it renders: llsd-render never reads its own output back, but a tool that
 * applies that directory (`kubectl apply -R`, a Flux Kustomization) would apply the input objects
 * and their rendered copies both. A warning: a layout that applies only DIR is fine.
 */
function outputInsideInput(dir: string, positionals: readonly string[]): Result[] {
  const target = resolve(dir);
  const input = positionals.find((path) => !leavesDirectory(resolve(path), target));
  if (input === undefined) return [];
  // `-o app app`: "apply only app" would be no advice, app being the input itself.
  const same = relative(resolve(input), target) === '';
  return [
    {
      severity: 'warning',
      code: 'output-inside-input',
      message:
        `-o ${dir} is ${same ? 'the input itself' : `inside the input ${input}`}: the pass-through objects are written again there (in _passthrough.yaml), ` +
        `so a tool that applies ${input} as a whole would apply them twice; ` +
        `write to a directory outside the inputs (e.g. -o rendered)${same ? '' : `, or apply only ${dir}`}`,
    },
  ];
}

/**
 * `--config FILE`: a RenderConfig or ConfigMap; its raw options are appended to `options`. Results
 * name FILE as the user wrote it, and a file that cannot be read gets one result, its cause.
 */
function readConfigFile(path: string, options: RenderOptionsInput[], baseFiles: Set<string>): Result[] {
  const refused = configFileProblem(path);
  if (refused !== undefined) return [{ severity: 'error', message: refused, file: { path } }];
  const read = readItems([path]);
  const asWritten = read.results.map((r) => (r.file ? { ...r, file: { ...r.file, path } } : r));
  if (hasErrors(asWritten)) return asWritten;
  const [first, ...more] = read.items;
  if (first === undefined || more.length > 0) {
    const held = first === undefined ? 'holds no Kubernetes object' : `holds ${read.items.length} objects`;
    const message = `${held}, but --config takes a file with exactly one RenderConfig (fn.llamastack.io/v1alpha1) or ConfigMap`;
    return [{ severity: 'error', message, file: { path } }];
  }
  // Read with its node (readItems keeps it by default), so a plain copy keeps everything.
  const item: InputItem = { ...first, origin: { ...first.origin, file: path } };
  const resolved = resolveConfigPaths(item, baseFiles);
  const fc = readFunctionConfig(resolved.item);
  if (fc.role === 'options') {
    options.push(fc.options);
    const warnings = fc.problems.length === 0 ? baseConfigWarnings(resolved.item) : [];
    return [...asWritten, ...resolved.results, ...fc.problems.map((p) => resultFor(item, 'error', p.message, p.path)), ...warnings];
  }
  if (fc.role === 'llsd') return [resultFor(item, 'error', 'must be a RenderConfig or a ConfigMap, not a LlamaStackDistribution')];
  return fc.problems.map((p) => resultFor(item, 'error', p.message, p.path));
}

/**
 * Why the `--config` path is no file to read, checked before it is opened: opening a fifo with no
 * writer blocks forever, and a device (`/dev/zero`) or a directory holds no RenderConfig. A path
 * that does not exist is a usage error, as a PATH that does not exist is.
 */
function configFileProblem(path: string): string | undefined {
  const expected = '--config takes a file with one RenderConfig (fn.llamastack.io/v1alpha1) or ConfigMap';
  let stat;
  try {
    stat = statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new UsageError(`--config ${path}: no such file or directory`);
    if (code === 'ELOOP') return 'is a symbolic link that leads back to itself (a loop): point it at the RenderConfig file, or give that file';
    return cannotRead(error);
  }
  if (stat.isDirectory()) return `is a directory, but ${expected}: give the path of that file`;
  if (!stat.isFile()) return `is not a regular file (a device, a pipe or a socket), but ${expected}: write the options to a file and give its path`;
  return undefined;
}

/**
 * RenderConfig (or ConfigMap) option `distributions.<name>.configPath`: the core reads no files, so
 * the base config is read here, relative to the file holding the options, and put in as `config`.
 * A path that leaves that file's directory is refused; an entry that cannot be read is reported
 * and dropped, so the options schema does not report it again. The files read are added to `baseFiles`.
 */
function resolveConfigPaths(item: InputItem, baseFiles: Set<string>): { item: InputItem; results: Result[] } {
  const container = item.object.kind === 'ConfigMap' ? 'data' : 'spec';
  const holder = (item.object as Record<string, unknown>)[container];
  const file = item.origin.file;
  if (!isPlainObject(holder) || file === undefined) return { item, results: [] };
  const raw = holder.distributions;
  const value = typeof raw === 'string' ? parseYaml11(raw).value : raw;
  const readsAFile = (entry: unknown): boolean => isPlainObject(entry) && typeof entry.configPath === 'string' && entry.config === undefined;
  if (!isPlainObject(value) || !Object.values(value).some(readsAFile)) {
    return { item, results: [] };
  }
  const results: Result[] = [];
  const distributions: Record<string, unknown> = {};
  const dir = resolve(dirname(file));
  for (const [name, entry] of Object.entries(value)) {
    if (!isPlainObject(entry) || typeof entry.configPath !== 'string' || entry.config !== undefined) {
      setOwn(distributions, name, entry);
      continue;
    }
    const read = readBaseConfig(dir, entry.configPath);
    baseFiles.add(resolve(dir, entry.configPath));
    if ('problem' in read) {
      results.push(resultFor(item, 'error', read.problem, [container, 'distributions', name, 'configPath']));
      continue;
    }
    const { configPath: _, ...rest } = entry;
    setOwn(distributions, name, { ...rest, config: read.config });
  }
  const object = { ...item.object, [container]: { ...holder, distributions } } as KrmObject;
  return { item: withObject(item, object), results };
}

function readBaseConfig(dir: string, configPath: string): { config: Record<string, unknown> } | { problem: string } {
  const target = resolve(dir, configPath);
  const refuse = `"${configPath}" leaves the directory of the file that holds the RenderConfig; put the base config next to it or below`;
  if (leavesDirectory(dir, target)) return { problem: refuse };
  try {
    // A symbolic link inside the directory must not lead out of it either.
    if (leavesDirectory(realpathSync(dir), realpathSync(target))) return { problem: refuse };
    // A fifo would block the open until something writes to it: a base config is a file.
    if (!statSync(target).isFile()) return { problem: `"${configPath}" is not a regular file: give the path of a config.yaml file` };
  } catch (error) {
    return { problem: `cannot read "${configPath}": ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}` };
  }
  const read = readInputFile(target, maxInputBytes(process.env));
  if ('problem' in read) return { problem: `"${configPath}" ${read.line === undefined ? '' : `(line ${read.line}) `}${read.problem}` };
  const text = read.text;
  const parsed = parseYaml11(text);
  if (parsed.problem) {
    return { problem: `"${configPath}" is not valid YAML${parsed.problem.line ? ` (line ${parsed.problem.line})` : ''}: ${parsed.problem.message}` };
  }
  if (!isPlainObject(parsed.value)) return { problem: `"${configPath}" must hold a config.yaml mapping (\`version: 2\`, \`providers\`, …)` };
  return { config: parsed.value };
}

/** `-o DIR`: the objects of each LLSD in `<namespace>/<name>.yaml`; everything else in `_passthrough.yaml`. Each text is made when its file is written. */
function filesPerLlsd(items: readonly OutputItem[]): OutputFile[] {
  const groups = new Map<string, OutputItem[]>();
  for (const item of items) {
    const object = isNode(item) ? undefined : objectOf(item);
    const owner = object?.metadata.annotations?.[annotation.generatedFrom];
    // LLSD names are DNS labels, so no LLSD file can be called `_passthrough.yaml`.
    const file = owner === undefined ? '_passthrough.yaml' : `${owner}.yaml`;
    const group = groups.get(file);
    if (group) group.push(item);
    else groups.set(file, [item]);
  }
  return [...groups].map(([name, group]) => ({ name, text: () => writeStream(group) }));
}

const convertOptions = {
  to: { type: 'string' },
  ...commonOptions,
} satisfies ParseArgsConfig['options'];

/** `convert`: every LLSD not in the target version converted (docs/api.md); the other documents as they were. */
async function convert(io: Io, args: string[]): Promise<ExitCode> {
  const parsed = parseCommand(args, convertOptions, help.convert, (text: string) => void io.stdout(text));
  if (!parsed) return 0;
  const { values, positionals } = parsed;
  const to = convertTarget(values.to);
  if (positionals.length === 0) throw new UsageError('convert needs at least one PATH');

  // The OGXServer conversion (and the schemas it checks its output with) is loaded only when asked for.
  const found = findYamlFiles(positionals);
  const read = readItems(found.files);
  // To an OGXServer: checked by building it among the input's other documents (src/convert/build-check.ts).
  const convertItem = to === ogxTarget ? await ogxConversion(read.items) : (object: KrmObject) => ({ ...convertChecked(object, to), beside: [] });
  const results: Result[] = [...found.results, ...read.results];
  const documents: Array<{ object: KrmObject; from: InputItem | undefined }> = [];
  // What an earlier build generated is left out, as build leaves it out (an LLSD with the mark is
  // converted all the same: build reports it).
  const inputs = read.items.filter((item) => !isEarlierOutput(item.object) || item.object.kind === llsdKind);
  // What came from an LLSD that is not in the input is told, as build tells it (issue 29, G1).
  results.push(...removedGeneratedObjects(read.items));
  const output = inputs.flatMap((item): OutputItem[] => {
    const { apiVersion, kind } = item.object;
    const unchanged = (): OutputItem[] => {
      documents.push({ object: item.object, from: undefined });
      return [item.node];
    };
    if (kind !== llsdKind || !apiVersion.startsWith(`${llsdGroup}/`)) return unchanged();
    if (apiVersion === to) {
      // Already in the target version: printed as it was written, once it passes the same check.
      results.push(...convertChecked(item.object, to).problems.map((p) => fromProblem(item, p)));
      return unchanged();
    }
    if (!(llsdApiVersions as readonly string[]).includes(apiVersion)) {
      const message = `apiVersion "${apiVersion}" is not supported for ${llsdKind}; use ${llsdApiVersions.join(' or ')}`;
      results.push(resultFor(item, 'error', message, ['apiVersion']));
      return unchanged();
    }
    const converted = convertItem(item.object);
    results.push(...converted.problems.map((p) => fromProblem(item, p)));
    // The objects written beside it (an OGXServer's base ConfigMap) follow it.
    const objects = [converted.object, ...converted.beside] as KrmObject[];
    documents.push(...objects.map((object) => ({ object, from: item })));
    return objects;
  });
  results.push(...sameIdentity(documents));
  const sorted = sortResults(results);
  report(io, sorted);
  if (exitCodeOf(sorted) !== 0) return 1;
  void io.stdout(writeStream(output));
  return 0;
}

const ogxTarget = 'ogx.io/v1beta1';

/** LLSD → OGXServer, checked by `build` among `inventory`; loaded (with the schemas it checks with) only when asked for. */
async function ogxConversion(inventory: readonly InputItem[]): Promise<(object: KrmObject) => OgxConversion> {
  const { toCheckedOgxServer } = await import('../convert/build-check.js');
  return (object) => toCheckedOgxServer(object, inventory);
}

/**
 * A converted object whose kind, namespace and name another document of the output already has
 * (an LLSD `a` and an OGXServer `a-ogx`; a v1alpha1 and a v1alpha2 LLSD `b`): one would replace the
 * other when applied, so it is an error at the LLSD that became it, and nothing is printed.
 */
function sameIdentity(documents: ReadonlyArray<{ object: KrmObject; from: InputItem | undefined }>): Result[] {
  const seen = new Set<string>();
  const results: Result[] = [];
  // The documents left as they were first, so a converted object is the one told.
  const ordered = [...documents.filter((d) => !d.from), ...documents.filter((d) => d.from)];
  for (const { object, from } of ordered) {
    if (typeof object?.kind !== 'string' || typeof object.metadata?.name !== 'string') continue;
    const id = `${object.kind}/${object.metadata.namespace ?? ''}/${object.metadata.name}`;
    if (seen.has(id) && from) {
      const message =
        `becomes ${object.kind} ${quote(object.metadata.name)}, which another document of the output already is; ` +
        'rename this LLSD or that document before converting';
      results.push(resultFor(from, 'error', message, ['metadata', 'name']));
    }
    seen.add(id);
  }
  return results;
}

/** `--to`: an LLSD version (`v1alpha2` by default, the group optional) or `ogx.io/v1beta1` (`v1beta1` for short). */
function convertTarget(value: string | undefined): string {
  if (value === undefined) return `${llsdGroup}/v1alpha2`;
  if (value === ogxTarget || value === 'v1beta1') return ogxTarget;
  const to = value.includes('/') ? value : `${llsdGroup}/${value}`;
  if (!(llsdApiVersions as readonly string[]).includes(to)) throw new UsageError(`--to must be v1alpha1, v1alpha2 or ${ogxTarget}, not "${value}"`);
  return to;
}

const webhookOptions = {
  cert: { type: 'string' },
  key: { type: 'string' },
  port: { type: 'string' },
  address: { type: 'string' },
  ...commonOptions,
} satisfies ParseArgsConfig['options'];

/** `webhook`: the conversion webhook's HTTPS server, until SIGTERM or SIGINT. */
async function webhook(io: Io, args: string[]): Promise<ExitCode> {
  const parsed = parseCommand(args, webhookOptions, help.webhook, (text: string) => void io.stdout(text));
  if (!parsed) return 0;
  const { values, positionals } = parsed;
  if (positionals.length > 0) throw new UsageError(`webhook takes no PATH, not "${positionals[0]}"`);
  if (values.cert === undefined || values.key === undefined) {
    throw new UsageError('webhook needs --cert FILE and --key FILE (a PEM certificate and its private key)');
  }
  const port = Number(values.port ?? '9443');
  if (!/^\d+$/.test(values.port ?? '9443') || port > 65535) throw new UsageError(`--port must be a number from 0 to 65535, not "${values.port}"`);
  const address = values.address ?? '127.0.0.1';
  const { serveWebhook } = await import('./webhook.js');
  // A log line quotes what clients sent (names, a JSON parse error's token): one line each, bounded.
  return serveWebhook({ cert: values.cert, key: values.key, port, address }, (line) => io.stderr(`${escapeControl(elide(line, 4000))}\n`));
}

/**
 * Errors, warnings and coded infos (an object removed, `generated-object-removed`) on stderr, one
 * line each: kustomize never shows results, and `build` must not drop an object without a word.
 */
function report(io: Io, results: readonly Result[]): void {
  for (const result of results) {
    if (result.severity !== 'info' || result.code !== undefined) io.stderr(`${formatLine(result)}\n`);
  }
}

/**
 * All of `stream`, or its first `limit` + 1 bytes: more than `limit` means the input is too large,
 * and the rest is not read (the stream is closed), so memory stays bounded and `/dev/zero` ends.
 */
export async function readAll(stream: NodeJS.ReadableStream, limit = Infinity): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    chunks.push(buffer);
    size += buffer.length;
    if (size > limit) break;
  }
  const all = Buffer.concat(chunks, size);
  return size > limit ? all.subarray(0, limit + 1) : all;
}

/**
 * `readAll` for a file descriptor, with blocking reads: stdin read this way needs none of the
 * stream machinery `process.stdin` loads (a few ms of a KRM function's start). Undefined when the
 * descriptor is non-blocking (EAGAIN) before anything was read: then read it as a stream.
 */
export function readAllSync(fd: number, limit = Infinity): Buffer | undefined {
  return readUpTo(fd, Math.min(limit, 2 ** 31), 0, 'give-up');
}
