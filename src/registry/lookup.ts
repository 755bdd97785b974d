// The registry adapter of the render (docs/development.md: I/O at the edges): for each
// `spec.distribution.image` the render could not plan from its own data, find the image's
// config.yaml in its labels, through mirrors, the cache or offline, and say what happened. Every
// failure is a message for the user; only a bug throws.
import { newestRelease } from '../catalog/catalog.js';
import { Parser, type ReadEntry } from 'tar';
import type { RegistryOptions } from '../core/render-config.js';
import { quote } from '../lib/quote.js';
import { urlCredential } from '../lib/url-credentials.js';
import { lazily, z } from '../lib/zod.js';
import { readCachedConfig, readCachedTag, writeCachedConfig, writeCachedTag } from './cache.js';
import { DeadlineError, manifestMediaTypes, RegistryClient, RegistryError } from './client.js';
import type { Environment } from './credentials.js';
import { digestPattern } from '../lib/digest.js';
import { configLabel, configLocation, imageVersionLabel, missingLabelsMessage, ogxConfigLabelOf, ogxVersionLabel, samePath } from '../catalog/image-labels.js';
import type { ImageConfig, ImageLookup } from '../catalog/image-labels.js';
import { formatReference, parseReference, type ImageReference } from '../lib/image-reference.js';

/** What the edge resolves before the render: the options and where the cache lives. */
export interface LookupSettings extends RegistryOptions {
  cacheDir: string;
}

/** The configs of `images` (as written in the LLSDs), each looked up once. */
export async function lookUpImages(images: readonly string[], settings: LookupSettings, env: Environment): Promise<Map<string, ImageLookup>> {
  const unique = [...new Set(images)];
  const outcomes = await Promise.all(unique.map((image) => lookUpImage(image, settings, env)));
  return new Map(unique.map((image, i) => [image, outcomes[i] as ImageLookup]));
}

export async function lookUpImage(image: string, settings: LookupSettings, env: Environment): Promise<ImageLookup> {
  // A reference written as a URL may carry a password (`https://u:PASS@registry/…`): never quoted.
  if (urlCredential(image) || /^[a-z][a-z0-9+.-]*:\/\//i.test(image) || /^[^/]*@/.test(image)) {
    return {
      ok: false,
      message:
        'is not an image reference: write `registry/repository:tag` with no scheme (`https://`), user name, password or query; registry credentials come ' +
          'from `podman login` / `docker login` or REGISTRY_AUTH_FILE',
    };
  }
  const parsed = parseReference(image);
  if (!parsed.ok)
    return {
      ok: false,
      message: `${quote(image)} is not an image reference (${parsed.message}); write one such as \`quay.io/org/distribution-custom:${newestRelease()}\``,
    };
  const ref = parsed.ref;
  const canonical = formatReference(ref);
  const { platform, cacheDir } = settings;

  // A digest is immutable: a cached entry needs no registry at all, online or not.
  const knownDigest = ref.digest ?? (settings.offline ? readCachedTag(cacheDir, canonical, platform) : undefined);
  if (knownDigest) {
    const cached = readCachedConfig(cacheDir, knownDigest, platform);
    if (cached) return { ok: true, config: cached, host: ref.registry, cached: true, tagResolved: ref.digest === undefined };
  }
  if (settings.offline) {
    return {
      ok: false,
      message: `${image} is not in the cache (${cacheDir}) for ${platform}, and the render is offline (RenderConfig \`registry.offline\` or \`--offline\`): ` +
        `render once with registry access to fill the cache, or use \`spec.distribution.name\` or \`spec.overrideConfig\``,
    };
  }

  // One deadline for the whole lookup, mirrors and all (issue 29, R1): `timeoutSeconds` bounds each
  // wait, so a registry that sends a byte a second just inside it would otherwise hold the render forever.
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new DeadlineError()), settings.deadlineSeconds * 1000);
  const failures: string[] = [];
  try {
    for (const source of sourcesOf(ref, settings.mirrors)) {
      const timeoutMs = settings.timeoutSeconds * 1000;
      const client = new RegistryClient(source.host, source.repository, { insecure: settings.insecure, timeoutMs, env, deadline: deadline.signal });
      try {
        const found = await readFromRegistry(client, ref, image, settings);
        if (found.tag !== undefined) writeCachedTag(cacheDir, canonical, platform, found.config.digest);
        return { ok: true, config: found.config, host: source.host, cached: found.cached, tagResolved: ref.digest === undefined };
      } catch (error) {
        if (!(error instanceof RegistryError)) throw error;
        if (error.kind === 'deadline') return { ok: false, message: deadlineMessage(image, settings.deadlineSeconds, error.message, failures) };
        // Whatever goes wrong with a mirror hands over to the next source, as docker and containerd
        // do; the registry's own answer is the answer.
        failures.push(error.message);
        if (source.mirror === false) break;
      }
    }
  } finally {
    clearTimeout(timer);
  }
  const last = failures.pop() as string;
  return { ok: false, message: failures.length > 0 ? `${last} (mirrors tried first: ${failures.join('; ')})` : last };
}

