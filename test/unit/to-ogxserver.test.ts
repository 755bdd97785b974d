// LLSD → OGXServer (`convert --to ogx.io/v1beta1`, issue 17 "Migration"): one test per row of the
// field-by-field mapping of upstream's migration guide (docs/ogxserver.md "Migrating to OGXServer"), with the field path, the value and the warning,
// then the v1alpha2-only fields (providers, models, storage, disabled). Every converted object must
// parse with parseOgxServer, which `converted()` asserts.
import { describe, expect, it } from 'vitest';
import { parseOgxServer } from '../../src/ogx/ogxserver.js';
import { adoptNetworkingAnnotation, adoptStorageAnnotation, toOgxServer } from '../../src/convert/to-ogxserver.js';
import { parseFieldPath, toCheckedOgxServer } from '../../src/convert/build-check.js';
import { formatFieldPath } from '../../src/krm/item.js';
import type { KrmObject } from '../../src/krm/item.js';
import { parse } from 'yaml';
import { process as render } from '../../src/process.js';

type Plain = Record<string, unknown>;

const v1 = (spec: Plain, metadata: Plain = { name: 'demo', namespace: 'ai' }): KrmObject =>
  ({ apiVersion: 'llamastack.io/v1alpha1', kind: 'LlamaStackDistribution', metadata, spec }) as unknown as KrmObject;
const v2 = (spec: Plain, metadata: Plain = { name: 'demo', namespace: 'ai' }): KrmObject =>
  ({
    apiVersion: 'llamastack.io/v1alpha2',
    kind: 'LlamaStackDistribution',
    metadata,
    spec: { distribution: { name: 'starter' }, ...spec },
  }) as unknown as KrmObject;
/** A v1alpha1 spec with `server` fields besides the distribution. */
const server = (fields: Plain, rest: Plain = {}): KrmObject => v1({ server: { distribution: { name: 'starter' }, ...fields }, ...rest });

/** The conversion, asserted to have no error and to parse as an OGXServer. */
function converted(object: KrmObject): { spec: Plain; metadata: Plain; warnings: Array<{ path: string; message: string }> } {
  const result = toOgxServer(object);
  expect(result.problems.filter((p) => (p.severity ?? 'error') === 'error')).toEqual([]);
  expect(result.object.apiVersion).toBe('ogx.io/v1beta1');
  expect(result.object.kind).toBe('OGXServer');
  const parsed = parseOgxServer(result.object as unknown as KrmObject);
  expect(parsed.ok ? [] : parsed.problems).toEqual([]);
  const warnings = result.problems.filter((p) => p.severity === 'warning').map((p) => ({ path: p.path.join('.'), message: p.message }));
  return { spec: result.object.spec as Plain, metadata: result.object.metadata as Plain, warnings };
}

const warningAt = (warnings: Array<{ path: string; message: string }>, path: string): string | undefined => warnings.find((w) => w.path === path)?.message;

