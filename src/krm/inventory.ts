// The objects of the input that an LLSD may refer to (Secrets, ConfigMaps), looked up by kind,
// namespace and name. Built once per render; a lookup is a map read.
//
// Namespaces: an object matches when both namespaces are equal or either is unset, because
// kustomize, Argo CD and Flux often set the namespace after rendering. Names: an object kustomize
// renamed before the function ran (`namePrefix`, `nameSuffix`) is found by its earlier names too,
// which kustomize passes in `internal.config.kubernetes.io/previousNames`: the LLSD still says the
// name as written, and kustomize renames the reference in the Deployment afterwards.
import { groupOf, type InputItem, type KrmObject } from './item.js';

export interface Inventory {
  /** The object of that group, kind and name in the namespace. */
  find(group: string, kind: string, namespace: string | undefined, name: string): InputItem | undefined;
  /** Is a Secret of that name present, directly or as what a SealedSecret or ExternalSecret creates? */
  hasSecret(namespace: string | undefined, name: string): boolean;
  /** The namespaces of the Secrets of that name (as `hasSecret` counts them), for "it is in another namespace". */
  secretNamespaces(name: string): string[];
  /**
   * The render is a kustomize generator's: kustomize gives a generator its functionConfig and none
   * of the kustomization's resources, so an object missing here may well be there.
   */
  generator?: boolean;
}

export function inventoryOf(items: readonly InputItem[]): Inventory {
  const objects = new Map<string, InputItem[]>();
  const secrets = new Map<string, Array<string | undefined>>();
  for (const item of items) {
    const { object } = item;
    for (const name of [object.metadata.name, ...previousNames(object)]) push(objects, `${groupOf(object)}/${object.kind}/${name}`, item);
    const secret = secretCreatedBy(object);
    if (secret !== undefined) {
      const names = secret === object.metadata.name ? [secret, ...previousNames(object)] : [secret];
      for (const name of names) push(secrets, name, object.metadata.namespace);
    }
  }
  return {
    find: (group, kind, namespace, name) =>
      objects.get(`${group}/${kind}/${name}`)?.find((item) => sameNamespace(item.object.metadata.namespace, namespace)),
    hasSecret: (namespace, name) => (secrets.get(name) ?? []).some((ns) => sameNamespace(ns, namespace)),
    secretNamespaces: (name) => [...new Set((secrets.get(name) ?? []).filter((ns): ns is string => ns !== undefined))].sort(),
  };
}

const sameNamespace = (a: string | undefined, b: string | undefined): boolean => a === undefined || b === undefined || a === b;

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** The names kustomize gave an object before it renamed it (a comma-separated list, oldest first). */
function previousNames(object: KrmObject): string[] {
  const annotation = object.metadata.annotations?.['internal.config.kubernetes.io/previousNames'];
  if (typeof annotation !== 'string') return [];
  return annotation.split(',').filter((name) => name !== '' && name !== object.metadata.name);
}

/** The name of the Secret an object is, or creates in the cluster. Values are never read. */
function secretCreatedBy(object: KrmObject): string | undefined {
  const group = groupOf(object);
  if (group === '' && object.kind === 'Secret') return object.metadata.name;
  if (group === 'bitnami.com' && object.kind === 'SealedSecret') return object.metadata.name;
  if (group === 'external-secrets.io' && object.kind === 'ExternalSecret') {
    const target = (object.spec as { target?: { name?: unknown } } | undefined)?.target?.name;
    return typeof target === 'string' && target !== '' ? target : object.metadata.name;
  }
  return undefined;
}
