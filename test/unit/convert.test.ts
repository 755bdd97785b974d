// The v1alpha1 schema and the v1alpha1 ⇄ v1alpha2 conversion (docs/api.md): the spec's field table,
// the conversion record that makes both round trips lossless, and the problems told in v1alpha1
// field paths when a v1alpha1 LLSD is rendered.
import { describe, expect, it } from 'vitest';
import {
  conversionAnnotation,
  convertTo,
  toV1alpha1,
  toV1alpha2,
  v1alpha1FieldsNotRendered,
  v1alpha1Problem,
} from '../../src/llsd/conversion.js';
import { convertChecked } from '../../src/llsd/convert-checked.js';
import { problemsFromIssues } from '../../src/lib/issues.js';
import { llsdReaders, supportedLlsdVersions } from '../../src/llsd/llsd.js';
import { v1alpha1Schemas } from '../../src/llsd/llsd-v1alpha1.js';
import { llsdV1alpha2Schemas } from '../../src/llsd/llsd-v1alpha2.js';
import type { KrmObject } from '../../src/krm/item.js';
import { z } from '../../src/lib/zod.js';

const { llsdSchema } = llsdV1alpha2Schemas();

const { llsdV1alpha1Schema, specV1alpha1Schema } = v1alpha1Schemas();

type Plain = Record<string, unknown>;

const v1 = (spec: Plain, metadata: Plain = { name: 'demo', namespace: 'ai' }, extra: Plain = {}): Plain => ({
  apiVersion: 'llamastack.io/v1alpha1',
  kind: 'LlamaStackDistribution',
  metadata,
  spec,
  ...extra,
});
const v2 = (spec: Plain, metadata: Plain = { name: 'demo', namespace: 'ai' }, extra: Plain = {}): Plain => ({
  apiVersion: 'llamastack.io/v1alpha2',
  kind: 'LlamaStackDistribution',
  metadata,
  spec,
  ...extra,
});

/** The conversion record on an object, parsed; undefined when there is none. */
const recordOf = (object: Plain): unknown => {
  const raw = (object.metadata as { annotations?: Record<string, string> }).annotations?.[conversionAnnotation];
  return raw === undefined ? undefined : JSON.parse(raw);
};

/** Converts, checks there is no problem, and returns the object. */
const up = (object: Plain): Plain => {
  const converted = toV1alpha2(object);
  expect(converted.problems).toEqual([]);
  return converted.object;
};
const down = (object: Plain): Plain => {
  const converted = toV1alpha1(object);
  expect(converted.problems).toEqual([]);
  return converted.object;
};

/** Every field of the field table, with values both versions can hold. */
const everyMappedV1alpha1 = {
  replicas: 2,
  server: {
    distribution: { name: 'starter' },
    containerSpec: {
      port: 8080,
      resources: { requests: { cpu: '2', memory: '4Gi' }, limits: { memory: '8Gi' } },
      env: [{ name: 'A', value: '1' }, { name: 'B', valueFrom: { secretKeyRef: { name: 'creds', key: 'b' } } }],
      command: ['python'],
      args: ['-m', 'server'],
    },
    workers: 4,
    podOverrides: {
      serviceAccountName: 'runner',
      terminationGracePeriodSeconds: 60,
      volumes: [{ name: 'models', persistentVolumeClaim: { claimName: 'models' } }],
      volumeMounts: [{ name: 'models', mountPath: '/models', readOnly: true }],
    },
    podDisruptionBudget: { minAvailable: 1 },
    topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'ScheduleAnyway' }],
    autoscaling: { minReplicas: 2, maxReplicas: 5, targetCPUUtilizationPercentage: 70, targetMemoryUtilizationPercentage: 80 },
    storage: { size: '20Gi', mountPath: '/data' },
    userConfig: { configMapName: 'run-config' },
    tlsConfig: { caBundle: { configMapName: 'ca', configMapKeys: ['ca.crt', 'extra.crt'] } },
  },
  network: { exposeRoute: true, allowedFrom: { namespaces: ['clients'], labels: ['team/ai'] } },
};

const everyMappedV1alpha2 = {
  distribution: { name: 'starter' },
  networking: {
    port: 8080,
    tls: { caBundle: { configMapName: 'ca', configMapKeys: ['ca.crt', 'extra.crt'] } },
    expose: true,
    allowedFrom: { namespaces: ['clients'], labels: ['team/ai'] },
  },
  workload: {
    replicas: 2,
    workers: 4,
    resources: { requests: { cpu: '2', memory: '4Gi' }, limits: { memory: '8Gi' } },
    autoscaling: { minReplicas: 2, maxReplicas: 5, targetCPUUtilization: 70, targetMemoryUtilization: 80 },
    storage: { size: '20Gi', mountPath: '/data' },
    podDisruptionBudget: { minAvailable: 1 },
    topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'ScheduleAnyway' }],
    overrides: {
      serviceAccountName: 'runner',
      terminationGracePeriodSeconds: 60,
      env: [{ name: 'A', value: '1' }, { name: 'B', valueFrom: { secretKeyRef: { name: 'creds', key: 'b' } } }],
      command: ['python'],
      args: ['-m', 'server'],
      volumes: [{ name: 'models', persistentVolumeClaim: { claimName: 'models' } }],
      volumeMounts: [{ name: 'models', mountPath: '/models', readOnly: true }],
    },
  },
  overrideConfig: { configMapName: 'run-config' },
};

