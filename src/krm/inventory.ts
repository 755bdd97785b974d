// The objects of the input that an LLSD may refer to (Secrets, ConfigMaps), looked up by kind,
// namespace and name. Built once per render; a lookup is a map read.
//
// Namespaces: an object matches when both namespaces are equal or either is unset, because
// kustomize, Argo CD and Flux often set the namespace after rendering.
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
    push(objects, `${groupOf(object)}/${object.kind}/${object.metadata.name}`, item);
    const secret = secretCreatedBy(object);
    if (secret !== undefined) push(secrets, secret, object.metadata.namespace);
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
