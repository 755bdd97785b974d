// `llsd-render schema`: print the JSON Schema or the CRD generated from the zod schemas (docs/results.md).
import type { ParseArgsConfig } from 'node:util';
import { commonOptions, parseCommand } from './args.js';
import { crd } from '../llsd/crd.js';
import { jsonSchemaOfLlsd, jsonSchemaOfSpec } from '../llsd/json-schema.js';
import { stringifyPlainYaml } from '../krm/yaml.js';
import { help } from './help.js';
import { UsageError } from './files.js';

/** The part of the command line's io this command uses. */
export interface SchemaIo {
  stdout: (text: string) => void;
}


const options = {
  'json-schema': { type: 'boolean' },
  document: { type: 'boolean' },
  crd: { type: 'boolean' },
  ...commonOptions,
} satisfies ParseArgsConfig['options'];

/** Handles `schema ARGS`; usage errors are thrown as `UsageError` (exit 2), like every command's. */
export function schemaCommand(args: string[], io: SchemaIo): 0 {
  const parsed = parseCommand(args, options, help.schema, io.stdout);
  if (!parsed) return 0;
  const { values, positionals } = parsed;
  if (positionals.length > 0) throw new UsageError(`schema takes no PATH, got "${positionals[0]}"`);
  if (values['json-schema'] && values.crd) throw new UsageError('schema takes one of --json-schema and --crd, not both');
  if (values.document && !values['json-schema']) throw new UsageError('--document goes with --json-schema');
  if (values.crd) {
    io.stdout(stringifyPlainYaml(crd()));
    return 0;
  }
  if (values['json-schema']) {
    io.stdout(`${JSON.stringify(values.document ? jsonSchemaOfLlsd() : jsonSchemaOfSpec(), null, 2)}\n`);
    return 0;
  }
  throw new UsageError('schema needs --json-schema or --crd');
}
