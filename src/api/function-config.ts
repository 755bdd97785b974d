// What a functionConfig (or an options document) means, by apiVersion and kind (STYLE §5: a
// dispatch table). kustomize cannot pass arguments to exec functions, so every option must be
// expressible in the functionConfig body.
import type { InputItem } from '../krm/item.js';
import { quote } from '../lib/quote.js';
import { problemsFromIssues, type FieldProblem } from './issues.js';
import { group as llsdGroup, kind as llsdKind } from './llsd-v1alpha2.js';
import {
  renderConfigApiVersion,
  renderConfigKind,
  renderConfigSchema,
  renderOptionsSchema,
  type RenderOptionsInput,
} from './render-config.js';

export type FunctionConfig =
  | { role: 'options'; options: RenderOptionsInput; problems: FieldProblem[] }
  /** kustomize generator mode: the LLSD is the functionConfig and is rendered. */
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
export const isRenderConfig = (item: InputItem): boolean =>
  item.object.kind === renderConfigKind && item.object.apiVersion === renderConfigApiVersion;

function fromConfigMap(item: InputItem): FunctionConfig {
  const options = (item.object.data ?? {}) as Record<string, unknown>;
  const parsed = renderOptionsSchema.safeParse(options, { reportInput: true });
  if (!parsed.success) {
    return {
      role: 'options',
      options: {},
      problems: problemsFromIssues(parsed.error.issues, renderOptionsSchema).map((p) => ({ ...p, path: ['data', ...p.path] })),
    };
  }
  // The raw keys, not the parsed ones: defaults are applied once, after every source is merged.
  return { role: 'options', options: options as RenderOptionsInput, problems: [] };
}

function fromRenderConfig(item: InputItem): FunctionConfig {
  const parsed = renderConfigSchema.safeParse(item.object, { reportInput: true });
  if (!parsed.success) {
    return { role: 'options', options: {}, problems: problemsFromIssues(parsed.error.issues, renderConfigSchema) };
  }
  return { role: 'options', options: (item.object.spec ?? {}) as RenderOptionsInput, problems: [] };
}
