// What the server reads when a config uses a form its release still accepts and converts before
// validating (configs/release-notes.yaml `kvStoresMigratedToSql`): the checks then judge the
// converted config, as the server does, and a warning says what to write instead.
import { inRange, releaseNotes, runConfigStores } from '../catalog/catalog.js';
import { isPlainObject } from '../lib/objects.js';
import { clip } from '../lib/quote.js';
import { releaseName } from '../catalog/versions.js';

export interface LegacyForm {
  path: string;
  message: string;
}

/**
 * `config` as the server of `catalogRelease` converts it, and a note per converted entry. The
 * config itself is never changed: a converted one is a copy.
 */
export function asServerConverts(
  config: Record<string, unknown>,
  release: string,
  catalogRelease: string,
): { config: Record<string, unknown>; notes: LegacyForm[] } {
  const migrated = releaseNotes()
    .kvStoresMigratedToSql.filter((m) => inRange(catalogRelease, m))
    .flatMap((m) => m.stores);
  const storage = config.storage;
  const stores = isPlainObject(storage) ? storage.stores : undefined;
  if (migrated.length === 0 || !isPlainObject(storage) || !isPlainObject(stores)) return { config, notes: [] };
  const notes: LegacyForm[] = [];
  const converted: Record<string, unknown> = { ...stores };
  for (const name of migrated) {
    const ref = stores[name];
    if (!isPlainObject(ref) || typeof ref.backend !== 'string' || !ref.backend.startsWith('kv_') || ref.table_name !== undefined) continue;
    const backend = `sql_${ref.backend.slice('kv_'.length)}`;
    const table = runConfigStores(catalogRelease).find((s) => s.name === name)?.defaultTable ?? name;
    const { namespace: _namespace, ...rest } = ref;
    converted[name] = { ...rest, backend, table_name: table };
    notes.push({
      path: `storage.stores.${name}`,
      message: `is the KV form of older releases ({backend: ${clip(ref.backend)}, namespace}); ${releaseName(release)} converts it to {backend: ` +
        `${clip(backend)}, table_name: ${clip(table)}}, which needs the SQL backend ${clip(backend)}: write that form`,
    });
  }
  if (notes.length === 0) return { config, notes };
  return { config: { ...config, storage: { ...storage, stores: converted } }, notes };
}
