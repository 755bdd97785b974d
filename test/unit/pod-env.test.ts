// The pod's env as the judge reads it (src/core/pod-env.ts): what each kind of env entry of the
// server's container makes of a variable, with the ConfigMaps and Secrets of the input.
import { describe, expect, it } from 'vitest';
import { inventoryOf } from '../../src/krm/inventory.js';
import { asPodEnv, podEnvOf, type PodEnv } from '../../src/core/pod-env.js';
import { itemsFrom } from '../support.js';

const deployment = (container: Record<string, unknown>, namespace = 'ai'): unknown => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'demo', namespace },
  spec: { template: { spec: { containers: [{ name: 'llama-stack', image: 'x', ...container }] } } },
});

const inputs = itemsFrom(`apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: ai}
data: {VLLM_URL: "http://vllm:8000/v1", ENABLE_S3: "", PORT: "5432"}
---
apiVersion: v1
kind: Secret
metadata: {name: creds, namespace: ai}
stringData: {POSTGRES_PASSWORD: do-not-read-me}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: elsewhere, namespace: other}
data: {VLLM_URL: "http://wrong"}
`);
const inventory = inventoryOf(inputs);

/** What the env says of each name: its value when known, `set`, `maybe` or `unset`. */
function states(env: PodEnv, names: string[]): Record<string, string> {
  return Object.fromEntries(names.map((n) => [n, env.has(n) ? (env.value(n) ?? 'set') : env.maybe(n) ? 'maybe' : 'unset']));
}

