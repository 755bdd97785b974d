'use strict'; { var loading = false; var damaged = (why) => { const message = `${__filename} is damaged (${why}): build it again with \`npm run build\`, or take a fresh copy`; process.stderr.write(`llsd-render: ${message}\n`); if (process.argv.length <= 2) process.stdout.write(`apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nresults:\n  - severity: error\n    message: ${JSON.stringify(message)}\n`); process.exit(2); }; process.on('exit', () => loading || damaged('it ends before its program')); }
// The line above comes first, whole: a copy cut short after it (in the comments below) would
// otherwise run nothing and exit 0 with no output, and one cut inside its block does not parse.
// `damaged(why)`: a bundle cut short, grown, or edited out of shape, said plainly with exit 2 (not
// as a stack trace from its parts); in KRM mode (no arguments) also as the ResourceList that kpt
// and kustomize expect (JSON text is a YAML double-quoted scalar).
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
// directory; a relative XDG_CACHE_HOME is ignored, as the XDG spec says). V8 refuses data from
// another program, V8 version or flag set, but checks little else: one flipped byte deep in the
// data crashed every later run (exit 133 on Node 20, SIGSEGV on 24). So the file starts with a
// header holding the data's length and SHA-256, and only data that matches is given to V8
// (hashing 1 MB takes under 1 ms; the program loads node:crypto at its start anyway). A file owned
// by another user (not root), or writable by group or others, is not read: in a shared directory
// it would be a way to run code in someone else's runs. A damaged, refused, untrusted or missing
// cache is written anew after the run, and the oldest of this program's cache files beyond the
// newest few are removed (each build of the bundle has a file of its own). Writing is best effort:
// a read-only home costs the compile, nothing more.
const {
  closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync,
} = require('node:fs');
const { createHash, randomBytes } = require('node:crypto');
const { basename, dirname, isAbsolute, join } = require('node:path');
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
  // `OFF` as well: it would otherwise be a directory of that name in the working directory.
  if (setting !== undefined && setting.toLowerCase() === 'off') return undefined;
  const xdg = env.XDG_CACHE_HOME;
  const dir = setting || join(xdg && isAbsolute(xdg) ? xdg : join(env.HOME || require('node:os').homedir(), '.cache'), 'llsd-render');
  const { size, mtimeMs } = statSync(__filename);
  return join(dir, `code-${programHash}-${size}-${Math.floor(mtimeMs)}-node${process.version}-${process.arch}.v8cache`);
}

// The file: a 48-byte header (magic, the data's length, its SHA-256), then V8's data. 48 keeps the
// data 8-byte aligned in the buffer read, so V8 need not copy it.
const cacheMagic = Buffer.from('llsd-cc-v1\n\0', 'latin1');
const headerBytes = 48;
/** A cache entry far larger than any cache (~1 MB) is no cache: reading it could take all memory. */
const maxCacheBytes = 64 * 1024 * 1024;
/** Cache files of other builds kept beside the one written: a few checkouts or Node versions at once. */
const keptCaches = 8;

/** The cache's data, or why there is none to give V8 (undefined: no file, or not to be said). */
function readCache(file) {
  if (file === undefined) return {};
  let fd;
  try {
    // Opened once and checked through the descriptor, so the file checked is the file read.
    // O_NONBLOCK: opening a fifo must not wait for a writer (fstat then says what it is).
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK || 0));
  } catch {
    return {};
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > maxCacheBytes) return { why: 'not a regular file of a sensible size' };
    const distrust = untrusted(stat);
    if (distrust) return { why: distrust };
    return unpack(readFileSync(fd));
  } catch {
    return {};
  } finally {
    closeSync(fd);
  }
}

/** Why a file with this stat may not be run as this user's code, or undefined. */
function untrusted(stat) {
  if (typeof process.getuid !== 'function') return undefined; // Windows: no owners to compare.
  const uid = process.getuid();
  if (stat.uid !== uid && stat.uid !== 0) return `owned by user ${stat.uid}, not by user ${uid} or root`;
  if ((stat.mode & 0o022) !== 0) return 'writable by group or others';
  return undefined;
}

function unpack(bytes) {
  if (bytes.length < headerBytes || !bytes.subarray(0, cacheMagic.length).equals(cacheMagic)) return { why: 'damaged: no llsd-render header' };
  const data = bytes.subarray(headerBytes);
  if (data.length !== bytes.readUInt32LE(cacheMagic.length)) return { why: 'damaged: not the length its header says' };
  if (!sha256(data).equals(bytes.subarray(headerBytes - 32, headerBytes))) return { why: 'damaged: its checksum does not match' };
  return { data };
}

function pack(data) {
  const header = Buffer.alloc(headerBytes);
  cacheMagic.copy(header);
  header.writeUInt32LE(data.length, cacheMagic.length);
  sha256(data).copy(header, headerBytes - 32);
  return Buffer.concat([header, data]);
}

const sha256 = (bytes) => createHash('sha256').update(bytes).digest();

