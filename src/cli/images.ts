// The registry step of a render, at the edge: when the render asks for the configs in image
// labels (`pending`), look them up and render again with them. Renders that need no image pay
// nothing: the registry code (and the tar reader) is loaded only then.
import type { Environment } from '../registry/credentials.js';
import { process as render, type ProcessInput, type ProcessOutput } from '../process.js';

export async function renderWithImages(input: ProcessInput, env: Environment, offline = false): Promise<ProcessOutput> {
  const first = render(input);
  if (!first.pending) return first;
  const [{ cacheDirectory }, { lookUpImages }] = await Promise.all([import('../registry/cache.js'), import('../registry/lookup.js')]);
  const registry = offline ? { ...first.pending.registry, offline: true } : first.pending.registry;
  const images = await lookUpImages(first.pending.images, { ...registry, cacheDir: cacheDirectory(registry.cacheDir, env) }, env);
  return render({ ...input, images, earlier: first.pending.earlier });
}
