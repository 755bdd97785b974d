// `llsd-render schema`: print the JSON Schema or the CRD generated from the zod schemas of one
// kind (docs/results.md, docs/ogxserver.md): LlamaStackDistribution by default, OGXServer with
// `--kind OGXServer`.
import type { ParseArgsConfig } from 'node:util';
import { commonOptions, parseCommand } from './args.js';
import type { CustomResourceDefinition, JsonSchema } from '../core/crd.js';
import { crd } from '../llsd/crd.js';
import { jsonSchemaOfLlsd, jsonSchemaOfSpec } from '../llsd/json-schema.js';
import { ogxCrd } from '../ogx/crd.js';
import { ogxJsonSchemaOfDocument, ogxJsonSchemaOfSpec } from '../ogx/json-schema.js';
import { stringifyPlainYaml } from '../krm/yaml.js';
import { help } from './help.js';
import { UsageError } from './files.js';

/** The part of the command line's io this command uses. */
export interface SchemaIo {
  stdout: (text: string) => void;
}

/** The schemas of each kind `--kind` selects; the first is the default. */
const kinds: Record<string, { spec: () => JsonSchema; document: () => JsonSchema; crd: () => CustomResourceDefinition }> = {
  LlamaStackDistribution: { spec: jsonSchemaOfSpec, document: jsonSchemaOfLlsd, crd: () => crd() },
  OGXServer: { spec: ogxJsonSchemaOfSpec, document: ogxJsonSchemaOfDocument, crd: ogxCrd },
};

const options = {
  'json-schema': { type: 'boolean' },
  document: { type: 'boolean' },
  crd: { type: 'boolean' },
  kind: { type: 'string' },
  ...commonOptions,
} satisfies ParseArgsConfig['options'];

/** Handles `schema ARGS`; usage errors are thrown as `UsageError` (exit 2), like every command's. */
export function schemaCommand(args: string[], io: SchemaIo): 0 {
  const parsed = parseCommand(args, options, help.schema, io.stdout);
  if (!parsed) return 0;
  const { values, positionals } = parsed;
  if (positionals.length > 0) throw new UsageError(`schema takes no PATH, got "${positionals[0]}"`);
  const kindName = values.kind ?? 'LlamaStackDistribution';
  const kind = kinds[kindName];
  if (!kind) throw new UsageError(`--kind must be ${Object.keys(kinds).join(' or ')}, not "${kindName}"`);
  if (values['json-schema'] && values.crd) throw new UsageError('schema takes one of --json-schema and --crd, not both');
  if (values.document && !values['json-schema']) throw new UsageError('--document goes with --json-schema');
  if (values.crd) {
    io.stdout(stringifyPlainYaml(kind.crd()));
    return 0;
  }
  if (values['json-schema']) {
    io.stdout(`${JSON.stringify(values.document ? kind.document() : kind.spec(), null, 2)}\n`);
    return 0;
  }
  throw new UsageError('schema needs --json-schema or --crd');
}
