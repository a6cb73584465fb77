// `waste-operations-sandbox [serve] [flags]` starts the sandbox; `waste-operations-sandbox
// trigger …` sends signed sample webhook deliveries; `… check-receiver <url> --secret …` tests a
// webhook receiver against the reference's rules. Arguments are read with node:util's
// parseArgs: part of Node, no dependency to install for `npx`, and strict about unknown flags.
import { CHECK_RECEIVER_USAGE, checkReceiverCommand } from './check-receiver.js';
import { serve, SERVE_USAGE } from './serve.js';
import { trigger, TRIGGER_USAGE } from './trigger.js';
import { asUsageError } from './usage-error.js';
import { VERSION } from './version.js';

export const USAGE = `waste-operations-sandbox ${VERSION}: the Waste Operations API sandbox

Usage:
  waste-operations-sandbox [serve] [flags]         start the sandbox (default)
  waste-operations-sandbox trigger <type> [flags]  send signed sample webhook deliveries
  waste-operations-sandbox check-receiver <url> --secret <whsec_…>
                                                   test your webhook receiver against the reference's rules
  waste-operations-sandbox --version

${SERVE_USAGE}

${TRIGGER_USAGE}

${CHECK_RECEIVER_USAGE}`;

/**
 * Runs one command line. Resolves to an exit code, or to undefined while a server keeps running
 * (it ends on SIGINT/SIGTERM).
 */
export async function main(argv: readonly string[]): Promise<number | undefined> {
  const [command, ...rest] = argv;
  try {
    if (command === '--version' || command === '-v') {
      console.log(VERSION);
      return 0;
    }
    if (command === '--help' || command === '-h' || command === 'help') {
      console.log(USAGE);
      return 0;
    }
    if (command === 'trigger') return await trigger(rest);
    if (command === 'check-receiver') return await checkReceiverCommand(rest);
    if (command === 'serve') return serve(rest);
    if (command !== undefined && !command.startsWith('-')) {
      console.error(
        `Unknown command "${command}": the commands are serve (the default), trigger and check-receiver. Run with --help for usage.`,
      );
      return 2;
    }
    return serve(argv);
  } catch (error) {
    const usage = asUsageError(error);
    if (usage === undefined) throw error;
    console.error(`${usage.message}\nRun with --help for usage.`);
    return 2;
  }
}
