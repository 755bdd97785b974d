// What a functionConfig (or an options document) means, by apiVersion and kind (STYLE §5: a
// dispatch table), and how the options of a render are merged from every source. kustomize cannot
// pass arguments to exec functions, so every option must be expressible in the functionConfig body.
import { reservedKeys } from './lib/reserved-keys.js';
import { resultFor, type InputItem } from './krm/item.js';
import { fromProblem, warningFor } from './krm/reporting.js';
import type { Result } from './krm/result.js';
import { code, quote } from './lib/quote.js';
import { isPlainObject } from './lib/objects.js';
import { parseYaml11 } from './krm/yaml.js';
import { renderConfigBaseWarnings } from './core/base-credentials.js';
import { isNear, problemsFromIssues, type FieldProblem } from './lib/issues.js';
import { group as llsdGroup, kind as llsdKind } from './llsd/llsd-v1alpha2.js';
import { ogxApiVersion, ogxKind } from './ogx/ogxserver.js';
import {
  renderConfigApiVersion,
  renderConfigKind,
  parseRenderOptions,
  renderConfigSchemas,
  type RenderOptions,
  type RenderOptionsInput,
} from './core/render-config.js';

export type FunctionConfig =
  | { role: 'options'; options: RenderOptionsInput; problems: FieldProblem[] }
  /** kustomize generator mode: the LLSD (or OGXServer) is the functionConfig and is rendered. */
  | { role: 'llsd' }
  | { role: 'unsupported'; problems: FieldProblem[] };

type Reader = (item: InputItem) => FunctionConfig;

const readers: Record<string, Record<string, Reader>> = {
  ConfigMap: { v1: fromConfigMap },
  [renderConfigKind]: { [renderConfigApiVersion]: fromRenderConfig },
  [llsdKind]: {
    [`${llsdGroup}/v1alpha2`]: () => ({ role: 'llsd' }),
    [`${llsdGroup}/v1alpha1`]: () => ({ role: 'llsd' }),
  },
  [ogxKind]: { [ogxApiVersion]: () => ({ role: 'llsd' }) },
};

const describeSupported = (): string =>
  Object.entries(readers)
    .map(([kind, versions]) => `${Object.keys(versions).join(' or ')} ${kind}`)
    .join(', ');

export function readFunctionConfig(item: InputItem): FunctionConfig {
  const { apiVersion, kind } = item.object;
  const versions = readers[kind];
  if (!versions) {
    return {
      role: 'unsupported',
      problems: [{ path: ['kind'], message: `a functionConfig of kind ${quote(kind)} is not supported; use one of: ${describeSupported()}` }],
    };
  }
  const reader = versions[apiVersion];
  if (!reader) {
    return {
      role: 'unsupported',
      problems: [
        {
          path: ['apiVersion'],
          message: `apiVersion ${quote(apiVersion)} is not supported for kind ${kind}; use ${Object.keys(versions).join(' or ')}`,
        },
      ],
    };
  }
  return reader(item);
}

/** Is this document an options document (a RenderConfig) rather than something to render or pass through? */
/**
 * An object that was likely meant as a RenderConfig: anything else in the group fn.llamastack.io, or
 * a kind a typo away from RenderConfig in a group a typo away. Among `build` inputs it would be
 * passed through and its options silently not applied.
 */
export function renderConfigNearMiss(object: { apiVersion: string; kind: string }): FieldProblem | undefined {
  if (object.kind === renderConfigKind && object.apiVersion === renderConfigApiVersion) return undefined;
  const slash = object.apiVersion.indexOf('/');
  const objectGroup = slash < 0 ? '' : object.apiVersion.slice(0, slash);
  const group = renderConfigApiVersion.slice(0, renderConfigApiVersion.indexOf('/'));
  const right = `kind \`${renderConfigKind}\` with apiVersion \`${renderConfigApiVersion}\``;
  if (objectGroup === group || (isNear(object.kind, renderConfigKind) && (slash < 0 || isNear(objectGroup, group)))) {
    return {
      path: object.kind === renderConfigKind ? ['apiVersion'] : ['kind'],
      message:
        `render options must be ${right}, not ${quote(object.kind)} ${quote(object.apiVersion)}; ` +
        'written otherwise they would be passed through and not applied',
    };
  }
  return undefined;
}

export const isRenderConfig = (item: InputItem): boolean =>
  item.object.kind === renderConfigKind && item.object.apiVersion === renderConfigApiVersion;

function fromConfigMap(item: InputItem): FunctionConfig {
  const options = (item.object.data ?? {}) as Record<string, unknown>;
  const parsed = parseRenderOptions(options as RenderOptionsInput);
  if (!parsed.success) {
    return {
      role: 'options',
      options: {},
      problems: problemsFromIssues(parsed.error.issues, renderConfigSchemas().renderOptionsSchema).map((p) => ({ ...p, path: ['data', ...p.path] })),
    };
  }
  // The raw keys, not the parsed ones: defaults are applied once, after every source is merged.
  return { role: 'options', options: options as RenderOptionsInput, problems: [] };
}

