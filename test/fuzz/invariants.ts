// The promises every run keeps, whatever the input (docs/results.md, docs/validation.md "Input that
// is refused"; issue 15 "Done when"). Used by the fuzz workers (in-process runs) and by the test
// (runs of the real process). A failure names its invariant and quotes a little of the output.
import { isAlias, isMap, isPair, isScalar, isSeq, parseAllDocuments } from 'yaml';

export type Mode = 'krm' | 'build';

export interface RunOutput {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export interface Failure {
  invariant:
    | 'exit code'
    | 'no crash'
    | 'ResourceList'
    | 'build error ⇒ empty stdout'
    | 'no secret'
    | 'same input ⇒ same output'
    | '≤ 10 s'
    | '≤ 1 GB'
    | 'harness';
  mode: Mode;
  detail: string;
}

export const maxMs = 10_000;
export const maxRssBytes = 1024 * 1024 * 1024;
const secretKinds = new Set(['Secret', 'SealedSecret', 'ExternalSecret']);
const credentialKey = /^(apiKey|api_key|api_token|access_token|token|password|passwd|secret)$/;
const generatedFrom = 'llamastack.io/generated-from';

/** At most `n` characters of `text`, escaped so a report stays one line. */
export const excerpt = (text: string, n = 160): string => JSON.stringify(text.length > n ? `${text.slice(0, n)}…` : text);

/** Checks one run of one mode; `secrets` are the markers that sit in secret positions of its input. */
export function checkRun(mode: Mode, out: RunOutput, secrets: readonly string[]): Failure[] {
  const failures: Failure[] = [];
  const fail = (invariant: Failure['invariant'], detail: string): void => void failures.push({ invariant, mode, detail });
  if (out.code === null || ![0, 1, 2].includes(out.code)) fail('exit code', `exit code ${out.code}`);
  for (const [stream, text] of [['stderr', out.stderr], ['stdout', out.stdout]] as const) {
    const crash = crashLine(text);
    if (crash !== undefined) fail('no crash', `${stream}: ${excerpt(crash)}`);
  }
  if (out.ms > maxMs) fail('≤ 10 s', `took ${Math.round(out.ms)} ms`);
  let scanned = out.stderr;
  if (mode === 'krm') {
    const list = parseResourceList(out.stdout);
    if ('problem' in list) fail('ResourceList', `${list.problem}; stdout starts ${excerpt(out.stdout, 80)}`);
    else scanned += `\n${list.scanned}`;
  } else {
    if (out.code === 1 && out.stdout !== '')
      fail('build error ⇒ empty stdout', `exit 1 with ${out.stdout.length} bytes on stdout, starting ${excerpt(out.stdout, 80)}`);
    scanned += `\n${generatedDocuments(out.stdout)}`;
  }
  for (const secret of secrets) {
    for (const form of [secret, Buffer.from(secret).toString('base64')]) {
      const at = scanned.indexOf(form);
      if (at < 0) continue;
      // Around the secret, not from its line's start: KRM output is scanned as one line of JSON.
      const around = scanned.slice(Math.max(0, at - 100), at + form.length + 40);
      fail(
        'no secret',
        `${form === secret ? 'secret' : 'base64 of secret'} ${secret} in ${out.stderr.includes(form) ? 'stderr' : 'output'}: …${excerpt(around, 200)}`,
      );
    }
  }
  return failures;
}

export function checkSame(mode: Mode, a: RunOutput, b: RunOutput): Failure[] {
  for (const key of ['code', 'stdout', 'stderr'] as const) {
    if (a[key] === b[key]) continue;
    const [x, y] = [String(a[key]).split('\n'), String(b[key]).split('\n')];
    const i = x.findIndex((line, n) => line !== y[n]);
    return [
      { invariant: 'same input ⇒ same output', mode, detail: `${key} differs at line ${i + 1}: ${excerpt(x[i] ?? '', 100)} vs ${excerpt(y[i] ?? '', 100)}` },
    ];
  }
  return [];
}

/** A stack frame, an internal error or a JavaScript error name: what a user must never see. */
function crashLine(text: string): string | undefined {
  return /^\s+at .+:\d+:\d+\)?$|^.*internal error.*$|^.*\b(TypeError|RangeError|ReferenceError|Maximum call stack).*$/im.exec(text)?.[0];
}

