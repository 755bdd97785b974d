// Bad input, run through the built bundle: exit 1 (never 2, never a crash), no stack trace, a result
// with the field path and a message that says what to write, and one stderr line per error
// (`<file>:<line>: <ns>/<name>: <field.path>: <message>`).
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { badLlsdCases, type BadLlsdCase } from './cases.js';
import {
  copyFixture,
  expectNoCrash,
  lineOfMarker,
  LLSD_API_VERSION,
  LLSD_KIND,
  parseResourceList,
  readFixture,
  resourceList,
  run,
  stderrLines,
  tempDir,
  withKptAnnotations,
  type ParsedList,
  type RunResult,
  type WireResult,
} from './run.js';

/** The stderr line the contract asks for, built from a result on stdout (KRM mode has no line numbers). */
function lineFor(result: WireResult): string {
  const parts: string[] = [];
  if (result.file) parts.push(result.file.path);
  if (result.resourceRef) {
    const { namespace, name } = result.resourceRef;
    parts.push(namespace ? `${namespace}/${name}` : name);
  }
  if (result.field) parts.push(result.field.path);
  parts.push(result.severity === 'error' ? result.message : `${result.severity}: ${result.message}`);
  return parts.join(': ');
}

/** A KRM failure: exit 1, a ResourceList on stdout, and each error result once on stderr as one line. */
function expectKrmFailure(r: RunResult): ParsedList {
  expect(r.status, r.stderr).toBe(1);
  expectNoCrash(r);
  const list = parseResourceList(r.stdout);
  const errors = list.results.filter((x) => x.severity === 'error');
  expect(errors.length).toBeGreaterThan(0);
  for (const e of errors) expect(e.message, 'a result message is one line').not.toContain('\n');
  const notInfo = list.results.filter((x) => x.severity !== 'info');
  expect(stderrLines(r)).toEqual(notInfo.map(lineFor));
  return list;
}

describe('KRM mode: stdin that is not a ResourceList', () => {
  const cases: Array<{ title: string; input: string; message: RegExp[]; path?: string }> = [
    {
      title: 'an unterminated flow sequence',
      input: 'items: [a, b\n',
      // The parser notices the missing `]` at the end of the text: line 1 or the empty line after it.
      message: [/^stdin is not valid YAML \(line [12]\): .*\]/],
    },
    {
      title: 'a compact nested mapping',
      input: 'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: x: y\n',
      message: [/^stdin is not valid YAML \(line 3\): /],
    },
    {
      title: 'a document of empty keys (`:\\n- :`)',
      input: ':\n- :\n',
      // A value with no key is a YAML error (attacker round 7), once per document.
      message: [/^stdin is not valid YAML \(line 2\): this value has no key before its `:`/],
    },
    {
      title: 'empty stdin',
      input: '',
      message: [/^stdin is empty/, /ResourceList/, /llsd-render build PATH/],
    },
    {
      title: 'stdin of blank lines',
      input: '\n  \n\n',
      message: [/^stdin is empty/],
    },
    {
      title: 'a plain Deployment',
      input: 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n',
      message: [/not apps\/v1 Deployment/, /kind: ResourceList/, /llsd-render build PATH/],
    },
    {
      title: 'two documents',
      input: 'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\n---\napiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\n',
      message: [/one ResourceList/],
    },
    {
      title: 'an item that is a number',
      input: resourceList([readFixture('secret.yaml')]) + '  - 42\n',
      message: [/must be a Kubernetes object/, /`apiVersion`/, /`metadata\.name`/],
      path: 'items[1]',
    },
    {
      title: 'an item without metadata.name',
      input: 'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n  - apiVersion: v1\n    kind: ConfigMap\n    metadata: {}\n',
      message: [/must be a Kubernetes object/, /`metadata\.name`/],
      path: 'items[0]',
    },
    {
      title: 'items that is not a list',
      input: 'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: everything\n',
      message: [/must be a list/],
      path: 'items',
    },
    {
      title: 'a functionConfig that is not an object',
      input: 'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig: 42\n',
      message: [/must be a Kubernetes object/],
      path: 'functionConfig',
    },
  ];

  for (const c of cases) {
    it(`${c.title}: exit 1, one error result${c.path ? ` at ${c.path}` : ''}, one stderr line`, () => {
      const r = run([], { input: c.input });
      const list = expectKrmFailure(r);
      const errors = list.results.filter((x) => x.severity === 'error');
      expect(errors).toHaveLength(1);
      const [error] = errors;
      for (const pattern of c.message) expect(error?.message).toMatch(pattern);
      expect(error?.field?.path).toBe(c.path);
      expect(stderrLines(r)).toHaveLength(1);
    });
  }

  it('a duplicate key in an item: the line of the second key in the ResourceList', () => {
    const llsd = withKptAnnotations(readFixture('bad/duplicate-key.yaml'), 'apps/duplicate-key.yaml', 0, 2);
    const input = resourceList([readFixture('secret.yaml'), llsd]);
    const r = run([], { input });
    const list = expectKrmFailure(r);
    const errors = list.results.filter((x) => x.severity === 'error');
    expect(errors).toHaveLength(1);
    const line = lineOfMarker(input, 'distribution:', 2);
    expect(errors[0]?.message).toMatch(
      new RegExp(`^stdin is not valid YAML \\(line ${line}\\): .*the key "distribution" appears twice in one mapping; keep only one`, 'i'),
    );
  });

  it('an alias bomb: an error result, not a crash', () => {
    const input = resourceList([readFixture('bad/alias-bomb.yaml')]);
    const r = run([], { input });
    const list = expectKrmFailure(r);
    const errors = list.results.filter((x) => x.severity === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toMatch(/alias/i);
  });
});

