// Bundles src/ into one file, dist/llsd-render.js, that runs with no node_modules (DESIGN §2).
// configs/*.yaml are embedded as text and parsed lazily, so start-up only pays for what a render uses.
import { build } from 'esbuild';
import { chmodSync, readFileSync } from 'node:fs';

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
  loader: { '.yaml': 'text' },
  define: { __LLSD_RENDER_VERSION__: JSON.stringify(version) },
  legalComments: 'none',
  logLevel: 'warning',
});

chmodSync('dist/llsd-render.js', 0o755);
