// KRM mode reads a ResourceList one item at a time when it is in the shape kpt and kustomize write
// (issue 15: parsed whole, 10,000 LLSDs took 760 MB before anything was rendered). That reading
// must give exactly what reading the list whole gives: the same values, the same nodes written
// back byte for byte, the same results; anything it cannot promise that for is read whole.
import { isRenderedObject } from '../../src/front-ends.js';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MemoryStore,
  readItemByItem,
  readResourceList,
  readWholeList,
  splitAtItems,
  Written,
  writeResourceList,
  type ResourceListInput,
} from '../../src/krm/resource-list.js';
import { process as render, type ProcessOutput } from '../../src/process.js';
import { renderWithImages } from '../../src/cli/render.js';
import type { InputItem } from '../../src/krm/item.js';
import { stringifyYaml } from '../../src/krm/yaml.js';

/** What a reading gives, as plain data: each item's value, origin and node as written back. */
const seen = (list: ResourceListInput) => {
  // An item passed through may be read without a node (its text is kept instead).
  const item = (i: InputItem) => ({ yaml: i.output ?? stringifyYaml(i.node), object: i.object, origin: i.origin });
  return { items: list.items.map(item), functionConfig: list.functionConfig && item(list.functionConfig), results: list.results };
};

/** The list read item by item (`fast`) or whole (unless `fast` is undefined: either), equal to the whole reading. */
function expectSameReading(text: string, fast: boolean | undefined): void {
  if (fast !== undefined) expect(readItemByItem(text, isRenderedObject) !== undefined).toBe(fast);
  expect(seen(readResourceList(text, isRenderedObject))).toEqual(seen(readWholeList(text)));
}

const head = 'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n';
const cm = (name: string, data = '  data:\n    a: "1"\n') => `- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: ${name}\n${data}`;
const fnConfig = 'functionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: fn\n  data:\n    outputPath: "{dir}/{name}.yaml"\n';

