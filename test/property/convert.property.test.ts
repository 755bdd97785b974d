// Property tests of the v1alpha1 ⇄ v1alpha2 conversion (docs/api.md) over generated LLSDs: any valid
// v1alpha1 LLSD converts to a valid v1alpha2 one and back to itself, and the same the other way;
// and the conversion is total: whatever JSON sits at the fields it maps, it neither throws nor loses
// anything. The arbitraries cover each schema's whole surface, including values the other version
// cannot hold (port 0, empty lists, names that are not DNS names, loose Kubernetes objects).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toV1alpha1, toV1alpha2 } from '../../src/llsd/conversion.js';
import { v1alpha1Schemas } from '../../src/llsd/llsd-v1alpha1.js';
import { disableableApis, llsdV1alpha2Schemas } from '../../src/llsd/llsd-v1alpha2.js';

const { llsdSchema } = llsdV1alpha2Schemas();

const { llsdV1alpha1Schema } = v1alpha1Schemas();

/** Runs per property; LLSD_PROPERTY_RUNS=2000 for a longer hunt. */
const numRuns = Number(process.env.LLSD_PROPERTY_RUNS ?? 200);

type Plain = Record<string, unknown>;

/** A record whose keys are all optional unless listed in `required`. */
const some = <T extends Record<string, fc.Arbitrary<unknown>>>(model: T, required: Array<keyof T & string> = []) =>
  fc.record(model, { requiredKeys: required }) as fc.Arbitrary<Plain>;

// ---------------------------------------------------------------------------------------------
// Shared pieces

/** Any JSON value as it arrives (objects travel as JSON: through the API server, and in the record): `-0` is 0. */
const json = (maxDepth: number): fc.Arbitrary<unknown> => fc.jsonValue({ maxDepth }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);

const dnsLabel = fc.stringMatching(/^[a-z0-9]([-a-z0-9]{0,8}[a-z0-9])?$/);
const dnsSubdomain = fc.oneof(dnsLabel, fc.tuple(dnsLabel, dnsLabel).map(([a, b]) => `${a}.${b}`));
/** Any string, the empty one and names that are no DNS names included. */
const text = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('', 'Not_DNS', 'starter', 'llama-stack', '/data', 'ai'));
const nonEmpty = fc.oneof(fc.string({ minLength: 1, maxLength: 8 }), fc.constantFrom('starter', 'Not_DNS', 'x'));
const annotationKey = fc.constantFrom('example.com/note', 'config.kubernetes.io/index', 'internal.config.kubernetes.io/path', 'llamastack.io/release', 'a');

const metadata = some(
  {
    // A Service name is a DNS-1035 label: it starts with a letter.
    name: fc.stringMatching(/^[a-z]([-a-z0-9]{0,8}[a-z0-9])?$/),
    namespace: dnsLabel,
    uid: fc.uuid(),
    labels: fc.dictionary(fc.constantFrom('team', 'app', 'tier'), text, { maxKeys: 2 }),
    annotations: fc.dictionary(annotationKey, text, { maxKeys: 3 }),
  },
  ['name'],
);
const status = fc.oneof(
  some({ phase: fc.constantFrom('Ready', 'Failed'), availableReplicas: fc.nat(5) }),
  fc.dictionary(fc.string({ maxLength: 5 }), json(2), { maxKeys: 2 }),
);

const llsd = (apiVersion: string, spec: fc.Arbitrary<Plain>): fc.Arbitrary<Plain> =>
  fc.record(
    { apiVersion: fc.constant(apiVersion), kind: fc.constant('LlamaStackDistribution'), metadata, spec, status },
    { requiredKeys: ['apiVersion', 'kind', 'metadata', 'spec'] },
  );

// ---------------------------------------------------------------------------------------------
// v1alpha1: the operator CRD's spec

const int32 = fc.oneof(fc.integer({ min: -3, max: 120 }), fc.integer());
const quantityV1 = fc.oneof(fc.integer({ min: -5, max: 100 }), fc.constantFrom('1', '500m', '4Gi', '-1', '+2', '1e3', '.5', '10Gi'));
const intOrStringV1 = fc.oneof(fc.integer({ min: -2, max: 10 }), fc.constantFrom('50%', '1', 'x', ''));
const keyRef = some({ key: text, name: text, optional: fc.boolean() }, ['key']);

