// Facts the build computes once from the zod schemas and embeds in the bundle (scripts/build.mjs,
// from `prebuilt-sources.ts`), so that a render need not build the schemas to learn them: the
// shape an LLSD is read through (src/lib/zod-shape.ts) and the default options. Outside the
// bundle (tests, the build itself) each fact is computed from its schema on first use.
import type { Prebuilt } from '../llsd/prebuilt-sources.js';

let embedded: Prebuilt | undefined;
const computed: Partial<Prebuilt> = {};

/** The fact `key`: the embedded one in the bundle, else `compute()` (once). */
export function prebuilt<K extends keyof Prebuilt>(key: K, compute: () => Prebuilt[K]): Prebuilt[K] {
  // esbuild replaces the name with the JSON text of every fact; elsewhere it is not defined.
  if (typeof __LLSD_RENDER_PREBUILT__ === 'string') return (embedded ??= JSON.parse(__LLSD_RENDER_PREBUILT__) as Prebuilt)[key];
  return (computed[key] ??= compute());
}
