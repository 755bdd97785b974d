// A Registry HTTP API v2 client (the OCI distribution spec) for the few calls label extraction
// needs: a manifest by tag or digest, and a blob by digest, on Node's own fetch. Everything read is
// checked against its digest before anyone sees it. Auth follows the 401 challenge: Basic with the
// stored credentials, or Bearer with a token from the challenge's realm (anonymous when there are
// no credentials, as Docker Hub and quay.io allow for public images).
//
// Written here rather than taken from npm: the maintained clients (@snyk/docker-registry-v2-client)
// recompute digests from re-serialised JSON and cannot stream a layer through a digest check, and
// the older ones (docker-registry-client) are unmaintained. The challenge header is parsed with
// `auth-header`; references with `@swimlane/docker-reference`; tar with `tar`.
import { createHash, type Hash } from 'node:crypto';
import authHeader, { type Challenge } from 'auth-header';
import { credentialsFor, type Credentials, type Environment } from './credentials.js';
import { apiHost } from './reference.js';

export const manifestMediaTypes = {
  ociManifest: 'application/vnd.oci.image.manifest.v1+json',
  ociIndex: 'application/vnd.oci.image.index.v1+json',
  dockerManifest: 'application/vnd.docker.distribution.manifest.v2+json',
  dockerList: 'application/vnd.docker.distribution.manifest.list.v2+json',
} as const;
// Both families always: a registry answers an OCI manifest asked for without the OCI type with a
// 404, and turns a Docker one into the old schema 1 (another digest) (real-tools.md §4).
const acceptManifests = Object.values(manifestMediaTypes).join(', ');

/** Why a registry call failed; `kind` lets callers tell a missing image from a broken network. */
export type RegistryErrorKind = 'network' | 'timeout' | 'auth' | 'not-found' | 'integrity' | 'protocol';

export class RegistryError extends Error {
  constructor(
    readonly kind: RegistryErrorKind,
    message: string,
  ) {
    super(message);
  }
}

export interface ClientOptions {
  /** Hosts spoken to over plain HTTP (RenderConfig `registry.insecure`); every other host over HTTPS. */
  insecure: readonly string[];
  /** Each request, its body included, must be done within this. */
  timeoutMs: number;
  env: Environment;
}

export interface Manifest {
  bytes: Buffer;
  mediaType: string;
  digest: string;
}

/** Largest manifest or config blob read into memory; real ones are a few kB (a config with a base64 label, tens of kB). */
const maxDocumentBytes = 8 * 1024 * 1024;

/** One registry host and repository, with the auth it negotiated. */
export class RegistryClient {
  private authorization: string | undefined;
  private readonly base: string;

  constructor(
    readonly host: string,
    readonly repository: string,
    private readonly options: ClientOptions,
  ) {
    const scheme = options.insecure.includes(host) ? 'http' : 'https';
    this.base = `${scheme}://${apiHost(host)}/v2/${repository}`;
  }

  /** The digest a tag (or digest) resolves to, with a HEAD request: no body, no blob. */
  async resolve(reference: string): Promise<string> {
    const response = await this.request('HEAD', `manifests/${reference}`, acceptManifests, `the manifest of ${this.repository}:${reference}`);
    const digest = response.headers.get('docker-content-digest');
    if (digest && /^sha256:[a-f0-9]{64}$/.test(digest)) return digest;
    // Registries need not send the header; the manifest itself tells.
    return (await this.manifest(reference)).digest;
  }

  /** A manifest or index by tag or digest, its bytes checked against the digest asked for or announced. */
  async manifest(reference: string): Promise<Manifest> {
    const what = `the manifest of ${this.repository}${reference.startsWith('sha256:') ? '@' : ':'}${reference}`;
    const response = await this.request('GET', `manifests/${reference}`, acceptManifests, what);
    const bytes = await readBody(response, what, maxDocumentBytes);
    const digest = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
    const expected = reference.startsWith('sha256:') ? reference : (response.headers.get('docker-content-digest') ?? digest);
    if (expected !== digest) throw mismatch(what, this.host, expected, digest);
    const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
    return { bytes, mediaType, digest };
  }

  /** A small blob (an image config) by digest, checked. */
  async blob(digest: string, size?: number): Promise<Buffer> {
    const what = `the blob ${digest} of ${this.repository}`;
    if (size !== undefined && size > maxDocumentBytes) throw new RegistryError('protocol', `${what} is ${size} bytes; an image config is at most ${maxDocumentBytes}`);
    const response = await this.request('GET', `blobs/${digest}`, '*/*', what);
    const bytes = await readBody(response, what, maxDocumentBytes);
    const actual = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
    if (actual !== digest) throw mismatch(what, this.host, digest, actual, size !== undefined && bytes.length < size ? `${bytes.length} of ${size} bytes arrived` : undefined);
    return bytes;
  }

