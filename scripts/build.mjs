// Bundles src/ into one file, dist/llsd-render.js, that runs with no node_modules (DESIGN §2):
// src/loader.cjs, then the bundled program as a string that the loader compiles with V8's code
// cache. configs/ is embedded as data (scripts/embed-yaml.mjs): start-up reads and parses no YAML.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configsModule, configsModuleId } from './embed-yaml.mjs';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
// Paths from the repository root, wherever the build is started from.
const root = fileURLToPath(new URL('..', import.meta.url));
process.chdir(root);

const bundled = await build({
  absWorkingDir: root,
  entryPoints: ['src/index.ts'],
  write: false,
  outfile: 'dist/llsd-render.js',
  bundle: true,
  platform: 'node',
  target: 'node20',
  // CommonJS: a built-in module the program needs only for some commands (zlib, stream, crypto
  // for the registry) is required when that code first runs, not loaded at every start as the
  // import statements of an ES module bundle are.
  format: 'cjs',
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
      name: 'embed-configs',
      setup(b) {
        b.onResolve({ filter: new RegExp(`^${configsModuleId}$`) }, () => ({ path: configsModuleId, namespace: 'llsd-configs' }));
        b.onLoad({ filter: /.*/, namespace: 'llsd-configs' }, () => ({ contents: configsModule(join(root, 'configs')), loader: 'js', watchDirs: [join(root, 'configs')] }));
      },
    },
  ],
  define: { __LLSD_RENDER_VERSION__: JSON.stringify(version) },
  legalComments: 'none',
  logLevel: 'warning',
});

const program = bundled.outputFiles[0].text;
// vm.Script has no module loader: a real import() would fail at run time, so none may be left.
if (/\bimport\(/.test(program.replace(/(["'`]).*?\1/g, ''))) throw new Error('the bundle holds a dynamic import(); bundle the module instead');

// The program as the text of one block comment after the loader: parsing the file skips a comment
// at the speed of a search for its end (a string literal of the program cost 12 ms more). Each
// `*/` of the program is written `*` DEL `/` (esbuild writes ASCII and escapes DEL), and the
// loader turns it back. The program's first line is the line after `/*`, and every program
// line keeps a line of the file to itself.
if (/[\x7f-\uffff]/.test(program)) throw new Error('the bundle holds DEL or a character beyond ASCII; the loader relies on neither being there');
const hash = createHash('sha256').update(program).digest('hex').slice(0, 16);
const loader = readFileSync('src/loader.cjs', 'utf8');
const start = `#!/usr/bin/env node\n// llsd-render ${version}\n${loader}\nload();\n/*\n`;
const programLine = start.split('\n').length;
const head = start.replace("'%PROGRAM_HASH%'", `'${hash}'`).replace("'%PROGRAM_LINE%'", `'${programLine}'`);
if (/[^\x00-\x7f]/.test(head)) throw new Error('src/loader.cjs must be ASCII: the program offset counts bytes');
// The offset replaces a placeholder of its own length, so it does not move what it points at.
const offset = String(head.length).padStart('%PROGRAM_OFFSET%'.length, '0');
const text = `${head.replace("'%PROGRAM_OFFSET%'", `'${offset}'`)}${program.replaceAll('*/', '*\x7f/')}\n*/\n`;

mkdirSync('dist', { recursive: true });
writeFileSync('dist/llsd-render.js', text);
chmodSync('dist/llsd-render.js', 0o755);
// The repository's package.json says "type": "module"; the bundle is CommonJS.
writeFileSync('dist/package.json', '{ "type": "commonjs" }\n');
