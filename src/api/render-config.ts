// Options of a render (DESIGN §7): the same keys as `data` of a ConfigMap functionConfig (kpt
// `configMap:` or `-- key=value`) and as `spec` of a `fn.llamastack.io/v1alpha1` RenderConfig.
import { z } from 'zod';

export const renderConfigApiVersion = 'fn.llamastack.io/v1alpha1';
export const renderConfigKind = 'RenderConfig';

/** A boolean that a ConfigMap can also give as the string "true" or "false". */
const flag = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);

export const renderOptionsSchema = z.strictObject({
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
