// `llsd-render schema`, run in process with a fake io (the lead wires it into main.ts).
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { crd } from '../../src/llsd/crd.js';
import { jsonSchemaOfLlsd, jsonSchemaOfSpec } from '../../src/llsd/json-schema.js';
import { UsageError } from '../../src/cli/files.js';
import { help } from '../../src/cli/help.js';
import { schemaCommand } from '../../src/cli/schema.js';
import { ogxCrd } from '../../src/ogx/crd.js';
import { ogxJsonSchemaOfDocument, ogxJsonSchemaOfSpec } from '../../src/ogx/json-schema.js';

const schemaHelp = help.schema;
import { version } from '../../src/version.js';

function run(...args: string[]): { code: number; stdout: string } {
  let stdout = '';
  const code = schemaCommand(args, { stdout: (text) => (stdout += text) });
  return { code, stdout };
}

describe('llsd-render schema', () => {
  it('--json-schema prints the JSON Schema of spec as JSON', () => {
    const { code, stdout } = run('--json-schema');
    expect(code).toBe(0);
    expect(stdout.endsWith('}\n')).toBe(true);
    expect(JSON.parse(stdout)).toEqual(jsonSchemaOfSpec());
    expect(JSON.parse(stdout)).toMatchObject({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', required: ['distribution'] });
  });

  it('--json-schema --document prints the schema of a whole LlamaStackDistribution, for editors', () => {
    const schema: unknown = JSON.parse(run('--json-schema', '--document').stdout);
    expect(schema).toEqual(jsonSchemaOfLlsd());
    expect(schema).toMatchObject({
      required: expect.arrayContaining(['apiVersion', 'kind', 'metadata', 'spec']),
      properties: { apiVersion: { const: 'llamastack.io/v1alpha2' }, kind: { const: 'LlamaStackDistribution' } },
    });
  });

  it('--crd prints the CRD as YAML that a YAML 1.1 reader (kubectl) reads the same', () => {
    const { code, stdout } = run('--crd');
    expect(code).toBe(0);
    expect(stdout.startsWith('apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n')).toBe(true);
    expect(parse(stdout)).toEqual(crd());
    expect(parse(stdout, { version: '1.1' })).toEqual(crd());
  });

  it('--kind LlamaStackDistribution is the default', () => {
    expect(run('--kind', 'LlamaStackDistribution', '--crd').stdout).toBe(run('--crd').stdout);
    expect(run('--kind', 'LlamaStackDistribution', '--json-schema').stdout).toBe(run('--json-schema').stdout);
  });

  it('--kind OGXServer --json-schema prints the JSON Schema of an OGXServer spec; with --document, of a whole OGXServer', () => {
    const spec: unknown = JSON.parse(run('--kind', 'OGXServer', '--json-schema').stdout);
    expect(spec).toEqual(ogxJsonSchemaOfSpec());
    expect(spec).toMatchObject({ title: 'OGXServer spec (ogx.io/v1beta1)', required: ['distribution'], properties: { network: { type: 'object' } } });
    const document: unknown = JSON.parse(run('--kind', 'OGXServer', '--json-schema', '--document').stdout);
    expect(document).toEqual(ogxJsonSchemaOfDocument());
    expect(document).toMatchObject({ properties: { apiVersion: { const: 'ogx.io/v1beta1' }, kind: { const: 'OGXServer' } } });
  });

  it('--kind OGXServer --crd prints the OGXServer CRD as YAML', () => {
    const { code, stdout } = run('--kind', 'OGXServer', '--crd');
    expect(code).toBe(0);
    expect(parse(stdout)).toEqual(ogxCrd());
    expect(parse(stdout, { version: '1.1' })).toEqual(ogxCrd());
    expect(parse(stdout)).toMatchObject({ metadata: { name: 'ogxservers.ogx.io' }, spec: { names: { kind: 'OGXServer' } } });
  });

  it('prints the same bytes on every run', () => {
    expect(run('--crd').stdout).toBe(run('--crd').stdout);
    expect(run('--json-schema').stdout).toBe(run('--json-schema').stdout);
  });

  it('--help and --version', () => {
    expect(run('--help')).toEqual({ code: 0, stdout: schemaHelp });
    expect(run('-h').stdout).toBe(schemaHelp);
    expect(schemaHelp).toMatch(/--json-schema/);
    expect(schemaHelp).toMatch(/--crd/);
    expect(schemaHelp).toMatch(/--kind KIND +LlamaStackDistribution \(default\) or OGXServer/);
    expect(run('--version')).toEqual({ code: 0, stdout: `${version}\n` });
  });

  it.each([
    [[], 'schema needs --json-schema or --crd'],
    [['--crd', '--json-schema'], 'schema takes one of --json-schema and --crd, not both'],
    [['--document'], '--document goes with --json-schema'],
    [['--crd', 'examples'], 'schema takes no PATH, got "examples"'],
    [['--yaml'], 'unknown option "--yaml" (options: --json-schema, --document, --crd, --kind, --help, --version)'],
    [['--kind', 'ogx', '--crd'], '--kind must be LlamaStackDistribution or OGXServer, not "ogx"'],
  ])('%j is a usage error', (args, message) => {
    expect(() => run(...args)).toThrow(UsageError);
    expect(() => run(...args)).toThrow(message);
  });
});