/** A ResourceList as kpt sends it: the Secret from secrets.yaml and the bad LLSD from apps/<file>. */
function krmInputFor(c: BadLlsdCase): { input: string; file: string } {
  const file = `apps/${basename(c.fixture)}`;
  const input = resourceList([
    withKptAnnotations(readFixture('secret.yaml'), 'secrets.yaml', 0, 1),
    withKptAnnotations(readFixture(c.fixture), file, 0, 2),
  ]);
  return { input, file };
}

describe('KRM mode: a bad LLSD', () => {
  for (const c of badLlsdCases) {
    it(`${c.title}: exit 1, results at ${c.errors.map((e) => e.path).join(', ')}, items unchanged`, () => {
      const { input, file } = krmInputFor(c);
      const r = run([], { input });
      const list = expectKrmFailure(r);

      // kpt shows the results and keeps the package as it was: the items come back unchanged
      // (in particular the LLSD is not marked local-config and nothing is generated).
      const before = parseResourceList(input);
      expect(list.items).toEqual(before.items);

      // Nothing was generated, so no "generated config.yaml ..." summary either.
      expect(list.results.filter((x) => x.severity === 'info')).toEqual([]);
      const errors = list.results.filter((x) => x.severity === 'error');
      expect(errors.map((e) => e.field?.path).sort()).toEqual(c.errors.map((e) => e.path).sort());
      for (const expected of c.errors) {
        const error = errors.find((e) => e.field?.path === expected.path);
        for (const pattern of expected.message) expect(error?.message).toMatch(pattern);
        expect(error?.resourceRef).toEqual({ apiVersion: LLSD_API_VERSION, kind: LLSD_KIND, name: c.name, namespace: c.namespace });
        expect(error?.file?.path).toBe(file);
      }
    });
  }
});

