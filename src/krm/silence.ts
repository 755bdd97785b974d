// Silencing warnings by code (docs/warnings.md): RenderConfig `silence` for a whole render, the
// annotation `llamastack.io/silence` for one LLSD or OGXServer. Errors have no code and are never
// silenced. Pure: codes in, results out.
import { closest } from '../lib/issues.js';
import { parseYamlStream } from './yaml.js';
import { count, quote } from '../lib/quote.js';
import { warningCodes, type Result, type WarningCode } from './result.js';

/** The annotation on an LLSD or OGXServer: `"numeric-secret-value, secret-not-in-input"`. */
export const silenceAnnotation = 'llamastack.io/silence';

export const isWarningCode = (text: string): text is WarningCode => (warningCodes as readonly string[]).includes(text);

/** Why `text` is not a warning code, with the nearest code when there is one. */
export function unknownCodeMessage(text: string): string {
  const near = closest(text, warningCodes);
  return `${quote(text)} is not a warning code${near ? `; did you mean \`${near}\`?` : ''} (every code is listed in docs/warnings.md)`;
}

/**
 * The codes of a list written as text (ConfigMap data, an annotation): comma- or space-separated,
 * or a YAML list (`[a, b]` or one `- a` a line). Unknown ones are returned apart.
 */
export function codesFromText(text: string): { codes: WarningCode[]; unknown: string[] } {
  const parsed = parseYamlStream(text);
  const value = parsed.problems.length === 0 && parsed.documents.length === 1 ? parsed.documents[0]?.value : undefined;
  const words = Array.isArray(value) ? value.map(String) : text.split(/[\s,]+/);
  const codes: WarningCode[] = [];
  const unknown: string[] = [];
  for (const word of words.map((w) => w.trim()).filter((w) => w !== '')) {
    if (isWarningCode(word)) codes.push(word);
    else unknown.push(word);
  }
  return { codes, unknown };
}

/**
 * `results` without the warnings (and coded infos, such as `generated-object-removed`) whose code
 * is in `codes`, and how many of each code were left out. An error is always kept, whatever code it carries.
 */
export function withoutSilenced(results: readonly Result[], codes: ReadonlySet<WarningCode>): { kept: Result[]; silenced: Map<WarningCode, number> } {
  const kept: Result[] = [];
  const silenced = new Map<WarningCode, number>();
  for (const result of results) {
    if (result.severity !== 'error' && result.code !== undefined && codes.has(result.code)) silenced.set(result.code, (silenced.get(result.code) ?? 0) + 1);
    else kept.push(result);
  }
  return { kept, silenced };
}

/** The note left where warnings were silenced, so a silenced class can be found again (`validate` prints it). */
export function silencedNote(silenced: ReadonlyMap<WarningCode, number>): string | undefined {
  if (silenced.size === 0) return undefined;
  const total = [...silenced.values()].reduce((a, b) => a + b, 0);
  const parts = [...silenced].sort(([a], [b]) => (a < b ? -1 : 1)).map(([code, n]) => (n === 1 ? code : `${code} ×${n}`));
  return `${count(total)} warning${total === 1 ? '' : 's'} silenced (${parts.join(', ')}); take the code out of \`silence\` or the annotation ` +
    `${silenceAnnotation} to see ${total === 1 ? 'it' : 'them'}`;
}
