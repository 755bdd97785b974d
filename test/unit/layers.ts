// The module specifiers a TypeScript file imports at run time: `import`/`export … from` whose
// bindings are not all `type`, bare `import '…'`, and `import('…')`. Comments are removed first.

const statement = /^\s*(import|export)\s+(type\s+)?([^;]*?)\s+from\s+['"]([^'"]+)['"]/gms;
const bare = /^\s*import\s+['"]([^'"]+)['"]/gm;
const dynamic = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

const withoutComments = (text: string): string => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"])\/\/[^\n]*/g, '$1');

/** True when every binding in `{ … }` is marked `type` (TypeScript then drops the import). */
function onlyTypes(bindings: string): boolean {
  const braces = /^\{([\s\S]*)\}$/.exec(bindings.trim());
  if (!braces) return false;
  const names = (braces[1] as string).split(',').map((name) => name.trim()).filter((name) => name !== '');
  return names.length > 0 && names.every((name) => name.startsWith('type '));
}

export function valueImportsOf(text: string): string[] {
  const code = withoutComments(text);
  const found: Array<{ at: number; spec: string }> = [];
  for (const m of code.matchAll(statement)) {
    if (m[2] || onlyTypes(m[3] as string)) continue;
    found.push({ at: m.index, spec: m[4] as string });
  }
  for (const m of code.matchAll(bare)) found.push({ at: m.index, spec: m[1] as string });
  for (const m of code.matchAll(dynamic)) found.push({ at: m.index, spec: m[1] as string });
  return found.sort((a, b) => a.at - b.at).map((f) => f.spec);
}