  /**
   * A blob of any size (a layer), streamed to `sink` chunk by chunk; resolves once the whole blob
   * arrived and its digest matched, so the caller trusts what `sink` kept only then.
   */
  async streamBlob(digest: string, sink: (chunk: Buffer) => void): Promise<void> {
    const what = `the layer ${digest} of ${this.repository}`;
    const response = await this.request('GET', `blobs/${digest}`, '*/*', what);
    const hash = createHash('sha256');
    await readChunks(response, what, (chunk) => {
      hash.update(chunk);
      sink(chunk);
    });
    checkDigest(hash, digest, what, this.host);
  }

  private async request(method: 'GET' | 'HEAD', path: string, accept: string, what: string): Promise<Response> {
    let response = await this.send(method, path, accept, what);
    if (response.status === 401 && this.authorization === undefined) {
      this.authorization = await this.negotiate(response, what);
      response = await this.send(method, path, accept, what);
    }
    if (response.ok) return response;
    const detail = method === 'HEAD' ? '' : await errorDetail(response);
    if (response.status === 401 || response.status === 403) {
      throw new RegistryError('auth', `${this.host} refused access to ${what} (HTTP ${response.status}${detail}): ${loginHint(this.host)}`);
    }
    if (response.status === 404) throw new RegistryError('not-found', `${this.host} has no ${what.replace(/^the /, '')} (HTTP 404${detail})`);
    throw new RegistryError('protocol', `${this.host} answered HTTP ${response.status} for ${what}${detail}`);
  }

  private async send(method: string, path: string, accept: string, what: string): Promise<Response> {
    const headers: Record<string, string> = { Accept: accept, 'User-Agent': 'llsd-render' };
    if (this.authorization) headers.Authorization = this.authorization;
    return guard(() => fetch(`${this.base}/${path}`, { method, headers, redirect: 'follow', signal: AbortSignal.timeout(this.options.timeoutMs) }), this.host, what, this.options.timeoutMs);
  }

  /** The Authorization header a 401 challenge asks for. */
  private async negotiate(response: Response, what: string): Promise<string> {
    const header = response.headers.get('www-authenticate') ?? '';
    const credentials = credentialsFor(this.host, this.options.env);
    let challenge: Challenge;
    try {
      challenge = authHeader.parse(header);
    } catch {
      throw new RegistryError('auth', `${this.host} asked for credentials for ${what} with a challenge llsd-render cannot read ("${header.slice(0, 100)}")`);
    }
    const scheme = challenge.scheme.toLowerCase();
    if (scheme === 'basic') {
      if (!credentials) throw new RegistryError('auth', `${this.host} needs credentials for ${what} (HTTP 401) and none are stored for it: ${loginHint(this.host)}`);
      return basic(credentials);
    }
    if (scheme !== 'bearer') throw new RegistryError('auth', `${this.host} asked for ${challenge.scheme} authentication, which llsd-render does not speak (only Basic and Bearer)`);
    const param = (name: string): string | undefined => {
      const value = challenge.params[name];
      return Array.isArray(value) ? value.join(',') : value;
    };
    const realm = param('realm');
    if (!realm) throw new RegistryError('auth', `${this.host} sent a Bearer challenge without a realm`);
    let url: URL;
    try {
      url = new URL(realm);
    } catch {
      throw new RegistryError('auth', `${this.host} sent a Bearer challenge whose realm is not a URL ("${realm.slice(0, 100)}")`);
    }
    const service = param('service');
    if (service) url.searchParams.set('service', service);
    url.searchParams.set('scope', param('scope') ?? `repository:${this.repository}:pull`);
    const headers: Record<string, string> = { 'User-Agent': 'llsd-render' };
    if (credentials) headers.Authorization = basic(credentials);
    const tokenResponse = await guard(() => fetch(url, { headers, signal: AbortSignal.timeout(this.options.timeoutMs) }), url.host, 'a token', this.options.timeoutMs);
    if (tokenResponse.status === 401 || tokenResponse.status === 403) {
      throw new RegistryError(
        'auth',
        `the token service of ${this.host} (${url.host}) refused ${credentials ? 'the stored credentials' : 'anonymous access'} for ${what} (HTTP ${tokenResponse.status}): ${loginHint(this.host)}`,
      );
    }
    if (!tokenResponse.ok) throw new RegistryError('auth', `the token service of ${this.host} (${url.host}) answered HTTP ${tokenResponse.status}`);
    const body = await readBody(tokenResponse, 'a token', 1024 * 1024);
    let token: unknown;
    try {
      const parsed = JSON.parse(body.toString('utf8')) as { token?: unknown; access_token?: unknown };
      token = parsed.token ?? parsed.access_token;
    } catch {
      token = undefined;
    }
    if (typeof token !== 'string' || token === '') throw new RegistryError('auth', `the token service of ${this.host} (${url.host}) sent no token`);
    return `Bearer ${token}`;
  }
}

