// What an OGXServer refers to among the other input objects: its Secrets, checked as an LLSD's are
// (references.ts: values the server would not take as text; the secret policy for Secrets not in
// the input). The ConfigMaps it names (baseConfig, overrideConfig, CA certificates) are read by the
// plan, which reports a missing one. Secret values are never read into a result.
import type { Inventory } from '../krm/inventory.js';
import { isPlainObject } from '../lib/objects.js';
import type { FieldProblem } from './issues.js';
import type { OgxServer } from './ogxserver.js';
import { checkSecrets, type SecretReference } from './references.js';
import type { RenderOptions } from './render-config.js';

export function checkOgxReferences(server: OgxServer, inventory: Inventory, options: RenderOptions): FieldProblem[] {
  return checkSecrets(server.metadata.namespace, ogxSecretReferences(server), inventory, options);
}

/**
 * Every Secret an OGXServer refers to, with its path, in document order. Under `providers` and
 * `storage` every `{name, key}` is a Secret reference (the CRD has no ConfigMap reference there);
 * elsewhere only `secretKeyRef` env sources. `tls.identity.key` and `network.tls.secretName` are
 * read by nothing (API.md §8, §9), so the pod does not need them.
 */
export function ogxSecretReferences(server: OgxServer): SecretReference[] {
  const refs: SecretReference[] = [];
  const walk = (value: unknown, path: Array<string | number>, refsHere: boolean): void => {
    if (Array.isArray(value)) {
      value.forEach((v, i) => walk(v, [...path, i], refsHere));
      return;
    }
    if (!isPlainObject(value)) return;
    const selector = isPlainObject(value.secretKeyRef) ? value.secretKeyRef : refsHere ? value : undefined;
    if (selector && typeof selector.name === 'string' && typeof selector.key === 'string') {
      refs.push({ name: selector.name, key: selector.key, path });
      return;
    }
    // `settings` is free-form config: a `{name, key}` there is data, not a reference.
    for (const [key, child] of Object.entries(value)) if (key !== 'settings') walk(child, [...path, key], refsHere);
  };
  const { spec } = server;
  walk(spec.providers, ['spec', 'providers'], true);
  walk(spec.storage, ['spec', 'storage'], true);
  walk(spec.workload, ['spec', 'workload'], false);
  return refs;
}