function fromRenderConfig(item: InputItem): FunctionConfig {
  const { renderConfigSchema, renderOptionsSchema } = renderConfigSchemas();
  // `__proto__` would be dropped on the way into a map (`distributions`), silently: refused, as in a CR.
  const reserved = reservedKeys(item.object);
  if (reserved.length > 0) return { role: 'options', options: {}, problems: reserved };
  const parsed = renderConfigSchema.safeParse(item.object, { reportInput: true });
  if (!parsed.success) {
    // An option written beside `spec:` (a ConfigMap's habit of top-level data) belongs under it.
    const options = new Set(Object.keys(renderOptionsSchema.shape));
    const problems = problemsFromIssues(parsed.error.issues, renderConfigSchema).map((p) =>
      p.path.length === 1 && options.has(String(p.path[0]))
        ? { ...p, message: `is a render option, which a RenderConfig takes under \`spec:\`: write it as \`spec.${String(p.path[0])}\`` }
        : p,
    );
    return { role: 'options', options: {}, problems };
  }
  return { role: 'options', options: (item.object.spec ?? {}) as RenderOptionsInput, problems: [] };
}

/**
 * Warnings for credentials written as literal values in the base configs a RenderConfig or
 * ConfigMap of options brings (`distributions.<name>.config`, inline or read from `configPath`),
 * at the distribution's entry; for options that parsed (their errors come first).
 */
export function baseConfigWarnings(item: InputItem): Result[] {
  const container = item.object.kind === 'ConfigMap' ? 'data' : 'spec';
  const holder = (item.object as Record<string, unknown>)[container];
  if (!isPlainObject(holder)) return [];
  const raw = holder.distributions;
  // As ConfigMap data, a YAML string: the warning is at the string, and names the distribution.
  const value = typeof raw === 'string' ? parseYaml11(raw).value : raw;
  if (!isPlainObject(value)) return [];
  return Object.entries(value).flatMap(([name, entry]) => {
    if (!isPlainObject(entry) || !isPlainObject(entry.config)) return [];
    const at = typeof raw === 'string' ? [container, 'distributions'] : [container, 'distributions', name];
    return renderConfigBaseWarnings(entry.config, name, at).map((problem) => fromProblem(item, problem));
  });
}

/** The RenderConfigs among `build` inputs, in order; a later one that sets an option otherwise wins, and says so. */
export function optionsAmongItems(items: readonly InputItem[]): { sources: RenderOptionsInput[]; results: Result[] } {
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
          const message =
            `is also set, otherwise, by the RenderConfig ${quote(earlier.item.object.metadata.name)}${where}; ` +
            'this one, read later, wins: keep each option in one RenderConfig';
          results.push(warningFor(item, 'render-config-conflict', message, ['spec', key]));
        }
        setBy.set(key, { item, value: json });
      }
    }
    if (fc.role !== 'llsd') results.push(...fc.problems.map((p) => fromProblem(item, p)));
    if (fc.role === 'options' && fc.problems.length === 0) results.push(...baseConfigWarnings(item));
  }
  return { sources, results };
}

/**
 * A RenderConfig among the inputs that sets an option `--config` sets too: a warning per key it
 * sets otherwise (the command line wins), one info for the keys it sets alike. Values are compared
 * as parsed, so `"true"` in a ConfigMap and `true` in a RenderConfig agree.
 */
export function commandLineOverrides(renderConfigs: readonly InputItem[], commandLine: readonly RenderOptionsInput[], file: string | undefined): Result[] {
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
      else {
        const message =
          `is set otherwise by ${source}, which wins: the command line takes precedence over a RenderConfig among the inputs; ` +
          `remove \`${key}\` here or from ${file ?? 'the --config file'}`;
        results.push(warningFor(item, 'render-config-conflict', message, ['spec', key]));
      }
    }
    if (alike.length > 0) {
      const message =
        `sets ${alike.map((key) => code(key)).join(', ')} as ${source} does (the command line wins where both set an option); ` +
        `${alike.length === 1 ? 'it' : 'they'} can be left out here`;
      results.push(resultFor(item, 'info', message, ['spec']));
    }
  }
  return results;
}

const parsedOptions = (options: RenderOptionsInput): RenderOptions | undefined => {
  const parsed = parseRenderOptions(options);
  return parsed.success ? parsed.data : undefined;
};

/** The options of a render: its sources merged key by key, later ones winning, then defaulted. */
export function mergeOptions(sources: readonly RenderOptionsInput[]): RenderOptions {
  const parsed = parseRenderOptions(Object.assign({}, ...sources));
  // Each source was checked on its own: merged ones that fail are a bug (an internal error).
  if (!parsed.success) throw parsed.error;
  return parsed.data;
}