/**
 * Written beside its name and renamed, so a reader never sees half a file. The temporary file is
 * new (`wx`: a link planted at its name is not followed) and 0644 whatever the umask allows more
 * of: a cache writable by others is not read, and the image's, written by root, is read by nobody.
 */
function writeCache(file, data) {
  const temp = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(temp, pack(data), { flag: 'wx', mode: 0o644 });
    renameSync(temp, file);
  } catch {
    try {
      rmSync(temp, { force: true });
    } catch {
      // The directory itself could not be made: there is no temporary file.
    }
    return false;
  }
  pruneCaches(dirname(file), basename(file));
  return true;
}

const cacheName = /^code-.*\.v8cache$/;
const tempName = /^code-.*\.v8cache\.\d+-[0-9a-f]+\.tmp$/;

/**
 * Removes this user's older cache files of this program from `dir` (each build of the bundle
 * names its own, so they would only grow): all but the newest `keptCaches` beside `written`, and
 * temporary files a killed run left over an hour ago. Other files are never touched.
 */
function pruneCaches(dir, written) {
  try {
    const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
    const now = Date.now();
    const caches = [];
    for (const name of readdirSync(dir)) {
      if (name === written || !(cacheName.test(name) || tempName.test(name))) continue;
      const stat = lstatSync(join(dir, name));
      if (!stat.isFile() || (uid !== undefined && stat.uid !== uid)) continue;
      if (cacheName.test(name)) caches.push({ name, mtimeMs: stat.mtimeMs });
      else if (now - stat.mtimeMs > 3600_000) rmSync(join(dir, name), { force: true });
    }
    caches.sort((a, b) => b.mtimeMs - a.mtimeMs);
    for (const { name } of caches.slice(keptCaches - 1)) rmSync(join(dir, name), { force: true });
  } catch {
    // Best effort, as the write: a file that cannot be removed is removed by a later run, or stays.
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
  const isEntry = (entry) => Array.isArray(entry) && typeof entry[0] === 'string' && Number.isSafeInteger(entry[1]) && entry[1] >= 0;
  if (!Array.isArray(index) || !index.every(isEntry)) {
    damaged('its data index is not a list of [path, length]');
  }
  for (const [path, length] of index) {
    files[path] = text.slice(at, at + length);
    at += length;
  }
  if (at !== text.length - '\n*/\n'.length) damaged('its data does not end where its index says');
  return files;
}


// eslint-disable-next-line @typescript-eslint/no-unused-vars -- called by the `load();` line scripts/build.mjs writes after this file
function load() {
  loading = true;
  const text = readFileSync(__filename, 'latin1');
  if (text.length !== fileLength) damaged(`it has ${text.length} bytes, not the ${fileLength} it was built with`);
  const program = programText(text);
  const file = cacheFile(process.env);
  const { data: cachedData, why } = readCache(file);
  // Line 2 of the script (after the wrapper's line) is line `programLine` of this file.
  // `__llsdEmbeddedConfigs` is how the bundle's `llsd-configs` module reaches the data (scripts/build.mjs).
  let script;
  try {
    script = new Script(`(function (exports, require, module, __filename, __dirname, __llsdEmbeddedConfigs) {\n${program}\n})`, {
      filename: __filename,
      lineOffset: programLine - 2,
      cachedData,
    });
  } catch (error) {
    // Edited in place (the length is right): V8's message, not the program's line, which may be kB long.
    damaged(`its program does not compile: ${error instanceof SyntaxError ? error.message : error}`);
  }
  const used = cachedData !== undefined && !script.cachedDataRejected;
  const debug = process.env.LLSD_RENDER_DEBUG ? (line) => process.stderr.write(`llsd-render: code cache: ${line}\n`) : () => {};
  if (file === undefined) debug('off (LLSD_RENDER_CODE_CACHE=off)');
  else if (used) debug(`read ${file}`);
  else if (cachedData !== undefined) debug(`refused by V8, to be written again: ${file}`);
  else if (why !== undefined) debug(`not read (${why}), to be written again: ${file}`);
  if (file !== undefined && !used && renders(process.argv.slice(2))) {
    // At exit the data holds every function the run compiled, not just the top level; a run that
    // failed early compiled too little to keep (the next successful one writes it instead).
    process.on('exit', (code) => {
      if (code === 0) debug(writeCache(file, script.createCachedData()) ? `wrote ${file}` : `cannot write ${file}`);
    });
  }
  try {
    script.runInThisContext()(module.exports, require, module, __filename, __dirname, embeddedConfigs(text));
  } catch (error) {
    // Thrown while the program's modules load, before any input is read: an embedded configs/ text
    // that does not parse (src/catalog/files.ts; later, src/index.ts says it), or a program edited
    // so that it compiles but cannot start (an unknown built-in module, say).
    if (process.env.LLSD_RENDER_DEBUG) process.stderr.write(`${error?.stack ?? error}\n`);
    const first = String(error?.message ?? error).split('\n')[0].slice(0, 200);
    damaged(error?.name === 'DamagedBundle' ? error.message : `its program stops while it loads: ${first}`);
  }
}
