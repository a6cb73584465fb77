// The words of validation errors, function by function: src/http/messages.ts (how a value, a
// name, a rule and a "Did you mean" are worded), src/http/validation.ts (which issue is told and
// at which param) and src/http/query.ts (the query string read as single values). Each bound is
// tried at and on both sides of its value, each branch with an input only it answers, so that a
// changed comparison, string, condition or regular expression in those files fails a test here.
// Expected values are written out literally, never computed by the code under test; a few checks
// go through HTTP where the behaviour shows in an answer.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  choicesOf,
  closestChoice,
  didYouMean,
  expectation,
  listOf,
  quoted,
  receivedOf,
  shownName,
  shownValue,
} from '../../src/http/messages.js';
import { pathAndQuery, readQuery } from '../../src/http/query.js';
import { formatParam, issueToError, parseOrThrow, type ValidationContext, valueAt } from '../../src/http/validation.js';
import { call, testApp } from '../helpers.js';
import { expectError } from '../writes/helpers.js';

type Issue = z.core.$ZodIssue;

/** An issue written by hand: for shapes zod does not make (a missing prefix, an empty union). */
const issue = (fields: object): Issue => fields as Issue;

/** The first issue zod reports for the value. */
function issueOf(schema: z.ZodType, value: unknown): Issue {
  const result = schema.safeParse(value);
  if (result.success) throw new Error(`${JSON.stringify(value)} was accepted`);
  return result.error.issues[0] as Issue;
}

/** What expectation() says about the first issue of the value. */
const expected = (schema: z.ZodType, value: unknown): string => expectation(issueOf(schema, value), value);

interface Answer {
  code: string;
  param: string | undefined;
  message: string;
}

function answerOf(error: unknown): Answer {
  const { code, param, message } = error as Answer;
  return { code, param, message };
}

/** The error parseOrThrow throws for the input. */
function rejection(schema: z.ZodType, input: unknown, context?: ValidationContext): Answer {
  try {
    parseOrThrow(schema, input, context);
  } catch (error) {
    return answerOf(error);
  }
  throw new Error(`${JSON.stringify(input)} was accepted`);
}

/** The error readQuery throws for the URL. */
function queryRejection(url: string): Answer {
  try {
    readQuery(url);
  } catch (error) {
    return answerOf(error);
  }
  throw new Error(`${url} was read`);
}

const invalid = (param: string | undefined, message: string): Answer => ({ code: 'parameter_invalid', param, message });

describe('quoted', () => {
  it('quotes and escapes like JSON', () => {
    expect(quoted('abc')).toBe('"abc"');
    expect(quoted('')).toBe('""');
    expect(quoted('a"b\n')).toBe('"a\\"b\\n"');
  });

  it('keeps 60 characters whole and cuts the 61st to "…"', () => {
    expect(quoted('a'.repeat(59))).toBe(`"${'a'.repeat(59)}"`);
    expect(quoted('a'.repeat(60))).toBe(`"${'a'.repeat(60)}"`);
    expect(quoted('a'.repeat(61))).toBe(`"${'a'.repeat(60)}…"`);
    expect(quoted(`${'a'.repeat(60)}"\n`)).toBe(`"${'a'.repeat(60)}…"`);
  });

  it('counts by code points: a surrogate pair is one character and is never split', () => {
    // 59 letters and an emoji: 60 characters (61 UTF-16 units), shown whole.
    expect(quoted(`${'a'.repeat(59)}😀`)).toBe(`"${'a'.repeat(59)}😀"`);
    expect(quoted(`${'a'.repeat(59)}😀b`)).toBe(`"${'a'.repeat(59)}😀…"`);
    expect(quoted(`${'a'.repeat(60)}😀`)).toBe(`"${'a'.repeat(60)}…"`);
  });
});

describe('shownValue', () => {
  it('shows a string quoted, an empty one in words, a long one cut with its length', () => {
    expect(shownValue('')).toBe('an empty string');
    expect(shownValue('lab')).toBe('"lab"');
    expect(shownValue('a'.repeat(60))).toBe(`"${'a'.repeat(60)}"`);
    expect(shownValue('a'.repeat(61))).toBe(`"${'a'.repeat(60)}…" (61 characters)`);
  });

  it('counts a long string by code points, as it is cut: an emoji is one character', () => {
    // 31 emoji are 62 UTF-16 units but 31 characters: shown whole, with no count.
    expect(shownValue('😀'.repeat(31))).toBe(`"${'😀'.repeat(31)}"`);
    expect(shownValue('😀'.repeat(60))).toBe(`"${'😀'.repeat(60)}"`);
    expect(shownValue('😀'.repeat(61))).toBe(`"${'😀'.repeat(60)}…" (61 characters)`);
  });

  it('shows numbers, booleans and null as written; a number past JSON in words', () => {
    expect(shownValue(5)).toBe('5');
    expect(shownValue(-1.5)).toBe('-1.5');
    expect(shownValue(0)).toBe('0');
    expect(shownValue(Number.POSITIVE_INFINITY)).toBe('a number too large to represent');
    expect(shownValue(Number.NaN)).toBe('a number too large to represent');
    expect(shownValue(true)).toBe('true');
    expect(shownValue(false)).toBe('false');
    expect(shownValue(null)).toBe('null');
  });

  it('describes arrays by size, "item" for one, and objects and nothing in words', () => {
    expect(shownValue([])).toBe('an empty array');
    expect(shownValue(['a'])).toBe('an array of 1 item');
    expect(shownValue(['a', 'b'])).toBe('an array of 2 items');
    expect(shownValue({})).toBe('an object');
    expect(shownValue({ a: 1 })).toBe('an object');
    expect(shownValue(undefined)).toBe('nothing');
  });
});

