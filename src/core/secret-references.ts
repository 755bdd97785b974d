// Secret references of either input API: where a CR names a Secret key, and the checks of those
// Secrets among the input objects (docs/render-options.md; FR-073, FR-074). Secret values are never read.
import type { Inventory } from '../krm/inventory.js';
import { isPlainObject } from '../lib/objects.js';
import { clip, listOf, quote } from '../lib/quote.js';
import { closest, type FieldProblem } from '../lib/issues.js';
import type { RenderOptions } from './render-config.js';

export interface SecretReference {
  name: string;
  key?: string;
  path: Array<string | number>;
}


/**
 * The Secrets a CR refers to (any API): values the server would not take as text, and, per the
 * secret policy, Secrets that are not in the input.
 */
export function checkSecrets(namespace: string | undefined, refs: readonly SecretReference[], inventory: Inventory, options: RenderOptions): FieldProblem[] {
  const problems = typedSecretValues(namespace, refs, inventory);
  // A key missing from a Secret that is in the input is sure to stop the pod: an error unless the
  // Secret checks are off, which lowers it to a warning (then silenceable by its code).
  problems.push(...missingKeys(namespace, refs, inventory, options.secretPolicy === 'off' ? 'warning' : 'error'));
  if (options.secretPolicy === 'off') return problems;
  const severity = options.secretPolicy === 'strict' ? 'error' : 'warning';
  const seen = new Set<string>();
  for (const ref of refs) {
    if (seen.has(ref.name) || inventory.hasSecret(namespace, ref.name)) continue;
    seen.add(ref.name);
    if (inventory.generator) {
      problems.push(unseenByGenerator(ref, severity));
      continue;
    }
    // A Secret of that name elsewhere is the likely mistake: a pod reads Secrets of its own namespace only.
    const elsewhere = inventory.secretNamespaces(ref.name);
    const policy = severity === 'warning' ? ' (set `secretPolicy: strict` to make this an error, or `off` to skip the check)' : '';
    const message =
      elsewhere.length > 0 && namespace !== undefined
        ? `refers to the Secret ${quote(ref.name)}, which is in the input only in namespace ${listOf(elsewhere, { each: (ns) => quote(ns), last: 'and' })}; ` +
          `a pod reads Secrets of its own namespace only, so the Secret must be in ${quote(namespace)}: the pod will not start until it exists there${policy}`
        : `refers to the Secret ${quote(ref.name)}, which is not in the input (as a Secret, SealedSecret or ExternalSecret); the pod will not start ` +
          `until it exists${namespace ? ` in namespace ${clip(namespace)}` : ''}${policy}`;
    problems.push({ severity, code: 'secret-not-in-input', path: ref.path, message });
  }
  return problems;
}

/**
 * A key the referenced Secret does not have, where the Secret itself is in the input: the pod
 * would wait in CreateContainerConfigError, so an error (issue 29), a warning with `secretPolicy:
 * off` (the key may be added after the render). Only a plain Secret's keys are known here (a
 * SealedSecret or ExternalSecret may make others); its key names are listed, never a value.
 */
function missingKeys(namespace: string | undefined, refs: readonly SecretReference[], inventory: Inventory, severity: 'error' | 'warning'): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const ref of refs) {
    if (ref.key === undefined) continue;
    const secret = inventory.find('', 'Secret', namespace, ref.name)?.object;
    if (!secret) continue;
    const keys = [secret.data, secret.stringData].flatMap((map) => (isPlainObject(map) ? Object.keys(map) : []));
    // A YAML merge key `<<` (which Kubernetes' reader applies) brings keys not listed here: no verdict.
    if (keys.includes(ref.key) || keys.includes('<<')) continue;
    const near = closest(ref.key, keys);
    const has = keys.length === 0 ? 'which has no keys' : `whose keys are ${listOf([...new Set(keys)].sort(), { each: (k) => quote(k) })}`;
    problems.push({
      severity,
      code: 'secret-key-missing',
      path: ref.path,
      message: `refers to key ${quote(ref.key)} of the Secret ${quote(ref.name)}, ${has}; the pod would not start (CreateContainerConfigError): ` +
        `${near ? `did you mean ${quote(near)}? ` : ''}write one of its keys, or add the key to the Secret` +
        `${severity === 'error' ? ' (if the key is added after the render, `secretPolicy: off` makes this a warning)' : ''}`,
    });
  }
  return problems;
}

/**
 * A kustomize generator sees no resources (issue 18: the warning claimed the Secret was missing while
 * `secret.yaml` was in `resources:`). Said as what it is; under `strict` an error, since a generator
 * can never show the Secret.
 */
function unseenByGenerator(ref: SecretReference, severity: 'error' | 'warning'): FieldProblem {
  const instead =
    severity === 'error'
      ? ': with `secretPolicy: strict`, use the transformer form, which sees the resources, or set `secretPolicy: warn`'
      : '; make sure it exists where the pod runs';
  return {
    severity: severity === 'error' ? 'error' : 'info',
    path: ref.path,
    message: `refers to the Secret ${quote(ref.name)}, which a kustomize generator cannot check: kustomize gives a generator none of the kustomization's ` +
      `resources${instead}`,
  };
}

