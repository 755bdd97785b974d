// What an OGXServer's shape errors tell the user to write (src/ogx/ogxserver-messages.ts): a corpus
// of the mistakes new users made (a string for a `{name, key}`, a list for a mapping, an LLSD's
// field names and forms), each with its path and a message that holds the fix; then every object
// and list field of the schema, walked, given the wrong shape, must answer with an example.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { shapedFields, specWith } from './schema-walk.js';
import type { KrmObject } from '../../src/krm/item.js';
import { ogxJsonSchemaOfSpec } from '../../src/ogx/json-schema.js';
import { parseOgxServer } from '../../src/ogx/ogxserver.js';

const problemsOfSpec = (spec: Record<string, unknown>) =>
  parseOgxServer({ apiVersion: 'ogx.io/v1beta1', kind: 'OGXServer', metadata: { name: 's', namespace: 'ns' }, spec } as unknown as KrmObject, {
    distributions: ['starter'],
  }).problems.map((p) => ({ path: p.path.join('.'), message: p.message }));
const problemsOf = (yaml: string) => problemsOfSpec({ distribution: { name: 'starter' }, ...(parse(yaml) as Record<string, unknown>) });

describe('OGXServer shape errors say what to write', () => {
  it('never shows back a string given where a Secret reference or env value goes (it may be the secret itself)', () => {
    const marker = 'sk-proj-LEAKED-MARKER-123';
    const problems = problemsOf(`workload: {overrides: {env: [{name: OPENAI_API_KEY, valueFrom: {secretKeyRef: "${marker}"}}]}}`);
    expect(problems.map((p) => p.path)).toEqual(['spec.workload.overrides.env.0.valueFrom.secretKeyRef']);
    expect(problems[0]?.message).toMatch(/^must be a mapping, not a string: write `secretKeyRef: \{/);
    expect(JSON.stringify(problems)).not.toContain(marker);
  });

  it.each([
    // [spec fields (YAML), path, the whole message]
    [
      'tls: {trust: {caCertificates: [my-ca]}}',
      'spec.tls.trust.caCertificates.0',
      'must be a ConfigMap key `{name: <configmap>, key: <key>}`, not a string',
    ],
    [
      'tls: {trust: {caCertificates: {name: ca, key: ca.crt}}}',
      'spec.tls.trust.caCertificates',
      'must be a list, not a mapping: put it in a list, one item each: `caCertificates: [{name: <configmap>, key: <key>}]`',
    ],
    ['resources: {models: [granite]}', 'spec.resources.models.0', 'must be a mapping, not a string: write `{name: "granite"}`'],
    [
      'resources: {models: {name: granite}}',
      'spec.resources.models',
      'must be a list, not a mapping: put it in a list, one item each: `models: [{name: <name>, …}]`',
    ],
    [
      'providers: [{provider: vllm, endpoint: "http://v:8000/v1"}]',
      'spec.providers',
      'must be a mapping, not a list: an OGXServer groups providers by API, placement and type, with no `provider:` entries; write ' +
        '`providers: {inference: {remote: {vllm: [{endpoint: http://vllm:8000/v1}]}}}`',
    ],
    [
      'providers: {inference: [{provider: vllm, endpoint: "http://v:8000/v1"}]}',
      'spec.providers.inference',
      'must be a mapping, not a list: an OGXServer groups providers by placement (`remote`, `inline`) and type; write ' +
        '`inference: {remote: {vllm: [{endpoint: http://…, …}], …}, …}`',
    ],
    [
      'providers: {inference: {remote: {vllm: {endpoint: "http://v:8000/v1"}}}}',
      'spec.providers.inference.remote.vllm',
      'must be a list, not a mapping: put it in a list, one item each: `vllm: [{endpoint: http://…, …}]`',
    ],
    ['providers: {inference: {remote: {vllm: ["http://v:8000/v1"]}}}', 'spec.providers.inference.remote.vllm.0',
      'must be a mapping, not a string: write `{endpoint: "http://v:8000/v1"}`'],
    [
      'providers: {inference: {remote: {vllm: [{endpoint: "http://v:8000/v1", apiToken: {secretKeyRef: {name: vllm, key: token}}}]}}}',
      'spec.providers.inference.remote.vllm.0.apiToken.secretKeyRef',
      'is how a LlamaStackDistribution names a Secret key; an OGXServer names it directly: write `apiToken: {name: <secret>, key: <key>}`',
    ],
    [
      'providers: {vectorIo: {remote: {pgvector: [{password: hunter2}]}}}',
      'spec.providers.vectorIo.remote.pgvector.0.password',
      'must be a Secret key `{name: <secret>, key: <key>}`, not a string: put the value in a Secret labelled `ogx.io/watch: "true"` and name its key here',
    ],
    ['providers: {files: {remote: {s3: [{bucketName: b}]}}}', 'spec.providers.files.remote.s3',
      'must be a mapping, not a list: write `s3: {bucketName: …, …}`'],
    ['distribution: starter', 'spec.distribution', 'must be a mapping, not a string: write `distribution: {name: "starter"}`'],
    ['disabledAPIs: inference', 'spec.disabledAPIs', 'must be a list, not a string: write `disabledAPIs: [inference]`'],
    [
      'network: {externalAccess: true}',
      'spec.network.externalAccess',
      'must be a mapping, not `true`: write `externalAccess: {enabled: true, hostname: ogx.example.com, tls: {secretName: ogx-tls}}`',
    ],
    ['monitoring: true', 'spec.monitoring', 'must be a mapping, not `true`: write `monitoring: {enabled: true, …}`'],
    ['baseConfig: my-config', 'spec.baseConfig', 'must be a ConfigMap key `{name: <configmap>, key: <key>}`, not a string'],
    [
      'workload: {overrides: {env: {A: b}}}',
      'spec.workload.overrides.env',
      'must be a list, not a mapping: put it in a list, one item each: `env: [{name: <name>, …}]`',
    ],
    // A missing field: what to add.
    ['providers: {inference: {remote: {vllm: [{id: v}]}}}', 'spec.providers.inference.remote.vllm.0.endpoint', 'is required: add `endpoint: http://…`'],
    [
      'providers: {inference: {remote: {openai: [{id: o}]}}}',
      'spec.providers.inference.remote.openai.0.apiKey',
      'is required: add `apiKey: {name: <secret>, key: <key>}`',
    ],
    ['providers: {inference: {remote: {custom: [{id: c}]}}}', 'spec.providers.inference.remote.custom.0.type', 'is required: add `type: remote::…`'],
    [
      'tls: {trust: {caCertificates: [{name: ca}]}}',
      'spec.tls.trust.caCertificates.0.key',
      'is required: write `{name: ca, key: <key>}`, naming the ConfigMap and its key',
    ],
    ['workload: {autoscaling: {minReplicas: 1}}', 'spec.workload.autoscaling.maxReplicas', 'is required: add `maxReplicas: 1`'],
    // An enum lists only the values it accepts.
    ['storage: {sql: {type: redis}}', 'spec.storage.sql.type', 'must be one of `sqlite`, `postgres`, not "redis"'],
    ['storage: {kv: {type: postgres}}', 'spec.storage.kv.type', 'must be one of `sqlite`, `redis`, not "postgres"'],
  ])('%s', (yaml, path, message) => {
    expect(problemsOf(yaml)).toEqual([{ path, message }]);
  });

  it('never quotes a value that could be a credential back', () => {
    const [problem] = problemsOf('providers: {inference: {remote: {vllm: ["http://user:pass@v:8000/v1"]}}}');
    expect(problem?.message).not.toContain('pass');
    expect(problemsOf('providers: {vectorIo: {remote: {pgvector: [{password: hunter2}]}}}')[0]?.message).not.toContain('hunter2');
  });
});

describe('an LlamaStackDistribution field name in an OGXServer: did you mean the OGXServer field', () => {
  it.each([
    ['replicas: 2', 'spec.replicas', 'did you mean `spec.workload.replicas`?'],
    ['networking: {port: 8080}', 'spec.networking', 'did you mean `spec.network`?'],
    ['network: {expose: true}', 'spec.network.expose', 'did you mean `spec.network.externalAccess`?'],
    ['network: {exposeRoute: true}', 'spec.network.exposeRoute', 'did you mean `spec.network.externalAccess`?'],
    ['network: {allowedFrom: {namespaces: [web]}}', 'spec.network.allowedFrom', 'did you mean `spec.network.policy.ingress`?'],
    ['userConfig: {configMapName: run}', 'spec.userConfig', 'did you mean `spec.overrideConfig`?'],
    ['workload: {containerSpec: {port: 8080}}', 'spec.workload.containerSpec', 'did you mean `spec.workload.overrides`?'],
    ['storage: {mountPath: /data}', 'spec.storage.mountPath', 'did you mean `spec.workload.storage.mountPath`?'],
    ['disabled: [files]', 'spec.disabled', 'did you mean `spec.disabledAPIs`?'],
    ['workload: {autoscaling: {maxReplicas: 2, targetCPUUtilization: 80}}', 'spec.workload.autoscaling.targetCPUUtilization',
      'did you mean `spec.workload.autoscaling.targetCPUUtilizationPercentage`?'],
  ])('%s', (yaml, path, hint) => {
    const problems = problemsOf(yaml);
    expect(problems.map((p) => p.path)).toEqual([path]);
    expect(problems[0]?.message).toContain(`is not an OGXServer field; ${hint}`);
  });

  it('a field with no counterpart says what to do instead', () => {
    expect(problemsOf('server: {distribution: {name: starter}}')).toEqual([
      {
        path: 'spec.server',
        message: expect.stringMatching(
          /^is a LlamaStackDistribution field \(`server`\), not an OGXServer one: its fields moved: `server\.distribution` to `spec\.distribution`/,
        ),
      },
    ]);
    expect(problemsOf('workload: {overrides: {terminationGracePeriodSeconds: 30}}')[0]?.message).toMatch(/^is a LlamaStackDistribution field .*no such field/);
  });

  it('a plain typo keeps its "did you mean" of the nearest field', () => {
    expect(problemsOf('workload: {replica: 2}')).toEqual([{ path: 'spec.workload.replica', message: 'is not a known field; did you mean `replicas`?' }]);
  });
});

// ---- every object and list field of the schema, given the wrong shape ----


describe('every object and list field of the OGXServer schema', () => {
  const fields = shapedFields(ogxJsonSchemaOfSpec(), [], []).filter((f) => f.path[0] !== 'distribution' || f.path.length > 1);

  it('covers the schema down to the providers', () => {
    expect(fields.length).toBeGreaterThan(150);
    expect(fields.map((f) => f.path.join('.'))).toContain('providers.responses.inline.builtin.vectorStoresConfig.chunkRetrievalParams');
  });

  it.each(fields.map((f) => [f.path.join('.'), f] as const))('%s: the wrong shape gets an example of the right one', (_name, field) => {
    const wrong = field.kind === 'array' ? { oops: 1 } : 7;
    const problems = problemsOfSpec(specWith(field.path, wrong)).filter((p) => p.path === ['spec', ...field.path].join('.'));
    expect(problems).toHaveLength(1);
    const message = problems[0]?.message ?? '';
    if (field.kind === 'array') expect(message).toMatch(/^must be a list, not a mapping: put it in a list, one item each: `[A-Za-z0-9]+: \[.+\]`$/);
    else {
      const mapping = /^must be a mapping, not an integer: write `[A-Za-z0-9]+: \{.+\}`$/;
      const reference = /^must be a (Secret|ConfigMap) key `\{name: <\w+>, key: <key>\}`, not an integer/;
      expect(mapping.test(message) || reference.test(message), message).toBe(true);
    }
  });
});
