// zod, as every schema of llsd-render is written: zod/mini, the functional API
// (`z.optional(x)`, `x.check(z.minLength(1))`). zod classic attaches some 45 methods to every
// schema it builds, and `.describe()` clones the schema, building it again; with several hundred
// schemas built at every start, that cost about 30 ms of a render. zod/mini builds the same
// schemas (same checks, issues and JSON Schema) without them. This module adds back the two
// things classic did for us: English issue messages, and `described()` for `.describe()`.
import * as z from 'zod/mini';

// zod classic sets the English messages when it is imported; zod/mini leaves every issue "Invalid
// input". Some messages reach the user as written (`issues.ts`), so they must stay the same.
z.config(z.locales.en());

export { z };

/**
 * A schema built on first use (call the returned function to get it): a schema for something only
 * some runs read (an image lookup, a cache file) then costs the others nothing at start-up.
 */
export function lazily<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}

/**
 * `schema` with a field doc (and an example of its value, when given), registered in `z.globalRegistry` as classic zod's `.describe()` does;
 * the JSON Schema and the CRD take their descriptions from there. It registers `schema` itself
 * (classic registered a clone): pass a schema made for this place, such as `z.optional(x)`, never
 * a schema that is also used elsewhere; clone such a one first (`described(x.clone(), …)`).
 */
export function described<T extends z.core.$ZodType>(schema: T, description: string, example?: unknown): T {
  if (z.globalRegistry.has(schema))
    throw new Error(`described(): the schema is already described ("${z.globalRegistry.get(schema)?.description}"); clone it first`);
  // An example, where the generated one would not do (a field another needs), becomes the JSON Schema's `examples`.
  z.globalRegistry.add(schema, example === undefined ? { description } : { description, examples: [example] });
  return schema;
}
