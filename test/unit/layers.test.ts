// The import order of src/ (docs/development.md, docs/development.md "Where things are"): each folder (or
// file directly in src/) imports only what sits below it in `layers`, never a peer of its own layer,
// so no two folders import each other. Type-only imports carry no run-time dependency and are not
// counted. The test reads the imports as text, as a reviewer would.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { valueImportsOf } from './layers.js';

const src = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src');

/** Top to bottom. A node is a folder of src/, or a file directly in it. */
const layers: readonly (readonly string[])[] = [
  ['index.ts'],
  ['cli'],
  // Above the render: `convert --to ogx.io/v1beta1` builds its own output (build-check.ts).
  ['convert'],
  ['registry'],
  ['process.ts'],
  ['front-ends.ts'],
  ['function-config.ts'],
  // The two front ends: neither imports the other; what they share is in core/.
  ['llsd', 'ogx'],
  ['manifests'],
  ['core'],
  ['catalog'],
  ['krm'],
  ['lib', 'version.ts'],
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

const nodeOf = (file: string): string => relative(src, file).split(sep)[0] as string;

function edges(): Array<{ from: string; to: string; file: string; target: string }> {
  return sourceFiles(src).flatMap((file) =>
    valueImportsOf(readFileSync(file, 'utf8'))
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => {
        const target = normalize(join(dirname(file), spec)).replace(/\.js$/, '.ts');
        return { from: nodeOf(file), to: nodeOf(target), file: relative(src, file), target: relative(src, target) };
      })
      .filter((edge) => edge.from !== edge.to),
  );
}

describe('the layers of src/', () => {
  const layerOf = new Map(layers.flatMap((names, i) => names.map((name) => [name, i] as const)));

  it('names every folder and top-level file of src/ in a layer', () => {
    const nodes = new Set(sourceFiles(src).map(nodeOf));
    expect(edges().length).toBeGreaterThan(100);
    expect([...nodes].filter((node) => !layerOf.has(node))).toEqual([]);
  });

  it('has each import point down, never up or sideways', () => {
    const wrong = edges()
      .filter((edge) => !((layerOf.get(edge.to) ?? -1) > (layerOf.get(edge.from) ?? Infinity)))
      .map((edge) => `${edge.file} imports ${edge.target}`);
    expect(wrong).toEqual([]);
  });

  it('has no two folders importing each other', () => {
    const pairs = new Set(edges().map((edge) => `${edge.from} -> ${edge.to}`));
    const mutual = [...pairs].filter((pair) => {
      const [from, to] = pair.split(' -> ');
      return pairs.has(`${to} -> ${from}`);
    });
    expect(mutual).toEqual([]);
  });
});

describe('valueImportsOf', () => {
  it('skips type-only imports and comments, and reads multi-line and re-exports', () => {
    const text = [
      "import type { A } from './a.js';",
      "import { type B, type C } from './b.js';",
      "import { d, type E } from './d.js';",
      "// import { f } from './f.js';",
      'import {',
      '  g,',
      "} from '../g.js';",
      "export { h } from './h.js';",
      "export type { I } from './i.js';",
      "import 'node:fs';",
      "const j = await import('./j.js');",
    ].join('\n');
    expect(valueImportsOf(text)).toEqual(['./d.js', '../g.js', './h.js', 'node:fs', './j.js']);
  });
});
