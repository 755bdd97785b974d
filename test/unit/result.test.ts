import { describe, expect, it } from 'vitest';
import { exitCodeOf, formatLine, sortResults, toWire, type Result } from '../../src/krm/result.js';

const ref = { apiVersion: 'llamastack.io/v1alpha2', kind: 'LlamaStackDistribution', name: 'demo', namespace: 'ai' };

describe('formatLine', () => {
  it('writes <file>:<line>: <ns>/<name>: <field.path>: <message>', () => {
    const r: Result = { severity: 'error', message: 'is required', resourceRef: ref, field: { path: 'spec.distribution' }, file: { path: 'apps/llsd.yaml', index: 0 }, line: 7 };
    expect(formatLine(r)).toBe('apps/llsd.yaml:7: ai/demo: spec.distribution: is required');
  });

  it('leaves out what the input did not have and prefixes warnings', () => {
    expect(formatLine({ severity: 'warning', message: 'skipped', file: { path: 'x.yaml' } })).toBe('x.yaml: warning: skipped');
    expect(formatLine({ severity: 'error', message: 'bad', resourceRef: { ...ref, namespace: undefined } as never })).toBe('demo: bad');
  });
});

describe('results', () => {
  it('sorts by file, then severity, then resource and field', () => {
    const a: Result = { severity: 'info', message: 'i', file: { path: 'a.yaml' } };
    const b: Result = { severity: 'error', message: 'e', file: { path: 'a.yaml' } };
    const c: Result = { severity: 'error', message: 'e', file: { path: '0.yaml' } };
    expect(sortResults([a, b, c])).toEqual([c, b, a]);
  });

  it('exit code 1 only when there is an error', () => {
    expect(exitCodeOf([{ severity: 'warning', message: 'w' }, { severity: 'info', message: 'i' }])).toBe(0);
    expect(exitCodeOf([{ severity: 'warning', message: 'w' }, { severity: 'error', message: 'e' }])).toBe(1);
  });

  it('wire form omits empty fields and the line', () => {
    expect(toWire({ severity: 'info', message: 'm', line: 3 })).toEqual({ message: 'm', severity: 'info' });
  });
});
