import { describe, expect, it } from 'vitest';
import { parseLlsd } from '../../src/llsd/llsd.js';
import { itemFrom, llsdYaml } from '../support.js';

const parse = (spec: string) => parseLlsd(itemFrom(llsdYaml(spec)).object);
const problemsOf = (spec: string) => {
  const parsed = parse(spec);
  expect(parsed.ok).toBe(false);
  return parsed.problems.map((p) => ({ path: p.path.join('.'), message: p.message }));
};

describe('normalisation', () => {
  it('a single provider becomes a list entry whose id is its provider name (FR-035)', () => {
    const parsed = parse('distribution: {name: starter}\nproviders:\n  inference: {provider: vllm, endpoint: "http://v:8000"}');
    expect(parsed.ok && parsed.llsd.providers).toEqual([
      { provider: 'vllm', endpoint: 'http://v:8000', id: 'vllm', api: 'inference', path: ['spec', 'providers', 'inference'] },
    ]);
  });

  it('a list keeps order and explicit ids; a one-entry list may omit the id', () => {
    const parsed = parse(
      'distribution: {name: starter}\nproviders:\n  inference:\n    - {id: a, provider: vllm}\n    - {id: b, provider: ollama}\n  safety: [{provider: ' +
        'llama-guard}]',
    );
    expect(parsed.ok && parsed.llsd.providers.map((p) => [p.api, p.id, p.path.join('.')])).toEqual([
      ['inference', 'a', 'spec.providers.inference.0'],
      ['inference', 'b', 'spec.providers.inference.1'],
      ['safety', 'llama-guard', 'spec.providers.safety.0'],
    ]);
  });

  it('models as strings or objects become one shape', () => {
    const parsed = parse('distribution: {name: starter}\nresources:\n  models: [m1, {name: m2, provider: p, contextLength: 8192}]');
    expect(parsed.ok && parsed.llsd.models).toEqual([
      { name: 'm1', path: ['spec', 'resources', 'models', 0] },
      { name: 'm2', provider: 'p', contextLength: 8192, path: ['spec', 'resources', 'models', 1] },
    ]);
  });
});

describe('validation', () => {
  it('a missing spec.distribution says what to write', () => {
    expect(problemsOf('providers: {}')).toEqual([
      { path: 'spec.distribution', message: 'is required: set `spec.distribution.name` (for example `starter`) or `spec.distribution.image`' },
    ]);
  });

  it('a missing spec is reported at `spec`', () => {
    const parsed = parseLlsd({ apiVersion: 'llamastack.io/v1alpha2', kind: 'LlamaStackDistribution', metadata: { name: 'x' } });
    expect(parsed.problems.map((p) => p.path.join('.'))).toEqual(['spec']);
    expect(parsed.problems[0]?.message).toMatch(/^is required: add a `spec`/);
  });

  it('distribution needs exactly one of name and image', () => {
    expect(problemsOf('distribution: {}')).toEqual([
      { path: 'spec.distribution', message: 'must set `name` (a named distribution such as `starter`) or `image` (a distribution image)' },
    ]);
    expect(problemsOf('distribution: {name: starter, image: "x:1"}')[0]?.message).toMatch(/only one of `name` and `image`/);
  });

  it('two providers without ids: each missing id is an error at its own path (FR-034)', () => {
    expect(problemsOf('distribution: {name: starter}\nproviders:\n  inference: [{provider: vllm}, {provider: ollama}]').map((p) => p.path)).toEqual([
      'spec.providers.inference.0.id',
      'spec.providers.inference.1.id',
    ]);
  });

  it('provider ids are unique across all APIs (FR-072)', () => {
    const problems = problemsOf(
      'distribution: {name: starter}\nproviders:\n  inference: {id: shared, provider: vllm}\n  safety: {id: shared, provider: llama-guard}',
    );
    expect(problems).toEqual([
      {
        path: 'spec.providers.safety.id',
        message: 'duplicates the provider id "shared" of `spec.providers.inference`; provider ids must be unique across all APIs',
      },
    ]);
  });

  it('unknown fields get a did-you-mean', () => {
    expect(problemsOf('distribution: {name: starter}\nprovders: {}')).toEqual([
      { path: 'spec.provders', message: 'is not a known field; did you mean `providers`?' },
    ]);
    expect(problemsOf('distribution: {name: starter}\nproviders:\n  inference: {provider: vllm, endpiont: "http://x"}')).toEqual([
      { path: 'spec.providers.inference.endpiont', message: 'is not a known field; did you mean `endpoint`?' },
    ]);
  });

  it('a wrong type names the expected shape, never the value', () => {
    expect(problemsOf('distribution: {name: starter}\nworkload: {replicas: "two"}')).toEqual([
      { path: 'spec.workload.replicas', message: 'must be a number, not a string' },
    ]);
  });

  it('metadata.name must be a DNS label', () => {
    const parsed = parseLlsd(itemFrom(llsdYaml('distribution: {name: starter}', 'name: Not_A_Label')).object);
    expect(parsed.problems.map((p) => [p.path.join('.'), p.message])).toEqual([
      ['metadata.name', 'must be a DNS label: lower-case letters, digits and "-", starting and ending with a letter or digit'],
    ]);
  });

  it('replicas and the other Kubernetes int32 counts stop at 2147483647, which the API server takes (an outside probe: 2147483648 rendered)', () => {
    const big = 2_147_483_648;
    const problems = problemsOf(
      `distribution: {name: starter}\nworkload:\n  replicas: ${big}\n  autoscaling: {minReplicas: ${big}, maxReplicas: ${big}}\n` +
        `  podDisruptionBudget: {maxUnavailable: ${big}}`,
    );
    expect(problems.map((p) => p.path).sort()).toEqual(
      [
        'spec.workload.autoscaling.maxReplicas',
        'spec.workload.autoscaling.minReplicas',
        'spec.workload.podDisruptionBudget.maxUnavailable',
        'spec.workload.replicas',
      ].sort(),
    );
    expect(problems.find((p) => p.path === 'spec.workload.replicas')?.message).toContain('2147483647');
    expect(parse('distribution: {name: starter}\nworkload: {replicas: 2147483647}').ok).toBe(true);
  });
});
