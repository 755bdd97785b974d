// The conversion webhook's answer to an `apiextensions.k8s.io/v1` ConversionReview, as a pure
// function (the HTTPS server is in src/cli/webhook.ts). Every object of the request is converted
// to `desiredAPIVersion` with the conversion library (convert.ts); the API server accepts all of
// them or none, so one object that cannot be converted fails the whole review.
import { formatFieldPath } from '../krm/item.js';
import { isPlainObject } from '../lib/objects.js';
import { clip, elide, escapeControl } from '../lib/quote.js';
import { convertTo } from '../llsd/conversion.js';
import { isError, type FieldProblem } from '../lib/issues.js';
import { parseExactJson } from '../lib/exact-integer.js';
import { nestsDeeperThan } from '../lib/json-cost.js';

export const conversionReviewApiVersion = 'apiextensions.k8s.io/v1';
const conversionReviewKind = 'ConversionReview';

/** What to send back: a ConversionReview with a response, or (for a request that is not one) HTTP 400 and why. */
export type ReviewAnswer = { ok: true; review: Record<string, unknown> } | { ok: false; message: string };

/**
 * How deep a request body may nest objects and lists. A ConversionReview of LLSDs needs about 20
 * levels; the conversion recurses over the objects, and a few thousand levels exhaust the stack.
 */
export const maxBodyDepth = 200;

/** The request body as JSON, or (HTTP 400) why not; refused before parsing when it nests too deep. */
export function parseReviewBody(text: string): { ok: true; body: unknown } | { ok: false; message: string } {
  if (nestsDeeperThan(text, maxBodyDepth)) {
    return {
      ok: false,
      message: `the request body nests objects and lists more than ${maxBodyDepth} levels deep, the most the webhook reads: send ConversionReviews of ` +
        `LlamaStackDistributions, which need far fewer`,
    };
  }
  try {
    return { ok: true, body: parseExactJson(text) };
  } catch (error) {
    // V8's message quotes the body around the mistake; the body is the client's and may hold anything.
    const reason = (error as Error).message.replace(/,? (?:\.\.\.)?".*$/s, '');
    return { ok: false, message: `the request body is not valid JSON (${reason}): send a ConversionReview as JSON` };
  }
}

/**
 * The most objects one review may hold. The API server sends one object per write and one page of
 * a list per read (kubectl lists 500 at a time); only an unpaged list of a huge collection holds
 * more, and converting it would hold the webhook (and all its memory) for seconds.
 */
export const maxReviewObjects = 10_000;

/** The answer to a ConversionReview, converting all its objects at once. */
export function reviewConversion(body: unknown): ReviewAnswer {
  const steps = reviewConversionSteps(body);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * The answer to a ConversionReview, one object per step: the webhook runs a few steps at a time
 * and answers other requests (`/healthz` among them) in between, so a large review never blocks it.
 */
export function* reviewConversionSteps(body: unknown): Generator<undefined, ReviewAnswer, undefined> {
  if (!isPlainObject(body) || body.kind !== conversionReviewKind || body.apiVersion !== conversionReviewApiVersion) {
    return { ok: false, message: `the request body must be an ${conversionReviewApiVersion} ${conversionReviewKind}` };
  }
  const request = body.request;
  if (!isPlainObject(request)) return { ok: false, message: 'the ConversionReview has no `request`' };
  const { uid, desiredAPIVersion, objects } = request;
  if (typeof uid !== 'string' || uid === '') return { ok: false, message: 'the ConversionReview `request.uid` must be a non-empty string' };
  if (typeof desiredAPIVersion !== 'string') return { ok: false, message: 'the ConversionReview `request.desiredAPIVersion` must be a string' };
  if (!Array.isArray(objects)) return { ok: false, message: 'the ConversionReview `request.objects` must be a list' };
  if (objects.length > maxReviewObjects) {
    return answer(uid, {
      status: 'Failure',
      message:
        `request.objects holds ${objects.length} objects, more than the ${maxReviewObjects} the webhook converts in one review: list ` +
        `LlamaStackDistributions in pages (kubectl does, 500 at a time, unless --chunk-size=0)`,
    });
  }

  const converted: unknown[] = [];
  const warnings: string[] = [];
  // A warning ends with its code, as everywhere (docs/warnings.md).
  const say = (problems: readonly FieldProblem[]): string =>
    problems
      .map((p) => `${p.path.length > 0 ? `${formatFieldPath(p.path)}: ${p.message}` : p.message}${p.code === undefined ? '' : ` [${p.code}]`}`)
      .join('; ');
  for (const [index, object] of objects.entries()) {
    const { object: result, problems } = convertTo(object, desiredAPIVersion);
    const errors = problems.filter(isError);
    if (errors.length > 0) return answer(uid, { status: 'Failure', message: `${describe(object, index)}: ${say(errors)}` });
    if (problems.length > 0) warnings.push(`${describe(object, index)}: ${say(problems)}`);
    converted.push(result);
    yield;
  }
  // A ConversionReview has no warnings: they go in the message of the result (which the API
  // server does not show for a success) and the webhook's log.
  return answer(uid, warnings.length === 0 ? { status: 'Success' } : { status: 'Success', message: `warning: ${warnings.join('; warning: ')}` }, converted);
}

function answer(uid: string, result: { status: 'Success' | 'Failure'; message?: string }, convertedObjects?: unknown[]): ReviewAnswer {
  // kubectl prints the message to the user: one bounded line, whatever the object held.
  const shown = result.message === undefined ? result : { ...result, message: escapeControl(elide(result.message, 4000)) };
  const response: Record<string, unknown> = { uid, result: shown };
  if (convertedObjects) response.convertedObjects = convertedObjects;
  return { ok: true, review: { apiVersion: conversionReviewApiVersion, kind: conversionReviewKind, response } };
}

/** `LlamaStackDistribution ai/demo`, or the object's place in the request when it has no name. */
function describe(object: unknown, index: number): string {
  const o = isPlainObject(object) ? object : {};
  const metadata = isPlainObject(o.metadata) ? o.metadata : {};
  const kind = typeof o.kind === 'string' ? o.kind : 'object';
  if (typeof metadata.name !== 'string') return `request.objects[${index}]`;
  return `${clip(kind)} ${typeof metadata.namespace === 'string' ? `${clip(metadata.namespace)}/` : ''}${clip(metadata.name)}`;
}

