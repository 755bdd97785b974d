// Checks of what an LLSD refers to among the other input objects (docs/render-options.md; FR-073, FR-074):
// the overrideConfig and CA bundle ConfigMaps must be in the input; referenced Secrets are looked
// up per the secret policy. Secret values are never read.
import type { Inventory } from '../krm/inventory.js';
import { quote } from '../lib/quote.js';
import type { FieldProblem } from '../lib/issues.js';
import type { Llsd } from './llsd.js';
import type { RenderOptions } from '../core/render-config.js';
import { checkSecrets, secretReferencesIn, type SecretReference } from '../core/secret-references.js';

export function checkReferences(llsd: Llsd, inventory: Inventory, options: RenderOptions): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const namespace = llsd.namespace;
  const override = llsd.spec.overrideConfig;
  if (override) {
    const path = ['spec', 'overrideConfig', 'configMapName'];
    const configMap = inventory.find('', 'ConfigMap', namespace, override.configMapName);
    if (!configMap) {
      problems.push({
        path,
        message: `names the ConfigMap ${quote(override.configMapName)}, which is not in the input; add it next to the LLSD (with the key \`config.yaml\`) ` +
          `so its content can be checked and hashed`,
      });
    } else if (typeof (configMap.object.data as Record<string, unknown> | undefined)?.['config.yaml'] !== 'string') {
      problems.push({
        path,
        message: `names the ConfigMap ${quote(override.configMapName)}, which has no \`data.config.yaml\`; put the whole llama-stack config under that key`,
      });
    }
  }
  const caBundle = llsd.spec.networking?.tls?.caBundle;
  if (caBundle && !inventory.find('', 'ConfigMap', namespace, caBundle.configMapName)) {
    problems.push({
      path: ['spec', 'networking', 'tls', 'caBundle', 'configMapName'],
      message: `names the ConfigMap ${quote(caBundle.configMapName)}, which is not in the input; add the ConfigMap with the CA certificates next to the LLSD`,
    });
  }
  problems.push(...checkSecrets(namespace, secretReferencesOf(llsd), inventory, options));
  return problems;
}


/** Every Secret the LLSD refers to, with the path it was written at, in document order. */
export function secretReferencesOf(llsd: Llsd): SecretReference[] {
  // `{name, key}` is a Secret reference only where the schema says so: a short-form field, or a `secretRefs` entry.
  const bare = (path: ReadonlyArray<string | number>): boolean => {
    const key = path[path.length - 1];
    return typeof key === 'string' && (shortForms.has(key) || path[path.length - 2] === 'secretRefs');
  };
  const refs = secretReferencesIn(llsd.spec, ['spec'], bare);
  const tlsSecret = llsd.spec.networking?.tls?.secretName;
  if (tlsSecret) refs.push({ name: tlsSecret, path: ['spec', 'networking', 'tls', 'secretName'] });
  return refs;
}

const shortForms = new Set(['apiKey', 'password', 'connectionString']);
