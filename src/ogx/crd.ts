// The CustomResourceDefinition of OGXServer (`schema --kind OGXServer --crd`), generated from the
// zod schema (ogxserver-schema.ts) as the LLSD's is (src/core/crd.ts): for a cluster that should
// accept OGXServers without the operator (Argo CD, Flux applying the CRs; `kubectl explain`).
// Its CEL rules are the operator's (ogx-ai/ogx-k8s-operator at 1784464, with the main's two on
// `externalAccess`), rule text and message as upstream writes them; `rules.ts` checks each of them
// with the same message and what to write instead. test/unit/ogx-crd.test.ts compares this CRD
// with upstream's, field by field, and lists where it differs on purpose.
import { crdVersion, type CustomResourceDefinition, type PrinterColumn, type ValidationRule, type VersionSource } from '../core/crd.js';
import { ogxTypedApis } from '../catalog/ogx-providers.js';
import { ogxGroup, ogxKind, ogxSchemas, ogxVersion } from './ogxserver-schema.js';
import { ogxNotEmptyFields } from './rules.js';

export const ogxPlural = 'ogxservers';

/** The OGXServer CRD: one version, `v1beta1`, as the operator serves it. */
export function ogxCrd(): CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${ogxPlural}.${ogxGroup}` },
    spec: {
      group: ogxGroup,
      names: { kind: ogxKind, listKind: `${ogxKind}List`, plural: ogxPlural, singular: ogxKind.toLowerCase() },
      scope: 'Namespaced',
      versions: [crdVersion(v1beta1(), true)],
    },
  };
}

const v1beta1 = (): VersionSource => ({
  name: ogxVersion,
  spec: ogxSchemas().spec,
  rules: ogxCelRules(),
  columns,
  description: `${ogxKind} (${ogxGroup}/${ogxVersion}): an OGX server, reconciled by the OGX operator or rendered at commit time by llsd-render.`,
});

/**
 * The operator's columns read `status`, which only the operator writes; these read the spec, so
 * that they show something wherever the CRD is installed.
 */
const columns: PrinterColumn[] = [
  { name: 'Distribution', type: 'string', jsonPath: '.spec.distribution.name', description: 'The named distribution.' },
  { name: 'Image', type: 'string', jsonPath: '.spec.distribution.image', description: 'The distribution image, when no name is given.', priority: 1 },
];

/** The CRD's CEL rules by path under `spec` (paths as `withRules` reads them). */
export function ogxCelRules(): Record<string, ValidationRule[]> {
  const rules: Record<string, ValidationRule[]> = {};
  const add = (path: string, rule: string, message: string) => (rules[path] ??= []).push({ rule, message });

  for (const field of ['providers', 'resources', 'storage', 'disabledAPIs', 'baseConfig']) {
    add('', `!has(self.overrideConfig) || !has(self.${field})`, `overrideConfig and ${field} are mutually exclusive`);
  }
  for (const { api, field } of ogxTypedApis()) {
    add(
      '',
      `!has(self.providers) || !has(self.disabledAPIs) || !self.disabledAPIs.exists(d, d == '${api}') || !has(self.providers.${field})`,
      `${api} cannot be both in providers and disabledAPIs`,
    );
  }
  add('distribution', '!(has(self.name) && has(self.image))', 'only one of name or image can be specified');
  add('distribution', 'has(self.name) || has(self.image)', 'one of name or image must be specified');
  for (const [pattern, fields] of ogxNotEmptyFields) {
    for (const field of fields) add(pattern, `!has(self.${field}) || self.${field}.size() > 0`, `${field} must not be empty if specified`);
  }
  add(
    'providers.*.*.custom[]',
    "self.type.startsWith('remote::') || self.type.startsWith('inline::')",
    "type must have a 'remote::' or 'inline::' prefix (e.g., 'remote::llama-guard', 'inline::my-provider')",
  );
  add('providers.vectorIo.remote.pgvector[].vectorIndex', 'has(self.hnsw) || has(self.ivfFlat)', 'one of hnsw or ivfFlat must be specified');
  add('providers.vectorIo.remote.pgvector[].vectorIndex', '!(has(self.hnsw) && has(self.ivfFlat))', 'only one of hnsw or ivfFlat can be specified');
  add('providers.vectorIo.remote.qdrant[]', 'has(self.url) || has(self.host)', 'at least one of url or host must be specified');
  add('storage.kv', "self.type != 'redis' || has(self.endpoint)", 'endpoint is required when type is redis');
  add('storage.kv', "!has(self.endpoint) || self.type == 'redis'", 'endpoint is only valid when type is redis');
  add('storage.kv', "!has(self.password) || self.type == 'redis'", 'password is only valid when type is redis');
  add('storage.sql', "self.type != 'postgres' || has(self.connectionString)", 'connectionString is required when type is postgres');
  add('storage.sql', "!has(self.connectionString) || self.type == 'postgres'", 'connectionString is only valid when type is postgres');
  // The operator's main (OPERATOR-MAIN-2026-09.md §2.3); `enabled` is always there, defaulted to false.
  add('network.externalAccess', '!self.enabled || has(self.hostname)', 'hostname is required when external access is enabled');
  add('network.externalAccess', '!self.enabled || has(self.tls)', 'tls is required when external access is enabled');
  add('workload.autoscaling', '!has(self.minReplicas) || self.maxReplicas >= self.minReplicas', 'maxReplicas must be greater than or equal to minReplicas');
  add('workload.podDisruptionBudget', 'has(self.minAvailable) || has(self.maxUnavailable)', 'at least one of minAvailable or maxUnavailable must be specified');
  add('workload.podDisruptionBudget', '!(has(self.minAvailable) && has(self.maxUnavailable))', 'minAvailable and maxUnavailable are mutually exclusive');
  add('workload.storage', "!has(self.size) || quantity(self.size).isGreaterThan(quantity('0'))", 'size must be a positive quantity');
  return rules;
}
