// Secrets reach the server only as env vars: the config holds `${env.LLSD_<ID>_<FIELD>}` and the
// container gets the var from `valueFrom.secretKeyRef` (docs/config-generation.md). <FIELD> names the CR field, not
// the server key, so env names stay the same across releases.
import type { SecretRefInput } from '../llsd/llsd-v1alpha2.js';

export interface SecretEnv {
  /** Env var name, e.g. LLSD_VLLM_API_KEY. */
  name: string;
  secretName: string;
  key: string;
  /** Where the reference was written, for messages. */
  path: Array<string | number>;
}

/** `vllm-primary`, `api_key` → `VLLM_PRIMARY_API_KEY`: upper case, anything outside [A-Z0-9_] turned into `_`. */
export const envSegment = (text: string): string => text.toUpperCase().replace(/[^A-Z0-9_]/g, '_');

export const envName = (...segments: string[]): string => ['LLSD', ...segments.map(envSegment)].join('_');

export const placeholder = (name: string): string => `\${env.${name}}`;

/** Both spellings of a secret reference → the selector. */
export function selectorOf(ref: SecretRefInput): { name: string; key: string } {
  return 'secretKeyRef' in ref ? ref.secretKeyRef : ref;
}

/** Is this settings leaf a secret reference (`{secretKeyRef: {name, key}}`)? */
export function isSecretLeaf(value: unknown): value is { secretKeyRef: { name: string; key: string } } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  const ref = (value as { secretKeyRef?: unknown }).secretKeyRef;
  return (
    keys.length === 1 &&
    typeof ref === 'object' &&
    ref !== null &&
    typeof (ref as { name?: unknown }).name === 'string' &&
    typeof (ref as { key?: unknown }).key === 'string'
  );
}
