// `workload.overrides.env` of either API, checked the same way: what the user adds to the server's
// env must not carry a secret in the open, must be a name Kubernetes takes, and must not move the
// server off the config and port llsd-render rendered and checked.
import type { FieldProblem } from '../lib/issues.js';
import { isPlainObject } from '../lib/objects.js';
import { clip, code, listOf, quote } from '../lib/quote.js';
import { formatFieldPath } from '../krm/item.js';
import type { SecretEnv } from './secrets.js';
import { isCredentialName } from '../lib/url-credentials.js';

type Path = FieldProblem['path'];
const envPath: Path = ['spec', 'workload', 'overrides', 'env'];
const fromSecret = '`valueFrom: {secretKeyRef: {name: <secret>, key: <key>}}`';

/** Each entry's name and literal value: a credential in the open, an entry the API server refuses. */
export function overrideEnvEntryProblems(env: unknown): FieldProblem[] {
  if (!Array.isArray(env)) return [];
  const problems: FieldProblem[] = [];
  env.forEach((entry: unknown, i) => {
    if (!isPlainObject(entry) || typeof entry.name !== 'string') return;
    const { name, value, valueFrom } = entry;
    // Kubernetes takes a name of printable ASCII without `=` (1.30+); the empty name never.
    if (!/^[\x20-\x3c\x3e-\x7e]+$/.test(name)) {
      const message = `must be a variable name of printable ASCII without \`=\`, not ${JSON.stringify(clip(name))}: the API server refuses the Deployment`;
      problems.push({ path: [...envPath, i, 'name'], message });
    }
    if (typeof value === 'string' && value !== '' && valueFrom !== undefined) {
      const message = 'has both `value` and `valueFrom`, which the API server refuses: keep one';
      problems.push({ path: [...envPath, i, 'valueFrom'], message });
    }
    const sources = isPlainObject(valueFrom) ? Object.keys(valueFrom).filter((k) => valueFrom[k] !== undefined && valueFrom[k] !== null) : [];
    if (sources.length > 1) {
      const message = `names ${listOf(sources.map((k) => code(k)))}, and the API server takes one source per variable: keep one`;
      problems.push({ path: [...envPath, i, 'valueFrom'], message });
    }
    if (typeof value !== 'string' || value === '') return;
    problems.push(...laterReferences(env, i, value));
    const inUrl = urlCredentialIn(value);
    if (isCredentialName(name) && !notASecret(value)) {
      problems.push({
        path: [...envPath, i, 'value'],
        message: `must not hold the value: ${clip(name)} names a credential, and the value would be in the Deployment for anyone who can read it; ` +
          `write ${fromSecret} instead of \`value\``,
      });
    } else if (inUrl) {
      problems.push({
        path: [...envPath, i, 'value'],
        message:
          `must not hold a credential in a URL (${inUrl}): the value would be in the Deployment for anyone who can read it; put the whole value in a ` +
          `Secret and write ${fromSecret} instead of \`value\`, or build it from Secret-backed variables with \`$(NAME)\``,
      });
    }
  });
  return problems;
}

/**
 * `$(NAME)` naming a variable that only a later entry of the list sets: Kubernetes expands a
 * reference from the variables defined before it, so the value keeps `$(NAME)` as text (the server
 * would connect to `http://$(VLLM_HOST):8000`). `$$(NAME)` is the escape for the text itself.
 */
function laterReferences(env: readonly unknown[], index: number, value: string): FieldProblem[] {
  const firstIndex = new Map<string, number>();
  env.forEach((entry, i) => {
    if (isPlainObject(entry) && typeof entry.name === 'string' && !firstIndex.has(entry.name)) firstIndex.set(entry.name, i);
  });
  const problems: FieldProblem[] = [];
  const told = new Set<string>();
  for (const match of value.matchAll(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)/g)) {
    const name = match[1];
    const at = name === undefined ? undefined : firstIndex.get(name);
    if (name === undefined || at === undefined || at <= index || told.has(name)) continue;
    told.add(name);
    problems.push({
      severity: 'warning',
      code: 'env-reference-order',
      path: [...envPath, index, 'value'],
      message: `refers to ${code(`$(${name})`)}, which entry ${at} sets, after this one: Kubernetes expands only the variables set before a ` +
        `reference, so the value keeps ${code(`$(${name})`)} as text; move ${clip(name)} above this entry`,
    });
  }
  return problems;
}

/**
 * A value under a credential's name that is none: a `$(OTHER)` reference (Kubernetes expands it
 * from another variable), a file path (`GOOGLE_APPLICATION_CREDENTIALS: /var/secrets/key.json`),
 * or a switch (`HF_HUB_DISABLE_IMPLICIT_TOKEN: "1"`).
 */
const notASecret = (value: string): boolean => value.includes('$(') || value.startsWith('/') || /^(?:0|1|true|false|yes|no|on|off)$/i.test(value);

/**
 * Where an env value that is a URL carries a credential: a password in its user information, or a
 * query parameter that holds one. Stricter than a provider URL's check, as env values are free
 * text: `$(NAME)` references are Kubernetes' (`postgresql://$(USER):$(PASSWORD)@db` holds no
 * secret), a user name alone (`ssh://git@…`) and a path (`sslkey=/certs/client.key`) are none.
 */
function urlCredentialIn(value: string): string | undefined {
  const text = value.replace(/\$\([A-Za-z_][A-Za-z0-9_.-]*\)/g, '');
  const userinfo = /^[a-z][a-z0-9+.-]*:\/\/([^/@\s?#]*)@/i.exec(text)?.[1];
  if (userinfo !== undefined && /:[^:]/.test(userinfo)) return 'a password in its user information';
  const query = /[?&;]([a-z0-9_-]*(?:password|passwd|pwd|secret|token|jwt|signature|apikey|api_key|access_key))=([^&#]*)/i.exec(text);
  if (query && query[2] !== '' && !(query[2] as string).startsWith('/')) return `the query parameter \`${clip(query[1] as string)}\``;
  return undefined;
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
    const from = served.secrets?.find((e) => e.name === entry.name);
    if (served.configPath.includes(entry.name)) {
      const message =
        `sets ${code(entry.name)}, which llsd-render sets to the config.yaml it renders and checks: another value runs another config, ` +
        'unchecked; remove it (change the CR to change the config, or give a whole config by `overrideConfig`)';
      problems.push({ path, message });
    } else if (from) {
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
