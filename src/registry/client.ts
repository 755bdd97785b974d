// A Registry HTTP API v2 client (the OCI distribution spec) for the few calls label extraction
// needs: a manifest by tag or digest, and a blob by digest, on Node's own fetch. Everything read is
// checked against its digest before anyone sees it. Auth follows the 401 challenge: Basic with the
// stored credentials, or Bearer with a token from the challenge's realm (anonymous when there are
// no credentials, as Docker Hub and quay.io allow for public images; an identity token is
// exchanged with the OAuth2 refresh-token grant, as docker does).
//
// Written here rather than taken from npm: the maintained client (@snyk/docker-registry-v2-client)
// recomputes digests from re-serialised JSON and cannot stream a layer through a digest check, and
// the older ones (docker-registry-client) are unmaintained. The challenge header is parsed with
// `auth-header`; layers are read with `tar` (lookup.ts).
import authHeader, { type Challenge } from 'auth-header';
import { credentialsFor, type Credentials, type Environment } from './credentials.js';
import { algorithmOf, digestOf, hasherFor } from '../lib/digest.js';
import { apiHost } from '../lib/image-reference.js';

export const manifestMediaTypes = {
  ociManifest: 'application/vnd.oci.image.manifest.v1+json',
  ociIndex: 'application/vnd.oci.image.index.v1+json',
  dockerManifest: 'application/vnd.docker.distribution.manifest.v2+json',
  dockerList: 'application/vnd.docker.distribution.manifest.list.v2+json',
} as const;
// Both families always: a registry answers an OCI manifest asked for without the OCI type with a
// 404, and turns a Docker one into the old schema 1 (another digest), as docker-registry does (test/e2e/registry.test.ts).
const acceptManifests = Object.values(manifestMediaTypes).join(', ');

/**
 * Why a registry call failed: `unavailable` is a 5xx or 429 (try elsewhere or later), `protocol`
 * an answer llsd-render cannot use.
 */
export type RegistryErrorKind = 'network' | 'timeout' | 'deadline' | 'auth' | 'not-found' | 'unavailable' | 'integrity' | 'protocol';

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
  /** How long the registry may take to answer, and to pause while sending a body. */
  timeoutMs: number;
  env: Environment;
  /**
   * Aborted, with a `DeadlineError`, when the whole lookup's time is up (RenderConfig
   * `registry.deadlineSeconds`): every request and body read stops, however steadily bytes arrive.
   */
  deadline?: AbortSignal;
}

/** The reason the `deadline` signal of a lookup is aborted with. */
export class DeadlineError extends Error {
  override name = 'DeadlineError';
}

/** The error of a request or body read stopped by the lookup's deadline; lookup.ts says it in the image's terms. */
const deadlineError = (host: string, what: string): RegistryError =>
  new RegistryError('deadline', `${host} was still sending ${what} when the deadline passed (RenderConfig \`registry.deadlineSeconds\`)`);

export interface Manifest {
  bytes: Buffer;
  /** From Content-Type, else the document's own `mediaType`, else its shape. */
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

  /**
   * The digest a tag resolves to, with a HEAD request (no body, no blob). A registry that does not
   * answer HEAD with the digest is asked with GET, and the manifest it sent is handed on.
   */
  async resolve(tag: string): Promise<{ digest: string; manifest?: Manifest }> {
    const head = await this.request('HEAD', `manifests/${tag}`, acceptManifests, `the manifest of ${this.repository}:${tag}`, true);
    const digest = head?.headers.get('docker-content-digest');
    if (digest && algorithmOf(digest)) return { digest };
    const manifest = await this.manifest(tag);
    return { digest: manifest.digest, manifest };
  }

  /** A manifest or index by tag or digest, its bytes checked against the digest asked for or announced. */
  async manifest(reference: string): Promise<Manifest> {
    const byDigest = algorithmOf(reference) !== undefined;
    const what = `the manifest of ${this.repository}${byDigest ? '@' : ':'}${reference}`;
    const response = (await this.request('GET', `manifests/${reference}`, acceptManifests, what)) as Response;
    const bytes = await this.readBody(response, what, maxDocumentBytes);
    const announced = response.headers.get('docker-content-digest') ?? undefined;
    const expected = byDigest ? reference : announced && algorithmOf(announced) ? announced : undefined;
    const digest = digestOf(bytes, expected ? algorithmOf(expected) : 'sha256');
    if (expected !== undefined && expected !== digest) throw mismatch(what, this.host, expected, digest);
    return { bytes, mediaType: mediaTypeOf(response, bytes), digest };
  }

