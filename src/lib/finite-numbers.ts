// Numbers JSON cannot hold, found in plain data before it is written as JSON.
import type { FieldProblem } from './issues.js';
import { isPlainObject } from './objects.js';

/**
 * A number JSON cannot hold, and so neither can the Kubernetes API nor the conversion record: `.inf`,
 * `-.inf`, `.nan`, or one beyond ±1.8e308 such as `1E400` (read as infinite). JSON.stringify would
 * write `null` for it, changing the value without a word; it is refused at its field instead.
 */
export function nonFiniteNumber(value: unknown, path: Array<string | number>): FieldProblem | undefined {
  // Iterative (objects nest deep), and a path is made only for the number found.
  interface Step { item: unknown; parent?: Step; key?: string | number }
  const stack: Step[] = [{ item: value }];
  for (let step = stack.pop(); step; step = stack.pop()) {
    const { item } = step;
    if (typeof item === 'number' && !Number.isFinite(item)) {
      const at: Array<string | number> = [];
      for (let s: Step | undefined = step; s?.parent; s = s.parent) at.unshift(s.key as string | number);
      const what = Number.isNaN(item) ? 'not a number (`.nan`)' : `infinite (\`${item > 0 ? '' : '-'}.inf\`, or a number beyond ±1.8e308 such as \`1E400\`)`;
      const message = `must be a finite number: it is ${what}, which JSON and the Kubernetes API cannot hold; write a number such as \`1.0e+300\``;
      return { path: [...path, ...at], message };
    }
    if (Array.isArray(item)) for (let i = item.length - 1; i >= 0; i--) stack.push({ item: item[i], parent: step, key: i });
    else if (isPlainObject(item)) for (const key of Object.keys(item).reverse()) stack.push({ item: item[key], parent: step, key });
  }
  return undefined;
}
