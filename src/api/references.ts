// Checks of what an LLSD refers to among the other input objects (DESIGN §7, §8; FR-073, FR-074):
// the overrideConfig and CA bundle ConfigMaps must be in the input; referenced Secrets are looked
// up per the secret policy. Secret values are never read.
import type { Inventory } from '../krm/inventory.js';
import { isPlainObject } from '../lib/objects.js';
import { clip, quote } from '../lib/quote.js';
import type { FieldProblem } from './issues.js';
import type { Llsd } from './llsd.js';
import type { RenderOptions } from './render-config.js';

export interface SecretReference {
  name: string;
  key?: string;
  path: Array<string | number>;
}

export function checkReferences(llsd: Llsd, inventory: Inventory, options: RenderOptions): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const namespace = llsd.namespace;
  const override = llsd.spec.overrideConfig;
  if (override) {
    const path = ['spec', 'overrideConfig', 'configMapName'];
    const configMap = inventory.find('', 'ConfigMap', namespace, override.configMapName);
    if (!configMap) {
      problems.push({ path, message: `names the ConfigMap ${quote(override.configMapName)}, which is not in the input; add it next to the LLSD (with the key \`config.yaml\`) so its content can be checked and hashed` });
    } else if (typeof (configMap.object.data as Record<string, unknown> | undefined)?.['config.yaml'] !== 'string') {
      problems.push({ path, message: `names the ConfigMap ${quote(override.configMapName)}, which has no \`data.config.yaml\`; put the whole llama-stack config under that key` });
    }
  }
  const caBundle = llsd.spec.networking?.tls?.caBundle;
  if (caBundle && !inventory.find('', 'ConfigMap', namespace, caBundle.configMapName)) {
    problems.push({
      path: ['spec', 'networking', 'tls', 'caBundle', 'configMapName'],
      message: `names the ConfigMap ${quote(caBundle.configMapName)}, which is not in the input; add the ConfigMap with the CA certificates next to the LLSD`,
    });
  }
  if (options.secretPolicy === 'off') return problems;
  const severity = options.secretPolicy === 'strict' ? 'error' : 'warning';
  const seen = new Set<string>();
  for (const ref of secretReferencesOf(llsd)) {
    if (seen.has(ref.name) || inventory.hasSecret(namespace, ref.name)) continue;
    seen.add(ref.name);
    problems.push({
      severity,
      path: ref.path,
      message: `refers to the Secret ${quote(ref.name)}, which is not in the input (as a Secret, SealedSecret or ExternalSecret); the pod will not start until it exists${namespace ? ` in namespace ${clip(namespace)}` : ''}${severity === 'warning' ? ' (set `secretPolicy: strict` to make this an error, or `off` to skip the check)' : ''}`,
    });
  }
  return problems;
}

/** Every Secret the LLSD refers to, with the path it was written at, in document order. */
export function secretReferencesOf(llsd: Llsd): SecretReference[] {
  const refs: SecretReference[] = [];
  const walk = (value: unknown, path: Array<string | number>, shortFormAllowed: boolean): void => {
    if (Array.isArray(value)) {
      value.forEach((v, i) => walk(v, [...path, i], false));
      return;
    }
    if (!isPlainObject(value)) return;
    const selector = isPlainObject(value.secretKeyRef) ? value.secretKeyRef : shortFormAllowed ? value : undefined;
    if (selector && typeof selector.name === 'string' && typeof selector.key === 'string') {
      refs.push({ name: selector.name, key: selector.key, path });
      return;
    }
    for (const [key, child] of Object.entries(value)) {
      // `{name, key}` is a Secret reference only where the schema says so.
      walk(child, [...path, key], shortForms.has(key) || path[path.length - 1] === 'secretRefs');
    }
  };
  walk(llsd.spec, ['spec'], false);
  const tlsSecret = llsd.spec.networking?.tls?.secretName;
  if (tlsSecret) refs.push({ name: tlsSecret, path: ['spec', 'networking', 'tls', 'secretName'] });
  return refs;
}

const shortForms = new Set(['apiKey', 'password', 'connectionString']);
