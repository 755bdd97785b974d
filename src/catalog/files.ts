// The files of configs/, embedded by the build as JSON text (scripts/embed-yaml.mjs) and parsed on
// first use: a render needs one or two releases of the catalog, and start-up pays for none.
// Only src/catalog/ reads configs/; everything else asks the catalog.
import embedded from 'llsd-configs';

const parsed = new Map<string, unknown>();

/**
 * An embedded text that does not parse: the build checks every one, so the bundle was edited or
 * damaged after it (src/index.ts says so plainly, exit 2, as the loader does for a file of the wrong length).
 */
export class DamagedBundle extends Error {
  // The loader knows it by this name when it is thrown while the program's modules load.
  override name = 'DamagedBundle';
}

/** The value of `configs/<path>`, or undefined when no such file is embedded. */
export function configFile(path: string): unknown {
  if (parsed.has(path)) return parsed.get(path);
  if (!Object.hasOwn(embedded, path)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(embedded[path] as string);
  } catch {
    throw new DamagedBundle(`its embedded configs/${path} does not parse`);
  }
  parsed.set(path, value);
  return value;
}

/** Paths (under configs/) of the embedded files that start with `prefix`. */
export const configPaths = (prefix = ''): string[] => Object.keys(embedded).filter((path) => path.startsWith(prefix)).sort();
