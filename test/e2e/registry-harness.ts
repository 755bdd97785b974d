// A real OCI registry for the e2e tests: Debian's docker-registry 2.8.2 on 127.0.0.1, images pushed
// with buildah, labels rewritten over the Registry HTTP API v2, and a recording proxy that can break
// the traffic on purpose (slow, broken or refused answers). Everything runs on
// loopback with no TLS; a missing tool fails with the way to install it, never skips.
//
// Commands that may talk to a server of this process (buildah push through the token server or the
// proxy) run with an asynchronous spawn: a spawnSync would block the event loop and deadlock.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, createPrivateKey, randomBytes, randomUUID, sign, X509Certificate, type KeyObject } from 'node:crypto';
import { accessSync, constants, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import {
  createServer as createHttpServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { stringify } from 'yaml';
import { describeRun, run, type RunResult } from './tools.js';

// ---------------------------------------------------------------------------------------------
// Types

/** Credentials a registry demands: htpasswd (HTTP Basic) or a Bearer token from a token server. */
export type RegistryAuth =
  | { kind: 'htpasswd'; user: string; password: string }
  /** `jwtHeader` picks how the JWT names its signing key: `x5c` (default, the certificate) or `kid` (libtrust key id). */
  | { kind: 'token'; user: string; password: string; jwtHeader?: 'x5c' | 'kid' };

export interface StartRegistryOptions {
  auth?: RegistryAuth;
}

/** One request the token server answered. */
export interface TokenRequest {
  /** The user of the HTTP Basic credentials, if any were sent. */
  user: string | undefined;
  service: string | null;
  /** Every `scope` parameter, as sent. */
  scopes: string[];
  status: number;
}

/** A running docker-registry. */
export interface Registry {
  /** `127.0.0.1:PORT`, for image references. */
  host: string;
  /** `http://127.0.0.1:PORT`. */
  url: string;
  /** The registry's filesystem storage. */
  dataDir: string;
  /** The credentials it demands, if any. */
  auth: RegistryAuth | undefined;
  /** Token auth only: the realm (`http://127.0.0.1:TOKENPORT/token`) and service of the Bearer challenge. */
  token: { realm: string; service: string; issuer: string } | undefined;
  /** Requests the token server answered (always empty without token auth). */
  tokenRequests: TokenRequest[];
  /** What the registry printed so far (log level warn). */
  log(): string;
  /** Kills the registry (and its token server) and waits for it to exit. Safe to call twice. */
  stop(): Promise<void>;
}

export interface Platform {
  architecture: string;
  os: string;
  variant?: string;
}

export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  platform?: Platform;
  annotations?: Record<string, string>;
}

export interface ImageManifest {
  schemaVersion: number;
  mediaType?: string;
  config: Descriptor;
  layers: Descriptor[];
  annotations?: Record<string, string>;
}

export interface ImageIndex {
  schemaVersion: number;
  mediaType?: string;
  manifests: Descriptor[];
}

/** What goes into one image built from scratch. */
export interface ImageSpec {
  labels?: Record<string, string>;
  /** Absolute path in the image (e.g. `/app/config.yaml`) → content. All files end up in one layer. */
  files?: Record<string, string>;
  /** Default amd64. */
  arch?: string;
  /** Default linux. */
  os?: string;
}

export interface PushImageOptions extends ImageSpec {
  /** E.g. `demo/app`. */
  repository: string;
  tag: string;
  /** Manifest format pushed; default oci. */
  format?: 'oci' | 'v2s2';
}

/** An image as the registry serves it. */
export interface PushedImage {
  /** `HOST/REPO:TAG`. */
  reference: string;
  /** The manifest digest the registry reports (Docker-Content-Digest). */
  digest: string;
  manifest: ImageManifest;
  mediaType: string;
  configDigest: string;
  /** Layer digests, in order. */
  layers: string[];
}

export interface PushIndexOptions {
  repository: string;
  tag: string;
  /** One image per platform. */
  images: Array<ImageSpec & { arch: string }>;
  /** oci: OCI image index (default); v2s2: Docker manifest list of Docker schema 2 images. */
  format?: 'oci' | 'v2s2';
}

export interface PushedIndex {
  reference: string;
  digest: string;
  mediaType: string;
  index: ImageIndex;
  manifests: Array<{ digest: string; mediaType: string; platform: Platform }>;
}

export interface PutLabelsOptions {
  repository: string;
  fromTag: string;
  toTag: string;
  labels: Record<string, string>;
}

export type ProxyMode = 'pass' | 'truncate-blobs' | 'corrupt-blobs' | 'corrupt-manifests' | 'slow';

export interface ProxyOptions {
  mode?: ProxyMode;
  /** Delay of the `slow` mode; default 5000 ms. */
  delayMs?: number;
}

/** One request through the proxy; `status` is 0 until the registry has answered (502 if it could not be reached). */
export interface ProxyRequest {
  method: string;
  /** Path and query, as the client sent them. */
  path: string;
  status: number;
}

/** A recording HTTP proxy in front of a registry. */
export interface Proxy {
  host: string;
  url: string;
  requests: ProxyRequest[];
  readonly mode: ProxyMode;
  /** `only`: fault only requests whose path contains it (e.g. one layer's digest). */
  setMode(mode: ProxyMode, delayMs?: number, only?: string): void;
  stop(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// Media types

/** The manifest media types the registry serves. */
export const mediaTypes = {
  ociManifest: 'application/vnd.oci.image.manifest.v1+json',
  ociIndex: 'application/vnd.oci.image.index.v1+json',
  dockerManifest: 'application/vnd.docker.distribution.manifest.v2+json',
  dockerList: 'application/vnd.docker.distribution.manifest.list.v2+json',
} as const;

/**
 * The Accept header for manifests: always both OCI and Docker types. docker-registry 2.8 answers 404 for an
 * OCI manifest without the OCI type, and downgrades a Docker one to schema 1 (another digest) without the Docker type.
 */
export const manifestAccept = [mediaTypes.ociManifest, mediaTypes.dockerManifest, mediaTypes.ociIndex, mediaTypes.dockerList].join(', ');

// ---------------------------------------------------------------------------------------------
// Tools and processes

const toolHints: Record<string, string> = {
  'docker-registry': 'install the Debian packages: apt-get install docker-registry buildah (`npm run test:prereqs` installs them)',
  buildah: 'install the Debian packages: apt-get install docker-registry buildah (`npm run test:prereqs` installs them)',
  python3: 'install the Debian package python3 (apt-get install python3); it makes the htpasswd bcrypt hash',
  openssl: 'install the Debian package openssl (apt-get install openssl); it makes the token signing key and certificate',
};

/**
 * Fails (never skips) unless docker-registry, buildah, python3 and openssl are on PATH (or `path`),
 * saying how to get them.
 */
export function requireRegistryTools(path = process.env.PATH ?? ''): void {
  const missing = Object.keys(toolHints).filter((name) => !onPath(name, path));
  if (missing.length > 0) {
    throw new Error(missing.map((name) => `${name} not found on PATH: ${toolHints[name]}`).join('\n'));
  }
}

function onPath(name: string, path: string): boolean {
  return path.split(delimiter).some((dir) => {
    if (!dir) return false;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return statSync(join(dir, name)).isFile();
    } catch {
      return false;
    }
  });
}

/**
 * Runs argv[2:] with PR_SET_PDEATHSIG = SIGKILL (kept across exec, same PID), so the kernel kills the
 * registry when the process that started it dies. Needed because vitest ends its fork workers with a
 * signal, and then no 'exit' handler runs (a registry leaked that way while writing this harness).
 */
const deathSignalLauncher = [
  'import ctypes, os, signal, sys',
  'ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)',
  'if os.getppid() != int(sys.argv[1]): sys.exit("parent already gone")',
  'os.execvp(sys.argv[2], sys.argv[2:])',
].join('\n');

/** Every registry process still running; killed when this process exits normally (the PDEATHSIG launcher covers signals). */
const liveChildren = new Set<ChildProcess>();
let exitHookInstalled = false;
function track(child: ChildProcess): void {
  liveChildren.add(child);
  child.once('exit', () => liveChildren.delete(child));
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const c of liveChildren) c.kill('SIGKILL');
    });
  }
}

