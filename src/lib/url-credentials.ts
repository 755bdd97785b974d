// Credentials written into URLs: found, and left out when a URL is shown in a message.
import { quote } from './quote.js';

/**
 * `http://user:PASS@host` (or `user:PASS@host`, `//user:PASS@host`, whatever the rest): a URL that
 * carries a password; or one whose query names a credential (`?token=…`, `?api_key=…`).
 */
export function urlCredential(value: unknown): 'userinfo' | 'query' | undefined {
  if (typeof value !== 'string') return undefined;
  return userinfoWithPassword.test(value) ? 'userinfo' : credentialQuery.test(value) ? 'query' : undefined;
}
const userinfoWithPassword = /^(?:[a-z][a-z0-9+.-]*:)?(?:\/\/)?[^/@\s:]*:[^/@\s]*@/i;
const credentialQuery = /[?&](?:[a-z0-9_-]*(?:password|passwd|secret|token|api[_-]?key|access[_-]?key|sig|signature))=[^&#]/i;

/** A URL as a message may show it: the user information and the query left out (either may hold a credential). */
export function shownUrl(url: string): string {
  return quote(url.replace(/^((?:[a-z][a-z0-9+.-]*:)?(?:\/\/)?)[^/@\s]*@/i, '$1…@').replace(/\?[^#]*/, '?…'));
}

