// core/base-config.ts: a config.yaml parsed as the server parses it, from the catalog, a ConfigMap
// of the input or any text; what is missing or broken is returned as a reason, not a message.
import { describe, expect, it } from 'vitest';
import { baseVersionProblem, catalogBase, configMapConfig, parseConfigYaml } from '../../src/core/base-config.js';
import { inventoryOf } from '../../src/krm/inventory.js';
import { itemsFrom } from '../support.js';

const inventory = inventoryOf(
  itemsFrom(`apiVersion: v1
kind: ConfigMap
metadata: {name: run, namespace: ai}
data:
  config.yaml: "version: 2\\nx: yes\\n"
  broken.yaml: "a: [1"
  list.yaml: "- 1\\n"
  z.yaml: "version: 2\\n"
`),
);

describe('parseConfigYaml', () => {
  it('parses YAML 1.1 (`yes` is true) into a mapping', () => {
    expect(parseConfigYaml('version: 2\nx: yes\n')).toEqual({ ok: true, value: { version: 2, x: true } });
  });

  it('a syntax error gives its line; a document that is no mapping gives no detail', () => {
    expect(parseConfigYaml('a: [1')).toEqual({ ok: false, detail: expect.stringMatching(/^ \(line 1: .+\)$/) });
    expect(parseConfigYaml('- 1\n')).toEqual({ ok: false, detail: '' });
  });
});

describe('configMapConfig', () => {
  it('reads the key of the ConfigMap in the namespace', () => {
    expect(configMapConfig(inventory, 'ai', 'run', 'config.yaml')).toEqual({ ok: true, text: 'version: 2\nx: yes\n', value: { version: 2, x: true } });
  });

  it('says what is missing: the ConfigMap (another namespace), or the key with the keys it has, sorted', () => {
    expect(configMapConfig(inventory, 'other', 'run', 'config.yaml')).toEqual({ ok: false, missing: 'configMap' });
    const keys = ['broken.yaml', 'config.yaml', 'list.yaml', 'z.yaml'];
    expect(configMapConfig(inventory, 'ai', 'run', 'run.yaml')).toEqual({ ok: false, missing: 'key', keys });
  });

  it('a text that is no mapping gives the parse detail', () => {
    expect(configMapConfig(inventory, 'ai', 'run', 'broken.yaml')).toMatchObject({ ok: false, detail: expect.stringContaining('line 1') });
    expect(configMapConfig(inventory, 'ai', 'run', 'list.yaml')).toEqual({ ok: false, detail: '' });
  });
});

describe('catalogBase and baseVersionProblem', () => {
  it('a catalog release gives its mapping, parses its text, and throws (a bug) on a text that does not parse', () => {
    const value = { version: 2 };
    expect(catalogBase({ image: 'i', source: 's', config: { value } })).toBe(value);
    expect(catalogBase({ image: 'i', source: 's', config: { text: 'version: 2\n' } })).toEqual({ version: 2 });
    expect(() => catalogBase({ image: 'i', source: 'configs/x.yaml', config: { text: '- 1' } })).toThrow('configs/x.yaml does not parse');
  });

  it('a base without `version` (absent, null or empty) is what the OGX operator refuses', () => {
    expect(baseVersionProblem({ version: 2 })).toBeUndefined();
    for (const base of [{}, { version: null }, { version: '' }]) {
      expect(baseVersionProblem(base)).toBe(
        "failed to validate base config: missing required 'version' field; the base config.yaml must start with `version: 2`",
      );
    }
  });
});
