// clonePlain copies parsed data for the config generator; values YAML 1.1 reads as timestamps or
// binary are not plain objects and must come through whole (a review found them turned into {}).
import { describe, expect, it } from 'vitest';
import { clonePlain, freshCopy } from '../../src/lib/objects.js';

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

describe('freshCopy', () => {
  it('gives a new deep copy each time, equal to the source, which changes to a copy never reach', () => {
    const source = JSON.parse('{"providers": {"inference": [{"provider_id": "vllm", "config": {"url": "${env.URL}"}}]}, "__proto__": {"x": 1}}') as Record<
      string,
      unknown
    >;
    const before = structuredClone(source);
    const copies = [freshCopy(source), freshCopy(source), freshCopy(source)];
    for (const copy of copies) {
      expect(copy).toEqual(before);
      expect(Object.keys(copy)).toContain('__proto__');
      expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
      ((copy.providers as { inference: Array<Record<string, unknown>> }).inference[0] as Record<string, unknown>).provider_id = 'changed';
    }
    expect(source).toEqual(before);
    expect(freshCopy(source)).toEqual(before);
  });

  it('copies data JSON would not give back (a timestamp, an infinity, an undefined value) as clonePlain does, every time', () => {
    const source: Record<string, unknown> = { when: new Date('2024-05-01T00:00:00Z'), far: Number.POSITIVE_INFINITY, gone: undefined, list: [-0] };
    for (let i = 0; i < 3; i++) {
      const copy = freshCopy(source);
      expect(copy).toStrictEqual(clonePlain(source));
      expect((copy.when as Date).toISOString()).toBe('2024-05-01T00:00:00.000Z');
      expect(copy.far).toBe(Number.POSITIVE_INFINITY);
      expect(Object.is((copy.list as number[])[0], -0)).toBe(true);
    }
  });
});
