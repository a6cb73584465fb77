// The message of a configuration problem, as each way in reports it: createSandbox and the
// readers throw a ConfigError (a TypeError named so, printed as "ConfigError: …").
import { expect } from 'vitest';

/** The message of the ConfigError `read` throws; fails when it throws none. */
export function problem(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).name).toBe('ConfigError');
    expect(String(error)).toBe(`ConfigError: ${(error as Error).message}`);
    return (error as Error).message;
  }
  throw new Error('the configuration was accepted');
}
