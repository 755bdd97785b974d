// What a field of the wrong shape tells the user to write (src/core/shape-hints.ts), in an LLSD and an
// OGXServer alike: the mistakes a new user made (`models: gpt-4o-mini`, `expose: yes`), each with
// its path and the whole message; then every object and list field of the LLSD schema, walked,
// given the wrong shape, must answer with an example of the right one.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { shapedFields, specWith } from './schema-walk.js';
import type { KrmObject } from '../../src/krm/item.js';
import { jsonSchemaOfSpec } from '../../src/llsd/json-schema.js';
import { parseLlsd } from '../../src/llsd/llsd.js';
import { parseOgxServer } from '../../src/ogx/ogxserver.js';
import { releaseName } from '../../src/catalog/versions.js';
import { process as render } from '../../src/process.js';
import { itemsFrom, llsdYaml } from '../support.js';

type Shown = { path: string; message: string };
const llsdProblemsOfSpec = (spec: Record<string, unknown>): Shown[] =>
  parseLlsd({ apiVersion: 'llamastack.io/v1alpha2', kind: 'LlamaStackDistribution', metadata: { name: 'q', namespace: 'ns' }, spec } as unknown as
    KrmObject).problems.map((p) => ({ path: p.path.join('.'), message: p.message }));
const llsdProblemsOf = (yaml: string) => llsdProblemsOfSpec({ distribution: { name: 'starter' }, ...(parse(yaml) as Record<string, unknown>) });
const ogxProblemsOf = (yaml: string): Shown[] =>
  parseOgxServer(
    {
      apiVersion: 'ogx.io/v1beta1',
      kind: 'OGXServer',
      metadata: { name: 's', namespace: 'ns' },
      spec: { distribution: { name: 'starter' }, ...(parse(yaml) as Record<string, unknown>) },
    } as unknown as KrmObject,
    { distributions: ['starter'] },
  ).problems.map((p) => ({ path: p.path.join('.'), message: p.message }));

/** The messages of a whole render of an LLSD with these spec fields (besides `distribution: {name: starter}`). */
const llsdProblemsOfRender = (yaml: string): string[] =>
  render({ mode: 'krm', items: itemsFrom(llsdYaml(`distribution: {name: starter}\n${yaml}`)) }).results.map((r) => r.message);

describe('an LLSD field of the wrong shape says what to write', () => {
  it.each([
    // [spec fields (YAML), path, the whole message]
    [
      'resources: {models: gpt-4o-mini}',
      'spec.resources.models',
      'must be a list, not a string: write `models: [gpt-4o-mini]`, a list of names or of mappings such as `{name: <name>, …}`',
    ],
    ['resources: {tools: websearch}', 'spec.resources.tools', 'must be a list, not a string: write `tools: [websearch]`'],
    // Text YAML reads as a number is quoted in the example (an attacker: `[123]` was refused next as an integer).
    [
      'resources: {models: "123"}',
      'spec.resources.models',
      'must be a list, not a string: write `models: ["123"]`, a list of names or of mappings such as `{name: <name>, …}`',
    ],
    ['disabled: "0x1F"', 'spec.disabled', 'must be a list, not a string: write `disabled: ["0x1F"]`'],
    ['disabled: safety', 'spec.disabled', 'must be a list, not a string: write `disabled: [safety]`'],
    ['providers: {inference: vllm}', 'spec.providers.inference', 'must be a mapping or a list, not a string: write `inference: {provider: "vllm"}`'],
    ['distribution: starter', 'spec.distribution', 'must be a mapping, not a string: write `distribution: {name: "starter"}`'],
    ['networking: {allowedFrom: web}', 'spec.networking.allowedFrom', 'must be a mapping, not a string: write `allowedFrom: {namespaces: […], …}`'],
    // YAML 1.1 booleans are strings in YAML 1.2, which the API server reads.
    [
      'networking: {expose: yes}',
      'spec.networking.expose',
      'must be true or false or a mapping, not a string: YAML reads "yes" as a string (it was a boolean only in YAML 1.1); write `expose: true` ' +
        'or `expose: {hostname: ai.example.com}`',
    ],
    [
      'networking: {expose: off}',
      'spec.networking.expose',
      'must be true or false or a mapping, not a string: YAML reads "off" as a string (it was a boolean only in YAML 1.1); write `expose: false`',
    ],
    ['networking: {expose: "true"}', 'spec.networking.expose', 'must be true or false or a mapping, not a string: write it without quotes: `expose: true`'],
    [
      'networking: {tls: {enabled: On}}',
      'spec.networking.tls.enabled',
      'must be true or false, not a string: YAML reads "On" as a string (it was a boolean only in YAML 1.1); write `enabled: true`',
    ],
    [
      'workload: {podDisruptionBudget: y}',
      'spec.workload.podDisruptionBudget',
      'must be a mapping, not a string (YAML reads "y" as a string, not a boolean): write `podDisruptionBudget: {minAvailable: 1, …}`',
    ],
  ])('%s', (yaml, path, message) => {
    expect(llsdProblemsOf(yaml)).toEqual([{ path, message }]);
  });

  it('never shows back a string given where a Secret reference goes', () => {
    const marker = 'sk-proj-LEAKED-MARKER-123';
    const problems = llsdProblemsOf(`providers: {inference: {provider: vllm, apiKey: {secretKeyRef: "${marker}"}}}`);
    expect(problems).toEqual([
      { path: 'spec.providers.inference.apiKey.secretKeyRef', message: 'must be a Secret key `{name: <secret>, key: <key>}`, not a string' },
    ]);
    expect(JSON.stringify(llsdProblemsOf(`workload: {overrides: {env: "${marker}"}}`))).not.toContain(marker);
  });
});

