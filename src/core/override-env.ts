// `workload.overrides.env` of either API, checked the same way: what the user adds to the server's
// env must not carry a secret in the open, must be a name Kubernetes takes, and must not move the
// server off the config and port llsd-render rendered and checked.
import type { FieldProblem } from '../lib/issues.js';
import { isPlainObject } from '../lib/objects.js';
import { clip, code, quote } from '../lib/quote.js';
import { formatFieldPath } from '../krm/item.js';
import type { SecretEnv } from './secrets.js';
import { isCredentialName, urlCredential } from '../lib/url-credentials.js';

type Path = FieldProblem['path'];
const envPath: Path = ['spec', 'workload', 'overrides', 'env'];
const fromSecret = '`valueFrom: {secretKeyRef: {name: <secret>, key: <key>}}`';

/** Each entry's name and literal value: a credential in the open, a name the API server refuses. */
export function overrideEnvEntryProblems(env: unknown): FieldProblem[] {
  if (!Array.isArray(env)) return [];
  const problems: FieldProblem[] = [];
  env.forEach((entry: unknown, i) => {
    if (!isPlainObject(entry) || typeof entry.name !== 'string') return;
    const { name, value } = entry;
    if (name === '' || name.includes('=')) {
      // Kubernetes takes any printable name without `=` (1.30+); the empty name never.
      const message = `must be a variable name without \`=\`, not ${JSON.stringify(clip(name))}: the API server refuses the Deployment`;
      problems.push({ path: [...envPath, i, 'name'], message });
    }
    // A `$(OTHER)` reference is Kubernetes' own expansion of another variable, not the secret itself.
    if (typeof value === 'string' && value !== '' && isCredentialName(name) && !value.includes('$(')) {
      problems.push({
        path: [...envPath, i, 'value'],
        message: `must not hold the value: ${clip(name)} names a credential, and the value would be in the Deployment for anyone who can read it; ` +
          `write ${fromSecret} instead of \`value\``,
      });
    } else if (typeof value === 'string' && urlCredential(value)) {
      problems.push({
        path: [...envPath, i, 'value'],
        message:
          'must not hold a credential in a URL: the value would be in the Deployment for anyone who can read it; put the whole value in a Secret and write ' +
          `${fromSecret} instead of \`value\``,
      });
    }
  });
  return problems;
}

/** The variables through which llsd-render points the image at what it rendered. */
export interface ServedEnv {
  /** Variables naming the mounted config.yaml (RUN_CONFIG_PATH, OGX_CONFIG). */
  configPath: readonly string[];
  /** The variable of the port the Service and probes use, and the CR field that sets that port. */
  port: string;
  portField: string;
  /** The variables llsd-render sets from the Secrets the CR names (`apiToken`, `apiKey`, …). */
  secrets?: readonly SecretEnv[];
}

/** An entry that sets one of `served`'s variables: the pod would run another config or port than the one rendered. */
export function servedEnvProblems(env: unknown, served: ServedEnv): FieldProblem[] {
  if (!Array.isArray(env)) return [];
  const problems: FieldProblem[] = [];
  env.forEach((entry: unknown, i) => {
    if (!isPlainObject(entry) || typeof entry.name !== 'string') return;
    const path = [...envPath, i, 'name'];
    if (served.configPath.includes(entry.name)) {
      const message =
        `sets ${code(entry.name)}, which llsd-render sets to the config.yaml it renders and checks: another value runs another config, ` +
        'unchecked; remove it (change the CR to change the config, or give a whole config by `overrideConfig`)';
      problems.push({ path, message });
    } else if (served.secrets?.some((e) => e.name === entry.name)) {
      const from = served.secrets.find((e) => e.name === entry.name) as SecretEnv;
      const message =
        `sets ${code(entry.name)}, which llsd-render sets from the Secret ${quote(from.secretName)} (key ${quote(from.key)}) for ` +
        `\`${formatFieldPath(from.path)}\`: this entry would replace it; remove it, and change that field to use another Secret`;
      problems.push({ path, message });
    } else if (entry.name === served.port) {
      const message =
        `sets ${code(entry.name)}, the port llsd-render gives the server, its Service and its probes: another value leaves them apart; ` +
        `set \`${served.portField}\` instead`;
      problems.push({ path, message });
    }
  });
  return problems;
}