describe('shownName', () => {
  it('leaves a name of letters, digits and _ . [ ] - plain, 1 to 60 of them', () => {
    expect(shownName('limit')).toBe('limit');
    expect(shownName('x')).toBe('x');
    expect(shownName('address.city')).toBe('address.city');
    expect(shownName('waste_codes[2]')).toBe('waste_codes[2]');
    expect(shownName('AZaz09_.[]-')).toBe('AZaz09_.[]-');
    expect(shownName('a'.repeat(60))).toBe('a'.repeat(60));
  });

  it('quotes anything else: an empty name, a space or quote anywhere, 61 characters', () => {
    expect(shownName('')).toBe('""');
    expect(shownName('a b')).toBe('"a b"');
    expect(shownName(' ab')).toBe('" ab"');
    expect(shownName('ab ')).toBe('"ab "');
    expect(shownName('a"b')).toBe('"a\\"b"');
    expect(shownName('é')).toBe('"é"');
    expect(shownName('a'.repeat(61))).toBe(`"${'a'.repeat(60)}…"`);
  });
});

describe('closestChoice', () => {
  it('offers the known value one typo away, and nothing for a value far from all of them', () => {
    expect(closestChoice('lmit', ['limit', 'starting_after'])).toBe('limit');
    expect(closestChoice('jbb', ['job'])).toBe('job');
    expect(closestChoice('zzzz', ['limit'])).toBeUndefined();
  });

  it('offers nothing for a value that is not a string, is empty or is over 100 characters', () => {
    expect(closestChoice(5, ['5'])).toBeUndefined();
    expect(closestChoice(undefined, ['a'])).toBeUndefined();
    expect(closestChoice('', ['', 'a'])).toBeUndefined();
    expect(closestChoice('a'.repeat(100), ['A'.repeat(100)])).toBe('A'.repeat(100));
    expect(closestChoice('a'.repeat(101), ['a'.repeat(101)])).toBeUndefined();
  });

  it('offers the same value but for case first, the first of several', () => {
    expect(closestChoice('Lab', ['lab'])).toBe('lab');
    expect(closestChoice('LIMIT', ['limit'])).toBe('limit');
    // Both are the same but for case: the first wins, no tie.
    expect(closestChoice('lab', ['LAB', 'Lab'])).toBe('LAB');
  });

  it('allows 1 edit up to 3 characters', () => {
    expect(closestChoice('abc', ['axc'])).toBe('axc');
    expect(closestChoice('abc', ['axyc'])).toBeUndefined();
  });

  it('allows a third of the length past 3 characters, at least 2 and at most 3', () => {
    // 4 characters: 2 edits, not 3.
    expect(closestChoice('limt', ['limits'])).toBe('limits');
    expect(closestChoice('abcd', ['axyzd'])).toBeUndefined();
    // 8 characters: 2 edits; 9: 3.
    expect(closestChoice('abcdefgh', ['abcdeXYh'])).toBe('abcdeXYh');
    expect(closestChoice('abcdefgh', ['abcdeXYZ'])).toBeUndefined();
    expect(closestChoice('abcdefghi', ['abcdefXYZ'])).toBe('abcdefXYZ');
    // 12 characters: still 3, never 4.
    expect(closestChoice('abcdefghijkl', ['abcdefghiXYZ'])).toBe('abcdefghiXYZ');
    expect(closestChoice('abcdefghijkl', ['abcdefghWXYZ'])).toBeUndefined();
  });

  it('skips a known value the edits would replace whole', () => {
    expect(closestChoice('x', ['y'])).toBeUndefined();
    expect(closestChoice('abcd', ['ab'])).toBeUndefined();
    expect(closestChoice('abc', ['ab'])).toBe('ab');
  });

  it('offers nothing on a tie, and the better one after a tie', () => {
    expect(closestChoice('lmit', ['limit', 'lmits'])).toBeUndefined();
    expect(closestChoice('abcde', ['abcxy', 'abcyx', 'abcdx'])).toBe('abcdx');
    expect(closestChoice('abcde', ['abcdx', 'abcxy'])).toBe('abcdx');
  });

  it('counts two neighbouring letters swapped as one edit, at the start or the end', () => {
    expect(closestChoice('ojb', ['job'])).toBe('job');
    expect(closestChoice('jbo', ['job'])).toBe('job');
    expect(closestChoice('OJB', ['Job'])).toBe('Job');
    // A swap (1 edit) is closer than a change of two letters (2 edits).
    expect(closestChoice('naem', ['nope', 'name'])).toBe('name');
  });

  it('does not count as a swap letters apart, letters that are not exchanged, or a swap and a change', () => {
    expect(closestChoice('abc', ['cba'])).toBeUndefined();
    expect(closestChoice('abd', ['bcd'])).toBeUndefined();
    expect(closestChoice('bad', ['cbd'])).toBeUndefined();
    expect(closestChoice('ojbx', ['jobz'])).toBeUndefined();
  });
});