/** The lookup of `image` stopped by its deadline: the image, the deadline, what was under way, and what to do. */
function deadlineMessage(image: string, seconds: number, detail: string, failures: readonly string[]): string {
  const before = failures.length > 0 ? `; mirrors tried first: ${failures.join('; ')}` : '';
  return (
    `reading the labels of ${quote(image)} took longer than the deadline of ${seconds} s (${detail}${before}): raise RenderConfig ` +
    '`registry.deadlineSeconds` for a slow registry, use a mirror (`registry.mirrors`), or render from the cache (`--offline`)'
  );
}

/** The mirrors of the image's registry in order, then the registry itself (FR-027f). */
function sourcesOf(ref: ImageReference, mirrors: Readonly<Record<string, readonly string[]>>): Array<{ host: string; repository: string; mirror: boolean }> {
  // Mirror keys are registry hosts as written; Docker Hub has several spellings.
  const keys = ref.registry === 'docker.io' ? ['docker.io', 'index.docker.io', 'registry-1.docker.io'] : [ref.registry];
  const listed = keys.flatMap((key) => (Object.hasOwn(mirrors, key) ? (mirrors[key] ?? []) : []));
  const viaMirrors = listed.map((mirror) => {
    const slash = mirror.indexOf('/');
    // A mirror may keep the repositories under a prefix: `mirror.internal/dockerhub`.
    return slash < 0
      ? { host: mirror, repository: ref.repository, mirror: true }
      : { host: mirror.slice(0, slash), repository: `${mirror.slice(slash + 1)}/${ref.repository}`, mirror: true };
  });
  return [...viaMirrors, { host: ref.registry, repository: ref.repository, mirror: false }];
}

const schemas = lazily(() => {
  const descriptor = z.looseObject({
    mediaType: z.optional(z.string()),
    digest: z.string().check(z.regex(digestPattern)),
    size: z.optional(z.number().check(z.int(), z.nonnegative())),
  });
  return {
    imageManifest: z.looseObject({ config: descriptor, layers: z.array(descriptor) }),
    imageIndex: z.looseObject({
      manifests: z.array(
        z.extend(descriptor, { platform: z.optional(z.looseObject({ os: z.string(), architecture: z.string(), variant: z.optional(z.string()) })) }),
      ),
    }),
    imageConfigBlob: z.looseObject({ config: z.nullish(z.looseObject({ Labels: z.nullish(z.record(z.string(), z.string())) })) }),
  };
});

