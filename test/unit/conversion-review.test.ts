// The conversion webhook's pure part: ConversionReview in, ConversionReview (or HTTP 400) out.
import { describe, expect, it } from 'vitest';
import {
  maxBodyDepth,
  maxReviewObjects,
  parseReviewBody,
  reviewConversion,
  reviewConversionSteps,
} from '../../src/convert/conversion-review.js';
import { exactJson } from '../../src/lib/exact-integer.js';
import { countJsonParts, jsonCost, nestsDeeperThan } from '../../src/lib/json-cost.js';
import { conversionAnnotation } from '../../src/llsd/conversion.js';

type Plain = Record<string, unknown>;

const review = (request: Plain): Plain => ({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', request });

const legacy = {
  apiVersion: 'llamastack.io/v1alpha1',
  kind: 'LlamaStackDistribution',
  metadata: { name: 'legacy', namespace: 'ai', uid: 'c1', resourceVersion: '7', generation: 2 },
  spec: { replicas: 2, server: { distribution: { name: 'starter' }, containerSpec: { port: 8080 }, userConfig: { configMapName: 'cfg' } } },
  status: { phase: 'Ready' },
};
const current = {
  apiVersion: 'llamastack.io/v1alpha2',
  kind: 'LlamaStackDistribution',
  metadata: { name: 'current', namespace: 'ai' },
  spec: { distribution: { name: 'starter' }, providers: { inference: { provider: 'vllm', endpoint: 'http://vllm:8000/v1' } } },
};

describe('reviewConversion', () => {
  it('converts every object to desiredAPIVersion, echoes the uid and keeps metadata and status', () => {
    const answer = reviewConversion(review({ uid: 'u-1', desiredAPIVersion: 'llamastack.io/v1alpha2', objects: [legacy, current] }));
    expect(answer).toEqual({
      ok: true,
      review: {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'ConversionReview',
        response: {
          uid: 'u-1',
          result: { status: 'Success' },
          convertedObjects: [
            {
              apiVersion: 'llamastack.io/v1alpha2',
              kind: 'LlamaStackDistribution',
              metadata: legacy.metadata,
              spec: { distribution: { name: 'starter' }, networking: { port: 8080 }, workload: { replicas: 2 }, overrideConfig: { configMapName: 'cfg' } },
              status: { phase: 'Ready' },
            },
            current,
          ],
        },
      },
    });
  });

  it('converts down with the conversion record, and the record brings the fields back on the way up', () => {
    const downAnswer = reviewConversion(review({ uid: 'u-2', desiredAPIVersion: 'llamastack.io/v1alpha1', objects: [current] }));
    if (!downAnswer.ok) throw new Error(downAnswer.message);
    const [converted] = (downAnswer.review.response as { convertedObjects: Plain[] }).convertedObjects as [Plain];
    expect(converted).toEqual({
      apiVersion: 'llamastack.io/v1alpha1',
      kind: 'LlamaStackDistribution',
      metadata: {
        name: 'current',
        namespace: 'ai',
        annotations: {
          [conversionAnnotation]:
            '{"apiVersion":"llamastack.io/v1alpha2","spec":{"providers":{"inference":{"provider":"vllm","endpoint":"http://vllm:8000/v1"}}}}',
        },
      },
      spec: { server: { distribution: { name: 'starter' } } },
    });
    const upAnswer = reviewConversion(review({ uid: 'u-3', desiredAPIVersion: 'llamastack.io/v1alpha2', objects: [converted] }));
    expect(upAnswer.ok && upAnswer.review.response).toEqual({ uid: 'u-3', result: { status: 'Success' }, convertedObjects: [current] });
  });

  it('fails the whole review, with the object and field named, when one object cannot be converted', () => {
    const broken = { ...legacy, metadata: { name: 'broken', namespace: 'ai', annotations: { [conversionAnnotation]: 'not json' } } };
    const answer = reviewConversion(review({ uid: 'u-4', desiredAPIVersion: 'llamastack.io/v1alpha2', objects: [legacy, broken] }));
    expect(answer).toEqual({
      ok: true,
      review: {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'ConversionReview',
        response: {
          uid: 'u-4',
          result: {
            status: 'Failure',
            message:
              'LlamaStackDistribution ai/broken: metadata.annotations["llamastack.io/conversion-data"]: must be the JSON record llsd-render writes ' +
                '(`{"apiVersion": …, "spec": {…}}`); restore the value llsd-render wrote, or remove the annotation to convert without it (the fields it ' +
                'held are then lost)',
          },
        },
      },
    });
  });

  it('fails for a version or a kind it does not convert', () => {
    const toUnknown = reviewConversion(review({ uid: 'u-5', desiredAPIVersion: 'llamastack.io/v1beta1', objects: [legacy] }));
    expect(toUnknown.ok && toUnknown.review.response).toEqual({
      uid: 'u-5',
      result: {
        status: 'Failure',
        message:
          'LlamaStackDistribution ai/legacy: cannot be converted to "llamastack.io/v1beta1": the supported versions are llamastack.io/v1alpha1 and ' +
            'llamastack.io/v1alpha2',
      },
    });
    const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } };
    const wrongKind = reviewConversion(review({ uid: 'u-6', desiredAPIVersion: 'llamastack.io/v1alpha2', objects: [configMap] }));
    expect(wrongKind.ok && wrongKind.review.response).toEqual({
      uid: 'u-6',
      result: {
        status: 'Failure',
        message: 'ConfigMap c: apiVersion: must be llamastack.io/v1alpha1 LlamaStackDistribution to be converted to llamastack.io/v1alpha2, not v1 ConfigMap',
      },
    });
  });

  it('an empty list of objects is a success with no objects', () => {
    const answer = reviewConversion(review({ uid: 'u-7', desiredAPIVersion: 'llamastack.io/v1alpha1', objects: [] }));
    expect(answer.ok && answer.review.response).toEqual({ uid: 'u-7', result: { status: 'Success' }, convertedObjects: [] });
  });

  it('a body that is not a ConversionReview request is refused with the reason (HTTP 400)', () => {
    expect(reviewConversion([])).toEqual({ ok: false, message: 'the request body must be an apiextensions.k8s.io/v1 ConversionReview' });
    expect(reviewConversion({ apiVersion: 'apiextensions.k8s.io/v1beta1', kind: 'ConversionReview', request: {} })).toEqual({
      ok: false,
      message: 'the request body must be an apiextensions.k8s.io/v1 ConversionReview',
    });
    expect(reviewConversion({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview' })).toEqual({
      ok: false,
      message: 'the ConversionReview has no `request`',
    });
    expect(reviewConversion(review({ desiredAPIVersion: 'llamastack.io/v1alpha2', objects: [] }))).toEqual({
      ok: false,
      message: 'the ConversionReview `request.uid` must be a non-empty string',
    });
    expect(reviewConversion(review({ uid: 'u', objects: [] }))).toEqual({
      ok: false,
      message: 'the ConversionReview `request.desiredAPIVersion` must be a string',
    });
    expect(reviewConversion(review({ uid: 'u', desiredAPIVersion: 'llamastack.io/v1alpha2', objects: {} }))).toEqual({
      ok: false,
      message: 'the ConversionReview `request.objects` must be a list',
    });
  });
});

describe('parseReviewBody', () => {
  const nested = (depth: number): string => `${'{"a":['.repeat(depth / 2)}1${']}'.repeat(depth / 2)}`;

  it('reads a body nested exactly maxBodyDepth levels and refuses one level more, before parsing', () => {
    expect(maxBodyDepth).toBe(200);
    const deepest = parseReviewBody(nested(200));
    expect(deepest.ok).toBe(true);
    expect(parseReviewBody(nested(202))).toEqual({
      ok: false,
      message:
        'the request body nests objects and lists more than 200 levels deep, the most the webhook reads: send ConversionReviews of LlamaStackDistributions, ' +
          'which need far fewer',
    });
  });

  it('counts levels in one pass without recursion: a million open brackets are refused at once', () => {
    // A string that counts the characters read: the work done, not the time it takes.
    class Counted extends String {
      reads = 0;
      override charCodeAt(index: number): number {
        this.reads++;
        return super.charCodeAt(index);
      }
    }
    const open = new Counted('['.repeat(1_000_000));
    expect(nestsDeeperThan(open as unknown as string, maxBodyDepth)).toBe(true);
    expect(open.reads).toBe(maxBodyDepth + 1);
    const balanced = new Counted(`${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`);
    expect(nestsDeeperThan(balanced as unknown as string, 1_000_000)).toBe(false);
    expect(balanced.reads).toBe(2_000_000);
  });

  it('brackets inside strings, escaped quotes included, are not levels', () => {
    expect(nestsDeeperThan(JSON.stringify({ a: '['.repeat(500) }), 2)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify({ a: `\\"${'{'.repeat(500)}"\\` }), 2)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify({ a: '\\', b: [[[1]]] }), 3)).toBe(true);
    expect(nestsDeeperThan(JSON.stringify({ a: '\\', b: [[[1]]] }), 4)).toBe(false);
  });

  it('gives the parsed body, or why the text is not JSON', () => {
    expect(parseReviewBody('{"kind":"ConversionReview"}')).toEqual({ ok: true, body: { kind: 'ConversionReview' } });
    const bad = parseReviewBody('{"apiVersion": ');
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.message).toMatch(/^the request body is not valid JSON \(.+\): send a ConversionReview as JSON$/);
  });

  it('does not quote the body when it is not JSON (it may hold anything)', () => {
    const bad = parseReviewBody('{"password": hunter2-secret}');
    expect(!bad.ok && bad.message).toMatch(/^the request body is not valid JSON/);
    expect(!bad.ok && bad.message).not.toContain('hunter2');
  });
});

