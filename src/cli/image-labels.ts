// `image-labels`: the OCI labels that put a config.yaml into a distribution image (FR-027a), for
// distribution builders to add with `buildah config --label` or `crane mutate --label`.
import type { ParseArgsConfig } from 'node:util';
import { supportedConfigVersions, unsupportedVersionMessage } from '../catalog/distributions.js';
import type { ExitCode } from '../krm/result.js';
import { parseYaml11 } from '../krm/yaml.js';
import { isPlainObject } from '../lib/objects.js';
import { configLabel, labelsFor, maxInlineConfigBytes } from '../catalog/image-labels.js';
import { commonOptions, parseCommand } from './args.js';
import { maxInputBytes, readInputFile, UsageError } from './files.js';
import { help } from './help.js';

const options = {
  layer: { type: 'string' },
  path: { type: 'string' },
  format: { type: 'string' },
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
  if (values.layer === undefined && size >= maxInlineConfigBytes) {
    return fail(
      `is ${size} bytes; ${configLabel.base64} is for configs under ${maxInlineConfigBytes} bytes. Put the file in the image and give --layer <digest of ` +
        `the layer holding it> --path <its path in the image>`,
    );
  }
  const layer = values.layer !== undefined && values.path !== undefined ? { digest: values.layer, path: values.path } : undefined;
  const labels = labelsFor(text, supportedConfigVersions.includes(String(yaml.value.version)) ? String(yaml.value.version) : '2', layer);
  const entries = Object.entries(labels);
  if (format === 'json') io.stdout(`${JSON.stringify(labels, null, 2)}\n`);
  else io.stdout(entries.map(([key, value]) => (format === 'flags' ? `--label=${key}=${value}` : `${key}=${value}`)).join('\n') + '\n');
  return 0;
}
