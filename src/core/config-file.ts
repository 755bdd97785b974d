// Writing a generated config.yaml, for both front ends: the text the ConfigMap holds, refused when
// it is more than a ConfigMap can hold, and its hash (which names the ConfigMap and rolls the pods).
import { createHash } from 'node:crypto';
import { isError, type FieldProblem } from '../lib/issues.js';
import { stringifyPlainYaml } from '../krm/yaml.js';
import type { SecretEnv } from './secrets.js';

export interface GeneratedConfig {
  /** config.yaml as written to the ConfigMap. */
  text: string;
  /** `text` as the server parses it (YAML 1.1), for the startup check; not to be changed. */
  value: Record<string, unknown>;
  /** sha256 of `text`, hex. */
  hash: string;
  /** Env vars the container needs for the secret placeholders, in the order they appear. */
  env: SecretEnv[];
  /** Providers the CR configures, and all provider entries of the config (the base's included). */
  providerCount: { fromLlsd: number; total: number };
  modelCount: number;
  /** `spec.overrideConfig`: the user's ConfigMap holds `text`; no ConfigMap is generated. */
  fromConfigMap?: string;
}

export type GenerateOutcome =
  | { ok: true; config: GeneratedConfig; problems: FieldProblem[] }
  | { ok: false; problems: FieldProblem[] };

/** sha256 of a config.yaml text, hex. */
export const configHash = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * `document` as the config.yaml text and its hash, unless `problems` (the generation's so far)
 * hold an error or the text is too large for a ConfigMap. What stringifyPlainYaml writes reads
 * back as `document` under YAML 1.1 (test/unit/config.test.ts), so the document is the parse.
 */
export function writeConfig(
  document: Record<string, unknown>,
  problems: FieldProblem[],
): { ok: true; text: string; hash: string } | { ok: false; problems: FieldProblem[] } {
  if (problems.some(isError)) return { ok: false, problems };
  const text = stringifyPlainYaml(document);
  const tooLarge = configSizeProblem(text);
  if (tooLarge) return { ok: false, problems: [...problems, tooLarge] };
  return { ok: true, text, hash: configHash(text) };
}

// The generated config.yaml goes into one ConfigMap, and the API server refuses a ConfigMap whose
// keys and values together exceed 1 MiB (core.MaxSecretSize, "must have at most 1048576 bytes"):
// such a config is refused here, before an apply fails on it.
const MAX_CONFIG_MAP_DATA_BYTES = 1024 * 1024;
const CONFIG_KEY = 'config.yaml';

/** An error when `text` under `config.yaml` is more than a ConfigMap holds. */
export function configSizeProblem(text: string): FieldProblem | undefined {
  const bytes = Buffer.byteLength(text, 'utf8') + CONFIG_KEY.length;
  if (bytes <= MAX_CONFIG_MAP_DATA_BYTES) return undefined;
  const kib = (n: number): string => `${Math.ceil(n / 1024)} KiB`;
  return {
    path: ['spec'],
    message:
      `makes a config.yaml of ${kib(bytes)}, more than the ${kib(MAX_CONFIG_MAP_DATA_BYTES)} a ConfigMap can hold, so the API server would refuse it: ` +
      'it grows with `spec.resources` and `spec.providers`; split the server into several, or move the bulk into a config of your own (spec.overrideConfig)',
  };
}
