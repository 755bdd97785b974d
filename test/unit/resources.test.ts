// spec.resources → registered models, shields and tool groups, per layout and release (docs/config-generation.md;
// notes §1.5, §1.7).
import { describe, expect, it } from 'vitest';
import { base02, base03, configOf, generate, inlinePlan, problemLines, profile02, profile03, profile04, starterPlan } from './plan-fixtures.js';
import { registerModels } from '../../src/llsd/resources.js';

const starter = (spec: string) => generate(starterPlan(`distribution: {name: starter}\n${spec}`));
const old = (spec: string) => generate(inlinePlan(`distribution: {name: x}\n${spec}`, '0.2.24', profile02(), base02));
const v03 = (spec: string) => generate(inlinePlan(`distribution: {name: x}\n${spec}`, '0.3.5', profile03(), base03));

describe('models', () => {
  it('embedding models carry metadata.embedding_dimension (0.3.0+: registered_resources.models)', () => {
    const config = configOf(
      starter(
        'providers:\n  inference: {provider: ollama, endpoint: "http://o:11434/v1"}\nresources:\n  models: [{name: nomic-embed-text, modelType: embedding, ' +
          'embeddingDimension: 768}]',
      ),
    );
    expect(config.registered_resources.models).toEqual([
      {
        model_id: 'nomic-embed-text',
        provider_id: 'ollama',
        provider_model_id: 'nomic-embed-text',
        model_type: 'embedding',
        metadata: { embedding_dimension: 768 },
      },
    ]);
    expect(config.models).toBeUndefined();
  });

  it('≤ 0.2: the top-level models list, after the base entries a CR model does not replace', () => {
    const config = configOf(
      old(
        'resources:\n  models: [{name: all-MiniLM-L6-v2, provider: sentence-transformers, modelType: embedding, embeddingDimension: 384}, {name: m, ' +
          'provider: vllm-inference, contextLength: 8192}]',
      ),
    );
    expect(config.models).toEqual([
      { metadata: {}, model_id: '${env.INFERENCE_MODEL}', provider_id: 'vllm-inference', model_type: 'llm' },
      {
        model_id: 'all-MiniLM-L6-v2',
        provider_id: 'sentence-transformers',
        provider_model_id: 'all-MiniLM-L6-v2',
        model_type: 'embedding',
        metadata: { embedding_dimension: 384 },
      },
      { model_id: 'm', provider_id: 'vllm-inference', provider_model_id: 'm', model_type: 'llm', metadata: { context_length: 8192 } },
    ]);
    expect(config.registered_resources).toBeUndefined();
  });
});

describe('shields', () => {
  const guard =
    'providers:\n  inference: {provider: vllm, endpoint: "http://v/v1"}\n  safety: {provider: llama-guard}\nresources:\n  models: ' +
      '[meta-llama/Llama-Guard-3-8B]\n  shields: [meta-llama/Llama-Guard-3-8B]';

  it("llama-guard: the shield is named after its guard model; provider_shield_id is the model's id (0.3.0+: provider_id/model_id)", () => {
    const outcome = starter(guard);
    const config = configOf(outcome);
    expect(config.registered_resources.shields.at(-1)).toEqual({
      shield_id: 'meta-llama/Llama-Guard-3-8B',
      provider_id: 'llama-guard',
      provider_shield_id: 'vllm/meta-llama/Llama-Guard-3-8B',
    });
    // starter's default names its shield switched on by SAFETY_MODEL: moved to ours, and said so.
    expect(config.safety).toEqual({ default_shield_id: 'meta-llama/Llama-Guard-3-8B' });
    expect(problemLines(outcome)).toEqual([
      'info spec.resources.shields.0: set safety.default_shield_id to "meta-llama/Llama-Guard-3-8B": the distribution\'s default "llama-guard" is not a ' +
        'shield the server will certainly register, and a default that names no registered shield stops the server',
    ]);
  });

  it('≤ 0.2: top-level shields, provider_shield_id the model_id', () => {
    const config = configOf(
      old('resources:\n  models: [{name: meta-llama/Llama-Guard-3-8B, provider: vllm-inference}]\n  shields: [meta-llama/Llama-Guard-3-8B]'),
    );
    expect(config.shields.at(-1)).toEqual({
      shield_id: 'meta-llama/Llama-Guard-3-8B',
      provider_id: 'llama-guard',
      provider_shield_id: 'meta-llama/Llama-Guard-3-8B',
    });
    expect(config.safety).toBeUndefined();
  });

  it('llama-guard with a shield that names no registered model is an error saying how to name the guard model', () => {
    const outcome = starter('providers:\n  safety: {provider: llama-guard}\nresources:\n  shields: [llama-guard]');
    expect(problemLines(outcome)).toEqual([
      'error spec.resources.shields.0: names no registered model: the safety provider "llama-guard" (inline::llama-guard) runs each shield\'s guard model ' +
        'through inference, so register the guard model under the shield\'s name in `spec.resources.models`, for example `models: [{name: ' +
        'meta-llama/Llama-Guard-3-8B, provider: <inference provider id>}]` and `shields: [meta-llama/Llama-Guard-3-8B]`',
    ]);
  });

  it("other safety providers run the shield by its own name; a CR shield replaces the base's of the same id", () => {
    const config = configOf(starter('providers:\n  safety: {provider: code-scanner}\nresources:\n  shields: [code-scanner]'));
    expect(config.registered_resources.shields).toEqual([
      { shield_id: 'llama-guard', provider_id: '${env.SAFETY_MODEL:+llama-guard}', provider_shield_id: '${env.SAFETY_MODEL:=}' },
      { shield_id: 'code-scanner', provider_id: 'code-scanner', provider_shield_id: 'code-scanner' },
    ]);
  });

  it("without a safety provider in the CR, the distribution's first enabled one, with an info result when it has several", () => {
    const outcome = starter('resources:\n  models: [{name: guard, provider: fireworks}]\n  shields: [guard]');
    expect(problemLines(outcome)).toEqual([
      'info spec.resources.shields: registered with the distribution\'s safety provider "llama-guard", the first of llama-guard, code-scanner; configure ' +
        '`spec.providers.safety` to choose another',
      'info spec.resources.shields.0: set safety.default_shield_id to "guard": the distribution\'s default "llama-guard" is not a shield the server will ' +
        'certainly register, and a default that names no registered shield stops the server',
    ]);
    expect(configOf(outcome).registered_resources.shields.at(-1)).toEqual({
      shield_id: 'guard',
      provider_id: 'llama-guard',
      provider_shield_id: 'fireworks/guard',
    });
  });

  it('no safety provider at all, or safety disabled: an error', () => {
    const base = base03.replace(/  safety:\n(?:  - .*\n|    .*\n)+/, '');
    expect(problemLines(generate(inlinePlan('distribution: {name: x}\nresources:\n  shields: [s]', '0.4.4', profile04(), base)))).toEqual([
      'error spec.resources.shields: needs a safety provider, and the distribution enables none: configure `spec.providers.safety`, for example `{provider: ' +
        'llama-guard}`',
    ]);
    expect(problemLines(starter('disabled: [safety]\nresources:\n  shields: [s]'))).toEqual([
      'error spec.resources.shields: cannot be registered because `spec.disabled` lists safety; remove safety from `disabled`, or remove the shields',
    ]);
  });
});

