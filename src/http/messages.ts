// The words of validation errors (issue #8): every message names the field, says what is
// expected in the reference's words, shows what was sent and, when one known value is close,
// asks "Did you mean …?". Schemas state rules; this file is the one place that words them, so
// a new schema cannot bring the validation library's own wording (or a regular expression)
// into an answer.
//
// Convention: a schema may word a rule itself with a message that begins with "must" (e.g.
// 'must be a ZIP code (12345 or 12345-6789)'); any other message is the library's and is
// replaced here from the issue's structured fields.
import { distance } from 'fastest-levenshtein';
import type { z } from 'zod';

type Issue = z.core.$ZodIssue;

/** The longest part of a sent value a message repeats (in characters); the rest becomes "…". */
const SHOWN_MAX = 60;

/** Text as a message shows it: quoted and escaped like JSON, cut to SHOWN_MAX characters. */
export function quoted(text: string): string {
  let shown = '';
  let count = 0;
  // By code points, so a cut never splits a surrogate pair.
  for (const char of text) {
    if (count === SHOWN_MAX) return `${JSON.stringify(shown).slice(0, -1)}…"`;
    shown += char;
    count++;
  }
  return JSON.stringify(shown);
}

/** What was sent, as a message shows it: `"lab"`, `5`, `true`, `null`, `an object`, `an array of 3 items`. */
export function shownValue(value: unknown): string {
  if (typeof value === 'string') {
    if (value === '') return 'an empty string';
    // Characters as quoted() counts them: code points, so an emoji is one.
    let characters = 0;
    for (const _ of value) characters++;
    return characters > SHOWN_MAX ? `${quoted(value)} (${characters} characters)` : quoted(value);
  }
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'a number too large to represent';
  if (typeof value === 'boolean' || value === null) return String(value);
  if (Array.isArray(value))
    return value.length === 0 ? 'an empty array' : `an array of ${value.length} item${value.length === 1 ? '' : 's'}`;
  if (typeof value === 'object') return 'an object';
  return 'nothing';
}

/** A name as a message shows it: plain when it reads as a name, else quoted and escaped. */
export function shownName(name: string): string {
  return /^[A-Za-z0-9_.[\]-]{1,60}$/.test(name) ? name : quoted(name);
}

/**
 * The one known value a sent one was probably meant to be: the same but for case, or within a
 * few edits (a third of its length, 1 to 3) and closer than any other known value.
 */
export function closestChoice(sent: unknown, choices: readonly string[]): string | undefined {
  if (typeof sent !== 'string' || sent === '' || sent.length > 100) return undefined;
  const lower = sent.toLowerCase();
  const sameButCase = choices.find((choice) => choice.toLowerCase() === lower);
  if (sameButCase !== undefined) return sameButCase;
  const allowed = sent.length <= 3 ? 1 : Math.min(3, Math.max(2, Math.floor(sent.length / 3)));
  let best: string | undefined;
  let bestDistance = allowed + 1;
  let tie = false;
  for (const choice of choices) {
    const d = isSwap(lower, choice.toLowerCase()) ? 1 : distance(lower, choice.toLowerCase());
    if (d >= choice.length) continue;
    if (d < bestDistance) {
      best = choice;
      bestDistance = d;
      tie = false;
    } else if (d === bestDistance) tie = true;
  }
  return tie ? undefined : best;
}

/** Two neighbouring letters swapped ("ojb" for "job"): one slip of the fingers, two edits to Levenshtein. */
function isSwap(a: string, b: string): boolean {
  // No check of the lengths first: after a swap the rest of each must be equal, which strings of
  // two lengths never are.
  let first = -1;
  for (let i = 0; i !== a.length; i++) {
    if (a[i] === b[i]) continue;
    if (first !== -1) return i === first + 1 && a[first] === b[i] && a[i] === b[first] && a.slice(i + 1) === b.slice(i + 1);
    first = i;
  }
  return false;
}

export function didYouMean(sent: unknown, choices: readonly string[] | undefined): string {
  const choice = choices === undefined ? undefined : closestChoice(sent, choices);
  return choice === undefined ? '' : ` Did you mean ${quoted(choice)}?`;
}

/** "a, b or c" */
export function listOf(values: readonly unknown[]): string {
  const words = values.map((value) => (typeof value === 'string' ? value : JSON.stringify(value)));
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}

const TYPE_WORDS: Record<string, string> = {
  string: 'must be a string',
  number: 'must be a number',
  boolean: 'must be true or false',
  object: 'must be an object',
  array: 'must be an array',
  tuple: 'must be an array',
  null: 'must be null',
};

const FORMAT_WORDS: Record<string, string> = {
  email: 'must be an email address such as billing@example.com',
  date: 'must be a real calendar date as YYYY-MM-DD, such as 2025-06-02',
  datetime: 'must be a UTC timestamp as YYYY-MM-DDTHH:MM:SSZ, such as 2025-06-02T15:04:05Z',
  url: 'must be an absolute URL',
};

function sizeWords(issue: Extract<Issue, { code: 'too_small' | 'too_big' }>): string {
  const small = issue.code === 'too_small';
  const bound = Number(small ? issue.minimum : issue.maximum);
  switch (issue.origin) {
    case 'string':
      if (small) return bound === 1 ? 'must not be empty' : `must be at least ${bound} characters`;
      return `must be at most ${bound} character${bound === 1 ? '' : 's'}`;
    case 'array':
    case 'set':
      return `must list at ${small ? 'least' : 'most'} ${bound} item${bound === 1 ? '' : 's'}`;
    default: {
      const inclusive = issue.inclusive !== false;
      if (small) return inclusive ? `must be ${bound} or more` : `must be more than ${bound}`;
      return inclusive ? `must be ${bound} or less` : `must be less than ${bound}`;
    }
  }
}

/** What the field must be, in words; never the library's. */
export function expectation(issue: Issue, sent: unknown): string {
  if (issue.message.startsWith('must')) return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      if (issue.expected === 'int') {
        // JSON numbers past 2^53 lose digits: no API can promise to read them exactly.
        return Number.isInteger(sent)
          ? `must be a whole number from ${Number.MIN_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER}`
          : 'must be a whole number';
      }
      return TYPE_WORDS[issue.expected] ?? 'has the wrong type';
    case 'invalid_value':
      return issue.values.length === 1 ? `must be ${listOf(issue.values)}` : `must be one of ${listOf(issue.values)}`;
    case 'invalid_format':
      if (issue.format === 'starts_with') return `must begin with ${(issue as { prefix?: string }).prefix ?? 'its prefix'}`;
      return FORMAT_WORDS[issue.format] ?? 'is not in the format this field takes';
    case 'too_small':
    case 'too_big':
      return sizeWords(issue);
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    default:
      // Also a refinement without a "must" message of its own: its text is the library's.
      return 'is not a value this field takes';
  }
}

/** What was sent, as the message shows it; a custom issue may say it better (params.received). */
export function receivedOf(issue: Issue, sent: unknown): string {
  const own = issue.code === 'custom' ? (issue.params as { received?: string } | undefined)?.received : undefined;
  return own ?? shownValue(sent);
}

/** Known values a custom issue offers for "Did you mean …?" (ctx.addIssue({ params: { choices } })). */
export function choicesOf(issue: Issue): readonly string[] | undefined {
  if (issue.code === 'invalid_value') return issue.values.filter((value): value is string => typeof value === 'string');
  if (issue.code === 'custom') return (issue.params as { choices?: readonly string[] } | undefined)?.choices;
  return undefined;
}
