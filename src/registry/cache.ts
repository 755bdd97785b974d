// The on-disk cache of configs read from image labels (FR-027d, NFR-006), keyed by the digest a
// reference resolves to and the platform: content under a digest never changes, so an entry is
// good forever. Tags move, so a tag's digest is recorded only for offline renders, which may not
// ask the registry. Entries are written whole (temporary file + rename) and checked when read; a
// damaged entry is a miss, never an error.
import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { readSmallFile } from '../lib/small-file.js';
import { lazily, z } from '../lib/zod.js';
import type { Environment } from './credentials.js';
import { digestPattern } from '../lib/digest.js';
import { imageConfigSchema, type ImageConfig } from '../catalog/image-labels.js';

/**
 * The cache directory: RenderConfig `registry.cacheDir`, else `$XDG_CACHE_HOME/llsd-render`, else
 * `~/.cache/llsd-render`. A relative XDG_CACHE_HOME is ignored, as the XDG spec says: it would put a
 * cache in whatever directory the run starts in (an Argo CD app's, say).
 */
export function cacheDirectory(option: string | undefined, env: Environment): string {
  if (option !== undefined) return option;
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(env.HOME || homedir(), '.cache');
  return join(base, 'llsd-render');
}

/**
 * An entry's shape, counted up when it changes. 2: `distributionVersion` (OGX's release label): an
 * entry written before it lacks the label, so it is a miss and the labels are read again.
 */
const entryVersion = 2;
const entrySchema = lazily(() => z.object({ schema: z.literal(entryVersion), textSha256: z.string(), config: imageConfigSchema() }));
const tagSchema = lazily(() =>
  z.object({ schema: z.literal(1), reference: z.string(), platform: z.string(), digest: z.string().check(z.regex(digestPattern)) }),
);

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
const platformFile = (platform: string): string => `${platform.replaceAll('/', '-')}.json`;
const entryPath = (dir: string, digest: string, platform: string): string => join(dir, 'v1', 'configs', digest.replace(':', '-'), platformFile(platform));
const tagPath = (dir: string, reference: string, platform: string): string => join(dir, 'v1', 'tags', `${sha256(`${reference} ${platform}`)}.json`);

export function readCachedConfig(dir: string, digest: string, platform: string): ImageConfig | undefined {
  const entry = readJson(entryPath(dir, digest, platform), entrySchema());
  if (!entry || entry.config.digest !== digest || entry.config.platform !== platform || entry.textSha256 !== sha256(entry.config.text)) return undefined;
  return entry.config;
}

export function writeCachedConfig(dir: string, config: ImageConfig): void {
  writeJson(entryPath(dir, config.digest, config.platform), { schema: entryVersion, textSha256: sha256(config.text), config });
}

/** The digest `reference` (a tag) had when it was last resolved online. */
export function readCachedTag(dir: string, reference: string, platform: string): string | undefined {
  const entry = readJson(tagPath(dir, reference, platform), tagSchema());
  return entry && entry.reference === reference && entry.platform === platform ? entry.digest : undefined;
}

export function writeCachedTag(dir: string, reference: string, platform: string, digest: string): void {
  writeJson(tagPath(dir, reference, platform), { schema: 1, reference, platform, digest });
}

/** Configs are a few kB; the most a cache entry may be (the input limit's default). */
const maxEntryBytes = 32 * 1024 * 1024;

function readJson<T extends z.ZodMiniType>(path: string, schema: T): z.infer<T> | undefined {
  // The cache directory may be a package's own (a relative cacheDir): its entries are read bounded.
  const text = readSmallFile(path, maxEntryBytes);
  if (text === undefined) return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Best effort: a cache that cannot be written (read-only home, full disk) costs a fetch next time, nothing more. */
function writeJson(path: string, value: unknown): void {
  const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`);
    renameSync(temporary, path);
  } catch {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // Nothing was written.
    }
  }
}
