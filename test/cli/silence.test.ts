// Silencing warnings by code (docs/warnings.md) through the built bundle, on examples/postgres
// without its Secret, whose two numeric-secret-value warnings (the postgres user and password keys
// of a Secret not in the input) must each be silenceable; the Secret missing is a third warning.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectNoCrash, repoRoot, run, stderrLines, tempDir, writeTree } from './run.js';

const llsdText = readFileSync(join(repoRoot, 'examples', 'postgres', 'app', 'llsd.yaml'), 'utf8');
const secretText = readFileSync(join(repoRoot, 'examples', 'postgres', 'app', 'secret.yaml'), 'utf8');
// kv and sql read the same two keys: each key is told once, at its first field.
const warnedFields = ['spec.storage.kv.password', 'spec.storage.kv.user'];

/** examples/postgres/app with the LLSD annotated (`silence`) and extra files. */
function app(silence?: string, extra: Record<string, string> = {}): string {
  const llsd =
    silence === undefined ? llsdText : llsdText.replace(/^  name: pg$/m, `  name: pg\n  annotations:\n    llamastack.io/silence: ${JSON.stringify(silence)}`);
  if (silence !== undefined) expect(llsd).toContain('llamastack.io/silence');
  // Without the Secret: with it, its values are checked instead, and they are text (no warning).
  return writeTree(tempDir(), { 'llsd.yaml': llsd, ...extra });
}

const renderConfig = (silence: string) =>
  `apiVersion: fn.llamastack.io/v1alpha1\nkind: RenderConfig\nmetadata:\n  name: options\nspec:\n  silence: ${silence}\n`;
const warnings = (stderr: string) => stderr.split('\n').filter((line) => line.includes(': warning: '));

describe('examples/postgres without its Secret: its numeric-secret-value warnings', () => {
  it('with the Secret in the input there are none: its values are text (control)', () => {
    const r = run(['validate', '.'], { cwd: writeTree(tempDir(), { 'llsd.yaml': llsdText, 'secret.yaml': secretText }) });
    expect(r.status, r.stderr).toBe(0);
    expect(warnings(r.stderr)).toEqual([]);
  });

  it('carry the code numeric-secret-value, which the user can look up and silence (control)', () => {
    const r = run(['validate', '.'], { cwd: app() });
    expect(r.status, r.stderr).toBe(0);
    const lines = warnings(r.stderr).filter((line) => line.endsWith(' [numeric-secret-value]'));
    expect(lines).toHaveLength(2);
    for (const field of warnedFields)
      expect(
        lines.some((line) => line.includes(`llama/pg: ${field}: warning: `) && line.endsWith(' [numeric-secret-value]')),
        field,
      ).toBe(true);
  });

  it('are silenced by the annotation llamastack.io/silence on the LLSD, with an info that counts them', () => {
    const r = run(['validate', '.'], { cwd: app('numeric-secret-value') });
    expect(r.status, r.stderr).toBe(0);
    expectNoCrash(r);
    expect(warnings(r.stderr).map((line) => /\[([a-z-]+)\]$/.exec(line)?.[1])).toEqual(['secret-not-in-input']);
    expect(r.stdout).toContain(
      'llama/pg: info: 2 warnings silenced (numeric-secret-value ×2); take the code out of `silence` or the annotation llamastack.io/silence to see them\n',
    );
  });

  it('are silenced by `silence` in a RenderConfig among the inputs, and build prints nothing on stderr', () => {
    const r = run(['build', '.'], { cwd: app(undefined, { 'options.yaml': renderConfig('[numeric-secret-value, secret-not-in-input]') }) });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('kind: Deployment');
    // The annotation is no output of ours: it stays on the LLSD, which build does not print.
    expect(r.stdout).not.toContain('llamastack.io/silence');
  });

  it('are silenced by `silence` as ConfigMap data given with --config (a comma list)', () => {
    const dir = app();
    const config = join(tempDir(), 'cm.yaml');
    writeTree(join(config, '..'), {
      'cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: opts\ndata:\n  silence: "numeric-secret-value, secret-not-in-input"\n',
    });
    const r = run(['build', '--config', config, '.'], { cwd: dir });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
  });

  it('another code silences nothing of them', () => {
    const r = run(['validate', '.'], { cwd: app('secret-not-in-input') });
    expect(r.status, r.stderr).toBe(0);
    expect(warnings(r.stderr).filter((line) => line.endsWith(' [numeric-secret-value]'))).toHaveLength(2);
    expect(warnings(r.stderr)).toHaveLength(2);
  });
});

describe('an unknown code', () => {
  it('in the annotation is an error at the annotation that names the nearest code', () => {
    const r = run(['validate', '.'], { cwd: app('numeric-secret-valu') });
    expect(r.status).toBe(1);
    expectNoCrash(r);
    expect(stderrLines(r)).toContain(
      'llsd.yaml:12: llama/pg: metadata.annotations["llamastack.io/silence"]: "numeric-secret-valu" is not a warning code; did you mean ' +
        '`numeric-secret-value`? (every code is listed in docs/warnings.md)',
    );
  });

  it('in a RenderConfig is an error at its place in the list', () => {
    const r = run(['build', '.'], { cwd: app(undefined, { 'options.yaml': renderConfig('[secret-not-in-inptu]') }) });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(stderrLines(r)).toContain(
      'options.yaml:6: options: spec.silence[0]: "secret-not-in-inptu" is not a warning code; did you mean `secret-not-in-input`? (every code is listed in ' +
        'docs/warnings.md)',
    );
  });
});

describe('errors', () => {
  it('are never silenced: secretPolicy strict makes a missing Secret an error, which silence leaves alone', () => {
    const dir = writeTree(tempDir(), {
      'llsd.yaml': llsdText,
      'options.yaml':
        'apiVersion: fn.llamastack.io/v1alpha1\nkind: RenderConfig\nmetadata:\n  name: options\nspec:\n  secretPolicy: strict\n  silence: ' +
          '[secret-not-in-input, numeric-secret-value]\n',
    });
    const r = run(['build', '.'], { cwd: dir });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/llama\/pg: spec\.storage\.\w+\.\w+: refers to the Secret "llama-postgres", which is not in the input/);
  });
});
