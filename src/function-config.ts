// What a functionConfig (or an options document) means, by apiVersion and kind (STYLE §5: a
// dispatch table). kustomize cannot pass arguments to exec functions, so every option must be
// expressible in the functionConfig body.
import type { InputItem } from './krm/item.js';
import { quote } from './lib/quote.js';
import { isNear, problemsFromIssues, type FieldProblem } from './lib/issues.js';
import { group as llsdGroup, kind as llsdKind } from './llsd/llsd-v1alpha2.js';
import { ogxApiVersion, ogxKind } from './ogx/ogxserver.js';
import {
  renderConfigApiVersion,
  renderConfigKind,
  parseRenderOptions,
  renderConfigSchemas,
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
      message: `render options must be ${right}, not ${quote(object.kind)} ${quote(object.apiVersion)}; written otherwise they would be passed through and not applied`,
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
  const { renderConfigSchema } = renderConfigSchemas();
  const parsed = renderConfigSchema.safeParse(item.object, { reportInput: true });
  if (!parsed.success) {
    return { role: 'options', options: {}, problems: problemsFromIssues(parsed.error.issues, renderConfigSchema) };
  }
  return { role: 'options', options: (item.object.spec ?? {}) as RenderOptionsInput, problems: [] };
}