/** Runs a command asynchronously (no shell), capturing its output; killed after `timeoutMs`. */
export function runAsync(
  command: string,
  args: readonly string[],
  options: { timeoutMs?: number; env?: Record<string, string | undefined> } = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      stderr += `\n[killed after ${options.timeoutMs ?? 60_000} ms]`;
      child.kill('SIGKILL');
    }, options.timeoutMs ?? 60_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`could not run ${command} ${args.join(' ')}: ${error.message}`));
    });
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

/** runAsync that throws (with the output) unless the command exits 0. */
async function mustRun(command: string, args: readonly string[], options: { timeoutMs?: number } = {}): Promise<RunResult> {
  const result = await runAsync(command, args, options);
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${describeRun(result)}`);
  return result;
}

/** A port nothing listened on a moment ago (listen on port 0, close). */
async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** `127.0.0.1:PORT` where nothing listens, for connection-refused tests. */
export async function closedPort(): Promise<string> {
  return `127.0.0.1:${await freePort()}`;
}

async function listenHttp(server: Server): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

async function closeHttp(server: Server): Promise<void> {
  if (!server.listening) return;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  await closed;
}

// ---------------------------------------------------------------------------------------------
// Registry

const tokenService = 'test-registry';
const tokenIssuer = 'test-issuer';

/**
 * Starts docker-registry on a free 127.0.0.1 port with its own config and storage in a temporary
 * directory, optionally with htpasswd or token (Bearer) auth, and waits until `GET /v2/` answers.
 */
export async function startRegistry(options: StartRegistryOptions = {}): Promise<Registry> {
  requireRegistryTools();
  const dir = mkdtempSync(join(tmpdir(), 'llsd-registry-'));
  const dataDir = join(dir, 'data');
  mkdirSync(dataDir);
  const auth = options.auth;
  const tokenRequests: TokenRequest[] = [];
  let tokenServer: Server | undefined;
  let token: Registry['token'];
  let authConfig: Record<string, unknown> | undefined;

  try {
    if (auth?.kind === 'htpasswd') {
      const hash = run(
        'python3',
        ['-W', 'ignore', '-c', 'import crypt, os; print(crypt.crypt(os.environ["PW"], crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=16)))'],
        {
          env: { PW: auth.password },
        },
      );
      if (hash.status !== 0 || !hash.stdout.startsWith('$2'))
        throw new Error(`python3 could not make a bcrypt hash (${toolHints.python3}): ${describeRun(hash)}`);
      const htpasswd = join(dir, 'htpasswd');
      writeFileSync(htpasswd, `${auth.user}:${hash.stdout.trim()}\n`);
      authConfig = { htpasswd: { realm: 'basic-realm', path: htpasswd } };
    } else if (auth?.kind === 'token') {
      const keyPath = join(dir, 'token-key.pem');
      const certPath = join(dir, 'token-cert.pem');
      const openssl = run('openssl', [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        keyPath,
        '-out',
        certPath,
        '-days',
        '2',
        '-subj',
        `/CN=${tokenIssuer}`,
      ]);
      if (openssl.status !== 0) throw new Error(`openssl could not make the token key and certificate (${toolHints.openssl}): ${describeRun(openssl)}`);
      const signer = { key: createPrivateKey(readFileSync(keyPath)), cert: new X509Certificate(readFileSync(certPath)) };
      tokenServer = createHttpServer((req, res) => answerToken(req, res, auth, signer, tokenRequests));
      const realm = `http://127.0.0.1:${await listenHttp(tokenServer)}/token`;
      token = { realm, service: tokenService, issuer: tokenIssuer };
      authConfig = { token: { realm, service: tokenService, issuer: tokenIssuer, rootcertbundle: certPath } };
    }

    const failures: string[] = [];
    for (let attempt = 1; attempt <= 5; attempt++) {
      const port = await freePort();
      const configPath = join(dir, 'config.yml');
      writeFileSync(
        configPath,
        stringify({
          version: 0.1,
          log: { level: 'warn', accesslog: { disabled: true } },
          storage: { filesystem: { rootdirectory: dataDir }, delete: { enabled: true } },
          http: { addr: `127.0.0.1:${port}`, secret: randomBytes(16).toString('hex') },
          ...(authConfig ? { auth: authConfig } : {}),
        }),
      );
      let output = '';
      const child = spawn('python3', ['-c', deathSignalLauncher, String(process.pid), 'docker-registry', 'serve', configPath], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      track(child);
      child.stdout.setEncoding('utf8').on('data', (d: string) => (output += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (output += d));
      let exited = false;
      const exit = new Promise<void>((resolve) => {
        child.once('error', (error) => {
          output += `\nspawn failed: ${error.message}`;
          exited = true;
          resolve();
        });
        child.once('exit', () => {
          exited = true;
          resolve();
        });
      });
      const stopChild = async (): Promise<void> => {
        if (!exited) {
          child.kill('SIGTERM');
          const killer = setTimeout(() => child.kill('SIGKILL'), 3000);
          await exit;
          clearTimeout(killer);
        }
      };

      const url = `http://127.0.0.1:${port}`;
      if (await waitForV2(url, () => exited)) {
        let stopped = false;
        return {
          host: `127.0.0.1:${port}`,
          url,
          dataDir,
          auth,
          token,
          tokenRequests,
          log: () => output,
          stop: async () => {
            if (stopped) return;
            stopped = true;
            await stopChild();
            if (tokenServer) await closeHttp(tokenServer);
            rmSync(dir, { recursive: true, force: true });
          },
        };
      }
      await stopChild();
      failures.push(`attempt ${attempt} on port ${port}:\n${output}`);
    }
    throw new Error(`docker-registry did not answer GET /v2/ within 10 s (${toolHints['docker-registry']}). Its log:\n${failures.join('\n')}`);
  } catch (error) {
    if (tokenServer) await closeHttp(tokenServer);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** Polls `GET /v2/` every 20 ms for up to 10 s; true once it answers 200 or 401. */
async function waitForV2(url: string, hasExited: () => boolean): Promise<boolean> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && !hasExited()) {
    try {
      const res = await fetch(`${url}/v2/`, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      if (res.status === 200 || res.status === 401) return true;
    } catch {
      // not listening yet
    }
    await sleep(20);
  }
  return false;
}

/**
 * The token server: `GET /token?service=...&scope=repository:NAME:pull,push` with HTTP Basic
 * credentials answers an RS256 JWT granting the requested scopes.
 *
 * docker-registry 2.8.2 accepts the JWT header `{"typ":"JWT","alg":"RS256","x5c":[<base64 DER cert>]}`:
 * it verifies the chain against `rootcertbundle` (a self-signed certificate is its own root). It also
 * accepts `kid` = the libtrust key id of the certificate's public key instead of x5c (see `libtrustKeyId`).
 */
function answerToken(
  req: IncomingMessage,
  res: ServerResponse,
  auth: RegistryAuth,
  signer: { key: KeyObject; cert: X509Certificate },
  log: TokenRequest[],
): void {
  const url = new URL(req.url ?? '/', 'http://token');
  const scopes = url.searchParams.getAll('scope');
  const credentials = parseBasic(req.headers.authorization);
  const entry: TokenRequest = { user: credentials?.user, service: url.searchParams.get('service'), scopes, status: 0 };
  log.push(entry);
  const reply = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
    entry.status = status;
    res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  if (req.method !== 'GET' || url.pathname !== '/token') return reply(404, { errors: [{ code: 'NOT_FOUND', message: `no ${req.method} ${url.pathname}` }] });
  if (!credentials || credentials.user !== auth.user || credentials.password !== auth.password) {
    return reply(401, { errors: [{ code: 'UNAUTHORIZED', message: 'wrong or missing credentials' }] }, { 'WWW-Authenticate': 'Basic realm="token-server"' });
  }
  const access = scopes
    .flatMap((s) => s.split(' '))
    .filter(Boolean)
    .map(parseScope);
  const now = Math.floor(Date.now() / 1000);
  const jwt = signJwt(
    auth.kind === 'token' && auth.jwtHeader === 'kid'
      ? { typ: 'JWT', alg: 'RS256', kid: libtrustKeyId(signer.cert) }
      : { typ: 'JWT', alg: 'RS256', x5c: [signer.cert.raw.toString('base64')] },
    { iss: tokenIssuer, sub: auth.user, aud: tokenService, exp: now + 300, nbf: now - 10, iat: now, jti: randomUUID(), access },
    signer.key,
  );
  reply(200, { token: jwt, access_token: jwt, expires_in: 300, issued_at: new Date(now * 1000).toISOString() });
}

/** `repository:demo/app:pull,push` → `{type, name, actions}` (the name may itself contain ':'). */
function parseScope(scope: string): { type: string; name: string; actions: string[] } {
  const first = scope.indexOf(':');
  const last = scope.lastIndexOf(':');
  if (first < 0 || last === first) return { type: scope, name: '', actions: [] };
  return { type: scope.slice(0, first), name: scope.slice(first + 1, last), actions: scope.slice(last + 1).split(',').filter(Boolean) };
}

function signJwt(header: Record<string, unknown>, claims: Record<string, unknown>, key: KeyObject): string {
  const input = `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  return `${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`;
}

/**
 * The libtrust key id docker-registry uses for `kid`: base32 of the first 240 bits of the sha256 of the
 * DER (SPKI) public key, in 12 groups of 4 characters separated by ':'.
 */
export function libtrustKeyId(cert: X509Certificate): string {
  const der = cert.publicKey.export({ type: 'spki', format: 'der' });
  const b32 = base32(createHash('sha256').update(der).digest().subarray(0, 30));
  return b32.match(/.{1,4}/g)?.join(':') ?? '';
}

function base32(bytes: Buffer): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}

function parseBasic(header: string | undefined): { user: string; password: string } | undefined {
  const match = /^Basic\s+(\S+)$/i.exec(header ?? '');
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

// ---------------------------------------------------------------------------------------------
// HTTP API v2 with auth

/**
 * The Authorization header value for `repository` with `actions` on this registry: Basic for
 * htpasswd, a Bearer token from the token server for token auth, undefined without auth.
 */
export async function authorization(registry: Registry, repository: string, actions: readonly string[] = ['pull']): Promise<string | undefined> {
  const auth = registry.auth;
  if (!auth) return undefined;
  const basic = `Basic ${Buffer.from(`${auth.user}:${auth.password}`).toString('base64')}`;
  if (auth.kind === 'htpasswd' || !registry.token) return basic;
  const url = new URL(registry.token.realm);
  url.searchParams.set('service', registry.token.service);
  url.searchParams.set('scope', `repository:${repository}:${actions.join(',')}`);
  const res = await fetch(url, { headers: { Authorization: basic } });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`token server answered ${res.status} for ${url.toString()}: ${text}`);
  return `Bearer ${(JSON.parse(text) as { token: string }).token}`;
}

/** A manifest (image, index or list) as the registry serves it to a client accepting OCI and Docker types. */
export async function getManifest(
  registry: Registry,
  repository: string,
  reference: string,
): Promise<{ digest: string; mediaType: string; bytes: Buffer; json: unknown }> {
  const headers: Record<string, string> = { Accept: manifestAccept };
  const authz = await authorization(registry, repository, ['pull']);
  if (authz) headers.Authorization = authz;
  const url = `${registry.url}/v2/${repository}/manifests/${reference}`;
  const head = await fetch(url, { method: 'HEAD', headers });
  if (head.status !== 200) throw new Error(`HEAD ${url} answered ${head.status}`);
  const res = await fetch(url, { headers });
  const bytes = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${bytes.toString('utf8')}`);
  const digest = head.headers.get('docker-content-digest') ?? '';
  if (digest !== `sha256:${sha256(bytes)}`)
    throw new Error(`GET ${url}: Docker-Content-Digest ${digest} is not the sha256 of the body (sha256:${sha256(bytes)})`);
  return { digest, mediaType: res.headers.get('content-type') ?? '', bytes, json: JSON.parse(bytes.toString('utf8')) };
}

/** A blob's bytes, checked against its digest. */
export async function getBlob(registry: Registry, repository: string, digest: string): Promise<Buffer> {
  const headers: Record<string, string> = {};
  const authz = await authorization(registry, repository, ['pull']);
  if (authz) headers.Authorization = authz;
  const url = `${registry.url}/v2/${repository}/blobs/${digest}`;
  const res = await fetch(url, { headers });
  const bytes = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${bytes.toString('utf8')}`);
  if (`sha256:${sha256(bytes)}` !== digest) throw new Error(`GET ${url}: the body's sha256 is not ${digest}`);
  return bytes;
}

/** Hex sha256 of some bytes (digests are `sha256:` + this). */
export const sha256 = (bytes: Buffer | string): string => createHash('sha256').update(bytes).digest('hex');

async function pushedImage(registry: Registry, repository: string, tag: string): Promise<PushedImage> {
  const got = await getManifest(registry, repository, tag);
  const manifest = got.json as ImageManifest;
  if (!manifest.config || !Array.isArray(manifest.layers)) throw new Error(`${registry.host}/${repository}:${tag} is not an image manifest (${got.mediaType})`);
  return {
    reference: `${registry.host}/${repository}:${tag}`,
    digest: got.digest,
    manifest,
    mediaType: got.mediaType,
    configDigest: manifest.config.digest,
    layers: manifest.layers.map((layer) => layer.digest),
  };
}

// ---------------------------------------------------------------------------------------------
// buildah

const buildahTimeoutMs = 60_000;

function credsArgs(registry: Registry): string[] {
  return registry.auth ? ['--creds', `${registry.auth.user}:${registry.auth.password}`] : [];
}

/** Builds a local image from scratch with buildah: one layer holding every file, labels, arch and os. */
async function buildImage(spec: ImageSpec, format: 'oci' | 'v2s2'): Promise<string> {
  const name = `localhost/llsd-harness-${randomBytes(6).toString('hex')}:latest`;
  const tree = mkdtempSync(join(tmpdir(), 'llsd-image-tree-'));
  const container = (await mustRun('buildah', ['from', 'scratch'], { timeoutMs: buildahTimeoutMs })).stdout.trim();
  try {
    const files = Object.entries(spec.files ?? {});
    for (const [path, content] of files) {
      if (!path.startsWith('/')) throw new Error(`image file paths must be absolute: ${path}`);
      const target = join(tree, path);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, content);
    }
    if (files.length > 0) await mustRun('buildah', ['copy', container, `${tree}/`, '/'], { timeoutMs: buildahTimeoutMs });
    const labelArgs = Object.entries(spec.labels ?? {}).flatMap(([key, value]) => ['--label', `${key}=${value}`]);
    await mustRun('buildah', ['config', '--arch', spec.arch ?? 'amd64', '--os', spec.os ?? 'linux', ...labelArgs, container], { timeoutMs: buildahTimeoutMs });
    await mustRun('buildah', ['commit', '-q', '--format', format === 'v2s2' ? 'docker' : 'oci', container, name], { timeoutMs: buildahTimeoutMs });
  } finally {
    await runAsync('buildah', ['rm', container]);
    rmSync(tree, { recursive: true, force: true });
  }
  return name;
}

