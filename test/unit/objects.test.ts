// clonePlain copies parsed data for the config generator; values YAML 1.1 reads as timestamps or
// binary are not plain objects and must come through whole (a review found them turned into {}).
import { describe, expect, it } from 'vitest';
import { clonePlain } from '../../src/lib/objects.js';

describe('clonePlain', () => {
  it('copies plain data deeply, keeps __proto__ as an own key, and copies dates and binary whole', () => {
    const source = JSON.parse('{"a": [1, {"b": "c"}], "__proto__": {"x": 1}}') as Record<string, unknown>;
    source.when = new Date('2024-05-01T00:00:00Z');
    source.bytes = Buffer.from('hello');
    const copy = clonePlain(source);
    expect(copy.a).toEqual(source.a);
    expect(copy.a).not.toBe(source.a);
    expect(Object.keys(copy)).toContain('__proto__');
    expect(copy.when).toBeInstanceOf(Date);
    expect((copy.when as Date).toISOString()).toBe('2024-05-01T00:00:00.000Z');
    // As structuredClone copies it (a Uint8Array), which is what the generator got before.
    expect(Buffer.from(copy.bytes as Uint8Array).toString()).toBe('hello');
  });
});
