// Issue 15: the same LLSD written with its mappings' keys in another order renders the same config
// (same ConfigMap hash, so a reformat does not roll the pods) and the same secret env order.
import { describe, expect, it } from 'vitest';
import { generate, starterPlan } from './plan-fixtures.js';

const render = (provider: string) => {
  const outcome = generate(starterPlan(`distribution: {name: starter}\nproviders:\n  inference: ${provider}`));
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.problems));
  return outcome.config;
};

describe('key order of the CR', () => {
  it('secretRefs and settings in another order give the same config.yaml, hash and env order', () => {
    const a = render(
      '{provider: openai, secretRefs: {passphrase: {name: s, key: p}, bearer: {name: s, key: b}}, settings: {timeout: 5, max_tokens: 9, auth: {z: ' +
        '{secretKeyRef: {name: s, key: z}}, a: {secretKeyRef: {name: s, key: a}}}}}',
    );
    const b = render(
      '{provider: openai, settings: {auth: {a: {secretKeyRef: {name: s, key: a}}, z: {secretKeyRef: {name: s, key: z}}}, max_tokens: 9, timeout: 5}, ' +
        'secretRefs: {bearer: {name: s, key: b}, passphrase: {name: s, key: p}}}',
    );
    expect(b.text).toBe(a.text);
    expect(b.hash).toBe(a.hash);
    expect(b.env.map((e) => e.name)).toEqual(['LLSD_OPENAI_AUTH_A', 'LLSD_OPENAI_AUTH_Z', 'LLSD_OPENAI_BEARER', 'LLSD_OPENAI_PASSPHRASE']);
    expect(a.env.map((e) => e.name)).toEqual(b.env.map((e) => e.name));
  });
});