describe('the migration guide\'s field mapping, v1alpha1 → OGXServer, row by row', () => {
  it('spec.replicas → spec.workload.replicas', () => {
    expect(converted(v1({ replicas: 3, server: { distribution: { name: 'starter' } } })).spec.workload).toEqual({ replicas: 3 });
  });

  it('spec.server.distribution.name / .image → spec.distribution.name / .image', () => {
    expect(converted(server({})).spec.distribution).toEqual({ name: 'starter' });
    expect(converted(v1({ server: { distribution: { image: 'quay.io/me/ogx:1.3.0' } } })).spec.distribution).toEqual({ image: 'quay.io/me/ogx:1.3.0' });
  });

  it('spec.server.containerSpec.name has no equivalent: a warning naming it and the value', () => {
    const { spec, warnings } = converted(server({ containerSpec: { name: 'server' } }));
    expect(JSON.stringify(spec)).not.toContain('"server"');
    expect(warningAt(warnings, 'spec.server.containerSpec.name')).toBe(
      'is dropped: the OGXServer\'s container is always named `ogx`, not "server"; update anything that names the container (`kubectl logs -c`, patches)',
    );
  });

  it('spec.server.containerSpec.port → spec.network.port', () => {
    expect(converted(server({ containerSpec: { port: 8080 } })).spec.network).toEqual({ port: 8080, policy: { enabled: false } });
  });

  it('spec.server.containerSpec.resources → spec.workload.resources', () => {
    const resources = { requests: { cpu: '2', memory: '4Gi' }, limits: { memory: '8Gi' } };
    expect((converted(server({ containerSpec: { resources } })).spec.workload as Plain).resources).toEqual(resources);
  });

  it('spec.server.containerSpec.env / .command / .args → spec.workload.overrides.env / .command / .args', () => {
    const env = [{ name: 'A', value: '1' }];
    const { spec } = converted(server({ containerSpec: { env, command: ['ogx'], args: ['--port', '8321'] } }));
    expect((spec.workload as Plain).overrides).toEqual({ env, command: ['ogx'], args: ['--port', '8321'] });
  });

  it('spec.server.workers → spec.workload.workers', () => {
    expect(converted(server({ workers: 4 })).spec.workload).toEqual({ workers: 4 });
  });

  it('spec.server.podOverrides.serviceAccountName / .volumes / .volumeMounts → spec.workload.overrides', () => {
    const volumes = [{ name: 'models', persistentVolumeClaim: { claimName: 'models' } }];
    const volumeMounts = [{ name: 'models', mountPath: '/models' }];
    const { spec } = converted(server({ podOverrides: { serviceAccountName: 'runner', volumes, volumeMounts } }));
    expect((spec.workload as Plain).overrides).toEqual({ serviceAccountName: 'runner', volumes, volumeMounts });
  });

  it('spec.server.podOverrides.terminationGracePeriodSeconds has no equivalent: a warning', () => {
    const { spec, warnings } = converted(server({ podOverrides: { terminationGracePeriodSeconds: 90 } }));
    expect(spec.workload).toBeUndefined();
    expect(warningAt(warnings, 'spec.server.podOverrides.terminationGracePeriodSeconds')).toBe(
      'is dropped: an OGXServer has no termination grace period, so the pod gets the Kubernetes default (30 s); patch the rendered Deployment (e.g. with ' +
        'kustomize) to keep it',
    );
  });

  it('spec.server.podDisruptionBudget / topologySpreadConstraints → spec.workload', () => {
    const tsc = [{ maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'ScheduleAnyway' }];
    const { spec } = converted(server({ podDisruptionBudget: { minAvailable: 1 }, topologySpreadConstraints: tsc }));
    expect(spec.workload).toEqual({ podDisruptionBudget: { minAvailable: 1 }, topologySpreadConstraints: tsc });
  });

  it('spec.server.autoscaling → spec.workload.autoscaling, the …Percentage names kept', () => {
    const { spec } = converted(
      server({ autoscaling: { minReplicas: 2, maxReplicas: 5, targetCPUUtilizationPercentage: 70, targetMemoryUtilizationPercentage: 60 } }),
    );
    expect((spec.workload as Plain).autoscaling).toEqual({
      minReplicas: 2,
      maxReplicas: 5,
      targetCPUUtilizationPercentage: 70,
      targetMemoryUtilizationPercentage: 60,
    });
  });

  it('spec.server.storage → spec.workload.storage, and the PVC is adopted (ogx.io/adopt-storage names the LLSD)', () => {
    const { spec, metadata } = converted(server({ storage: { size: '20Gi', mountPath: '/data' } }));
    expect((spec.workload as Plain).storage).toEqual({ size: '20Gi', mountPath: '/data' });
    expect(metadata).toEqual({ name: 'demo-ogx', namespace: 'ai', annotations: { [adoptStorageAnnotation]: 'demo', [adoptNetworkingAnnotation]: 'demo' } });
  });

  it('without storage only the Service is adopted, and the OGXServer gets another name (same-name adoption is refused)', () => {
    expect(converted(server({})).metadata).toEqual({ name: 'demo-ogx', namespace: 'ai', annotations: { [adoptNetworkingAnnotation]: 'demo' } });
  });

  // Attacker probe: two long names that share 42 characters became one OGXServer name.
  it('a name too long for `-ogx` within 46 characters is cut and given 8 hex of its hash, with a warning naming the new name', () => {
    const name = (long: string): string =>
      converted(v1({ server: { distribution: { name: 'starter' } } }, { name: long, namespace: 'ai' })).metadata.name as string;
    const { metadata, warnings } = converted(v1({ server: { distribution: { name: 'starter' } } }, { name: `${'a'.repeat(44)}`, namespace: 'ai' }));
    expect(metadata.name).toMatch(new RegExp(`^${'a'.repeat(33)}-[0-9a-f]{8}-ogx$`));
    expect((metadata.name as string).length).toBe(46);
    expect(warningAt(warnings, 'metadata.name')).toBe(
      `is too long for an OGXServer name with \`-ogx\` (at most 46 characters): the OGXServer is named "${metadata.name as string}"`,
    );
    expect(name(`${'a'.repeat(50)}-one`)).not.toBe(name(`${'a'.repeat(50)}-two`));
  });

  it('spec.server.userConfig.configMapName → spec.overrideConfig {name, key: config.yaml}', () => {
    expect(converted(server({ userConfig: { configMapName: 'run-config' } })).spec.overrideConfig).toEqual({ name: 'run-config', key: 'config.yaml' });
  });

  it('spec.server.userConfig.configMapNamespace (another namespace) has no equivalent: a warning', () => {
    const { spec, warnings } = converted(server({ userConfig: { configMapName: 'run-config', configMapNamespace: 'shared' } }));
    expect(spec.overrideConfig).toEqual({ name: 'run-config', key: 'config.yaml' });
    expect(warningAt(warnings, 'spec.server.userConfig.configMapNamespace')).toBe(
      'is dropped: an OGXServer reads `spec.overrideConfig` from its own namespace only; copy the ConfigMap from "shared" there',
    );
  });

  it('spec.server.tlsConfig.caBundle → spec.tls.trust.caCertificates, one entry per key (default ca-bundle.crt)', () => {
    expect(converted(server({ tlsConfig: { caBundle: { configMapName: 'cas' } } })).spec.tls).toEqual({
      trust: { caCertificates: [{ name: 'cas', key: 'ca-bundle.crt' }] },
    });
    expect(converted(server({ tlsConfig: { caBundle: { configMapName: 'cas', configMapKeys: ['a.pem', 'b.pem'] } } })).spec.tls).toEqual({
      trust: { caCertificates: [{ name: 'cas', key: 'a.pem' }, { name: 'cas', key: 'b.pem' }] },
    });
  });

  it('spec.server.tlsConfig.caBundle.configMapNamespace of another namespace is an error, as for rendering', () => {
    const result = toOgxServer(server({ tlsConfig: { caBundle: { configMapName: 'cas', configMapNamespace: 'other' } } }));
    expect(result.problems.map((p) => [p.path.join('.'), p.severity ?? 'error'])).toEqual([['spec.server.tlsConfig.caBundle.configMapNamespace', 'error']]);
    expect(result.object.apiVersion).toBe('llamastack.io/v1alpha1');
  });

  // The operator's main requires `hostname` and `tls` with `externalAccess.enabled` (OPERATOR-MAIN-2026-09.md
  // §2.3); an LLSD has no Ingress certificate to carry over, so the conversion refuses and names both.
  it('spec.network.exposeRoute has no host name, which external access needs: refused, saying what to write in the LLSD', () => {
    const result = toOgxServer(v1({ server: { distribution: { name: 'starter' } }, network: { exposeRoute: true } }));
    expect(result.problems.filter((p) => (p.severity ?? 'error') === 'error').map((p) => p.message)).toEqual([
      expect.stringMatching(/^cannot be converted: it has no host name, .*write `networking.expose: \{hostname: <host>\}` \(a v1alpha1 LLSD/),
    ]);
  });

  it('a v1alpha2 `expose.hostname` → externalAccess at that host with a TLS Secret named after the LLSD, and a warning to create it', () => {
    const { spec, warnings } = converted(v2({ distribution: { name: 'starter' }, networking: { expose: { hostname: 'chat.example.com' } } }));
    expect((spec.network as Plain).externalAccess).toEqual({ enabled: true, hostname: 'chat.example.com', tls: { secretName: 'demo-tls' } });
    expect(warningAt(warnings, 'spec.networking.expose')).toMatch(
      /^becomes `spec.network.externalAccess` at "chat.example.com", with TLS from the Secret "demo-tls"/,
    );
  });

  it('spec.network.allowedFrom → spec.network.policy.ingress, with the own-namespace peer the defaults would have given (they are replaced)', () => {
    const { spec } = converted(v1({ server: { distribution: { name: 'starter' } }, network: { allowedFrom: { namespaces: ['web'], labels: ['team'] } } }));
    expect(spec.network).toEqual({
      policy: {
        ingress: [
          {
            from: [
              { podSelector: {} },
              { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'web' } } },
              { namespaceSelector: { matchExpressions: [{ key: 'team', operator: 'Exists' }] } },
            ],
            ports: [{ protocol: 'TCP', port: 8321 }],
          },
        ],
      },
    });
  });

  it('spec.network.allowedFrom.namespaces ["*"] → every namespace', () => {
    const { spec } = converted(
      v1({ server: { distribution: { name: 'starter' }, containerSpec: { port: 9000 } }, network: { allowedFrom: { namespaces: ['*'] } } }),
    );
    expect((spec.network as Plain).policy).toEqual({ ingress: [{ from: [{ namespaceSelector: {} }], ports: [{ protocol: 'TCP', port: 9000 }] }] });
  });

  it('allowedFrom with expose: a warning that the policy admits no ingress controller', () => {
    const exposed = { expose: { hostname: 'chat.example.com' }, allowedFrom: { namespaces: ['web'] } };
    const { warnings } = converted(v2({ distribution: { name: 'starter' }, networking: exposed }));
    expect(warningAt(warnings, 'spec.networking.allowedFrom')).toMatch(
      /^becomes `spec.network.policy.ingress`, which admits no ingress controller: add a peer for its namespace/,
    );
  });

  it('no allowedFrom: `policy.enabled: false`, since an LLSD renders no NetworkPolicy then and an OGXServer would', () => {
    expect(converted(server({})).spec.network).toEqual({ policy: { enabled: false } });
  });
});

