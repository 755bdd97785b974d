// Registry credentials from the files podman, buildah, skopeo and docker write on `login`, in the
// containers-auth.json(5) order: REGISTRY_AUTH_FILE, ${XDG_RUNTIME_DIR:-/run/containers/$UID}/containers/auth.json,
// ${XDG_CONFIG_HOME:-~/.config}/containers/auth.json, then docker's $DOCKER_CONFIG/config.json and
// ~/.docker/config.json. The first file with an entry wins; inside a file the most specific key
// wins (`quay.io/org/repo`, `quay.io/org`, `quay.io`). `credHelpers`/`credsStore` run
// `docker-credential-<helper> get`, as docker does. No npm library reads these files and helpers,
// so this is written here; it is small.
import { execFileSync } from 'node:child_process';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { readSmallFile } from '../lib/small-file.js';
import { lazily, z } from '../lib/zod.js';

export interface Credentials {
  username: string;
  password: string;
  /** An OAuth2 refresh token (docker's `identitytoken`, a helper's `<token>` user) instead of a password. */
  identityToken?: string;
}

/** An entry under `auths`: `auth` is base64 of `user:password`; docker also writes the parts, or an identity token. */
const authEntry = lazily(() =>
  z.looseObject({
    auth: z.optional(z.string()),
    username: z.optional(z.string()),
    password: z.optional(z.string()),
    identitytoken: z.optional(z.string()),
  }),
);
const authFile = lazily(() =>
  z.looseObject({
    auths: z.optional(z.record(z.string(), authEntry())),
    credHelpers: z.optional(z.record(z.string(), z.string())),
    credsStore: z.optional(z.string()),
  }),
);
type AuthFile = z.infer<ReturnType<typeof authFile>>;

export type Environment = Readonly<Record<string, string | undefined>>;

/** The auth files to consult, in order. */
export function authFilePaths(env: Environment): string[] {
  const home = env.HOME || homedir();
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  return [
    env.REGISTRY_AUTH_FILE,
    join(env.XDG_RUNTIME_DIR || join('/run', 'containers', String(uid)), ...(env.XDG_RUNTIME_DIR ? ['containers'] : []), 'auth.json'),
    join(env.XDG_CONFIG_HOME || join(home, '.config'), 'containers', 'auth.json'),
    env.DOCKER_CONFIG ? join(env.DOCKER_CONFIG, 'config.json') : undefined,
    join(home, '.docker', 'config.json'),
  ].filter((path): path is string => path !== undefined && path !== '');
}

/**
 * Credentials for `registry` (`quay.io`, `127.0.0.1:5000`; Docker Hub also under its old
 * `https://index.docker.io/v1/` key), or undefined for anonymous access. An unreadable or malformed
 * file is skipped, as the container tools do: a missing login then shows as a 401 that says so.
 */
export function credentialsFor(registry: string, repository: string, env: Environment): Credentials | undefined {
  const parts = repository.split('/');
  // `host/a/b`, `host/a`, then the host's own keys.
  const scoped = parts.map((_, i) => `${registry}/${parts.slice(0, parts.length - i).join('/')}`);
  const hostKeys =
    registry === 'docker.io'
      ? ['docker.io', 'index.docker.io', 'https://index.docker.io/v1/', 'registry-1.docker.io']
      : [registry, `https://${registry}`, `http://${registry}`];
  const keys = [...scoped, ...hostKeys];
  for (const path of authFilePaths(env)) {
    const file = readAuthFile(path);
    if (!file) continue;
    const helper = keys.map((key) => file.credHelpers?.[key]).find((h) => h !== undefined);
    if (helper) return fromHelper(helper, registry, env);
    for (const key of keys) {
      const entry = file.auths?.[key];
      if (entry) {
        const found = fromEntry(entry);
        if (found) return found;
        if (file.credsStore) return fromHelper(file.credsStore, key, env);
      }
    }
  }
  return undefined;
}

function readAuthFile(path: string): AuthFile | undefined {
  // An auth file is a few kB.
  const text = readSmallFile(path, 16 * 1024 * 1024);
  if (text === undefined) return undefined;
  try {
    const parsed = authFile().safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function fromEntry(entry: z.infer<ReturnType<typeof authEntry>>): Credentials | undefined {
  if (entry.identitytoken) return { username: '<token>', password: '', identityToken: entry.identitytoken };
  if (entry.username !== undefined && entry.password !== undefined) return { username: entry.username, password: entry.password };
  if (!entry.auth) return undefined;
  const decoded = Buffer.from(entry.auth, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** `docker-credential-<helper> get` with the server on stdin; JSON `{Username, Secret}` back. */
function fromHelper(helper: string, server: string, env: Environment): Credentials | undefined {
  if (!/^[A-Za-z0-9_.-]+$/.test(helper)) return undefined;
  try {
    const out = execFileSync(`docker-credential-${helper}`, ['get'], { input: server, timeout: 10_000, env: { ...env }, stdio: ['pipe', 'pipe', 'ignore'] });
    const parsed = z.object({ Username: z.string(), Secret: z.string() }).safeParse(JSON.parse(out.toString('utf8')));
    if (!parsed.success) return undefined;
    const { Username: username, Secret: secret } = parsed.data;
    return username === '<token>' ? { username, password: '', identityToken: secret } : { username, password: secret };
  } catch {
    return undefined;
  }
}