  /** A small blob (an image config) by digest, checked. */
  async blob(digest: string, size?: number): Promise<Buffer> {
    const what = `the blob ${digest} of ${this.repository}`;
    if (size !== undefined && size > maxDocumentBytes)
      throw new RegistryError('protocol', `${what} is ${size} bytes; an image config is at most ${maxDocumentBytes}`);
    const response = (await this.request('GET', `blobs/${digest}`, '*/*', what)) as Response;
    const bytes = await this.readBody(response, what, maxDocumentBytes);
    const actual = digestOf(bytes, algorithmOf(digest));
    if (actual !== digest)
      throw mismatch(what, this.host, digest, actual, size !== undefined && bytes.length < size ? `${bytes.length} of ${size} bytes arrived` : undefined);
    return bytes;
  }

  /**
   * A blob of any size (a layer), streamed to `sink` chunk by chunk; resolves once the whole blob
   * arrived and its digest matched, so the caller trusts what `sink` kept only then. An error
   * thrown by `sink` ends the download as a `protocol` error with its message.
   */
  async streamBlob(digest: string, sink: (chunk: Buffer) => void): Promise<void> {
    const what = `the layer ${digest} of ${this.repository}`;
    const response = (await this.request('GET', `blobs/${digest}`, '*/*', what)) as Response;
    const { hash, algorithm } = hasherFor(algorithmOf(digest));
    await this.readChunks(response, what, (chunk) => {
      hash.update(chunk);
      sink(chunk);
    });
    const actual = `${algorithm}:${hash.digest('hex')}`;
    if (actual !== digest) throw mismatch(what, this.host, digest, actual);
  }

  /**
   * One request, with auth negotiated on a 401 (again once if a token expired on the way).
   * `optional`: a HEAD whose failure (other than auth or 404) leaves the caller to try GET.
   */
  private async request(method: 'GET' | 'HEAD', path: string, accept: string, what: string, optional = false): Promise<Response | undefined> {
    let response = await this.send(method, path, accept, what);
    for (let attempt = 0; response.status === 401 && attempt < 2; attempt++) {
      const before = this.authorization;
      this.authorization = await this.negotiate(response, what);
      if (before !== undefined && before === this.authorization) break;
      response = await this.send(method, path, accept, what);
    }
    if (response.ok) return response;
    const detail = method === 'HEAD' ? '' : await this.errorDetail(response);
    if (response.status === 401 || response.status === 403) {
      throw new RegistryError('auth', `${this.host} refused access to ${what} (HTTP ${response.status}${detail}): ${loginHint(this.host)}`);
    }
    if (response.status === 404) throw new RegistryError('not-found', `${this.host} has no ${what.replace(/^the /, '')} (HTTP 404${detail})`);
    if (optional) return undefined;
    const kind = response.status >= 500 || response.status === 429 ? 'unavailable' : 'protocol';
    throw new RegistryError(kind, `${this.host} answered HTTP ${response.status} for ${what}${detail}`);
  }

