// The README's release tables are made from configs/ (scripts/release-tables.mjs): a release or
// distribution added to configs/ without `node scripts/release-tables.mjs --write` fails here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without type declarations
import { divergenceMarkers, markers, releaseTables, withTables } from '../../scripts/release-tables.mjs';
import { catalogReleases, distributions, ogxDivergences } from '../../src/catalog/catalog.js';

const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');

describe('README release tables', () => {
  it('are the tables configs/ gives (update: node scripts/release-tables.mjs --write)', () => {
    expect(withTables(readme, releaseTables())).toBe(readme);
  });

  it('name every catalog release and every named distribution with its default release', () => {
    const block = readme.slice(readme.indexOf(markers.start), readme.indexOf(markers.end));
    for (const release of catalogReleases()) expect(block).toMatch(new RegExp(`^\\| ${release.replaceAll('.', '\\.')} \\|`, 'm'));
    for (const [name, entry] of Object.entries(distributions())) expect(block).toContain(`| \`${name}\` | **${entry.defaultRelease}**`);
  });
});

describe('README OGXServer divergence table', () => {
  it('is configs/ogx-divergences.yaml (update: node scripts/release-tables.mjs --write)', () => {
    expect(readme).toContain(divergenceMarkers.start);
    expect(withTables(readme)).toBe(readme);
  });

  // A test's name, or the configgen cases' table of divergences (`ref: 'A3'`), names each reference.
  it('has every row checked by a test that names its reference (A1, B4, …)', () => {
    const tests = ['ogx-generate.test.ts', 'ogx-configgen.test.ts'].map((f) => readFileSync(join(import.meta.dirname, f), 'utf8')).join('\n');
    const names = [...tests.matchAll(/\b(?:it|describe)\(\s*(['"`])((?:(?!\1).)*)\1|\bref: '([^']+)'/g)].map((m) => (m[2] ?? m[3]) as string).join('\n');
    const refs = ogxDivergences().table.flatMap((row) => row.ref.split(/,\s*/)).flatMap((ref) => (ref.includes('–') ? ref.split('–') : [ref]));
    expect(refs.length).toBeGreaterThan(10);
    for (const ref of refs) expect(names, `no test name mentions ${ref}`).toMatch(new RegExp(`\\b${ref}\\b`));
  });
});
