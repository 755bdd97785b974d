// Bundles src/ into one file, dist/llsd-render.js, that runs with no node_modules (DESIGN §2):
// src/loader.cjs, then the bundled program as a comment that the loader compiles with V8's code
// cache, then configs/ as data (scripts/embed-yaml.mjs): start-up reads and parses no YAML.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { fileURLToPath } from 'node:url';
import { configsEntries, configsModuleId } from './embed-yaml.mjs';

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
        b.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, ({ pluginData }) => ({
          contents: "export { default as en } from './en.js';",
          resolveDir: pluginData.dir,
          loader: 'js',
        }));
      },
    },
    {
      name: 'embed-configs',
      setup(b) {
        b.onResolve({ filter: new RegExp(`^${configsModuleId}$`) }, () => ({ path: configsModuleId, namespace: 'llsd-configs' }));
        // In the bundle, configs/ is not code but a data section of the file that the loader hands
        // to the program (see below).
        b.onLoad({ filter: /.*/, namespace: 'llsd-configs' }, () => ({ contents: 'export default __llsdEmbeddedConfigs;', loader: 'js' }));
      },
    },
  ],
  define: { __LLSD_RENDER_VERSION__: JSON.stringify(version) },
  legalComments: 'none',
  // Whitespace and syntax minified (1.45 MB of program becomes 1.07 MB): Node's loader reads and
  // scans the whole file before the loader runs, and the loader reads it again, so every 100 kB is
  // about 1 ms of each start. Names are kept: a stack trace (LLSD_RENDER_DEBUG) and a CPU profile
  // still say which function, at a line and column of this file.
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
});

// esbuild writes strings as ASCII but keeps some comments as written (`§`, `…`); a \uXXXX escape
// means the same in a comment, string, template, regular expression or identifier, so every
// character beyond ASCII (and DEL) is written so, and the file stays ASCII (see below).
const program = bundled.outputFiles[0].text.replace(/[\x7f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
// vm.Script has no module loader: a real import() would fail at run time, so none may be left.
if (/\bimport\(/.test(program.replace(/(["'`]).*?\1/g, ''))) throw new Error('the bundle holds a dynamic import(); bundle the module instead');

// The loader relies on an ASCII program without DEL (see below), and names the program by its hash.
if (/[\x7f-\uffff]/.test(program)) throw new Error('the bundle holds DEL or a character beyond ASCII; the loader relies on neither being there');
const hash = createHash('sha256').update(program).digest('hex').slice(0, 16);

// configs/ as a second comment after the program: a line with the index (path and length of each
// entry), then the entries' JSON texts one after another. The loader slices them from the text it
// has read anyway, so they are neither in the code V8 compiles and caches (~0.7 MB of string
// literals cost ~5 ms a start, in reading, in the code cache and in the parse of the file) nor
// parsed before a render asks for one. Each JSON text is ASCII (\uXXXX beyond), and `*/` can only
// be inside a JSON string, where it is written `*\/`.
const entries = configsEntries(join(root, 'configs')).map(([path, json]) => [path, asciiJson(json)]);
const data = `${JSON.stringify(entries.map(([path, json]) => [path, json.length]))}\n${entries.map(([, json]) => json).join('')}`;
if (data.includes('*/') || /[^\x00-\x7e]/.test(data)) throw new Error('internal: the configs data section must be ASCII without a comment end');
// Read back as src/loader.cjs reads it: the same entries, or the build fails.
{
  const at = data.indexOf('\n') + 1;
  let offset = at;
  const read = JSON.parse(data.slice(0, at - 1)).map(([path, length]) => [path, JSON.parse(data.slice(offset, (offset += length)))]);
  if (offset !== data.length || !isDeepStrictEqual(read, entries.map(([path, json]) => [path, JSON.parse(json)]))) {
    throw new Error('internal: the configs data section does not read back');
  }
}

// The program as the text of one block comment after the loader: parsing the file skips a comment
// at the speed of a search for its end (a string literal of the program cost 12 ms more). Each
// `*/` of the program is written `*` DEL `/` (esbuild writes ASCII and escapes DEL), and the
// loader turns it back. The program's first line is the line after `/*`, and every program
// line keeps a line of the file to itself.
const loader = readFileSync('src/loader.cjs', 'utf8');
// The loader's first line right after the #! line: it is what says that a copy cut short is damaged.
const [loaderGuard, ...loaderRest] = loader.split('\n');
const start = `#!/usr/bin/env node\n${loaderGuard}\n// llsd-render ${version}\n${loaderRest.join('\n')}\nload();\n/*\n`;
const programLine = start.split('\n').length;
const head = start.replace("'%PROGRAM_HASH%'", `'${hash}'`).replace("'%PROGRAM_LINE%'", `'${programLine}'`);
if (/[^\x00-\x7f]/.test(head)) throw new Error('src/loader.cjs must be ASCII: the program offset counts bytes');
// Each offset replaces a placeholder of its own length, so it does not move what it points at.
const padded = (n, placeholder) => String(n).padStart(placeholder.length, '0');
const body = `${program.replaceAll('*/', '*\x7f/')}\n*/\n/*\n`;
const text = `${head
  .replace("'%PROGRAM_OFFSET%'", `'${padded(head.length, '%PROGRAM_OFFSET%')}'`)
  .replace("'%DATA_OFFSET%'", `'${padded(head.length + body.length, '%DATA_OFFSET%')}'`)
  .replace("'%FILE_LENGTH%'", `'${padded(head.length + body.length + data.length + '\n*/\n'.length, '%FILE_LENGTH%')}'`)}${body}${data}\n*/\n`;

mkdirSync('dist', { recursive: true });
writeFileSync('dist/llsd-render.js', text);
chmodSync('dist/llsd-render.js', 0o755);
// The repository's package.json says "type": "module"; the bundle is CommonJS.
writeFileSync('dist/package.json', '{ "type": "commonjs" }\n');

/** JSON text with every character beyond ASCII (and DEL) as a \uXXXX escape and every `/` after `*` escaped. */
function asciiJson(json) {
  const out = json.replace(/[\x7f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).replaceAll('*/', '*\\/');
  if (!isDeepStrictEqual(JSON.parse(out), JSON.parse(json))) throw new Error('internal: escaping changed a configs entry');
  return out;
}

