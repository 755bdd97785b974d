// JSON Schemas (draft 2020-12) generated from the zod schema of `llamastack.io/v1alpha2`, for
// editors and CI validators (STYLE §9: the field docs are the `described()` texts, nothing is
// written twice). `schema --json-schema` prints the one of `spec` (docs/results.md); `schema
// --json-schema --document` prints the one of a whole LlamaStackDistribution, which is what
// `# yaml-language-server: $schema=…` needs, since that comment applies to the whole document.
//
// These schemas check the shape of each field; the rules across fields (`rules.ts`) are not in
// them. The CRD (`crd.ts`) is derived from `jsonSchemaOfSpec()`.
import { jsonSchemaOf, titled, type JsonSchema } from '../core/crd.js';
import { group, kind, llsdV1alpha2Schemas, version } from './llsd-v1alpha2.js';

export { jsonSchemaOf, type JsonSchema } from '../core/crd.js';

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
