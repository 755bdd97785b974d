// The OGXServer CRD's CEL rules and the operator's admission webhook checks (src/ogx/rules.ts), one
// test each, with upstream's expectations (its own tests' messages); the near-miss check; the
// configgen cases (test/fixtures/ogx-configgen/) parse.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { KrmObject } from '../../src/krm/item.js';
import { ogxNearMiss, parseOgxServer } from '../../src/ogx/ogxserver.js';
import { ogxProviderIds } from '../../src/ogx/rules.js';

const casesDir = join(import.meta.dirname, '..', 'fixtures', 'ogx-configgen');
const known = ['starter', 'postgres-demo'];

const server = (spec: string, metadata = 'name: s\nnamespace: ns'): KrmObject =>
  parse(`apiVersion: ogx.io/v1beta1\nkind: OGXServer\nmetadata:\n${indent(metadata)}\nspec:\n${indent(spec)}\n`) as KrmObject;
const indent = (text: string) => text.split('\n').map((line) => `  ${line}`).join('\n');
const problemsOf = (spec: string, metadata?: string) =>
  parseOgxServer(server(spec, metadata), { distributions: known }).problems.map((p) => ({ path: p.path.join('.'), message: p.message }));
/** The one problem of `spec`: its path, and its message starts with upstream's text. */
const expectOne = (spec: string, path: string, message: string, metadata?: string) => {
  const problems = problemsOf(spec, metadata);
  expect(problems.map((p) => p.path)).toEqual([path]);
  expect(problems[0]?.message.startsWith(message), problems[0]?.message).toBe(true);
};
const vllm = 'providers: {inference: {remote: {vllm: [{endpoint: "http://v:8000"}]}}}';
const dist = 'distribution: {name: starter}';

describe('defaults, as the API server applies them', () => {
  it('apply only where the parent is present', () => {
    const parsed = parseOgxServer(server(`${dist}\nnetwork: {}\nworkload: {storage: {}}\nstorage: {kv: {}, sql: {}}\nmonitoring: {}`), {
      distributions: known,
    });
    expect(parsed.ok && parsed.server.spec).toEqual({
      distribution: { name: 'starter' },
      network: { port: 8321 },
      workload: { replicas: 1, storage: { mountPath: '/.ogx' } },
      storage: { kv: { type: 'sqlite' }, sql: { type: 'sqlite' } },
      monitoring: { enabled: true },
    });
    const bare = parseOgxServer(server(dist), { distributions: known });
    expect(bare.ok && bare.server.spec).toEqual({ distribution: { name: 'starter' } });
  });

  it('status is ignored and metadata keeps name, namespace, labels and annotations', () => {
    const object = { ...server(dist, 'name: s\nnamespace: ns\nlabels: {a: b}\nuid: x'), status: { phase: 'Ready' } };
    const parsed = parseOgxServer(object, { distributions: known });
    expect(parsed.ok && parsed.server).toEqual({
      apiVersion: 'ogx.io/v1beta1',
      kind: 'OGXServer',
      metadata: { name: 's', namespace: 'ns', labels: { a: 'b' } },
      spec: { distribution: { name: 'starter' } },
    });
  });

  it('an unknown field is refused with a suggestion', () => {
    expect(problemsOf(`${dist}\nnetwork: {prot: 9000}`)).toEqual([{ path: 'spec.network.prot', message: 'is not a known field; did you mean `port`?' }]);
  });

  it('an empty secretRefs or headers map is refused (minProperties 1)', () => {
    expectOne(
      `${dist}\nproviders: {inference: {remote: {custom: [{type: "remote::x", secretRefs: {}}]}}}`,
      'spec.providers.inference.remote.custom.0.secretRefs',
      'must have at least one entry',
    );
  });
});

