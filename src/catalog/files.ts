// The files of configs/, embedded by the build as JSON text (scripts/embed-yaml.mjs) and parsed on
// first use: a render needs one or two releases of the catalog, and start-up pays for none.
// Only src/catalog/ reads configs/; everything else asks the catalog.
import embedded from 'llsd-configs';

const parsed = new Map<string, unknown>();

/** The value of `configs/<path>`, or undefined when no such file is embedded. */
export function configFile(path: string): unknown {
  if (parsed.has(path)) return parsed.get(path);
  if (!Object.hasOwn(embedded, path)) return undefined;
  const value: unknown = JSON.parse(embedded[path] as string);
  parsed.set(path, value);
  return value;
}

/** Paths (under configs/) of the embedded files that start with `prefix`. */
export const configPaths = (prefix = ''): string[] => Object.keys(embedded).filter((path) => path.startsWith(prefix)).sort();
