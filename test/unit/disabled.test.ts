// spec.disabled → APIs removed with their providers and what refers to them (docs/config-generation.md "Disabled
// APIs"); a disabled API that a remaining provider needs is an error, not a cascade.
import { describe, expect, it } from 'vitest';
import { checkStartupRules } from '../../src/core/startup/index.js';
import { releaseSupport } from '../../src/catalog/versions.js';
import { base02, base03, configOf, generate, inlinePlan, problemLines, profile02, profile04, starterPlan } from './plan-fixtures.js';

const starter = (spec: string) => generate(starterPlan(`distribution: {name: starter}\n${spec}`));
const old = (spec: string) => generate(inlinePlan(`distribution: {name: x}\n${spec}`, '0.2.24', profile02(), base02));

describe('starter 0.7.1', () => {
  const base = configOf(starter(''));

  it('safety: the API, its providers, its shields and safety.default_shield_id go; nothing else changes', () => {
    const outcome = starter('disabled: [safety]');
    expect(outcome.problems).toEqual([]);
    const config = configOf(outcome);
    expect(config.apis).toEqual(base.apis.filter((a: string) => a !== 'safety'));
    expect(config.providers.safety).toBeUndefined();
    expect(base.registered_resources.shields).toHaveLength(2);
    expect(config.registered_resources.shields).toEqual([]);
    expect(base.safety).toEqual({ default_shield_id: 'llama-guard' });
    expect(config.safety).toBeUndefined();
    const { apis: _a, providers: _p, registered_resources: _r, safety: _s, ...rest } = config;
    const { apis: _ba, providers: _bp, registered_resources: _br, safety: _bs, ...baseRest } = base;
    expect(rest).toEqual(baseRest);
    expect(Object.keys(config.providers)).toEqual(Object.keys(base.providers).filter((a) => a !== 'safety'));
  });

  it('camelCase and snake_case name the same API, once', () => {
    const camel = configOf(starter('disabled: [fileProcessors, file_processors]'));
    expect(camel.apis).not.toContain('file_processors');
    expect(camel.providers.file_processors).toBeUndefined();
  });

  it('`agents` is `responses` from 0.7.0 on; eval needs it, so disabling it alone is an error', () => {
    expect(problemLines(starter('disabled: [agents]'))).toEqual([
      'error spec.disabled.0: cannot be disabled while eval needs responses (the server would not start): disable eval too, or keep responses',
    ]);
    const config = configOf(starter('disabled: [agents, eval]'));
    expect(config.apis).not.toContain('responses');
    expect(config.providers.responses).toBeUndefined();
    expect(config.providers.eval).toBeUndefined();
  });

  it('an API a remaining provider needs is an error naming the dependent APIs and the providers where not all of them need it', () => {
    expect(problemLines(starter('disabled: [files]'))).toEqual([
      'error spec.disabled.0: cannot be disabled while batches, file_processors, responses and tool_runtime (file-search) need files (the server would not ' +
        'start): disable batches, file_processors, responses and tool_runtime too, or keep files',
    ]);
    expect(problemLines(starter('disabled: [vectorIo]'))).toEqual([
      'error spec.disabled.0: cannot be disabled while responses and tool_runtime (file-search) need vector_io (the server would not start): disable ' +
        'responses and tool_runtime too, or keep vector_io',
    ]);
  });

  it("the CR's own providers count: a vector_io provider of the CR needs inference (a 0.4.4 base without one)", () => {
    const outcome = generate(
      inlinePlan(
        'distribution: {name: x}\nproviders:\n  vectorIo: {provider: chromadb, endpoint: "http://c:8000"}\ndisabled: [inference, safety]',
        '0.4.4',
        profile04(),
        base03.replace(/  vector_io:\n(?:  - .*\n|    .*\n)+/, ''),
      ),
    );
    expect(problemLines(outcome)).toEqual([
      'error spec.disabled.0: cannot be disabled while agents, tool_runtime (rag-runtime) and vector_io need inference (the server would not start): ' +
        'disable agents, tool_runtime and vector_io too, or keep inference',
      // The CR's vector provider becomes the default (test/unit/vector-defaults.test.ts).
      'info spec.providers.vectorIo: is the default vector_io provider of the generated config.yaml: `vector_stores.default_provider_id` (was "faiss") ' +
        'of the base config now names it; list another vector_io provider first to make it the default',
    ]);
  });

  it('vector_io with everything that needs it: registered vector stores and the vector_stores defaults go too', () => {
    const outcome = starter('disabled: [vectorIo, responses, toolRuntime, eval]');
    expect(outcome.problems).toEqual([]);
    const config = configOf(outcome);
    expect(config.vector_stores).toBeUndefined();
    expect(['vector_io', 'responses', 'tool_runtime'].filter((a) => config.apis.includes(a) || a in config.providers)).toEqual([]);
  });

  it('an API the release does not have is an error listing the ones it has', () => {
    expect(problemLines(starter('disabled: [postTraining, telemetry]'))).toEqual([
      'error spec.disabled.0: "postTraining" is not an API of llama-stack 0.7.1. Its APIs: inference, safety, responses, batches, vector_io, datasetio, ' +
        'scoring, eval, tool_runtime, files, file_processors',
      'error spec.disabled.1: "telemetry" is not an API of llama-stack 0.7.1. Its APIs: inference, safety, responses, batches, vector_io, datasetio, ' +
        'scoring, eval, tool_runtime, files, file_processors',
    ]);
  });
});

