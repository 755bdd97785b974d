// configs/ into the bundle as data, so a render reads no file and parses no YAML of its own at
// start-up (the build and vitest.config.ts both use this). Every data file under configs/ becomes
// one entry of the virtual module `llsd-configs`: its path under configs/ → its value as JSON text,
// which src/catalog/files.ts parses on first use (a render needs one or two releases of the
// catalog, not all of them; configs/catalog/schemas.json is one entry per schema). The bundle
// carries the entries as a data section that src/loader.cjs hands to the program (scripts/build.mjs). Base configs (configs/distributions/, and the copies of shipped
// distribution configs under configs/catalog/<release>/distributions/) are read as the server
// reads them (YAML 1.1, unique keys, as src/krm/yaml.ts parseYaml11 does); the other data files
// with the YAML 1.2 defaults. Shipped distribution copies are embedded only when
// configs/distributions.yaml names them: the rest are for the tests.
// test/unit/embedded-data.test.ts checks the result against the runtime parser and the schemas.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parse, parseAllDocuments } from 'yaml';

const maxAliasCount = 100;
export const configsModuleId = 'llsd-configs';

/** Is this path (under configs/) a config.yaml as the server reads it? */
const isServerConfig = (path) => /^distributions\//.test(path) || /^catalog\/[^/]+\/distributions\//.test(path);

/** The value of one data file under configs/. */
export function parseConfigFile(path, text) {
  if (path.endsWith('.json')) return JSON.parse(text);
  return isServerConfig(path) ? parseAsServer(path, text) : parse(text);
}

/** The source of the `llsd-configs` module for the configs/ directory `dir` (vitest and the fuzz harness; the bundle carries the entries as data, scripts/build.mjs). */
export function configsModule(dir) {
  const entries = configsEntries(dir).map(([path, json]) => `  ${JSON.stringify(path)}: ${JSON.stringify(json)},`);
  return `export default {\n${entries.join('\n')}\n};\n`;
}

/**
 * The embedded files of the configs/ directory `dir`, as [path under configs/, value as JSON text].
 * configs/catalog/schemas.json becomes one entry per schema (`catalog/schemas/<key>`): a render
 * parses the few schemas its release and providers name, not all 224 kB (~5 ms).
 */
export function configsEntries(dir) {
  const files = listFiles(dir).map((file) => relative(dir, file).split(sep).join('/'));
  const named = new Set(Object.values(parse(readFileSync(join(dir, 'distributions.yaml'), 'utf8'))).flatMap((d) => Object.values(d.releases).map((r) => r.config)));
  const missing = [...named].filter((path) => !files.includes(path));
  if (missing.length > 0) throw new Error(`configs/distributions.yaml names ${missing.join(', ')}, which configs/ does not have (a release missing from ` +
    `configs/catalog/? see docs/releases.md "Adding a release")`);
  const entries = [];
  for (const path of files.sort()) {
    if (!/\.(ya?ml|json)$/.test(path)) continue;
    if (/^catalog\/[^/]+\/distributions\//.test(path) && !named.has(path)) continue;
    const value = parseConfigFile(path, readFileSync(join(dir, path), 'utf8'));
    if (path === schemasPath) {
      for (const [key, schema] of Object.entries(value.$defs)) entries.push([`${schemaPrefix}${key}`, jsonOf(path, schema)]);
    } else {
      entries.push([path, jsonOf(path, value)]);
    }
  }
  return entries;
}

const schemasPath = 'catalog/schemas.json';
const schemaPrefix = 'catalog/schemas/';

function jsonOf(path, value) {
  const json = JSON.stringify(value);
  if (!isDeepStrictEqual(JSON.parse(json), value)) throw new Error(`configs/${path}: holds values that JSON cannot carry (dates, binary, …)`);
  return json;
}

function listFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(join(dir, entry.name)) : entry.isFile() ? [join(dir, entry.name)] : [],
  );
}

function parseAsServer(path, text) {
  const docs = parseAllDocuments(text, { version: '1.1', uniqueKeys: true });
  const list = Array.isArray(docs) ? docs : [];
  const error = list[0]?.errors[0];
  if (error) throw new Error(`configs/${path}: ${error.message}`);
  if (list.length !== 1) throw new Error(`configs/${path}: must hold a single YAML document`);
  return list[0].toJS({ maxAliasCount });
}