const basic = (c: Credentials): string => `Basic ${Buffer.from(`${c.username}:${c.password}`).toString('base64')}`;

const loginHint = (host: string): string =>
  `log in with \`podman login ${host}\` or \`docker login ${host}\` (or point REGISTRY_AUTH_FILE at an auth.json that has ${host}), or give the config with \`spec.overrideConfig\``;

function mismatch(what: string, host: string, expected: string, actual: string, note?: string): RegistryError {
  return new RegistryError('integrity', `${what} from ${host} does not match its digest: expected ${expected}, got ${actual}${note ? ` (${note})` : ''}; nothing was cached. A proxy or mirror in between may be altering it`);
}

function checkDigest(hash: Hash, digest: string, what: string, host: string): void {
  const actual = `sha256:${hash.digest('hex')}`;
  if (actual !== digest) throw mismatch(what, host, digest, actual);
}

/** fetch with its failures said plainly: refused, unknown host, timeout, cut off. */
async function guard<T>(call: () => Promise<T>, host: string, what: string, timeoutMs: number): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw networkError(error, host, what, timeoutMs);
  }
}

function networkError(error: unknown, host: string, what: string, timeoutMs: number): RegistryError {
  if (error instanceof RegistryError) return error;
  const e = error as Error & { cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') {
    return new RegistryError('timeout', `${host} did not deliver ${what} within ${timeoutMs / 1000} s (RenderConfig \`registry.timeoutSeconds\`)`);
  }
  const code = e.cause?.code;
  const reason =
    code === 'ECONNREFUSED'
      ? 'connection refused'
      : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
        ? 'the host name does not resolve'
        : code === 'ECONNRESET' || code === 'UND_ERR_SOCKET'
          ? 'the connection was closed'
          : (e.cause?.message ?? e.message);
  // OpenSSL's messages span lines and name source files: keep the words a person can act on.
  if (/wrong version number|packet length too long|http request/i.test(reason)) {
    return new RegistryError('network', `cannot fetch ${what} from ${host}: it does not speak HTTPS; if ${host} serves plain HTTP, list it in RenderConfig \`registry.insecure\``);
  }
  const oneLine = reason.split('\n')[0]?.trim() ?? reason;
  const tlsHint = /ssl|tls|certificate/i.test(oneLine) ? '; set NODE_EXTRA_CA_CERTS to the CA that signed its certificate' : '';
  return new RegistryError('network', `cannot fetch ${what} from ${host}: ${oneLine}${tlsHint}`);
}

async function readChunks(response: Response, what: string, onChunk: (chunk: Buffer) => void, limit = Infinity): Promise<number> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  let received = 0;
  const host = new URL(response.url).host;
  try {
    if (response.body) {
      for await (const chunk of response.body) {
        received += chunk.length;
        if (received > limit) throw new RegistryError('protocol', `${what} from ${host} is larger than ${limit} bytes`);
        onChunk(Buffer.from(chunk));
      }
    }
  } catch (error) {
    if (error instanceof RegistryError) throw error;
    const e = error as Error;
    if (e.name === 'TimeoutError' || e.name === 'AbortError') {
      throw new RegistryError('timeout', `${host} did not deliver ${what} in time (${received} bytes arrived; RenderConfig \`registry.timeoutSeconds\`)`);
    }
    throw new RegistryError('integrity', `${what} from ${host} was cut off after ${received}${Number.isFinite(declared) ? ` of ${declared}` : ''} bytes; nothing was cached`);
  }
  if (Number.isFinite(declared) && received !== declared) {
    throw new RegistryError('integrity', `${what} from ${host} was cut off after ${received} of ${declared} bytes; nothing was cached`);
  }
  return received;
}

async function readBody(response: Response, what: string, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await readChunks(response, what, (chunk) => chunks.push(chunk), limit);
  return Buffer.concat(chunks);
}

/** The registry's own error message (`{"errors": [{"code", "message"}]}`), when it sent one. */
async function errorDetail(response: Response): Promise<string> {
  try {
    const body = JSON.parse((await readBody(response, 'an error', 64 * 1024)).toString('utf8')) as { errors?: Array<{ code?: string; message?: string }> };
    const first = body.errors?.[0];
    return first ? `, ${[first.code, first.message].filter(Boolean).join(': ')}` : '';
  } catch {
    return '';
  }
}
