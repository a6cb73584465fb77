// node:util parseArgs, with the "Did you mean …?" of the API's own messages for a mistyped flag
// (`--prot` → `--port`): parseArgs alone says only "Unknown option '--prot'".
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { closestChoice } from '../http/messages.js';
import { UsageError } from './usage-error.js';

export function parseFlags<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const flag = (error as Error).message.match(/^Unknown option '([^']+)'/)?.[1];
    if (code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || flag === undefined) throw error;
    const flags = Object.keys(config.options ?? {}).map((name) => `--${name}`);
    // Compared without the leading dashes, so `-port` and `port=9000` find `--port` too.
    const bare = flag.replace(/^-+/, '').split('=')[0] ?? '';
    const choice = closestChoice(
      bare,
      flags.map((name) => name.slice(2)),
    );
    const suggestion = choice === undefined ? '' : ` Did you mean --${choice}?`;
    throw new UsageError(`Unknown option '${flag}'.${suggestion} The flags are ${flags.join(', ')}.`);
  }
}