/**
 * Builds an image from scratch with buildah (all `files` in one layer, `labels`, arch/os), pushes it to
 * `registry` as REPO:TAG (OCI, or Docker schema 2 with format v2s2; with the registry's credentials)
 * and removes the local image. Returns the manifest as the registry serves it.
 */
export async function pushImage(registry: Registry, options: PushImageOptions): Promise<PushedImage> {
  const format = options.format ?? 'oci';
  const image = await buildImage(options, format);
  try {
    await mustRun(
      'buildah',
      [
        'push',
        '-q',
        '--tls-verify=false',
        ...credsArgs(registry),
        ...(format === 'v2s2' ? ['--format', 'v2s2'] : []),
        image,
        `docker://${registry.host}/${options.repository}:${options.tag}`,
      ],
      { timeoutMs: buildahTimeoutMs },
    );
  } finally {
    await runAsync('buildah', ['rmi', image]);
  }
  const pushed = await pushedImage(registry, options.repository, options.tag);
  const expected = format === 'v2s2' ? mediaTypes.dockerManifest : mediaTypes.ociManifest;
  if (pushed.mediaType !== expected) throw new Error(`${pushed.reference} was pushed as ${pushed.mediaType}, expected ${expected}`);
  return pushed;
}

/**
 * Pushes a multi-arch image: one image per entry of `images`, gathered with `buildah manifest create/add`
 * into an OCI image index (or a Docker manifest list with format v2s2) and pushed with `manifest push --all`.
 * Checks that the registry serves an index with every requested platform.
 */
