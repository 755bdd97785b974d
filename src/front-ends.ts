// Which input items llsd-render renders, as opposed to passing through: one predicate for the
// readers (src/cli) and the pipeline (src/process.ts), so that a new input API is added once.
import type { KrmObject } from './krm/item.js';
import { isLlsdObject } from './llsd/llsd.js';
import { isOgxServerObject } from './ogx/ogxserver.js';

/** An LLSD (any version) or an OGXServer: rendered, never passed through or applied itself. */
export const isRenderedObject = (object: Pick<KrmObject, 'apiVersion' | 'kind'>): boolean => isLlsdObject(object) || isOgxServerObject(object);
