// The generated config.yaml goes into one ConfigMap, and the API server refuses a ConfigMap whose
// keys and values together exceed 1 MiB (core.MaxSecretSize, "must have at most 1048576 bytes"):
// such a config is refused here, before an apply fails on it.
import type { FieldProblem } from '../lib/issues.js';

const MAX_CONFIG_MAP_DATA_BYTES = 1024 * 1024;
const CONFIG_KEY = 'config.yaml';

/** An error when `text` under `config.yaml` is more than a ConfigMap holds. */
export function configSizeProblem(text: string): FieldProblem | undefined {
  const bytes = Buffer.byteLength(text, 'utf8') + CONFIG_KEY.length;
  if (bytes <= MAX_CONFIG_MAP_DATA_BYTES) return undefined;
  const kib = (n: number): string => `${Math.ceil(n / 1024)} KiB`;
  return {
    path: ['spec'],
    message: `makes a config.yaml of ${kib(bytes)}, more than the ${kib(MAX_CONFIG_MAP_DATA_BYTES)} a ConfigMap can hold, so the API server would refuse it: it grows with \`spec.resources\` and \`spec.providers\`; split the server into several, or move the bulk into a config of your own (spec.overrideConfig)`,
  };
}
