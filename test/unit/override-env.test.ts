// `workload.overrides.env` checks shared by both front ends (src/core/override-env.ts): a `$(NAME)`
// reference that only a later entry can satisfy (an outside probe: `http://$(VLLM_HOST):8000/v1`
// with VLLM_HOST below it rendered without a word, and the server got the text `$(VLLM_HOST)`).
import { describe, expect, it } from 'vitest';
import { overrideEnvEntryProblems } from '../../src/core/override-env.js';

const codes = (env: unknown[]): unknown[] => overrideEnvEntryProblems(env).map((p) => [p.code, p.path.join('.')]);

describe('$(NAME) references in workload.overrides.env', () => {
  it('a reference to a variable set later: a warning at the value, saying to move it above', () => {
    const problems = overrideEnvEntryProblems([
      { name: 'VLLM_ENDPOINT', value: 'http://$(VLLM_HOST):$(VLLM_PORT)/v1' },
      { name: 'VLLM_HOST', value: 'vllm.ai.svc' },
      { name: 'VLLM_PORT', value: '8000' },
    ]);
    expect(problems.map((p) => [p.severity, p.code, p.path.join('.')])).toEqual([
      ['warning', 'env-reference-order', 'spec.workload.overrides.env.0.value'],
      ['warning', 'env-reference-order', 'spec.workload.overrides.env.0.value'],
    ]);
    expect(problems[0]?.message).toBe(
      'refers to `$(VLLM_HOST)`, which entry 1 sets, after this one: Kubernetes expands only the variables set before a reference, so the value keeps ' +
        '`$(VLLM_HOST)` as text; move VLLM_HOST above this entry',
    );
  });

  it('a reference to a variable set before, the escape $$(NAME), and a name the list does not set: nothing', () => {
    expect(
      codes([
        { name: 'VLLM_HOST', value: 'vllm.ai.svc' },
        { name: 'VLLM_ENDPOINT', value: 'http://$(VLLM_HOST):8000/v1' },
        { name: 'LITERAL', value: 'keep $$(LATER) as text' },
        { name: 'FROM_ELSEWHERE', value: '$(POD_IP)' },
        { name: 'LATER', value: 'x' },
      ]),
    ).toEqual([]);
  });

  it('two references to one later variable in a value are told once', () => {
    expect(
      codes([
        { name: 'A', value: '$(B)-$(B)' },
        { name: 'B', value: 'x' },
      ]),
    ).toEqual([['env-reference-order', 'spec.workload.overrides.env.0.value']]);
  });
});