export async function pushIndex(registry: Registry, options: PushIndexOptions): Promise<PushedIndex> {
  const format = options.format ?? 'oci';
  const list = `localhost/llsd-harness-list-${randomBytes(6).toString('hex')}:latest`;
  const images: string[] = [];
  let listCreated = false;
  try {
    for (const spec of options.images) images.push(await buildImage(spec, format));
    await mustRun('buildah', ['manifest', 'create', list], { timeoutMs: buildahTimeoutMs });
    listCreated = true;
    for (const image of images) await mustRun('buildah', ['manifest', 'add', list, `containers-storage:${image}`], { timeoutMs: buildahTimeoutMs });
    await mustRun(
      'buildah',
      [
        'manifest',
        'push',
        '-q',
        '--all',
        '--tls-verify=false',
        ...credsArgs(registry),
        '--format',
        format,
        list,
        `docker://${registry.host}/${options.repository}:${options.tag}`,
      ],
      { timeoutMs: buildahTimeoutMs },
    );
  } finally {
    if (listCreated) await runAsync('buildah', ['manifest', 'rm', list]);
    for (const image of images) await runAsync('buildah', ['rmi', image]);
  }

  const reference = `${registry.host}/${options.repository}:${options.tag}`;
  const got = await getManifest(registry, options.repository, options.tag);
  const expected = format === 'v2s2' ? mediaTypes.dockerList : mediaTypes.ociIndex;
  if (got.mediaType !== expected) throw new Error(`${reference} was pushed as ${got.mediaType}, expected ${expected}`);
  const index = got.json as ImageIndex;
  const manifests = index.manifests.map((m) => ({ digest: m.digest, mediaType: m.mediaType, platform: m.platform ?? { architecture: '', os: '' } }));
  const served = manifests.map((m) => `${m.platform.os}/${m.platform.architecture}`).sort();
  const wanted = options.images.map((i) => `${i.os ?? 'linux'}/${i.arch}`).sort();
  if (JSON.stringify(served) !== JSON.stringify(wanted)) throw new Error(`${reference} has platforms ${served.join(', ')}, expected ${wanted.join(', ')}`);
  return { reference, digest: got.digest, mediaType: got.mediaType, index, manifests };
}

