// Bad LLSDs (fixtures/bad/*.yaml) and what a user must be told about each: the field path, words
// that say what to write, and the line of the offending field (found by a marker in the fixture).

export interface ExpectedError {
  /** `field.path` of the error result. */
  path: string;
  /** Every pattern must match the message. */
  message: RegExp[];
  /** Text on the line the error points at (`build` mode), and which occurrence of it. */
  lineMarker: string;
  occurrence?: number;
}

export interface BadLlsdCase {
  title: string;
  fixture: string;
  name: string;
  namespace: string;
  errors: ExpectedError[];
}

/** LLSD errors: each gives exactly these error results and nothing else of severity error. */
export const badLlsdCases: BadLlsdCase[] = [
  {
    title: 'an LLSD without spec',
    fixture: 'bad/no-spec.yaml',
    name: 'no-spec',
    namespace: 'llama',
    errors: [{ path: 'spec', message: [/required/, /distribution: \{name: starter\}/], lineMarker: 'apiVersion:' }],
  },
  {
    title: 'an LLSD without spec.distribution',
    fixture: 'bad/no-distribution.yaml',
    name: 'no-distribution',
    namespace: 'llama',
    errors: [{ path: 'spec.distribution', message: [/required/, /`spec\.distribution\.name`/, /starter/], lineMarker: 'spec:' }],
  },
  {
    title: 'an unknown distribution name',
    fixture: 'bad/unknown-distribution.yaml',
    name: 'unknown-distribution',
    namespace: 'llama',
    errors: [
      {
        path: 'spec.distribution.name',
        message: [/unknown distribution "startr"/, /Did you mean "starter"\?/],
        lineMarker: 'name: startr',
      },
    ],
  },
  {
    title: 'two inference providers without ids',
    fixture: 'bad/inference-without-ids.yaml',
    name: 'inference-without-ids',
    namespace: 'llama',
    errors: [
      {
        path: 'spec.providers.inference[0].id',
        message: [/required/, /unique `id`/, /id: vllm-1/],
        lineMarker: '- provider: vllm',
      },
      {
        path: 'spec.providers.inference[1].id',
        message: [/required/, /unique `id`/, /id: ollama-2/],
        lineMarker: '- provider: ollama',
      },
    ],
  },
  {
    title: 'a misspelled field',
    fixture: 'bad/misspelled-field.yaml',
    name: 'misspelled-field',
    namespace: 'llama',
    errors: [{ path: 'spec.provders', message: [/not a known field/, /did you mean `providers`\?/], lineMarker: 'provders:' }],
  },
  {
    title: 'an unknown provider type',
    fixture: 'bad/unknown-provider.yaml',
    name: 'unknown-provider',
    namespace: 'llama',
    errors: [
      {
        path: 'spec.providers.inference.provider',
        message: [/"vlm" is not an inference provider/, /Did you mean "vllm"\?/],
        lineMarker: 'provider: vlm',
      },
    ],
  },
  {
    title: 'a model naming an unknown provider id',
    fixture: 'bad/model-unknown-provider.yaml',
    name: 'model-unknown-provider',
    namespace: 'llama',
    errors: [
      {
        path: 'spec.resources.models[0].provider',
        message: [/"vllm-typo"/, /use one of: .*\bvllm\b/],
        lineMarker: 'provider: vllm-typo',
      },
    ],
  },
  {
    // Object.prototype members must not be taken for catalog entries.
    title: 'a distribution named like an Object.prototype member (toString)',
    fixture: 'bad/distribution-named-tostring.yaml',
    name: 'distribution-named-tostring',
    namespace: 'llama',
    errors: [
      {
        path: 'spec.distribution.name',
        message: [/unknown distribution "toString"/, /starter/],
        lineMarker: 'name: toString',
      },
    ],
  },
  {
    // `contextLength` must be positive: the message must not claim that 0 is allowed.
    title: 'a model with contextLength 0',
    fixture: 'bad/context-length-zero.yaml',
    name: 'context-length-zero',
    namespace: 'llama',
    errors: [
      {
        path: 'spec.resources.models[0].contextLength',
        message: [/^(?!.*at least 0\b).*(greater than 0|at least 1|positive)/],
        lineMarker: 'contextLength: 0',
      },
    ],
  },
];
