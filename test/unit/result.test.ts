import { describe, expect, it } from 'vitest';
import { capRepeats, exitCodeOf, formatLine, sortResults, toWire, type Result } from '../../src/krm/result.js';

const ref = { apiVersion: 'llamastack.io/v1alpha2', kind: 'LlamaStackDistribution', name: 'demo', namespace: 'ai' };

describe('formatLine', () => {
  it('writes <file>:<line>: <ns>/<name>: <field.path>: <message>', () => {
    const r: Result = {
      severity: 'error',
      message: 'is required',
      resourceRef: ref,
      field: { path: 'spec.distribution' },
      file: { path: 'apps/llsd.yaml', index: 0 },
      line: 7,
    };
    expect(formatLine(r)).toBe('apps/llsd.yaml:7: ai/demo: spec.distribution: is required');
  });

  it('leaves out what the input did not have and prefixes warnings', () => {
    expect(formatLine({ severity: 'warning', message: 'skipped', file: { path: 'x.yaml' } })).toBe('x.yaml: warning: skipped');
    expect(formatLine({ severity: 'error', message: 'bad', resourceRef: { ...ref, namespace: undefined } })).toBe('demo: bad');
  });
});

describe('results', () => {
  it('sorts by file, then severity, then resource and field', () => {
    const a: Result = { severity: 'info', message: 'i', file: { path: 'a.yaml' } };
    const b: Result = { severity: 'error', message: 'e', file: { path: 'a.yaml' } };
    const c: Result = { severity: 'error', message: 'e', file: { path: '0.yaml' } };
    expect(sortResults([a, b, c])).toEqual([c, b, a]);
  });

  it('results of one object: by line before field path, as the file reads (examples/postgres: user on 21, password on 22); results without a line after', () => {
    const at = (path: string, line?: number): Result => ({
      severity: 'warning',
      message: 'w',
      resourceRef: ref,
      field: { path },
      file: { path: 'llsd.yaml', index: 0 },
      ...(line !== undefined && { line }),
    });
    const sorted = sortResults([
      at('spec.storage.sql.password', 29),
      at('spec.a'),
      at('spec.storage.kv.password', 22),
      at('spec.storage.sql.user', 28),
      at('spec.storage.kv.user', 21),
      at('spec.b', 1),
    ]);
    expect(sorted.map((r) => [r.line, r.field?.path])).toEqual([
      [1, 'spec.b'],
      [21, 'spec.storage.kv.user'],
      [22, 'spec.storage.kv.password'],
      [28, 'spec.storage.sql.user'],
      [29, 'spec.storage.sql.password'],
      [undefined, 'spec.a'],
    ]);
  });

  it('exit code 1 only when there is an error', () => {
    expect(exitCodeOf([{ severity: 'warning', message: 'w' }, { severity: 'info', message: 'i' }])).toBe(0);
    expect(exitCodeOf([{ severity: 'warning', message: 'w' }, { severity: 'error', message: 'e' }])).toBe(1);
  });

  it('wire form omits empty fields and the line', () => {
    expect(toWire({ severity: 'info', message: 'm', line: 3 })).toEqual({ message: 'm', severity: 'info' });
  });
});

