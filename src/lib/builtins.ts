// Built-in modules that only some commands need, loaded when first asked for: an import statement
// loads its module at every start of the bundle, for every command.
import { createRequire } from 'node:module';

// Any absolute path will do: built-in modules resolve the same from everywhere.
const load = createRequire(process.execPath);

/** node:v8 (it loads node:stream too: about 4 ms). */
export const v8 = (): typeof import('node:v8') => load('node:v8') as typeof import('node:v8');