describe('the field table (spec: Field Mapping v1alpha1 to v1alpha2)', () => {
  it('maps every v1alpha1 field to its v1alpha2 path, renaming the autoscaling targets, and needs no record', () => {
    const converted = up(v1(everyMappedV1alpha1));
    expect(converted).toEqual(v2(everyMappedV1alpha2));
    expect(recordOf(converted)).toBeUndefined();
    expect(llsdSchema.safeParse(converted).success).toBe(true);
  });

  it('maps every v1alpha2 counterpart back to its v1alpha1 path', () => {
    const converted = down(v2(everyMappedV1alpha2));
    expect(converted).toEqual(v1(everyMappedV1alpha1));
    expect(recordOf(converted)).toBeUndefined();
    expect(llsdV1alpha1Schema.safeParse(converted).success).toBe(true);
  });

  it('writes the spec in the order of the target schema, whatever the order of the source', () => {
    const reversed = Object.fromEntries(Object.entries(everyMappedV1alpha1).reverse());
    expect(Object.keys(up(v1(reversed)).spec as Plain)).toEqual(['distribution', 'networking', 'workload', 'overrideConfig']);
    expect(Object.keys((up(v1(reversed)).spec as { workload: Plain }).workload)).toEqual([
      'replicas',
      'workers',
      'resources',
      'autoscaling',
      'storage',
      'podDisruptionBudget',
      'topologySpreadConstraints',
      'overrides',
    ]);
    expect(Object.keys(down(v2(everyMappedV1alpha2)).spec as Plain)).toEqual(['replicas', 'server', 'network']);
  });

  it('the same input gives the same bytes', () => {
    const object = v1({ ...everyMappedV1alpha1, server: { ...everyMappedV1alpha1.server, containerSpec: { name: 'server', port: 0 } } });
    expect(JSON.stringify(toV1alpha2(object))).toBe(JSON.stringify(toV1alpha2(structuredClone(object))));
  });
});