const envVarV1 = some(
  {
    name: fc.oneof(fc.constantFrom('A', 'INFERENCE_MODEL', ''), text),
    value: text,
    valueFrom: some({
      configMapKeyRef: keyRef,
      secretKeyRef: keyRef,
      fieldRef: some({ apiVersion: fc.constant('v1'), fieldPath: text }, ['fieldPath']),
      fileKeyRef: some({ key: text, optional: fc.boolean(), path: text, volumeName: text }, ['key', 'path', 'volumeName']),
      resourceFieldRef: some({ containerName: text, divisor: quantityV1, resource: text }, ['resource']),
    }),
  },
  ['name'],
);
const resourcesV1 = some({
  claims: fc.array(some({ name: text, request: text }, ['name']), { maxLength: 2 }),
  limits: fc.dictionary(fc.constantFrom('cpu', 'memory', 'nvidia.com/gpu'), quantityV1, { maxKeys: 2 }),
  requests: fc.dictionary(fc.constantFrom('cpu', 'memory'), quantityV1, { maxKeys: 2 }),
});
const volumeV1 = fc.oneof(
  fc.record({ name: text, configMap: fc.record({ name: dnsLabel }) }),
  fc.record({ name: text, emptyDir: fc.constant({}) }),
  fc.record({ name: text, persistentVolumeClaim: fc.record({ claimName: dnsLabel, readOnly: fc.boolean() }) }),
);
const volumeMountV1 = some(
  { mountPath: text, name: text, readOnly: fc.boolean(), subPath: text, mountPropagation: fc.constantFrom('None', 'HostToContainer') },
  ['mountPath', 'name'],
);
const topologySpreadV1 = some(
  {
    maxSkew: int32,
    topologyKey: text,
    whenUnsatisfiable: fc.constantFrom('DoNotSchedule', 'ScheduleAnyway'),
    minDomains: int32,
    matchLabelKeys: fc.array(text, { maxLength: 2 }),
    nodeAffinityPolicy: fc.constantFrom('Honor', 'Ignore'),
    nodeTaintsPolicy: fc.constantFrom('Honor', 'Ignore'),
    labelSelector: some({
      matchLabels: fc.dictionary(fc.constantFrom('app', 'tier'), text, { maxKeys: 2 }),
      matchExpressions: fc.array(
        some({ key: text, operator: fc.constantFrom('In', 'Exists'), values: fc.array(text, { maxLength: 2 }) }, ['key', 'operator']),
        { maxLength: 2 },
      ),
    }),
  },
  ['maxSkew', 'topologyKey', 'whenUnsatisfiable'],
);

export const specV1alpha1 = some(
  {
    replicas: int32,
    server: some(
      {
        distribution: some({ name: text, image: text }),
        containerSpec: some({
          name: text,
          port: int32,
          resources: resourcesV1,
          env: fc.array(envVarV1, { maxLength: 3 }),
          command: fc.array(text, { maxLength: 2 }),
          args: fc.array(text, { maxLength: 2 }),
        }),
        workers: fc.oneof(fc.integer({ min: 1, max: 16 }), fc.integer({ min: 1, max: 2147483647 })),
        podOverrides: some({
          serviceAccountName: fc.oneof(dnsSubdomain, text),
          terminationGracePeriodSeconds: fc.oneof(fc.integer({ min: -1, max: 600 }), fc.maxSafeInteger()),
          volumes: fc.array(volumeV1, { maxLength: 2 }),
          volumeMounts: fc.array(volumeMountV1, { maxLength: 2 }),
        }),
        podDisruptionBudget: some({ minAvailable: intOrStringV1, maxUnavailable: intOrStringV1 }),
        topologySpreadConstraints: fc.array(topologySpreadV1, { maxLength: 2 }),
        autoscaling: some({ minReplicas: int32, maxReplicas: int32, targetCPUUtilizationPercentage: int32, targetMemoryUtilizationPercentage: int32 }, [
          'maxReplicas',
        ]),
        storage: some({ size: quantityV1, mountPath: text }),
        userConfig: some({ configMapName: fc.oneof(dnsSubdomain, text), configMapNamespace: fc.oneof(dnsLabel, text) }, ['configMapName']),
        tlsConfig: some({
          caBundle: some(
            {
              configMapName: fc.oneof(dnsSubdomain, text),
              configMapNamespace: text,
              configMapKeys: fc.array(fc.oneof(fc.constant('ca-bundle.crt'), text), { maxLength: 3 }),
            },
            ['configMapName'],
          ),
        }),
      },
      ['distribution'],
    ),
    network: some({
      exposeRoute: fc.boolean(),
      allowedFrom: some({ namespaces: fc.array(fc.oneof(fc.constant('*'), text), { maxLength: 2 }), labels: fc.array(text, { maxLength: 2 }) }),
    }),
  },
  ['server'],
);

