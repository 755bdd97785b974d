// A KRM object as it travels through llsd-render, with where it came from.
import type { LineCounter, Node } from 'yaml';
import type { ResourceRef, Result, Severity } from './result.js';
import { lineOf } from './yaml.js';

export interface KrmObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

export interface Origin {
  /** File path relative to the package or the working directory. */
  file?: string;
  /** Position of the document in its file. */
  index?: number;
  /** Line counter of the text the node was parsed from, when that text is the file itself. */
  lines?: LineCounter;
  /** The line of the object itself, when known without the node (results about the whole object use it). */
  line?: number;
  /** The line of a field, when known without the node (an LLSD `build` keeps as text); else `lines` and the node tell. */
  fieldLine?: (path: ReadonlyArray<string | number>) => number | undefined;
}

/** An input object: its parsed node (written back verbatim when passed through) and its plain value. */
export interface InputItem {
  node: Node;
  object: KrmObject;
  origin: Origin;
  /** The node already written for output (`build` reads items so, and keeps no node). */
  output?: string;
}

export const annotation = {
  generatedFrom: 'llamastack.io/generated-from',
  release: 'llamastack.io/release',
  configHash: 'llamastack.io/config-hash',
  caBundleHash: 'llamastack.io/ca-bundle-hash',
  localConfig: 'config.kubernetes.io/local-config',
  function: 'config.kubernetes.io/function',
  path: 'internal.config.kubernetes.io/path',
  legacyPath: 'config.kubernetes.io/path',
  index: 'internal.config.kubernetes.io/index',
  legacyIndex: 'config.kubernetes.io/index',
  kustomizeId: 'kustomize.config.k8s.io/id',
  fluxSubstitute: 'kustomize.toolkit.fluxcd.io/substitute',
  argoSyncOptions: 'argocd.argoproj.io/sync-options',
} as const;

/** `item` with another value; its node (or the getter that says it has none) and origin stay as they are. */
export function withObject(item: InputItem, object: KrmObject): InputItem {
  const copy = Object.create(Object.getPrototypeOf(item), Object.getOwnPropertyDescriptors(item)) as InputItem;
  copy.object = object;
  return copy;
}

export const annotationsOf = (object: KrmObject): Record<string, string> => object.metadata.annotations ?? {};

/**
 * Output of an earlier render, read back as input (`build app > app/rendered.yaml`): it carries the
 * annotation llsd-render marks its output with. `build` and KRM mode drop it and render it anew
 * (src/process.ts), and `convert` leaves it out the same way.
 */
export const isEarlierOutput = (object: KrmObject): boolean => annotationsOf(object)[annotation.generatedFrom] !== undefined;

/**
 * The object a result is about. A namespace that is not text (`namespace: {a: b}`, refused at its
 * field) is left out rather than printed as "[object Object]"; a number is kept as written.
 */
export function refOf(object: KrmObject): ResourceRef {
  const ref: ResourceRef = { apiVersion: object.apiVersion, kind: object.kind, name: object.metadata.name };
  const namespace: unknown = object.metadata.namespace;
  if (typeof namespace === 'string' && namespace !== '') ref.namespace = namespace;
  else if (typeof namespace === 'number' || typeof namespace === 'boolean') ref.namespace = String(namespace);
  return ref;
}

/** Where kpt says an item lives (legacy annotation as fallback), for file.path on results. */
export function kptOrigin(object: KrmObject): Origin {
  const a = annotationsOf(object);
  const file = a[annotation.path] ?? a[annotation.legacyPath];
  const index = a[annotation.index] ?? a[annotation.legacyIndex];
  const origin: Origin = {};
  // Annotations come from input: a path written `true` is no path (the item's annotation check reports it).
  if (typeof file === 'string' && file !== '') origin.file = file;
  if (typeof index === 'string' && /^\d+$/.test(index)) origin.index = Number(index);
  return origin;
}

/** Is this a KRM object at all: a map with string apiVersion, kind and metadata.name? */
export function isKrmObject(value: unknown): value is KrmObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  const metadata = v.metadata as Record<string, unknown> | undefined;
  return (
    typeof v.apiVersion === 'string' &&
    typeof v.kind === 'string' &&
    typeof metadata === 'object' &&
    metadata !== null &&
    typeof metadata.name === 'string'
  );
}

/** Builds a result about an input item, with file, index and (when known) the line of the field. */
export function resultFor(
  item: Pick<InputItem, 'node' | 'object' | 'origin'>,
  severity: Severity,
  message: string,
  path?: ReadonlyArray<string | number>,
): Result {
  const result: Result = { severity, message, resourceRef: refOf(item.object) };
  if (path && path.length > 0) result.field = { path: formatFieldPath(path) };
  if (item.origin.file) {
    result.file = item.origin.index === undefined ? { path: item.origin.file } : { path: item.origin.file, index: item.origin.index };
    const { origin } = item;
    const line =
      (path === undefined || path.length === 0) && origin.line !== undefined
        ? origin.line
        : origin.fieldLine
          ? origin.fieldLine(path ?? [])
          : origin.lines
            ? lineOf(item.node, path ?? [], origin.lines)
            : undefined;
    if (line !== undefined) result.line = line;
  }
  return result;
}

/** `['spec', 'providers', 'inference', 1, 'id']` → `spec.providers.inference[1].id`. */
export function formatFieldPath(path: ReadonlyArray<string | number>): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(segment)) out += out ? `.${segment}` : segment;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/** The API group of an object: `apps` for `apps/v1`, empty for the core group (`v1`). */
export function groupOf(object: Pick<KrmObject, 'apiVersion'>): string {
  const slash = object.apiVersion.indexOf('/');
  return slash === -1 ? '' : object.apiVersion.slice(0, slash);
}

/** Group/Kind/namespace/name: what Kubernetes (and kustomize) treat as one object, whatever the version. */
export const identityOf = (object: KrmObject): string =>
  `${groupOf(object)}/${object.kind}/${object.metadata.namespace ?? ''}/${object.metadata.name}`;

/** Files of the tools themselves (kustomization, Kptfile), never applied to a cluster. */
const clientSideKinds = new Set(['kpt.dev/Kptfile', 'kustomize.config.k8s.io/Kustomization', 'kustomize.config.k8s.io/Component']);

/** Is this document for a client-side tool only: a Kptfile, a kustomization, or marked local-config? */
export function isClientSideOnly(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as { apiVersion?: unknown; kind?: unknown; metadata?: { annotations?: Record<string, unknown> } };
  if (v.metadata?.annotations?.[annotation.localConfig] === 'true') return true;
  return typeof v.apiVersion === 'string' && typeof v.kind === 'string' && clientSideKinds.has(`${groupOf({ apiVersion: v.apiVersion })}/${v.kind}`);
}
