// The CustomResourceDefinition of LlamaStackDistribution (`schema --crd`), generated from the zod
// schemas (STYLE §9) for clusters that should accept LLSDs: with `kubectl apply` of the CRs
// (Argo CD, Flux) or for server-side validation and `kubectl explain`. llsd-render itself never
// needs it: it renders at commit time, and no controller writes `status`.
//
// The structural form and the versions are made as for the OGXServer's (src/core/crd.ts); the
// rules across fields of `rules.ts` that CEL can express on structural nodes are added here as
// `x-kubernetes-validations`.
import { crdVersion, type CustomResourceDefinition, type ValidationRule, type VersionSource } from '../core/crd.js';
import { v1alpha1Schemas } from './llsd-v1alpha1.js';
import { group, kind, llsdV1alpha2Schemas } from './llsd-v1alpha2.js';
import { generatingFields } from './rules.js';

export type { CustomResourceDefinition, StructuralSchema, ValidationRule } from '../core/crd.js';

/** The Service in front of `llsd-render webhook`, which converts between the served versions. */
export const conversionWebhook = {
  namespace: 'llsd-render-system',
  name: 'llsd-render-webhook',
  path: '/convert',
  port: 443,
} as const;

export const plural = 'llamastackdistributions';
export const crdName = `${plural}.${group}`;

/** The CRD; the last of `versions` is the storage version. */
export function crd(versions: readonly VersionSource[] = servedVersions): CustomResourceDefinition {
  const webhook = versions.length > 1;
  const definition: CustomResourceDefinition = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: webhook
      ? { name: crdName, annotations: { 'cert-manager.io/inject-ca-from': `${conversionWebhook.namespace}/${conversionWebhook.name}` } }
      : { name: crdName },
    spec: {
      group,
      names: { kind, listKind: `${kind}List`, plural, singular: kind.toLowerCase(), shortNames: ['llsd'] },
      scope: 'Namespaced',
      versions: versions.map((source, i) => crdVersion(source, i === versions.length - 1)),
    },
  };
  if (webhook) {
    // Two served versions stored as one need a conversion webhook: `llsd-render webhook` serves
    // it; its CA bundle is injected by cert-manager (the annotation above) or set by the user.
    definition.spec.conversion = {
      strategy: 'Webhook',
      webhook: {
        conversionReviewVersions: ['v1'],
        clientConfig: { service: { ...conversionWebhook } },
      },
    };
  }
  return definition;
}

// ---- The rules of rules.ts that CEL can express on structural nodes ----
//
// Not here, because their nodes keep any value (a list or a single provider, a model string or
// object): provider ids required and unique across all APIs, embedding models' dimension. The
// renderer checks them, as it checks every rule here.

/** `rule` when the store's `type` is `name` (an absent `type` means sqlite). */
const whenType = (name: 'sqlite' | 'redis' | 'postgres', rule: string): string =>
  name === 'sqlite' ? `(has(self.type) && self.type != 'sqlite') || ${rule}` : `!has(self.type) || self.type != '${name}' || ${rule}`;

const storageRules: ValidationRule[] = [
  {
    rule: '!has(self.connectionString)',
    message:
      "is not supported: llama-stack's postgres backend takes host, port, db, user and password, not a connection string; write `host`, `port`, `database`, " +
        "`user` and `password` (each a value or `{secretKeyRef: {name, key}}`) instead",
    fieldPath: '.connectionString',
  },
  {
    rule: whenType('sqlite', '!(has(self.endpoint) || has(self.host) || has(self.port) || has(self.database) || has(self.user) || has(self.password))'),
    message: 'a sqlite store takes only `type`: `endpoint`, `host`, `port`, `database`, `user` and `password` are read only for redis and postgres',
  },
  {
    rule: whenType('redis', '!(has(self.database) || has(self.user))'),
    message: '`database` and `user` do not apply to a redis store; they are read only for postgres',
  },
  {
    rule: whenType('redis', 'has(self.endpoint) || has(self.host)'),
    message: 'needs the redis server: set `endpoint: redis://<host>:<port>` or `host` (and `port`)',
  },
  {
    rule: whenType('redis', '!has(self.endpoint) || !(has(self.host) || has(self.port))'),
    message: 'must not be combined with `host` or `port`; use one form',
    fieldPath: '.endpoint',
  },
  {
    rule: whenType('postgres', '!has(self.endpoint)'),
    message: 'does not apply to a postgres store; it is read only for redis: write `host` and `port`',
    fieldPath: '.endpoint',
  },
  { rule: whenType('postgres', 'has(self.host)'), message: 'is required for a postgres store (llama-stack needs the host)', fieldPath: '.host' },
  { rule: whenType('postgres', 'has(self.user)'), message: 'is required for a postgres store (llama-stack needs the user)', fieldPath: '.user' },
];

