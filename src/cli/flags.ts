// node:util parseArgs, with messages in the words of the API's own: "Did you mean …?" for a
// mistyped flag (`--prot` → `--port`), what a flag takes when its value is missing (`--port` at
// the end of the line), and that a switch takes no value. parseArgs alone says
// "Option '--port <value>' argument missing", which names no example and no fix.
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { closestChoice } from '../http/messages.js';
import { UsageError } from './usage-error.js';

export function parseFlags<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const message = (error as Error).message;
    const flags = Object.keys(config.options ?? {}).map((name) => `--${name}`);
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw unknownFlag(message, flags) ?? error;
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') throw badValue(message) ?? error;
    if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
      const argument = message.match(/^Unexpected argument '([^']*)'/)?.[1] ?? '';
      throw new UsageError(
        `Unexpected argument '${argument}': every setting is a flag with its value, such as --port 9000. The flags are ${flags.join(', ')}.`,
      );
    }
    throw error;
  }
}

function unknownFlag(message: string, flags: readonly string[]): UsageError | undefined {
  const flag = message.match(/^Unknown option '([^']+)'/)?.[1];
  if (flag === undefined) return undefined;
  // Compared without the leading dashes, so `-port` and `port=9000` find `--port` too.
  const bare = flag.replace(/^-+/, '').split('=')[0] ?? '';
  const choice = closestChoice(
    bare,
    flags.map((name) => name.slice(2)),
  );
  const suggestion = choice === undefined ? '' : ` Did you mean --${choice}?`;
  return new UsageError(`Unknown option '${flag}'.${suggestion} The flags are ${flags.join(', ')}.`);
}

function badValue(message: string): UsageError | undefined {
  const flag = message.match(/^Option '(-[-\w]+)/)?.[1];
  if (flag === undefined) return undefined;
  if (/does not take an argument/.test(message)) return new UsageError(`${flag} is a switch and takes no value: write ${flag} alone.`);
  // Missing (last on the line), or followed by another flag ("ambiguous").
  return new UsageError(`${flag} needs a value after it, such as ${flag} <value> (${flag}=<value> for a value that begins with a dash).`);
}