describe('readResourceList item by item (issue 15)', () => {
  it.each([
    ['kpt style: items at column 0, functionConfig after', `${head}items:\n${cm('a')}${cm('b')}${fnConfig}`],
    [
      'functionConfig before the items, items indented two columns',
      `${head}${fnConfig}items:\n  ${cm('a').replace(/\n(?=.)/g, '\n  ')}  ${cm('b').replace(/\n(?=.)/g, '\n  ')}`,
    ],
    ['empty lines between items, in items and at the end', `${head}items:\n\n${cm('a')}\n\n${cm('b', '  data:\n\n    a: x\n\n')}\n`],
    [
      'comments at the item column and deeper',
      `${head}items:\n${cm('a')}  # about b\n${cm('b', '  data:  # d\n    # inside\n    a: x # v\n')}# top\n${fnConfig}`,
    ],
    [
      'block scalars: literal, folded, kept and stripped ends, indentation indicator',
      `${head}items:\n${cm('a', '  data:\n    k: |+\n      x\n\n    f: >-\n      a\n      b\n    i: |2\n        two more\n    z: |\n      last\n\n')}` +
        `${cm('b')}`,
    ],
    [
      'plain scalars kept as written (0755, 1e3, on, ~), quoted and multi-line flow values',
      `${head}items:\n${cm('a', '  data:\n    m: 0755\n    e: 1e3\n    o: on\n    n: ~\n    q: "a\\tb"\n    f: {x: 1,\n      y: [2, 3]}\n')}`,
    ],
    [
      'an anchor and an alias inside one item',
      `${head}items:\n${cm('a', '  data: &d\n    a: x\n  other: *d\n')}${cm('b', '  data: &d\n    a: y\n  other: *d\n')}`,
    ],
    [
      'an entry with its map on the next line, and one with more spaces after the dash',
      `${head}items:\n-\n  apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n-   apiVersion: v1\n    kind: ConfigMap\n    metadata:\n      name: ` +
        `b\n`,
    ],
    ['no newline at the end', `${head}items:\n${cm('a', '  data:\n    t: |\n      no end')}`],
    ['a comment and empty lines in the header', `# header\n${head}\nitems:\n${cm('a')}\n# end\n`],
  ])('%s: read item by item, as read whole', (_name, text) => expectSameReading(text, true));

  it.each([
    ['an alias to an anchor in another item', `${head}items:\n${cm('a', '  data: &d\n    a: x\n')}${cm('b', '  data: *d\n')}`],
    [
      'an alias in the functionConfig to an anchor in an item',
      `${head}items:\n${cm('a', '  data: &d\n    outputPath: x\n')}functionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: fn}\n  data: *d\n`,
    ],
    ['an item that is not an object', `${head}items:\n- just text\n${cm('b')}`],
    ['an item with a syntax error', `${head}items:\n${cm('a', '  data: [1, 2\n')}${cm('b')}`],
    ['a duplicate key in an item', `${head}items:\n${cm('a', '  data: {a: 1}\n  data: {a: 2}\n')}`],
    ['items in flow style', `${head}items: [{apiVersion: v1, kind: ConfigMap, metadata: {name: a}}]\n`],
    ['two documents', `${head}items:\n${cm('a')}---\n${head}items:\n${cm('b')}`],
    ['items given twice', `${head}items:\n${cm('a')}items:\n${cm('b')}`],
    ['CRLF line ends', `${head}items:\n${cm('a')}`.replaceAll('\n', '\r\n')],
    ['a line of an item left of its column', `${head}items:\n${cm('a', '  data:\n    k: "a\n b"\n')}`],
    ['not a ResourceList', `apiVersion: v1\nkind: List\nitems:\n${cm('a')}`],
    ['an anchor on items', `${head}items: &all\n${cm('a')}`],
    [
      'JSON',
      JSON.stringify({
        apiVersion: 'config.kubernetes.io/v1',
        kind: 'ResourceList',
        items: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } }],
      }),
    ],
  ])('%s: read whole', (_name, text) => expectSameReading(text, false));

  it('an item nested 399 levels deep (401 in the list) is refused as the whole reading refuses it', () => {
    const deep = (levels: number) => `${head}items:\n${cm('a', `  data: ${'['.repeat(levels)}${']'.repeat(levels)}\n`)}`;
    // The item map is level 3 of the list and `data` level 4: 397 more make 400, the most allowed.
    expectSameReading(deep(397), true);
    expect(readResourceList(deep(397), isRenderedObject).results).toEqual([]);
    expectSameReading(deep(398), false);
    expect(readResourceList(deep(398), isRenderedObject).results[0]?.message).toMatch(/more than 400 levels/);
  });

  it('splitAtItems keeps each item in its columns, its dash turned into a space', () => {
    expect(splitAtItems(`${head}items:\n- a: 1\n  b: |\n    x\n\n- c: 2\nfunctionConfig: {}\n`)).toEqual({
      header: `${head}items:\nfunctionConfig: {}\n`,
      items: ['  a: 1\n  b: |\n    x\n\n', '  c: 2\n'],
    });
  });

  it('every golden input and every YAML file of the examples as items: read item by item, as read whole', () => {
    const goldens = join(import.meta.dirname, '../golden');
    const inputs = readdirSync(goldens).map((name) => readFileSync(join(goldens, name, 'input.yaml'), 'utf8'));
    for (const input of inputs) expectSameReading(input, undefined);
    // The goldens are lists as kpt and kustomize send them: nearly all of them take the fast way.
    expect(inputs.filter((input) => readItemByItem(input, isRenderedObject)).length).toBeGreaterThan(inputs.length * 0.8);
    const examples = join(import.meta.dirname, '../../examples');
    const files = readdirSync(examples, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.yaml'));
    expect(files.length).toBeGreaterThan(10);
    const documents = files.flatMap((f) => readFileSync(join(examples, f), 'utf8').split(/^---\n/m)).filter((d) => /^kind: /m.test(d) && /^metadata:/m.test(d));
    const asItem = (doc: string) => `- ${doc.trimEnd().replace(/\n/g, '\n  ')}\n`.replace(/\n +\n/g, '\n\n');
    const text = `${head}items:\n${documents.map(asItem).join('')}`;
    expect(readItemByItem(text, isRenderedObject)?.items.length).toBe(documents.length);
    expectSameReading(text, true);
  });

  it('generated items with every kind of awkward value: read item by item, as read whole', () => {
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        fc.constantFrom('', 'yes', 'on', '~', '012', '1e3', '- a', 'a: b', '#c', '|', 'a\nb\n', 'a\n\n', '  x\ny', '"q"', "'q'", 'a #b'),
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom('a', 'b', 'on', '1', 'x y'), tie('node'), { maxKeys: 3 }),
      ),
    })).node;
    const item = fc.record({ data: value, gap: fc.constantFrom('', '\n', '\n\n'), comment: fc.constantFrom('', '  # c\n') });
    fc.assert(
      fc.property(fc.array(item, { minLength: 1, maxLength: 4 }), fc.boolean(), (items, indented) => {
        const entries = items.map(({ data, gap, comment }, i) => {
          const text = stringifyYaml({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `c${i}` }, data });
          const entry = `- ${text.trimEnd().replace(/\n(?=.)/g, '\n  ')}\n${comment}${gap}`;
          return indented ? entry.replace(/^(?=.)/gm, '  ') : entry;
        });
        expectSameReading(`${head}items:\n${entries.join('')}${fnConfig}`, true);
      }),
      { numRuns: 300, seed: 15 },
    );
  });
});

