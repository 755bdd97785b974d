// The conversion webhook's answer to an `apiextensions.k8s.io/v1` ConversionReview, as a pure
// function (the HTTPS server is in src/cli/webhook.ts). Every object of the request is converted
// to `desiredAPIVersion` with the conversion library (convert.ts); the API server accepts all of
// them or none, so one object that cannot be converted fails the whole review.
import { formatFieldPath } from '../krm/item.js';
import { isPlainObject } from '../lib/objects.js';
import { convertTo } from './convert.js';
import { isError } from './issues.js';

export const conversionReviewApiVersion = 'apiextensions.k8s.io/v1';
const conversionReviewKind = 'ConversionReview';

/** What to send back: a ConversionReview with a response, or (for a request that is not one) HTTP 400 and why. */
export type ReviewAnswer = { ok: true; review: Record<string, unknown> } | { ok: false; message: string };

export function reviewConversion(body: unknown): ReviewAnswer {
  if (!isPlainObject(body) || body.kind !== conversionReviewKind || body.apiVersion !== conversionReviewApiVersion) {
    return { ok: false, message: `the request body must be an ${conversionReviewApiVersion} ${conversionReviewKind}` };
  }
  const request = body.request;
  if (!isPlainObject(request)) return { ok: false, message: 'the ConversionReview has no `request`' };
  const { uid, desiredAPIVersion, objects } = request;
  if (typeof uid !== 'string' || uid === '') return { ok: false, message: 'the ConversionReview `request.uid` must be a non-empty string' };
  if (typeof desiredAPIVersion !== 'string') return { ok: false, message: 'the ConversionReview `request.desiredAPIVersion` must be a string' };
  if (!Array.isArray(objects)) return { ok: false, message: 'the ConversionReview `request.objects` must be a list' };

  const converted: unknown[] = [];
  for (const [index, object] of objects.entries()) {
    const { object: result, problems } = convertTo(object, desiredAPIVersion);
    const errors = problems.filter(isError);
    if (errors.length > 0) {
      const message = errors.map((p) => (p.path.length > 0 ? `${formatFieldPath(p.path)}: ${p.message}` : p.message)).join('; ');
      return answer(uid, { status: 'Failure', message: `${describe(object, index)}: ${message}` });
    }
    converted.push(result);
  }
  return answer(uid, { status: 'Success' }, converted);
}

function answer(uid: string, result: { status: 'Success' | 'Failure'; message?: string }, convertedObjects?: unknown[]): ReviewAnswer {
  const response: Record<string, unknown> = { uid, result };
  if (convertedObjects) response.convertedObjects = convertedObjects;
  return { ok: true, review: { apiVersion: conversionReviewApiVersion, kind: conversionReviewKind, response } };
}

/** `LlamaStackDistribution ai/demo`, or the object's place in the request when it has no name. */
function describe(object: unknown, index: number): string {
  const o = isPlainObject(object) ? object : {};
  const metadata = isPlainObject(o.metadata) ? o.metadata : {};
  const kind = typeof o.kind === 'string' ? o.kind : 'object';
  if (typeof metadata.name !== 'string') return `request.objects[${index}]`;
  return `${kind} ${typeof metadata.namespace === 'string' ? `${metadata.namespace}/` : ''}${metadata.name}`;
}
