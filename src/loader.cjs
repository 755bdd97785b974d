'use strict';
// The start of dist/llsd-render.js (scripts/build.mjs puts it there): it runs the bundled program,
// which is the text of the block comment after it in the same file, through V8's code cache.
//
// Why: compiling the 1 MB program and the functions a render calls takes about 40 ms of a
// 180 ms run; a code cache turns that into a read. Node 20, which we support, has no compile cache
// of its own. Node 22+'s (module.enableCompileCache, NODE_COMPILE_CACHE; it also serves a program
// given to module._compile) does not replace this one: it makes its data when the program is
// compiled, so it holds the top level only (390 KB against 1 MB here) and every function a render
// calls is compiled again. On Node 24, one LLSD in KRM mode, 41 interleaved runs, median: this
// cache 126 ms, Node's 178 ms, none 198 ms; Node's for this file's loader as well, 130 ms.
//
// The program is a comment, not code, in this file, so that loading the file does not parse it;
// its lines are this file's lines, so stack traces point into this file. In the comment, each `*/` of the program is `*` DEL `/`.
//
// The cache is one file per program and Node build: `$LLSD_RENDER_CODE_CACHE` (a directory, or
// `off`), else `$XDG_CACHE_HOME/llsd-render`, else `~/.cache/llsd-render` (the registry cache's
// directory). V8 refuses data from another program, V8 version or flag set, and a refused or
// missing cache is written anew after the run. Writing is best effort: a read-only home costs the
// compile, nothing more.
const { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { Script } = require('node:vm');

/**
 * Filled in by the build: the program's hash, the line of this file its first line is on, its
 * offset, and the offset of the data section (configs/) after it.
 */
const programHash = '%PROGRAM_HASH%';
const programLine = Number('%PROGRAM_LINE%');
const programOffset = Number('%PROGRAM_OFFSET%');
const dataOffset = Number('%DATA_OFFSET%');
const fileLength = Number('%FILE_LENGTH%');

/** A run that renders compiles what later runs need; `--version` or `--help` would cache too little. */
function renders(args) {
  return [undefined, 'build', 'validate', 'convert'].includes(args[0]) && !args.some((arg) => ['-h', '--help', '-v', '--version'].includes(arg));
}

// The name has this file's size and modification time too: V8 checks only the length of the source
// against a cache, so a copy of the bundle edited in place would run the code cached before the edit.
function cacheFile(env) {
  const setting = env.LLSD_RENDER_CODE_CACHE;
  if (setting === 'off') return undefined;
  const dir = setting || join(env.XDG_CACHE_HOME || join(env.HOME || require('node:os').homedir(), '.cache'), 'llsd-render');
  const { size, mtimeMs } = statSync(__filename);
  return join(dir, `code-${programHash}-${size}-${Math.floor(mtimeMs)}-node${process.version}-${process.arch}.v8cache`);
}

function readCache(file) {
  try {
    if (file === undefined) return undefined;
    // A cache entry that is a device, a fifo or far larger than any cache (~4 MB) is no cache:
    // reading it could take all memory or never end.
    const stat = statSync(file);
    if (!stat.isFile() || stat.size > 64 * 1024 * 1024) return undefined;
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Written beside its name and renamed, so a reader never sees half a file. */
function writeCache(file, data) {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(temp, data);
    renameSync(temp, file);
    return true;
  } catch {
    try {
      rmSync(temp, { force: true });
    } catch {
      // The directory itself could not be made: there is no temporary file.
    }
    return false;
  }
}

// The file holds two comments after this code: the program, then configs/ as data (scripts/build.mjs).
// The file is ASCII: latin1 reads it exactly, and fast.
function programText(text) {
  return text.slice(programOffset, dataOffset - '\n*/\n/*\n'.length).replaceAll('*\x7f/', '*/');
}

/**
 * configs/ as the program's module `llsd-configs` sees it: path under configs/ -> JSON text. The
 * data section is a line with the index ([path, length] of each entry), then the entries' texts;
 * each is a slice of the file's text, parsed by the program when it first reads that file.
 */
function embeddedConfigs(text) {
  const indexEnd = text.indexOf('\n', dataOffset);
  const files = {};
  let at = indexEnd + 1;
  let index;
  try {
    index = JSON.parse(text.slice(dataOffset, indexEnd));
  } catch {
    damaged('its data index does not parse');
  }
  for (const [path, length] of index) {
    files[path] = text.slice(at, at + length);
    at += length;
  }
  if (at !== text.length - '\n*/\n'.length) damaged('its data does not end where its index says');
  return files;
}

/** A bundle cut short, grown, or edited out of shape: said plainly (exit 2), not as a stack trace from its parts. */
function damaged(why) {
  process.stderr.write(`llsd-render: ${__filename} is damaged (${why}): build it again with \`npm run build\`, or take a fresh copy\n`);
  process.exit(2);
}

function load() {
  const text = readFileSync(__filename, 'latin1');
  if (text.length !== fileLength) damaged(`it has ${text.length} bytes, not the ${fileLength} it was built with`);
  const program = programText(text);
  const file = cacheFile(process.env);
  const cachedData = readCache(file);
  // Line 2 of the script (after the wrapper's line) is line `programLine` of this file.
  // `__llsdEmbeddedConfigs` is how the bundle's `llsd-configs` module reaches the data (scripts/build.mjs).
  const script = new Script(`(function (exports, require, module, __filename, __dirname, __llsdEmbeddedConfigs) {\n${program}\n})`, {
    filename: __filename,
    lineOffset: programLine - 2,
    cachedData,
  });
  const used = cachedData !== undefined && !script.cachedDataRejected;
  const debug = process.env.LLSD_RENDER_DEBUG ? (line) => process.stderr.write(`llsd-render: code cache: ${line}\n`) : () => {};
  if (file === undefined) debug('off (LLSD_RENDER_CODE_CACHE=off)');
  else if (used) debug(`read ${file}`);
  else if (cachedData !== undefined) debug(`refused by V8, to be written again: ${file}`);
  if (file !== undefined && !used && renders(process.argv.slice(2))) {
    // At exit the data holds every function the run compiled, not just the top level; a run that
    // failed early compiled too little to keep (the next successful one writes it instead).
    process.on('exit', (code) => {
      if (code === 0) debug(writeCache(file, script.createCachedData()) ? `wrote ${file}` : `cannot write ${file}`);
    });
  }
  script.runInThisContext()(module.exports, require, module, __filename, __dirname, embeddedConfigs(text));
}