describe('build mode: a bad LLSD', () => {
  for (const c of badLlsdCases) {
    it(`${c.title}: exit 1, empty stdout, "<file>:<line>: <ns>/<name>: <field.path>: <message>" on stderr`, () => {
      const dir = tempDir();
      const file = `apps/${basename(c.fixture)}`;
      copyFixture('secret.yaml', `${dir}/secret.yaml`);
      copyFixture(c.fixture, `${dir}/${file}`);
      const r = run(['build', '.'], { cwd: dir });
      expect(r.status, r.stderr).toBe(1);
      expectNoCrash(r);
      expect(r.stdout, 'no partial output').toBe('');

      const lines = stderrLines(r);
      expect(lines).toHaveLength(c.errors.length);
      const fixtureText = readFixture(c.fixture);
      for (const expected of c.errors) {
        const line = lines.find((l) => l.split(': ')[2] === expected.path);
        expect(line, `a stderr line for ${expected.path} in:\n${r.stderr}`).toBeDefined();
        const match = /^(?<file>[^:]+):(?<line>\d+): (?<owner>[^:]+): (?<path>[^:]+): (?<message>.+)$/.exec(line ?? '');
        expect(match?.groups?.file).toBe(file);
        expect(Number(match?.groups?.line)).toBe(lineOfMarker(fixtureText, expected.lineMarker, expected.occurrence));
        expect(match?.groups?.owner).toBe(`${c.namespace}/${c.name}`);
        for (const pattern of expected.message) expect(match?.groups?.message).toMatch(pattern);
      }
    });
  }

  it('line numbers point at the offending field (two providers without ids: lines 12 and 14)', () => {
    // The lines spelled out, so a wrong marker in cases.ts cannot hide a wrong line number.
    const dir = tempDir();
    copyFixture('bad/inference-without-ids.yaml', `${dir}/llsd.yaml`);
    const r = run(['build', 'llsd.yaml'], { cwd: dir });
    expect(r.status).toBe(1);
    expect(stderrLines(r).map((l) => l.split(': ').slice(0, 3).join(': '))).toEqual([
      'llsd.yaml:12: llama/inference-without-ids: spec.providers.inference[0].id',
      'llsd.yaml:14: llama/inference-without-ids: spec.providers.inference[1].id',
    ]);
  });

  it('line numbers point at the offending field (unknown distribution: line 9; misspelled field: line 10)', () => {
    const dir = tempDir();
    copyFixture('bad/unknown-distribution.yaml', `${dir}/a.yaml`);
    copyFixture('bad/misspelled-field.yaml', `${dir}/b.yaml`);
    const r = run(['build', 'a.yaml', 'b.yaml'], { cwd: dir });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(stderrLines(r).map((l) => l.split(': ').slice(0, 3).join(': '))).toEqual([
      'a.yaml:9: llama/unknown-distribution: spec.distribution.name',
      'b.yaml:10: llama/misspelled-field: spec.provders',
    ]);
  });

  it('a duplicate key: exit 1, empty stdout, the file and the line of the second key', () => {
    const dir = tempDir();
    copyFixture('secret.yaml', `${dir}/secret.yaml`);
    copyFixture('bad/duplicate-key.yaml', `${dir}/apps/duplicate-key.yaml`);
    const r = run(['build', '.'], { cwd: dir });
    expect(r.status, r.stderr).toBe(1);
    expectNoCrash(r);
    expect(r.stdout).toBe('');
    const line = lineOfMarker(readFixture('bad/duplicate-key.yaml'), 'distribution:', 2);
    expect(stderrLines(r)).toHaveLength(1);
    expect(r.stderr).toMatch(new RegExp(`^apps/duplicate-key\\.yaml:${line}: .*the key "distribution" appears twice in one mapping; keep only one`, 'i'));
  });

  it('an alias bomb: exit 1, one stderr line naming the file, no crash', () => {
    const dir = tempDir();
    copyFixture('bad/alias-bomb.yaml', `${dir}/bomb.yaml`);
    const r = run(['build', '.'], { cwd: dir });
    expect(r.status).toBe(1);
    expectNoCrash(r);
    expect(r.stdout).toBe('');
    expect(stderrLines(r)).toHaveLength(1);
    expect(r.stderr).toMatch(/^bomb\.yaml(:\d+)?: .*alias/i);
  });

  it('several bad files: every error is reported, each on its own line, and nothing is printed', () => {
    const dir = tempDir();
    for (const c of badLlsdCases.slice(0, 4)) copyFixture(c.fixture, `${dir}/${basename(c.fixture)}`);
    const r = run(['build', '.'], { cwd: dir });
    expect(r.status).toBe(1);
    expectNoCrash(r);
    expect(r.stdout).toBe('');
    const expected = badLlsdCases.slice(0, 4).flatMap((c) => c.errors.map((e) => `${basename(c.fixture)}: ${c.namespace}/${c.name}: ${e.path}`));
    const got = stderrLines(r).map((l) => l.replace(/^([^:]+):\d+: /, '$1: ').split(': ').slice(0, 3).join(': '));
    expect(got.sort()).toEqual(expected.sort());
  });

  it('validate reports the same errors with exit 1', () => {
    const dir = tempDir();
    copyFixture('bad/unknown-provider.yaml', `${dir}/llsd.yaml`);
    const r = run(['validate', '.'], { cwd: dir });
    expect(r.status).toBe(1);
    expectNoCrash(r);
    expect(stderrLines(r)).toHaveLength(1);
    expect(r.stderr).toMatch(/^llsd\.yaml:12: llama\/unknown-provider: spec\.providers\.inference\.provider: .*Did you mean "vllm"\?/);
  });
});
