// JSON Schemas (draft 2020-12) generated from the zod schema of `llamastack.io/v1alpha2`, for
// editors and CI validators (STYLE §9: the field docs are the `described()` texts, nothing is
// written twice). `schema --json-schema` prints the one of `spec` (docs/results.md); `schema
// --json-schema --document` prints the one of a whole LlamaStackDistribution, which is what
// `# yaml-language-server: $schema=…` needs, since that comment applies to the whole document.
//
// These schemas check the shape of each field; the rules across fields (`rules.ts`) are not in
// them. The CRD (`crd.ts`) is derived from `jsonSchemaOfSpec()`.
import { z } from '../lib/zod.js';
import { group, kind, llsdV1alpha2Schemas, version } from './llsd-v1alpha2.js';

export type JsonSchema = z.core.JSONSchema.BaseSchema;

/** The JSON Schema of a v1alpha2 `spec`; objects that zod declares strict have `additionalProperties: false`. */
export function jsonSchemaOfSpec(): JsonSchema {
  return titled(jsonSchemaOf(llsdV1alpha2Schemas().specSchema), `${kind} spec (${group}/${version})`);
}

/** The JSON Schema of a whole v1alpha2 LlamaStackDistribution: apiVersion, kind, metadata and spec. */
export function jsonSchemaOfLlsd(): JsonSchema {
  return titled(jsonSchemaOf(llsdV1alpha2Schemas().llsdSchema), `${kind} (${group}/${version})`, {
    description: `A ${kind}, rendered by llsd-render. This schema checks the shape of each field; \`llsd-render validate\` also checks the rules across ` +
      `fields.`,
  });
}

/** The JSON Schema of any zod schema, with the options used here (the CRD's versions use it). */
export const jsonSchemaOf = (schema: z.core.$ZodType): JsonSchema => z.toJSONSchema(schema, options);

/** `$schema` and `title` first, for a reader of the printed schema. */
const titled = (schema: JsonSchema, title: string, extra: JsonSchema = {}): JsonSchema => ({ $schema: schema.$schema, title, ...schema, ...extra });

/** `io: 'input'`: the schema of what a user writes, before any default is applied. */
const options = { target: 'draft-2020-12', io: 'input' } as const;
