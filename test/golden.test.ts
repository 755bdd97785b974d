// Golden tests (STYLE §1): each folder under test/golden/ is a case with `input.yaml` (a
// ResourceList as kpt or kustomize sends it), `expected.yaml` (the items we write back) and
// `results.yaml`. Every case runs twice: rendering the output again must change nothing.
// Expected files are rewritten only with UPDATE_GOLDEN=1; review the diff before committing.
import { isRenderedObject } from '../src/front-ends.js';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readResourceList, writeResourceList } from '../src/krm/resource-list.js';
import { exitCodeOf, toWire } from '../src/krm/result.js';
import { stringifyPlainYaml } from '../src/krm/yaml.js';
import { process as render } from '../src/process.js';

const root = join(import.meta.dirname, 'golden');
const update = process.env.UPDATE_GOLDEN === '1';

/** Renders `text`; `functionConfigFrom` supplies the functionConfig (a second run reuses the first's). */
function run(text: string, functionConfigFrom = text): { items: string; results: string; exitCode: number } {
  const list = readResourceList(text, isRenderedObject);
  const { functionConfig } = readResourceList(functionConfigFrom, isRenderedObject);
  const output =
    list.results.length > 0 ? { items: [], results: list.results } : render({ mode: 'krm', items: list.items, ...(functionConfig ? { functionConfig } : {}) });
  return {
    items: writeResourceList(output.items, []),
    results: stringifyPlainYaml(output.results.map(toWire)),
    exitCode: exitCodeOf(output.results),
  };
}

describe.each(readdirSync(root).sort())('golden %s', (name) => {
  const dir = join(root, name);
  const input = readFileSync(join(dir, 'input.yaml'), 'utf8');
  const expectedPath = join(dir, 'expected.yaml');
  const resultsPath = join(dir, 'results.yaml');

  it('renders the expected items and results', () => {
    const actual = run(input);
    if (update || !existsSync(expectedPath)) {
      if (!update) throw new Error(`${expectedPath} is missing: run UPDATE_GOLDEN=1 npm test and review it`);
      writeFileSync(expectedPath, actual.items);
      writeFileSync(resultsPath, actual.results);
    }
    expect(actual.items).toBe(readFileSync(expectedPath, 'utf8'));
    expect(actual.results).toBe(readFileSync(resultsPath, 'utf8'));
    expect(actual.exitCode).toBe(name.startsWith('error-') ? 1 : 0);
  });

  // A kustomize transformer consumes the LLSD, so its output is never rendered again; such a
  // case says why in a `not-idempotent` file (kpt's test harness has the same escape hatch).
  const notIdempotent = join(dir, 'not-idempotent');
  if (existsSync(notIdempotent)) {
    it('says why it is not rendered twice', () => expect(readFileSync(notIdempotent, 'utf8').trim()).not.toBe(''));
    return;
  }
  it('is idempotent: rendering its own output changes nothing', () => {
    const first = run(input);
    const second = run(first.items, input);
    expect(second.items).toBe(first.items);
  });
});
