// JSON Schemas (draft 2020-12) of the OGXServer, generated from its zod schema as the LLSD's are
// (src/core/crd.ts): `schema --kind OGXServer --json-schema` prints the one of `spec`, with
// `--document` the one of a whole OGXServer, for `# yaml-language-server: $schema=…`.
// They check the shape of each field; the CRD's CEL rules and the webhook's checks (`rules.ts`)
// are not in them.
import { jsonSchemaOf, titled, type JsonSchema } from '../core/crd.js';
import { ogxApiVersion, ogxKind, ogxSchemas } from './ogxserver-schema.js';

/** The JSON Schema of an OGXServer `spec`; its objects are strict (`additionalProperties: false`). */
export function ogxJsonSchemaOfSpec(): JsonSchema {
  return titled(jsonSchemaOf(ogxSchemas().spec), `${ogxKind} spec (${ogxApiVersion})`);
}

/** The JSON Schema of a whole OGXServer: apiVersion, kind, metadata and spec. */
export function ogxJsonSchemaOfDocument(): JsonSchema {
  return titled(jsonSchemaOf(ogxSchemas().server), `${ogxKind} (${ogxApiVersion})`, {
    description: `An ${ogxKind}, rendered by llsd-render. This schema checks the shape of each field; \`llsd-render validate\` also checks the rules ` +
      `across fields.`,
  });
}
