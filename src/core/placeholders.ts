// llama-stack's `${env.…}` placeholders as its `replace_env_vars` finds them (configs/release-notes.yaml
// `envSubstitution`): `${env.X}`, `${env.X:=default}`, `${env.X:+value}` (profile envSyntax
// `bash`), or before 0.2.13 `${env.X:default}` and `${env.X+value}`. Shared by the startup rules
// and the release-schema check.

export interface Placeholder {
  name: string;
  /** '' bare, ':=' default when unset, ':+' value when set. */
  op: '' | ':=' | ':+';
  text: string;
  raw: string;
  index: number;
}

const BASH_PLACEHOLDER = /\$\{env\.([A-Z0-9_]+)(?::([=+])([^}]*))?\}/g;
const OLD_PLACEHOLDER = /\$\{env\.([A-Z0-9_]+)(?:([:+])([^}]*))?\}/g;

const none: readonly Placeholder[] = Object.freeze([]);
const bashCache = new Map<string, readonly Placeholder[]>();
const oldCache = new Map<string, readonly Placeholder[]>();

/**
 * The placeholders of `text`, shared and read-only: the strings of a base config come back in the
 * config of every LLSD, so each is scanned once (the cache is emptied when it grows large).
 */
export function placeholdersIn(text: string, bash = true): readonly Placeholder[] {
  // Most strings have none; a regex scan of each costs a render of many LLSDs noticeably.
  if (!text.includes('${')) return none;
  const cache = bash ? bashCache : oldCache;
  const known = cache.get(text);
  if (known) return known;
  const out: Placeholder[] = [];
  for (const m of text.matchAll(bash ? BASH_PLACEHOLDER : OLD_PLACEHOLDER)) {
    const marker = m[2];
    const op = marker === undefined ? '' : marker === '+' ? ':+' : ':=';
    out.push(Object.freeze({ name: m[1] as string, op, text: m[3] ?? '', raw: m[0], index: m.index }));
  }
  if (cache.size >= 10_000) cache.clear();
  cache.set(text, Object.freeze(out));
  return out;
}
