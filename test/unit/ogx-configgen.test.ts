// The OGX operator's configgen cases (test/fixtures/ogx-configgen/, from upstream's
// cmd/configgen/testdata): CR + base.yaml → config.yaml. Two checks per case: what llsd-render
// computes as the operator's output equals want-config.yaml structurally (as upstream compares),
// and our config equals it too except for the named divergences (configs/ogx-divergences.yaml),
// where the test asserts our value and that want-config.yaml holds upstream's.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseOgxServer, type OgxServer } from '../../src/ogx/ogxserver.js';
import { ogxDivergences } from '../../src/catalog/catalog.js';
import { releaseSupport } from '../../src/catalog/versions.js';
import { generateOgxConfig, operatorConfig } from '../../src/ogx/generate.js';
import { inventoryOf } from '../../src/krm/inventory.js';
import { parseYaml11 } from '../../src/krm/yaml.js';
import { clonePlain, isPlainObject } from '../../src/lib/objects.js';
import type { OgxPlan } from '../../src/ogx/plan.js';
import { planOgxServer } from '../../src/ogx/plan.js';
import { itemFrom, itemsFrom } from '../support.js';

const dir = join(import.meta.dirname, '..', 'fixtures', 'ogx-configgen');
/** The OGX release upstream's goldens were compared with (reference README: v1.3.0). */
const release = '1.3.0';
const read = (name: string, file: string): string => readFileSync(join(dir, name, file), 'utf8');
const yaml = (text: string): Record<string, unknown> => {
  const parsed = parseYaml11(text);
  if (!isPlainObject(parsed.value)) throw new Error('not a mapping');
  return parsed.value;
};

/** configgen's `-validate` knows the names of its distributions.json (rh, starter, test). */
const distributions = Object.keys(JSON.parse(readFileSync(join(dir, 'distributions.json'), 'utf8')) as Record<string, string>);

function serverOf(name: string): OgxServer {
  const parsed = parseOgxServer(itemFrom(read(name, 'cr.yaml')).object, { distributions });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.server;
}

/** configgen's `-base`: the case's base.yaml as the plan's base, at the release of the goldens. */
function casePlan(name: string): OgxPlan {
  const support = releaseSupport(release);
  if (!support) throw new Error(`no release ${release} in the catalog`);
  const server = serverOf(name);
  return {
    server,
    distributionName: String(server.spec.distribution.name),
    image: 'unused',
    release,
    ...support,
    mode: 'generated',
    baseConfig: yaml(read(name, 'base.yaml')),
    baseSource: 'baseConfig',
  };
}

interface Divergence {
  ref: string;
  path: Array<string | number>;
  /** Upstream's value at `path` (undefined: upstream writes nothing there). */
  upstream: unknown;
  ours: unknown;
}

/** Divergences every case shows. */
const everyCase: Divergence[] = [{ ref: 'B6', path: ['version'], upstream: '2', ours: 2 }];

/** Every other divergence a case shows, by its configs/ogx-divergences.yaml ref. */
const divergences: Record<string, Divergence[]> = {
  'happy-basic': [],
  'p0-inference-base-url': [],
  'p1-batches-config': [
    { ref: 'A2', path: ['providers', 'batches', 0, 'provider_type'], upstream: 'inline::batch-reference', ours: 'inline::reference' },
    { ref: 'A4–A9', path: ['providers', 'batches', 0, 'config', 'sqlstore'], upstream: undefined, ours: { backend: 'sql_default', table_name: 'batches' } },
  ],
  'p1-fileprocessors-config': [],
  'p1-filesearch-config': [
    { ref: 'A3', path: ['providers', 'tool_runtime', 0, 'provider_type'], upstream: 'inline::rag-runtime', ours: 'inline::file-search' },
  ],
  'p1-inference-extra-fields': [],
  'p1-pgvector-config': [
    {
      ref: 'A10',
      path: ['providers', 'vector_io', 0, 'config', 'vector_index'],
      upstream: { hnsw: { m: 16, ef_construction: 200, ef_search: 100 } },
      ours: { type: 'HNSW', m: 16, ef_construction: 200, ef_search: 100 },
    },
    // Upstream #379's golden (f92d2ca8) writes the same block.
    {
      ref: 'A16',
      path: ['providers', 'vector_io', 0, 'config', 'persistence'],
      upstream: undefined,
      ours: { backend: 'kv_default', namespace: 'vector_io::pgvector' },
    },
  ],
  'rh-add-models': [],
  'rh-custom-port': [],
  'rh-disable-apis': [],
  'rh-override-inference': [],
};

