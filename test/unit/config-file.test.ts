// core/config-file.ts: the config.yaml text, its hash, and the refusals (an error so far, a text
// larger than a ConfigMap holds).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { configHash, configSizeProblem, writeConfig } from '../../src/core/config-file.js';
import type { FieldProblem } from '../../src/lib/issues.js';

describe('writeConfig', () => {
  it('writes the document and hashes the text', () => {
    const text = 'version: 2\napis:\n  - inference\n';
    expect(writeConfig({ version: 2, apis: ['inference'] }, [])).toEqual({ ok: true, text, hash: createHash('sha256').update(text).digest('hex') });
  });

  it('writes nothing when the problems so far hold an error; warnings do not stop it', () => {
    const error: FieldProblem = { path: ['spec'], message: 'bad' };
    expect(writeConfig({ version: 2 }, [error])).toEqual({ ok: false, problems: [error] });
    expect(writeConfig({ version: 2 }, [{ severity: 'warning', code: 'env-conditional', path: ['spec'], message: 'hm' }]).ok).toBe(true);
  });

  it('refuses a config.yaml larger than a ConfigMap holds, after the problems so far', () => {
    const warning: FieldProblem = { severity: 'warning', code: 'env-conditional', path: ['spec'], message: 'hm' };
    const written = writeConfig({ big: 'x'.repeat(1024 * 1024) }, [warning]);
    const tooLarge = { path: ['spec'], message: expect.stringMatching(/^makes a config\.yaml of 1025 KiB, more than the 1024 KiB a ConfigMap can hold/) };
    expect(written).toEqual({ ok: false, problems: [warning, tooLarge] });
  });
});

describe('configSizeProblem and configHash', () => {
  it('counts the key with the text: 1 MiB in all fits, a byte more does not', () => {
    const fits = 1024 * 1024 - 'config.yaml'.length;
    expect(configSizeProblem('x'.repeat(fits))).toBeUndefined();
    expect(configSizeProblem('x'.repeat(fits + 1))?.path).toEqual(['spec']);
  });

  it('hashes as sha256 hex', () => {
    expect(configHash('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});