describe('CEL rules', () => {
  it.each(['providers', 'resources', 'storage', 'disabledAPIs', 'baseConfig'])('overrideConfig excludes %s', (field) => {
    const value = {
      providers: vllm.slice('providers: '.length),
      resources: '{models: [{name: m}]}',
      storage: '{}',
      disabledAPIs: '[batches]',
      baseConfig: '{name: b, key: k}',
    }[field];
    expectOne(
      `${dist}\noverrideConfig: {name: c, key: config.yaml}\n${field}: ${value}`,
      `spec.${field}`,
      `overrideConfig and ${field} are mutually exclusive`,
    );
  });

  it('overrideConfig may be combined with network, tls, workload, monitoring and registryRefreshIntervalSeconds', () => {
    expect(
      problemsOf(
        `${dist}\noverrideConfig: {name: c, key: config.yaml}\nnetwork: {}\ntls: {trust: {caCertificates: [{name: ca, key: ca.crt}]}}\nworkload: ` +
          `{}\nmonitoring: {}\nregistryRefreshIntervalSeconds: 5`,
      ),
    ).toEqual([]);
  });

  it.each([
    ['inference', 'inference', '{remote: {vllm: [{endpoint: "http://v"}]}}'],
    ['vector_io', 'vectorIo', '{remote: {milvus: [{uri: "http://m"}]}}'],
    ['tool_runtime', 'toolRuntime', '{remote: {modelContextProtocol: [{}]}}'],
    ['files', 'files', '{inline: {localfs: {}}}'],
    ['batches', 'batches', '{inline: {reference: {}}}'],
    ['responses', 'responses', '{inline: {builtin: {}}}'],
    ['file_processors', 'fileProcessors', '{inline: {auto: {}}}'],
  ])('%s cannot be both in providers and disabledAPIs', (api, field, value) => {
    expectOne(
      `${dist}\ndisabledAPIs: [${api}]\nproviders: {${field}: ${value}}`,
      `spec.providers.${field}`,
      `${api} cannot be both in providers and disabledAPIs`,
    );
  });

  it('batches disabled with an inference provider is fine (as upstream tests expect)', () => {
    expect(problemsOf(`${dist}\ndisabledAPIs: [batches]\n${vllm}`)).toEqual([]);
  });

  it('distribution: one of name or image, not both', () => {
    expectOne('distribution: {}', 'spec.distribution', 'one of name or image must be specified');
    expectOne('distribution: {name: starter, image: "quay.io/x:1"}', 'spec.distribution', 'only one of name or image can be specified');
  });

  it.each(['remote:x', 'Remote::x', '::x', 'llama-guard'])('custom type %s must have a remote:: or inline:: prefix', (type) => {
    expectOne(
      `${dist}\nproviders: {safety: null, inference: {inline: {custom: [{type: "${type}"}]}}}`.replace('safety: null, ', ''),
      'spec.providers.inference.inline.custom.0.type',
      "type must have a 'remote::' or 'inline::' prefix (e.g., 'remote::llama-guard', 'inline::my-provider')",
    );
  });

  it('the custom prefix is not checked against remote vs inline placement', () => {
    expect(problemsOf(`${dist}\nproviders: {inference: {inline: {custom: [{type: "remote::x"}]}}}`)).toEqual([]);
  });

  it.each([
    [
      'providers: {inference: {remote: {openai: [{apiKey: {name: s, key: k}, endpoint: ""}]}}}',
      'spec.providers.inference.remote.openai.0.endpoint',
      'endpoint',
    ],
    [
      'providers: {inference: {remote: {azure: [{apiKey: {name: s, key: k}, endpoint: e, apiVersion: ""}]}}}',
      'spec.providers.inference.remote.azure.0.apiVersion',
      'apiVersion',
    ],
    [
      'providers: {inference: {remote: {azure: [{apiKey: {name: s, key: k}, endpoint: e, apiType: ""}]}}}',
      'spec.providers.inference.remote.azure.0.apiType',
      'apiType',
    ],
    ['providers: {inference: {remote: {bedrock: [{region: r, awsRoleArn: ""}]}}}', 'spec.providers.inference.remote.bedrock.0.awsRoleArn', 'awsRoleArn'],
    [
      'providers: {inference: {remote: {bedrock: [{region: r, awsWebIdentityTokenFile: ""}]}}}',
      'spec.providers.inference.remote.bedrock.0.awsWebIdentityTokenFile',
      'awsWebIdentityTokenFile',
    ],
    [
      'providers: {inference: {remote: {bedrock: [{region: r, awsRoleSessionName: ""}]}}}',
      'spec.providers.inference.remote.bedrock.0.awsRoleSessionName',
      'awsRoleSessionName',
    ],
    ['providers: {inference: {remote: {bedrock: [{region: r, profileName: ""}]}}}', 'spec.providers.inference.remote.bedrock.0.profileName', 'profileName'],
    ['providers: {inference: {remote: {bedrock: [{region: r, retryMode: ""}]}}}', 'spec.providers.inference.remote.bedrock.0.retryMode', 'retryMode'],
    ['providers: {inference: {remote: {vertexai: [{project: p, location: ""}]}}}', 'spec.providers.inference.remote.vertexai.0.location', 'location'],
    [
      'providers: {inference: {remote: {watsonx: [{apiKey: {name: s, key: k}, endpoint: ""}]}}}',
      'spec.providers.inference.remote.watsonx.0.endpoint',
      'endpoint',
    ],
    [
      'providers: {inference: {remote: {watsonx: [{apiKey: {name: s, key: k}, projectId: ""}]}}}',
      'spec.providers.inference.remote.watsonx.0.projectId',
      'projectId',
    ],
    [
      'providers: {inference: {remote: {vllm: [{endpoint: e, network: {proxy: {url: ""}}}]}}}',
      'spec.providers.inference.remote.vllm.0.network.proxy.url',
      'url',
    ],
    [
      'providers: {inference: {remote: {openai: [{apiKey: {name: s, key: k}, network: {proxy: {cacert: ""}}}]}}}',
      'spec.providers.inference.remote.openai.0.network.proxy.cacert',
      'cacert',
    ],
    ['providers: {vectorIo: {remote: {pgvector: [{password: {name: s, key: k}, host: ""}]}}}', 'spec.providers.vectorIo.remote.pgvector.0.host', 'host'],
    ['providers: {vectorIo: {remote: {pgvector: [{password: {name: s, key: k}, db: ""}]}}}', 'spec.providers.vectorIo.remote.pgvector.0.db', 'db'],
    ['providers: {vectorIo: {remote: {pgvector: [{password: {name: s, key: k}, user: ""}]}}}', 'spec.providers.vectorIo.remote.pgvector.0.user', 'user'],
    [
      'providers: {vectorIo: {remote: {milvus: [{uri: u, consistencyLevel: ""}]}}}',
      'spec.providers.vectorIo.remote.milvus.0.consistencyLevel',
      'consistencyLevel',
    ],
    ['providers: {vectorIo: {remote: {qdrant: [{host: h, prefix: ""}]}}}', 'spec.providers.vectorIo.remote.qdrant.0.prefix', 'prefix'],
    ['providers: {vectorIo: {remote: {qdrant: [{host: h, location: ""}]}}}', 'spec.providers.vectorIo.remote.qdrant.0.location', 'location'],
    ['providers: {vectorIo: {remote: {qdrant: [{host: h, url: ""}]}}}', 'spec.providers.vectorIo.remote.qdrant.0.url', 'url'],
    [
      'providers: {toolRuntime: {inline: {fileSearch: [{vectorStoresConfig: {defaultProviderId: ""}}]}}}',
      'spec.providers.toolRuntime.inline.fileSearch.0.vectorStoresConfig.defaultProviderId',
      'defaultProviderId',
    ],
    [
      'providers: {responses: {inline: {builtin: {vectorStoresConfig: {defaultProviderId: ""}}}}}',
      'spec.providers.responses.inline.builtin.vectorStoresConfig.defaultProviderId',
      'defaultProviderId',
    ],
    [
      'providers: {responses: {inline: {builtin: {compactionConfig: {summaryPrefix: ""}}}}}',
      'spec.providers.responses.inline.builtin.compactionConfig.summaryPrefix',
      'summaryPrefix',
    ],
    ['providers: {files: {remote: {s3: {bucketName: b, region: ""}}}}', 'spec.providers.files.remote.s3.region', 'region'],
    ['providers: {files: {remote: {s3: {bucketName: b, endpointUrl: ""}}}}', 'spec.providers.files.remote.s3.endpointUrl', 'endpointUrl'],
    ['providers: {batches: {remote: {custom: [{type: "remote::b", id: ""}]}}}', 'spec.providers.batches.remote.custom.0.id', 'id'],
    ['providers: {inference: {remote: {vllm: [{endpoint: e, id: ""}]}}}', 'spec.providers.inference.remote.vllm.0.id', 'id'],
    ['resources: {models: [{name: m, modelType: ""}]}', 'spec.resources.models.0.modelType', 'modelType'],
    ['resources: {models: [{name: m, quantization: ""}]}', 'spec.resources.models.0.quantization', 'quantization'],
    ['network: {externalAccess: {hostname: ""}}', 'spec.network.externalAccess.hostname', 'hostname'],
    ['workload: {storage: {mountPath: ""}}', 'spec.workload.storage.mountPath', 'mountPath'],
    ['workload: {overrides: {serviceAccountName: ""}}', 'spec.workload.overrides.serviceAccountName', 'serviceAccountName'],
  ])('%s: must not be empty if specified', (spec, path, field) => {
    expectOne(`${dist}\n${spec}`, path, `${field} must not be empty if specified`);
  });

  it('model provider "" is refused as empty, not as an unknown reference', () => {
    expectOne(
      `${dist}\n${vllm}\nresources: {models: [{name: m, provider: ""}]}`,
      'spec.resources.models.0.provider',
      'provider must not be empty if specified',
    );
  });

  // OPERATOR-MAIN-2026-09.md §2.3 (PR #330): the operator's main requires both, with these messages.
  it('externalAccess enabled needs hostname and tls, each at its field with what to write', () => {
    const access = (fields: string) => `${dist}\nnetwork: {externalAccess: {${fields}}}`;
    expectOne(access('enabled: true, tls: {secretName: t}'), 'spec.network.externalAccess.hostname', 'hostname is required when external access is enabled');
    expectOne(access('enabled: true, hostname: h.example.com'), 'spec.network.externalAccess.tls', 'tls is required when external access is enabled');
    expect(problemsOf(access('enabled: true')).map((p) => p.path)).toEqual(['spec.network.externalAccess.hostname', 'spec.network.externalAccess.tls']);
    expect(problemsOf(access('enabled: true')).map((p) => p.message)).toEqual([
      expect.stringContaining('for example `hostname: ogx.example.com`'),
      expect.stringContaining('for example `tls: {secretName: ogx-tls}`'),
    ]);
    expect(problemsOf(access('enabled: true, hostname: h.example.com, tls: {secretName: t}'))).toEqual([]);
    // Disabled (or `enabled` left to its default false), neither is needed.
    expect(problemsOf(access('hostname: h.example.com'))).toEqual([]);
    expect(problemsOf(access('enabled: false'))).toEqual([]);
    expectOne(access('enabled: true, hostname: h, tls: {}'), 'spec.network.externalAccess.tls.secretName', 'is required');
  });

  it('disabledAPIs takes conversations (the operator\'s main), at most 8 entries', () => {
    expect(problemsOf(`${dist}\ndisabledAPIs: [conversations]`)).toEqual([]);
    const all = 'batches, file_processors, inference, responses, tool_runtime, vector_io, files, conversations';
    expect(problemsOf(`${dist}\ndisabledAPIs: [${all}]`)).toEqual([]);
    expectOne(`${dist}\ndisabledAPIs: [${all}, files]`, 'spec.disabledAPIs', 'must list at most 8 items');
  });

  it('vectorIndex needs exactly one of hnsw and ivfFlat', () => {
    const pg = (index: string) => `${dist}\nproviders: {vectorIo: {remote: {pgvector: [{password: {name: s, key: k}, vectorIndex: ${index}}]}}}`;
    expectOne(pg('{}'), 'spec.providers.vectorIo.remote.pgvector.0.vectorIndex', 'one of hnsw or ivfFlat must be specified');
    expectOne(
      pg('{hnsw: {m: 16}, ivfFlat: {nlist: 4}}'),
      'spec.providers.vectorIo.remote.pgvector.0.vectorIndex',
      'only one of hnsw or ivfFlat can be specified',
    );
    expect(problemsOf(pg('{ivfFlat: {}}'))).toEqual([]);
  });

  it('qdrant needs url or host', () => {
    expectOne(
      `${dist}\nproviders: {vectorIo: {remote: {qdrant: [{port: 6333}]}}}`,
      'spec.providers.vectorIo.remote.qdrant.0',
      'at least one of url or host must be specified',
    );
  });

  it('kv: endpoint and password only with redis, endpoint required with redis', () => {
    expectOne(`${dist}\nstorage: {kv: {type: redis}}`, 'spec.storage.kv.endpoint', 'endpoint is required when type is redis');
    expectOne(`${dist}\nstorage: {kv: {endpoint: "redis://r"}}`, 'spec.storage.kv.endpoint', 'endpoint is only valid when type is redis');
    expectOne(`${dist}\nstorage: {kv: {password: {name: s, key: k}}}`, 'spec.storage.kv.password', 'password is only valid when type is redis');
    expect(problemsOf(`${dist}\nstorage: {kv: {type: redis, endpoint: "redis://r", password: {name: s, key: k}}}`)).toEqual([]);
  });

  it('sql: connectionString only and always with postgres', () => {
    expectOne(`${dist}\nstorage: {sql: {type: postgres}}`, 'spec.storage.sql.connectionString', 'connectionString is required when type is postgres');
    expectOne(
      `${dist}\nstorage: {sql: {connectionString: {name: s, key: k}}}`,
      'spec.storage.sql.connectionString',
      'connectionString is only valid when type is postgres',
    );
  });

  it('autoscaling: maxReplicas >= minReplicas', () => {
    expectOne(
      `${dist}\nworkload: {autoscaling: {minReplicas: 3, maxReplicas: 2}}`,
      'spec.workload.autoscaling.maxReplicas',
      'maxReplicas must be greater than or equal to minReplicas',
    );
    expect(problemsOf(`${dist}\nworkload: {autoscaling: {minReplicas: 2, maxReplicas: 2}}`)).toEqual([]);
  });

  it('podDisruptionBudget: exactly one of minAvailable and maxUnavailable', () => {
    expectOne(
      `${dist}\nworkload: {podDisruptionBudget: {}}`,
      'spec.workload.podDisruptionBudget',
      'at least one of minAvailable or maxUnavailable must be specified',
    );
    expectOne(
      `${dist}\nworkload: {podDisruptionBudget: {minAvailable: 1, maxUnavailable: "50%"}}`,
      'spec.workload.podDisruptionBudget',
      'minAvailable and maxUnavailable are mutually exclusive',
    );
  });

  it.each(['0', '"0"', '"-1Gi"', '"0.0Mi"'])('storage.size %s is not a positive quantity', (size) => {
    expectOne(`${dist}\nworkload: {storage: {size: ${size}}}`, 'spec.workload.storage.size', 'size must be a positive quantity');
  });

  it('storage.size 10Gi and 0.5Gi are positive', () => {
    expect(problemsOf(`${dist}\nworkload: {storage: {size: 10Gi}}`)).toEqual([]);
    expect(problemsOf(`${dist}\nworkload: {storage: {size: 0.5Gi}}`)).toEqual([]);
  });

  it('registryRefreshIntervalSeconds 0 is refused (minimum 1)', () => {
    expect(problemsOf(`${dist}\nregistryRefreshIntervalSeconds: 0`)).toEqual([{ path: 'spec.registryRefreshIntervalSeconds', message: 'must be at least 1' }]);
  });
});

