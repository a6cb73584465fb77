// Which clock answers a request (docs/snapshot-tests.md): the Sandbox-Clock header, else the
// configured clock (SANDBOX_CLOCK, --clock, createSandbox({ clock })), else the running clock.
import type { Context } from 'hono';
import { type Mint, PinnedMint, runningMint } from '../clock/mint.js';
import { parsePinnedTime, pinnedTimeRule } from '../clock/pinned-time.js';
import { ApiError } from '../errors.js';
import type { SandboxEnv } from './env.js';
import { pathAndQuery } from './query.js';
import { headerText } from './header-text.js';

export const CLOCK_HEADER = 'Sandbox-Clock';

export type MintOf = (c: Context<SandboxEnv>) => Mint;

/**
 * The request's mint, made on first use and kept on the context. Unpinned requests share one
 * object (no allocation on the hot path). A header that is not a valid time leaves the request
 * on the configured clock here; the check after the key answers it with a 400.
 */
export function clockOf(seed: string, pinned: Date | null, clock: () => Date): MintOf {
  const running = runningMint(clock);
  const mintFor = (c: Context<SandboxEnv>): Mint => {
    const header = c.req.header(CLOCK_HEADER);
    const time = (header === undefined ? undefined : parsePinnedTime(header)) ?? pinned;
    const mint =
      time === null
        ? running
        : new PinnedMint(seed, time, () => ({
            account: c.get('key')?.account ?? null,
            method: c.req.method,
            target: pathAndQuery(c.req.url),
            body: c.get('body') ?? null,
            idempotencyKey: c.req.header('Idempotency-Key') ?? null,
          }));
    c.set('mint', mint);
    return mint;
  };
  return (c) => c.get('mint') ?? mintFor(c);
}

/** Checked right after the key, before Sandbox-Simulate: a header that is not a time is a 400; no header, nothing to check. */
export function checkClockHeader(c: Context<SandboxEnv>): void {
  const header = c.req.header(CLOCK_HEADER);
  if (header === undefined || parsePinnedTime(header) !== undefined) return;
  throw new ApiError('parameter_invalid', {
    param: CLOCK_HEADER,
    message: `Invalid ${CLOCK_HEADER}: ${pinnedTimeRule(headerText(header))}.`,
  });
}