/**
 * Secret values the server would not take as text. A provider or storage secret reaches config.yaml
 * as `${env.X}`, and llama-stack converts what it substitutes: a value that reads as a number
 * becomes an int or a float, `true`/`false` a bool, and an empty one stops it ("not set or empty")
 * — so an API key or password of all digits fails the server's string field at startup
 * (each release's `replace_env_vars`, configs/release-notes.yaml `envSubstitution`). Where the Secret is in the input, its value is classified
 * here, and only the class is reported: never the value. Ports are left alone (an int is wanted).
 */
function typedSecretValues(namespace: string | undefined, refs: readonly SecretReference[], inventory: Inventory): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const seen = new Set<string>();
  for (const ref of refs) {
    if (ref.key === undefined || !substitutedIntoConfig(ref.path) || seen.has(`${ref.name}/${ref.key}`)) continue;
    seen.add(`${ref.name}/${ref.key}`);
    const secret = inventory.find('', 'Secret', namespace, ref.name)?.object;
    if (!secret && isStorageText(ref.path)) {
      // The value cannot be seen: say what it must not be. (Said for every postgres user and
      // password read from a Secret, it was noise where the Secret is in the input: 333 warnings
      // for the bench's 1,000 LLSDs, whose values are all text.)
      const field = String(ref.path[ref.path.length - 1]);
      problems.push({
        severity: 'warning',
        code: 'numeric-secret-value',
        path: ref.path,
        message: `is read from key ${quote(ref.key)} of the Secret ${quote(ref.name)}, which is not in the input to be checked; llama-stack turns a ` +
          `substituted value that reads as a number or as true/false into that type, so a ${field} such as 123456 would stop the server: keep that ` +
          `value non-numeric`,
      });
      continue;
    }
    const value = secretValue(secret, ref.key);
    const reads = value === undefined ? undefined : readsAs(value);
    if (reads === undefined) continue;
    problems.push({
      severity: 'warning',
      code: 'secret-value-not-text',
      path: ref.path,
      message:
        reads === 'empty'
          ? `refers to key ${quote(ref.key)} of the Secret ${quote(ref.name)}, which is empty; llama-stack stops at startup when a substituted value is ` +
            `empty: put the value in that key`
          : `refers to key ${quote(ref.key)} of the Secret ${quote(ref.name)}, whose value reads as ${reads}; llama-stack turns a substituted value that ` +
            `reads as a number or as true/false into that type, so the server refuses it where it expects text (an API key, a password): use a value that ` +
            `is not ${reads === 'a boolean' ? 'true or false' : 'all digits'}`,
    });
  }
  return problems;
}

/**
 * A postgres `user`, `password` or `database` under `spec.storage`: text the server's storage
 * backend validates as a string at startup (a port may well be a number).
 */
const isStorageText = (path: ReadonlyArray<string | number>): boolean =>
  path[1] === 'storage' && ['user', 'password', 'database'].includes(String(path[path.length - 1]));

/** References under `spec.providers` and `spec.storage` become `${env.X}` in config.yaml; a port may well be a number. */
const substitutedIntoConfig = (path: ReadonlyArray<string | number>): boolean =>
  (path[1] === 'providers' || path[1] === 'storage') && path[path.length - 1] !== 'port';

/** A Secret's value for `key`: `stringData` wins over `data` (base64), as the API server merges them. */
function secretValue(secret: Record<string, unknown> | undefined, key: string): string | undefined {
  if (!secret) return undefined;
  const stringData = secret.stringData;
  if (isPlainObject(stringData) && Object.hasOwn(stringData, key)) return typeof stringData[key] === 'string' ? stringData[key] : String(stringData[key]);
  const data = secret.data;
  if (isPlainObject(data) && typeof data[key] === 'string') return Buffer.from(data[key], 'base64').toString('utf8');
  return undefined;
}

/** What Python's int()/float() or the bool check of llama-stack's substitution makes of a value, if not text. */
function readsAs(value: string): 'a number' | 'a boolean' | 'empty' | undefined {
  if (value === '') return 'empty';
  if (/^(true|false)$/i.test(value)) return 'a boolean';
  if (/^\s*[-+]?(\d(_?\d)*(\.(\d(_?\d)*)?)?|\.\d(_?\d)*)([eE][-+]?\d(_?\d)*)?\s*$/.test(value)) return 'a number';
  if (/^\s*[-+]?(nan|inf|infinity)\s*$/i.test(value)) return 'a number';
  return undefined;
}


/**
 * The Secret references under `value` (at `path`), in document order: every `secretKeyRef`
 * selector, and every `{name, key}` at a path where `bare` says the API puts a Secret reference.
 * Keys `skip` names are not entered (free-form data). For both input APIs.
 */
export function secretReferencesIn(
  value: unknown,
  path: Array<string | number>,
  bare: (path: ReadonlyArray<string | number>) => boolean,
  skip: (key: string) => boolean = () => false,
): SecretReference[] {
  const refs: SecretReference[] = [];
  const walk = (node: unknown, at: Array<string | number>): void => {
    if (Array.isArray(node)) {
      node.forEach((v, i) => walk(v, [...at, i]));
      return;
    }
    if (!isPlainObject(node)) return;
    const selector = isPlainObject(node.secretKeyRef) ? node.secretKeyRef : bare(at) ? node : undefined;
    if (selector && typeof selector.name === 'string' && typeof selector.key === 'string') {
      refs.push({ name: selector.name, key: selector.key, path: at });
      return;
    }
    for (const [key, child] of Object.entries(node)) if (!skip(key)) walk(child, [...at, key]);
  };
  walk(value, path);
  return refs;
}