describe('admission webhook', () => {
  it('an unknown distribution name lists the available ones', () => {
    expectOne(
      'distribution: {name: starterr}',
      'spec.distribution.name',
      'unknown distribution "starterr" (did you mean "starter"?); available distributions: postgres-demo, starter',
    );
  });

  // New-user probe: the list named remote-vllm and meta-reference-gpu, which have no OGX release.
  it('the distribution names default to those of llsd-render\'s catalog with an OGX release, with the nearest one suggested', () => {
    const parsed = parseOgxServer(server('distribution: {name: startr}'));
    expect(parsed.problems.map((p) => p.path.join('.'))).toEqual(['spec.distribution.name']);
    expect(parsed.problems[0]?.message).toBe(
      'unknown distribution "startr" (did you mean "starter"?); available distributions: postgres-demo, rh, starter; or set `image` instead of `name`',
    );
  });

  it('a model naming a provider a typo away gets the nearest id suggested', () => {
    expect(problemsOf(`${dist}\n${vllm}\nresources: {models: [{name: m, provider: remote-vlm}]}`)[0]?.message).toContain(
      'available: [remote-vllm]. Did you mean "remote-vllm"?',
    );
  });

  it('an empty list of known distributions skips the check (as upstream tests expect)', () => {
    expect(parseOgxServer(server('distribution: {name: anything}'), { distributions: [] }).problems).toEqual([]);
  });

  it('two vllm entries without ids collide on remote-vllm', () => {
    expectOne(
      `${dist}\nproviders: {inference: {remote: {vllm: [{endpoint: a}, {endpoint: b}]}}}`,
      'spec.providers.inference.remote.vllm.1',
      'duplicate provider ID "remote-vllm"',
    );
  });

  it('the same explicit id across two APIs is reported at the later one', () => {
    expectOne(
      `${dist}\nproviders: {inference: {remote: {vllm: [{endpoint: a, id: x}]}}, vectorIo: {remote: {milvus: [{uri: u, id: x}]}}}`,
      'spec.providers.vectorIo.remote.milvus.0.id',
      'duplicate provider ID "x"',
    );
  });

  it('explicit distinct ids, singletons, and inline with remote pass (as upstream tests expect)', () => {
    const spec =
      `${dist}\nproviders: {inference: {remote: {vllm: [{endpoint: a, id: a}, {endpoint: b, id: b}]}, inline: {custom: [{type: "inline::x"}]}}, ` +
      `files: {remote: {s3: {bucketName: b}}, inline: {localfs: {}}}}`;
    expect(problemsOf(spec)).toEqual([]);
  });

  it('two separate collisions give two problems', () => {
    const spec =
      `${dist}\nproviders: {inference: {remote: {vllm: [{endpoint: a}, {endpoint: b}], ` +
      `openai: [{apiKey: {name: s, key: k}}, {apiKey: {name: s, key: k}}]}}}`;
    expect(problemsOf(spec).map((p) => /^duplicate provider ID "[^"]*"/.exec(p.message)?.[0])).toEqual([
      'duplicate provider ID "remote-vllm"',
      'duplicate provider ID "remote-openai"',
    ]);
  });

  it('a model referencing an unknown provider lists the provider ids', () => {
    expect(problemsOf(`${dist}\n${vllm}\nresources: {models: [{name: m, provider: nope}, {name: n}]}`)).toEqual([
      {
        path: 'spec.resources.models.0.provider',
        message: "references unknown provider ID; available: [remote-vllm] (a provider without `id` has its type's default id, such as `remote-vllm`)",
      },
    ]);
  });

  it('a model provider is not checked without spec.providers (base-config ids count then)', () => {
    expect(problemsOf(`${dist}\nresources: {models: [{name: m, provider: vllm}]}`)).toEqual([]);
  });

  it('an adoption annotation equal to the CR name is refused, one problem per annotation', () => {
    const problems = problemsOf(dist, 'name: s\nannotations: {ogx.io/adopt-storage: s, ogx.io/adopt-networking: s}');
    expect(problems.map((p) => p.path)).toEqual(['metadata.annotations.ogx.io/adopt-storage', 'metadata.annotations.ogx.io/adopt-networking']);
    expect(
      problems.every((p) => p.message.startsWith('adoption annotation value must not equal the CR name; same-name adoption causes resource conflicts')),
    ).toBe(true);
    expect(problemsOf(dist, 'name: s\nannotations: {ogx.io/adopt-storage: old-llsd}')).toEqual([]);
  });

  it('the name is at most 46 characters', () => {
    expect(problemsOf(dist, `name: ${'a'.repeat(46)}`)).toEqual([]);
    expectOne(dist, 'metadata.name', 'must be at most 46 characters, not 47', `name: ${'a'.repeat(47)}`);
  });

  it('a name with a dot is refused', () => {
    expect(problemsOf(dist, 'name: a.b').map((p) => p.path)).toEqual(['metadata.name']);
  });

  it('problems of several checks are collected together (as upstream tests expect)', () => {
    const spec =
      'distribution: {name: nope}\nproviders: {inference: {remote: {vllm: [{endpoint: a}, {endpoint: b}]}}}\nresources: {models: [{name: m, provider: x}]}';
    expect(problemsOf(spec).map((p) => p.path)).toEqual([
      'spec.distribution.name',
      'spec.providers.inference.remote.vllm.1',
      'spec.resources.models.0.provider',
    ]);
  });
});

