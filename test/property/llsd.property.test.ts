// Property tests of the whole render over generated v1alpha2 LLSDs (issue 3): valid LLSDs render
// without errors, deterministically and idempotently, never leak a Secret value and never throw;
// one invalidating mutation of a valid LLSD always gives an error result at the mutated field.
import { isRenderedObject } from '../../src/front-ends.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { readResourceList, writeResourceList, writeStream } from '../../src/krm/resource-list.js';
import { process as render } from '../../src/process.js';
import { schemaProblem } from '../kubernetes-models.js';
import { apis, providerKinds, unrelatedObjects, validLlsd, type Api, type GeneratedLlsd } from './arbitraries.js';
import { errorsOf, generated, numRuns, renderBuild, renderKrm, resourceList, shuffledKeys, streamOf } from './render.js';

const inputOf = (g: GeneratedLlsd): object[] => [g.llsd, ...g.secrets];

describe('valid LLSDs', () => {
  it('render with no error result, with one summary and the generated objects', () => {
    fc.assert(
      fc.property(validLlsd(), (g) => {
        const { items, results } = renderBuild(inputOf(g));
        expect(errorsOf(results), stringify(g.llsd)).toEqual([]);
        expect(results.filter((r) => r.severity === 'info' && r.message.startsWith('generated config.yaml'))).toHaveLength(1);
        const kinds = generated(items).map((o) => o.kind);
        expect(kinds).toEqual(expect.arrayContaining(['ConfigMap', 'Deployment', 'Service']));
        // Every object is valid for its kind (the Kubernetes OpenAPI schemas).
        for (const object of generated(items)) expect(schemaProblem(object), `${object.kind}/${object.metadata.name}\n${stringify(g.llsd)}`).toBeUndefined();
      }),
      { numRuns },
    );
  });

  it('render the same bytes every time, whatever the order of the input items', () => {
    const input = fc.tuple(validLlsd(), unrelatedObjects).chain(([g, unrelated]) => {
      const ordered: object[] = [...inputOf(g), ...unrelated];
      return fc.shuffledSubarray(ordered, { minLength: ordered.length, maxLength: ordered.length }).map((shuffled) => ({ ordered, shuffled }));
    });
    fc.assert(
      fc.property(input, ({ ordered, shuffled }) => {
        const first = renderBuild(ordered);
        const again = renderBuild(ordered);
        expect(writeStream(again.items)).toBe(writeStream(first.items));
        expect(again.results).toEqual(first.results);
        const reordered = renderBuild(shuffled);
        expect(errorsOf(reordered.results)).toEqual([]);
        expect(streamOf(generated(reordered.items))).toBe(streamOf(generated(first.items)));
      }),
      { numRuns },
    );
  });

  it("render the same bytes whatever the key order of the LLSD's mappings (a reformat must not roll the pods)", () => {
    const input = validLlsd().chain((g) => shuffledKeys(g.llsd).map((shuffled) => ({ g, shuffled: shuffled as Record<string, any> })));
    fc.assert(
      fc.property(input, ({ g, shuffled }) => {
        const first = renderBuild(inputOf(g));
        const reordered = renderBuild([shuffled, ...g.secrets]);
        expect(errorsOf(reordered.results)).toEqual([]);
        expect(writeStream(reordered.items)).toBe(writeStream(first.items));
        expect(reordered.results).toEqual(first.results);
      }),
      { numRuns },
    );
  });

  it('are idempotent in KRM mode: rendering the output again changes nothing', () => {
    fc.assert(
      fc.property(validLlsd({ kptPath: true }), unrelatedObjects, (g, unrelated) => {
        const first = renderKrm(resourceList([...inputOf(g), ...unrelated]));
        expect(errorsOf(first.results)).toEqual([]);
        const second = renderKrm(first.text);
        expect(errorsOf(second.results)).toEqual([]);
        expect(second.text).toBe(first.text);
      }),
      { numRuns },
    );
  });

  it('never put a Secret value into a generated object or a result', () => {
    fc.assert(
      fc.property(validLlsd(), (g) => {
        const build = renderBuild(inputOf(g));
        const krm = renderKrm(resourceList(inputOf(g)));
        const generatedText = streamOf(generated(build.items)) + streamOf(generated(readResourceList(krm.text, isRenderedObject).items.map((i) => i.object)));
        const messages = [...build.results, ...krm.results].map((r) => JSON.stringify(r)).join('\n');
        for (const value of g.secretValues) {
          expect(generatedText).not.toContain(value);
          expect(messages).not.toContain(value);
        }
      }),
      { numRuns },
    );
  });
});

/** One way to make a valid LLSD invalid, and the field path the error must name. */
interface Mutation {
  name: string;
  apply: (llsd: Record<string, any>) => void;
  path: RegExp;
}

