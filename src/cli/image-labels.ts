// `image-labels`: the OCI labels that put a config.yaml into a distribution image, for distribution
// builders to add with `buildah config --label` or `crane mutate --label`: the labels of the target
// release's images (`--release`): OGX's `com.ogx.*` (the default, and what the OGX operator reads),
// or `io.llamastack.*` (FR-027a) for a release before OGX or with the layer reference.
import { basename } from 'node:path';
import type { ParseArgsConfig } from 'node:util';
import { supportedConfigVersions, unsupportedVersionMessage } from '../catalog/distributions.js';
import type { ExitCode } from '../krm/result.js';
import { parseYaml11 } from '../krm/yaml.js';
import { isPlainObject } from '../lib/objects.js';
import {
  configLabel, imageVersionLabel, labelsFor, maxInlineConfigBytes, maxOgxConfigBlobBytes, ogxConfigLabel, ogxLabelsFor,
} from '../catalog/image-labels.js';
import { isOgxServerRelease, releaseSupport, supportedReleases } from '../catalog/versions.js';
import { parseReleaseNumber } from '../lib/release-number.js';
import { commonOptions, parseCommand } from './args.js';
import { newestRelease } from '../catalog/catalog.js';
import { maxInputBytes, readInputFile, UsageError } from './files.js';
import { help } from './help.js';

const options = {
  layer: { type: 'string' },
  path: { type: 'string' },
  format: { type: 'string' },
  release: { type: 'string' },
  ...commonOptions,
} satisfies ParseArgsConfig['options'];

const formats = ['lines', 'flags', 'json'] as const;

export function imageLabelsCommand(args: string[], io: { stdout: (text: string) => void; stderr: (text: string) => void }): ExitCode {
  const parsed = parseCommand(args, options, help['image-labels'], io.stdout);
  if (!parsed) return 0;
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw new UsageError('image-labels needs exactly one CONFIG file');
  const format = values.format ?? 'lines';
  if (!(formats as readonly string[]).includes(format)) throw new UsageError(`--format must be ${formats.join(', ')}, not "${format}"`);
  if ((values.layer === undefined) !== (values.path === undefined))
    throw new UsageError("--layer and --path go together: the digest of the layer holding the file, and the file's path in the image");
  if (values.layer !== undefined && !/^sha256:[a-f0-9]{64}$/.test(values.layer))
    throw new UsageError(`--layer must be a layer digest (sha256:<64 hex>), not "${values.layer}"`);
  if (values.path !== undefined && !values.path.startsWith('/'))
    throw new UsageError(`--path must be the absolute path of the file in the image, such as /app/config.yaml, not "${values.path}"`);
  const release = parseReleaseNumber(values.release);
  if (values.release !== undefined && (!release || !releaseSupport(release.release)))
    throw new UsageError(
      `--release must be a release llsd-render knows (${supportedReleases()}), such as ${newestRelease()} or v${newestRelease()}, not "${values.release}"`,
    );
  // The target's labels: OGX's for an OGX release, and by default unless the layer form is asked for (only io.llamastack.* has it).
  const ogx = release ? isOgxServerRelease(release.release) : values.layer === undefined;
  if (ogx && values.layer !== undefined)
    throw new UsageError(`--layer and --path write io.llamastack.* labels, which an OGX ${values.release} image does not use: OGX reads its config from the ` +
      'com.ogx.config.<file> label only; leave them out');

  const file = positionals[0] as string;
  const fail = (message: string): ExitCode => {
    io.stderr(`${file}: ${message}\n`);
    return 1;
  };
  // Bounded like every input: a pipe or /dev/zero is refused past the limit, not read to its end.
  const read = readInputFile(file, maxInputBytes(process.env));
  if ('problem' in read) return fail(read.line === undefined ? read.problem : `line ${read.line}: ${read.problem}`);
  const { text } = read;
  const yaml = parseYaml11(text);
  if (yaml.problem) return fail(`is not valid YAML${yaml.problem.line ? ` (line ${yaml.problem.line})` : ''}: ${yaml.problem.message}`);
  if (!isPlainObject(yaml.value)) return fail('must hold a llama-stack config.yaml mapping (`version: 2`, `apis`, `providers`, …)');
  const version = unsupportedVersionMessage(yaml.value);
  if (version) return fail(version);
  const size = Buffer.byteLength(text, 'utf8');
  let labels: Record<string, string>;
  if (ogx) {
    const name = [yaml.value.distro_name, yaml.value.image_name].find((n) => typeof n === 'string' && n !== '');
    if (typeof name !== 'string') {
      return fail('must name its distribution in `distro_name` (e.g. `distro_name: starter`): it becomes the label com.ogx.distribution.name');
    }
    labels = ogxLabelsFor(text, { name, file: basename(file), ...(values.release !== undefined && { release: values.release }) });
    const bytes = Object.entries(labels).reduce((n, [key, value]) => n + key.length + value.length, 0);
    if (bytes >= maxOgxConfigBlobBytes) {
      return fail(`is ${size} bytes: its labels would be ${bytes} bytes, and the OGX operator reads an image's config (labels included) only up to ` +
        `${maxOgxConfigBlobBytes} bytes; give the config by \`spec.baseConfig\` or \`spec.overrideConfig\` instead`);
    }
  } else {
    if (values.layer === undefined && size >= maxInlineConfigBytes) {
      return fail(
        `is ${size} bytes; ${configLabel.base64} is for configs under ${maxInlineConfigBytes} bytes. Put the file in the image and give --layer <digest of ` +
          `the layer holding it> --path <its path in the image>`,
      );
    }
    const layer = values.layer !== undefined && values.path !== undefined ? { digest: values.layer, path: values.path } : undefined;
    labels = labelsFor(text, supportedConfigVersions.includes(String(yaml.value.version)) ? String(yaml.value.version) : '2', layer);
    if (values.release !== undefined) labels[imageVersionLabel] = values.release;
  }
  const entries = Object.entries(labels);
  // `lines` and `flags` are read word by word (`buildah config $(…)`): a key with `=` or a key or
  // value with white space or a control character would split into other flags (--entrypoint=…).
  // A key with `=` is cut there by every `--label K=V` tool, whatever the format.
  const unsafe = entries.find(([key, value]) => /[\s\p{Cc}=]/u.test(key) || (format !== 'json' && /[\s\p{Cc}]/u.test(value)));
  if (unsafe) {
    const [key] = unsafe;
    if (key.startsWith(ogxConfigLabel.configPrefix)) {
      return fail("its file name holds white space, `=` or a control character, which the label com.ogx.config.<file name> cannot carry: rename the file");
    }
    return fail(`the value of ${key} (from CONFIG or the options) holds white space or a control character, which \`--format ${format}\` cannot carry: ` +
      'a shell splits it into other flags; fix the value, or print --format json and apply the labels from it');
  }
  if (format === 'json') io.stdout(`${JSON.stringify(labels, null, 2)}\n`);
  else io.stdout(entries.map(([key, value]) => (format === 'flags' ? `--label=${key}=${value}` : `${key}=${value}`)).join('\n') + '\n');
  return 0;
}