describe('ogxProviderIds', () => {
  it('derives default, fixed and custom ids in upstream order (upstream TestDeriveID, TestProvidersSpecIDs)', () => {
    const spec = parse(`providers:
  fileProcessors: {inline: {docling: {}, auto: {}, custom: [{type: "inline::fp"}]}, remote: {doclingServe: {baseUrl: u}}}
  toolRuntime: {inline: {fileSearch: [{}]}, remote: {custom: [{type: "remote::t"}], braveSearch: [{apiKey: {name: s, key: k}}]}}
  inference:
    inline: {custom: [{type: "inline::a::b"}]}
    remote: {custom: [{type: "remote::llama-guard"}], openai: [{id: mine, apiKey: {name: s, key: k}}], vllm: [{endpoint: e}]}
  files: {inline: {localfs: {}}, remote: {s3: {bucketName: b}}}
  batches: {inline: {reference: {}}}
  responses: {inline: {builtin: {}}}
  vectorIo: {remote: {qdrant: [{host: h}], pgvector: [{password: {name: s, key: k}}]}}`);
    expect(ogxProviderIds(spec).map((p) => `${p.api} ${p.id} ${p.providerType} ${p.path.join('.')}`)).toEqual([
      'inference remote-vllm remote::vllm spec.providers.inference.remote.vllm.0',
      'inference mine remote::openai spec.providers.inference.remote.openai.0',
      'inference remote-llama-guard remote::llama-guard spec.providers.inference.remote.custom.0',
      'inference inline-a-b inline::a::b spec.providers.inference.inline.custom.0',
      'vector_io remote-pgvector remote::pgvector spec.providers.vectorIo.remote.pgvector.0',
      'vector_io remote-qdrant remote::qdrant spec.providers.vectorIo.remote.qdrant.0',
      'tool_runtime remote-brave-search remote::brave-search spec.providers.toolRuntime.remote.braveSearch.0',
      'tool_runtime remote-t remote::t spec.providers.toolRuntime.remote.custom.0',
      'tool_runtime inline-file-search inline::rag-runtime spec.providers.toolRuntime.inline.fileSearch.0',
      'files remote-s3 remote::s3 spec.providers.files.remote.s3',
      'files inline-localfs inline::localfs spec.providers.files.inline.localfs',
      'batches inline-reference inline::batch-reference spec.providers.batches.inline.reference',
      'responses inline-builtin inline::responses spec.providers.responses.inline.builtin',
      'file_processors remote-docling-serve remote::docling-serve spec.providers.fileProcessors.remote.doclingServe',
      'file_processors inline-auto inline::auto spec.providers.fileProcessors.inline.auto',
      'file_processors inline-docling inline::docling spec.providers.fileProcessors.inline.docling',
      'file_processors inline-fp inline::fp spec.providers.fileProcessors.inline.custom.0',
    ]);
  });
});

