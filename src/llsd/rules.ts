// Rules across fields of one LLSD (docs/validation.md): the CEL rules of the v1alpha2 proposal, fixed where
// they were wrong there, and the spec's edge cases. Each returns problems with a field path.
import { overrideEnvEntryProblems } from '../core/override-env.js';
import { quote } from '../lib/quote.js';
import type { FieldProblem } from '../lib/issues.js';
import { formatFieldPath } from '../krm/item.js';
import { isPlainObject } from '../lib/objects.js';
import { problemsFromIssues } from '../lib/issues.js';
import type { Llsd, ModelEntry, ProviderEntry } from './llsd.js';
import { llsdV1alpha2Schemas, providerApis, type ProviderApi, type SpecInput, type StorageBackendInput } from './llsd-v1alpha2.js';

export function checkRules(llsd: Llsd): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const { spec } = llsd;
  checkDistribution(spec, problems);
  checkUniqueProviderIds(llsd.providers, problems);
  checkOverrideConfig(spec, problems);
  checkStorage(spec, problems);
  checkTls(spec, problems);
  checkWorkload(spec, problems);
  checkModels(llsd, problems);
  checkSettingsSecrets(llsd.providers, problems);
  checkExternalProviders(spec, problems);
  return problems;
}

function checkDistribution(spec: SpecInput, problems: FieldProblem[]): void {
  const { name, image } = spec.distribution;
  if ((name === undefined) === (image === undefined)) {
    problems.push({
      path: ['spec', 'distribution'],
      message:
        name === undefined
          ? 'must set `name` (a named distribution such as `starter`) or `image` (a distribution image)'
          : 'must set only one of `name` and `image`: a named distribution already pins its image',
    });
  }
}

/** FR-072: ids are unique across every provider API, not only within one (the proposal's CEL checked per list). */
function checkUniqueProviderIds(providers: readonly ProviderEntry[], problems: FieldProblem[]): void {
  const first = new Map<string, ProviderEntry>();
  for (const provider of providers) {
    const earlier = first.get(provider.id);
    if (!earlier) {
      first.set(provider.id, provider);
      continue;
    }
    problems.push({
      path: [...provider.path, 'id'],
      message: `duplicates the provider id ${quote(provider.id)} of \`${formatFieldPath(earlier.path)}\`; provider ids must be unique across all APIs`,
    });
  }
}

/** The fields of `spec` that generate the config, and so cannot be combined with `overrideConfig` (also the CRD's rules, and conversion). */
export const generatingFields = ['providers', 'resources', 'storage', 'disabled'] as const;

/** FR-013/FR-070: a whole config from a ConfigMap leaves nothing to generate. */
function checkOverrideConfig(spec: SpecInput, problems: FieldProblem[]): void {
  if (!spec.overrideConfig) return;
  for (const field of generatingFields) {
    if (spec[field] !== undefined) {
      problems.push({
        path: ['spec', field],
        message: `cannot be combined with \`spec.overrideConfig\`, which supplies the whole config.yaml; put it in that ConfigMap's config.yaml, or remove ` +
          `\`overrideConfig\` to have the config generated`,
      });
    }
  }
}

const storageFields: Record<'sqlite' | 'redis' | 'postgres', ReadonlyArray<keyof StorageBackendInput>> = {
  sqlite: ['type'],
  redis: ['type', 'endpoint', 'host', 'port', 'password'],
  postgres: ['type', 'host', 'port', 'database', 'user', 'password'],
};

function checkStorage(spec: SpecInput, problems: FieldProblem[]): void {
  for (const store of ['kv', 'sql'] as const) {
    const backend = spec.storage?.[store];
    if (!backend) continue;
    const path = ['spec', 'storage', store];
    const type = backend.type ?? 'sqlite';
    if (store === 'sql' && type === 'redis') {
      problems.push({ path: [...path, 'type'], message: 'must be `sqlite` or `postgres`: redis is a key-value store only' });
      continue;
    }
    if (backend.connectionString !== undefined) {
      problems.push({
        path: [...path, 'connectionString'],
        message:
          "is not supported: llama-stack's postgres backend takes host, port, db, user and password, not a connection string; write `host`, `port`, " +
            "`database`, `user` and `password` (each a value or `{secretKeyRef: {name, key}}`) instead",
      });
    }
    for (const field of Object.keys(backend) as Array<keyof StorageBackendInput>) {
      if (field === 'connectionString' || storageFields[type].includes(field)) continue;
      problems.push({
        path: [...path, field],
        message: `does not apply to a ${type} store; it is read only for ${Object.entries(storageFields)
          .filter(([, fields]) => fields.includes(field))
          .map(([t]) => t)
          .join(' and ')}`,
      });
    }
    if (type === 'redis' && backend.endpoint === undefined && backend.host === undefined) {
      problems.push({ path, message: 'needs the redis server: set `endpoint: redis://<host>:<port>` or `host` (and `port`)' });
    }
    if (type === 'redis' && backend.endpoint !== undefined && (backend.host !== undefined || backend.port !== undefined)) {
      problems.push({ path: [...path, 'endpoint'], message: 'must not be combined with `host` or `port`; use one form' });
    }
    if (type === 'postgres') {
      for (const field of ['host', 'user'] as const) {
        if (backend[field] === undefined)
          problems.push({ path: [...path, field], message: `is required for a postgres store (llama-stack needs the ${field})` });
      }
    }
  }
}

