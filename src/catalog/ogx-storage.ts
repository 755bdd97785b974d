// What the OGX operator writes for an OGXServer's `spec.storage` (configs/ogx-storage.yaml): the
// backend entry of each store type, the env vars of the storage Secrets and the four stores.
import { configFile } from './files.js';
import { lazily, z } from '../lib/zod.js';

/** The shape of configs/ogx-storage.yaml, built on first use (the tests check the file with it). */
export const ogxStorageSchema = lazily(() => {
  const backend = z.looseObject({ type: z.string() });
  return z.strictObject({
    backends: z.strictObject({
      kv_default: z.strictObject({ sqlite: backend, redis: backend }),
      sql_default: z.strictObject({ sqlite: backend, postgres: backend }),
    }),
    env: z.strictObject({ kvPassword: z.string(), sqlConnection: z.string() }),
    stores: z.record(z.string(), z.looseObject({ backend: z.enum(['kv_default', 'sql_default']) })),
  });
});

export type OgxStorageTable = z.infer<ReturnType<typeof ogxStorageSchema>>;

/** The operator's storage table. */
export function ogxStorage(): OgxStorageTable {
  const value = configFile('ogx-storage.yaml');
  if (value === undefined) throw new Error('configs/ogx-storage.yaml is not embedded');
  return value as OgxStorageTable;
}
