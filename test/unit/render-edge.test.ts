// The render at the edge (src/cli/render.ts): the core renders an item at a time; the edge writes
// each item's objects to the output store as they are made, and when items wait for image labels,
// looks them up once and renders those items alone again.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { ImageLookup } from '../../src/catalog/image-labels.js';
import { renderWithImages, type LookUpImages } from '../../src/cli/render.js';
import type { RegistryOptions } from '../../src/core/render-config.js';
import { MemoryStore, Written, writeResourceList, writeStream } from '../../src/krm/resource-list.js';
import { process as render, type ProcessInput } from '../../src/process.js';
import { itemsFrom, llsdYaml, releaseMetadata } from '../support.js';

const image = 'quay.io/me/stack:0.7.1';
// A config the startup checks pass: the catalog's own for starter 0.7.1, served as the image's label.
const shipped = readFileSync(join(import.meta.dirname, '..', '..', 'configs', 'distributions', 'starter', '0.7.1.yaml'), 'utf8');
const lookup: ImageLookup = {
  ok: true,
  config: { digest: `sha256:${'a'.repeat(64)}`, platform: 'linux/amd64', from: 'base64', text: shipped },
  host: 'quay.io',
  cached: false,
  tagResolved: true,
};
const images = new Map([[image, lookup]]);

/** A store that counts what is put in it: an object rendered twice would be put twice. */
class CountingStore extends MemoryStore {
  puts = 0;
  override put(text: string): number {
    this.puts++;
    return super.put(text);
  }
}

/** A lookup that records what it was asked. */
function recorder(): { lookUp: LookUpImages; calls: Array<{ images: readonly string[]; registry: RegistryOptions }> } {
  const calls: Array<{ images: readonly string[]; registry: RegistryOptions }> = [];
  return { calls, lookUp: async (asked, registry) => (calls.push({ images: asked, registry }), images) };
}

const twoLlsds = [
  llsdYaml(`distribution: {image: "${image}"}`, 'name: labelled\n  namespace: ai'),
  llsdYaml('distribution: {name: starter}', releaseMetadata('0.7.1', 'catalogued')),
].join('---\n');

describe('the render at the edge', () => {
  for (const mode of ['build', 'krm'] as const) {
    it(`${mode}: looks the images up once, renders again only the LLSD that waited, and writes what a render with the labels writes`, async () => {
      const items = () => (mode === 'krm' ? itemsFrom(twoLlsds, (index) => ({ file: 'llsd.yaml', index })) : itemsFrom(twoLlsds));
      const store = new CountingStore();
      const { lookUp, calls } = recorder();
      const output = await renderWithImages({ mode, items: items() }, lookUp, store);
      expect(calls.map((call) => call.images)).toEqual([[image]]);
      expect(calls[0]?.registry.offline).toBe(false);
      expect(output.results.filter((r) => r.severity === 'error')).toEqual([]);
      const written = output.items.filter((item) => item instanceof Written);
      expect(written.length).toBeGreaterThan(6);
      // Each object put in the store once: the catalogued LLSD was not rendered a second time.
      expect(store.puts).toBe(written.length);
      const fresh = render({ mode, items: items(), images });
      const text = (out: typeof output) => (mode === 'krm' ? writeResourceList(out.items, out.results) : writeStream(out.items));
      expect(text(output)).toBe(text(fresh));
    });
  }

  it('asks for no image when no LLSD needs one', async () => {
    const { lookUp, calls } = recorder();
    const input: ProcessInput = { mode: 'build', items: itemsFrom(llsdYaml('distribution: {name: starter}', releaseMetadata('0.7.1', 'catalogued'))) };
    const output = await renderWithImages(input, lookUp);
    expect(calls).toEqual([]);
    expect(output.items.length).toBeGreaterThan(3);
    expect(output.items.some((item) => item instanceof Written)).toBe(false);
  });

  it('a lookup that finds nothing leaves the error of the LLSD that waited for it', async () => {
    const output = await renderWithImages({ mode: 'build', items: itemsFrom(twoLlsds) }, async () => new Map());
    expect(output.items).toEqual([]);
    expect(output.results.filter((r) => r.severity === 'error').map((r) => [r.field?.path, r.message])).toEqual([
      ['spec.distribution.image', `the config in the labels of ${image} has not been looked up (a render without registry access)`],
    ]);
  });
});

describe('the output store', () => {
  it('holds the objects, and the text written is the one the core gives without it', async () => {
    const secret = stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'ai' } });
    const items = () => itemsFrom(`${secret}---\n${llsdYaml('distribution: {name: starter}', releaseMetadata('0.7.1', 'catalogued'))}`);
    const plain = render({ mode: 'build', items: items() });
    const stored = await renderWithImages({ mode: 'build', items: items() }, async () => new Map(), new MemoryStore());
    expect(stored.items.filter((item) => item instanceof Written).length).toBeGreaterThan(3);
    expect(writeStream(stored.items)).toBe(writeStream(plain.items));
    expect(stored.results).toEqual(plain.results);
  });
});