// ---------------------------------------------------------------------------------------------
// v1alpha2: the proposal's spec as llsd-v1alpha2.ts has it

const secretKeySelector = fc.record({ name: dnsSubdomain, key: fc.stringMatching(/^[-._a-zA-Z0-9]{1,8}$/) });
const secretRef = fc.oneof(fc.record({ secretKeyRef: secretKeySelector }), secretKeySelector);
const valueOrSecret = <T>(value: fc.Arbitrary<T>) => fc.oneof(value as fc.Arbitrary<unknown>, fc.record({ secretKeyRef: secretKeySelector }));
const providerV2 = some(
  {
    id: dnsLabel,
    provider: fc.constantFrom('vllm', 'ollama', 'remote::vllm', 'inline::llama-guard', 'llama-guard', 'pgvector'),
    endpoint: nonEmpty,
    apiKey: secretRef,
    host: valueOrSecret(nonEmpty),
    secretRefs: fc.dictionary(fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_.-]{0,6}$/), secretRef, { maxKeys: 2 }),
    settings: fc.dictionary(fc.string({ maxLength: 6 }), json(2), { maxKeys: 2 }),
  },
  ['provider'],
);
const providersV2 = fc.oneof(providerV2, fc.array(providerV2, { minLength: 1, maxLength: 2 }));
const modelV2 = fc.oneof(
  nonEmpty,
  some(
    {
      name: nonEmpty,
      provider: dnsLabel,
      contextLength: fc.integer({ min: 1, max: 1_000_000 }),
      modelType: fc.constantFrom('llm', 'embedding', 'rerank'),
      embeddingDimension: fc.integer({ min: 1, max: 4096 }),
      quantization: nonEmpty,
    },
    ['name'],
  ),
);
const storageBackendV2 = some({
  type: fc.constantFrom('sqlite', 'redis', 'postgres'),
  endpoint: nonEmpty,
  host: valueOrSecret(nonEmpty),
  port: valueOrSecret(fc.integer({ min: 1, max: 65535 })),
  database: valueOrSecret(nonEmpty),
  user: valueOrSecret(nonEmpty),
  password: secretRef,
  connectionString: secretRef,
});
const quantityV2 = fc.oneof(fc.integer({ min: 0, max: 64 }), fc.constantFrom('0.5', '1.5', '500m', '4Gi', '2', '1e3'));
const intOrPercentV2 = fc.oneof(fc.nat(10), fc.constantFrom('50%', '0%', '100%'));
/** Kubernetes core/v1 objects handed to the pod: checked by their own schemas (src/core/core-v1.ts). */
const envV2 = fc.oneof(
  fc.record({ name: nonEmpty, value: text }),
  fc.record({ name: nonEmpty, valueFrom: fc.record({ secretKeyRef: fc.record({ name: dnsLabel, key: dnsLabel }) }) }),
);
const volumeV2 = fc.oneof(fc.record({ name: nonEmpty, emptyDir: fc.constant({}) }), fc.record({ name: nonEmpty, configMap: fc.record({ name: dnsLabel }) }));
const volumeMountV2 = fc.record({ name: nonEmpty, mountPath: fc.constant('/m'), readOnly: fc.boolean() });
const topologySpreadV2 = some(
  {
    maxSkew: fc.integer({ min: 1, max: 3 }),
    topologyKey: fc.constantFrom('kubernetes.io/hostname', 'topology.kubernetes.io/zone'),
    whenUnsatisfiable: fc.constantFrom('ScheduleAnyway', 'DoNotSchedule'),
    labelSelector: fc.record({ matchLabels: fc.dictionary(fc.constantFrom('app', 'tier'), dnsLabel, { maxKeys: 2 }) }),
    nodeTaintsPolicy: fc.constantFrom('Honor', 'Ignore'),
  },
  ['maxSkew', 'topologyKey', 'whenUnsatisfiable'],
);
const configMapKey = fc.stringMatching(/^[a-zA-Z0-9]([a-zA-Z0-9\-_.]{0,6}[a-zA-Z0-9])?$/);

