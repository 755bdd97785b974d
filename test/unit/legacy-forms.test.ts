// Older forms the server converts before it validates (configs/release-notes.yaml
// kvStoresMigratedToSql): the checks judge the converted config, and a warning says what to write.
import { describe, expect, it } from 'vitest';
import { profileFor } from '../../src/catalog/versions.js';
import { asServerConverts } from '../../src/core/legacy-forms.js';
import { checkStartupRules } from '../../src/core/startup/index.js';

const config = (prompts: Record<string, unknown>, backends: Record<string, unknown>) => ({
  version: 2,
  distro_name: 'legacy',
  providers: {},
  storage: { backends, stores: { metadata: { backend: 'kv_default', namespace: 'registry' }, prompts } },
});
const sqlite = { kv_default: { type: 'kv_sqlite', db_path: '/.ogx/kv.db' }, sql_default: { type: 'sql_sqlite', db_path: '/.ogx/sql.db' } };

describe('a prompts store in the KV form of older releases', () => {
  it('on 1.3.0 is judged as the server converts it (sql_default, table prompts), with a warning; the input is not changed', () => {
    const input = config({ backend: 'kv_default', namespace: 'prompts' }, sqlite);
    const { config: converted, notes } = asServerConverts(input, '1.3.0', '1.3.0');
    expect((converted.storage as { stores: Record<string, unknown> }).stores.prompts).toEqual({ backend: 'sql_default', table_name: 'prompts' });
    expect(notes).toEqual([
      {
        path: 'storage.stores.prompts',
        message:
          'is the KV form of older releases ({backend: kv_default, namespace}); OGX 1.3.0 converts it to {backend: sql_default, table_name: ' +
            'prompts}, which needs the SQL backend sql_default: write that form',
      },
    ]);
    expect(input.storage.stores.prompts).toEqual({ backend: 'kv_default', namespace: 'prompts' });
    const profile = profileFor('1.3.0');
    if (!profile) throw new Error('no 1.3.0 profile');
    const errors = checkStartupRules(converted, { release: '1.3.0', catalogRelease: '1.3.0', profile, containerEnv: new Set() }).filter(
      (p) => p.severity === 'error',
    );
    expect(errors.filter((p) => p.path.startsWith('storage.stores.prompts'))).toEqual([]);
  });

  it('with a KV backend that has no SQL twin, the converted reference names a backend that does not exist: an error', () => {
    const { config: converted } = asServerConverts(
      config({ backend: 'kv_custom', namespace: 'prompts' }, { ...sqlite, kv_custom: { type: 'kv_sqlite', db_path: '/.ogx/c.db' } }),
      '1.3.0',
      '1.3.0',
    );
    const profile = profileFor('1.3.0');
    if (!profile) throw new Error('no 1.3.0 profile');
    const errors = checkStartupRules(converted, { release: '1.3.0', catalogRelease: '1.3.0', profile, containerEnv: new Set() }).filter((p) =>
      p.path.startsWith('storage.stores.prompts'),
    );
    expect(errors.map((p) => p.severity)).toContain('error');
    expect(errors.map((p) => p.message).join('\n')).toContain('sql_custom');
  });

  it('on 0.8.0, where prompts is a KV store, nothing is converted', () => {
    const input = config({ backend: 'kv_default', namespace: 'prompts' }, sqlite);
    expect(asServerConverts(input, '0.8.0', '0.8.0')).toEqual({ config: input, notes: [] });
  });
});