describe('didYouMean', () => {
  it('asks about the closest known value, quoted, and says nothing without one', () => {
    expect(didYouMean('lmit', ['limit'])).toBe(' Did you mean "limit"?');
    expect(didYouMean('zzzz', ['limit'])).toBe('');
    expect(didYouMean('lmit', undefined)).toBe('');
    expect(didYouMean(5, ['5'])).toBe('');
  });
});

describe('listOf', () => {
  it('lists one value alone, two with "or", more with commas and "or"', () => {
    expect(listOf([])).toBe('');
    expect(listOf(['a'])).toBe('a');
    expect(listOf([5])).toBe('5');
    expect(listOf([null])).toBe('null');
    expect(listOf(['a', 'b'])).toBe('a or b');
    expect(listOf(['a', 'b', 'c'])).toBe('a, b or c');
    expect(listOf([1, 'x', true, null])).toBe('1, x, true or null');
  });
});

describe('expectation', () => {
  it('passes a schema\'s own "must" message through, and replaces any other', () => {
    expect(expected(z.string().regex(/x/, 'must be an x'), 'y')).toBe('must be an x');
    expect(
      expected(
        z.string().refine(() => false, 'Nope, it must be x'),
        'y',
      ),
    ).toBe('is not a value this field takes');
    expect(
      expected(
        z.string().refine(() => false),
        'y',
      ),
    ).toBe('is not a value this field takes');
  });

  it('words each type', () => {
    expect(expected(z.string(), 5)).toBe('must be a string');
    expect(expected(z.number(), 'x')).toBe('must be a number');
    expect(expected(z.boolean(), 'yes')).toBe('must be true or false');
    expect(expected(z.strictObject({}), [])).toBe('must be an object');
    expect(expected(z.array(z.string()), 'x')).toBe('must be an array');
    expect(expected(z.tuple([z.string()]), 'x')).toBe('must be an array');
    expect(expected(z.null(), 1)).toBe('must be null');
    expect(expected(z.bigint(), 1)).toBe('has the wrong type');
  });

  it('words a whole number, and the safe range when an integer was sent', () => {
    expect(expected(z.int(), 1.5)).toBe('must be a whole number');
    const int = issue({ code: 'invalid_type', expected: 'int', path: [], message: 'Invalid input' });
    expect(expectation(int, 2 ** 60)).toBe('must be a whole number from -9007199254740991 to 9007199254740991');
    expect(expectation(int, 1.5)).toBe('must be a whole number');
    // What zod 4 reports for an unsafe integer: a bound of the int type.
    expect(expected(z.int(), 2 ** 60)).toBe('must be 9007199254740991 or less');
  });

  it('words one allowed value and several', () => {
    expect(expected(z.literal('a'), 'b')).toBe('must be a');
    expect(expected(z.literal(5), 4)).toBe('must be 5');
    expect(expected(z.enum(['a', 'b']), 'c')).toBe('must be one of a or b');
    expect(expected(z.enum(['a', 'b', 'c']), 'd')).toBe('must be one of a, b or c');
  });

  it('words a prefix, each known format, and any other format', () => {
    expect(expected(z.string().startsWith('job_'), 'x')).toBe('must begin with job_');
    const noPrefix = issue({ code: 'invalid_format', format: 'starts_with', path: [], message: 'Invalid string' });
    expect(expectation(noPrefix, 'x')).toBe('must begin with its prefix');
    expect(expected(z.email(), 'x')).toBe('must be an email address such as billing@example.com');
    expect(expected(z.iso.date(), 'x')).toBe('must be a real calendar date as YYYY-MM-DD, such as 2025-06-02');
    expect(expected(z.iso.datetime(), 'x')).toBe('must be a UTC timestamp as YYYY-MM-DDTHH:MM:SSZ, such as 2025-06-02T15:04:05Z');
    expect(expected(z.url(), 'x')).toBe('must be an absolute URL');
    expect(expected(z.uuid(), 'x')).toBe('is not in the format this field takes');
    expect(expected(z.string().endsWith('x'), 'y')).toBe('is not in the format this field takes');
  });

  it('words the length of a string: "must not be empty" for a bound of 1', () => {
    expect(expected(z.string().min(1), '')).toBe('must not be empty');
    expect(expected(z.string().min(2), 'a')).toBe('must be at least 2 characters');
    expect(expected(z.string().max(3), 'abcd')).toBe('must be at most 3 characters');
    expect(expected(z.string().max(1), 'ab')).toBe('must be at most 1 character');
  });

  it('words the size of an array or a set, "item" for a bound of 1', () => {
    expect(expected(z.array(z.string()).min(1), [])).toBe('must list at least 1 item');
    expect(expected(z.array(z.string()).min(2), ['a'])).toBe('must list at least 2 items');
    expect(expected(z.array(z.string()).max(1), ['a', 'b'])).toBe('must list at most 1 item');
    expect(expected(z.array(z.string()).max(2), ['a', 'b', 'c'])).toBe('must list at most 2 items');
    expect(expected(z.set(z.string()).min(2), new Set(['a']))).toBe('must list at least 2 items');
  });

  it('words a number bound, inclusive or exclusive (inclusive when the issue does not say)', () => {
    expect(expected(z.number().min(3), 2)).toBe('must be 3 or more');
    expect(expected(z.number().gt(3), 3)).toBe('must be more than 3');
    expect(expected(z.number().max(3), 4)).toBe('must be 3 or less');
    expect(expected(z.number().lt(3), 3)).toBe('must be less than 3');
    const unsaid = issue({ code: 'too_small', origin: 'number', minimum: 0, path: [], message: 'Too small' });
    expect(expectation(unsaid, -1)).toBe('must be 0 or more');
  });

  it('words a multiple, and anything else as a value the field does not take', () => {
    expect(expected(z.number().multipleOf(5), 3)).toBe('must be a multiple of 5');
    const unknown = issue({ code: 'unrecognized_keys', keys: ['x'], path: [], message: 'Unrecognized key' });
    expect(expectation(unknown, {})).toBe('is not a value this field takes');
  });
});

