// A command line that cannot be run: printed with a hint to --help, exit code 2 (as POSIX tools
// answer a usage error), so scripts can tell it from a delivery that failed (exit code 1).
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** node:util parseArgs' own errors (unknown option, missing value) are usage errors too. */
export function asUsageError(error: unknown): UsageError | undefined {
  if (error instanceof UsageError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) return new UsageError((error as Error).message);
  return undefined;
}