function at(value: unknown, path: Array<string | number>): unknown {
  let node = value;
  for (const step of path) node = node === null || typeof node !== 'object' ? undefined : (node as Record<string | number, unknown>)[step];
  return node;
}

function put(value: unknown, path: Array<string | number>, leaf: unknown): void {
  const parent = at(value, path.slice(0, -1)) as Record<string | number, unknown>;
  const key = path.at(-1) as string | number;
  if (leaf === undefined) delete parent[key];
  else parent[key] = leaf;
}

const successCases = readdirSync(dir).filter((name) => existsSync(join(dir, name, 'want-config.yaml'))).sort();

describe('OGX configgen cases', () => {
  it('every case with a want-config.yaml is listed with its divergences, and every ref is a row of the divergence table', () => {
    expect(successCases).toEqual(Object.keys(divergences).sort());
    const refs = new Set(ogxDivergences().table.map((row) => row.ref));
    for (const list of [everyCase, ...Object.values(divergences)]) for (const d of list) expect(refs, d.ref).toContain(d.ref);
  });

  for (const name of successCases) {
    it(`${name}: the operator's output equals want-config.yaml`, () => {
      const built = operatorConfig(casePlan(name));
      if (!built.ok) throw new Error(JSON.stringify(built.problems));
      expect(built.value.config).toEqual(yaml(read(name, 'want-config.yaml')));
    });

    const named = [...everyCase, ...(divergences[name] ?? [])];
    it(`${name}: our config equals want-config.yaml except ${named.map((d) => d.ref).join(', ')}`, () => {
      const generated = generateOgxConfig(casePlan(name));
      if (!generated.ok) throw new Error(JSON.stringify(generated.problems));
      const ours = generated.config.value;
      const want = clonePlain(yaml(read(name, 'want-config.yaml')));
      for (const d of named) {
        expect(at(want, d.path), `${d.ref}: upstream's value`).toEqual(d.upstream);
        expect(at(ours, d.path), `${d.ref}: our value`).toEqual(d.ours);
        put(want, d.path, d.ours);
      }
      expect(ours).toEqual(want);
      // What the ConfigMap holds reads back as the value the checks judge.
      expect(yaml(generated.config.text)).toEqual(ours);
    });
  }

  it('err-bad-base-path: a base without `version` is an error with upstream\'s meaning, at the field that names the base', () => {
    expect(read('err-bad-base-path', 'want-err').trim()).toBe("missing required 'version' field");
    const generated = generateOgxConfig(casePlan('err-bad-base-path'));
    expect(generated.ok).toBe(false);
    expect(generated.problems).toEqual([{ path: ['spec', 'baseConfig'], message: expect.stringContaining("missing required 'version' field") }]);
    // The same base given as spec.baseConfig: refused by the plan, at the ConfigMap key.
    const server = serverOf('err-bad-base-path');
    server.spec.baseConfig = { name: 'base', key: 'config.yaml' };
    const inventory = inventoryOf(
      itemsFrom(`apiVersion: v1\nkind: ConfigMap\nmetadata: {name: base}\ndata:\n  config.yaml: "${read('err-bad-base-path', 'base.yaml').trim()}"\n`),
    );
    const planned = planOgxServer(server, inventory);
    expect(planned).toEqual({
      ok: false,
      problems: [{ path: ['spec', 'baseConfig', 'key'], message: expect.stringContaining("missing required 'version' field") }],
    });
  });

  it('err-override-config: what the operator does (configgen refuses it): the override ConfigMap is mounted, nothing is generated', () => {
    expect(read('err-override-config', 'want-err').trim()).toBe('overrideConfig');
    const inventory = inventoryOf(
      itemsFrom('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: my-config}\ndata:\n  config.yaml: "version: 2\\ndistro_name: mine\\n"\n'),
    );
    const planned = planOgxServer(serverOf('err-override-config'), inventory);
    if (!planned.ok) throw new Error(JSON.stringify(planned.problems));
    expect(planned.plan.mode).toBe('override');
    expect(planned.plan.baseConfig).toBeUndefined();
    expect(planned.plan.overrideConfig).toEqual({
      configMapName: 'my-config',
      key: 'config.yaml',
      text: 'version: 2\ndistro_name: mine\n',
      value: { version: 2, distro_name: 'mine' },
    });
  });

  it('err-override-config without its ConfigMap in the input: an error naming the field and what to add', () => {
    const planned = planOgxServer(serverOf('err-override-config'), inventoryOf([]));
    expect(planned).toEqual({
      ok: false,
      problems: [{ path: ['spec', 'overrideConfig', 'name'], message: expect.stringContaining('which is not in the input') }],
    });
  });
});