  /**
   * fetch with the time limit on the answer (headers); the body has its own limit per pause
   * (readChunks), so a large layer may take as long as it needs while it keeps arriving.
   */
  private async send(method: string, path: string, accept: string, what: string): Promise<Response> {
    // `identity`: fetch would otherwise ask for gzip and decode it, and then neither the length
    // nor (for a blob served compressed) the digest could be checked against what was sent.
    const headers: Record<string, string> = { Accept: accept, 'Accept-Encoding': 'identity', 'User-Agent': 'llsd-render' };
    if (this.authorization) headers.Authorization = this.authorization;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new TimeoutError()), this.options.timeoutMs);
    // The response's body is read under the same controller (readChunks): the deadline stops both.
    follow(this.options.deadline, controller);
    try {
      const response = await fetch(`${this.base}/${path}`, { method, headers, redirect: 'follow', signal: controller.signal });
      clearTimeout(timer);
      controllers.set(response, controller);
      return response;
    } catch (error) {
      clearTimeout(timer);
      if (controller.signal.reason instanceof DeadlineError) throw deadlineError(this.host, what);
      throw networkError(error, this.host, what, this.options.timeoutMs);
    }
  }

  /** The Authorization header a 401 challenge asks for. */
  private async negotiate(response: Response, what: string): Promise<string> {
    const header = response.headers.get('www-authenticate') ?? '';
    const credentials = credentialsFor(this.host, this.repository, this.options.env);
    let challenge: Challenge;
    try {
      challenge = authHeader.parse(header);
    } catch {
      throw new RegistryError('auth', `${this.host} asked for credentials for ${what} with a challenge llsd-render cannot read ("${header.slice(0, 100)}")`);
    }
    const scheme = challenge.scheme.toLowerCase();
    if (scheme === 'basic') {
      if (!credentials || credentials.identityToken !== undefined) {
        throw new RegistryError('auth', `${this.host} needs credentials for ${what} (HTTP 401) and none are stored for it: ${loginHint(this.host)}`);
      }
      return basic(credentials);
    }
    if (scheme !== 'bearer')
      throw new RegistryError('auth', `${this.host} asked for ${challenge.scheme} authentication, which llsd-render does not speak (only Basic and Bearer)`);
    const param = (name: string): string | undefined => {
      const value = challenge.params[name];
      return Array.isArray(value) ? value.join(',') : value;
    };
    const realm = param('realm');
    let url: URL;
    try {
      url = new URL(realm ?? '');
    } catch {
      throw new RegistryError('auth', `${this.host} sent a Bearer challenge whose realm is not a URL ("${(realm ?? '').slice(0, 100)}")`);
    }
    const service = param('service');
    const scope = param('scope') ?? `repository:${this.repository}:pull`;
    const token =
      credentials?.identityToken !== undefined
        ? await this.refreshToken(url, service, scope, credentials.identityToken)
        : await this.fetchToken(url, service, scope, credentials, what);
    return `Bearer ${token}`;
  }

  /** GET the realm with Basic credentials (or none): the token flow of the distribution spec. */
  private async fetchToken(url: URL, service: string | undefined, scope: string, credentials: Credentials | undefined, what: string): Promise<string> {
    if (service) url.searchParams.set('service', service);
    url.searchParams.set('scope', scope);
    const headers: Record<string, string> = { 'User-Agent': 'llsd-render', 'Accept-Encoding': 'identity' };
    if (credentials) headers.Authorization = basic(credentials);
    const response = await this.tokenRequest(url, { headers });
    if (response.status === 401 || response.status === 403) {
      throw new RegistryError(
        'auth',
        `the token service of ${this.host} (${url.host}) refused ${credentials ? 'the stored credentials' : 'anonymous access'} for ${what} (HTTP ` +
          `${response.status}): ${loginHint(this.host)}`,
      );
    }
    return this.tokenFrom(response, url, ['token', 'access_token']);
  }

  /** An identity token (docker login to Azure and others) exchanged with the OAuth2 refresh-token grant. */
  private async refreshToken(url: URL, service: string | undefined, scope: string, identityToken: string): Promise<string> {
    const body = new URLSearchParams({
      grant_type: 'refresh_token',
      client_id: 'llsd-render',
      refresh_token: identityToken,
      scope,
      ...(service && { service }),
    });
    const response = await this.tokenRequest(url, {
      method: 'POST',
      body,
      headers: { 'User-Agent': 'llsd-render', 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    if (response.status === 401 || response.status === 403) {
      throw new RegistryError(
        'auth',
        `the token service of ${this.host} (${url.host}) refused the stored identity token (HTTP ${response.status}): ${loginHint(this.host)}`,
      );
    }
    return this.tokenFrom(response, url, ['access_token', 'token']);
  }

  private async tokenRequest(url: URL, init: RequestInit): Promise<Response> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new TimeoutError()), this.options.timeoutMs);
    follow(this.options.deadline, controller);
    try {
      const response = await fetch(url, { ...init, signal: controller.signal });
      controllers.set(response, controller);
      return response;
    } catch (error) {
      if (controller.signal.reason instanceof DeadlineError) throw deadlineError(url.host, 'a token');
      throw networkError(error, url.host, 'a token', this.options.timeoutMs);
    } finally {
      clearTimeout(timer);
    }
  }

  private async tokenFrom(response: Response, url: URL, keys: readonly string[]): Promise<string> {
    if (!response.ok) throw new RegistryError('auth', `the token service of ${this.host} (${url.host}) answered HTTP ${response.status}`);
    let token: unknown;
    try {
      const parsed = JSON.parse((await this.readBody(response, 'a token', 1024 * 1024)).toString('utf8')) as Record<string, unknown>;
      token = keys.map((k) => parsed[k]).find((v) => typeof v === 'string' && v !== '');
    } catch {
      token = undefined;
    }
    if (typeof token !== 'string') throw new RegistryError('auth', `the token service of ${this.host} (${url.host}) sent no token`);
    return token;
  }

  /** The body in chunks, each pause limited by the timeout; a body cut short is an integrity error. */
  private async readChunks(response: Response, what: string, onChunk: (chunk: Buffer) => void, limit = Infinity): Promise<void> {
    // A body the server compressed anyway is decoded by fetch: its Content-Length is not the length read.
    const declared = response.headers.get('content-encoding') ? Number.NaN : Number(response.headers.get('content-length') ?? Number.NaN);
    const host = new URL(response.url || this.base).host;
    const controller = controllers.get(response);
    let received = 0;
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => controller?.abort(new TimeoutError()), this.options.timeoutMs);
    };
    try {
      arm();
      if (response.body) {
        for await (const chunk of response.body) {
          arm();
          received += chunk.length;
          if (received > limit) throw new RegistryError('protocol', `${what} from ${host} is larger than ${limit} bytes`);
          try {
            onChunk(Buffer.from(chunk));
          } catch (error) {
            throw error instanceof RegistryError ? error : new RegistryError('protocol', `cannot use ${what} from ${host}: ${(error as Error).message}`);
          }
        }
      }
    } catch (error) {
      if (error instanceof RegistryError) throw error;
      if (controller?.signal.reason instanceof DeadlineError) throw deadlineError(host, what);
      if (controller?.signal.reason instanceof TimeoutError) {
        throw new RegistryError(
          'timeout',
          `${host} stopped sending ${what} for ${this.options.timeoutMs / 1000} s after ${received} bytes (RenderConfig \`registry.timeoutSeconds\`)`,
        );
      }
      throw new RegistryError(
        'integrity',
        `${what} from ${host} was cut off after ${received}${Number.isFinite(declared) ? ` of ${declared}` : ''} bytes; nothing was cached`,
      );
    } finally {
      clearTimeout(timer);
    }
    if (Number.isFinite(declared) && received !== declared) {
      throw new RegistryError('integrity', `${what} from ${host} was cut off after ${received} of ${declared} bytes; nothing was cached`);
    }
  }

  private async readBody(response: Response, what: string, limit: number): Promise<Buffer> {
    const chunks: Buffer[] = [];
    await this.readChunks(response, what, (chunk) => chunks.push(chunk), limit);
    return Buffer.concat(chunks);
  }

  /** The registry's own error message (`{"errors": [{"code", "message"}]}`), when it sent one. */
  private async errorDetail(response: Response): Promise<string> {
    try {
      const body = JSON.parse((await this.readBody(response, 'an error', 64 * 1024)).toString('utf8')) as {
        errors?: Array<{ code?: string; message?: string }>;
      };
      const first = body.errors?.[0];
      return first ? `, ${[first.code, first.message].filter(Boolean).join(': ')}` : '';
    } catch {
      return '';
    }
  }
}

