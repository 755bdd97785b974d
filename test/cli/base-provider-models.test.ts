// A model registered on a provider of the base config that an env var switches on
// (`${env.OLLAMA_URL:+ollama}` in starter, `${env.VLLM_URL:+vllm-inference}` in rh): set in
// `workload.overrides.env`, the model renders; left unset, the error says the provider is off in
// this pod and which variable switches it on, at the model's `provider` field (an outside probe:
// both were refused with "the rendered config does not enable", rh's with "use one of: none").
import { describe, expect, it } from 'vitest';
import { parsePlain, parseStream, run, tempDir, writeTree } from './run.js';

const starter = (env: string): string => `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: st, namespace: ai}
spec:
  distribution: {name: starter}
  resources:
    models:
      - {name: "llama3.2:3b", provider: ollama}
${env}`;

const rh = (env: string): string => `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: assistant, namespace: ai}
spec:
  distribution: {name: rh}
  resources:
    models:
      - {name: granite, provider: vllm-inference}
  workload:
    overrides:
      env:
        - {name: POSTGRES_HOST, value: pg.ai.svc}
        - {name: POSTGRES_PORT, value: "5432"}
        - {name: POSTGRES_DB, value: ogx}
        - {name: POSTGRES_USER, value: ogx}
        - {name: POSTGRES_PASSWORD, valueFrom: {secretKeyRef: {name: pg-creds, key: password}}}
${env}---
apiVersion: v1
kind: Secret
metadata: {name: pg-creds, namespace: ai}
stringData: {password: not-a-number}
`;

/** The models config.yaml registers, from the rendered ConfigMap. */
function registeredModels(stdout: string): unknown[] {
  const configMap = parseStream(stdout).find((o) => o.kind === 'ConfigMap');
  const config = parsePlain((configMap as unknown as { data: Record<string, string> }).data['config.yaml']!) as {
    registered_resources: { models: unknown[] };
  };
  return config.registered_resources.models;
}

function build(text: string): ReturnType<typeof run> {
  const dir = writeTree(tempDir(), { 'llsd.yaml': text });
  return run(['build', 'llsd.yaml'], { cwd: dir });
}

describe('a model on a base provider that an env var switches on', () => {
  it('starter, OLLAMA_URL set in workload.overrides.env: the model is registered with ollama', () => {
    const r = build(starter('  workload:\n    overrides:\n      env:\n        - {name: OLLAMA_URL, value: "http://ollama.ai.svc:11434/v1"}\n'));
    expect(r.status, r.stderr).toBe(0);
    expect(registeredModels(r.stdout)).toContainEqual(expect.objectContaining({ model_id: 'llama3.2:3b', provider_id: 'ollama' }));
  });

  it('starter, OLLAMA_URL not set: an error at the model\'s provider, naming the variable that switches it on', () => {
    const r = build(starter(''));
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^llsd\.yaml:8: ai\/st: spec\.resources\.models\[0\]\.provider: .*names the inference provider "ollama", which is off in this pod: OLLAMA_URL switches it on, and it is unset;.*set OLLAMA_URL in `spec\.workload\.overrides\.env`/m,
    );
  });

  it('starter, OLLAMA_URL set to "": said to be empty, not unset (it is set where the message told to set it)', () => {
    const r = build(starter('  workload:\n    overrides:\n      env:\n        - {name: OLLAMA_URL, value: ""}\n'));
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('which is off in this pod: OLLAMA_URL switches it on, and it is set to an empty value;');
    expect(r.stderr).toContain('give OLLAMA_URL a value, or name another provider');
  });

  it('rh, VLLM_URL set: the model is registered with vllm-inference', () => {
    const r = build(rh('        - {name: VLLM_URL, value: "http://vllm.ai.svc:8000/v1"}\n'));
    expect(r.status, r.stderr).toBe(0);
    expect(registeredModels(r.stdout)).toContainEqual(expect.objectContaining({ model_id: 'granite', provider_id: 'vllm-inference' }));
  });

  it('a provider no base entry can ever give is still refused at once, with the closest id', () => {
    const r = build(starter('').replace('provider: ollama', 'provider: olama'));
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      'spec.resources.models[0].provider: names the inference provider "olama", which the rendered config does not enable; did you mean "ollama"?',
    );
  });
});
