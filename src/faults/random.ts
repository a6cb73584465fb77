// Random faults for soak tests (SANDBOX_FAULTS, --faults, createSandbox({ faults })): the fraction
// of /v1 requests that get each fault, e.g.
// `api_error=0.02,api_error_after_write=0.02,reset_after_write=0.01,delay=0.05:1500`. At most one
// fault a request, drawn from a stream seeded from the seed: the same sequence of /v1 requests to a
// fresh process gets the same faults, on Node and on Workers.
import { derivedFraction } from '../clock/derive.js';
import { didYouMean, listOf, quoted } from '../http/messages.js';
import { DELAY_MAX_MS, FAULTS, type Fault } from './simulate.js';

export interface RandomFault {
  /** A fault, or `delay` with its milliseconds. */
  fault: Fault | 'delay';
  fraction: number;
  delayMs?: number;
}

/** The configured fractions, in the order given. */
export type RandomFaults = readonly RandomFault[];

const NAMES = [...FAULTS, 'delay'] as const;
const EXAMPLE = 'api_error=0.02,api_error_after_write=0.02,reset_after_write=0.01,delay=0.05:1500';

/**
 * Reads the configured text; throws an Error whose message says what it must be and what to fix
 * (the configuration puts the name of the way it came in before it: src/config/problems.ts).
 */
export function parseRandomFaults(text: string): RandomFaults {
  const fail = (why: string): never => {
    throw new Error(`must be a comma list of fault=fraction (a delay as delay=fraction:ms), such as ${EXAMPLE}; ${why}`);
  };
  const faults: RandomFault[] = [];
  let total = 0;
  for (const raw of text.split(',')) {
    const item = raw.trim();
    const [fault, value = ''] = item.split('=', 2).map((part) => part.trim());
    if (!(NAMES as readonly string[]).includes(fault)) {
      fail(`${item === '' ? 'an item is empty' : `${quoted(fault)} is not one of ${listOf(NAMES)}`}.${didYouMean(fault, NAMES)}`);
    }
    if (faults.some((entry) => entry.fault === fault)) fail(`${fault} is given twice.`);
    const [fractionText, msText] = fault === 'delay' ? value.split(':', 2) : [value];
    const fraction = /^(0(\.\d+)?|1(\.0+)?|\.\d+)$/.test(fractionText) ? Number(fractionText) : Number.NaN;
    if (Number.isNaN(fraction)) fail(`the fraction of ${fault} must be a number from 0 to 1, not ${quoted(fractionText)}.`);
    const entry: RandomFault = { fault: fault as RandomFault['fault'], fraction };
    if (fault === 'delay') {
      // Without a colon msText is undefined, which the test reads as "undefined": not a number.
      const ms = /^\d{1,5}$/.test(msText) ? Number(msText) : Number.NaN;
      if (!(ms <= DELAY_MAX_MS))
        fail(`delay takes its milliseconds after the fraction (delay=0.05:1500), 0 to ${DELAY_MAX_MS}; received ${quoted(value)}.`);
      entry.delayMs = ms;
    }
    total += fraction;
    faults.push(entry);
  }
  // A little slack for decimal fractions that add up to 1 in writing but not in binary.
  if (total > 1 + 1e-9) fail(`the fractions add up to ${Number(total.toFixed(6))}, more than 1.`);
  return faults;
}

/** The configuration as the text it was read from (for the banner). */
export function describeRandomFaults(faults: RandomFaults): string {
  return faults.map((entry) => `${entry.fault}=${entry.fraction}${entry.delayMs === undefined ? '' : `:${entry.delayMs}`}`).join(',');
}

/**
 * The stream: sfc32 (a small, fast generator of 32-bit words, the same on every runtime) seeded
 * with HMAC-SHA256 of the seed, so the stream is the seed's and one draw costs a few additions
 * (an HMAC per request cost a quarter of a flood's rate). The nth /v1 request gets the fault whose
 * share of [0, 1) holds its draw, in the order configured, or none.
 */
export class RandomFaultStream {
  readonly #faults: RandomFaults;
  readonly #state: Uint32Array;

  constructor(faults: RandomFaults, seed: string) {
    this.#faults = faults;
    const key = new TextEncoder().encode(`waste-operations-sandbox/faults/v1\u0000${seed}`);
    this.#state = Uint32Array.from({ length: 4 }, (_, i) => Math.floor(derivedFraction(key, `state#${i}`) * 2 ** 32));
    // sfc32's own warm-up: the first words of a fresh state are the least mixed.
    for (let i = 0; i < 12; i++) this.#next();
  }

  /** The next request's fault, or undefined. */
  draw(): RandomFault | undefined {
    let point = this.#next() / 2 ** 32;
    for (const entry of this.#faults) {
      if (point < entry.fraction) return entry;
      point -= entry.fraction;
    }
    return undefined;
  }

  #next(): number {
    const s = this.#state as Uint32Array & { 0: number; 1: number; 2: number; 3: number };
    let t = (s[0] + s[1]) | 0;
    s[0] = s[1] ^ (s[1] >>> 9);
    s[1] = (s[2] + (s[2] << 3)) | 0;
    const c = (s[2] << 21) | (s[2] >>> 11);
    s[3] = (s[3] + 1) | 0;
    t = (t + s[3]) | 0;
    s[2] = (c + t) | 0;
    return t >>> 0;
  }
}
