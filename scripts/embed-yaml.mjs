// configs/*.yaml into the bundle as parsed data, so a render parses no YAML of its own at
// start-up (the build and vitest.config.ts both use this). Base configs under
// configs/distributions/ are read as the server reads them (YAML 1.1, unique keys, as
// src/krm/yaml.ts parseYaml11 does); the other data files with the YAML 1.2 defaults.
// test/unit/embedded-data.test.ts checks the result against the runtime parser and the schemas.
import { isDeepStrictEqual } from 'node:util';
import { parse, parseAllDocuments } from 'yaml';

const maxAliasCount = 100;

export function embedYaml(path, text) {
  const value = /[\\/]configs[\\/]distributions[\\/]/.test(path) ? parseAsServer(path, text) : parse(text);
  const json = JSON.stringify(value);
  if (!isDeepStrictEqual(JSON.parse(json), value)) throw new Error(`${path}: holds values that JSON cannot carry (dates, binary, …)`);
  // JSON.parse of a string literal is the fastest way for V8 to build a large object.
  return `export default JSON.parse(${JSON.stringify(json)});\n`;
}

function parseAsServer(path, text) {
  const docs = parseAllDocuments(text, { version: '1.1', uniqueKeys: true });
  const list = Array.isArray(docs) ? docs : [];
  const error = list[0]?.errors[0];
  if (error) throw new Error(`${path}: ${error.message}`);
  if (list.length !== 1) throw new Error(`${path}: must hold a single YAML document`);
  return list[0].toJS({ maxAliasCount });
}