function checkTls(spec: SpecInput, problems: FieldProblem[]): void {
  const tls = spec.networking?.tls;
  if (!tls) return;
  const path = ['spec', 'networking', 'tls'];
  if (tls.enabled === true && tls.secretName === undefined) {
    problems.push({
      path: [...path, 'secretName'],
      message: 'is required when `enabled` is true: name the kubernetes.io/tls Secret with the server certificate',
    });
  }
  if (tls.enabled !== true && tls.secretName !== undefined) {
    problems.push({ path: [...path, 'enabled'], message: 'must be true when `secretName` is set; set `enabled: true` to serve HTTPS, or remove `secretName`' });
  }
  // The proposal also required TLS for `caBundle`; but the CA bundle is for outbound trust (the
  // operator's v1alpha1 tlsConfig.caBundle), independent of serving HTTPS, so it is allowed alone.
}

function checkWorkload(spec: SpecInput, problems: FieldProblem[]): void {
  const workload = spec.workload;
  if (!workload) return;
  const autoscaling = workload.autoscaling;
  if (autoscaling?.minReplicas !== undefined && autoscaling.maxReplicas < autoscaling.minReplicas) {
    problems.push({
      path: ['spec', 'workload', 'autoscaling', 'maxReplicas'],
      message: `must be at least \`minReplicas\` (${autoscaling.minReplicas}), not ${autoscaling.maxReplicas}`,
    });
  }
  // A credential in the open (`value: sk-…`, `postgres://u:PASS@db/x`) would sit in the Deployment for anyone who can read it.
  problems.push(...overrideEnvEntryProblems(workload.overrides?.env));
  const pdb = workload.podDisruptionBudget;
  if (pdb && (pdb.minAvailable === undefined) === (pdb.maxUnavailable === undefined)) {
    problems.push({
      path: ['spec', 'workload', 'podDisruptionBudget'],
      message: pdb.minAvailable === undefined ? 'must set `minAvailable` or `maxUnavailable`' : 'must set only one of `minAvailable` and `maxUnavailable`',
    });
  }
}

function checkModels(llsd: Llsd, problems: FieldProblem[]): void {
  const first = new Map<string, ModelEntry>();
  for (const model of llsd.models) {
    const earlier = first.get(model.name);
    if (earlier) {
      problems.push({
        path: typeof llsd.spec.resources?.models?.[model.path[3] as number] === 'string' ? model.path : [...model.path, 'name'],
        message: `duplicates the model ${quote(model.name)} of \`${formatFieldPath(earlier.path)}\`; give each model a unique name`,
      });
    } else {
      first.set(model.name, model);
    }
    if (model.modelType === 'embedding' && model.embeddingDimension === undefined) {
      problems.push({ path: [...model.path, 'embeddingDimension'], message: 'is required for an embedding model: llama-stack refuses to start without it' });
    }
    if (model.embeddingDimension !== undefined && model.modelType !== 'embedding') {
      problems.push({ path: [...model.path, 'embeddingDimension'], message: 'applies only to `modelType: embedding`' });
    }
  }
}

/**
 * A `secretKeyRef` anywhere in `settings` must be a whole Secret selector: an incomplete one would
 * be written into config.yaml as a mapping the server reads as the value.
 */
function checkSettingsSecrets(providers: readonly ProviderEntry[], problems: FieldProblem[]): void {
  const walk = (value: unknown, path: Array<string | number>): void => {
    if (Array.isArray(value)) return value.forEach((v, i) => walk(v, [...path, i]));
    if (!isPlainObject(value)) return;
    if ('secretKeyRef' in value) {
      const { secretLeaf } = llsdV1alpha2Schemas();
      const parsed = secretLeaf.safeParse(value, { reportInput: true });
      if (!parsed.success) problems.push(...problemsFromIssues(parsed.error.issues, secretLeaf).map((p) => ({ ...p, path: [...path, ...p.path] })));
      return;
    }
    for (const [key, child] of Object.entries(value)) walk(child, [...path, key]);
  };
  for (const provider of providers) walk(provider.settings, [...provider.path, 'settings']);
}

/** Two external providers with one id would replace each other (spec 001: a failure). */
function checkExternalProviders(spec: SpecInput, problems: FieldProblem[]): void {
  const first = new Map<string, Array<string | number>>();
  for (const [api, list] of Object.entries(spec.externalProviders ?? {})) {
    (list ?? []).forEach((entry, i) => {
      const path = ['spec', 'externalProviders', api, i];
      const earlier = first.get(entry.providerId);
      if (earlier) {
        problems.push({
          path: [...path, 'providerId'],
          message: `duplicates the external provider id ${quote(entry.providerId)} of \`${formatFieldPath(earlier)}\`; give each a unique id`,
        });
      } else {
        first.set(entry.providerId, path);
      }
    });
  }
}

/** `vectorIo` and `vector_io` name the same API. */
export const apiOfDisabled = (name: string): string =>
  name in providerApis ? providerApis[name as ProviderApi] : name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