describe('receivedOf and choicesOf', () => {
  const own = issue({ code: 'custom', path: [], message: 'must be x', params: { received: '3 pairs', choices: ['D001', 'D002'] } });
  const bare = issue({ code: 'custom', path: [], message: 'must be x' });
  const noWords = issue({ code: 'custom', path: [], message: 'must be x', params: {} });
  // Params on an issue that is not custom are not read.
  const typed = issue({ code: 'invalid_type', expected: 'string', path: [], message: 'x', params: { received: 'mine', choices: ['a'] } });

  it('shows what a custom issue says was received, else the value', () => {
    expect(receivedOf(own, 'x')).toBe('3 pairs');
    expect(receivedOf(bare, 'x')).toBe('"x"');
    expect(receivedOf(noWords, 5)).toBe('5');
    expect(receivedOf(typed, 5)).toBe('5');
  });

  it('offers the string values of an invalid value, the choices of a custom issue, else none', () => {
    const values = issue({ code: 'invalid_value', values: ['a', 1, null, 'b'], path: [], message: 'x' });
    expect(choicesOf(values)).toEqual(['a', 'b']);
    expect(choicesOf(own)).toEqual(['D001', 'D002']);
    expect(choicesOf(bare)).toBeUndefined();
    expect(choicesOf(noWords)).toBeUndefined();
    expect(choicesOf(typed)).toBeUndefined();
  });
});

describe('formatParam and valueAt', () => {
  it('dots names and brackets indexes', () => {
    expect(formatParam([])).toBe('');
    expect(formatParam(['name'])).toBe('name');
    expect(formatParam(['address', 'city'])).toBe('address.city');
    expect(formatParam(['waste_codes', 2])).toBe('waste_codes[2]');
    expect(formatParam(['lines', 0, 'unit'])).toBe('lines[0].unit');
    expect(formatParam([0, 'a'])).toBe('[0].a');
  });

  it('finds the value at a path, through objects and arrays, and says when it is not there', () => {
    expect(valueAt({ a: { b: 1 } }, ['a', 'b'])).toStrictEqual({ found: true, value: 1 });
    expect(valueAt({ a: [10, 20] }, ['a', 1])).toStrictEqual({ found: true, value: 20 });
    expect(valueAt({ a: undefined }, ['a'])).toStrictEqual({ found: true, value: undefined });
    expect(valueAt('sent', [])).toStrictEqual({ found: true, value: 'sent' });
    expect(valueAt({ a: null }, ['a', 'b'])).toStrictEqual({ found: false, value: undefined });
    expect(valueAt(null, ['a'])).toStrictEqual({ found: false, value: undefined });
    // A string has its own "length", but it is not an object a field sits in.
    expect(valueAt({ a: 'text' }, ['a', 'length'])).toStrictEqual({ found: false, value: undefined });
    expect(valueAt({}, ['toString'])).toStrictEqual({ found: false, value: undefined });
    expect(valueAt({ a: 1 }, ['b'])).toStrictEqual({ found: false, value: undefined });
  });
});

