// `npm ci` warned "1 package has install scripts not yet covered by allowScripts: esbuild@0.28.2
// (postinstall: node install.js)" (issue 29). npm 11.16 and later read package.json's
// `allowScripts`, warn about every dependency with an install script it does not list, and npm 12
// skips those scripts. Each such dependency of the lock file is listed, so `npm ci` says nothing,
// and what runs does not change with the npm version (docs/development.md, "Install scripts").
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './markdown.js';

const json = (name: string): Record<string, unknown> => JSON.parse(readFileSync(join(repoRoot, name), 'utf8')) as Record<string, unknown>;

describe('install scripts of the dependencies', () => {
  it('every package of package-lock.json with an install script has an allowScripts entry in package.json', () => {
    const packages = json('package-lock.json').packages as Record<string, { hasInstallScript?: boolean }>;
    const withScripts = Object.entries(packages)
      .filter(([path, entry]) => path !== '' && entry.hasInstallScript === true)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
    // esbuild's postinstall only swaps its JavaScript launcher for the native binary; the bundle is the same bytes without it.
    expect(withScripts).toContain('esbuild');
    const allowed = (json('package.json').allowScripts ?? {}) as Record<string, boolean>;
    const listed = (name: string): boolean => Object.keys(allowed).some((key) => key === name || key.startsWith(`${name}@`));
    expect(withScripts.filter((name) => !listed(name))).toEqual([]);
  });
});
