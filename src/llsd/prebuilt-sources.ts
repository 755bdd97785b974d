// What the build computes once and embeds in the bundle (scripts/build.mjs; read through
// `prebuilt.ts`): each fact, by name, and the function that computes it from the zod schemas.
import { llsdShapesFromSchemas } from './llsd-v1alpha2.js';
import { renderOptionDefaultsFromSchema } from '../core/render-config.js';

export const prebuiltSources = {
  llsdShapes: llsdShapesFromSchemas,
  renderOptionDefaults: renderOptionDefaultsFromSchema,
};

export type Prebuilt = { [K in keyof typeof prebuiltSources]: ReturnType<(typeof prebuiltSources)[K]> };