describe('tools', () => {
  it('0.7.0+ registers tool groups from the tool_runtime providers: nothing is written, but a provider must serve each tool', () => {
    const base = configOf(starter(''));
    const outcome = starter('resources:\n  tools: [websearch, rag, file_search]');
    expect(outcome.problems).toEqual([]);
    expect(configOf(outcome)).toEqual(base);
  });

  it('0.7.0+: a tool no enabled provider serves is an error saying what to configure', () => {
    expect(problemLines(starter('resources:\n  tools: [wolfram_alpha]'))).toEqual([
      'error spec.resources.tools.0: needs a tool_runtime provider that serves builtin::wolfram_alpha (wolfram-alpha), and the rendered config enables ' +
        'none: add one to `spec.providers.toolRuntime`, for example `{provider: wolfram-alpha, apiKey: {secretKeyRef: {name: <secret>, key: <key>}}}`',
    ]);
    expect(starter('providers:\n  toolRuntime: {provider: wolfram-alpha, apiKey: {name: w, key: k}}\nresources:\n  tools: [wolfram_alpha]').ok).toBe(true);
  });

  it('0.3.x: registered_resources.tool_groups with the serving provider, the CR one first; a CR group replaces the base one', () => {
    const config = configOf(v03('providers:\n  toolRuntime: {provider: brave-search, apiKey: {name: b, key: k}}\nresources:\n  tools: [websearch, rag]'));
    expect(config.registered_resources.tool_groups).toEqual([
      { toolgroup_id: 'builtin::websearch', provider_id: 'brave-search' },
      { toolgroup_id: 'builtin::rag', provider_id: 'rag-runtime' },
    ]);
  });

  it("≤ 0.2: top-level tool_groups; file_search is builtin::rag before 0.7.0; the base's entry for a group stays unless the CR configures its provider", () => {
    const kept = configOf(old('resources:\n  tools: [file_search, websearch]'));
    expect(kept.tool_groups).toEqual([
      { toolgroup_id: 'builtin::websearch', provider_id: 'tavily-search' },
      { toolgroup_id: 'builtin::rag', provider_id: 'rag-runtime' },
    ]);
    const ours = configOf(
      old(
        'providers:\n  toolRuntime: [{id: bing, provider: bing-search, apiKey: {name: b, key: k}}, {id: wolfram, provider: wolfram-alpha}]\nresources:\n  ' +
          'tools: [websearch, wolfram_alpha]',
      ),
    );
    expect(ours.tool_groups).toEqual([
      { toolgroup_id: 'builtin::rag', provider_id: 'rag-runtime' },
      { toolgroup_id: 'builtin::websearch', provider_id: 'bing' },
      { toolgroup_id: 'builtin::wolfram_alpha', provider_id: 'wolfram' },
    ]);
  });

  it('an unknown tool is an error with the likely one; tool_runtime disabled is an error', () => {
    expect(problemLines(starter('resources:\n  tools: [websurch]'))).toEqual([
      'error spec.resources.tools.0: "websurch" is not a built-in tool group. Did you mean "websearch"? Known tools: websearch, rag, wolfram_alpha',
    ]);
    expect(problemLines(old('disabled: [toolRuntime, agents]\nresources:\n  tools: [websearch]'))).toEqual([
      'error spec.resources.tools: cannot be registered because `spec.disabled` lists tool_runtime; remove tool_runtime from `disabled`, or remove the tools',
    ]);
  });
});

describe('a model naming a provider that is not enabled (issue 18)', () => {
  it('lists the CR\'s own provider ids first and suggests the nearest', () => {
    const problems: Parameters<typeof registerModels>[3] = [];
    registerModels([{ name: 'm', provider: 'my-vlm', path: ['spec', 'resources', 'models', 0] }], 'my-vllm', ['fireworks', 'together', 'my-vllm'], problems, [
      'my-vllm',
    ]);
    expect(problems).toEqual([
      {
        path: ['spec', 'resources', 'models', 0, 'provider'],
        message:
          'names the inference provider "my-vlm", which the rendered config does not enable; did you mean "my-vllm"? use one of: my-vllm, fireworks, together',
      },
    ]);
  });
});
