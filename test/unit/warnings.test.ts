// Every warning has a code, listed in docs/warnings.md; silencing takes codes from text and leaves
// errors alone.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toWire, formatLine, warningCodes, type Result } from '../../src/krm/result.js';
import { codesFromText, silencedNote, withoutSilenced } from '../../src/krm/silence.js';

const root = join(import.meta.dirname, '..', '..');
const docs = readFileSync(join(root, 'docs', 'warnings.md'), 'utf8');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('docs/warnings.md', () => {
  const rows = [...docs.matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map((m) => m[1]);

  it('has one row per warning code, in the order of warningCodes (a new code without a row fails here)', () => {
    expect(rows).toEqual([...warningCodes]);
  });

  it('lists only codes some warning site in src/ uses (a code no longer used must go)', () => {
    const source = sourceFiles(join(root, 'src'))
      .filter((file) => !file.endsWith(join('krm', 'result.ts')))
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    const unused = warningCodes.filter((code) => !source.includes(`'${code}'`));
    expect(unused).toEqual([]);
  });
});

describe('a warning shows its code', () => {
  const warning: Result = { severity: 'warning', code: 'numeric-secret-value', message: 'is read from a Secret', field: { path: 'spec.storage.sql.password' } };

  it('after the message on the KRM wire and on stderr', () => {
    expect(toWire(warning).message).toBe('is read from a Secret [numeric-secret-value]');
    expect(formatLine(warning)).toBe('spec.storage.sql.password: warning: is read from a Secret [numeric-secret-value]');
  });

  it('never on an error, whatever it carries', () => {
    expect(toWire({ ...warning, severity: 'error' }).message).toBe('is read from a Secret');
  });
});

describe('silencing', () => {
  it('reads codes from a comma or space list and from a YAML list, and returns unknown words apart', () => {
    expect(codesFromText('numeric-secret-value, secret-not-in-input')).toEqual({ codes: ['numeric-secret-value', 'secret-not-in-input'], unknown: [] });
    expect(codesFromText('numeric-secret-value secret-not-in-input')).toEqual({ codes: ['numeric-secret-value', 'secret-not-in-input'], unknown: [] });
    expect(codesFromText('[numeric-secret-value, nope]')).toEqual({ codes: ['numeric-secret-value'], unknown: ['nope'] });
    expect(codesFromText('- deprecated\n- placeholder-form\n')).toEqual({ codes: ['deprecated', 'placeholder-form'], unknown: [] });
  });

  it('drops the warnings of the codes given and counts them; errors and infos stay', () => {
    const results: Result[] = [
      { severity: 'warning', code: 'numeric-secret-value', message: 'a' },
      { severity: 'warning', code: 'numeric-secret-value', message: 'b' },
      { severity: 'warning', code: 'deprecated', message: 'c' },
      { severity: 'error', code: 'numeric-secret-value', message: 'd' },
      { severity: 'info', message: 'e' },
    ];
    const { kept, silenced } = withoutSilenced(results, new Set(['numeric-secret-value'] as const));
    expect(kept.map((r) => r.message)).toEqual(['c', 'd', 'e']);
    expect([...silenced]).toEqual([['numeric-secret-value', 2]]);
    expect(silencedNote(silenced)).toBe(
      '2 warnings silenced (numeric-secret-value ×2); take the code out of `silence` or the annotation llamastack.io/silence to see them',
    );
  });
});
