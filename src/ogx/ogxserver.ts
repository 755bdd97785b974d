// The `ogx.io/v1beta1` OGXServer: which objects are one (or were likely meant as one), and parsing
// one: the CRD's schema with its defaults (ogxserver-schema.ts), then the CRD's CEL rules and the
// admission webhook's checks (rules.ts) and the literal-credential refusal (credentials.ts).
import type { KrmObject } from '../krm/item.js';
import type { z } from '../lib/zod.js';
import type { objectMetadataSchema } from '../core/core-v1.js';
import { isError, isNear, problemsFromIssues, type FieldProblem } from '../lib/issues.js';
import { quote } from '../lib/quote.js';
import { ogxLiteralCredentials } from './credentials.js';
import { withOgxHints } from './ogxserver-messages.js';
import { checkOgxRules, type OgxRuleOptions } from './rules.js';
import { reservedKeys } from '../lib/reserved-keys.js';
import { ogxApiVersion, ogxGroup, ogxKind, ogxSchemas, type OgxServer } from './ogxserver-schema.js';

export { ogxApiVersion, ogxDisableableApis, ogxGroup, ogxKind, ogxSchemas, ogxVersion } from './ogxserver-schema.js';
export type {
  OgxConfigMapRef,
  OgxCustomProvider,
  OgxModel,
  OgxMonitoring,
  OgxNetwork,
  OgxPraxisMode,
  OgxProviderNetwork,
  OgxProviders,
  OgxSecretRef,
  OgxServer,
  OgxServerSpec,
  OgxStorage,
  OgxVectorStoresConfig,
  OgxWorkload,
} from './ogxserver-schema.js';

/** Is this object an OGXServer (group ogx.io, kind OGXServer), of any version? */
export const isOgxServerObject = (object: Pick<KrmObject, 'apiVersion' | 'kind'>): boolean =>
  object.kind === ogxKind && object.apiVersion.startsWith(`${ogxGroup}/`);

/**
 * An object that is not an OGXServer llsd-render reads but was likely meant as one: a kind a typo
 * away from OGXServer (any case); that kind with another group (`ogx.ai`) or none; another version
 * of ogx.io (`v1alpha1`); or another kind in ogx.io, which has only this one. Passed through
 * unrendered it would make the render silently empty (and Argo CD would prune what it generated
 * before), so it is an error naming the right spelling.
 */
export function ogxNearMiss(object: Pick<KrmObject, 'apiVersion' | 'kind'>): FieldProblem | undefined {
  if (object.kind === ogxKind && object.apiVersion === ogxApiVersion) return undefined;
  const slash = object.apiVersion.indexOf('/');
  const objectGroup = slash < 0 ? '' : object.apiVersion.slice(0, slash);
  const right = `\`${ogxApiVersion}\``;
  if (object.kind !== ogxKind && isNear(object.kind, ogxKind)) {
    return { path: ['kind'], message: `must be \`${ogxKind}\` (apiVersion ${right}) for llsd-render to render it, not ${quote(object.kind)}; as a misspelt ` +
      `OGXServer it would render nothing` };
  }
  if (object.kind === ogxKind && objectGroup === ogxGroup) {
    return {
      path: ['apiVersion'],
      message: `is not a version llsd-render reads: ${quote(object.apiVersion.slice(slash + 1))}; write ${right}, the one version of ${ogxKind} it renders ` +
        `(the operator serves only v1beta1)`,
    };
  }
  if (object.kind === ogxKind) {
    const wrote = slash < 0 ? `${quote(object.apiVersion.slice(0, 40))} is not <group>/<version>` : `the group ${quote(objectGroup)} is not ${ogxGroup}`;
    return { path: ['apiVersion'], message: `must be ${right} for llsd-render to render this ${ogxKind}: ${wrote}, and the OGXServer would render nothing` };
  }
  if (objectGroup === ogxGroup) {
    return { path: ['kind'], message: `must be \`${ogxKind}\`, the one kind of ${ogxGroup}, not ${quote(object.kind)}; written otherwise the OGXServer would ` +
      `render nothing` };
  }
  return undefined;
}

export type ParsedOgxServer = { ok: true; server: OgxServer; problems: FieldProblem[] } | { ok: false; problems: FieldProblem[] };

const requiredHints = {
  spec: 'add a `spec` with at least `distribution: {name: starter}`',
  'spec.distribution': 'set `spec.distribution.name` (for example `starter`) or `spec.distribution.image`',
};

/**
 * Parses an OGXServer: the CRD's schema with its defaults, then its CEL rules and the admission
 * webhook's checks (`rules.ts`). Every problem has its field path in the item.
 */
export function parseOgxServer(object: KrmObject, options: OgxRuleOptions = {}): ParsedOgxServer {
  const reserved = reservedKeys(object);
  if (reserved.length > 0) return { ok: false, problems: reserved };
  const { server: schema } = ogxSchemas();
  const parsed = schema.safeParse(object, { reportInput: true });
  if (!parsed.success) return { ok: false, problems: withOgxHints(problemsFromIssues(parsed.error.issues, schema, requiredHints), object).map(namedStorage) };
  const { metadata, spec } = parsed.data;
  const server: OgxServer = { apiVersion: ogxApiVersion, kind: ogxKind, metadata: pickMetadata(metadata), spec };
  const problems = [...checkOgxRules(server, options), ...ogxLiteralCredentials(spec)];
  if (problems.some(isError)) return { ok: false, problems };
  return { ok: true, server, problems };
}

/**
 * `spec.storage.backends` / `stores`: the operator's named PostgreSQL storage, whose merge to its
 * main the reference could not confirm (docs/ogxserver.md "Limits"), so it is not rendered: say
 * that, instead of "not a known field".
 */
function namedStorage(problem: FieldProblem): FieldProblem {
  const [spec, storage, key] = problem.path;
  if (problem.path.length !== 3 || spec !== 'spec' || storage !== 'storage' || (key !== 'backends' && key !== 'stores')) return problem;
  return {
    path: problem.path,
    message: `is named storage, which llsd-render does not render yet: the OGX operator's newer API has \`storage.backends\` / \`storage.stores\`, ` +
      'but whether it is merged to the operator\'s main is not confirmed. Use `storage.kv` / `storage.sql`, or give PostgreSQL storage by ' +
      '`spec.overrideConfig` (storage.backends.sql_default: {type: sql_postgres, host: …, port: 5432, db: …, user: …, password: ${env.…}})',
  };
}

function pickMetadata(metadata: z.output<ReturnType<typeof objectMetadataSchema>>): OgxServer['metadata'] {
  const out: OgxServer['metadata'] = { name: metadata.name };
  if (metadata.namespace !== undefined) out.namespace = metadata.namespace;
  if (metadata.labels !== undefined) out.labels = metadata.labels;
  if (metadata.annotations !== undefined) out.annotations = metadata.annotations;
  return out;
}