describe('ogxNearMiss', () => {
  it.each(['OgxServer', 'OGXserver', 'OgxServers', 'ogxserver'])('kind %s names OGXServer', (kind) => {
    expect(ogxNearMiss({ apiVersion: 'ogx.io/v1beta1', kind })).toEqual({
      path: ['kind'],
      message: `must be \`OGXServer\` (apiVersion \`ogx.io/v1beta1\`) for llsd-render to render it, not "${kind}"; as a misspelt OGXServer it would render ` +
        `nothing`,
    });
  });

  it('another group names ogx.io/v1beta1', () => {
    expect(ogxNearMiss({ apiVersion: 'ogx.ai/v1beta1', kind: 'OGXServer' })).toEqual({
      path: ['apiVersion'],
      message: 'must be `ogx.io/v1beta1` for llsd-render to render this OGXServer: the group "ogx.ai" is not ogx.io, and the OGXServer would render nothing',
    });
  });

  it('an unsupported version of ogx.io names v1beta1', () => {
    expect(ogxNearMiss({ apiVersion: 'ogx.io/v1alpha1', kind: 'OGXServer' })).toEqual({
      path: ['apiVersion'],
      message:
        'is not a version llsd-render reads: "v1alpha1"; write `ogx.io/v1beta1`, the one version of OGXServer it renders (the operator serves only v1beta1)',
    });
  });

  it('another kind in ogx.io is an OGXServer written wrong', () => {
    expect(ogxNearMiss({ apiVersion: 'ogx.io/v1beta1', kind: 'Server' })?.path).toEqual(['kind']);
  });

  it('an OGXServer, or an unrelated object, is no near miss', () => {
    expect(ogxNearMiss({ apiVersion: 'ogx.io/v1beta1', kind: 'OGXServer' })).toBeUndefined();
    expect(ogxNearMiss({ apiVersion: 'v1', kind: 'ConfigMap' })).toBeUndefined();
    expect(ogxNearMiss({ apiVersion: 'llamastack.io/v1alpha2', kind: 'LlamaStackDistribution' })).toBeUndefined();
  });
});

describe('upstream configgen cases', () => {
  // Upstream validates cr.yaml against its distributions.json (names rh, starter, test) when it validates at all.
  const names = Object.keys(JSON.parse(readFileSync(`${casesDir}/distributions.json`, 'utf8')) as Record<string, string>);
  const cases = readdirSync(casesDir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);

  it('are all present', () => {
    expect(cases.length).toBe(13);
  });

  it.each(cases)('%s/cr.yaml parses', (name) => {
    const parsed = parseOgxServer(parse(readFileSync(`${casesDir}/${name}/cr.yaml`, 'utf8')) as KrmObject, { distributions: names });
    expect(parsed.problems).toEqual([]);
    expect(parsed.ok).toBe(true);
  });
});
