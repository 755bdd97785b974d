// The KRM function Result model (kyaml fn/framework result.go), the only way llsd-render reports
// problems. Stages return results; the edges print them and derive the exit code.
import { count, elide, escapeControl } from '../lib/quote.js';

export type Severity = 'error' | 'warning' | 'info';

export interface ResourceRef {
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
}

export interface Result {
  severity: Severity;
  message: string;
  /** A warning's class (docs/warnings.md), or a coded info's: what `silence` and the `llamastack.io/silence` annotation name. Shown after the message. */
  code?: WarningCode;
  resourceRef?: ResourceRef;
  field?: { path: string };
  file?: { path: string; index?: number };
  /** 1-based line in `file.path`, when the input had lines (build mode). Printed on stderr only: KRM results have no line. */
  line?: number;
}

export type ExitCode = 0 | 1 | 2;

/**
 * Every class of warning, each a stable name a user can silence (RenderConfig `silence`, the
 * annotation `llamastack.io/silence` on an LLSD or OGXServer) and look up in docs/warnings.md,
 * which has one row per code (test/unit/warnings.test.ts keeps the two equal). Errors have no code:
 * they can never be silenced.
 */
export const warningCodes = [
  'api-not-listed',
  'apis-entry-no-effect',
  'backend-https',
  'base-literal-credential',
  'base-models-replaced',
  'base-url-without-path',
  'ca-bundle-invalid-block',
  'configmap-key-missing',
  'configmap-not-in-input',
  'conversion-annotation',
  'conversion-data-dropped',
  'default-provider-not-enabled',
  'deprecated',
  'entrypoint-replaced',
  'env-conditional',
  'env-reference-order',
  'external-api',
  'external-provider-replaces',
  'field-has-no-effect',
  'generated-object-removed',
  'ignored-by-release',
  'ingress-tls-not-applied',
  'legacy-config-form',
  'missing-api-dependency',
  'missing-provider-id',
  'network-policy-ingress-peer',
  'network-policy-off',
  'not-a-kubernetes-object',
  'nothing-adopted',
  'numeric-secret-value',
  'ogx-conversion',
  'output-inside-input',
  'path-outside-state-volume',
  'pdb-blocks-eviction',
  'placeholder-form',
  'praxis-apis-kept',
  'praxis-migration-off',
  'praxis-migration-source',
  'provider-of-disabled-api',
  'provider-setting-not-read',
  'provider-type-from-env',
  'release-newer-than-catalog',
  'render-config-conflict',
  'render-config-not-read',
  'scaled-with-local-state',
  'secret-key-missing',
  'secret-not-in-input',
  'secret-value-not-text',
  'storage-backends-missing',
  'tech-preview',
  'tls-mismatch',
  'unknown-config-key',
  'v1alpha1-field-ignored',
  'workers-mismatch',
] as const;
export type WarningCode = (typeof warningCodes)[number];

/** A warning's (or a coded info's) code as users see it after the message, on the KRM wire and on stderr. */
const withCode = (result: Result): string => (result.severity !== 'error' && result.code ? `${result.message} [${result.code}]` : result.message);

export const hasErrors = (results: readonly Result[]): boolean => results.some((r) => r.severity === 'error');

/** kyaml's convention, which kpt and kustomize act on: any error result fails the run. */
export const exitCodeOf = (results: readonly Result[]): ExitCode => (hasErrors(results) ? 1 : 0);

const severityRank: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/**
 * A stable order: by file, then severity, then resource, line, field and message. By line before
 * the field path: one object's results read top to bottom, as the user edits the file (a field
 * path sorts `kv.password` before `kv.user`, which the file has the other way round). A result
 * without a line (KRM input has none, nor "and 5 more problems") comes after those with one, so
 * the order stays total; among results without a line the field path decides, as before.
 */
export function sortResults(results: readonly Result[]): Result[] {
  const key = (r: Result) => [
    r.file?.path ?? '',
    String(r.file?.index ?? 0).padStart(6, '0'),
    String(severityRank[r.severity]),
    r.resourceRef ? `${r.resourceRef.namespace ?? ''}/${r.resourceRef.name}` : '',
    r.line === undefined ? '~' : String(r.line).padStart(10, '0'),
    r.field?.path ?? '',
    r.message,
  ];
  return [...results].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    for (let i = 0; i < ka.length; i++) {
      // Code-unit order, not localeCompare: the same on every machine whatever its ICU data, and
      // it does not load a collator at start-up.
      const x = ka[i] as string;
      const y = kb[i] as string;
      if (x !== y) return x < y ? -1 : 1;
    }
    return 0;
  });
}