describe('KRM mode with an output store (issue 15)', () => {
  it('every golden: generated objects go to the store at the edge, placed first, and the list written is the same', async () => {
    const goldens = join(import.meta.dirname, '../golden');
    let stored = 0;
    for (const name of readdirSync(goldens)) {
      const text = readFileSync(join(goldens, name, 'input.yaml'), 'utf8');
      const input = () => {
        const { items, functionConfig } = readResourceList(text, isRenderedObject);
        return { mode: 'krm' as const, items, ...(functionConfig && { functionConfig }) };
      };
      const written = (output: ProcessOutput) => ({
        text: writeResourceList(output.items, output.results),
        written: output.items.filter((item) => item instanceof Written).length,
      });
      const without = written(render(input()));
      const withStore = written(await renderWithImages(input(), async () => new Map(), new MemoryStore()));
      expect(without.written).toBe(0);
      expect(withStore.text, name).toBe(without.text);
      stored += withStore.written;
    }
    expect(stored).toBeGreaterThan(20);
  });
});

describe('cost per input byte in KRM mode (issue 29 R2)', () => {
  it('items passed through are read without `yaml`: their text is kept, no node is built, and the reading equals the whole one', () => {
    const text = `${head}items:\n${cm('a')}${cm('b', '  data:\n    big: 9007199254740993\n    s: "x y"\n')}`;
    const fast = readItemByItem(text, isRenderedObject);
    expect(fast?.items.map((i) => i.output)).toEqual([
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  a: "1"\n',
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\ndata:\n  big: 9007199254740993\n  s: "x y"\n',
    ]);
    expect(() => fast?.items[0]?.node).toThrow(/read without a node/);
    expectSameReading(text, true);
  });

  it('1,000 items that are no object (`- a`): read item by item, ten named and the rest counted in one result, as the whole reading says', () => {
    const text = `${head}items:\n${'- a\n'.repeat(1000)}`;
    const fast = readItemByItem(text, isRenderedObject);
    expect(fast?.results.map((r) => `${r.field?.path}: ${r.message}`)).toEqual([
      ...Array.from({ length: 10 }, (_, i) => `items[${i}]: must be a Kubernetes object with string \`apiVersion\`, \`kind\` and \`metadata.name\``),
      'items: and 990 more items are not Kubernetes objects either; each must have string `apiVersion`, `kind` and `metadata.name`',
    ]);
    expect(readWholeList(text).results).toEqual(fast?.results);
  });
});