describe('the conversion record (annotation llamastack.io/conversion-data)', () => {
  // Attacker (issue 29, after W1): a record is one string to the webhook's count of a body, and
  // parsing 16 MiB of `{}` in it held the webhook 11 s and 1.3 GB; 3,000 levels of lists in it
  // overflowed the stack ("internal error" in every mode).
  const recordWith = (x: string): string => `{"apiVersion":"llamastack.io/v1alpha2","spec":{"x":${x}}}`;
  it.each([
    ['longer than the API server keeps', recordWith(`"${'a'.repeat(256 * 1024)}"`), /is \d+ bytes long or more, longer than/],
    ['nested 3,000 deep', recordWith(`${'['.repeat(3000)}${']'.repeat(3000)}`), /more than 400 levels deep/],
    ['of wide characters, longer in bytes than the API server keeps', recordWith(`"${'一'.repeat(100_000)}"`), /is 300\d+ bytes long or more/],
  ])('a record %s is refused at the annotation before it is parsed, with what to do', (_name, record, message) => {
    const object = v1({ server: { distribution: { name: 'starter' } } }, { name: 'demo', namespace: 'ai', annotations: { [conversionAnnotation]: record } });
    const { problems } = convertTo(object, 'llamastack.io/v1alpha2');
    expect(problems).toHaveLength(1);
    expect(problems[0]!.path).toEqual(['metadata', 'annotations', conversionAnnotation]);
    expect(problems[0]!.message).toMatch(message);
    expect(problems[0]!.message).toContain('remove the annotation to convert without it');
  });

  it('keeps the v1alpha1 fields v1alpha2 has no field for, and restores them', () => {
    const original = v1({
      server: {
        distribution: { name: 'starter' },
        containerSpec: { name: 'server', resources: { claims: [{ name: 'gpu' }] } },
        userConfig: { configMapName: 'cfg', configMapNamespace: 'shared' },
        tlsConfig: { caBundle: { configMapName: 'ca', configMapNamespace: 'certs' } },
      },
    });
    const converted = up(original);
    expect(converted.spec).toEqual({
      distribution: { name: 'starter' },
      networking: { tls: { caBundle: { configMapName: 'ca' } } },
      workload: { resources: {} },
      overrideConfig: { configMapName: 'cfg' },
    });
    expect((converted.metadata as Plain).annotations).toEqual({
      [conversionAnnotation]:
        '{"apiVersion":"llamastack.io/v1alpha1","spec":{"server":{"containerSpec":{"name":"server","resources":{"claims":[{"name":"gpu"}]}},"userConfig":{"configMapNamespace":"shared"},"tlsConfig":{"caBundle":{"configMapNamespace":"certs"}}}}}',
    });
    const back = down(converted);
    expect(back).toEqual(original);
    expect((back.metadata as Plain).annotations).toBeUndefined();
  });

  it('keeps v1alpha1 values that v1alpha2 cannot hold: port 0, empty lists, names that are not DNS names, an autoscaler without maxReplicas ≥ 1', () => {
    const original = v1({
      replicas: -1,
      server: {
        distribution: { name: '' },
        containerSpec: { port: 0, env: [], command: [] },
        podOverrides: { serviceAccountName: 'Not_DNS', terminationGracePeriodSeconds: 30 },
        autoscaling: { maxReplicas: 0, targetCPUUtilizationPercentage: 50 },
      },
    });
    const converted = up(original);
    expect(converted.spec).toEqual({ distribution: {}, workload: { overrides: { terminationGracePeriodSeconds: 30 } } });
    expect(recordOf(converted)).toEqual({
      apiVersion: 'llamastack.io/v1alpha1',
      spec: {
        replicas: -1,
        server: {
          distribution: { name: '' },
          containerSpec: { port: 0, env: [], command: [] },
          podOverrides: { serviceAccountName: 'Not_DNS' },
          autoscaling: { maxReplicas: 0, targetCPUUtilizationPercentage: 50 },
        },
      },
    });
    expect(llsdSchema.safeParse(converted).success).toBe(true);
    expect(down(converted)).toEqual(original);
  });

  it('keeps the v1alpha2 fields v1alpha1 has no field for, and restores them', () => {
    const original = v2({
      distribution: { image: 'quay.io/me/stack:1.0' },
      providers: { inference: [{ id: 'vllm', provider: 'vllm', endpoint: 'http://vllm:8000/v1', apiKey: { secretKeyRef: { name: 'c', key: 'k' } } }] },
      resources: { models: ['m', { name: 'e', modelType: 'embedding', embeddingDimension: 384 }], tools: ['websearch'], shields: ['s'] },
      storage: { kv: { type: 'redis', endpoint: 'redis://r:6379' }, sql: { type: 'postgres', host: 'pg', user: 'u' } },
      disabled: ['vectorIo'],
      networking: { port: 9000, tls: { enabled: true, secretName: 'tls', caBundle: { configMapName: 'ca' } }, expose: { hostname: 'llama.example.com' } },
      externalProviders: { inference: [{ providerId: 'ext', image: 'quay.io/ext:1' }] },
    });
    const converted = down(original);
    expect(converted.spec).toEqual({
      server: { distribution: { image: 'quay.io/me/stack:1.0' }, containerSpec: { port: 9000 }, tlsConfig: { caBundle: { configMapName: 'ca' } } },
    });
    expect(recordOf(converted)).toEqual({
      apiVersion: 'llamastack.io/v1alpha2',
      spec: {
        providers: (original.spec as Plain).providers,
        resources: (original.spec as Plain).resources,
        storage: (original.spec as Plain).storage,
        disabled: ['vectorIo'],
        networking: { tls: { enabled: true, secretName: 'tls' }, expose: { hostname: 'llama.example.com' } },
        externalProviders: { inference: [{ providerId: 'ext', image: 'quay.io/ext:1' }] },
      },
    });
    expect(llsdV1alpha1Schema.safeParse(converted).success).toBe(true);
    const back = up(converted);
    expect(back).toEqual(original);
    expect(Object.keys(back.spec as Plain)).toEqual(['distribution', 'providers', 'resources', 'storage', 'disabled', 'networking', 'externalProviders']);
  });

  it('keeps a v1alpha2 value v1alpha1 cannot hold (an env entry with a field EnvVar does not have) as a whole list', () => {
    const original = v2({
      distribution: { name: 'starter' },
      workload: {
        overrides: {
          env: [
            { name: 'A', value: 'x' },
            { name: 'B', value: 'y', extra: true },
          ],
        },
      },
    });
    const converted = down(original);
    expect(converted.spec).toEqual({ server: { distribution: { name: 'starter' } } });
    expect(recordOf(converted)).toEqual({
      apiVersion: 'llamastack.io/v1alpha2',
      spec: {
        workload: {
          overrides: {
            env: [
              { name: 'A', value: 'x' },
              { name: 'B', value: 'y', extra: true },
            ],
          },
        },
      },
    });
    expect(up(converted)).toEqual(original);
  });

  it('leaves metadata (labels, other annotations, kpt annotations) and status as they were', () => {
    const metadata = {
      name: 'demo',
      namespace: 'ai',
      uid: 'abc',
      labels: { team: 'search' },
      annotations: { 'example.com/note': 'keep me', 'config.kubernetes.io/index': '0' },
    };
    const original = v1({ server: { distribution: { name: 'starter' }, containerSpec: { name: 'x' } } }, metadata, {
      status: { phase: 'Ready', availableReplicas: 1 },
    });
    const converted = up(original);
    expect(converted.metadata).toEqual({ ...metadata, annotations: { ...metadata.annotations, [conversionAnnotation]: expect.any(String) } });
    expect(Object.keys(converted.metadata as Plain)).toEqual(['name', 'namespace', 'uid', 'labels', 'annotations']);
    expect(converted.status).toEqual({ phase: 'Ready', availableReplicas: 1 });
    expect(Object.keys(converted)).toEqual(['apiVersion', 'kind', 'metadata', 'spec', 'status']);
    expect(down(converted)).toEqual(original);
  });

  it('an empty annotations map survives the round trip, and so does its absence', () => {
    const withEmpty = v1({ server: { distribution: { name: 'starter' }, containerSpec: { name: 'x' } } }, { name: 'demo', annotations: {} });
    const converted = up(withEmpty);
    expect(recordOf(converted)).toEqual({
      apiVersion: 'llamastack.io/v1alpha1',
      metadata: { annotations: {} },
      spec: { server: { containerSpec: { name: 'x' } } },
    });
    expect(down(converted)).toEqual(withEmpty);
    const without = v1({ server: { distribution: { name: 'starter' }, containerSpec: { name: 'x' } } }, { name: 'demo' });
    expect(down(up(without))).toEqual(without);
    expect(Object.hasOwn(down(up(without)).metadata as Plain, 'annotations')).toBe(false);
  });

  it('a field changed after the conversion keeps its new value; the record fills only what is missing', () => {
    const converted = down(v2({ distribution: { name: 'starter' }, providers: { inference: { provider: 'ollama' } }, networking: { port: 8000 } }));
    const edited = structuredClone(converted) as { spec: { server: Plain & { containerSpec: Plain } } };
    edited.spec.server.containerSpec.port = 9000;
    edited.spec.server.workers = 2;
    expect(up(edited as unknown as Plain).spec).toEqual({
      distribution: { name: 'starter' },
      providers: { inference: { provider: 'ollama' } },
      networking: { port: 9000 },
      workload: { workers: 2 },
    });
  });

  it('a v1alpha1 object holding v1alpha2 fields and v1alpha1-only fields converts with both: the v1alpha2 ones restored, the others in a new record', () => {
    const converted = down(v2({ distribution: { name: 'starter' }, disabled: ['safety'] }));
    const edited = structuredClone(converted) as { spec: { server: Plain } };
    edited.spec.server.containerSpec = { name: 'custom' };
    const again = up(edited);
    expect(again.spec).toEqual({ distribution: { name: 'starter' }, disabled: ['safety'] });
    expect(recordOf(again)).toEqual({ apiVersion: 'llamastack.io/v1alpha1', spec: { server: { containerSpec: { name: 'custom' } } } });
  });
});

