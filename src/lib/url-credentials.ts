// Credentials written as values: names that say a value is one, and URLs that carry one (found,
// and left out when a URL is shown in a message).
import { quote } from './quote.js';

/**
 * `http://user:PASS@host` (or `user:PASS@host`, `//user:PASS@host`, whatever the rest): a URL that
 * carries a password; or one whose query names a credential (`?token=…`, `?api_key=…`).
 */
export function urlCredential(value: unknown): 'userinfo' | 'query' | undefined {
  if (typeof value !== 'string') return undefined;
  return userinfoWithPassword.test(value) ? 'userinfo' : credentialQuery.test(value) ? 'query' : undefined;
}
// `user:password@`, and a scheme's `//token@` (GitHub-style tokens as the user name).
const userinfoWithPassword = /^(?:(?:[a-z][a-z0-9+.-]*:)?(?:\/\/)?[^/@\s:]*(?::|%3a)[^/@\s]*@|[a-z][a-z0-9+.-]*:\/\/[^/@\s:]+@)/i;
const credentialQuery = /[?&;](?:[a-z0-9_-]*(?:password|passwd|pwd|secret|token|jwt|auth|key|sig|signature))=[^&#]/i;

/** A URL as a message may show it: the user information and the query left out (either may hold a credential). */
export function shownUrl(url: string): string {
  return quote(url.replace(/^((?:[a-z][a-z0-9+.-]*:)?(?:\/\/)?)[^/@\s]*@/i, '$1…@').replace(/\?[^#]*/, '?…'));
}


/**
 * A key or variable name that says its value is a secret, in any case and spelling (`Password`,
 * `client_secret`, `hf_token`, `OPENAI_API_KEY`, `Authorization`, `signing_key`). Plural `tokens`
 * is a count (`max_tokens`), not a credential.
 */
export function isCredentialName(name: string): boolean {
  // Asked of every key of every config (the same few hundred names, LLSD after LLSD): remembered.
  let known = credentialNames.get(name);
  if (known === undefined) {
    const word = name.toLowerCase().replace(/[^a-z0-9]/g, '');
    known = credentialWords.has(word) || credentialName.test(word);
    if (credentialNames.size >= 10_000) credentialNames.clear();
    credentialNames.set(name, known);
  }
  return known;
}
const credentialNames = new Map<string, boolean>();
const credentialWords = new Set(['pwd', 'pat', 'cookie', 'jwt']);
const credentialName =
  /(?:password|passwd|passphrase|secret|secretkey|token|apikey|accesskey|privatekey|signingkey|encryptionkey|sessionkey|masterkey|credentials?|authorization)$/;
