// The render entry points and helpers the property tests share (LLSD and OGXServer inputs alike).
import { isRenderedObject } from '../../src/front-ends.js';
import fc from 'fast-check';
import { expect } from 'vitest';
import { isNode, stringify } from 'yaml';
import { annotation, type KrmObject } from '../../src/krm/item.js';
import { readResourceList, writeResourceList, type OutputItem } from '../../src/krm/resource-list.js';
import type { Result } from '../../src/krm/result.js';
import { process as render } from '../../src/process.js';
import { itemsFrom } from '../support.js';

/** Runs per property: each file stays under 20 s on 2 cores. LLSD_PROPERTY_RUNS=2000 for a longer hunt. */
export const numRuns = Number(process.env.LLSD_PROPERTY_RUNS ?? 50);

export const streamOf = (objects: readonly object[]): string => objects.map((o) => stringify(o)).join('---\n');

export function renderBuild(objects: readonly object[]) {
  return render({ mode: 'build', items: itemsFrom(streamOf(objects)) });
}

/** One KRM run over a ResourceList text; returns the ResourceList it writes back. */
export function renderKrm(text: string): { text: string; results: Result[] } {
  const list = readResourceList(text, isRenderedObject);
  expect(list.results).toEqual([]);
  const output = render({ mode: 'krm', items: list.items });
  return { text: writeResourceList(output.items, []), results: output.results };
}

export const resourceList = (objects: readonly object[]): string =>
  stringify({ apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList', items: objects });

const plain = (item: OutputItem): KrmObject => (isNode(item) ? (item.toJSON() as KrmObject) : (item as KrmObject));

/** The objects llsd-render generated (they carry the generated-from annotation). */
export const generated = (items: readonly OutputItem[]): KrmObject[] =>
  items.map(plain).filter((o) => o.metadata.annotations?.[annotation.generatedFrom] !== undefined);

export const errorsOf = (results: readonly Result[]) => results.filter((r) => r.severity === 'error');

/** `value` with the keys of every mapping in it in a random order; lists keep theirs. */
export function shuffledKeys(value: unknown): fc.Arbitrary<unknown> {
  if (Array.isArray(value)) return fc.tuple(...value.map(shuffledKeys));
  if (value === null || typeof value !== 'object') return fc.constant(value);
  const keys = Object.keys(value);
  const children = fc.tuple(...keys.map((key) => shuffledKeys((value as Record<string, unknown>)[key])));
  return fc.tuple(fc.shuffledSubarray(keys, { minLength: keys.length, maxLength: keys.length }), children).map(([order, values]) => {
    const byKey = new Map(keys.map((key, i) => [key, values[i]]));
    return Object.fromEntries(order.map((key) => [key, byKey.get(key)]));
  });
}