describe('a failure message quotes the object bounded and on one line (attacker probe round 2)', () => {
  it('a 2 MB kind and a namespace with control characters', () => {
    const review = (object: Record<string, unknown>) => ({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'ConversionReview',
      request: { uid: 'u1', desiredAPIVersion: 'llamastack.io/v1alpha1', objects: [object] },
    });
    const object = { apiVersion: 'x/y', kind: 'K'.repeat(2_000_000), metadata: { name: 'n', namespace: 'S\x1b\n'.repeat(1000) } };
    const answer = reviewConversion(review(object));
    expect(answer.ok).toBe(true);
    const message = ((answer as unknown as { review: { response: { result: { message: string } } } }).review.response.result.message);
    expect(message.length).toBeLessThan(4200);
    expect(message).not.toMatch(/[\x00-\x1f]/);
    expect(message).toContain('\\x1b\\n');
  });
});

describe('countJsonParts (issue 29, W1: what a body costs, before it is parsed)', () => {
  const count = (text: string, limit = 1_000_000): number => countJsonParts(Buffer.from(text), limit);
  /** The parts JSON.parse makes of `text` without JSON in its strings: every object, list, scalar and key. */
  const parsedParts = (value: unknown): number =>
    Array.isArray(value)
      ? value.reduce((sum: number, v) => sum + parsedParts(v), 1)
      : value !== null && typeof value === 'object'
        ? Object.values(value).reduce((sum: number, v) => sum + 1 + parsedParts(v), 1)
        : 1;

  it('counts what JSON.parse makes: objects, lists, strings, numbers, booleans, nulls and keys', () => {
    const texts = [
      '{}',
      '[]',
      '"a"',
      '-12.5e3',
      'true',
      '[{},{},{}]',
      '[[[]]]',
      '{"a":1,"b":[true,false,null],"c":{"d":"e"}}',
      ' { "a" : [ 1 , 2 ] ,\n\t"b" : "x" }\r\n',
      JSON.stringify(['ü€', 'a:b', { 'k:v': '}]' }]),
    ];
    for (const text of texts) {
      expect(count(text), text).toBe(parsedParts(JSON.parse(text)));
      expect(countJsonParts(text, 1_000_000), text).toBe(parsedParts(JSON.parse(text)));
    }
  });

  // The attacker's 16.5 MB body held one conversion record of 5.5 million `{}`: one string to a
  // count of values, parsed by the conversion (1.3 GB, /healthz held 11 s).
  it('counts JSON held in the conversion record (a string the conversion parses) and escapes, which grow each time they are written', () => {
    const record = JSON.stringify({ spec: { blob: [{}, {}, {}] } });
    const parts = (value: unknown): number => countJsonParts(Buffer.from(JSON.stringify(value)), 1_000_000, conversionAnnotation);
    expect(parts({ [conversionAnnotation]: record })).toBe(3 + 8);
    // The same key written with an escape (`\/`) is the same key to JSON.parse: it is counted as the record.
    expect(countJsonParts(JSON.stringify({ [conversionAnnotation]: record }).replace('io/conv', 'io\\/conv'), 1_000_000, conversionAnnotation)).toBe(3 + 8);
    // Under any other key (kubectl's last-applied-configuration), JSON in a string is never parsed: one string.
    expect(parts({ 'kubectl.kubernetes.io/last-applied-configuration': record })).toBe(3);
    expect(parts({ a: '"'.repeat(80) })).toBe(3 + 80 / 8);
    expect(parts(['\\', '"', '\\"['])).toBe(4);
  });

  it('tells text above U+00FF (held at 2 bytes a character) and runs of 16 digits (read with one more copy)', () => {
    const cost = (text: string): unknown => {
      const { wide, longDigits } = jsonCost(Buffer.from(text), 1_000);
      return { wide, longDigits };
    };
    expect(cost('{"a":"éü 123456789012345"}')).toEqual({ wide: false, longDigits: false });
    expect(cost('{"a":"Ā"}')).toEqual({ wide: true, longDigits: false });
    expect(cost('{"a":9007199254740993}')).toEqual({ wide: false, longDigits: true });
    expect(cost('{"a":"1234567890123456"}')).toEqual({ wide: false, longDigits: true });
    // parseExactJson copies the text for these too (`-0` is read as 0, `1e20` as a float).
    expect(cost('{"a":-0}')).toEqual({ wide: false, longDigits: true });
    expect(cost('{"a":1e20}')).toEqual({ wide: false, longDigits: true });
    expect(cost('{"a":true,"b":false,"c":"1e5","d":-1}')).toEqual({ wide: false, longDigits: false });
  });

  it('counts no further than one past the limit, so a 16 MiB body of `{}` costs no more than a small one', () => {
    const empties = `[${Array(5_000_000).fill('{}').join(',')}]`;
    expect(count(empties)).toBe(1_000_001);
    expect(count('[{},{},{}]', 2)).toBe(3);
  });
});