describe('a Secret reference without its name or key says what to write', () => {
  const secret = 'the Secret (in the same namespace) and its key that holds the value';
  it.each([
    [
      '{name: vllm-credentials}',
      [
        {
          path: 'spec.providers.inference.apiKey.secretKeyRef.key',
          message: `is required: write \`secretKeyRef: {name: vllm-credentials, key: <key>}\`, naming ${secret}`,
        },
      ],
    ],
    [
      '{key: token}',
      [
        {
          path: 'spec.providers.inference.apiKey.secretKeyRef.name',
          message: `is required: write \`secretKeyRef: {name: <secret>, key: token}\`, naming ${secret}`,
        },
      ],
    ],
    ['{}', [{ path: 'spec.providers.inference.apiKey.secretKeyRef', message: `must name ${secret}: write \`secretKeyRef: {name: <secret>, key: <key>}\`` }]],
  ])('LLSD `secretKeyRef: %s`', (ref, expected) => {
    expect(llsdProblemsOf(`providers: {inference: {provider: vllm, apiKey: {secretKeyRef: ${ref}}}}`)).toEqual(expected);
  });

  it('OGXServer `apiKey: {name: openai}`', () => {
    expect(ogxProblemsOf('providers: {inference: {remote: {openai: [{apiKey: {name: openai}}]}}}')).toEqual([
      { path: 'spec.providers.inference.remote.openai.0.apiKey.key', message: `is required: write \`apiKey: {name: openai, key: <key>}\`, naming ${secret}` },
    ]);
  });
});

describe('an OGXServer field of the wrong shape says what to write', () => {
  it.each([
    ['resources: {models: gpt-4o-mini}', 'spec.resources.models', 'must be a list, not a string: write `models: [{name: "gpt-4o-mini"}]`'],
    [
      'network: {externalAccess: {enabled: yes}}',
      'spec.network.externalAccess.enabled',
      'must be true or false, not a string: YAML reads "yes" as a string (it was a boolean only in YAML 1.1); write `enabled: true`',
    ],
    [
      'monitoring: yes',
      'spec.monitoring',
      'must be a mapping, not a string (YAML reads "yes" as a string, not a boolean): write `monitoring: {enabled: true, …}`',
    ],
  ])('%s', (yaml, path, message) => {
    expect(ogxProblemsOf(yaml)).toEqual([{ path, message }]);
  });
});

// ---- every object and list field of the LLSD schema, given the wrong shape ----


describe('every object and list field of the LLSD schema', () => {
  const fields = shapedFields(jsonSchemaOfSpec(), [], []).filter((f) => f.path[0] !== 'distribution' || f.path.length > 1);

  it('covers the schema down to the workload overrides', () => {
    expect(fields.length).toBeGreaterThan(30);
    expect(fields.map((f) => f.path.join('.'))).toContain('resources.models');
  });

  it.each(fields.map((f) => [f.path.join('.'), f] as const))('%s: the wrong shape gets an example of the right one', (_name, field) => {
    const wrong = field.kind === 'array' ? { oops: 1 } : 7;
    const problems = llsdProblemsOfSpec(specWith(field.path, wrong)).filter((p) => p.path === ['spec', ...field.path].join('.'));
    expect(problems).toHaveLength(1);
    expect(problems[0]?.message).toMatch(/^must be [^:]*, not (a mapping|an integer): (write|put it in a list, one item each:) `[A-Za-z0-9]+: [[{].+`/);
  });
});

describe('a release as messages name it (catalog/versions.ts releaseName)', () => {
  it.each([
    ['0.2.14', 'llama-stack 0.2.14'],
    ['0.7.1', 'llama-stack 0.7.1'],
    ['0.8.0', 'OGX 0.8.0'],
    ['1.3.0', 'OGX 1.3.0'],
    ['not-a-release', 'llama-stack not-a-release'],
  ])('%s → %s', (release, name) => {
    expect(releaseName(release)).toBe(name);
  });

  it('one message names a release one way: a safety provider on 1.3.0, beside the summary that says OGX 1.3.0', () => {
    const problems = llsdProblemsOfRender('providers: {safety: {provider: llama-guard}}');
    expect(problems.join('\n')).toContain('which OGX 1.3.0 does not have');
    expect(problems.join('\n')).not.toMatch(/llama-stack 1\.3\.0/);
  });
});