describe('what a client changed after the record was written wins (issue 29, W2)', () => {
  it('v1alpha2 providers to v1alpha1, `userConfig` added there, back: the providers and `disabled` are dropped with a warning, and the rules hold', () => {
    const providers = { inference: { provider: 'vllm', endpoint: 'http://vllm:8000/v1' } };
    const down1 = down(v2({ distribution: { name: 'starter' }, providers, disabled: ['safety'] }));
    const edited = structuredClone(down1) as { spec: { server: Plain } };
    edited.spec.server.userConfig = { configMapName: 'my-config' };
    const back = toV1alpha2(edited);
    expect(back.object).toEqual(v2({ distribution: { name: 'starter' }, overrideConfig: { configMapName: 'my-config' } }));
    expect(back.problems).toEqual([
      {
        severity: 'warning',
        code: 'conversion-data-dropped',
        path: ['metadata', 'annotations', conversionAnnotation],
        message:
          'held llamastack.io/v1alpha2 fields that clash with changes made in llamastack.io/v1alpha1 after it was written, and the changes win: dropped ' +
            '`spec.providers` and `spec.disabled`, which cannot be combined with `spec.overrideConfig` (from `spec.server.userConfig`). Set the dropped ' +
            'fields again in llamastack.io/v1alpha2 if they are still wanted',
      },
    ]);
    // Before, both came back, and the object broke the rule that overrideConfig stands alone.
    const parsed = llsdReaders['llamastack.io/v1alpha2'].parse(back.object as KrmObject);
    expect(parsed.problems).toEqual([]);
    // Rendering the edited v1alpha1 LLSD says the same, and renders.
    const rendered = llsdReaders['llamastack.io/v1alpha1'].parse(edited as unknown as KrmObject);
    expect(rendered.ok).toBe(true);
    expect(rendered.problems.map((p) => p.severity === 'warning' && p.code)).toEqual(['conversion-data-dropped']);
    // `convert` gives it next to its own warning about the record (none here: nothing is left to keep).
    expect(convertChecked(edited, 'llamastack.io/v1alpha2').problems).toEqual(back.problems);
  });

  it('down too: a v1alpha1 record of `name: ""` is dropped when v1alpha2 sets `image`, which v1alpha1 cannot combine with `name`', () => {
    const up1 = up(v1({ server: { distribution: { name: '' } } }));
    expect(recordOf(up1)).toEqual({ apiVersion: 'llamastack.io/v1alpha1', spec: { server: { distribution: { name: '' } } } });
    const edited = structuredClone(up1) as { spec: { distribution: Plain } };
    edited.spec.distribution.image = 'quay.io/me/stack:1.0';
    const back = toV1alpha1(edited);
    expect(back.object.spec).toEqual({ server: { distribution: { image: 'quay.io/me/stack:1.0' } } });
    expect(back.object.metadata).toEqual({ name: 'demo', namespace: 'ai' });
    expect(llsdV1alpha1Schema.safeParse(back.object).success).toBe(true);
    expect(back.problems.map((p) => p.message)).toEqual([
      'held llamastack.io/v1alpha1 fields that clash with changes made in llamastack.io/v1alpha2 after it was written, and the changes win: dropped ' +
        '`spec.server.distribution.name`, which cannot be combined with `spec.server.distribution.image` (from `spec.distribution.image`). Set the ' +
        'dropped fields again in llamastack.io/v1alpha1 if they are still wanted',
    ]);
  });

  it('an object that already broke a rule when the record was written round-trips as it was: the record says what was set beside it', () => {
    const original = v2({ distribution: { name: 'starter' }, disabled: ['inference'], overrideConfig: { configMapName: 'a' } });
    const converted = down(original);
    expect(recordOf(converted)).toEqual({ apiVersion: 'llamastack.io/v1alpha2', spec: { disabled: ['inference'] }, alongside: ['overrideConfig'] });
    expect(up(converted)).toEqual(original);
    // A record without that note (what the v1alpha1 client's change looks like) is dropped.
    const unmarked = structuredClone(converted) as { metadata: { annotations: Record<string, string> } };
    unmarked.metadata.annotations[conversionAnnotation] = JSON.stringify({ apiVersion: 'llamastack.io/v1alpha2', spec: { disabled: ['inference'] } });
    expect(toV1alpha2(unmarked).problems.map((p) => p.code)).toEqual(['conversion-data-dropped']);
  });

  it('the same field: a recorded value the other version set since is dropped, and the warning says which field set it', () => {
    const up1 = up(v1({ server: { distribution: { name: 'starter' }, containerSpec: { port: 0 } } }));
    expect(recordOf(up1)).toEqual({ apiVersion: 'llamastack.io/v1alpha1', spec: { server: { containerSpec: { port: 0 } } } });
    const edited = structuredClone(up1) as { spec: Plain };
    edited.spec.networking = { port: 9000 };
    const back = toV1alpha1(edited);
    expect(back.object.spec).toEqual({ server: { distribution: { name: 'starter' }, containerSpec: { port: 9000 } } });
    expect(back.problems.map((p) => p.message)).toEqual([
      'held llamastack.io/v1alpha1 fields that clash with changes made in llamastack.io/v1alpha2 after it was written, and the changes win: dropped ' +
        '`spec.server.containerSpec.port`, now set from `spec.networking.port`',
    ]);
  });
});