/**
 * The KRM wire form of a result: empty fields omitted, no line (not part of the spec). Control
 * characters are escaped as on stderr, since kpt prints these fields to a terminal.
 */
export function toWire(result: Result): Record<string, unknown> {
  const wire: Record<string, unknown> = { message: printable(withCode(result), MAX_MESSAGE), severity: result.severity };
  if (result.resourceRef) wire.resourceRef = printableFields(result.resourceRef, MAX_PART);
  if (result.field) wire.field = { path: printable(result.field.path, MAX_PART) };
  if (result.file) wire.file = printableFields(result.file, MAX_FILE);
  return wire;
}

// Backstops: each message bounds what it quotes (src/lib/quote.ts), so these cut only a message
// that forgot to; a field path holds the user's keys, which no message site sees.
const MAX_MESSAGE = 4000;
const MAX_PART = 500;
// A name in a stderr line: about as much of it as a message quotes (a valid one is at most 253).
const MAX_NAME = 120;
// A file path is cut only beyond Linux's PATH_MAX: kpt matches it against its files.
const MAX_FILE = 4096;

// String(): a resourceRef comes from input, and a namespace written `-0` is a number there.
const printable = (text: string, max: number): string => escapeControl(elide(String(text), max));

const printableFields = <T extends object>(fields: T, max: number): T =>
  Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, typeof value === 'string' ? printable(value, max) : value])) as T;

/**
 * One stderr line per result (docs/results.md), because kustomize never shows results:
 * `<file>:<line>: <ns>/<name>: <field.path>: <message>`, parts the input did not have left out.
 * Control characters in any part are escaped, so input can neither break the line nor forge another.
 */
export function formatLine(result: Result): string {
  const parts: string[] = [];
  if (result.file) parts.push(printable(result.file.path, MAX_FILE) + (result.line ? `:${result.line}` : ''));
  if (result.resourceRef) {
    const { namespace, name } = result.resourceRef;
    parts.push(namespace ? `${printable(namespace, MAX_NAME)}/${printable(name, MAX_NAME)}` : printable(name, MAX_NAME));
  }
  if (result.field) parts.push(printable(result.field.path, MAX_PART));
  const prefix = result.severity === 'error' ? '' : `${result.severity}: `;
  parts.push(prefix + printable(withCode(result), MAX_MESSAGE));
  return parts.join(': ');
}

/** How many results of one kind (one field of one object, any list index) are shown. */
export const MAX_RESULTS_OF_A_KIND = 100;

/**
 * `sorted` with at most `MAX_RESULTS_OF_A_KIND` results per object, severity and field path (list
 * indexes ignored), and one result saying how many more there were: a list of 100,000 entries that
 * all repeat one mistake gives 101 lines, not 100,000.
 */
export function capRepeats(sorted: readonly Result[]): Result[] {
  const seen = new Map<string, { count: number; first: Result }>();
  const out: Result[] = [];
  for (const result of sorted) {
    const kind = kindOf(result);
    const entry = seen.get(kind) ?? { count: 0, first: result };
    seen.set(kind, entry);
    entry.count++;
    if (entry.count <= MAX_RESULTS_OF_A_KIND) out.push(result);
  }
  for (const [, { count: n, first }] of seen) {
    if (n <= MAX_RESULTS_OF_A_KIND) continue;
    const { line: _line, message: _message, field, ...where } = first;
    out.push({
      ...where,
      ...(field && { field: { path: anyIndex(field.path) } }),
      message: `${count(n - MAX_RESULTS_OF_A_KIND)} more ${first.severity === 'info' ? 'notes' : `${first.severity}s`} like the ${MAX_RESULTS_OF_A_KIND} ` +
        `shown for this field are left out; fix the ones shown, then run again`,
    });
  }
  return out.length === sorted.length ? out : sortResults(out);
}

const anyIndex = (path: string): string => path.replace(/\[\d+\]/g, '[*]');

const kindOf = (r: Result): string =>
  [
    r.severity,
    r.file?.path ?? '',
    r.file?.index ?? '',
    r.resourceRef ? `${r.resourceRef.kind}/${r.resourceRef.namespace ?? ''}/${r.resourceRef.name}` : '',
    anyIndex(r.field?.path ?? ''),
  ].join('\u0000');
