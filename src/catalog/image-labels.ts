// The OCI labels that carry a distribution's config.yaml (FR-027a/b): `io.llamastack.config.base64`
// first, else `io.llamastack.config.layer` + `io.llamastack.config.path`; `io.llamastack.config.version`
// is the config schema version; an OGX image's `com.ogx.distribution.default-config` + `com.ogx.config.<file>`
// come after them. Pure: what the labels say, and the labels for a given config.
import { supportedConfigVersions } from './distributions.js';
import { lazily, z } from '../lib/zod.js';
import { digestPattern, isDigest } from '../lib/digest.js';

export const configLabel = {
  base64: 'io.llamastack.config.base64',
  layer: 'io.llamastack.config.layer',
  path: 'io.llamastack.config.path',
  version: 'io.llamastack.config.version',
} as const;
/**
 * The labels OGX images carry (its scripts/generate-config-labels.sh, which the operator reads):
 * the default config's file name, and one `com.ogx.config.<file>` label per config, base64.
 */
export const ogxConfigLabel = { defaultConfig: 'com.ogx.distribution.default-config', configPrefix: 'com.ogx.config.' } as const;
/** The standard OCI label an image's release can be read from when its tag is not one. */
export const imageVersionLabel = 'org.opencontainers.image.version';
/** OGX's own label of the release a distribution image runs (`v1.2.4+rhaiv.0` on the rh image), read before the OCI one. */
export const ogxVersionLabel = 'com.ogx.distribution.version';

/** Above this, the config goes in a layer rather than a label (FR-027a: base64 "for configs < 50KB"). */
export const maxInlineConfigBytes = 50 * 1024;

/** The config found for an image: what the render uses, and what the cache keeps (by manifest digest). */
export const imageConfigSchema = lazily(() =>
  z.object({
  /** The digest the reference resolved to (an index or a manifest): the image's identity, and what a pin uses. */
  digest: z.string().check(z.regex(digestPattern)),
  /** `os/architecture[/variant]` the config was read for. */
  platform: z.string(),
  /** Which label held the config. */
  from: z.enum(['base64', 'layer']),
  /** For `base64`: the label, when not io.llamastack.config.base64 (an OGX image's `com.ogx.config.<file>`). */
  label: z.optional(z.string()),
  layer: z.optional(z.string()),
  path: z.optional(z.string()),
  /** `io.llamastack.config.version`, when set. */
  configVersion: z.optional(z.string()),
  /** `org.opencontainers.image.version`, when set. */
  imageVersion: z.optional(z.string()),
  /** `com.ogx.distribution.version`, when set. */
  distributionVersion: z.optional(z.string()),
  /** The config.yaml text. */
  text: z.string(),
}),
);
export type ImageConfig = z.infer<ReturnType<typeof imageConfigSchema>>;

/** The outcome of looking up one `spec.distribution.image`, as the render receives it. */
export type ImageLookup =
  | {
      ok: true;
      config: ImageConfig;
      /** The registry that answered (a mirror's name when a mirror did). */ host: string;
      cached: boolean;
      tagResolved: boolean;
    }
  | { ok: false; message: string };

export type ConfigLocation =
  | { kind: 'base64'; text: string }
  | { kind: 'layer'; layer: string; path: string }
  | { kind: 'missing' }
  | { kind: 'invalid'; message: string };

/** FR-027e, word for word. */
export const missingLabelsMessage = (image: string): string =>
  `Distribution image ${image} missing config labels. Add labels using \`crane mutate\` or use \`overrideConfig\` to provide configuration manually. See ` +
    `docs/configuration.md for details.`;

/** Where the labels put the config, in priority order (FR-027b). */
export function configLocation(labels: Readonly<Record<string, unknown>>): ConfigLocation {
  const label = (key: string): string | undefined => (Object.hasOwn(labels, key) && typeof labels[key] === 'string' ? labels[key] : undefined);
  const version = label(configLabel.version);
  if (version !== undefined && !supportedConfigVersions.includes(version)) {
    return {
      kind: 'invalid',
      message: `its label ${configLabel.version} is "${version}": Unsupported config.yaml version ${version}. Supported versions: ` +
        `${supportedConfigVersions.join(', ')}`,
    };
  }
  const base64 = label(configLabel.base64);
  if (base64 !== undefined) {
    const text = decodeBase64(base64);
    return text === undefined ? { kind: 'invalid', message: `its label ${configLabel.base64} is not base64 of a UTF-8 config.yaml` } : { kind: 'base64', text };
  }
  const layer = label(configLabel.layer);
  const path = label(configLabel.path);
  if (layer === undefined && path === undefined) return ogxConfigLocation(label);
  if (layer === undefined || path === undefined) {
    return {
      kind: 'invalid',
      message: `it has the label ${layer === undefined ? configLabel.path : configLabel.layer} without ` +
        `${layer === undefined ? configLabel.layer : configLabel.path}; a layer reference needs both`,
    };
  }
  if (!isDigest(layer)) return { kind: 'invalid', message: `its label ${configLabel.layer} is "${layer.slice(0, 80)}", not a layer digest (sha256:<64 hex>)` };
  return { kind: 'layer', layer, path };
}