export const specV1alpha2 = some(
  {
    distribution: some({ name: nonEmpty, image: nonEmpty }),
    providers: some({ inference: providersV2, safety: providersV2, vectorIo: providersV2, toolRuntime: providersV2, telemetry: providersV2 }),
    resources: some({
      models: fc.array(modelV2, { minLength: 1, maxLength: 2 }),
      tools: fc.array(nonEmpty, { minLength: 1, maxLength: 2 }),
      shields: fc.array(nonEmpty, { minLength: 1, maxLength: 2 }),
    }),
    storage: some({ kv: storageBackendV2, sql: storageBackendV2 }),
    disabled: fc.array(fc.constantFrom(...disableableApis), { minLength: 1, maxLength: 3 }),
    networking: some({
      port: fc.integer({ min: 1, max: 65535 }),
      tls: some({
        enabled: fc.boolean(),
        secretName: dnsSubdomain,
        caBundle: some({ configMapName: dnsSubdomain, configMapKeys: fc.array(configMapKey, { minLength: 1, maxLength: 3 }) }, ['configMapName']),
      }),
      expose: fc.oneof(fc.boolean(), some({ hostname: nonEmpty })),
      allowedFrom: some({ namespaces: fc.array(nonEmpty, { minLength: 1, maxLength: 2 }), labels: fc.array(nonEmpty, { minLength: 1, maxLength: 2 }) }),
    }),
    workload: some({
      replicas: fc.nat(10),
      workers: fc.integer({ min: 1, max: 2 ** 40 }),
      resources: some({
        requests: fc.dictionary(fc.constantFrom('cpu', 'memory'), quantityV2, { maxKeys: 2 }),
        limits: fc.dictionary(fc.constantFrom('cpu', 'memory'), quantityV2, { maxKeys: 2 }),
      }),
      autoscaling: some(
        {
          minReplicas: fc.integer({ min: 1, max: 10 }),
          maxReplicas: fc.integer({ min: 1, max: 2 ** 31 - 1 }), // Kubernetes int32
          targetCPUUtilization: fc.integer({ min: 1, max: 100 }),
          targetMemoryUtilization: fc.integer({ min: 1, max: 100 }),
        },
        ['maxReplicas'],
      ),
      storage: some({ size: quantityV2, mountPath: fc.constantFrom('/data', '/.llama', '/') }),
      podDisruptionBudget: some({ minAvailable: intOrPercentV2, maxUnavailable: intOrPercentV2 }),
      topologySpreadConstraints: fc.array(topologySpreadV2, { minLength: 1, maxLength: 2 }),
      overrides: some({
        serviceAccountName: dnsSubdomain,
        terminationGracePeriodSeconds: fc.oneof(fc.nat(600), fc.maxSafeNat()),
        env: fc.array(envV2, { minLength: 1, maxLength: 2 }),
        command: fc.array(nonEmpty, { minLength: 1, maxLength: 2 }),
        args: fc.array(nonEmpty, { minLength: 1, maxLength: 2 }),
        volumes: fc.array(volumeV2, { minLength: 1, maxLength: 2 }),
        volumeMounts: fc.array(volumeMountV2, { minLength: 1, maxLength: 2 }),
      }),
    }),
    externalProviders: some({ inference: fc.array(fc.record({ providerId: dnsLabel, image: nonEmpty }), { minLength: 1, maxLength: 2 }) }),
    overrideConfig: fc.record({ configMapName: dnsSubdomain }),
  },
  ['distribution'],
);

const v1alpha1Llsd = llsd('llamastack.io/v1alpha1', specV1alpha1);
const v1alpha2Llsd = llsd('llamastack.io/v1alpha2', specV1alpha2);

// ---------------------------------------------------------------------------------------------
// Any JSON at the fields the conversion reads: what a webhook may be handed.

const v1alpha1Paths = [
  'replicas',
  'server',
  'server.distribution',
  'server.distribution.name',
  'server.containerSpec',
  'server.containerSpec.port',
  'server.containerSpec.env',
  'server.containerSpec.resources',
  'server.containerSpec.resources.requests',
  'server.podOverrides',
  'server.podOverrides.volumes',
  'server.autoscaling',
  'server.autoscaling.maxReplicas',
  'server.userConfig',
  'server.tlsConfig',
  'server.tlsConfig.caBundle',
  'network',
  'network.exposeRoute',
  'network.allowedFrom',
];
const v1alpha2Paths = [
  'distribution',
  'distribution.image',
  'providers',
  'networking',
  'networking.port',
  'networking.tls',
  'networking.tls.caBundle',
  'networking.expose',
  'workload',
  'workload.overrides',
  'workload.overrides.env',
  'workload.autoscaling',
  'workload.autoscaling.targetCPUUtilization',
  'workload.resources',
  'overrideConfig',
];

