// The render at the edge (STYLE §2, §8): the core (src/process.ts) renders an item at a time, and
// here each item's objects go to the output store as soon as they are made, so the objects of
// 10,000 LLSDs are never all in memory; and when items wait for the configs in image labels, the
// labels are looked up and those items alone are rendered again. Renders that need no image pay
// nothing: the registry code (and the tar reader) is loaded only then.
import type { ImageLookup } from '../catalog/image-labels.js';
import type { RegistryOptions } from '../core/render-config.js';
import { Written, type OutputStore } from '../krm/resource-list.js';
import type { KrmObject } from '../krm/item.js';
import { startRender, type ItemOutcome, type ProcessInput, type ProcessOutput } from '../process.js';
import type { Environment } from '../registry/credentials.js';

/** Reads the labels of `images` with the render's registry options. */
export type LookUpImages = (images: readonly string[], registry: RegistryOptions) => Promise<ReadonlyMap<string, ImageLookup>>;

export async function renderWithImages(input: ProcessInput, lookUp: LookUpImages, store?: OutputStore): Promise<ProcessOutput> {
  const render = startRender(input);
  const first = render.items.map((item) => ({ item, outcome: stored(render.renderItem(item, input.images), store) }));
  const pending = [...new Set(first.flatMap(({ outcome }) => outcome.pendingImage ?? []))].sort();
  if (pending.length === 0) return render.finish(first.map(({ outcome }) => outcome));
  // An item that needed no image renders the same with the images: its outcome is kept.
  const images = await lookUp(pending, render.registry);
  return render.finish(first.map(({ item, outcome }) => (outcome.pendingImage === undefined ? outcome : stored(render.renderItem(item, images), store))));
}

/** The registry (or its cache) as `renderWithImages` reads it; `offline`: the cache alone (`build --offline`). */
export function registryLookUp(env: Environment, offline = false): LookUpImages {
  return async (images, registry) => {
    const [{ cacheDirectory }, { lookUpImages }] = await Promise.all([import('../registry/cache.js'), import('../registry/lookup.js')]);
    const settings = offline ? { ...registry, offline: true } : registry;
    return lookUpImages(images, { ...settings, cacheDir: cacheDirectory(settings.cacheDir, env) }, env);
  };
}

/** With a store, an item's objects go to it as they are made (already placed in KRM mode: a Written object is final). */
function stored(outcome: ItemOutcome, store: OutputStore | undefined): ItemOutcome<KrmObject | Written> {
  if (!store || !outcome.rendered) return outcome;
  return { ...outcome, rendered: { ...outcome.rendered, objects: outcome.rendered.objects.map((object) => new Written(object, store)) } };
}
