// Options of a render (DESIGN §7): the same keys as `data` of a ConfigMap functionConfig (kpt
// `configMap:` or `-- key=value`) and as `spec` of a `fn.llamastack.io/v1alpha1` RenderConfig.
import { z } from 'zod';
import { checkOverrides, mergeCatalog, type DistributionOverride } from '../config/distributions.js';
import { parseYaml11 } from '../krm/yaml.js';
import { isPlainObject } from '../lib/objects.js';

export const renderConfigApiVersion = 'fn.llamastack.io/v1alpha1';
export const renderConfigKind = 'RenderConfig';

/** A boolean that a ConfigMap can also give as the string "true" or "false". */
const flag = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);

const distributionOverride = z
  .strictObject({
    image: z
      .string()
      .regex(/^\S+$/, { error: 'must be an image reference such as `registry.internal/llamastack/distribution-starter:0.7.1`' })
      .optional()
      .describe('The image to run: a mirror of the shipped one, or the image of a distribution you add.'),
    release: z
      .string()
      .regex(/^\d+\.\d+\.\d+$/, { error: 'must be a llama-stack release such as `0.7.1` (quoted, so YAML keeps it a string)' })
      .optional()
      .describe('The llama-stack release this entry is for, and the default release of the distribution from now on. Default: the image tag when it is a release, else the current default release.'),
    config: z
      .custom<Record<string, unknown>>(isPlainObject, { error: 'must be a mapping: the base config.yaml of this distribution and release' })
      .optional()
      .describe('The base config.yaml, inline (`version: 2`).'),
    configPath: z
      .string()
      .min(1)
      .optional()
      .describe('The base config.yaml as a file, relative to the file holding the RenderConfig (`llsd-render build` and `validate` only).'),
  })
  .describe('A named distribution added or overridden.');

/**
 * RenderConfig `distributions`: named distributions added or overridden (DESIGN §7). As ConfigMap
 * data the value is a YAML string. The parsed option is the whole catalog: the shipped
 * distributions with these entries laid over them.
 */
const distributionMap = z.record(
  z.string().regex(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/, { error: 'must be a distribution name such as `starter` (lower case letters, digits, `-` and `.`)' }),
  distributionOverride,
);
const distributionsOption = z
  .union([
    z
      .string()
      .transform((text, ctx) => {
        const parsed = parseYaml11(text);
        if (parsed.problem) {
          ctx.addIssue({ code: 'custom', message: `is not valid YAML${parsed.problem.line ? ` (line ${parsed.problem.line})` : ''}: ${parsed.problem.message}`, input: text });
          return z.NEVER;
        }
        if (parsed.value === null || isPlainObject(parsed.value)) return parsed.value ?? {};
        ctx.addIssue({ code: 'custom', message: 'must be a YAML mapping from distribution names to `{image, release, config | configPath}`', input: text });
        return z.NEVER;
      })
      .pipe(distributionMap),
    distributionMap,
  ])
  .superRefine((overrides, ctx) => {
    for (const problem of checkOverrides(overrides as Record<string, DistributionOverride>)) {
      ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message, input: overrides });
    }
  })
  .optional()
  .transform((overrides) => mergeCatalog(overrides as Record<string, DistributionOverride> | undefined))
  .describe(
    'Named distributions to add or override, by name: `{image, release, config | configPath}`; e.g. an image mirror `{starter: {image: registry.internal/llamastack/distribution-starter:0.7.1}}`. As ConfigMap data, a YAML string.',
  );

export const renderOptionsSchema = z.strictObject({
  distributions: distributionsOption,
  gitopsAnnotations: flag
    .default(true)
    .describe(
      'Add `kustomize.toolkit.fluxcd.io/substitute: disabled` to ConfigMaps holding `${` and Argo CD `PruneLast=true` to generated ConfigMaps. Default true.',
    ),
  outputPath: z
    .string()
    .min(1)
    .default('{dir}/{name}.generated.yaml')
    .describe(
      'kpt file for the objects generated from an LLSD, relative to the package: `{dir}` is the directory of the LLSD file, `{name}` and `{namespace}` its name and namespace. Default `{dir}/{name}.generated.yaml`.',
    ),
  secretPolicy: z
    .enum(['warn', 'strict', 'off'])
    .default('warn')
    .describe(
      'What a referenced Secret missing from the input gives: `warn` (default; Secrets are often created outside git), `strict` (an error) or `off`. A SealedSecret or ExternalSecret that creates it counts as present.',
    ),
});
export type RenderOptions = z.output<typeof renderOptionsSchema>;
export type RenderOptionsInput = z.input<typeof renderOptionsSchema>;

export const defaultRenderOptions: RenderOptions = renderOptionsSchema.parse({});

export const renderConfigSchema = z.looseObject({
  apiVersion: z.literal(renderConfigApiVersion),
  kind: z.literal(renderConfigKind),
  metadata: z.looseObject({ name: z.string() }),
  spec: renderOptionsSchema.optional(),
});