// A body schema with every kind of nesting knownKeysAt walks: optional and default wrappers
// (innerType), a transform (a pipe: in), objects, an array, a tuple, a record and a catchall.
const Body = z.strictObject({
  name: z.string(),
  kind: z.enum(['hhw_program', 'laboratory']),
  address: z.strictObject({ city: z.string(), state: z.string() }).optional(),
  lines: z.array(z.strictObject({ profile: z.string(), quantity: z.number().min(0) })).optional(),
  window: z
    .strictObject({ start: z.string() })
    .transform((window) => window)
    .optional(),
  notes: z.strictObject({ text: z.string() }).default({ text: '' }),
  'my field': z.string().optional(),
  pair: z.tuple([z.strictObject({ a: z.string() })]).optional(),
  meta: z.record(z.string(), z.strictObject({ a: z.string() })).optional(),
  extra: z
    .object({})
    .catchall(z.strictObject({ a: z.string() }))
    .optional(),
  choice: z.union([z.strictObject({ a: z.string() }), z.number()]).optional(),
  code: z
    .string()
    .superRefine((_, ctx) => {
      ctx.addIssue({ code: 'custom', message: 'must be a known code', params: { received: 'the code "D01"', choices: ['D001', 'D002'] } });
    })
    .optional(),
});
const BASE = { name: 'Acme', kind: 'laboratory' };

// The text Stryker puts in an emptied list: where the schema knows no names, an unknown field so
// named must still get no "Did you mean".
const STRYKER = 'stryker was here';

