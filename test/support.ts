// Shared test helpers: build input items from YAML text, as the readers do.
import { isMap } from 'yaml';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isKrmObject, type InputItem, type Origin } from '../src/krm/item.js';
import { parseYamlStream, prepareForOutput } from '../src/krm/yaml.js';

/** Every document of `text` as an input item; throws on anything that is not a KRM object. */
export function itemsFrom(text: string, origin: (index: number) => Origin = () => ({})): InputItem[] {
  const { documents, problems, lines } = parseYamlStream(text);
  if (problems.length > 0) throw new Error(`bad test YAML: ${problems.map((p) => p.message).join('; ')}`);
  return documents
    .filter((d) => d.node !== null)
    .map((doc, index) => {
      const object = doc.value;
      if (!isKrmObject(object) || !isMap(doc.node)) throw new Error(`test document ${index} is not a KRM object`);
      prepareForOutput(doc.node);
      const o = origin(index);
      return { node: doc.node, object, origin: o.file ? { ...o, lines } : o };
    });
}

export function itemFrom(text: string, origin: Origin = {}): InputItem {
  const [item] = itemsFrom(text, () => origin);
  if (!item) throw new Error('no document');
  return item;
}

/** A v1alpha2 LLSD as YAML, with `spec` given as YAML text indented under `spec:`. */
/** LLSD metadata that picks `release` of a named distribution with the release annotation. */
export const releaseMetadata = (release: string, name = 'demo'): string =>
  `name: ${name}\n  namespace: ai\n  annotations:\n    llamastack.io/release: "${release}"`;

export function llsdYaml(spec: string, metadata = 'name: demo\n  namespace: ai'): string {
  return `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata:
  ${metadata}
spec:
${spec
  .trim()
  .split('\n')
  .map((line) => `  ${line}`)
  .join('\n')}
`;
}

/** The text of a base config (its path under configs/), read from disk (the bundle embeds it parsed). */
export function shippedConfigText(path: string): string | undefined {
  const file = join(dirname(fileURLToPath(import.meta.url)), '..', 'configs', path);
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}
