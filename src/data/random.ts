// The seeded stream behind the sample data, and the helpers that must never read the machine:
// no Math.random, no clock, no locale (docs/sample-data.md: the same seed gives
// byte-identical responses on Node and Workers, on every start and machine).
import { base, en, en_US, Faker } from '@faker-js/faker';
import seedrandom from 'seedrandom';
import { ID_BODY_LENGTH, ID_PREFIXES, type ObjectType } from '../schemas/common.js';
import { SAMPLE_NOW } from './dataset.js';

/** A deterministic stream of numbers and the picks built on it. */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Picks by weight; weights need not sum to 1. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T;
  /** `count` distinct items, in drawing order. */
  sample<T>(items: readonly T[], count: number): T[];
  shuffle<T>(items: readonly T[]): T[];
}

export function createRandom(seed: string): Random {
  // ARC4-based seedrandom: pure integer arithmetic, the same sequence on every runtime.
  // `quick()` gives 32 bits per draw, which is plenty for picks and faker's needs.
  const prng = seedrandom(seed);
  const next = (): number => prng.quick();
  const int = (min: number, max: number): number => {
    if (max < min) throw new Error(`random.int: empty range [${min}, ${max}]`);
    return min + Math.floor(next() * (max - min + 1));
  };
  const pick = <T>(items: readonly T[]): T => {
    if (items.length === 0) throw new Error('random.pick: no items');
    return items[Math.floor(next() * items.length)] as T;
  };
  const shuffle = <T>(items: readonly T[]): T[] => {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
    }
    return copy;
  };
  return {
    next,
    int,
    chance: (p) => next() < p,
    pick,
    weighted: (entries) => {
      const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
      let point = next() * total;
      for (const [item, weight] of entries) {
        point -= weight;
        if (point < 0) return item;
      }
      const last = entries[entries.length - 1];
      if (!last) throw new Error('random.weighted: no entries');
      return last[0];
    },
    sample: (items, count) => shuffle(items).slice(0, count),
    shuffle,
  };
}

/**
 * A faker instance that draws from `random` and whose clock is the sample clock: faker then
 * never touches Math.random or the real time. Only the en_US, en and base definitions are
 * imported, so bundles for Workers stay small (the root import tree-shakes the other locales).
 */
export function createFaker(random: Random): Faker {
  return new Faker({
    locale: [en_US, en, base],
    randomizer: {
      next: () => random.next(),
      seed: () => {
        // Reseeding would fork the account's stream; choose another sample seed instead.
        throw new Error('The sample-data faker draws from the account stream and cannot be reseeded');
      },
    },
    config: { defaultRefDate: () => new Date(SAMPLE_NOW) },
  });
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export type IdMaker = (object: ObjectType) => string;

/**
 * IDs as the reference writes them: `<prefix>_` and 14 base-62 characters, drawn from the
 * stream. `used` is shared by both accounts so that no ID is ever in both.
 */
export function createIdMaker(random: Random, used: Set<string>): IdMaker {
  const codes = new Array<number>(ID_BODY_LENGTH);
  return (object) => {
    for (;;) {
      for (let i = 0; i < ID_BODY_LENGTH; i++) codes[i] = BASE62.charCodeAt(Math.floor(random.next() * 62));
      const id = `${ID_PREFIXES[object]}_${String.fromCharCode(...codes)}`;
      if (!used.has(id)) {
        used.add(id);
        return id;
      }
    }
  };
}

// Time is kept in whole seconds since the epoch: exact integer arithmetic, formatted only at
// the edge.
export const MINUTE = 60;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** Seconds since the epoch of an ISO 8601 UTC timestamp or a YYYY-MM-DD date (midnight UTC). */
export function toSeconds(value: string): number {
  const ms = Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(ms)) throw new Error(`not a timestamp: ${value}`);
  return ms / 1000;
}

function pad2(value: number): string {
  return value < 10 ? `0${value}` : String(value);
}

/**
 * YYYY-MM-DD of a day counted from 1970-01-01 (the days-to-civil algorithm of H. Hinnant):
 * integer arithmetic only, several times faster than Date#toISOString, which the generator
 * would otherwise call tens of thousands of times.
 */
function civilDate(days: number): string {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const dayOfEra = z - era * 146097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthIndex = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthIndex + 2) / 5) + 1;
  const month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${year}-${pad2(month)}-${pad2(day)}`;
}

/** ISO 8601 in UTC to the second, `2026-02-11T14:05:00Z`, as the reference writes timestamps. */
export function formatTimestamp(seconds: number): string {
  const days = Math.floor(seconds / DAY);
  const rest = seconds - days * DAY;
  const hours = Math.floor(rest / HOUR);
  const minutes = Math.floor((rest - hours * HOUR) / MINUTE);
  return `${civilDate(days)}T${pad2(hours)}:${pad2(minutes)}:${pad2(rest - hours * HOUR - minutes * MINUTE)}Z`;
}

/** YYYY-MM-DD of the UTC day holding `seconds`. */
export function formatDate(seconds: number): string {
  return civilDate(Math.floor(seconds / DAY));
}

/** HH:MM of minutes after midnight. */
export function formatLocalTime(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  return `${String(hours).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** 0 = Sunday … 6 = Saturday, of the UTC day holding `seconds`. */
export function weekday(seconds: number): number {
  return new Date(seconds * 1000).getUTCDay();
}

/** The fixed clock of the sample records, in seconds. */
export const NOW = toSeconds(SAMPLE_NOW);

const ZONE_OF_STATE: Readonly<Record<string, { standard: number; dst: boolean }>> = {
  CA: { standard: -8, dst: true },
  NV: { standard: -8, dst: true },
  OR: { standard: -8, dst: true },
  WA: { standard: -8, dst: true },
  UT: { standard: -7, dst: true },
  AZ: { standard: -7, dst: false },
  KS: { standard: -6, dst: true },
  OK: { standard: -6, dst: true },
  TX: { standard: -6, dst: true },
};

/** Midnight UTC of the n-th Sunday (1-based) of a month (0-based) of a year. */
function nthSunday(year: number, month: number, n: number): number {
  const first = Date.UTC(year, month, 1) / 1000;
  const offset = (7 - weekday(first)) % 7;
  return first + (offset + 7 * (n - 1)) * DAY;
}

/**
 * Hours from UTC of local time in a state on a local date (midnight UTC of that date). US
 * daylight time runs from the second Sunday of March to the first Sunday of November; the
 * day granularity is enough for work windows, which never start at 2 a.m.
 */
export function utcOffsetHours(state: string, localDate: number): number {
  const zone = ZONE_OF_STATE[state];
  if (!zone) throw new Error(`no time zone for state ${state}`);
  if (!zone.dst) return zone.standard;
  const year = new Date(localDate * 1000).getUTCFullYear();
  const inDst = localDate >= nthSunday(year, 2, 2) && localDate < nthSunday(year, 10, 1);
  return zone.standard + (inDst ? 1 : 0);
}

/** The UTC instant of a local wall-clock time (minutes after midnight) on a local date. */
export function localToUtc(state: string, localDate: number, minutes: number): number {
  return localDate + minutes * MINUTE - utcOffsetHours(state, localDate) * HOUR;
}

/** The local date (midnight UTC of it) holding a UTC instant in a state. */
export function localDateOf(state: string, instant: number): number {
  const guess = Math.floor(instant / DAY) * DAY;
  const local = instant + utcOffsetHours(state, guess) * HOUR;
  return Math.floor(local / DAY) * DAY;
}