describe('issueToError: unknown fields', () => {
  it('names an unknown field first, even after other issues, with "Did you mean" from the schema', () => {
    expect(rejection(Body, { ...BASE, nmae: 'x' })).toStrictEqual(
      invalid('nmae', 'Received unknown parameter: nmae. Did you mean "name"?'),
    );
    expect(rejection(Body, { nmae: 'x' })).toStrictEqual(invalid('nmae', 'Received unknown parameter: nmae. Did you mean "name"?'));
    expect(rejection(Body, { ...BASE, zzz: 1, yyy: 2 })).toStrictEqual(invalid('zzz', 'Received unknown parameter: zzz.'));
    expect(rejection(Body, { ...BASE, 'my feild': 'x' })).toStrictEqual(
      invalid('my feild', 'Received unknown parameter: "my feild". Did you mean "my field"?'),
    );
  });

  it('finds the names of a nested object through optional, default and transform wrappers and arrays', () => {
    expect(rejection(Body, { ...BASE, address: { ctiy: 'x', state: 'y' } })).toStrictEqual(
      invalid('address.ctiy', 'Received unknown parameter: address.ctiy. Did you mean "city"?'),
    );
    expect(rejection(Body, { ...BASE, notes: { txt: 'x' } })).toStrictEqual(
      invalid('notes.txt', 'Received unknown parameter: notes.txt. Did you mean "text"?'),
    );
    expect(rejection(Body, { ...BASE, window: { strat: '08:00' } })).toStrictEqual(
      invalid('window.strat', 'Received unknown parameter: window.strat. Did you mean "start"?'),
    );
    expect(
      rejection(Body, {
        ...BASE,
        lines: [
          { profile: 'p', quantity: 1 },
          { profile: 'p', quantiy: 1 },
        ],
      }),
    ).toStrictEqual(invalid('lines[1].quantiy', 'Received unknown parameter: lines[1].quantiy. Did you mean "quantity"?'));
    expect(rejection(Body.optional(), { ...BASE, nmae: 'x' })).toStrictEqual(
      invalid('nmae', 'Received unknown parameter: nmae. Did you mean "name"?'),
    );
    expect(
      rejection(
        Body.transform((body) => body),
        { ...BASE, nmae: 'x' },
      ),
    ).toStrictEqual(invalid('nmae', 'Received unknown parameter: nmae. Did you mean "name"?'));
  });

  it('offers nothing where the schema names no fields: a tuple, a record, a catchall, a union at the root', () => {
    expect(rejection(Body, { ...BASE, pair: [{ [STRYKER]: 'x' }] })).toStrictEqual(
      invalid('pair[0].stryker was here', 'Received unknown parameter: "pair[0].stryker was here".'),
    );
    expect(rejection(Body, { ...BASE, meta: { k: { [STRYKER]: 'x' } } })).toStrictEqual(
      invalid('meta.k.stryker was here', 'Received unknown parameter: "meta.k.stryker was here".'),
    );
    expect(rejection(Body, { ...BASE, extra: { k: { [STRYKER]: 'x' } } })).toStrictEqual(
      invalid('extra.k.stryker was here', 'Received unknown parameter: "extra.k.stryker was here".'),
    );
    const Union = z.discriminatedUnion('k', [z.strictObject({ k: z.literal('a'), x: z.string() })]);
    expect(rejection(Union, { k: 'a', x: 'y', [STRYKER]: 1 })).toStrictEqual(
      invalid('stryker was here', 'Received unknown parameter: "stryker was here".'),
    );
  });

  it('unwraps at most 63 wrappers around the object', () => {
    const wrapped = (count: number): z.ZodType => {
      let schema: z.ZodType = z.strictObject({ name: z.string() });
      for (let i = 0; i < count; i++) schema = schema.optional();
      return schema;
    };
    expect(rejection(wrapped(63), { name: 'x', nmae: 'y' })).toStrictEqual(
      invalid('nmae', 'Received unknown parameter: nmae. Did you mean "name"?'),
    );
    expect(rejection(wrapped(64), { name: 'x', nmae: 'y' })).toStrictEqual(invalid('nmae', 'Received unknown parameter: nmae.'));
    expect(rejection(wrapped(64), { name: 'x', [STRYKER]: 'y' })).toStrictEqual(
      invalid('stryker was here', 'Received unknown parameter: "stryker was here".'),
    );
  });

  it('gives no param for a field with an empty name at the root, and its object when nested', () => {
    expect(rejection(Body, { ...BASE, '': 1 })).toStrictEqual(
      invalid(undefined, 'Received a parameter with an empty name; every parameter needs a name.'),
    );
    expect(rejection(Body, { ...BASE, address: { city: 'x', state: 'y', '': 1 } })).toStrictEqual(
      invalid('address', 'Received a parameter with an empty name in address; every parameter needs a name.'),
    );
  });

  it('says a read-only field at the root cannot be changed; the same name nested is unknown', () => {
    const context = { readonlyFields: ['id', 'created_at'] };
    expect(rejection(Body, { ...BASE, id: 'x' }, context)).toStrictEqual(invalid('id', 'id cannot be changed by this endpoint.'));
    expect(rejection(Body, { ...BASE, created_at: 1 }, context)).toStrictEqual(
      invalid('created_at', 'created_at cannot be changed by this endpoint.'),
    );
    expect(rejection(Body, { ...BASE, address: { city: 'x', state: 'y', id: 'z' } }, context)).toStrictEqual(
      invalid('address.id', 'Received unknown parameter: address.id.'),
    );
    expect(rejection(Body, { ...BASE, nmae: 'x' }, context)).toStrictEqual(
      invalid('nmae', 'Received unknown parameter: nmae. Did you mean "name"?'),
    );
  });

  it('without a context or a schema, names the unknown field with no "Did you mean"', () => {
    const input = { ...BASE, nmae: 'x' };
    const issues = Body.safeParse(input).error?.issues ?? [];
    expect(answerOf(issueToError(issues, input))).toStrictEqual(invalid('nmae', 'Received unknown parameter: nmae.'));
    // Another API's name for a parameter (cursor for starting_after) is suggested only where the
    // schema has the reference's name: with no schema, nothing is.
    const cursor = { ...BASE, cursor: 'x' };
    const cursorIssues = Body.safeParse(cursor).error?.issues ?? [];
    expect(answerOf(issueToError(cursorIssues, cursor))).toStrictEqual(invalid('cursor', 'Received unknown parameter: cursor.'));
  });
});

describe('issueToError: unknown fields under a field named after an Object.prototype member', () => {
  // A shape is a plain object: its lookup must see own keys only, or `constructor` finds
  // Object.prototype.constructor and the message cannot be made (a 500, not a 400).
  const Open = z.strictObject({ name: z.string() }).catchall(z.strictObject({ a: z.string() }));

  it.each([['constructor'], ['toString'], ['hasOwnProperty']])('names the unknown field under %s', (name) => {
    const input = JSON.parse(`{"name":"x","${name}":{"b":1}}`);
    expect(rejection(Open, input)).toStrictEqual({
      code: 'parameter_invalid',
      param: `${name}.b`,
      message: `Received unknown parameter: ${name}.b.`,
    });
  });
});

