// Same input, same bytes: across runs, and whatever the order of files, arguments or items.
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import {
  GENERATED_FROM,
  annotationsOf,
  isGenerated,
  parseResourceList,
  parseStream,
  quickstartText,
  readFixture,
  resourceList,
  run,
  tempDir,
  withKptAnnotations,
  writeTree,
  type KrmObject,
} from './run.js';

/** Generated objects grouped by owner, each object as text, in their order within the owner. */
function generatedByOwner(objects: readonly KrmObject[]): Record<string, string[]> {
  const groups: Record<string, string[]> = {};
  for (const o of objects.filter(isGenerated)) {
    const owner = annotationsOf(o)[GENERATED_FROM] as string;
    (groups[owner] ??= []).push(stringify(o));
  }
  return groups;
}

const files = {
  'a-quickstart.yaml': quickstartText(),
  'b-secret.yaml': readFixture('secret.yaml'),
  'c-second.yaml': readFixture('second-llsd.yaml'),
};

describe('determinism', () => {
  it('build: two runs give identical bytes', () => {
    const dir = writeTree(tempDir(), files);
    const one = run(['build', '.'], { cwd: dir });
    const two = run(['build', '.'], { cwd: dir });
    expect(one.status, one.stderr).toBe(0);
    expect(one.stdout.length).toBeGreaterThan(0);
    expect(two.stdout).toBe(one.stdout);
    expect(two.stderr).toBe(one.stderr);
  });

  it('build: the order of PATH arguments does not change the generated objects', () => {
    const dir = writeTree(tempDir(), files);
    const forward = run(['build', 'a-quickstart.yaml', 'b-secret.yaml', 'c-second.yaml'], { cwd: dir });
    const backward = run(['build', 'c-second.yaml', 'b-secret.yaml', 'a-quickstart.yaml'], { cwd: dir });
    expect(forward.status, forward.stderr).toBe(0);
    expect(backward.status, backward.stderr).toBe(0);
    const a = generatedByOwner(parseStream(forward.stdout));
    const b = generatedByOwner(parseStream(backward.stdout));
    expect(Object.keys(a).sort()).toEqual(['llama/quickstart', 'team-b/second']);
    expect(b).toEqual(a);
  });

  it('build: a directory gives the same bytes whatever the file names\' creation order', () => {
    const one = run(['build', '.'], { cwd: writeTree(tempDir(), files) });
    const reversed = Object.fromEntries(Object.entries(files).reverse());
    const two = run(['build', '.'], { cwd: writeTree(tempDir(), reversed) });
    expect(one.status).toBe(0);
    expect(two.stdout).toBe(one.stdout);
  });

  it('KRM: two runs give identical bytes, and permuting the items does not change the generated objects', () => {
    const secret = withKptAnnotations(readFixture('secret.yaml'), 'secret.yaml', 0, 1);
    const quickstart = withKptAnnotations(quickstartText(), 'apps/quickstart.yaml', 0, 2);
    const second = withKptAnnotations(readFixture('second-llsd.yaml'), 'apps/second.yaml', 0, 3);
    const forward = resourceList([secret, quickstart, second]);
    const backward = resourceList([second, quickstart, secret]);

    const one = run([], { input: forward });
    const two = run([], { input: forward });
    const three = run([], { input: backward });
    expect(one.status, one.stderr).toBe(0);
    expect(three.status, three.stderr).toBe(0);
    expect(two.stdout).toBe(one.stdout);

    const a = generatedByOwner(parseResourceList(one.stdout).items);
    const b = generatedByOwner(parseResourceList(three.stdout).items);
    expect(Object.keys(a).sort()).toEqual(['llama/quickstart', 'team-b/second']);
    expect(b).toEqual(a);
    // Results are in a stable order too.
    expect(parseResourceList(three.stdout).results).toEqual(parseResourceList(one.stdout).results);
  });

  it('KRM: the generated objects of an LLSD do not depend on the other LLSDs in the list', () => {
    const quickstart = withKptAnnotations(quickstartText(), 'apps/quickstart.yaml', 0, 2);
    const second = withKptAnnotations(readFixture('second-llsd.yaml'), 'apps/second.yaml', 0, 3);
    const alone = run([], { input: resourceList([quickstart]) });
    const together = run([], { input: resourceList([second, quickstart]) });
    expect(alone.status).toBe(0);
    expect(together.status).toBe(0);
    expect(generatedByOwner(parseResourceList(together.stdout).items)['llama/quickstart']).toEqual(
      generatedByOwner(parseResourceList(alone.stdout).items)['llama/quickstart'],
    );
  });
});