describe('v1alpha2 fields → OGXServer', () => {
  it('a vllm provider → typed `remote.vllm`, id kept, endpoint completed to the URL the LLSD renders, apiKey → apiToken, settings.max_tokens → maxTokens', () => {
    const { spec, warnings } = converted(
      v2({
        providers: { inference: { provider: 'vllm', endpoint: 'http://vllm:8000', apiKey: { name: 'vllm', key: 'token' }, settings: { max_tokens: 512 } } },
      }),
    );
    expect(spec.providers).toEqual({
      inference: { remote: { vllm: [{ id: 'vllm', endpoint: 'http://vllm:8000/v1', apiToken: { name: 'vllm', key: 'token' }, maxTokens: 512 }] } },
    });
    expect(warningAt(warnings, 'spec.providers.inference')).toMatch(
      /^replaces the distribution's inference providers in the OGXServer \(an LLSD lays its providers over them\), so .*`sentence-transformers` are no longer configured/,
    );
  });

  it('a provider with a key no typed field has → `custom` with type, settings and secretRefs (the same config keys)', () => {
    const { spec } = converted(
      v2({
        providers: {
          inference: {
            id: 'ollama',
            provider: 'ollama',
            endpoint: 'http://ollama:11434',
            secretRefs: { api_key: { name: 'o', key: 'k' } },
            settings: { timeout: 30 },
          },
        },
      }),
    );
    const custom = ((spec.providers as Plain).inference as { remote: { custom: Plain[] } }).remote.custom;
    expect(custom).toHaveLength(1);
    expect(custom[0]).toMatchObject({ id: 'ollama', type: 'remote::ollama', secretRefs: { api_key: { name: 'o', key: 'k' } }, settings: { timeout: 30 } });
    expect(Object.values((custom[0] as { settings: Plain }).settings)).toContain('http://ollama:11434/v1');
  });

  it('a nested Secret in settings becomes an env placeholder and a pod env var from the Secret (secretRefs are top-level only)', () => {
    const { spec } = converted(
      v2({
        providers: {
          inference: {
            id: 'gw',
            provider: 'openai',
            apiKey: { name: 's', key: 'k' },
            settings: { headers: { auth: { secretKeyRef: { name: 's', key: 'h' } } } },
          },
        },
      }),
    );
    expect((spec.providers as Plain).inference).toEqual({
      remote: {
        custom: [
          {
            id: 'gw',
            type: 'remote::openai',
            secretRefs: { api_key: { name: 's', key: 'k' } },
            // base_url as the LLSD's config has it (the release's sample); the sample's api_key is not written, the Secret's is.
            settings: { headers: { auth: '${env.LLSD_GW_HEADERS_AUTH}' }, base_url: '${env.OPENAI_BASE_URL:=https://api.openai.com/v1}' },
          },
        ],
      },
    });
    expect((spec.workload as Plain).overrides).toEqual({ env: [{ name: 'LLSD_GW_HEADERS_AUTH', valueFrom: { secretKeyRef: { name: 's', key: 'h' } } }] });
  });

  it('pgvector with host, settings and a password Secret → typed `remote.pgvector`', () => {
    const { spec } = converted(
      v2({
        providers: {
          vectorIo: { provider: 'pgvector', host: 'db', secretRefs: { password: { name: 'pg', key: 'pw' } }, settings: { port: 5432, db: 'rag', user: 'app' } },
        },
      }),
    );
    expect((spec.providers as Plain).vectorIo).toEqual({
      remote: { pgvector: [{ id: 'pgvector', host: 'db', port: 5432, db: 'rag', user: 'app', password: { name: 'pg', key: 'pw' } }] },
    });
  });

  it('safety and telemetry providers have no equivalent: a warning each', () => {
    const { spec, warnings } = converted(v2({ providers: { safety: { provider: 'llama-guard' } } }));
    expect(spec.providers).toBeUndefined();
    expect(warningAt(warnings, 'spec.providers.safety')).toBe(
      'is dropped: OGXServer has no safety providers; to keep it, write the whole config.yaml in a ConfigMap and set `spec.overrideConfig`',
    );
  });

  it("models: each gets its provider named (the LLSD default is the first inference provider, OGX's the smallest id); tools warn", () => {
    const { spec, warnings } = converted(
      v2({
        providers: {
          inference: [
            { id: 'zeta', provider: 'vllm', endpoint: 'http://z:8000/v1' },
            { id: 'alpha', provider: 'vllm', endpoint: 'http://a:8000/v1' },
          ],
        },
        resources: { models: ['llama3', { name: 'big', provider: 'alpha', contextLength: 8192 }], tools: ['websearch'] },
      }),
    );
    expect(spec.resources).toEqual({
      models: [
        { name: 'llama3', provider: 'zeta' },
        { name: 'big', provider: 'alpha', contextLength: 8192 },
      ],
    });
    expect(spec.baseConfig).toBeUndefined();
    expect(warningAt(warnings, 'spec.resources.tools')).toMatch(/^is dropped: OGXServer registers only models;/);
  });

  // Issue 28: the dimension was dropped with a warning that OGX would ask the provider, and `build` then refused the OGXServer.
  it('an embedding model: every model is registered, with metadata.embedding_dimension, from a spec.baseConfig ConfigMap written beside the OGXServer', () => {
    const llsd = v2({
      providers: { inference: [{ id: 'zeta', provider: 'vllm', endpoint: 'http://z:8000/v1' }] },
      resources: { models: ['llama3', { name: 'emb', modelType: 'embedding', embeddingDimension: 768, contextLength: 512 }] },
    });
    const result = toOgxServer(llsd);
    expect(result.problems.filter((p) => (p.severity ?? 'error') === 'error')).toEqual([]);
    const spec = result.object.spec as Plain;
    expect(spec.resources).toEqual({});
    expect(spec.baseConfig).toEqual({ name: 'demo-ogx-base-config', key: 'config.yaml' });
    expect(result.beside).toHaveLength(1);
    const configMap = result.beside[0] as { metadata: Plain; data: Record<string, string> };
    expect(configMap.metadata).toEqual({ name: 'demo-ogx-base-config', namespace: 'ai', labels: { 'ogx.io/watch': 'true' } });
    const base = parse(configMap.data['config.yaml'] as string) as Plain;
    // The starter config.yaml of OGX 1.3.0 (the distribution's default OGX release), its models replaced by the LLSD's, in the LLSD's config form.
    expect(base.version).toBe(2);
    expect(base.distro_name).toBe('starter');
    expect((base.registered_resources as Plain).models).toEqual([
      { model_id: 'llama3', provider_id: 'zeta', provider_model_id: 'llama3', model_type: 'llm' },
      { model_id: 'emb', provider_id: 'zeta', provider_model_id: 'emb', model_type: 'embedding', metadata: { context_length: 512, embedding_dimension: 768 } },
    ]);
    const warning = result.problems.find((p) => p.path.join('.') === 'spec.resources.models.1');
    expect(warning?.message).toMatch(/^is an embedding model, and an OGXServer model has no field for `embeddingDimension` \(`build` refuses it/);
    expect(warning?.message).toContain('registered from the ConfigMap "demo-ogx-base-config" written beside the OGXServer, which `spec.baseConfig` names');
    expect(JSON.stringify(result.problems)).not.toContain('asks the provider');
  });

  // Found by test/property/migration.property.test.ts: the OGXServer's rules refused it with a message that named no fix.
  it('a model naming a provider of the base (not of the LLSD) while the LLSD has providers: an error at its provider naming the fix', () => {
    const llsd = v2({
      providers: { vectorIo: [{ id: 'chromadb', provider: 'chromadb', endpoint: 'http://chroma:8000' }] },
      resources: { models: [{ name: 'accounts/fireworks/models/llama', provider: 'fireworks' }] },
    });
    const errors = toOgxServer(llsd).problems.filter((p) => (p.severity ?? 'error') === 'error');
    expect(errors.map((p) => p.path.join('.'))).toEqual(['spec.resources.models.0.provider']);
    expect(errors[0]?.message).toBe(
      'cannot be converted: names "fireworks", a provider of the distribution\'s base config, not of the LLSD; an OGXServer with `spec.providers` registers ' +
        'a model only with one of its own providers (its admission webhook refuses any other), and its providers of an API replace the distribution\'s: ' +
        'add "fireworks" to the LLSD\'s `providers` (e.g. `inference: [{id: fireworks, provider: …}]`) and convert again, or name one of "chromadb"',
    );
    // Without providers the OGXServer keeps the base's, and the model converts.
    const alone = toOgxServer(v2({ resources: { models: [{ name: 'm', provider: 'fireworks' }] } }));
    expect(alone.problems.filter((p) => (p.severity ?? 'error') === 'error')).toEqual([]);
  });

  it('an embedding model of an image distribution (no base convert can read): an error naming the model and the ConfigMap to write', () => {
    const llsd = v2({
      distribution: { image: 'quay.io/me/ogx:1.3.0' },
      resources: { models: [{ name: 'emb', provider: 'vllm', modelType: 'embedding', embeddingDimension: 384 }] },
    });
    const result = toOgxServer(llsd);
    expect(result.object).toBe(llsd);
    const errors = result.problems.filter((p) => (p.severity ?? 'error') === 'error');
    expect(errors.map((p) => p.path.join('.'))).toEqual(['spec.resources.models.0']);
    expect(errors[0]?.message).toMatch(/^cannot be converted: "emb" is an embedding model, which an OGXServer registers only from a `spec\.baseConfig`/);
    expect(errors[0]?.message).toContain('metadata: {embedding_dimension: 384}');
  });

  // The advice once was `connectionString`, which the render then refuses (A11; new-user probe).
  it('storage: redis host/port → endpoint, password kept; postgres SQL is dropped with a warning that names overrideConfig, not connectionString', () => {
    const { spec, warnings } = converted(
      v2({
        storage: {
          kv: { type: 'redis', host: 'redis', port: 6379, password: { name: 'r', key: 'pw' } },
          sql: { type: 'postgres', host: 'pg', user: 'u', database: 'd', password: { name: 'pg', key: 'pw' } },
        },
      }),
    );
    expect(spec.storage).toEqual({ kv: { type: 'redis', endpoint: 'redis://redis:6379', password: { name: 'r', key: 'pw' } } });
    expect(warningAt(warnings, 'spec.storage.sql')).toMatch(
      /^is dropped: an OGXServer takes a PostgreSQL store only as a connection string, which OGX does not read .* give the whole config\.yaml by `spec\.overrideConfig` instead of `spec\.storage`$/,
    );
    expect(warningAt(warnings, 'spec.storage')).toMatch(/^replaces the distribution's whole `storage` section/);
  });

  it('disabled: the eight OGX APIs (either spelling) → disabledAPIs; others warn', () => {
    const { spec, warnings } = converted(v2({ disabled: ['toolRuntime', 'files', 'eval'] }));
    expect(spec.disabledAPIs).toEqual(['tool_runtime', 'files']);
    expect(warningAt(warnings, 'spec.disabled.2')).toMatch(
      /^is dropped: an OGXServer can disable only batches, file_processors, inference, responses, tool_runtime, vector_io, files, conversations; to remove "eval"/,
    );
  });

  it('networking.tls.enabled has no working counterpart: a warning', () => {
    const { warnings } = converted(v2({ networking: { tls: { enabled: true, secretName: 'cert' } } }));
    expect(warningAt(warnings, 'spec.networking.tls.enabled')).toMatch(/^has no working OGXServer counterpart: the operator reads no server TLS setting/);
  });

  it('an invalid LLSD is not converted: the renderer\'s errors, at its fields', () => {
    const result = toOgxServer(v2({ workload: { replicas: -1 } }));
    expect(result.object.apiVersion).toBe('llamastack.io/v1alpha2');
    expect(result.problems.map((p) => p.path.join('.'))).toEqual(['spec.workload.replicas']);
  });
});

describe('the release annotation (new-user probe: a converted example pinned at 0.7.1 did not render)', () => {
  it('a release that is no OGX release is dropped with a warning naming the OGX releases; an OGX one is kept', () => {
    const old = toOgxServer({ ...v2({}), metadata: { name: 'chat', namespace: 'ai', annotations: { 'llamastack.io/release': '0.7.1' } } });
    expect(((old.object as KrmObject).metadata.annotations ?? {})['llamastack.io/release']).toBeUndefined();
    expect(old.problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          severity: 'warning',
          path: ['metadata', 'annotations', 'llamastack.io/release'],
          message: expect.stringMatching(/^is dropped: "0\.7\.1" is no OGX release, and an OGXServer renders only against 1\.0\.0, /),
        }),
      ]),
    );
    const kept = toOgxServer({ ...v2({}), metadata: { name: 'chat', namespace: 'ai', annotations: { 'llamastack.io/release': '1.2.2' } } });
    expect(((kept.object as KrmObject).metadata.annotations ?? {})['llamastack.io/release']).toBe('1.2.2');
  });
});