describe('issueToError: knownKeysAt on def shapes zod itself never makes', () => {
  // Only an object has a shape and only an array an element in zod 4; these stand-ins tell apart
  // each of knownKeysAt's checks, which guard against that ever changing.
  const standIn = (def: object): z.ZodType => ({ _zod: { def } }) as unknown as z.ZodType;
  const Named = z.strictObject({ name: z.string() });
  const unknownAt = (path: PropertyKey[], key: string): Issue[] => [issue({ code: 'unrecognized_keys', keys: [key], path, message: 'x' })];
  const told = (schema: z.ZodType, path: PropertyKey[]): string => answerOf(issueToError(unknownAt(path, 'nmae'), {}, {}, schema)).message;

  it('reads names only from an object with a shape', () => {
    expect(told(standIn({ type: 'custom', shape: { name: Named } }), [])).toBe('Received unknown parameter: nmae.');
    expect(told(standIn({ type: 'object' }), [])).toBe('Received unknown parameter: nmae.');
    expect(told(standIn({ type: 'custom', shape: { a: Named } }), ['a'])).toBe('Received unknown parameter: a.nmae.');
    expect(told(standIn({ type: 'object' }), ['a'])).toBe('Received unknown parameter: a.nmae.');
  });

  it('steps into an element only for an array that has one, at an index', () => {
    expect(told(standIn({ type: 'array', element: Named }), [0])).toBe('Received unknown parameter: [0].nmae. Did you mean "name"?');
    expect(told(standIn({ type: 'custom', element: Named }), [0])).toBe('Received unknown parameter: [0].nmae.');
    expect(told(standIn({ type: 'array' }), [0])).toBe('Received unknown parameter: [0].nmae.');
    expect(told(standIn({ type: 'array', element: Named }), ['a'])).toBe('Received unknown parameter: a.nmae.');
  });
});

describe('issueToError: other issues', () => {
  it('says a required field is missing, at the root or nested', () => {
    expect(rejection(Body, { kind: 'laboratory' })).toStrictEqual({
      code: 'parameter_missing',
      param: 'name',
      message: 'Missing required param: name.',
    });
    expect(rejection(Body, { ...BASE, address: { city: 'x' } })).toStrictEqual({
      code: 'parameter_missing',
      param: 'address.state',
      message: 'Missing required param: address.state.',
    });
  });

  it('names the field, the rule, what was sent and the closest allowed value', () => {
    expect(rejection(Body, { ...BASE, name: 5 })).toStrictEqual(invalid('name', 'Invalid name: must be a string; received 5.'));
    expect(rejection(Body, { ...BASE, kind: 'Laboratory' })).toStrictEqual(
      invalid('kind', 'Invalid kind: must be one of hhw_program or laboratory; received "Laboratory". Did you mean "laboratory"?'),
    );
    expect(rejection(Body, { ...BASE, lines: [{ profile: 'p', quantity: -1 }] })).toStrictEqual(
      invalid('lines[0].quantity', 'Invalid lines[0].quantity: must be 0 or more; received -1.'),
    );
    expect(rejection(Body, { ...BASE, 'my field': 5 })).toStrictEqual(
      invalid('my field', 'Invalid "my field": must be a string; received 5.'),
    );
  });

  it('uses the words and choices a custom issue gives', () => {
    expect(rejection(Body, { ...BASE, code: 'D01' })).toStrictEqual(
      invalid('code', 'Invalid code: must be a known code; received the code "D01". Did you mean "D001"?'),
    );
  });

  it("tells a union by its first branch's first issue, at its full path", () => {
    expect(rejection(Body, { ...BASE, choice: { a: 1 } })).toStrictEqual(
      invalid('choice.a', 'Invalid choice.a: must be a string; received 1.'),
    );
    expect(rejection(Body, { ...BASE, choice: true })).toStrictEqual(
      invalid('choice', 'Invalid choice: must be an object; received true.'),
    );
    const nested = z.strictObject({ v: z.union([z.union([z.string(), z.number()]), z.boolean()]) });
    expect(rejection(nested, { v: null })).toStrictEqual(invalid('v', 'Invalid v: must be a string; received null.'));
    const empty = issue({ code: 'invalid_union', errors: [], path: ['v'], message: 'Invalid input' });
    expect(answerOf(issueToError([empty], { v: 1 }))).toStrictEqual(
      invalid('v', 'Invalid v: is not a value this field takes; received 1.'),
    );
  });

  it('words an issue with the body itself as "the body", with no param', () => {
    expect(rejection(z.string(), 5)).toStrictEqual(invalid(undefined, 'Invalid request: the body must be a string; received 5.'));
    expect(rejection(z.strictObject({}), [1])).toStrictEqual(
      invalid(undefined, 'Invalid request: the body must be an object; received an array of 1 item.'),
    );
  });
});

describe('parseOrThrow', () => {
  it('returns what the schema makes of an accepted input', () => {
    expect(
      parseOrThrow(
        z.string().transform((text) => text.length),
        'abc',
      ),
    ).toBe(3);
    expect(parseOrThrow(Body, BASE)).toStrictEqual({ name: 'Acme', kind: 'laboratory', notes: { text: '' } });
  });
});

