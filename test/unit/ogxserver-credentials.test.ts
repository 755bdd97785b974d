// Credentials written as values in an OGXServer (src/ogx/credentials.ts): the operator
// copies them into the generated ConfigMap, so each is an error at its field, without the value.
// Found by the OGXServer mutation fuzz: literal `api_key` settings and URL passwords reached stdout.
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { parseOgxServer } from '../../src/ogx/ogxserver.js';
import type { KrmObject } from '../../src/krm/item.js';
import { process as render } from '../../src/process.js';
import { itemsFrom } from '../support.js';

const secret = 's3cr3t-0123456789ab';
const server = (spec: Record<string, unknown>): KrmObject =>
  ({
    apiVersion: 'ogx.io/v1beta1',
    kind: 'OGXServer',
    metadata: { name: 's', namespace: 'ns' },
    spec: { distribution: { name: 'starter' }, ...spec },
  });
const problemsOf = (spec: Record<string, unknown>) =>
  parseOgxServer(server(spec), { distributions: ['starter'] }).problems.map((p) => ({ path: p.path.join('.'), message: p.message }));
const custom = (settings: unknown) => ({ providers: { inference: { remote: { custom: [{ type: 'remote::groq', settings }] } } } });

describe('credentials written as values in an OGXServer', () => {
  it('a credential-named key in custom settings, at any depth, is an error saying to use a Secret', () => {
    const problems = problemsOf(custom({ api_key: secret, network: { headers: { Authorization: `Bearer ${secret}` } }, max_tokens: 5 }));
    expect(problems.map((p) => p.path)).toEqual([
      'spec.providers.inference.remote.custom.0.settings.api_key',
      'spec.providers.inference.remote.custom.0.settings.network.headers.Authorization',
    ]);
    expect(problems[0]?.message).toMatch(/^must not hold the value: api_key names a credential.*`secretRefs`/);
    expect(JSON.stringify(problems)).not.toContain(secret);
  });

  it('a ${env.X} placeholder or an empty value is not a literal credential', () => {
    expect(problemsOf(custom({ api_key: '${env.GROQ_API_KEY}', password: '' }))).toEqual([]);
  });

  it('a password in a URL of a typed provider, in custom settings or in the redis endpoint is an error', () => {
    const problems = problemsOf({
      providers: {
        inference: {
          remote: {
            vllm: [{ endpoint: `http://u:${secret}@v.svc/v1` }],
            custom: [{ type: 'remote::groq', settings: { base_url: `http://h.svc/v1?token=${secret}` } }],
          },
        },
      },
      storage: { kv: { type: 'redis', endpoint: `redis://:${secret}@r.svc:6379` } },
    });
    // In the schema's order of the fields (custom before vllm).
    expect(problems.map((p) => p.path)).toEqual([
      'spec.providers.inference.remote.custom.0.settings.base_url',
      'spec.providers.inference.remote.vllm.0.endpoint',
      'spec.storage.kv.endpoint',
    ]);
    expect(problems[0]?.message).toMatch(/^must not hold a credential: a URL query parameter/);
    expect(problems[1]?.message).toMatch(/^must not hold a password: the `user:password@` part/);
    expect(problems[2]?.message).toMatch(/redis store takes no password/);
    expect(JSON.stringify(problems)).not.toContain(secret);
  });

  it('a typed provider header named as a credential is an error; other headers pass', () => {
    const problems = problemsOf({
      providers: { inference: { remote: { vllm: [{ endpoint: 'http://v.svc/v1', network: { headers: { 'X-Api-Key': secret, 'X-Team': 'ai' } } }] } } },
    });
    expect(problems.map((p) => p.path)).toEqual(['spec.providers.inference.remote.vllm.0.network.headers.X-Api-Key']);
  });

  it('a render prints nothing and never the value', () => {
    const output = render({ mode: 'build', items: itemsFrom(stringify(server(custom({ api_key: secret })))) });
    expect(output.items).toEqual([]);
    expect(output.results.filter((r) => r.severity === 'error').map((r) => r.field?.path)).toEqual([
      'spec.providers.inference.remote.custom[0].settings.api_key',
    ]);
    expect(JSON.stringify(output.results)).not.toContain(secret);
    expect(parse(stringify(output.results))).toBeDefined();
  });
});