const providersOf = (llsd: Record<string, any>): Record<string, any> => (llsd.spec.providers ??= {});
/** The first provider entry of the LLSD (adding one when there is none), with its path. */
function firstProvider(llsd: Record<string, any>): Record<string, any> {
  const providers = providersOf(llsd);
  for (const api of apis) {
    const value = providers[api];
    if (value !== undefined) return Array.isArray(value) ? value[0] : value;
  }
  providers.inference = { provider: 'openai' };
  return providers.inference;
}
const modelsOf = (llsd: Record<string, any>): unknown[] => ((llsd.spec.resources ??= {}).models ??= []);
const providerPath = String.raw`spec\.providers\.(${apis.join('|')})(\[\d+\])?`;

const mutations: Mutation[] = [
  { name: 'unknown spec field', apply: (l) => (l.spec.resorces = {}), path: /^spec\.resorces$/ },
  { name: 'unknown provider field', apply: (l) => (firstProvider(l).endpiont = 'http://x:1/v1'), path: new RegExp(`^${providerPath}\\.endpiont$`) },
  { name: 'string for a number', apply: (l) => (l.spec.networking = { port: 'eighty' }), path: /^spec\.networking\.port$/ },
  { name: 'list for a mapping', apply: (l) => (l.spec.networking = [{ port: 80 }]), path: /^spec\.networking$/ },
  { name: 'negative replicas', apply: (l) => ((l.spec.workload ??= {}).replicas = -2), path: /^spec\.workload\.replicas$/ },
  {
    name: 'two providers of an API without ids',
    apply: (l) => (providersOf(l).safety = [{ provider: 'llama-guard' }, { provider: 'code-scanner' }]),
    path: /^spec\.providers\.safety\[[01]\]\.id$/,
  },
  {
    name: 'duplicate ids within an API',
    apply: (l) =>
      (providersOf(l).toolRuntime = [
        { id: 'twin', provider: 'brave-search' },
        { id: 'twin', provider: 'tavily-search' },
      ]),
    path: /^spec\.providers\.toolRuntime\[1\]\.id$/,
  },
  {
    name: 'duplicate ids across APIs',
    apply: (l) => {
      const providers = providersOf(l);
      const taken = apis.find((api) => providers[api] !== undefined);
      const first = firstProvider(l);
      first.id = 'same-id';
      const other = apis.find((api) => api !== (taken ?? 'inference')) as Api;
      providers[other] = { id: 'same-id', provider: providerKinds[other][0].provider };
    },
    path: new RegExp(`^${providerPath}\\.id$`),
  },
  { name: 'unknown provider type', apply: (l) => (firstProvider(l).provider = 'no-such-provider'), path: new RegExp(`^${providerPath}\\.provider$`) },
  { name: 'apiKey as a literal', apply: (l) => (firstProvider(l).apiKey = 'sk-literal-0123456789'), path: new RegExp(`^${providerPath}\\.apiKey$`) },
  {
    name: 'a credential as a value in settings',
    apply: (l) => (firstProvider(l).settings = { ...firstProvider(l).settings, api_key: 'sk-literal-0123456789' }),
    path: new RegExp(`^${providerPath}\\.settings\\.api_key$`),
  },
  {
    name: 'a password in the endpoint URL',
    apply: (l) => (firstProvider(l).endpoint = 'http://user:pw-0123456789@x.svc:1/v1'),
    path: new RegExp(`^${providerPath}\\.endpoint$`),
  },
  {
    name: 'secretKeyRef without key',
    apply: (l) => (firstProvider(l).apiKey = { secretKeyRef: { name: 'creds' } }),
    path: new RegExp(`^${providerPath}\\.apiKey\\.secretKeyRef\\.key$`),
  },
  { name: 'an empty provider list', apply: (l) => (providersOf(l).vectorIo = []), path: /^spec\.providers\.vectorIo$/ },
  {
    name: 'a model naming an unknown provider',
    apply: (l) => modelsOf(l).push({ name: 'orphan-model', provider: 'no-such-id' }),
    path: /^spec\.resources\.models\[\d+\]\.provider$/,
  },
  {
    name: 'contextLength 0',
    apply: (l) => modelsOf(l).push({ name: 'ctx-zero', provider: 'openai', contextLength: 0 }),
    path: /^spec\.resources\.models\[\d+\]\.contextLength$/,
  },
  {
    name: 'an unknown modelType',
    apply: (l) => modelsOf(l).push({ name: 'typed', provider: 'openai', modelType: 'chat' }),
    path: /^spec\.resources\.models\[\d+\]\.modelType$/,
  },
  {
    name: 'an embedding model without dimension',
    apply: (l) => modelsOf(l).push({ name: 'embed', provider: 'openai', modelType: 'embedding' }),
    path: /^spec\.resources\.models\[\d+\]\.embeddingDimension$/,
  },
  { name: 'metadata.name not a DNS label', apply: (l) => (l.metadata.name = 'Bad_Name'), path: /^metadata\.name$/ },
  { name: 'an unknown distribution', apply: (l) => (l.spec.distribution = { name: 'startr' }), path: /^spec\.distribution\.name$/ },
  { name: 'distribution name and image', apply: (l) => (l.spec.distribution.image = 'x/y:1'), path: /^spec\.distribution$/ },
  { name: 'an unknown disabled API', apply: (l) => (l.spec.disabled = ['inferance']), path: /^spec\.disabled\[0\]$/ },
  {
    name: 'a quantity that is not one',
    apply: (l) => ((l.spec.workload ??= {}).resources = { limits: { memory: '4 GB' } }),
    path: /^spec\.workload\.resources\.limits\.memory$/,
  },
];