describe('pathAndQuery', () => {
  it('cuts the scheme and host from an absolute URL', () => {
    expect(pathAndQuery('http://localhost:3000/v1/jobs?limit=1')).toBe('/v1/jobs?limit=1');
    expect(pathAndQuery('https://sandbox.example/')).toBe('/');
    expect(pathAndQuery('http://h/a//b?c=//d')).toBe('/a//b?c=//d');
  });
});

describe('readQuery', () => {
  it('is null with no query, or only its "?"', () => {
    expect(readQuery('http://h/v1/jobs')).toBeNull();
    expect(readQuery('http://h/v1/jobs?')).toBeNull();
  });

  it('reads each parameter once, decoded', () => {
    expect(readQuery('http://h/v1/jobs?limit=5&status=draft')).toStrictEqual({ limit: '5', status: 'draft' });
    expect(readQuery('http://h/a?b=1')).toStrictEqual({ b: '1' });
    expect(readQuery('http://h/?x')).toStrictEqual({ x: '' });
    expect(readQuery('http://h/?a+b=%22c%22')).toStrictEqual({ 'a b': '"c"' });
  });

  it('keeps __proto__ a plain key, an ordinary writable property', () => {
    const query = readQuery('http://h/?__proto__=x&a=1') as Record<string, string>;
    expect(Object.keys(query)).toEqual(['__proto__', 'a']);
    expect(Object.getPrototypeOf(query)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(query, 'a')).toStrictEqual({ value: '1', enumerable: true, writable: true, configurable: true });
  });

  it('refuses a parameter given twice, showing both values; with no param for an empty name', () => {
    expect(queryRejection('http://h/?a=1&a=2')).toStrictEqual(
      invalid('a', 'a must be given once; received it more than once ("1" and "2").'),
    );
    expect(queryRejection('http://h/?a=1&b=3&a=')).toStrictEqual(
      invalid('a', 'a must be given once; received it more than once ("1" and "").'),
    );
    expect(queryRejection('http://h/?=1&=2')).toStrictEqual(
      invalid(undefined, 'A parameter with an empty name must be given once; received it more than once ("1" and "2").'),
    );
    expect(queryRejection('http://h/?a+b=1&a+b=2')).toStrictEqual(
      invalid('a b', '"a b" must be given once; received it more than once ("1" and "2").'),
    );
  });
});

describe('through HTTP', () => {
  const app = testApp();

  it('a query parameter given twice is a 400 naming it', async () => {
    const result = await call(app, '/v1/jobs?limit=1&limit=2');
    expectError(result, { status: 400, code: 'parameter_invalid', param: 'limit' });
    expect(result.json.error.message).toBe('limit must be given once; received it more than once ("1" and "2").');
  });

  it('a parameter with an empty name given twice is a 400 with no param', async () => {
    const result = await call(app, '/v1/jobs?=1&=2');
    expectError(result, { status: 400, code: 'parameter_invalid' });
    expect(result.json.error.message).toBe('A parameter with an empty name must be given once; received it more than once ("1" and "2").');
  });

  it('a list filter one letter off gets "Did you mean"', async () => {
    const result = await call(app, '/v1/jobs?status=drat');
    expectError(result, { status: 400, code: 'parameter_invalid', param: 'status' });
    expect(result.json.error.message).toBe(
      'Invalid status: must be one of draft, scheduled, in_progress, closed, billed or cancelled; received "drat". Did you mean "draft"?',
    );
  });

  it('a list filter that is only the start of a choice gets no "Did you mean": four letters are missing, not swapped', async () => {
    const result = await call(app, '/v1/jobs?status=sched');
    expectError(result, { status: 400, code: 'parameter_invalid', param: 'status' });
    expect(result.json.error.message).toBe(
      'Invalid status: must be one of draft, scheduled, in_progress, closed, billed or cancelled; received "sched".',
    );
  });

  it('a lone "?" is no query at all', async () => {
    const result = await call(app, '/v1/jobs?');
    expect(result.status, result.text).toBe(200);
  });

  it('a body without a required field is parameter_missing; a field with an empty name has no param', async () => {
    const missing = await call(app, '/v1/clients', { method: 'POST', body: { kind: 'laboratory' } });
    expectError(missing, { status: 400, code: 'parameter_missing', param: 'name' });
    expect(missing.json.error.message).toBe('Missing required param: name.');

    const empty = await call(app, '/v1/clients', { method: 'POST', body: { name: 'Acme', kind: 'laboratory', '': 1 } });
    expectError(empty, { status: 400, code: 'parameter_invalid' });
    expect(empty.json.error.message).toBe('Received a parameter with an empty name; every parameter needs a name.');
  });
});
