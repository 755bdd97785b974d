// The argument handling every command shares: node:util parseArgs with its errors as usage errors
// (exit 2), and `--help` / `--version`, which print and end the command.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { closest } from '../lib/issues.js';
import { quote } from '../lib/quote.js';
import { UsageError } from './files.js';
import { version } from './help.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** The options every command takes besides its own. */
export const commonOptions = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} satisfies Options;

/**
 * Parses `args` for a command with `options` (which include `commonOptions`). Returns undefined
 * when `--help` or `--version` was printed and the command is done.
 */
export function parseCommand<T extends Options & typeof commonOptions>(args: string[], options: T, helpText: string, stdout: (text: string) => void) {
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    // parseArgs rejects unknown or malformed options with a TypeError whose code starts ERR_PARSE_ARGS.
    const code = (error as { code?: unknown } | null)?.code;
    if (error instanceof TypeError && typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS'))
      throw new UsageError(usageMessage(error.message, code, options));
    throw error;
  }
  const flags = parsed.values as { help?: boolean; version?: boolean };
  if (flags.help) {
    stdout(helpText);
    return undefined;
  }
  if (flags.version) {
    stdout(`${version}\n`);
    return undefined;
  }
  return parsed;
}

/** parseArgs' message for an unknown option, in our words, with the option it likely meant. */
function usageMessage(message: string, code: string, options: Options): string {
  const unknown = code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /^Unknown option '([^']*)'/.exec(message)?.[1] : undefined;
  if (unknown === undefined) return message;
  const known = Object.keys(options).map((name) => `--${name}`);
  const near = closest(unknown.replace(/=.*$/, ''), known);
  return `unknown option ${quote(unknown)}${near ? `; did you mean ${near}?` : ''} (options: ${known.join(', ')})`;
}