/** The label that holds an OGX image's config: `com.ogx.config.<the default-config label's file name>`. */
export const ogxConfigLabelOf = (labels: Readonly<Record<string, unknown>>): string | undefined => {
  const file = labels[ogxConfigLabel.defaultConfig];
  return typeof file === 'string' ? `${ogxConfigLabel.configPrefix}${file}` : undefined;
};

/** An OGX image's labels: the default config's file name, then that file's label (base64). */
function ogxConfigLocation(label: (key: string) => string | undefined): ConfigLocation {
  const file = label(ogxConfigLabel.defaultConfig);
  if (file === undefined) return { kind: 'missing' };
  const key = `${ogxConfigLabel.configPrefix}${file}`;
  const base64 = label(key);
  if (base64 === undefined)
    return { kind: 'invalid', message: `its label ${ogxConfigLabel.defaultConfig} names "${file.slice(0, 80)}", but it has no label ${key.slice(0, 120)}` };
  const text = decodeBase64(base64);
  return text === undefined ? { kind: 'invalid', message: `its label ${key.slice(0, 120)} is not base64 of a UTF-8 config.yaml` } : { kind: 'base64', text };
}

function decodeBase64(value: string): string | undefined {
  const compact = value.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 !== 0) return undefined;
  const bytes = Buffer.from(compact, 'base64');
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  return Buffer.from(text, 'utf8').equals(bytes) ? text : undefined;
}

/** The labels a pre-OGX distribution image should carry for `text` (the image-labels command). */
export function labelsFor(text: string, configVersion: string, layer?: { digest: string; path: string }): Record<string, string> {
  if (layer) return { [configLabel.layer]: layer.digest, [configLabel.path]: layer.path, [configLabel.version]: configVersion };
  return { [configLabel.base64]: Buffer.from(text, 'utf8').toString('base64'), [configLabel.version]: configVersion };
}

/** The rest of OGX's metadata labels: the distribution's name and the list of its config files (comma-separated). */
export const ogxDistributionLabel = { name: 'com.ogx.distribution.name', configs: 'com.ogx.distribution.configs' } as const;

/**
 * The labels an OGX image carries for its config file `file` holding `text`, as OGX's
 * scripts/generate-config-labels.sh writes them at image build: `com.ogx.config.<file>` (base64),
 * `com.ogx.distribution.{name,version,default-config,configs}`, and the OCI version label.
 * `release` as written (`v1.2.4+rhaiv.0` stays so); without it, no version labels.
 */
export function ogxLabelsFor(text: string, distribution: { name: string; file: string; release?: string }): Record<string, string> {
  const labels: Record<string, string> = { [`${ogxConfigLabel.configPrefix}${distribution.file}`]: Buffer.from(text, 'utf8').toString('base64') };
  labels[ogxDistributionLabel.name] = distribution.name;
  if (distribution.release !== undefined) labels[ogxVersionLabel] = distribution.release;
  labels[ogxConfigLabel.defaultConfig] = distribution.file;
  labels[ogxDistributionLabel.configs] = distribution.file;
  if (distribution.release !== undefined) labels[imageVersionLabel] = distribution.release;
  return labels;
}

/** The operator reads an image's config blob, labels included, up to 1 MiB (pkg/config/oci_fetcher.go; GENERATION.md §2). */
export const maxOgxConfigBlobBytes = 1024 * 1024;

/** A tar entry name and a label path name the same file: `/app/config.yaml`, `app/config.yaml`, `./app/config.yaml`. */
export const samePath = (entry: string, path: string): boolean => entry.replace(/^(\.\/|\/)+/, '') === path.replace(/^(\.\/|\/)+/, '');
