// Env-name collisions, for both front ends: two Secret references whose env var names come out
// the same would share one variable in the pod, and one would silently win.
import type { SecretEnv } from './secrets.js';

/**
 * Each reference whose name an earlier one already took, with that earlier one (the first of the
 * name). `sameSecretShares`: two references to the same Secret key may share the name (the OGX
 * operator writes one variable for them); otherwise every repeat is a clash.
 */
export function envNameClashes(env: readonly SecretEnv[], sameSecretShares: boolean): Array<{ entry: SecretEnv; earlier: SecretEnv }> {
  const seen = new Map<string, SecretEnv>();
  const clashes: Array<{ entry: SecretEnv; earlier: SecretEnv }> = [];
  for (const entry of env) {
    const earlier = seen.get(entry.name);
    if (!earlier) seen.set(entry.name, entry);
    else if (!(sameSecretShares && earlier.secretName === entry.secretName && earlier.key === entry.key)) clashes.push({ entry, earlier });
  }
  return clashes;
}
