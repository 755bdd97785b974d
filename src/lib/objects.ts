// Plain-object helpers shared by the stages. Keys come from user input, so values are set as own
// properties: a key named `__proto__` is data, never a prototype change.
import { Verbatim } from './exact-integer.js';
import { isDeepStrictEqual } from 'node:util';

/** A mapping: an object that is no list, and no integer kept as written (a Verbatim is a scalar). */
export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Verbatim);

export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** `over` laid onto `base`: nested mappings merge, anything else replaces. Neither input is changed. */
export function deepMerge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(base)) setOwn(out, key, value);
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    setOwn(out, key, isPlainObject(current) && isPlainObject(value) ? deepMerge(current, value) : value);
  }
  return out;
}

/**
 * A deep copy of parsed YAML or JSON data (objects, arrays, scalars), several times faster than
 * structuredClone for it; a `__proto__` key stays an own key, as setOwn keeps it.
 */
export function clonePlain<T>(value: T): T {
  if (Array.isArray(value)) return value.map(clonePlain) as T;
  if (value === null || typeof value !== 'object') return value;
  // An integer kept as written (exact-integer.ts): never changed, so shared.
  if (value instanceof Verbatim) return value;
  // A YAML 1.1 timestamp, binary or set: not plain data, copied the general way.
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return structuredClone(value);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const copy = clonePlain((value as Record<string, unknown>)[key]);
    if (key === '__proto__') setOwn(out, key, copy);
    else out[key] = copy;
  }
  return out as T;
}

/** JSON text of data that JSON gives back exactly, by the object: see freshCopy. */
const jsonTexts = new WeakMap<object, string | false>();

/**
 * A deep copy of `value` to change freely, for data copied again and again (the base config of a
 * distribution, once for every LLSD on it): the second time on, V8's JSON parser makes it, about
 * three times faster than clonePlain. Only for data JSON gives back exactly (no timestamp, no
 * infinity, no undefined); other data is copied by clonePlain each time. `value` must not change.
 */
export function freshCopy<T extends object>(value: T): T {
  let text = jsonTexts.get(value);
  if (text === undefined) {
    const json = JSON.stringify(value);
    text = json !== undefined && isDeepStrictEqual(JSON.parse(json), value) ? json : false;
    jsonTexts.set(value, text);
    return clonePlain(value);
  }
  return text === false ? clonePlain(value) : (JSON.parse(text) as T);
}
