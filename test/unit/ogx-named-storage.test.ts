// Named PostgreSQL storage (`spec.storage.backends` / `stores`, the OGX operator's newer API) is not
// rendered: its merge to the operator's main is unverified (docs/ogxserver.md "Limits"). Writing it
// is an error at that field that says so and what to write instead, not "not a known field".
import { describe, expect, it } from 'vitest';
import { parseOgxServer } from '../../src/ogx/ogxserver.js';
import { itemFrom } from '../support.js';

const parse = (storage: string) =>
  parseOgxServer(
    itemFrom(
      `apiVersion: ogx.io/v1beta1\nkind: OGXServer\nmetadata: {name: demo, namespace: ai}\n` +
        `spec:\n  distribution: {name: starter}\n  storage: ${storage}\n`,
    ).object,
  );

describe('named storage', () => {
  it.each(['backends', 'stores'])('`storage.%s` is an error at that field saying it is not rendered yet, and what to use', (key) => {
    const parsed = parse(`{${key}: {pg: {type: sql_postgres, user: ogx}}}`);
    expect(parsed.ok).toBe(false);
    expect(parsed.problems).toEqual([
      {
        path: ['spec', 'storage', key],
        message: expect.stringMatching(
          new RegExp(
            "^is named storage, which llsd-render does not render yet: .*merged to the operator's main is not confirmed\\. " +
              'Use `storage\\.kv` / `storage\\.sql`, or give PostgreSQL storage by `spec\\.overrideConfig`',
          ),
        ),
      },
    ]);
  });
  it('another unknown storage field keeps the usual message', () => {
    expect(parse('{kvs: {}}').problems).toEqual([{ path: ['spec', 'storage', 'kvs'], message: 'is not a known field; did you mean `kv`?' }]);
  });
});