describe('the pod env of the server container', () => {
  it('a literal value is known, an empty one too; a name the container does not set is unset', () => {
    const env = podEnvOf(deployment({ env: [{ name: 'A', value: 'x' }, { name: 'EMPTY', value: '' }, { name: 'NOVALUE' }] }), inventory);
    expect(states(env, ['A', 'EMPTY', 'NOVALUE', 'OTHER'])).toEqual({ A: 'x', EMPTY: '', NOVALUE: '', OTHER: 'unset' });
    expect(env.unknownSources).toEqual([]);
  });

  it("a Secret's key is set and its value never read; an optional one may be set or not", () => {
    const env = podEnvOf(
      deployment({
        env: [
          { name: 'P', valueFrom: { secretKeyRef: { name: 'creds', key: 'POSTGRES_PASSWORD' } } },
          { name: 'Q', valueFrom: { secretKeyRef: { name: 'absent', key: 'k', optional: true } } },
        ],
      }),
      inventory,
    );
    expect(states(env, ['P', 'Q'])).toEqual({ P: 'set', Q: 'maybe' });
    expect(env.key).not.toContain('do-not-read-me');
  });

  it("a ConfigMap's key is read when the ConfigMap is in the input (in the Deployment's namespace)", () => {
    const env = podEnvOf(
      deployment({
        env: [
          { name: 'URL', valueFrom: { configMapKeyRef: { name: 'settings', key: 'VLLM_URL' } } },
          { name: 'GONE', valueFrom: { configMapKeyRef: { name: 'settings', key: 'NOPE', optional: true } } },
          { name: 'OUTSIDE', valueFrom: { configMapKeyRef: { name: 'not-in-input', key: 'k' } } },
          { name: 'OUTSIDE_OPT', valueFrom: { configMapKeyRef: { name: 'not-in-input', key: 'k', optional: true } } },
        ],
      }),
      inventory,
    );
    expect(states(env, ['URL', 'GONE', 'OUTSIDE', 'OUTSIDE_OPT'])).toEqual({ URL: 'http://vllm:8000/v1', GONE: 'unset', OUTSIDE: 'set', OUTSIDE_OPT: 'maybe' });
  });

  it('envFrom: the keys of a ConfigMap in the input with their values (prefixed), of a Secret without; `env` after it wins', () => {
    const env = podEnvOf(
      deployment({
        envFrom: [{ configMapRef: { name: 'settings' }, prefix: 'X_' }, { secretRef: { name: 'creds' } }, { configMapRef: { name: 'settings' } }],
        env: [{ name: 'PORT', value: '8321' }],
      }),
      inventory,
    );
    expect(states(env, ['X_VLLM_URL', 'VLLM_URL', 'ENABLE_S3', 'PORT', 'POSTGRES_PASSWORD', 'ELSE'])).toEqual({
      X_VLLM_URL: 'http://vllm:8000/v1',
      VLLM_URL: 'http://vllm:8000/v1',
      ENABLE_S3: '',
      PORT: '8321',
      POSTGRES_PASSWORD: 'set',
      ELSE: 'unset',
    });
  });

  it('envFrom of something not in the input: a named unknown source, and every other name may be set', () => {
    const container = { envFrom: [{ configMapRef: { name: 'team-env' } }, { secretRef: { name: 'team-secrets' } }], env: [{ name: 'A', value: '1' }] };
    const env = podEnvOf(deployment(container), inventory);
    expect(env.unknownSources).toEqual(['ConfigMap team-env', 'Secret team-secrets']);
    expect(states(env, ['A', 'ANYTHING'])).toEqual({ A: '1', ANYTHING: 'maybe' });
  });

  it('a ConfigMap of another namespace is not the one the pod reads', () => {
    const env = podEnvOf(deployment({ envFrom: [{ configMapRef: { name: 'elsewhere' } }] }), inventory);
    expect(env.unknownSources).toEqual(['ConfigMap elsewhere']);
  });

  it('the memo key tells envs apart by names, known values and unknown sources', () => {
    const a = podEnvOf(deployment({ env: [{ name: 'A', value: '1' }] }), inventory);
    const b = podEnvOf(deployment({ env: [{ name: 'A', value: '2' }] }), inventory);
    const c = podEnvOf(deployment({ env: [{ name: 'A', value: '1' }], envFrom: [{ configMapRef: { name: 'team-env' } }] }), inventory);
    expect(new Set([a.key, b.key, c.key]).size).toBe(3);
    expect(podEnvOf(deployment({ env: [{ name: 'A', value: '1' }] }), inventory).key).toBe(a.key);
  });

  it('asPodEnv: a set of names is those names set, values unknown, and no other', () => {
    const env = asPodEnv(new Set(['A']));
    expect(states(env, ['A', 'B'])).toEqual({ A: 'set', B: 'unset' });
    expect(states(asPodEnv(new Set(['A']), ['ConfigMap x']), ['A', 'B'])).toEqual({ A: 'set', B: 'maybe' });
  });

  it('an image that reads <VAR>_FILE (rh): X_FILE set makes X set, its value unknown; both set is a conflict; names it does not read stay as they are', () => {
    const names = ['POSTGRES_PASSWORD', 'VLLM_API_TOKEN', 'OPENAI_API_KEY'];
    const env = podEnvOf(
      deployment({
        env: [
          { name: 'POSTGRES_PASSWORD_FILE', value: '/run/secrets/pg' },
          { name: 'VLLM_API_TOKEN', value: 'literal' },
          { name: 'VLLM_API_TOKEN_FILE', value: '/run/secrets/vllm' },
          { name: 'OPENAI_API_KEY_FILE', valueFrom: { configMapKeyRef: { name: 'absent', key: 'k', optional: true } } },
          { name: 'OTHER_FILE', value: '/x' },
        ],
      }),
      inventory,
      names,
    );
    expect(states(env, ['POSTGRES_PASSWORD', 'VLLM_API_TOKEN', 'OPENAI_API_KEY', 'OTHER'])).toEqual({
      POSTGRES_PASSWORD: 'set',
      VLLM_API_TOKEN: 'literal',
      OPENAI_API_KEY: 'maybe',
      OTHER: 'unset',
    });
    expect(env.fileConflicts).toEqual(['VLLM_API_TOKEN']);
    // Without the image's list, a _FILE variable is only itself.
    const plain = podEnvOf(deployment({ env: [{ name: 'POSTGRES_PASSWORD_FILE', value: '/run/secrets/pg' }] }), inventory);
    expect(states(plain, ['POSTGRES_PASSWORD'])).toEqual({ POSTGRES_PASSWORD: 'unset' });
    expect(plain.fileConflicts).toEqual([]);
  });
});