describe('the objects one review may hold (issue 29, W1)', () => {
  const minimal = (i: number): Plain => ({ ...legacy, metadata: { name: `l${i}` } });

  it(`converts ${maxReviewObjects} objects, and fails a review of more with the reason`, () => {
    const objects = (length: number): Plain[] => Array.from({ length }, (_, i) => minimal(i));
    const most = reviewConversion(review({ uid: 'u-most', desiredAPIVersion: 'llamastack.io/v1alpha2', objects: objects(maxReviewObjects) }));
    expect(most.ok && (most.review.response as { result: unknown }).result).toEqual({ status: 'Success' });
    const more = reviewConversion(review({ uid: 'u-more', desiredAPIVersion: 'llamastack.io/v1alpha2', objects: objects(maxReviewObjects + 1) }));
    expect(more.ok && more.review.response).toEqual({
      uid: 'u-more',
      result: {
        status: 'Failure',
        message:
          'request.objects holds 10001 objects, more than the 10000 the webhook converts in one review: list LlamaStackDistributions in pages (kubectl ' +
            'does, 500 at a time, unless --chunk-size=0)',
      },
    });
  });

  it('reviewConversionSteps takes one step per object, and gives the same answer as reviewConversion', () => {
    const body = review({ uid: 'u-steps', desiredAPIVersion: 'llamastack.io/v1alpha2', objects: [legacy, current, legacy] });
    const steps = reviewConversionSteps(body);
    let taken = 0;
    let step = steps.next();
    while (!step.done) {
      taken++;
      step = steps.next();
    }
    expect(taken).toBe(3);
    expect(step.value).toEqual(reviewConversion(body));
  });
});