/** stdout of KRM mode as a ResourceList; what the secret check reads of it: the results and the generated items. */
function parseResourceList(stdout: string): { scanned: string } | { problem: string } {
  const docs = parseAllDocuments(stdout, { uniqueKeys: true });
  if (!Array.isArray(docs) || docs.length !== 1)
    return { problem: `stdout holds ${Array.isArray(docs) ? docs.length : 0} YAML documents, not one ResourceList` };
  const doc = docs[0]!;
  if (doc.errors.length > 0) return { problem: `stdout is not valid YAML: ${doc.errors[0]!.message.split('\n')[0]}` };
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    return { problem: `stdout cannot be read: ${(error as Error).message}` };
  }
  const list = value as { apiVersion?: unknown; kind?: unknown; items?: unknown; results?: unknown } | null;
  if (list?.apiVersion !== 'config.kubernetes.io/v1' || list.kind !== 'ResourceList')
    return { problem: `stdout is a ${excerpt(String(list?.kind))} ${excerpt(String(list?.apiVersion))}, not a config.kubernetes.io/v1 ResourceList` };
  if (!Array.isArray(list.items)) return { problem: 'the ResourceList has no items list' };
  if (list.results !== undefined && !Array.isArray(list.results)) return { problem: 'the ResourceList results are not a list' };
  const generated = list.items.filter((item) => isGenerated(item));
  return { scanned: JSON.stringify([list.results ?? [], generated]) };
}

const isGenerated = (item: unknown): boolean =>
  (item as { metadata?: { annotations?: Record<string, unknown> } } | null)?.metadata?.annotations?.[generatedFrom] !== undefined;

/** The documents of a build stream that llsd-render generated (not the inputs it passes through). */
function generatedDocuments(stdout: string): string {
  return stdout
    .split(/^---$/m)
    .filter((text) => text.includes(generatedFrom))
    .join('\n---\n');
}

// ---------------------------------------------------------------------------------------------

/**
 * The planted markers that are still in a secret position after the mutations: inside a Secret
 * (SealedSecret, ExternalSecret), under a credential key, or as the password of a URL; or nowhere
 * the parser found (a syntax error hid it: no message may quote it then either). A marker a
 * mutation moved into an ordinary field (a byte flip of `kind: Secret`) is the user's text there.
 * Walks the parsed nodes without resolving aliases (a cyclic merge must not hang the check).
 */
export function secretMarkers(text: string, planted: readonly string[]): string[] {
  if (planted.length === 0) return [];
  // Only the documents that hold a marker are parsed (a stream of large documents takes seconds).
  const chunks = text.split(/^(?=---)/m);
  if (chunks.length > 1) {
    const has = (chunk: string, m: string): boolean => chunk.includes(m) || chunk.includes(Buffer.from(m).toString('base64'));
    return planted.filter((m) => {
      const holding = chunks.filter((chunk) => has(chunk, m));
      return holding.length > 0 && holding.every((chunk) => markersIn(chunk, [m]).length === 1);
    });
  }
  return markersIn(text, planted);
}

function markersIn(text: string, planted: readonly string[]): string[] {
  const inSecret = new Set<string>();
  const elsewhere = new Set<string>();
  let docs: ReturnType<typeof parseAllDocuments>;
  try {
    docs = parseAllDocuments(text, { version: '1.1', uniqueKeys: false });
  } catch {
    // Too deep for the parser: every marker still in the text is checked.
    return planted.filter((m) => text.includes(m) || text.includes(Buffer.from(m).toString('base64')));
  }
  const note = (value: string, secret: boolean, key: string | undefined): void => {
    for (const m of planted) {
      if (!value.includes(m) && !value.includes(Buffer.from(m).toString('base64'))) continue;
      const url = new RegExp(`://[^/@\\s]*:${m}@`).test(value);
      (secret || (key !== undefined && credentialKey.test(key)) || url ? inSecret : elsewhere).add(m);
    }
  };
  const walk = (node: unknown, secret: boolean, key: string | undefined, depth: number): void => {
    if (depth > 200 || node === null || node === undefined || isAlias(node)) return;
    if (isScalar(node)) return note(String(node.value), secret, key);
    if (isSeq(node)) return node.items.forEach((item) => walk(item, secret, key, depth + 1));
    if (!isMap(node)) return;
    const kind = node.get('kind');
    const isSecret = secret || (typeof kind === 'string' && secretKinds.has(kind));
    for (const pair of node.items) {
      if (!isPair(pair)) continue;
      const k = isScalar(pair.key) ? String(pair.key.value) : undefined;
      walk(pair.value, isSecret, k, depth + 1);
    }
  };
  for (const doc of Array.isArray(docs) ? docs : []) {
    const root = doc.contents;
    if (isMap(root) && root.get('kind') === 'ResourceList') {
      const items = root.get('items', true);
      if (isSeq(items)) items.items.forEach((item) => walk(item, false, undefined, 0));
      walk(root.get('functionConfig', true), false, undefined, 0);
    } else walk(root, false, undefined, 0);
  }
  return planted.filter((m) => !elsewhere.has(m) && (inSecret.has(m) || text.includes(m) || text.includes(Buffer.from(m).toString('base64'))));
}
