// Credentials written as values in an OGXServer: the operator copies provider fields, custom
// `settings` and `network.headers` into the generated config.yaml as they are, so a password in a
// URL or a literal API key there would sit in a ConfigMap for anyone who can read it. The same
// refusal as an LLSD's (src/llsd/providers.ts, docs/validation.md "Input that is refused"); values are never
// quoted. Not an upstream check: llsd-render's rule, on the parsed spec.
import { isPlainObject } from '../lib/objects.js';
import { isCredentialName, urlCredential } from '../lib/url-credentials.js';
import type { FieldProblem } from '../lib/issues.js';
import type { OgxServerSpec } from './ogxserver.js';

type Path = Array<string | number>;

const fromSecret =
  "give the credential from a Secret instead: a typed provider's Secret field (`apiKey`, `apiToken`, `password`, `token`), a custom provider's " +
    "`secretRefs`, or a `${env.NAME}` placeholder with NAME set from a Secret in `spec.workload.overrides.env`";

export function ogxLiteralCredentials(spec: Pick<OgxServerSpec, 'providers' | 'storage'>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const walk = (value: unknown, path: Path, free: boolean): void => {
    if (Array.isArray(value)) return value.forEach((child, i) => walk(child, [...path, i], free));
    const inUrl = urlCredential(value);
    if (inUrl) problems.push({ path, message: urlMessage(inUrl) });
    if (!isPlainObject(value)) return;
    for (const [key, child] of Object.entries(value)) {
      // Free-form maps (custom `settings`, `headers`) go to the config as written: a key that names a credential must not hold one.
      if (free && isCredentialName(key) && isLiteral(child)) {
        problems.push({
          path: [...path, key],
          message: `must not hold the value: ${key} names a credential, and a value written here would end up in the generated ConfigMap; ${fromSecret}`,
        });
      } else walk(child, [...path, key], free || key === 'settings' || key === 'headers');
    }
  };
  walk(spec.providers, ['spec', 'providers'], false);
  const kv = spec.storage?.kv;
  if (kv?.endpoint !== undefined) {
    const inUrl = urlCredential(kv.endpoint);
    // OGX's redis store takes no password at all (divergence B1): nothing to move it to.
    if (inUrl)
      problems.push({
        path: ['spec', 'storage', 'kv', 'endpoint'],
        message:
          "must not hold a credential: the endpoint goes into the generated ConfigMap, and OGX's redis store takes no password; remove it and use a redis " +
            "that needs none from inside the cluster",
      });
  }
  return problems;
}

/** A value that reaches the ConfigMap as the secret itself: a number, or text that is not one `${env.X}` placeholder. */
export const isLiteral = (value: unknown): boolean =>
  (typeof value === 'string' && value !== '' && !/^\$\{env\.[A-Za-z0-9_]+(?::=)?\}$/.test(value)) || typeof value === 'number';

const urlMessage = (where: 'userinfo' | 'query'): string =>
  where === 'userinfo'
    ? `must not hold a password: the \`user:password@\` part of a URL would end up in the generated ConfigMap; remove it from the URL and ${fromSecret}`
    : `must not hold a credential: a URL query parameter named as one (\`token=\`, \`api_key=\`, …) would end up in the generated ConfigMap; remove it from ` +
      `the URL and ${fromSecret}`;