/** Why a request was aborted by our own timer (as opposed to a connection failure). */
class TimeoutError extends Error {
  override name = 'TimeoutError';
}

/** The abort controller of each response, so reading its body can be limited too. */
const controllers = new WeakMap<Response, AbortController>();

/** Aborts `controller` when `deadline` is (or already was) aborted, with the deadline's reason. */
function follow(deadline: AbortSignal | undefined, controller: AbortController): void {
  if (!deadline) return;
  if (deadline.aborted) controller.abort(deadline.reason);
  else deadline.addEventListener('abort', () => controller.abort(deadline.reason), { once: true, signal: controller.signal });
}

/** The media type of a manifest: Content-Type, else the document's `mediaType`, else its shape (registries may send application/json). */
function mediaTypeOf(response: Response, bytes: Buffer): string {
  const header = (response.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
  if ((Object.values(manifestMediaTypes) as string[]).includes(header)) return header;
  try {
    const doc = JSON.parse(bytes.toString('utf8')) as { mediaType?: unknown; manifests?: unknown; config?: unknown; layers?: unknown };
    if (typeof doc.mediaType === 'string') return doc.mediaType;
    if (Array.isArray(doc.manifests)) return manifestMediaTypes.ociIndex;
    if (doc.config !== undefined && Array.isArray(doc.layers)) return manifestMediaTypes.ociManifest;
  } catch {
    // Not JSON: the header is all there is.
  }
  return header;
}

const basic = (c: Credentials): string => `Basic ${Buffer.from(`${c.username}:${c.password}`).toString('base64')}`;

const loginHint = (host: string): string =>
  `log in with \`podman login ${host}\` or \`docker login ${host}\` (or point REGISTRY_AUTH_FILE at an auth.json that has ${host}), or give the config with ` +
    `\`spec.overrideConfig\``;

function mismatch(what: string, host: string, expected: string, actual: string, note?: string): RegistryError {
  return new RegistryError(
    'integrity',
    `${what} from ${host} does not match its digest: expected ${expected}, got ${actual}${note ? ` (${note})` : ''}; nothing was cached. A proxy or mirror ` +
      `in between may be altering it`,
  );
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
    return new RegistryError(
      'network',
      `cannot fetch ${what} from ${host}: it does not speak HTTPS; if ${host} serves plain HTTP, list it in RenderConfig \`registry.insecure\``,
    );
  }
  const oneLine = reason.split('\n')[0]?.trim() ?? reason;
  const tlsHint = /ssl|tls|certificate/i.test(oneLine) ? '; set NODE_EXTRA_CA_CERTS to the CA that signed its certificate' : '';
  return new RegistryError('network', `cannot fetch ${what} from ${host}: ${oneLine}${tlsHint}`);
}
