// Bundles src/ into one file, dist/llsd-render.js, that runs with no node_modules (DESIGN §2).
// configs/*.yaml are embedded as parsed data (scripts/embed-yaml.mjs): start-up parses no YAML.
import { build } from 'esbuild';
import { chmodSync, readFileSync } from 'node:fs';
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