// ---------------------------------------------------------------------------------------------
// putLabels (crane mutate --label, over plain HTTP)

/**
 * The equivalent of `crane mutate --label`: reads the image at fromTag, adds `labels` to its config's
 * `config.Labels`, uploads the new config blob and puts a manifest with the same layers and media type
 * under toTag. Layer digests do not change, so a label may name a layer of the image itself.
 */
export async function putLabels(registry: Registry, options: PutLabelsOptions): Promise<PushedImage> {
  const { repository } = options;
  const source = await pushedImage(registry, repository, options.fromTag);
  const authz = await authorization(registry, repository, ['pull', 'push']);
  const withAuth = (headers: Record<string, string>): Record<string, string> => (authz ? { ...headers, Authorization: authz } : headers);

  const config = JSON.parse((await getBlob(registry, repository, source.configDigest)).toString('utf8')) as {
    config?: { Labels?: Record<string, string> | null };
  };
  config.config = { ...config.config, Labels: { ...(config.config?.Labels ?? {}), ...options.labels } };
  const configBytes = Buffer.from(JSON.stringify(config));
  const configDigest = `sha256:${sha256(configBytes)}`;

  const start = await fetch(`${registry.url}/v2/${repository}/blobs/uploads/`, { method: 'POST', headers: withAuth({ 'Content-Length': '0' }) });
  const startText = await start.text();
  const location = start.headers.get('location');
  if (start.status !== 202 || !location) throw new Error(`POST /v2/${repository}/blobs/uploads/ answered ${start.status}: ${startText}`);
  const uploadUrl = new URL(location, registry.url);
  uploadUrl.searchParams.set('digest', configDigest);
  const upload = await fetch(uploadUrl, { method: 'PUT', headers: withAuth({ 'Content-Type': 'application/octet-stream' }), body: configBytes });
  const uploadText = await upload.text();
  if (upload.status !== 201) throw new Error(`PUT config blob ${configDigest} answered ${upload.status}: ${uploadText}`);

  const manifest: ImageManifest = { ...source.manifest, config: { ...source.manifest.config, digest: configDigest, size: configBytes.length } };
  const put = await fetch(`${registry.url}/v2/${repository}/manifests/${options.toTag}`, {
    method: 'PUT',
    headers: withAuth({ 'Content-Type': source.mediaType }),
    body: JSON.stringify(manifest),
  });
  const putText = await put.text();
  if (put.status !== 201) throw new Error(`PUT /v2/${repository}/manifests/${options.toTag} answered ${put.status}: ${putText}`);
  return pushedImage(registry, repository, options.toTag);
}