describe('a review whose conversion data clashes with a change (issue 29, W2)', () => {
  it('converts with the change winning, and carries the warning in the result message (a ConversionReview has no warnings)', () => {
    const down = reviewConversion(review({ uid: 'u-w2-down', desiredAPIVersion: 'llamastack.io/v1alpha1', objects: [current] }));
    const [converted] = ((down.ok && down.review.response) as { convertedObjects: Plain[] }).convertedObjects as [Plain];
    const edited = structuredClone(converted) as { spec: { server: Plain } };
    edited.spec.server.userConfig = { configMapName: 'my-config' };
    const up = reviewConversion(review({ uid: 'u-w2-up', desiredAPIVersion: 'llamastack.io/v1alpha2', objects: [edited] }));
    expect(up.ok && up.review.response).toEqual({
      uid: 'u-w2-up',
      result: {
        status: 'Success',
        message:
          `warning: LlamaStackDistribution ai/current: metadata.annotations["${conversionAnnotation}"]: held llamastack.io/v1alpha2 fields that clash ` +
            'with changes made in llamastack.io/v1alpha1 after it was written, and the changes win: dropped `spec.providers`, which cannot be combined ' +
            'with `spec.overrideConfig` (from `spec.server.userConfig`). Set the dropped fields again in llamastack.io/v1alpha2 if they are still wanted ' +
            '[conversion-data-dropped]',
      },
      convertedObjects: [{ ...current, spec: { distribution: { name: 'starter' }, overrideConfig: { configMapName: 'my-config' } } }],
    });
  });
});