async function readFromRegistry(
  client: RegistryClient,
  ref: ImageReference,
  image: string,
  settings: LookupSettings,
): Promise<{ config: ImageConfig; cached: boolean; tag?: string }> {
  const tag = ref.digest === undefined ? (ref.tag ?? 'latest') : undefined;
  const resolved = tag === undefined ? undefined : await client.resolve(tag);
  const digest = ref.digest ?? (resolved?.digest as string);
  const cached = readCachedConfig(settings.cacheDir, digest, settings.platform);
  if (cached) return { config: cached, cached: true, ...(tag !== undefined && { tag }) };

  let manifest = resolved?.manifest ?? (await client.manifest(digest));
  if (manifest.mediaType === manifestMediaTypes.ociIndex || manifest.mediaType === manifestMediaTypes.dockerList) {
    const index = parseJson(manifest.bytes, schemas().imageIndex, `the index ${digest} of ${image}`);
    const chosen = choosePlatform(index.manifests, settings.platform);
    if (!chosen) {
      const offered = index.manifests.map((m) => (m.platform ? platformOf(m.platform) : 'unknown')).filter((p) => p !== 'unknown/unknown' && p !== 'unknown');
      throw new RegistryError(
        'not-found',
        `${image} has no image for ${settings.platform} (it has ${offered.join(', ') || 'none'}); set RenderConfig \`registry.platform\` to the platform ` +
          `your nodes run`,
      );
    }
    manifest = await client.manifest(chosen.digest);
  }
  if (manifest.mediaType !== manifestMediaTypes.ociManifest && manifest.mediaType !== manifestMediaTypes.dockerManifest) {
    throw new RegistryError('protocol', `${image} has a manifest of type "${manifest.mediaType}", which llsd-render cannot read (OCI or Docker schema 2 only)`);
  }
  const parsed = parseJson(manifest.bytes, schemas().imageManifest, `the manifest of ${image}`);
  const blob = parseJson(await client.blob(parsed.config.digest, parsed.config.size), schemas().imageConfigBlob, `the config of ${image}`);
  const labels = blob.config?.Labels ?? {};
  const location = configLocation(labels);
  const common = {
    digest,
    platform: settings.platform,
    ...(labels[configLabel.version] !== undefined && { configVersion: labels[configLabel.version] }),
    ...(labels[imageVersionLabel] !== undefined && { imageVersion: labels[imageVersionLabel] }),
    ...(labels[ogxVersionLabel] !== undefined && { distributionVersion: labels[ogxVersionLabel] }),
  };
  let config: ImageConfig;
  switch (location.kind) {
    case 'missing':
      throw new RegistryError('protocol', missingLabelsMessage(image));
    case 'invalid':
      throw new RegistryError('protocol', `${image} cannot give its config.yaml: ${location.message}`);
    case 'base64':
      config = { ...common, from: 'base64', text: location.text };
      // configLocation reads io.llamastack.config.base64 first, else OGX's label.
      if (labels[configLabel.base64] === undefined) config.label = ogxConfigLabelOf(labels) as string;
      break;
    case 'layer': {
      const layer = parsed.layers.find((l) => l.digest === location.layer);
      if (!layer)
        throw new RegistryError(
          'protocol',
          `${image} cannot give its config.yaml: its label ${configLabel.layer} names ${location.layer}, which is not one of its layers`,
        );
      const compression = layerCompression(layer.mediaType);
      if (compression === undefined) {
        throw new RegistryError(
          'protocol',
          `${image} cannot give its config.yaml: its layer ${layer.digest} is of type "${layer.mediaType}", which llsd-render cannot unpack (tar, ` +
            `tar+gzip); put the config in a gzip-compressed layer or in the ${configLabel.base64} label`,
        );
      }
      const text = await readFileFromLayer(client, layer.digest, location.path, image);
      config = { ...common, from: 'layer', layer: location.layer, path: location.path, text };
      break;
    }
  }
  writeCachedConfig(settings.cacheDir, config);
  return { config, cached: false, ...(tag !== undefined && { tag }) };
}

type Platform = { os: string; architecture: string; variant?: string | undefined };
const platformOf = (p: Platform): string => [p.os, p.architecture, p.variant].filter(Boolean).join('/');

/** containerd's defaults: arm64 is v8 unless said otherwise; an arm image without a variant is v7. */
function normalise(p: Platform): Required<Platform> {
  const variant = p.variant ?? (p.architecture === 'arm64' ? 'v8' : p.architecture === 'arm' ? 'v7' : '');
  return { os: p.os, architecture: p.architecture, variant };
}

