// Which input items llsd-render renders: an LLSD of any version, or an OGXServer. Such an item is
// read with its node (KRM mode marks it local-config when it writes it back), never passed through
// to `build`'s output, and makes `validate` check something.
import type { KrmObject } from '../krm/item.js';
import { isLlsdObject } from './llsd.js';
import { isOgxServerObject } from './ogxserver.js';

export const isRenderedObject = (object: Pick<KrmObject, 'apiVersion' | 'kind'>): boolean => isLlsdObject(object) || isOgxServerObject(object);