describe('conversion problems', () => {
  const annotationPath = ['metadata', 'annotations', conversionAnnotation];

  it('a record that is not llsd-render JSON is an error at the annotation, and the object is returned unchanged', () => {
    const object = v1({ server: { distribution: { name: 'starter' } } }, { name: 'demo', annotations: { [conversionAnnotation]: '{not json' } });
    const converted = toV1alpha2(object);
    expect(converted.object).toBe(object);
    expect(converted.problems).toEqual([
      {
        path: annotationPath,
        message:
          'must be the JSON record llsd-render writes (`{"apiVersion": …, "spec": {…}}`); restore the value llsd-render wrote, or remove the annotation to ' +
            'convert without it (the fields it held are then lost)',
      },
    ]);
  });

  it('a record of the same version as the object is an error that names both versions', () => {
    const object = v1(
      { server: { distribution: { name: 'starter' } } },
      { name: 'demo', annotations: { [conversionAnnotation]: '{"apiVersion":"llamastack.io/v1alpha1","spec":{}}' } },
    );
    expect(toV1alpha2(object).problems).toEqual([
      {
        path: annotationPath,
        message:
          'holds fields of llamastack.io/v1alpha1, but this object is converted from llamastack.io/v1alpha1 to llamastack.io/v1alpha2; restore the value ' +
            'llsd-render wrote, or remove the annotation to convert without it (the fields it held are then lost)',
      },
    ]);
  });

  it('an object of the wrong version or kind is an error at apiVersion', () => {
    expect(toV1alpha2(v2({ distribution: { name: 'starter' } })).problems).toEqual([
      {
        path: ['apiVersion'],
        message:
          'must be llamastack.io/v1alpha1 LlamaStackDistribution to be converted to llamastack.io/v1alpha2, not llamastack.io/v1alpha2 LlamaStackDistribution',
      },
    ]);
    expect(toV1alpha1({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } }).problems).toEqual([
      { path: ['apiVersion'], message: 'must be llamastack.io/v1alpha2 LlamaStackDistribution to be converted to llamastack.io/v1alpha1, not v1 ConfigMap' },
    ]);
    expect(toV1alpha2('text').problems).toEqual([{ path: [], message: 'must be a LlamaStackDistribution with `metadata`' }]);
  });

  it('convertTo: the object itself when it is already in the version; an error for an unknown version', () => {
    const object = v2({ distribution: { name: 'starter' } });
    expect(convertTo(object, 'llamastack.io/v1alpha2')).toEqual({ object, problems: [] });
    expect(convertTo(object, 'llamastack.io/v1alpha1').object.apiVersion).toBe('llamastack.io/v1alpha1');
    expect(convertTo(object, 'llamastack.io/v1beta1').problems).toEqual([
      { path: [], message: 'cannot be converted to "llamastack.io/v1beta1": the supported versions are llamastack.io/v1alpha1 and llamastack.io/v1alpha2' },
    ]);
  });

  it('an annotations value that is not a mapping cannot take the record', () => {
    const object = v1({ server: { distribution: { name: 'starter' }, containerSpec: { name: 'x' } } }, { name: 'demo', annotations: 'oops' });
    expect(toV1alpha2(object).problems).toEqual([{ path: ['metadata', 'annotations'], message: 'must be a mapping to hold the conversion record' }]);
  });
});

describe('convertChecked (the convert command)', () => {
  it('checks the source against its own schema first, at its own field paths', () => {
    const object = v1({ server: { distribution: { name: 'starter' }, containerSpec: { prot: 80 }, workers: 0 } });
    expect(convertChecked(object, 'llamastack.io/v1alpha2').problems.map((p) => [p.path.join('.'), p.message])).toEqual([
      ['spec.server.containerSpec.prot', 'is not a known field; did you mean `port`?'],
      ['spec.server.workers', 'must be at least 1'],
    ]);
  });

  it('warns with the fields it keeps in the record', () => {
    const converted = convertChecked(
      v2({ distribution: { name: 'starter' }, providers: { inference: { provider: 'vllm' } }, disabled: ['safety'] }),
      'llamastack.io/v1alpha1',
    );
    expect(converted.problems).toEqual([
      {
        severity: 'warning',
        code: 'conversion-annotation',
        path: ['metadata', 'annotations', conversionAnnotation],
        message:
          'keeps `spec.providers.inference.provider`, `spec.disabled`: llamastack.io/v1alpha1 has no field for them (or cannot hold the value); converting ' +
            'back to llamastack.io/v1alpha2 restores them',
      },
    ]);
    expect(convertChecked(v1({ server: { distribution: { name: 'starter' } } }), 'llamastack.io/v1alpha2').problems).toEqual([]);
  });
});

