// The KRM function Result model (kyaml fn/framework result.go), the only way llsd-render reports
// problems. Stages return results; the edges print them and derive the exit code.

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
  resourceRef?: ResourceRef;
  field?: { path: string };
  file?: { path: string; index?: number };
  /** 1-based line in `file.path`, when the input had lines (build mode). Printed on stderr only: KRM results have no line. */
  line?: number;
}

export type ExitCode = 0 | 1 | 2;

export const hasErrors = (results: readonly Result[]): boolean => results.some((r) => r.severity === 'error');

/** kyaml's convention, which kpt and kustomize act on: any error result fails the run. */
export const exitCodeOf = (results: readonly Result[]): ExitCode => (hasErrors(results) ? 1 : 0);

const severityRank: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** A stable order: by file, then severity, then resource, field and message. */
export function sortResults(results: readonly Result[]): Result[] {
  const key = (r: Result) => [
    r.file?.path ?? '',
    String(r.file?.index ?? 0).padStart(6, '0'),
    String(severityRank[r.severity]),
    r.resourceRef ? `${r.resourceRef.namespace ?? ''}/${r.resourceRef.name}` : '',
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

/** The KRM wire form of a result: empty fields omitted, no line (not part of the spec). */
export function toWire(result: Result): Record<string, unknown> {
  const wire: Record<string, unknown> = { message: result.message, severity: result.severity };
  if (result.resourceRef) wire.resourceRef = { ...result.resourceRef };
  if (result.field) wire.field = { ...result.field };
  if (result.file) wire.file = { ...result.file };
  return wire;
}

/**
 * One stderr line per result (DESIGN §2), because kustomize never shows results:
 * `<file>:<line>: <ns>/<name>: <field.path>: <message>`, parts the input did not have left out.
 */
export function formatLine(result: Result): string {
  const parts: string[] = [];
  if (result.file) parts.push(result.line ? `${result.file.path}:${result.line}` : result.file.path);
  if (result.resourceRef) {
    const { namespace, name } = result.resourceRef;
    parts.push(namespace ? `${namespace}/${name}` : name);
  }
  if (result.field) parts.push(result.field.path);
  const prefix = result.severity === 'error' ? '' : `${result.severity}: `;
  parts.push(prefix + result.message);
  return parts.join(': ');
}
