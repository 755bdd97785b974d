// What an OGXServer refers to among the other input objects: its Secrets, checked as an LLSD's are
// (references.ts: values the server would not take as text; the secret policy for Secrets not in
// the input). The ConfigMaps it names (baseConfig, overrideConfig, CA certificates) are read by the
// plan, which reports a missing one. Secret values are never read into a result.
import type { Inventory } from '../krm/inventory.js';
import type { FieldProblem } from '../lib/issues.js';
import type { OgxServer } from './ogxserver.js';
import { ogxPraxisMigration } from '../core/ogx-workload.js';
import { checkSecrets, secretReferencesIn, type SecretReference } from '../core/secret-references.js';
import type { RenderOptions } from '../core/render-config.js';

export function checkOgxReferences(server: OgxServer, inventory: Inventory, options: RenderOptions): FieldProblem[] {
  return checkSecrets(server.metadata.namespace, ogxSecretReferences(server), inventory, options);
}

/**
 * Every Secret an OGXServer refers to, with its path, in document order. Under `providers` and
 * `storage` (and `praxisMode.migrationJob`, when its Job is rendered) every `{name, key}` is a Secret reference (the CRD has no ConfigMap reference there);
 * elsewhere only `secretKeyRef` env sources. `tls.identity.key` and `network.tls.secretName` are
 * read by nothing in the operator, so the pod does not need them.
 */
export function ogxSecretReferences(server: OgxServer): SecretReference[] {
  const { spec } = server;
  // `settings` is free-form config: a `{name, key}` there is data, not a reference.
  const settings = (key: string): boolean => key === 'settings';
  return [
    ...secretReferencesIn(spec.providers, ['spec', 'providers'], () => true, settings),
    ...secretReferencesIn(spec.storage, ['spec', 'storage'], () => true, settings),
    ...secretReferencesIn(spec.workload, ['spec', 'workload'], () => false),
    // The Praxis migration Job's target database (PRAXIS_DATABASE_URL), when the Job is rendered.
    ...(ogxPraxisMigration(spec) ? secretReferencesIn(spec.praxisMode?.migrationJob, ['spec', 'praxisMode', 'migrationJob'], () => true) : []),
  ];
}
