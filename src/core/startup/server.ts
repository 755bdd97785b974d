// Startup rules on `server`: the port, the TLS pair, workers, CORS, and the auth provider (its type
// may hang on an env var).
import { isPlainObject } from '../../lib/objects.js';
import { clip, listOf, quote } from '../../lib/quote.js';
import { authProviderTypes } from '../../catalog/catalog.js';
import { firstWith, formOf, problem, type RuleContext, type Severity, type StartupProblem } from './context.js';
import { releaseName } from '../../catalog/versions.js';

const has = (v: unknown): boolean => v !== undefined && v !== null && v !== '';

export function checkServer(ctx: RuleContext): StartupProblem[] {
  const server = ctx.config.server;
  if (server === undefined || server === null) return [];
  if (!isPlainObject(server)) return [problem('error', ['server'], 'server', 'must be a mapping')];
  const out: StartupProblem[] = [];
  const port = server.port;
  if (port !== undefined && port !== null && !(typeof port === 'string' && port.includes('${'))) {
    const n = typeof port === 'number' ? port : typeof port === 'string' && /^\d+$/.test(port.trim()) ? Number(port) : NaN;
    if (!Number.isInteger(n) || n < 1024 || n > 65535) {
      out.push(problem('error', ['server', 'port'], 'server', `${clip(JSON.stringify(port))} is not a port the server accepts: an integer from 1024 to 65535`));
    }
  }
  const cert = server.tls_certfile;
  const key = server.tls_keyfile;
  if (has(cert) !== has(key)) {
    const message = 'is missing: the server needs both tls_certfile and tls_keyfile for HTTPS, or neither';
    out.push(problem('error', ['server', has(cert) ? 'tls_keyfile' : 'tls_certfile'], 'server', message));
  }
  if (has(server.workers) && !ctx.profile.serverWorkers) {
    const message = `is read from ${firstWith((p) => p.serverWorkers)} on; ${releaseName(ctx.release)} ignores it`;
    out.push(problem('warning', ['server', 'workers'], 'server', message, 'ignored-by-release'));
  }
  const cors = server.cors;
  if (isPlainObject(cors) && cors.allow_credentials === true && Array.isArray(cors.allow_origins) && cors.allow_origins.includes('*')) {
    const message = 'a wildcard origin together with allow_credentials is rejected at startup; list the origins';
    out.push(problem('error', ['server', 'cors', 'allow_origins'], 'server', message));
  }
  return [...out, ...authProblems(ctx, server.auth)];
}

function authProblems(ctx: RuleContext, auth: unknown): StartupProblem[] {
  if (!isPlainObject(auth) || auth.provider_config === undefined || auth.provider_config === null) return [];
  const providerConfig = auth.provider_config;
  const path = ['server', 'auth', 'provider_config'];
  if (!isPlainObject(providerConfig)) return [problem('error', path, 'server', 'must be a mapping with `type`')];
  // The auth types of the release's run-config schema; a release without provider_config (0.2.x reads `provider_type`) has none to check.
  const types = authProviderTypes(ctx.catalogRelease);
  if (types.length === 0) return [];
  const raw = providerConfig.type;
  let type: string | undefined;
  let severity: Severity = 'error';
  if (typeof raw === 'string') {
    const form = formOf(ctx, raw);
    if (form.kind === 'literal') type = raw;
    else if (form.kind === 'placeholder' && form.placeholder.op === ':+') {
      type = form.placeholder.text;
      if (!ctx.env.has(form.placeholder.name)) severity = 'warning';
    } else if (form.kind === 'placeholder' && form.placeholder.op === ':=' && !ctx.env.has(form.placeholder.name)) type = form.placeholder.text;
  } else if (raw === undefined || raw === null) {
    return [problem('error', [...path, 'type'], 'server', `is missing: one of ${listOf(types)}`)];
  }
  if (type === undefined || type === '') return [];
  if (!types.includes(type)) {
    const message = `${quote(type)} is not an auth provider type in ${releaseName(ctx.release)}: one of ${listOf(types)}`;
    return [problem(severity, [...path, 'type'], 'server', message, 'env-conditional')];
  }
  if (type === 'oauth2_token') {
    const jwks = has(providerConfig.jwks);
    const introspection = has(providerConfig.introspection);
    if (jwks === introspection) {
      const message = `${jwks ? 'sets both' : 'sets neither of'} \`jwks\` and \`introspection\`: an oauth2_token provider takes exactly one`;
      return [problem(severity, path, 'server', message, 'env-conditional')];
    }
  }
  return [];
}