describe('one result, one line (issue 15)', () => {
  const forged = 'star\nfake.yaml:1: forged\u001b[31mred\u2028';

  it('formatLine escapes control characters in every part', () => {
    const r: Result = {
      severity: 'error',
      message: `unknown distribution "${forged}"`,
      resourceRef: { ...ref, name: 'de\nmo' },
      field: { path: 'spec["a\rb"]' },
      file: { path: 'x\n.yaml' },
      line: 3,
    };
    const line = formatLine(r);
    expect(line.split('\n')).toHaveLength(1);
    expect(line).toBe('x\\n.yaml:3: ai/de\\nmo: spec["a\\rb"]: unknown distribution "star\\nfake.yaml:1: forged\\x1b[31mred\\u2028"');
  });

  it('toWire escapes them too, since kpt prints results to a terminal', () => {
    const wire = toWire({ severity: 'error', message: forged, field: { path: 'a\nb' }, resourceRef: { ...ref, name: 'x\u001by' } });
    expect(wire).toEqual({
      message: 'star\\nfake.yaml:1: forged\\x1b[31mred\\u2028',
      severity: 'error',
      field: { path: 'a\\nb' },
      resourceRef: { ...ref, name: 'x\\x1by' },
    });
  });

  it('a message or field path that a site forgot to bound is cut in the middle, keeping its advice', () => {
    const r: Result = {
      severity: 'error',
      message: `names "${'x'.repeat(1_000_000)}"; write a name such as \`starter\``,
      field: { path: `spec.settings["${'k'.repeat(1_000_000)}"]` },
    };
    const line = formatLine(r);
    expect(line.length).toBeLessThan(5000);
    expect(line).toMatch(/characters left out/);
    expect(line.endsWith('; write a name such as `starter`')).toBe(true);
    expect(String(toWire(r).message).length).toBeLessThan(5000);
    expect(String((toWire(r).field as { path: string }).path).length).toBeLessThan(1000);
  });
});

describe('capRepeats', () => {
  const modelError = (i: number): Result => ({
    severity: 'error',
    message: `names the inference provider "nope-${i}"`,
    resourceRef: ref,
    field: { path: `spec.resources.models[${i}].provider` },
    file: { path: 'llsd.yaml', index: 0 },
  });

  it('keeps 100 results of one field of one object and counts the rest in one result', () => {
    const results = capRepeats(sortResults(Array.from({ length: 2000 }, (_, i) => modelError(i))));
    expect(results).toHaveLength(101);
    const summary = results.filter((r) => r.field?.path === 'spec.resources.models[*].provider');
    expect(summary).toEqual([
      {
        severity: 'error',
        resourceRef: ref,
        file: { path: 'llsd.yaml', index: 0 },
        field: { path: 'spec.resources.models[*].provider' },
        message: '1,900 more errors like the 100 shown for this field are left out; fix the ones shown, then run again',
      },
    ]);
    expect(exitCodeOf(results)).toBe(1);
  });

  it('leaves 100 or fewer, and results of other fields or objects, untouched', () => {
    const few = sortResults(Array.from({ length: 100 }, (_, i) => modelError(i)));
    expect(capRepeats(few)).toEqual(few);
    const other = { ...modelError(0), resourceRef: { ...ref, name: 'other' } };
    expect(capRepeats(sortResults([...few, other]))).toHaveLength(101);
  });
});

describe('results whose parts came from input of another type', () => {
  it('a number as a namespace or name (`namespace: -0`) prints, as text', () => {
    const named = { severity: 'error' as const, message: 'm', resourceRef: { apiVersion: 'v1', kind: 'ConfigMap', name: -0 as unknown as string } };
    expect(formatLine(named)).toBe('0: m');
    const namespaced = {
      severity: 'error' as const,
      message: 'm',
      resourceRef: { apiVersion: 'v1', kind: 'ConfigMap', name: 'x', namespace: 7 as unknown as string },
    };
    expect(formatLine(namespaced)).toBe('7/x: m');
  });
});

describe('a long name in a stderr line (attacker probe: 495 characters of a 5 MB name)', () => {
  it('shows at most about 120 characters of the namespace and of the name', () => {
    const line = formatLine({
      severity: 'error',
      message: 'm',
      resourceRef: { apiVersion: 'v1', kind: 'ConfigMap', name: `q${'a'.repeat(5_000_000)}`, namespace: 'llama' },
    });
    expect(line.length).toBeLessThan(200);
    expect(line).toMatch(/^llama\/qa{59}… \(4,999,881 characters left out\) …a{60}: m$/);
  });
});
