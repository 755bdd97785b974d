// The invalid-LLSD corpus (issue 3): one file per rule or edge case under `cases/` (must fail) and
// `warnings/` (renders, with a warning), each with `<case>.expected.yaml` listing exactly the
// results the render gives: severity, `field` (field.path), `line` and `message`, in the order
// `build` prints them. A case file is read as `llsd-render build FILE` reads it (readItems, so YAML
// problems are results too) and rendered in-process in build mode.
//
// Expected files are written by hand after checking that each message is right and says what to
// write instead; there is no switch that rewrites them from the output. A comment at the top of an
// expected file says why, where it asks for other behaviour than the renderer's today.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { readItems } from '../../src/cli/files.js';
import { sortResults, type Result } from '../../src/krm/result.js';
import { process as render } from '../../src/process.js';

interface ExpectedResult {
  severity: Result['severity'];
  field?: string;
  line?: number;
  message: string;
}

const folders = [
  { dir: 'cases', kind: 'invalid', name: /^\d{2}-[a-z0-9.-]+$/ },
  { dir: 'warnings', kind: 'warning', name: /^w\d{2}-[a-z0-9.-]+$/ },
] as const;

function caseNames(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml') && !f.endsWith('.expected.yaml'))
    .map((f) => f.slice(0, -'.yaml'.length))
    .sort();
}

function renderCase(file: string) {
  // As `build` reads: no nodes, lines from the field-line index.
  const read = readItems([file], { nodes: 'drop' });
  const output = render({ mode: 'build', items: read.items });
  return { items: output.items, results: sortResults([...read.results, ...output.results]) };
}

const summary = (r: Result): ExpectedResult => ({
  severity: r.severity,
  ...(r.field ? { field: r.field.path } : {}),
  ...(r.line !== undefined ? { line: r.line } : {}),
  message: r.message,
});

/**
 * Values a case must never echo: Secret data, and literal values written where a Secret reference
 * belongs (`apiKey: sk-…`, a `secretRefs` entry, a storage `password`, a settings `api_token`).
 */
function secretValuesIn(text: string): string[] {
  const values: string[] = [];
  const strings = (value: unknown): void => {
    if (value && typeof value === 'object') for (const v of Object.values(value)) if (typeof v === 'string') values.push(v);
  };
  const walk = (value: unknown): void => {
    if (!value || typeof value !== 'object') return;
    for (const [key, child] of Object.entries(value)) {
      if (typeof child === 'string' && ['apiKey', 'password', 'connectionString', 'api_token', 'api_key'].includes(key)) values.push(child);
      else if (key === 'secretRefs') strings(child);
      else walk(child);
    }
  };
  for (const doc of parseAllDocuments(text)) {
    if (!('errors' in doc) || doc.errors.length > 0) continue;
    const object = doc.toJS() as { kind?: unknown; data?: unknown; stringData?: unknown; spec?: unknown } | null;
    if (object?.kind === 'Secret') {
      strings(object.stringData);
      strings(object.data);
    } else {
      walk(object?.spec);
    }
  }
  return values;
}

for (const folder of folders) {
  const root = join(import.meta.dirname, folder.dir);
  const names = caseNames(root);

  describe(`${folder.dir}/`, () => {
    it('every case has an expected file and every expected file a case', () => {
      const expectedFiles = readdirSync(root)
        .filter((f) => f.endsWith('.expected.yaml'))
        .map((f) => f.slice(0, -'.expected.yaml'.length))
        .sort();
      expect(expectedFiles).toEqual(names);
      for (const name of names) expect(name).toMatch(folder.name);
    });

    describe.each(names)('%s', (name) => {
      const file = join(root, `${name}.yaml`);
      const display = relative(process.cwd(), file);
      const text = readFileSync(file, 'utf8');
      const expected = parse(readFileSync(join(root, `${name}.expected.yaml`), 'utf8')) as ExpectedResult[];

      it('gives exactly the expected results', () => {
        expect(renderCase(file).results.map(summary)).toEqual(expected);
      });

      it(folder.kind === 'invalid' ? 'fails and renders nothing' : 'renders, with a warning and no error', () => {
        const { items, results } = renderCase(file);
        const severities = results.map((r) => r.severity);
        if (folder.kind === 'invalid') {
          expect(severities).toContain('error');
          expect(items).toEqual([]);
        } else {
          expect(severities).not.toContain('error');
          expect(severities).toContain('warning');
          expect(items.length).toBeGreaterThan(0);
        }
        // The expected file itself must be consistent with its folder.
        expect(expected.some((r) => r.severity === (folder.kind === 'invalid' ? 'error' : 'warning'))).toBe(true);
        if (folder.kind === 'warning') expect(expected.map((r) => r.severity)).not.toContain('error');
      });

      it('results point into the case file, are one line each and never echo a secret value', () => {
        const { results } = renderCase(file);
        const secrets = secretValuesIn(text);
        for (const result of results) {
          expect(result.file?.path).toBe(display);
          expect(result.message).not.toContain('\n');
          expect(result.message).not.toMatch(/\bat .*\.(ts|js):\d+/);
          for (const secret of secrets) expect(result.message).not.toContain(secret);
        }
      });
    });
  });
}

it('the corpus holds at least 45 invalid cases', () => {
  expect(caseNames(join(import.meta.dirname, 'cases')).length).toBeGreaterThanOrEqual(45);
});

it('the secret-echo check sees the literal values and Secret data of the cases', () => {
  const casesDir = join(import.meta.dirname, 'cases');
  const valuesOf = (name: string) => secretValuesIn(readFileSync(join(casesDir, `${name}.yaml`), 'utf8'));
  expect(valuesOf('29-apikey-literal')).toEqual(['sk-live-0123456789abcdef']);
  expect(valuesOf('70-secretrefs-literal-value')).toEqual(['hunter2-not-a-ref']);
  expect(valuesOf('33-env-name-collision')).toEqual(['not-the-real-token', 'not-the-real-other']);
});
