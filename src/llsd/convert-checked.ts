// The `convert` command's view of an LLSD conversion (src/llsd/conversion.ts): the source checked
// against the schema of its own version first, and a warning naming what the annotation keeps.
import { parseExactJson } from '../lib/exact-integer.js';
import { isError, problemsFromIssues } from '../lib/issues.js';
import { isPlainObject } from '../lib/objects.js';
import { code } from '../lib/quote.js';
import type { z } from '../lib/zod.js';
import { formatFieldPath } from '../krm/item.js';
import { conversionAnnotation, convertTo, v1alpha1, v1alpha2, type Conversion } from './conversion.js';
import { v1alpha1Schemas } from './llsd-v1alpha1.js';
import { llsdV1alpha2Schemas } from './llsd-v1alpha2.js';

type Plain = Record<string, unknown>;
type Schema = z.core.$ZodType;

const llsdSchemas = (): Record<string, Schema> => ({ [v1alpha1]: v1alpha1Schemas().llsdV1alpha1Schema, [v1alpha2]: llsdV1alpha2Schemas().llsdSchema });

/**
 * `object` in `apiVersion`, after checking it against the schema of its own version (problems at
 * its field paths), one already in `apiVersion` too (`convert` promises the check for every LLSD,
 * attacker C1). A warning names the fields the conversion keeps in the annotation.
 */
export function convertChecked(object: Plain, apiVersion: string): Conversion {
  const schemas = llsdSchemas();
  const source = typeof object.apiVersion === 'string' && Object.hasOwn(schemas, object.apiVersion) ? schemas[object.apiVersion] : undefined;
  if (source) {
    const checked = (source as unknown as z.ZodMiniType).safeParse(object, { reportInput: true });
    if (!checked.success) return { object, problems: problemsFromIssues(checked.error.issues, source) };
  }
  const converted = convertTo(object, apiVersion);
  if (converted.problems.some(isError) || converted.object === object) return converted;
  const record = (converted.object.metadata as { annotations?: Record<string, string> }).annotations?.[conversionAnnotation];
  if (record === undefined) return converted;
  const fields = leafPaths((parseExactJson(record) as { spec?: unknown }).spec, ['spec']).map((p) => code(formatFieldPath(p)));
  const shown = fields.length > 6 ? [...fields.slice(0, 5), `${fields.length - 5} more`] : fields;
  return {
    object: converted.object,
    problems: [
      ...converted.problems,
      {
        severity: 'warning',
        code: 'conversion-annotation',
        path: ['metadata', 'annotations', conversionAnnotation],
        message: `keeps ${shown.join(', ')}: ${apiVersion} has no field for ${fields.length === 1 ? 'it' : 'them'} (or cannot hold the value); converting ` +
          `back to ${object.apiVersion as string} restores ${fields.length === 1 ? 'it' : 'them'}`,
      },
    ],
  };
}

/** The paths of the values in `value` that are not mappings with fields. */
function leafPaths(value: unknown, path: string[]): string[][] {
  if (!isPlainObject(value) || Object.keys(value).length === 0) return [path];
  return Object.entries(value).flatMap(([key, v]) => leafPaths(v, [...path, key]));
}
