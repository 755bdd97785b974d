// auth-header ships no type declarations; this is the part of its API llsd-render uses.
declare module 'auth-header' {
  export interface Challenge {
    scheme: string;
    token: string | string[] | null;
    params: Record<string, string | string[]>;
  }
  export function parse(header: string): Challenge;
  const authHeader: { parse: typeof parse };
  export default authHeader;
}
