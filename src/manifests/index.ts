// The objects of either API: each front end's choices (llsd-objects.ts, ogx-objects.ts), passed as
// data to one builder per kind.
export { renderObjects } from './llsd-objects.js';
export { ogxObjectProblems, renderOgxObjects } from './ogx-objects.js';