// ---------------------------------------------------------------------------------------------
// Proxy

const hopByHop = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);

interface Upstream {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** One request to `origin` (http only), body fully buffered. */
function forward(origin: URL, method: string, path: string, headers: IncomingHttpHeaders, body: Buffer): Promise<Upstream> {
  return new Promise((resolve, reject) => {
    const outHeaders: IncomingHttpHeaders = {};
    for (const [key, value] of Object.entries(headers)) if (!hopByHop.has(key)) outHeaders[key] = value;
    outHeaders['content-length'] = String(body.length);
    if (body.length === 0 && (method === 'GET' || method === 'HEAD')) delete outHeaders['content-length'];
    const req = httpRequest({ host: origin.hostname, port: origin.port, method, path, headers: outHeaders, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * A recording HTTP proxy on a free 127.0.0.1 port in front of `target`. It forwards every request
 * (method, path, headers including Authorization and Accept, body), follows redirects of GET/HEAD itself
 * and rewrites Location headers to itself, so every byte passes through it. Modes:
 * - `pass`: unchanged;
 * - `truncate-blobs`: blob GETs send the full Content-Length but only the first half of the body, then the socket is destroyed;
 * - `corrupt-blobs`: blob GETs keep their length but some bytes are flipped (the sha256 no longer matches the digest);
 * - `corrupt-manifests`: manifest GETs change one hex character of a digest inside the JSON (same length, still
 *   valid JSON) and keep the registry's Docker-Content-Digest;
 * - `slow`: everything under `/v2/<name>/` waits `delayMs` (default 5000) first.
 */
export async function startProxy(target: Pick<Registry, 'url'>, options: ProxyOptions = {}): Promise<Proxy> {
  const origin = new URL(target.url);
  let mode: ProxyMode = options.mode ?? 'pass';
  let delayMs = options.delayMs ?? 5000;
  let only: string | undefined;
  const requests: ProxyRequest[] = [];
  const pending = new Set<AbortController>();
  let selfOrigin = '';

  const server = createHttpServer((req, res) => {
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const record: ProxyRequest = { method, path, status: 0 };
    requests.push(record);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void handle(req, res, record, Buffer.concat(chunks)).catch((error: unknown) => {
        record.status = 502;
        if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' });
        res.end(`proxy: ${error instanceof Error ? error.message : String(error)}`);
      });
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse, record: ProxyRequest, body: Buffer): Promise<void> {
    const pathname = record.path.split('?')[0] ?? '';
    if (mode === 'slow' && /^\/v2\/.+\//.test(pathname) && pathname !== '/v2/_catalog') {
      const controller = new AbortController();
      pending.add(controller);
      try {
        await sleep(delayMs, undefined, { signal: controller.signal });
      } catch {
        return; // stopped
      } finally {
        pending.delete(controller);
      }
    }
    const currentMode = mode;
    let upstream = await forward(origin, record.method, record.path, req.headers, body);
    // Follow redirects of reads inside the proxy, so the client gets the bytes from here.
    for (let hops = 0; (record.method === 'GET' || record.method === 'HEAD') && [301, 302, 303, 307, 308].includes(upstream.status) && hops < 5; hops++) {
      const location = upstream.headers.location;
      if (!location) break;
      const next = new URL(location, selfOrigin);
      const nextOrigin = next.origin === selfOrigin || next.origin === origin.origin ? origin : next;
      const headers = { ...req.headers, host: nextOrigin === origin ? (req.headers.host ?? origin.host) : next.host };
      upstream = await forward(nextOrigin, record.method, next.pathname + next.search, headers, Buffer.alloc(0));
    }
    record.status = upstream.status;

    const headers: Record<string, string | string[]> = {};
    for (const [key, value] of Object.entries(upstream.headers)) if (value !== undefined && !hopByHop.has(key)) headers[key] = value;
    if (typeof headers.location === 'string' && headers.location.startsWith(origin.origin))
      headers.location = selfOrigin + headers.location.slice(origin.origin.length);

    let payload = upstream.body;
    const isGet200 = record.method === 'GET' && upstream.status === 200;
    const isBlob =
      isGet200 && /^\/v2\/.+\/blobs\/[^/]+$/.test(pathname) && !/\/blobs\/uploads\//.test(pathname) && (only === undefined || pathname.includes(only));
    const isManifest = isGet200 && /^\/v2\/.+\/manifests\/[^/]+$/.test(pathname);
    if (record.method !== 'HEAD') headers['content-length'] = String(payload.length);

    if (isBlob && currentMode === 'truncate-blobs') {
      res.writeHead(upstream.status, headers);
      res.write(payload.subarray(0, Math.floor(payload.length / 2)), () => res.destroy());
      return;
    }
    if (isBlob && currentMode === 'corrupt-blobs') payload = corruptBytes(payload);
    if (isManifest && currentMode === 'corrupt-manifests') payload = corruptManifest(payload);
    res.writeHead(upstream.status, headers);
    res.end(record.method === 'HEAD' ? undefined : payload);
  }

  const port = await listenHttp(server);
  selfOrigin = `http://127.0.0.1:${port}`;
  let stopped = false;
  return {
    host: `127.0.0.1:${port}`,
    url: selfOrigin,
    requests,
    get mode() {
      return mode;
    },
    setMode(next: ProxyMode, nextDelayMs?: number, onlyPath?: string) {
      mode = next;
      only = onlyPath;
      if (nextDelayMs !== undefined) delayMs = nextDelayMs;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      for (const controller of pending) controller.abort();
      await closeHttp(server);
    },
  };
}

/** Same length, a few bytes flipped (first, middle, last). */
function corruptBytes(body: Buffer): Buffer {
  const out = Buffer.from(body);
  for (const i of new Set([0, Math.floor(out.length / 2), out.length - 1])) if (i >= 0 && i < out.length) out[i] = (out[i] ?? 0) ^ 0xff;
  return out;
}

/** Changes the last hex character of the first layer digest (or manifest/config digest): same length, valid JSON. */
function corruptManifest(body: Buffer): Buffer {
  const text = body.toString('utf8');
  let digest: string | undefined;
  try {
    const json = JSON.parse(text) as Partial<ImageManifest & ImageIndex>;
    digest = json.layers?.[0]?.digest ?? json.manifests?.[0]?.digest ?? json.config?.digest;
  } catch {
    // not JSON: flip bytes instead
  }
  const at = digest ? text.indexOf(digest) : -1;
  if (!digest || at < 0) return corruptBytes(body);
  const last = at + digest.length - 1;
  const replacement = text[last] === '0' ? '1' : '0';
  return Buffer.from(text.slice(0, last) + replacement + text.slice(last + 1), 'utf8');
}
