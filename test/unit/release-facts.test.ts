// Issue 16: everything about a release is data in configs/, read through src/catalog/. A version
// literal in TypeScript outside src/catalog/ is a release fact in code: this test lists each one
// (file:line) so it cannot come back unnoticed. Comments may name releases; strings may not.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { releaseNotesSchema } from '../../src/catalog/schema.js';

const root = join(import.meta.dirname, '..', '..');
// A release number, not part of a longer dotted number (an IP address).
const VERSION = /(?<![\d.])\d+\.\d+\.\d+(?![\d.])/;

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The string and template literal texts of TypeScript source, with their lines (comments and regexes are not literals). */
function stringLiterals(source: string): Array<{ line: number; text: string }> {
  const file = ts.createSourceFile('x.ts', source, ts.ScriptTarget.Latest, true);
  const out: Array<{ line: number; text: string }> = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      out.push({ line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1, text: node.text });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

describe('no release fact in TypeScript outside src/catalog/', () => {
  it('the scanner finds versions in strings and templates, not in comments or regexes', () => {
    const found = stringLiterals(
      "// 0.7.1\nconst a = '0.8.0';\nconst b = `removed in ${x} 1.2.3`;\nconst r = /^\\d+\\.0\\.0$/; /* 2.0.0 */ const c = \"x 0.4.4\"; const ip = " +
        "'127.0.0.1';",
    );
    expect(found.filter((s) => VERSION.test(s.text))).toEqual([
      { line: 2, text: '0.8.0' },
      { line: 3, text: ' 1.2.3' },
      { line: 4, text: 'x 0.4.4' },
    ]);
  });

  it('src/**/*.ts outside src/catalog/ has no version literal', () => {
    const hits: string[] = [];
    for (const file of tsFiles(join(root, 'src'))) {
      const path = relative(root, file);
      if (path.startsWith(join('src', 'catalog'))) continue;
      for (const literal of stringLiterals(readFileSync(file, 'utf8'))) {
        if (VERSION.test(literal.text)) hits.push(`${path}:${literal.line}: ${JSON.stringify(literal.text.slice(0, 80))}`);
      }
    }
    expect(hits, 'move the release fact into configs/ (read through src/catalog/)').toEqual([]);
  });

  it('configs/release-notes.yaml has the shape src/catalog/schema.ts gives it', () => {
    const result = releaseNotesSchema.safeParse(parse(readFileSync(join(root, 'configs', 'release-notes.yaml'), 'utf8')));
    expect(result.success ? [] : result.error.issues).toEqual([]);
  });
});
