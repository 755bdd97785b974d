// core/env-names.ts: two Secret references that would share one env var name.
import { describe, expect, it } from 'vitest';
import { envNameClashes } from '../../src/core/env-names.js';
import type { SecretEnv } from '../../src/core/secrets.js';

const ref = (name: string, secretName: string, key: string, at: string): SecretEnv => ({ name, secretName, key, path: ['spec', at] });

describe('envNameClashes', () => {
  const first = ref('LLSD_A_KEY', 's', 'k', 'a');
  const same = ref('LLSD_A_KEY', 's', 'k', 'b');
  const other = ref('LLSD_A_KEY', 's', 'other', 'c');
  const free = ref('LLSD_B_KEY', 's', 'k', 'd');

  it('without sharing, every repeat of a name clashes with the first of it', () => {
    expect(envNameClashes([first, free, same, other], false)).toEqual([
      { entry: same, earlier: first },
      { entry: other, earlier: first },
    ]);
  });

  it('with sharing, the same Secret key may repeat a name; another key may not', () => {
    expect(envNameClashes([first, same, other, free], true)).toEqual([{ entry: other, earlier: first }]);
  });
});