describe('storage on an adopted volume (golden review: the SQL data was silently not found)', () => {
  it('sqlite with workload.storage: the storage warning says the SQL file name changes, and what to do', () => {
    const { warnings } = converted(v2({ storage: { sql: { type: 'sqlite' } }, workload: { storage: { size: '5Gi' } } }));
    expect(warningAt(warnings, 'spec.storage')).toMatch(
      /its sqlite SQL file is `sqlstore\.db` where the LLSD's was `sql_store\.db`, so on the adopted volume the SQL data is not found: rename the file on the volume before the OGXServer starts, or give the store by `spec\.overrideConfig`$/,
    );
    expect(warningAt(converted(v2({ storage: { sql: { type: 'sqlite' } } })).warnings, 'spec.storage')).not.toContain('sqlstore.db');
  });
});

describe('the build check reads result paths back (src/convert/build-check.ts)', () => {
  it('a custom provider missing a key that has no value to fill (a required env var): the LLSD unchanged, build\'s error, and which `settings` key to give', () => {
    // remote::milvus's sample has `uri: ${env.MILVUS_ENDPOINT}`, which nothing in the pod sets (the LLSD does not render either).
    const milvus = { id: 'mil', provider: 'remote::milvus', secretRefs: { token: { name: 'm', key: 't' } } };
    const llsd = v2({ providers: { vectorIo: milvus } }, { name: 'vec', namespace: 'ai' });
    const checked = toCheckedOgxServer(llsd, []);
    expect(checked.object).toBe(llsd);
    const errors = checked.problems.filter((p) => (p.severity ?? 'error') === 'error');
    expect(errors.map((p) => p.path.join('.'))).toEqual(['spec.providers.vectorIo']);
    expect(errors[0]?.message).toMatch(
      /^cannot be converted: `build` of the OGXServer "vec-ogx" would fail at `spec\.providers\.vectorIo\.remote\.custom\[0\]`: .*`providers\.vector_io\[0\]\.config\.uri` is missing/,
    );
    expect(errors[0]?.message).toMatch(/give `uri` in the LLSD provider's `settings`/);
  });

  it('parseFieldPath undoes formatFieldPath, quoted keys and indexes included', () => {
    const paths: Array<Array<string | number>> = [
      ['spec', 'providers', 'inference', 'remote', 'vllm', 0, 'endpoint'],
      ['metadata', 'annotations', 'llamastack.io/release'],
      ['spec', 'tls', 'trust', 'caCertificates', 12, 'key'],
      ['spec', 'a "b"', 3],
      [],
    ];
    for (const path of paths) expect(parseFieldPath(formatFieldPath(path))).toEqual(path);
  });

  it('an OGXServer field maps back to the LLSD field it came from (v1alpha1 names for a v1alpha1 LLSD)', () => {
    const v2result = toOgxServer(v2({ providers: { inference: [{ id: 'a', provider: 'vllm', endpoint: 'http://a:8000/v1' }] } }));
    expect(v2result.sourceOf(['spec', 'providers', 'inference', 'remote', 'vllm', 0, 'endpoint'])).toEqual(['spec', 'providers', 'inference', 0]);
    expect(v2result.sourceOf(['spec', 'network', 'policy', 'ingress', 0])).toEqual(['spec', 'networking', 'allowedFrom']);
    expect(v2result.sourceOf(['spec', 'workload', 'overrides', 'env', 1])).toEqual(['spec', 'workload', 'overrides', 'env', 1]);
    const v1result = toOgxServer(server({ userConfig: { configMapName: 'cfg' } }));
    expect(v1result.sourceOf(['spec', 'overrideConfig', 'name'])).toEqual(['spec', 'server', 'userConfig', 'configMapName']);
  });
});

describe('a `custom` provider gets the config keys the LLSD\'s render fills from the release (issue 28: faiss, sqlite-vec, chromadb were refused)', () => {
  /** `providers.vector_io` of the config.yaml `build` renders for `object`, which must render without an error. */
  function renderedVectorIo(object: KrmObject): Plain[] {
    const output = render({ mode: 'build', items: [{ node: null, object, origin: {} }] as never });
    expect(output.results.filter((r) => r.severity === 'error').map((r) => r.message)).toEqual([]);
    const objects = output.items.map((item) => ('object' in item ? item.object : item) as Plain);
    const configMap = objects.find((o) => o.kind === 'ConfigMap' && String((o.metadata as Plain).name).includes('-config-')) as { data: Plain };
    return (parse(configMap.data['config.yaml'] as string) as { providers: { vector_io: Plain[] } }).providers.vector_io;
  }
  /** The checked conversion (no error: `build` of it succeeds), its custom vector_io entries and its warnings at the provider. */
  function convertedCustom(llsd: KrmObject, group: 'inline' | 'remote'): { custom: Plain[]; infos: string[] } {
    const checked = toCheckedOgxServer(llsd, []);
    expect(checked.problems.filter((p) => (p.severity ?? 'error') === 'error')).toEqual([]);
    const server = checked.object as KrmObject;
    expect(renderedVectorIo(server).length).toBeGreaterThan(0);
    const custom = (((server as unknown as { spec: Plain }).spec.providers as Plain).vectorIo as Record<string, { custom: Plain[] }>)[group]?.custom ?? [];
    const atProvider = checked.problems.filter((p) => p.severity === 'warning' && p.message.startsWith('becomes a `custom` provider'));
    return { custom, infos: atProvider.map((p) => `${p.path.join('.')}: ${p.message}`) };
  }
  const at071 = { name: 'vec', namespace: 'ai', annotations: { 'llamastack.io/release': '0.7.1' } };

  it('faiss (an LLSD at 0.7.1, the OGXServer at OGX 1.3.0): `persistence` as the LLSD\'s config.yaml has it, with a warning naming it', () => {
    const llsd = v2({ providers: { vectorIo: { id: 'myfaiss', provider: 'faiss' } } }, at071);
    const { custom, infos } = convertedCustom(llsd, 'inline');
    const persistence = { namespace: 'vector_io::myfaiss', backend: 'kv_default' };
    expect(custom).toEqual([{ id: 'myfaiss', type: 'inline::faiss', settings: { persistence } }]);
    // The namespace is the LLSD's own (renamed after the id: the base's faiss has vector_io::faiss), so the data is found.
    expect(renderedVectorIo(llsd).find((p) => p.provider_id === 'myfaiss')?.config).toEqual({ persistence });
    expect(infos).toEqual([
      expect.stringMatching(new RegExp(
        '^spec\\.providers\\.vectorIo: becomes a `custom` provider, which has only the config keys written, so its `settings` also give `persistence` ' +
          "as the LLSD's config\\.yaml has it: from the sample config of inline::faiss of starter at OGX 1\\.\\d+\\.\\d+",
      )),
    ]);
  });

  it('faiss with the base\'s id: the base entry\'s config, as the LLSD lays its provider over it', () => {
    const llsd = v2({ providers: { vectorIo: [{ id: 'faiss', provider: 'faiss' }, { id: 'more', provider: 'faiss' }] } });
    const { custom, infos } = convertedCustom(llsd, 'inline');
    expect(custom.map((c) => c.settings)).toEqual([
      { persistence: { namespace: 'vector_io::faiss', backend: 'kv_default' } },
      { persistence: { namespace: 'vector_io::more', backend: 'kv_default' } },
    ]);
    expect(infos[0]).toContain('from the "faiss" entry of the base config of starter');
  });

  it('sqlite-vec: `db_path` and `persistence` from the OGX release\'s sample (its ~/.ogx home, not the LLSD release\'s ~/.llama), env reference kept', () => {
    const llsd = v2({ providers: { vectorIo: { id: 'sv', provider: 'sqlite-vec' } } }, at071);
    const { custom, infos } = convertedCustom(llsd, 'inline');
    expect(custom).toEqual([{
      id: 'sv', type: 'inline::sqlite-vec',
      settings: { db_path: '${env.SQLITE_STORE_DIR:=~/.ogx/distributions/starter}/sv.db', persistence: { namespace: 'vector_io::sv', backend: 'kv_default' } },
    }]);
    expect(renderedVectorIo(llsd).find((p) => p.provider_id === 'sv')?.config).toEqual({
      db_path: '${env.SQLITE_STORE_DIR:=~/.llama/distributions/starter}/sv.db', persistence: { namespace: 'vector_io::sv', backend: 'kv_default' },
    });
    expect(infos[0]).toMatch(/also give `db_path` and `persistence` as the LLSD's config\.yaml has them/);
  });

  it('remote chromadb with an endpoint: `url` as written first, then `persistence` filled', () => {
    const llsd = v2({ providers: { vectorIo: { id: 'chroma', provider: 'chromadb', endpoint: 'http://chroma:8000' } } });
    const { custom } = convertedCustom(llsd, 'remote');
    expect(custom).toEqual([{
      id: 'chroma', type: 'remote::chromadb', settings: { url: 'http://chroma:8000', persistence: { namespace: 'vector_io::chroma', backend: 'kv_default' } },
    }]);
  });
});

describe('the default vector_io provider (an outside probe: qdrant then milvus became milvus then qdrant in the OGXServer, with no word)', () => {
  /** `vector_stores.default_provider_id` of the config.yaml `build` renders for `object`. */
  function renderedDefault(object: KrmObject): unknown {
    const output = render({ mode: 'build', items: [{ node: null, object, origin: {} }] as never });
    expect(output.results.filter((r) => r.severity === 'error').map((r) => r.message)).toEqual([]);
    const objects = output.items.map((item) => ('object' in item ? item.object : item) as Plain);
    const configMap = objects.find((o) => o.kind === 'ConfigMap' && String((o.metadata as Plain).name).includes('-config-')) as { data: Plain };
    return (parse(configMap.data['config.yaml'] as string) as { vector_stores: Plain }).vector_stores.default_provider_id;
  }
  const qdrant = { id: 'qd', provider: 'qdrant', endpoint: 'http://qdrant:6333' };
  const milvus = { id: 'mv', provider: 'milvus', endpoint: 'http://milvus:19530', apiKey: { secretKeyRef: { name: 'milvus', key: 'token' } } };
  const llsd = (vectorIo: Plain[]): KrmObject => v2({ providers: { vectorIo } });

  it('moved by the operator\'s order of types: a warning at the LLSD\'s default naming the OGXServer\'s, which is the one the rendered config uses', () => {
    const original = llsd([qdrant, milvus]);
    expect(renderedDefault(original)).toBe('qd');
    const { warnings } = converted(original);
    expect(warningAt(warnings, 'spec.providers.vectorIo.0')).toMatch(
      /^is the LLSD's default vector_io provider, but the OGXServer's is "mv" \(remote::milvus\): the operator writes the typed providers in a fixed order/,
    );
    expect(renderedDefault(toOgxServer(original).object as unknown as KrmObject)).toBe('mv');
  });

  it('kept: no warning', () => {
    const { warnings } = converted(llsd([milvus, qdrant]));
    expect(warnings.filter((w) => w.message.includes('default vector_io provider'))).toEqual([]);
  });
});
