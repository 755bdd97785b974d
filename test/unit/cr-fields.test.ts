// core/cr-fields.ts: the walk from a config.yaml path to the CR field that wrote it, with each
// front end's mapping as data (the LLSD's and the OGXServer's are checked through the goldens and
// test/cli/release-schema.test.ts).
import { describe, expect, it } from 'vitest';
import { crFieldOf, type CrFieldMap } from '../../src/core/cr-fields.js';

const config = {
  providers: {
    inference: [{ provider_id: 'base' }, { provider_id: 'vllm', config: { max_tokens: 1 } }],
    vector_io: ['not a mapping'],
  },
};
const map: CrFieldMap = {
  providers: [
    { api: 'vector_io', id: 'vllm', path: ['spec', 'providers', 'vectorIo', 0], settings: {} },
    { api: 'inference', id: 'vllm', path: ['spec', 'providers', 'inference', 0], settings: { max_tokens: 1 } },
  ],
  others: [
    { pattern: /^server\.port$/, field: () => ['spec', 'network', 'port'] },
    { pattern: /^storage\b/, field: () => undefined },
    { pattern: /^storage\.stores/, field: () => ['spec', 'storage'] },
  ],
};

describe('crFieldOf', () => {
  it('a key the provider\'s settings wrote is that setting; another key of its entry is the provider', () => {
    expect(crFieldOf('providers.inference[1].config.max_tokens', config, map)).toEqual(['spec', 'providers', 'inference', 0, 'settings', 'max_tokens']);
    expect(crFieldOf('providers.inference[1].config.url', config, map)).toEqual(['spec', 'providers', 'inference', 0]);
    expect(crFieldOf('providers.inference[1]', config, map)).toEqual(['spec', 'providers', 'inference', 0]);
  });

  it('an entry of the base, of another API, missing or no mapping is the item ([])', () => {
    expect(crFieldOf('providers.inference[0].config.x', config, map)).toEqual([]);
    expect(crFieldOf('providers.inference[5]', config, map)).toEqual([]);
    expect(crFieldOf('providers.vector_io[0]', config, map)).toEqual([]);
    expect(crFieldOf('providers.inference[1]', {}, map)).toEqual([]);
  });

  it('other paths: the first rule that matches and gives a field wins, else the item', () => {
    expect(crFieldOf('server.port', config, map)).toEqual(['spec', 'network', 'port']);
    expect(crFieldOf('storage.stores.metadata', config, map)).toEqual(['spec', 'storage']);
    expect(crFieldOf('storage.backends', config, map)).toEqual([]);
    expect(crFieldOf('server.port', config, { providers: [] })).toEqual([]);
  });
});
