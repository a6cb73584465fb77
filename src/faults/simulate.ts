// What `Sandbox-Simulate` asks for (docs/testing-retries.md): one fault, a delay, or a delay and a
// fault, comma-separated, whitespace around items ignored. Anything else is a 400 naming the
// header, listing what it takes and, when an item is close to one, asking "Did you mean …?".
import { ApiError } from '../errors.js';
import { didYouMean, listOf, quoted } from '../http/messages.js';

export const SIMULATE_HEADER = 'Sandbox-Simulate';

/**
 * The faults, in the order the guide lists them. The first two act before anything runs; the
 * `_after_write` ones and duplicate_event act on a write that ran and succeeded.
 */
export const FAULTS = ['rate_limited', 'api_error', 'api_error_after_write', 'reset_after_write', 'duplicate_event'] as const;
export type Fault = (typeof FAULTS)[number];

/** The longest an answer may be held: a minute, past any client's sensible time-out. */
export const DELAY_MAX_MS = 60_000;

/** A request's faults: at most one fault and one delay, each with the item as it was sent. */
export interface FaultRequest {
  fault: Fault | undefined;
  delayMs: number | undefined;
  /** The items as sent (trimmed), in the order sent, for the Sandbox-Fault header. */
  items: readonly { text: string; isDelay: boolean }[];
}

/** An item that begins with delay=, and all the rest of it (`s`: a line break too, which delayOf then refuses). */
const DELAY_ITEM = /^delay=(.*)/s;
const WHAT_IT_TAKES = `one fault (${listOf(FAULTS)}), a delay (delay=<ms>, 0 to ${DELAY_MAX_MS}), or a delay and a fault, comma-separated, such as "delay=2500, api_error_after_write"`;

/** Parses the header's value; throws the 400 that says what is wrong with it. */
export function parseSimulate(value: string): FaultRequest {
  let fault: Fault | undefined;
  let delayMs: number | undefined;
  const items: { text: string; isDelay: boolean }[] = [];
  for (const raw of value.split(',')) {
    const text = raw.trim();
    const delay = DELAY_ITEM.exec(text);
    if (delay !== null) {
      if (delayMs !== undefined) throw invalid(value, 'it names two delays; send one');
      delayMs = delayOf(delay[1], value);
      items.push({ text, isDelay: true });
      continue;
    }
    if (!(FAULTS as readonly string[]).includes(text)) {
      const what = text === '' ? 'an empty item' : `the unknown item ${quoted(text)}`;
      throw invalid(value, `it holds ${what}`, didYouMean(text, [...FAULTS, 'delay=<ms>']));
    }
    if (fault !== undefined) throw invalid(value, `it names two faults (${fault}, ${text}); send one at a time`);
    fault = text as Fault;
    items.push({ text, isDelay: false });
  }
  return { fault, delayMs, items };
}

function delayOf(text: string, value: string): number {
  const ms = /^\d{1,5}$/.test(text) ? Number(text) : Number.NaN;
  if (!(ms <= DELAY_MAX_MS)) {
    throw invalid(value, `its delay must be a whole number of milliseconds from 0 to ${DELAY_MAX_MS}, not ${quoted(text)}`);
  }
  return ms;
}

function invalid(value: string, why: string, suggestion = ''): ApiError {
  return new ApiError('parameter_invalid', {
    param: SIMULATE_HEADER,
    message: `Invalid ${SIMULATE_HEADER}: must be ${WHAT_IT_TAKES}; received ${quoted(value)}: ${why}.${suggestion}`,
  });
}
