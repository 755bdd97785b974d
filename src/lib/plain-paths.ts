// Paths into plain data (parsed YAML or JSON). Keys come from user input: values are set as own properties.
import { Verbatim } from './exact-integer.js';
import { isPlainObject, setOwn } from './objects.js';

type Plain = Record<string, unknown>;

export const samePath = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((key, i) => b[i] === key);

export function getPath(value: unknown, path: readonly string[]): unknown {
  let v = value;
  for (const key of path) {
    if (!isPlainObject(v) || !Object.hasOwn(v, key)) return undefined;
    v = v[key];
  }
  return v;
}

export function setPath(target: Plain, path: readonly string[], value: unknown): void {
  let t = target;
  path.slice(0, -1).forEach((key) => {
    if (!isPlainObject(t[key]) || !Object.hasOwn(t, key)) setOwn(t, key, {});
    t = t[key] as Plain;
  });
  setOwn(t, path[path.length - 1] as string, value);
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a instanceof Verbatim && b instanceof Verbatim) return a.text === b.text;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && deepEqual(a[key], b[key]));
  }
  return false;
}