/**
 * The index entry for `wanted` (`os/arch[/variant]`): the same platform after normalising, else for
 * arm the best older variant the node can run (v7 before v6 before v5). Attestation entries
 * (`unknown/unknown`) never match.
 */
function choosePlatform<T extends { platform?: Platform | undefined }>(entries: readonly T[], wanted: string): T | undefined {
  const [os = '', architecture = '', variant] = wanted.split('/');
  const want = normalise({ os, architecture, variant });
  const candidates = entries.filter(
    (e): e is T & { platform: Platform } => e.platform !== undefined && e.platform.os === want.os && e.platform.architecture === want.architecture,
  );
  const exact = candidates.find((e) => normalise(e.platform).variant === want.variant);
  if (exact || want.architecture !== 'arm') return exact;
  const level = (v: string): number => Number(/^v(\d+)$/.exec(v)?.[1] ?? 0);
  return candidates
    .filter((e) => level(normalise(e.platform).variant) <= level(want.variant))
    .sort((a, b) => level(normalise(b.platform).variant) - level(normalise(a.platform).variant))[0];
}

function parseJson<T extends z.ZodMiniType>(bytes: Buffer, schema: T, what: string): z.infer<T> {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new RegistryError('protocol', `${what} is not JSON`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new RegistryError('protocol', `${what} is not an OCI or Docker document llsd-render can read`);
  return parsed.data;
}

/** Layer media types llsd-render can unpack: plain tar and gzip (Node 20's zlib has no zstd). */
function layerCompression(mediaType: string | undefined): 'none' | 'gzip' | undefined {
  switch (mediaType) {
    case 'application/vnd.oci.image.layer.v1.tar':
    case 'application/vnd.docker.image.rootfs.diff.tar':
      return 'none';
    case undefined:
    case 'application/vnd.oci.image.layer.v1.tar+gzip':
    case 'application/vnd.docker.image.rootfs.diff.tar.gzip':
      return 'gzip';
    default:
      return undefined;
  }
}

/** Largest config.yaml read from a layer. */
const maxConfigBytes = 4 * 1024 * 1024;

/**
 * One file from a (gzipped) tar layer, streamed: the layer is hashed and unpacked as it arrives,
 * only the wanted file is kept, and it counts only once the whole layer matched its digest.
 */
async function readFileFromLayer(client: RegistryClient, digest: string, path: string, image: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  let found = false;
  let archiveError: string | undefined;
  const parser = new Parser({
    strict: true,
    // The digest bounds what comes in and only one file is kept, so any ratio is fine: real layers
    // hold large runs of zeros (sparse logs) that tar's default limit of 1000 would refuse.
    maxDecompressionRatio: Infinity,
    onReadEntry: (entry: ReadEntry) => {
      if (!found && entry.type === 'File' && samePath(entry.path, path)) {
        found = true;
        entry.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= maxConfigBytes) chunks.push(chunk);
        });
      } else entry.resume();
    },
  });
  // tar stops emitting once it aborts (a corrupt archive), so every way it can end is awaited.
  const ended = new Promise<void>((resolve) => {
    for (const event of ['close', 'end', 'abort', 'error']) parser.on(event, () => resolve());
  });
  parser.on('error', (error: Error) => {
    archiveError ??= error.message;
  });
  await client.streamBlob(digest, (chunk) => {
    if (archiveError !== undefined) return;
    try {
      parser.write(chunk);
    } catch (error) {
      archiveError ??= (error as Error).message;
    }
  });
  if (archiveError === undefined) {
    parser.end();
    await ended;
  }
  if (archiveError !== undefined)
    throw new RegistryError('protocol', `the layer ${digest} of ${image} is not a tar archive llsd-render can read (${archiveError})`);
  if (!found) throw new RegistryError('protocol', `${image} cannot give its config.yaml: its layer ${digest} has no file ${path} (label ${configLabel.path})`);
  if (size > maxConfigBytes)
    throw new RegistryError('protocol', `${path} in the layer ${digest} of ${image} is larger than ${maxConfigBytes} bytes; that is no config.yaml`);
  return Buffer.concat(chunks).toString('utf8');
}