describe('rendering a v1alpha1 LLSD: problems at v1alpha1 field paths', () => {
  it('maps a v1alpha2 path to the v1alpha1 field it came from, renamed fields and list indexes included', () => {
    const at = (path: Array<string | number>) => v1alpha1Problem({ path, message: 'm' }).path.join('.');
    expect(at(['spec', 'workload', 'autoscaling', 'targetCPUUtilization'])).toBe('spec.server.autoscaling.targetCPUUtilizationPercentage');
    expect(at(['spec', 'workload', 'overrides', 'env', 1, 'valueFrom'])).toBe('spec.server.containerSpec.env.1.valueFrom');
    expect(at(['spec', 'overrideConfig', 'configMapName'])).toBe('spec.server.userConfig.configMapName');
    expect(at(['spec', 'networking', 'expose'])).toBe('spec.network.exposeRoute');
    expect(at(['spec', 'networking', 'port'])).toBe('spec.server.containerSpec.port');
    expect(at(['spec', 'distribution'])).toBe('spec.server.distribution');
    expect(at(['spec', 'workload', 'replicas'])).toBe('spec.replicas');
    expect(at(['metadata', 'name'])).toBe('metadata.name');
  });

  it('a v1alpha2 field with no v1alpha1 counterpart is put on the annotation it came from, and named', () => {
    expect(v1alpha1Problem({ path: ['spec', 'providers', 'inference', 0, 'id'], message: 'is required' })).toEqual({
      path: ['metadata', 'annotations', conversionAnnotation],
      message: '`spec.providers.inference[0].id` (a v1alpha2 field kept in this annotation) is required',
    });
  });

  it('says what is not rendered, in document order: fields without a counterpart, and values v1alpha2 cannot hold with its own message', () => {
    const object = v1(
      {
        server: {
          distribution: { name: 'starter' },
          containerSpec: { name: 'server', port: 0, env: [], resources: { claims: [{ name: 'gpu' }] } },
          userConfig: { configMapName: 'cfg', configMapNamespace: 'shared' },
          tlsConfig: { caBundle: { configMapName: 'ca', configMapNamespace: 'certs' } },
          podOverrides: { serviceAccountName: 'Not_DNS' },
          autoscaling: { maxReplicas: 3, targetCPUUtilizationPercentage: 150 },
        },
      },
      { name: 'demo', namespace: 'ai' },
    );
    expect(v1alpha1FieldsNotRendered(object).map((p) => [p.severity ?? 'error', p.path.join('.'), p.message])).toEqual([
      ['warning', 'spec.server.containerSpec.name', 'is ignored: the server container is always named `llama-stack`, not "server"'],
      ['error', 'spec.server.containerSpec.resources.claims', 'is not supported: v1alpha2 has no resource claims; remove `claims`'],
      [
        'warning',
        'spec.server.userConfig.configMapNamespace',
        'is ignored: the pod mounts the ConfigMap "cfg" from its own namespace, as the v1alpha1 operator does; keep the ConfigMap next to the LLSD',
      ],
      [
        'error',
        'spec.server.tlsConfig.caBundle.configMapNamespace',
        "must be the LLSD's own namespace: a pod can mount a CA bundle ConfigMap only from its namespace; copy the ConfigMap there and remove " +
          "`configMapNamespace`",
      ],
      [
        'error',
        'spec.server.podOverrides.serviceAccountName',
        'must be a DNS subdomain: lower-case letters, digits, "-" and ".", starting and ending with a letter or digit',
      ],
      ['error', 'spec.server.autoscaling.targetCPUUtilizationPercentage', 'must be at most 100'],
    ]);
  });

  it('values that mean the default in v1alpha1 are left behind silently', () => {
    const object = v1(
      {
        server: {
          distribution: { name: 'starter' },
          containerSpec: { name: 'llama-stack', port: 0, env: [], args: [] },
          userConfig: { configMapName: 'cfg', configMapNamespace: 'ai' },
          podOverrides: {},
        },
        network: { allowedFrom: { namespaces: [] } },
      },
      { name: 'demo', namespace: 'ai' },
    );
    expect(v1alpha1FieldsNotRendered(object)).toEqual([]);
  });

  it('the reader of v1alpha1 LLSDs: schema errors at v1alpha1 paths; rules of v1alpha2 told at the v1alpha1 field', () => {
    expect(supportedLlsdVersions).toEqual(['llamastack.io/v1alpha2', 'llamastack.io/v1alpha1']);
    const reader = llsdReaders['llamastack.io/v1alpha1'];
    const problems = (spec: Plain) => reader.parse(v1(spec) as KrmObject).problems.map((p) => [p.path.join('.'), p.message]);
    expect(problems({ server: { distribution: { name: 'starter' }, network: {} } })).toEqual([
      [
        'spec.server.network',
        'is not a known field; known fields: distribution, containerSpec, workers, podOverrides, podDisruptionBudget, topologySpreadConstraints, ' +
          'autoscaling, storage, userConfig, tlsConfig',
      ],
    ]);
    expect(problems({})).toEqual([['spec.server', 'is required: add `server` with at least `distribution: {name: starter}`']]);
    expect(problems({ server: { distribution: { name: 'starter', image: 'x:1' } } })).toEqual([
      ['spec.server.distribution', 'must set only one of `name` and `image`: a named distribution already pins its image'],
    ]);
    expect(problems({ server: { distribution: { name: 'starter' }, podDisruptionBudget: {} } })).toEqual([
      ['spec.server.podDisruptionBudget', 'must set `minAvailable` or `maxUnavailable`'],
    ]);
    const parsed = reader.parse(
      v1({ server: { distribution: { name: 'starter' }, containerSpec: { port: 9000 }, userConfig: { configMapName: 'cfg' } } }) as KrmObject,
    );
    expect(parsed.ok && parsed.llsd.spec).toEqual({ distribution: { name: 'starter' }, networking: { port: 9000 }, overrideConfig: { configMapName: 'cfg' } });
  });
});

