// Bounded, one-line message parts (issue 15): a value is quoted up to 100 characters, a list shows
// up to 10 items, control characters are escaped, and "did you mean" stays cheap on huge input.
import { describe, expect, it } from 'vitest';
import { closest } from '../../src/lib/issues.js';
import { clip, code, count, elide, escapeControl, listOf, quote } from '../../src/lib/quote.js';

describe('quote, code and clip', () => {
  it('quote a short value whole', () => {
    expect(quote('starter')).toBe('"starter"');
    expect(code('starter')).toBe('`starter`');
    expect(clip('starter')).toBe('starter');
  });

  it('cut a long value at 100 characters and say how many more there were', () => {
    const long = 'x'.repeat(5_000_000);
    expect(quote(long)).toBe(`"${'x'.repeat(100)}…" (4,999,900 more characters)`);
    expect(code(long)).toBe(`\`${'x'.repeat(100)}…\` (4,999,900 more characters)`);
    expect(clip(long)).toBe(`${'x'.repeat(100)}… (4,999,900 more characters)`);
  });

  it('never split a surrogate pair', () => {
    const text = `${'a'.repeat(99)}😀${'b'.repeat(10)}`;
    expect(clip(text)).toBe(`${'a'.repeat(99)}… (12 more characters)`);
  });
});

describe('listOf', () => {
  it('lists a short list whole, with "or" or "and" before the last item when asked', () => {
    expect(listOf(['a', 'b', 'c'])).toBe('a, b, c');
    expect(listOf(['a', 'b', 'c'], { last: 'or' })).toBe('a, b or c');
    expect(listOf(['a'], { last: 'and' })).toBe('a');
  });

  it('shows 10 items of a long list and counts the rest', () => {
    const ids = Array.from({ length: 2000 }, (_, i) => `p${i}`);
    expect(listOf(ids)).toBe('p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, … and 1,990 more');
  });

  it('cuts each long item too (ids in a list come from the input)', () => {
    expect(listOf(['y'.repeat(150), 'z'])).toBe(`${'y'.repeat(100)}… (50 more characters), z`);
  });
});

describe('escapeControl', () => {
  it('writes C0, DEL, C1 and the line separators as escapes, so a message stays one line', () => {
    expect(escapeControl('a\nb\r\tc\u001b[31md\u007fe\u0085f\u2028g\u2029h\u202ei')).toBe('a\\nb\\r\\tc\\x1b[31md\\x7fe\\x85f\\u2028g\\u2029h\\u202ei');
  });

  it('leaves ordinary text, including non-ASCII letters, as it is', () => {
    expect(escapeControl('unknown distribution "stärter" — did you mean "starter"?')).toBe('unknown distribution "stärter" — did you mean "starter"?');
  });
});

describe('elide and count', () => {
  it('keep the start and the end of an over-long text', () => {
    const text = `start ${'m'.repeat(10_000)} end`;
    const out = elide(text, 100);
    expect(out.startsWith('start ')).toBe(true);
    expect(out.endsWith(' end')).toBe(true);
    expect(out).toContain('(9,910 characters left out)');
    expect(out.length).toBeLessThan(140);
  });

  it('group thousands the same way on every machine', () => {
    expect([count(7), count(1990), count(4_999_900)]).toEqual(['7', '1,990', '4,999,900']);
  });
});

describe('closest', () => {
  it('still finds a typo: a swapped pair, a missing letter, another case', () => {
    expect(closest('strater', ['starter', 'remote-vllm'])).toBe('starter');
    expect(closest('remote-vlm', ['starter', 'remote-vllm'])).toBe('remote-vllm');
    expect(closest('STARTER', ['starter'])).toBe('starter');
    expect(closest('remote_vllm', ['remote-vllm'])).toBe('remote-vllm');
  });

  it('suggests nothing for a word far from every name', () => {
    expect(closest('postgresql-ha', ['starter', 'remote-vllm'])).toBeUndefined();
  });

  it('suggests nothing for input longer than 100 characters (the old matrix took 31 s and 1.36 GB on 5 MB)', () => {
    expect(closest('x'.repeat(5_000_000), ['starter', 'x'.repeat(5_000_000)])).toBeUndefined();
    expect(closest('a'.repeat(101), [`${'a'.repeat(100)}b`])).toBeUndefined();
  });

  it('compares a 100-character word with many long candidates without a matrix per pair', () => {
    const word = `${'k'.repeat(99)}x`;
    const candidates = [...Array.from({ length: 2000 }, (_, i) => `${'q'.repeat(96)}${String(i).padStart(4, '0')}`), `${'k'.repeat(99)}y`];
    expect(closest(word, candidates)).toBe(`${'k'.repeat(99)}y`);
  });
});
