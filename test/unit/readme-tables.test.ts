// The README's release tables are made from configs/ (scripts/release-tables.mjs): a release or
// distribution added to configs/ without `node scripts/release-tables.mjs --write` fails here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without type declarations
import { markers, releaseTables, withTables } from '../../scripts/release-tables.mjs';
import { catalogReleases, distributions } from '../../src/catalog/catalog.js';

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