/** Sets `value` at the dotted `path` under `spec`, replacing whatever is in the way. */
function setAt(spec: Plain, path: string, value: unknown): void {
  const keys = path.split('.');
  let at = spec;
  for (const key of keys.slice(0, -1)) {
    const next = at[key];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) at[key] = {};
    at = at[key] as Plain;
  }
  at[keys[keys.length - 1] as string] = value;
}

/**
 * A mapping put at a field holds no field of its own: its keys would be unknown fields, which the API
 * server prunes before it stores an object (and `convert` refuses), and which the conversion drops
 * from a conversion record as a hand edit (conversion.ts withoutUnfit). Lists and scalars stay as they are.
 */
const pruned = (value: unknown): unknown => (value !== null && typeof value === 'object' && !Array.isArray(value) ? {} : value);

const mutated = (valid: fc.Arbitrary<Plain>, paths: string[]): fc.Arbitrary<Plain> =>
  fc
    .tuple(valid, fc.array(fc.tuple(fc.constantFrom(...paths), json(2).map(pruned)), { minLength: 1, maxLength: 3 }), fc.boolean())
    .map(([object, changes, spoilSpec]) => {
      const copy = structuredClone(object);
      const spec = copy.spec as Plain;
      for (const [path, value] of changes) setAt(spec, path, value);
      // The first value, as it was generated (fields set under it since would be unknown fields of `spec`).
      if (spoilSpec) copy.spec = pruned(changes[0]?.[1]);
      return copy;
    });

// ---------------------------------------------------------------------------------------------

describe('conversion properties', () => {
  it('v1alpha1 → v1alpha2 → v1alpha1 is lossless, and the v1alpha2 object is valid', () => {
    fc.assert(
      fc.property(v1alpha1Llsd, (original) => {
        expect(llsdV1alpha1Schema.safeParse(original).error?.issues ?? []).toEqual([]);
        const snapshot = structuredClone(original);
        const converted = toV1alpha2(original);
        expect(converted.problems).toEqual([]);
        expect(llsdSchema.safeParse(converted.object).error?.issues ?? []).toEqual([]);
        expect(converted.object.apiVersion).toBe('llamastack.io/v1alpha2');
        const back = toV1alpha1(converted.object);
        expect(back.problems).toEqual([]);
        expect(back.object).toEqual(original);
        expect(original, 'the input is not changed').toEqual(snapshot);
      }),
      { numRuns },
    );
  });

  it('v1alpha2 → v1alpha1 → v1alpha2 is lossless, and the v1alpha1 object is valid', () => {
    fc.assert(
      fc.property(v1alpha2Llsd, (original) => {
        expect(llsdSchema.safeParse(original).error?.issues ?? []).toEqual([]);
        const converted = toV1alpha1(original);
        expect(converted.problems).toEqual([]);
        expect(llsdV1alpha1Schema.safeParse(converted.object).error?.issues ?? []).toEqual([]);
        expect(converted.object.apiVersion).toBe('llamastack.io/v1alpha1');
        const back = toV1alpha2(converted.object);
        expect(back.problems).toEqual([]);
        expect(back.object).toEqual(original);
      }),
      { numRuns },
    );
  });

  it('converting is deterministic: the same input gives the same JSON, key order included', () => {
    fc.assert(
      fc.property(v1alpha1Llsd, v1alpha2Llsd, (a, b) => {
        expect(JSON.stringify(toV1alpha2(a))).toBe(JSON.stringify(toV1alpha2(structuredClone(a))));
        expect(JSON.stringify(toV1alpha1(b))).toBe(JSON.stringify(toV1alpha1(structuredClone(b))));
      }),
      { numRuns: Math.ceil(numRuns / 4) },
    );
  });

  it('is total: any JSON at the fields it reads converts without throwing, and back to the same object', () => {
    fc.assert(
      fc.property(mutated(v1alpha1Llsd, v1alpha1Paths), mutated(v1alpha2Llsd, v1alpha2Paths), (a, b) => {
        const up = toV1alpha2(a);
        expect(up.problems).toEqual([]);
        expect(toV1alpha1(up.object).object).toEqual(a);
        const down = toV1alpha1(b);
        expect(down.problems).toEqual([]);
        expect(toV1alpha2(down.object).object).toEqual(b);
      }),
      { numRuns },
    );
  });
});