describe('meta-reference-gpu 0.4.4: one source of API dependencies (the release catalog)', () => {
  const gpu = (spec: string) => generate(starterPlan(`distribution: {name: meta-reference-gpu}\n${spec}`, '0.4.4'));
  const rule7 = (config: Record<string, unknown>) => {
    const support = releaseSupport('0.4.4');
    if (!support) throw new Error('0.4.4 is not supported');
    return checkStartupRules(config, { release: '0.4.4', ...support, containerEnv: new Set(['INFERENCE_MODEL']) }).filter((p) => p.rule === 'api-dependencies');
  };

  it('disabling files is refused where the release registry says agents and rag-runtime need it, with advice that fits', () => {
    // Before, disabled.ts thought the 0.4.x agents provider did not need files, and the startup
    // rules then stopped the same config with "add a files provider".
    expect(problemLines(gpu('disabled: [files]'))).toEqual([
      'error spec.disabled.0: cannot be disabled while agents and tool_runtime (rag-runtime) need files (the server would not start): disable agents and ' +
        'tool_runtime too, or keep files',
    ]);
  });

  it('following the advice (and then for eval, which needs agents) gives a config rule 7 accepts', () => {
    const outcome = gpu('disabled: [files, agents, toolRuntime, eval]');
    expect(outcome.problems).toEqual([]);
    const config = configOf(outcome);
    expect(Object.keys(config.providers)).not.toContain('files');
    expect(rule7(config)).toEqual([]);
  });
});

describe('≤ 0.2 layout', () => {
  it('`responses` is `agents` before 0.7.0', () => {
    const config = configOf(old('disabled: [responses]'));
    expect(config.apis).not.toContain('agents');
    expect(config.providers.agents).toBeUndefined();
  });

  it('the agents provider needs safety before 0.4.0', () => {
    expect(problemLines(old('disabled: [safety]'))).toEqual([
      'error spec.disabled.0: cannot be disabled while agents needs safety (the server would not start): disable agents too, or keep safety',
    ]);
    expect(generate(inlinePlan('distribution: {name: x}\ndisabled: [safety]', '0.4.4', profile04(), base03)).problems).toEqual([]);
  });

  it('top-level resource lists of the disabled APIs are emptied', () => {
    const outcome = old('disabled: [safety, agents, toolRuntime]');
    expect(outcome.problems).toEqual([]);
    const config = configOf(outcome);
    expect(config.shields).toEqual([]);
    expect(config.tool_groups).toEqual([]);
    expect(config.models).toHaveLength(2);
    expect(config.registered_resources).toBeUndefined();
    expect(config.apis).toEqual(['files', 'inference', 'telemetry', 'vector_io']);
  });

  it('telemetry exists in 0.2', () => {
    const config = configOf(old('disabled: [telemetry]'));
    expect(config.providers.telemetry).toBeUndefined();
  });
});
