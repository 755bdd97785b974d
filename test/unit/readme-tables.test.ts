// The release tables (docs/releases.md) and the OGXServer divergence table (docs/ogxserver.md) are
// made from configs/ (scripts/release-tables.mjs): a release, distribution or divergence added to
// configs/ without `node scripts/release-tables.mjs --write` fails here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without type declarations
import { divergenceMarkers, markers, pages, releaseTables, withDivergenceTable, withReleaseTables } from '../../scripts/release-tables.mjs';
import { catalogReleases, distributions, ogxDivergences } from '../../src/catalog/catalog.js';

const page = (path: string) => readFileSync(join(import.meta.dirname, '..', '..', path), 'utf8');
const releasesPage = page(pages.releases);
const ogxPage = page(pages.divergences);

describe('release tables of docs/releases.md', () => {
  it('are the tables configs/ gives (update: node scripts/release-tables.mjs --write)', () => {
    expect(withReleaseTables(releasesPage, releaseTables())).toBe(releasesPage);
  });

  it('name every catalog release and every named distribution with its default release', () => {
    const block = releasesPage.slice(releasesPage.indexOf(markers.start), releasesPage.indexOf(markers.end));
    for (const release of catalogReleases()) expect(block).toMatch(new RegExp(`^\\| ${release.replaceAll('.', '\\.')} \\|`, 'm'));
    for (const [name, entry] of Object.entries(distributions())) expect(block).toContain(`| \`${name}\` | **${entry.defaultRelease}**`);
  });
});

describe('OGXServer divergence table of docs/ogxserver.md', () => {
  it('is configs/ogx-divergences.yaml (update: node scripts/release-tables.mjs --write)', () => {
    expect(ogxPage).toContain(divergenceMarkers.start);
    expect(withDivergenceTable(ogxPage)).toBe(ogxPage);
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