describe('the v1alpha1 schema is the v1alpha1 operator CRD', () => {
  it('rejects unknown fields at every level, with the field path', () => {
    const result = llsdV1alpha1Schema.safeParse(v1({ server: { distribution: { name: 'starter', version: '1' } }, extra: true }), { reportInput: true });
    expect(result.success).toBe(false);
    expect(problemsFromIssues(result.error?.issues ?? [], llsdV1alpha1Schema).map((p) => p.path.join('.'))).toEqual([
      'spec.server.distribution.version',
      'spec.extra',
    ]);
  });

  it('applies the CRD defaults and bounds', () => {
    const parsed = specV1alpha1Schema.parse({ server: { distribution: { name: 'starter' }, containerSpec: {} }, network: {} });
    expect(parsed).toEqual({
      replicas: 1,
      server: { distribution: { name: 'starter' }, containerSpec: { name: 'llama-stack' } },
      network: { exposeRoute: false },
    });
    expect(
      specV1alpha1Schema.safeParse({ server: { distribution: {}, tlsConfig: { caBundle: { configMapName: 'c', configMapKeys: Array(51).fill('k') } } } })
        .success,
    ).toBe(false);
    expect(
      specV1alpha1Schema.safeParse({ server: { distribution: {}, tlsConfig: { caBundle: { configMapName: 'c', configMapKeys: Array(50).fill('k') } } } })
        .success,
    ).toBe(true);
  });

  // Every field of the CRD's spec (llama-stack-k8s-operator main @ 7735e43, its v1alpha1 CRD)
  // with its type, requiredness, default and bounds, down to the embedded Kubernetes types (volume
  // sources are passed as written). Listed from the CRD; compared with the JSON Schema of the zod schema.
  const crdInventory = `
spec: object required
spec.network: object
spec.network.allowedFrom: object
spec.network.allowedFrom.labels: array
spec.network.allowedFrom.labels[]: string
spec.network.allowedFrom.namespaces: array
spec.network.allowedFrom.namespaces[]: string
spec.network.exposeRoute: boolean default=false
spec.replicas: integer default=1
spec.server: object required
spec.server.autoscaling: object
spec.server.autoscaling.maxReplicas: integer required
spec.server.autoscaling.minReplicas: integer
spec.server.autoscaling.targetCPUUtilizationPercentage: integer
spec.server.autoscaling.targetMemoryUtilizationPercentage: integer
spec.server.containerSpec: object
spec.server.containerSpec.args: array
spec.server.containerSpec.args[]: string
spec.server.containerSpec.command: array
spec.server.containerSpec.command[]: string
spec.server.containerSpec.env: array
spec.server.containerSpec.env[]: object
spec.server.containerSpec.env[].name: string required
spec.server.containerSpec.env[].value: string
spec.server.containerSpec.env[].valueFrom: object
spec.server.containerSpec.env[].valueFrom.configMapKeyRef: object
spec.server.containerSpec.env[].valueFrom.configMapKeyRef.key: string required
spec.server.containerSpec.env[].valueFrom.configMapKeyRef.name: string default=""
spec.server.containerSpec.env[].valueFrom.configMapKeyRef.optional: boolean
spec.server.containerSpec.env[].valueFrom.fieldRef: object
spec.server.containerSpec.env[].valueFrom.fieldRef.apiVersion: string
spec.server.containerSpec.env[].valueFrom.fieldRef.fieldPath: string required
spec.server.containerSpec.env[].valueFrom.fileKeyRef: object
spec.server.containerSpec.env[].valueFrom.fileKeyRef.key: string required
spec.server.containerSpec.env[].valueFrom.fileKeyRef.optional: boolean default=false
spec.server.containerSpec.env[].valueFrom.fileKeyRef.path: string required
spec.server.containerSpec.env[].valueFrom.fileKeyRef.volumeName: string required
spec.server.containerSpec.env[].valueFrom.resourceFieldRef: object
spec.server.containerSpec.env[].valueFrom.resourceFieldRef.containerName: string
spec.server.containerSpec.env[].valueFrom.resourceFieldRef.divisor: int-or-string pattern
spec.server.containerSpec.env[].valueFrom.resourceFieldRef.resource: string required
spec.server.containerSpec.env[].valueFrom.secretKeyRef: object
spec.server.containerSpec.env[].valueFrom.secretKeyRef.key: string required
spec.server.containerSpec.env[].valueFrom.secretKeyRef.name: string default=""
spec.server.containerSpec.env[].valueFrom.secretKeyRef.optional: boolean
spec.server.containerSpec.name: string default="llama-stack"
spec.server.containerSpec.port: integer
spec.server.containerSpec.resources: object
spec.server.containerSpec.resources.claims: array
spec.server.containerSpec.resources.claims[]: object
spec.server.containerSpec.resources.claims[].name: string required
spec.server.containerSpec.resources.claims[].request: string
spec.server.containerSpec.resources.limits: object
spec.server.containerSpec.resources.limits{}: int-or-string pattern
spec.server.containerSpec.resources.requests: object
spec.server.containerSpec.resources.requests{}: int-or-string pattern
spec.server.distribution: object required
spec.server.distribution.image: string
spec.server.distribution.name: string
spec.server.podDisruptionBudget: object
spec.server.podDisruptionBudget.maxUnavailable: int-or-string
spec.server.podDisruptionBudget.minAvailable: int-or-string
spec.server.podOverrides: object
spec.server.podOverrides.serviceAccountName: string
spec.server.podOverrides.terminationGracePeriodSeconds: integer
spec.server.podOverrides.volumeMounts: array
spec.server.podOverrides.volumeMounts[]: object
spec.server.podOverrides.volumeMounts[].mountPath: string required
spec.server.podOverrides.volumeMounts[].mountPropagation: string
spec.server.podOverrides.volumeMounts[].name: string required
spec.server.podOverrides.volumeMounts[].readOnly: boolean
spec.server.podOverrides.volumeMounts[].recursiveReadOnly: string
spec.server.podOverrides.volumeMounts[].subPath: string
spec.server.podOverrides.volumeMounts[].subPathExpr: string
spec.server.podOverrides.volumes: array
spec.server.podOverrides.volumes[]: object
spec.server.podOverrides.volumes[].awsElasticBlockStore: object
spec.server.podOverrides.volumes[].azureDisk: object
spec.server.podOverrides.volumes[].azureFile: object
spec.server.podOverrides.volumes[].cephfs: object
spec.server.podOverrides.volumes[].cinder: object
spec.server.podOverrides.volumes[].configMap: object
spec.server.podOverrides.volumes[].csi: object
spec.server.podOverrides.volumes[].downwardAPI: object
spec.server.podOverrides.volumes[].emptyDir: object
spec.server.podOverrides.volumes[].ephemeral: object
spec.server.podOverrides.volumes[].fc: object
spec.server.podOverrides.volumes[].flexVolume: object
spec.server.podOverrides.volumes[].flocker: object
spec.server.podOverrides.volumes[].gcePersistentDisk: object
spec.server.podOverrides.volumes[].gitRepo: object
spec.server.podOverrides.volumes[].glusterfs: object
spec.server.podOverrides.volumes[].hostPath: object
spec.server.podOverrides.volumes[].image: object
spec.server.podOverrides.volumes[].iscsi: object
spec.server.podOverrides.volumes[].name: string required
spec.server.podOverrides.volumes[].nfs: object
spec.server.podOverrides.volumes[].persistentVolumeClaim: object
spec.server.podOverrides.volumes[].photonPersistentDisk: object
spec.server.podOverrides.volumes[].portworxVolume: object
spec.server.podOverrides.volumes[].projected: object
spec.server.podOverrides.volumes[].quobyte: object
spec.server.podOverrides.volumes[].rbd: object
spec.server.podOverrides.volumes[].scaleIO: object
spec.server.podOverrides.volumes[].secret: object
spec.server.podOverrides.volumes[].storageos: object
spec.server.podOverrides.volumes[].vsphereVolume: object
spec.server.storage: object
spec.server.storage.mountPath: string
spec.server.storage.size: int-or-string pattern
spec.server.tlsConfig: object
spec.server.tlsConfig.caBundle: object
spec.server.tlsConfig.caBundle.configMapKeys: array maxItems=50
spec.server.tlsConfig.caBundle.configMapKeys[]: string
spec.server.tlsConfig.caBundle.configMapName: string required
spec.server.tlsConfig.caBundle.configMapNamespace: string
spec.server.topologySpreadConstraints: array
spec.server.topologySpreadConstraints[]: object
spec.server.topologySpreadConstraints[].labelSelector: object
spec.server.topologySpreadConstraints[].labelSelector.matchExpressions: array
spec.server.topologySpreadConstraints[].labelSelector.matchExpressions[]: object
spec.server.topologySpreadConstraints[].labelSelector.matchExpressions[].key: string required
spec.server.topologySpreadConstraints[].labelSelector.matchExpressions[].operator: string required
spec.server.topologySpreadConstraints[].labelSelector.matchExpressions[].values: array
spec.server.topologySpreadConstraints[].labelSelector.matchExpressions[].values[]: string
spec.server.topologySpreadConstraints[].labelSelector.matchLabels: object
spec.server.topologySpreadConstraints[].labelSelector.matchLabels{}: string
spec.server.topologySpreadConstraints[].matchLabelKeys: array
spec.server.topologySpreadConstraints[].matchLabelKeys[]: string
spec.server.topologySpreadConstraints[].maxSkew: integer required
spec.server.topologySpreadConstraints[].minDomains: integer
spec.server.topologySpreadConstraints[].nodeAffinityPolicy: string
spec.server.topologySpreadConstraints[].nodeTaintsPolicy: string
spec.server.topologySpreadConstraints[].topologyKey: string required
spec.server.topologySpreadConstraints[].whenUnsatisfiable: string required
spec.server.userConfig: object
spec.server.userConfig.configMapName: string required
spec.server.userConfig.configMapNamespace: string
spec.server.workers: integer minimum=1
`;

  type Json = {
    type?: string;
    properties?: Record<string, Json>;
    required?: string[];
    items?: Json;
    additionalProperties?: Json | boolean;
    anyOf?: Json[];
    default?: unknown;
    minimum?: number;
    maximum?: number;
    maxItems?: number;
    minItems?: number;
    pattern?: string;
  };
  /** Integer bounds that only say "int32" or "a safe integer", which the CRD says with `format`. */
  const formatBounds = new Set([-2147483648, 2147483647, -9007199254740991, 9007199254740991]);

  function inventory(node: Json, path: string, required: boolean, out: string[]): void {
    const intOrString = node.anyOf?.length === 2 && node.anyOf.some((o) => o.type === 'integer') && node.anyOf.some((o) => o.type === 'string');
    const attrs = [intOrString ? 'int-or-string' : String(node.type)];
    if (required) attrs.push('required');
    if (node.default !== undefined) attrs.push(`default=${JSON.stringify(node.default)}`);
    if (node.minimum !== undefined && !formatBounds.has(node.minimum)) attrs.push(`minimum=${node.minimum}`);
    if (node.maximum !== undefined && !formatBounds.has(node.maximum)) attrs.push(`maximum=${node.maximum}`);
    if (node.maxItems !== undefined) attrs.push(`maxItems=${node.maxItems}`);
    if (node.minItems !== undefined) attrs.push(`minItems=${node.minItems}`);
    if (node.pattern !== undefined || node.anyOf?.some((o) => o.pattern !== undefined)) attrs.push('pattern');
    out.push(`${path}: ${attrs.join(' ')}`);
    if (/\.volumes\[\]\.(?!name$)[^.]+$/.test(path)) return;
    for (const [key, child] of Object.entries(node.properties ?? {})) inventory(child, `${path}.${key}`, node.required?.includes(key) ?? false, out);
    if (node.items) inventory(node.items, `${path}[]`, false, out);
    if (typeof node.additionalProperties === 'object') inventory(node.additionalProperties, `${path}{}`, false, out);
  }

  it('has exactly the fields, types, required fields, defaults and bounds of the CRD', () => {
    const out: string[] = [];
    inventory(z.toJSONSchema(specV1alpha1Schema, { io: 'input' }) as Json, 'spec', true, out);
    const expected = crdInventory.trim().split('\n');
    expect(out.sort()).toEqual(expected.sort());
  });
});

