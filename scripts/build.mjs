// Bundles src/ into one file, dist/llsd-render.js, that runs with no node_modules (DESIGN §2).
// configs/*.yaml are embedded as parsed data (scripts/embed-yaml.mjs): start-up parses no YAML.
import { build } from 'esbuild';
import { chmodSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { embedYaml } from './embed-yaml.mjs';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

await build({
  entryPoints: ['src/index.ts'],
  outfile: 'dist/llsd-render.js',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  // The `yaml` package is CommonJS and requires node built-ins; give the ESM bundle a `require`.
  banner: { js: "#!/usr/bin/env node\nimport { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);" },
  plugins: [
    {
      // zod re-exports all of its ~50 message locales; llsd-render writes its own messages and
      // uses only zod's default (English) one, so the others are left out of the bundle: smaller,
      // and about 6 ms less start-up. `z.locales.<other>` would be undefined in the bundle.
      name: 'zod-english-only',
      setup(b) {
        b.onResolve({ filter: /\/locales\/index\.js$/ }, ({ importer, resolveDir, path }) =>
          /[\\/]zod[\\/]/.test(importer) ? { path, namespace: 'zod-english-only', pluginData: { dir: join(resolveDir, dirname(path)) } } : undefined,
        );
        b.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, ({ pluginData }) => ({ contents: "export { default as en } from './en.js';", resolveDir: pluginData.dir, loader: 'js' }));
      },
    },
    {
      name: 'embed-yaml',
      setup(b) {
        b.onLoad({ filter: /\.yaml$/ }, ({ path }) => ({ contents: embedYaml(path, readFileSync(path, 'utf8')), loader: 'js' }));
      },
    },
  ],
  define: { __LLSD_RENDER_VERSION__: JSON.stringify(version) },
  legalComments: 'none',
  logLevel: 'warning',
});

chmodSync('dist/llsd-render.js', 0o755);