// Issue 29 B1 through the webhook: the body is JSON, and JSON.parse reads 9007199254740993 as …992.
describe('integers beyond 2^53 in a ConversionReview body', () => {
  const big = '9007199254740993';
  const seed = '-9223372036854775807';
  const withBig = {
    ...current,
    spec: { ...current.spec, providers: { inference: { ...current.spec.providers.inference, settings: { max_tokens: 0, seed: 0 } } } },
  };
  const bodyText = (desiredAPIVersion: string, object: unknown): string =>
    JSON.stringify(review({ uid: 'u-big', desiredAPIVersion, objects: [object] }))
      .replace('"max_tokens":0', `"max_tokens":${big}`)
      .replace('"seed":0', `"seed":${seed}`);
  const convertText = (text: string): string => {
    const parsed = parseReviewBody(text);
    if (!parsed.ok) throw new Error(parsed.message);
    const answer = reviewConversion(parsed.body);
    if (!answer.ok) throw new Error(answer.message);
    return exactJson(answer.review);
  };

  it('are kept as written down to v1alpha1 (in the conversion record) and back up', () => {
    const down = convertText(bodyText('llamastack.io/v1alpha1', withBig));
    const converted = (JSON.parse(down) as { response: { convertedObjects: Plain[] } }).response.convertedObjects[0]!;
    const record = (converted.metadata as { annotations: Record<string, string> }).annotations[conversionAnnotation]!;
    expect(record).toContain(`"max_tokens":${big}`);
    expect(record).toContain(`"seed":${seed}`);
    const up = convertText(JSON.stringify(review({ uid: 'u-big2', desiredAPIVersion: 'llamastack.io/v1alpha2', objects: [converted] })));
    expect(up).toContain(`"settings":{"max_tokens":${big},"seed":${seed}}`);
  });
});

// Issue 29 follow-up (num lane): numbers JSON.stringify would change in the webhook's answer.
describe('numbers in a ConversionReview body kept or refused, never changed', () => {
  const withSettings = (settings: string): string =>
    JSON.stringify(
      review({
        uid: 'u-num',
        desiredAPIVersion: 'llamastack.io/v1alpha1',
        objects: [{ ...current, spec: { ...current.spec, providers: { inference: { ...current.spec.providers.inference, settings: { x: 0 } } } } }],
      }),
    ).replace('"x":0', settings);
  const answerOf = (text: string): { text: string; review: { response: { result: { status: string; message?: string } } } } => {
    const parsed = parseReviewBody(text);
    if (!parsed.ok) throw new Error(parsed.message);
    const answer = reviewConversion(parsed.body);
    if (!answer.ok) throw new Error(answer.message);
    const out = exactJson(answer.review);
    return { text: out, review: JSON.parse(out) as never };
  };
  const recordOf = (text: string): string => {
    const converted = (JSON.parse(text) as { response: { convertedObjects: Plain[] } }).response.convertedObjects[0]!;
    return (converted.metadata as { annotations: Record<string, string> }).annotations[conversionAnnotation]!;
  };

  it('-0.0 stays -0.0 in the conversion record (JSON.stringify wrote 0); the integer -0 is 0', () => {
    expect(recordOf(answerOf(withSettings('"f":-0.0,"i":-0')).text)).toContain('"settings":{"f":-0.0,"i":0}');
  });

  it('a float whose value is an integer beyond 2^53 keeps its digits and stays a float (1e20 was written as an integer)', () => {
    expect(recordOf(answerOf(withSettings('"a":9007199254740993.0,"b":1e21,"c":0.5,"d":1e20')).text)).toContain(
      '"settings":{"a":9007199254740993.0,"b":1e+21,"c":0.5,"d":1.0e+20}',
    );
  });

  it.each(['1E400', '-1e999'])('%s (a number JSON.parse reads as infinite) fails the review at its field, where it became null', (number) => {
    const { review: answer, text } = answerOf(withSettings(`"x":${number}`));
    expect(text).not.toContain('null');
    expect(answer.response.result.status).toBe('Failure');
    expect(answer.response.result.message).toMatch(
      /^LlamaStackDistribution ai\/current: spec\.providers\.inference\.settings\.x: must be a finite number: it is infinite .*; write a number such as `1\.0e\+300`$/,
    );
  });
});