// Issue 29 follow-up (num lane): a record edited by hand came back into the converted object unchecked.
describe('a conversion record with fields the target version does not have', () => {
  const record = (data: Plain): Plain => ({ name: 'demo', namespace: 'ai', annotations: { [conversionAnnotation]: JSON.stringify(data) } });
  const edited = v1(
    { server: { distribution: { name: 'starter' } } },
    record({
      apiVersion: 'llamastack.io/v1alpha2',
      spec: {
        x: 1,
        providers: { inference: { provider: 'vllm', endpoint: 'http://vllm:8000/v1', bogus: true } },
        resources: { models: ['m1'] },
      },
      metadata: { annotations: { note: 'kept', n: 5 } },
    }),
  );

  it('drops each unknown field (and a non-text annotation) with a conversion-data-dropped warning, and keeps the rest', () => {
    const { object, problems } = toV1alpha2(edited);
    expect(object.spec).toEqual({
      distribution: { name: 'starter' },
      providers: { inference: { provider: 'vllm', endpoint: 'http://vllm:8000/v1' } },
      resources: { models: ['m1'] },
    });
    expect((object.metadata as Plain).annotations).toEqual({ note: 'kept' });
    expect(llsdSchema.safeParse(object).success).toBe(true);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ severity: 'warning', code: 'conversion-data-dropped', path: ['metadata', 'annotations', conversionAnnotation] });
    expect(problems[0]?.message).toMatch(
      /^held fields that llamastack\.io\/v1alpha2 does not accept, .*: dropped `spec\.providers\.inference\.bogus` \(is not a known field; .*\); `spec\.x` \(is not a known field; .*\); `metadata\.annotations\.n` \(must be a string, not number\)\. /,
    );
  });

  it('the same down: an unknown v1alpha1 field in a v1alpha2 object\'s record is dropped', () => {
    const object = v2(
      { distribution: { name: 'starter' } },
      record({ apiVersion: 'llamastack.io/v1alpha1', spec: { server: { containerSpec: { port: 0, extra: 'x' } } } }),
    );
    const { object: converted, problems } = toV1alpha1(object);
    expect(converted.spec).toEqual({ server: { distribution: { name: 'starter' }, containerSpec: { port: 0 } } });
    expect(problems.map((p) => p.code)).toEqual(['conversion-data-dropped']);
    expect(problems[0]?.message).toContain('dropped `spec.server.containerSpec.extra` (is not a known field');
  });
});