describe('invalid LLSDs', () => {
  it('one invalidating mutation gives an error at the mutated field, and no exception', () => {
    fc.assert(
      fc.property(validLlsd(), fc.constantFrom(...mutations), (g, mutation) => {
        const llsd = structuredClone(g.llsd);
        mutation.apply(llsd);
        const { items, results } = renderBuild([llsd, ...g.secrets]);
        const errors = errorsOf(results);
        expect(items).toEqual([]);
        expect(
          errors.some((e) => e.field !== undefined && mutation.path.test(e.field.path)),
          `${mutation.name}: ${JSON.stringify(errors.map((e) => [e.field?.path, e.message]))}\n${stringify(llsd)}`,
        ).toBe(true);
        for (const value of g.secretValues) expect(JSON.stringify(results)).not.toContain(value);
      }),
      { numRuns: numRuns * 2 },
    );
  });

  it('every mutation is exercised', () => {
    // The list above is data: make sure a typo in a regex does not leave a mutation untested.
    for (const mutation of mutations) {
      const g = fc.sample(validLlsd(), { numRuns: 1, seed: 42 })[0] as GeneratedLlsd;
      const llsd = structuredClone(g.llsd);
      mutation.apply(llsd);
      const errors = errorsOf(renderBuild([llsd, ...g.secrets]).results);
      expect(errors.some((e) => e.field !== undefined && mutation.path.test(e.field.path)), mutation.name).toBe(true);
    }
  });
});

/** Any JSON value, a few levels deep, with the keys an LLSD has mixed in so that some land on real fields. */
const anyValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(null, true, false, 0, -1, 1.5, 65536, '', ' ', 'starter', '0.7.1', '${env.X}', '__proto__', 'constructor', 'a'.repeat(300)),
    fc.string(),
    fc.integer(),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(
      fc.constantFrom('name', 'image', 'provider', 'id', 'endpoint', 'settings', 'secretKeyRef', 'key', 'constructor', 'prototype', 'toString', 'x'),
      tie('value'),
      { maxKeys: 3 },
    ),
  ),
})).value;

/** Every object path of `value`, for putting garbage at a random place. */
function pathsOf(value: unknown, path: Array<string | number> = []): Array<Array<string | number>> {
  if (Array.isArray(value)) return [path, ...value.flatMap((v, i) => pathsOf(v, [...path, i]))];
  if (value !== null && typeof value === 'object') return [path, ...Object.entries(value).flatMap(([k, v]) => pathsOf(v, [...path, k]))];
  return [path];
}

describe('fuzzing: arbitrary values anywhere in an LLSD, arbitrary text on stdin', () => {
  it('never throw: the render gives objects or error results with a field path', () => {
    fc.assert(
      fc.property(validLlsd(), fc.nat(), anyValue, (g, pick, garbage) => {
        const llsd = structuredClone(g.llsd) as Record<string, unknown>;
        const paths = pathsOf(llsd.spec, ['spec']).filter((p) => p.length > 1);
        const path = paths[pick % paths.length] as Array<string | number>;
        let parent: Record<string | number, unknown> = llsd;
        for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
        parent[path[path.length - 1] as string | number] = garbage;
        const { items, results } = renderBuild([llsd, ...g.secrets]);
        const errors = errorsOf(results);
        if (errors.length > 0) {
          expect(items).toEqual([]);
          for (const e of errors) expect(e.message.length).toBeGreaterThan(0);
        } else for (const object of generated(items)) expect(schemaProblem(object), `${object.kind}\n${stringify(llsd)}`).toBeUndefined();
        for (const value of g.secretValues) expect(JSON.stringify(results)).not.toContain(value);
      }),
      { numRuns: numRuns * 4 },
    );
  });

  it('never throw on any text in KRM mode: a ResourceList out, errors as results', () => {
    const text = fc.oneof(
      fc.string({ maxLength: 400 }),
      fc.string({ unit: 'binary', maxLength: 400 }),
      anyValue.map((v) => stringify({ apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList', items: [v] })),
      anyValue.map((v) =>
        stringify({
          apiVersion: 'config.kubernetes.io/v1',
          kind: 'ResourceList',
          items: [{ apiVersion: 'llamastack.io/v1alpha2', kind: 'LlamaStackDistribution', metadata: { name: 'x' }, spec: v }],
        }),
      ),
    );
    fc.assert(
      fc.property(text, (input) => {
        const list = readResourceList(input, isRenderedObject);
        const output = list.results.length > 0 ? { items: [], results: list.results } : render({ mode: 'krm', items: list.items });
        expect(() => writeResourceList(output.items, output.results)).not.toThrow();
      }),
      { numRuns: numRuns * 4 },
    );
  });
});