const onlyNameOrImage: ValidationRule = {
  rule: '!has(self.name) || !has(self.image)',
  message: 'must set only one of `name` and `image`: a named distribution already pins its image',
};

export const rulesV1alpha2: Readonly<Record<string, readonly ValidationRule[]>> = {
  '': generatingFields.map((field) => ({
    rule: `!has(self.overrideConfig) || !has(self.${field})`,
    message: `cannot be combined with \`spec.overrideConfig\`, which supplies the whole config.yaml; put it in that ConfigMap's config.yaml, or remove ` +
      `\`overrideConfig\` to have the config generated`,
    fieldPath: `.${field}`,
  })),
  distribution: [
    { rule: 'has(self.name) || has(self.image)', message: 'must set `name` (a named distribution such as `starter`) or `image` (a distribution image)' },
    onlyNameOrImage,
  ],
  'storage.kv': storageRules,
  'storage.sql': [
    { rule: "!has(self.type) || self.type != 'redis'", message: 'must be `sqlite` or `postgres`: redis is a key-value store only', fieldPath: '.type' },
    ...storageRules,
  ],
  'networking.tls': [
    {
      rule: '!has(self.enabled) || !self.enabled || has(self.secretName)',
      message: 'is required when `enabled` is true: name the kubernetes.io/tls Secret with the server certificate',
      fieldPath: '.secretName',
    },
    {
      rule: '!has(self.secretName) || (has(self.enabled) && self.enabled)',
      message: 'must be true when `secretName` is set; set `enabled: true` to serve HTTPS, or remove `secretName`',
      fieldPath: '.enabled',
    },
  ],
  'workload.autoscaling': [
    { rule: '!has(self.minReplicas) || self.maxReplicas >= self.minReplicas', message: 'must be at least `minReplicas`', fieldPath: '.maxReplicas' },
  ],
  'workload.podDisruptionBudget': [
    { rule: 'has(self.minAvailable) || has(self.maxUnavailable)', message: 'must set `minAvailable` or `maxUnavailable`' },
    { rule: '!has(self.minAvailable) || !has(self.maxUnavailable)', message: 'must set only one of `minAvailable` and `maxUnavailable`' },
  ],
};

const describe = (version: string): string =>
  `${kind} (${group}/${version}): a llama-stack server, rendered into a config.yaml and Kubernetes objects by llsd-render.`;

const v1alpha2: VersionSource = {
  name: 'v1alpha2',
  description: describe('v1alpha2'),
  get metadataName() {
    return llsdV1alpha2Schemas().dnsLabel;
  },
  get spec() {
    return llsdV1alpha2Schemas().specSchema;
  },
  rules: rulesV1alpha2,
  columns: [
    { name: 'Distribution', type: 'string', jsonPath: '.spec.distribution.name', description: 'The named distribution.' },
    { name: 'Image', type: 'string', jsonPath: '.spec.distribution.image', description: 'The distribution image, when no name is given.', priority: 1 },
  ],
};

/** The v1alpha1 operator's CRD has one rule: not both `name` and `image` (there `!(has(self.name) && has(self.image))`). */
export const rulesV1alpha1: Readonly<Record<string, readonly ValidationRule[]>> = {
  'server.distribution': [onlyNameOrImage],
};

const v1alpha1: VersionSource = {
  name: 'v1alpha1',
  description: describe('v1alpha1'),
  get metadataName() {
    return llsdV1alpha2Schemas().dnsLabel;
  },
  get spec() {
    return v1alpha1Schemas().specV1alpha1Schema;
  },
  rules: rulesV1alpha1,
  columns: [
    { name: 'Distribution', type: 'string', jsonPath: '.spec.server.distribution.name', description: 'The named distribution.' },
    { name: 'Image', type: 'string', jsonPath: '.spec.server.distribution.image', description: 'The distribution image, when no name is given.', priority: 1 },
  ],
};

/** Served versions, oldest first; the last is the storage version. */
const servedVersions: readonly VersionSource[] = [v1alpha1, v1alpha2];
