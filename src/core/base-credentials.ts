// Literal credentials in a base config the user brings (issue 29, S2): a RenderConfig
// `distributions.<name>.config` (inline, or read from `configPath`), or the config in an image's
// labels. The same key in an LLSD's `settings` is refused (src/llsd/providers.ts); a base reaches
// the ConfigMap as written, so it is a warning at the base naming the key's path, never the value.
// A URL with a password or a credential query in it is one too, under any key.
// A `${env.X}` reference (with or without a default, as the shipped bases write them) is no literal.
// Pure.
import { formatFieldPath } from '../krm/item.js';
import type { FieldProblem } from '../lib/issues.js';
import { isPlainObject } from '../lib/objects.js';
import { clip, count, quote } from '../lib/quote.js';
import { isCredentialName, urlCredential } from '../lib/url-credentials.js';

type Path = Array<string | number>;

/** How many keys one base names, each in a warning of its own; the rest are counted in one more. */
const MAX_NAMED = 10;

/** The paths (within the config) of the credential-named keys that hold a literal value. */
export function literalCredentialPaths(config: unknown): Path[] {
  const found: Path[] = [];
  const walk = (value: unknown, at: Path, depth: number): void => {
    // A parsed YAML tree has no cycles, but an alias-heavy one may be deep: bounded, as every walk of input.
    if (depth > 100) return;
    if (Array.isArray(value)) return value.forEach((child, i) => walk(child, [...at, i], depth + 1));
    if (!isPlainObject(value)) return;
    for (const [key, child] of Object.entries(value)) {
      if (isCredentialName(key) ? isLiteral(child) : isLiteralUrlCredential(child)) found.push([...at, key]);
      else walk(child, [...at, key], depth + 1);
    }
  };
  walk(config, [], 0);
  return found;
}

/**
 * Warnings for the base config of the distribution `name` given in a RenderConfig (inline or by
 * `configPath`), at `fieldPath` (the distribution's entry), each naming the key's path in the config.
 */
export function renderConfigBaseWarnings(config: unknown, name: string, fieldPath: Path): FieldProblem[] {
  return warnings(literalCredentialPaths(config), `the base config of the distribution ${quote(name)}`, () => fieldPath, fieldPath);
}

/** Warnings for the config in the labels of `image`, at `spec.distribution.image` (`imagePath`). */
export function imageBaseWarnings(config: unknown, image: string, imagePath: Path): FieldProblem[] {
  return warnings(literalCredentialPaths(config), `the config in the labels of the image ${clip(image)}`, () => imagePath, imagePath);
}

function warnings(paths: readonly Path[], base: string, at: (path: Path) => Path, basePath: Path): FieldProblem[] {
  const shown = paths.slice(0, MAX_NAMED).map(
    (path): FieldProblem => ({
      severity: 'warning',
      code: 'base-literal-credential',
      path: at(path),
      message:
        `\`${clip(formatFieldPath(path))}\` of ${base} holds a credential as a literal value, which reaches the generated ConfigMap for anyone who can ` +
        `read it (in \`settings\` it would be refused): write \`\${env.NAME}\` there and set NAME from a Secret (an LLSD's or OGXServer's ` +
        '`workload.overrides.env` with `valueFrom.secretKeyRef`)',
    }),
  );
  if (paths.length > MAX_NAMED) {
    shown.push({
      severity: 'warning',
      code: 'base-literal-credential',
      path: basePath,
      message:
        `${base} holds ${count(paths.length - MAX_NAMED)} more credentials as literal values besides the ${MAX_NAMED} named; ` +
        'write each as `${env.NAME}`',
    });
  }
  return shown;
}

/** A value that reaches the ConfigMap as the secret itself: a number, or non-empty text with no `${env.…}` reference in it. */
const isLiteral = (value: unknown): boolean => (typeof value === 'string' && value.trim() !== '' && !value.includes('${env.')) || typeof value === 'number';

/** A URL carrying a password or a credential query (`https://u:PASS@host`, `?token=…`), as `settings` refuses one, unless written with `${env.…}`. */
const isLiteralUrlCredential = (value: unknown): boolean => typeof value === 'string' && !value.includes('${env.') && urlCredential(value) !== undefined;
