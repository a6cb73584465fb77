// isJsonText (src/http/json-syntax.ts) against its oracle, JSON.parse: the check that large request
// bodies are JSON before they are parsed (docs/operations.md, "Memory bounds") must accept exactly
// the texts JSON.parse accepts. A seeded property over JSON texts and texts one edit away from
// JSON, then a table of literal cases with their expected answers, one or more per branch of the
// grammar. In-process and fast: the mutation run (docs/operations.md, "Mutation testing") runs it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isJsonText, requireJsonText } from '../src/http/json-syntax.js';

// Seeded as the fuzz suites are: the same cases every run; JSON_SYNTAX_SEED replays a failure
// (fast-check prints the seed and the shrunk case), JSON_SYNTAX_SEED=random picks a new one.
const SEED = process.env.JSON_SYNTAX_SEED === 'random' ? Date.now() % 2 ** 31 : Number(process.env.JSON_SYNTAX_SEED ?? 20_261_126);
const NUM_RUNS = Number(process.env.JSON_SYNTAX_NUM_RUNS ?? 1_500);

/** The oracle: whether JSON.parse takes the text. */
const succeeds = (parse: () => unknown): boolean => {
  try {
    parse();
    return true;
  } catch {
    return false;
  }
};
const parses = (text: string) => succeeds(() => JSON.parse(text));

/** JSON's own characters, and a few it does not allow where they land: a control character, a lone surrogate, a non-ASCII letter. */
const ALPHABET = [
  ...'{}[],:"\\ 0123456789-+.eEtrufalsn',
  '\u0001',
  '\u001f',
  '\u007f',
  '\t',
  '\n',
  '\r',
  '\ud800',
  'é',
  'A',
  'F',
  'f',
  'x',
];
const character = fc.constantFrom(...ALPHABET);

/** The four spaces JSON allows, in runs. */
const space = fc.string({ unit: fc.constantFrom(' ', '\t', '\n', '\r'), maxLength: 3 });

/** A JSON value serialised with JSON.stringify's spacing choices. */
const stringified = fc
  .tuple(fc.jsonValue({ maxDepth: 4 }), fc.constantFrom<string | number | undefined>(undefined, 0, 1, 2, '\t', '\r\n', ' \n\t'))
  .map(([value, indent]) => JSON.stringify(value, null, indent));

/** JSON texts: fast-check's own, stringified values, and either with spaces around them. */
const jsonText = fc.oneof(
  fc.json({ maxDepth: 4 }),
  stringified,
  fc.tuple(space, fc.oneof(fc.json({ maxDepth: 3 }), stringified), space).map(([before, text, after]) => before + text + after),
);

/** One edit of a JSON text: a character inserted, deleted or replaced at some place. */
const nearJsonText = fc.tuple(jsonText, fc.nat(), fc.constantFrom('insert', 'delete', 'replace'), character).map(([text, at, edit, c]) => {
  const i = text.length === 0 ? 0 : at % (edit === 'insert' ? text.length + 1 : text.length);
  if (edit === 'insert') return text.slice(0, i) + c + text.slice(i);
  if (edit === 'delete') return text.slice(0, i) + text.slice(i + 1);
  return text.slice(0, i) + c + text.slice(i + 1);
});

/** Short runs of JSON's tokens and stray characters, in any order: reaches the structure's every state. */
const TOKENS = ['{', '}', '[', ']', ',', ':', '"k"', '"\\u00e9"', '"\\', '0', '-1.5e+3', '1', 'true', 'null', ' ', '\t', '\n', 'x'];
const tokenSoup = fc.array(fc.constantFrom(...TOKENS), { maxLength: 12 }).map((tokens) => tokens.join(''));

describe('isJsonText against JSON.parse (seeded property)', () => {
  it('accepts every JSON text', () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        expect(parses(text)).toBe(true);
        expect(isJsonText(text)).toBe(true);
      }),
      { seed: SEED, numRuns: NUM_RUNS },
    );
  });

  it('agrees with JSON.parse on texts one edit away from JSON', () => {
    fc.assert(
      fc.property(nearJsonText, (text) => {
        expect(isJsonText(text)).toBe(parses(text));
      }),
      { seed: SEED + 1, numRuns: NUM_RUNS * 2 },
    );
  });

  it('agrees with JSON.parse on texts two edits away from JSON', () => {
    const twoEdits = fc.tuple(nearJsonText, fc.nat(), character).map(([text, at, c]) => {
      const i = at % (text.length + 1);
      return text.slice(0, i) + c + text.slice(i);
    });
    fc.assert(
      fc.property(twoEdits, (text) => {
        expect(isJsonText(text)).toBe(parses(text));
      }),
      { seed: SEED + 2, numRuns: NUM_RUNS },
    );
  });

  it('agrees with JSON.parse on runs of tokens and on short texts of JSON characters', () => {
    fc.assert(
      fc.property(fc.oneof(tokenSoup, fc.string({ unit: character, maxLength: 8 })), (text) => {
        expect(isJsonText(text)).toBe(parses(text));
      }),
      { seed: SEED + 3, numRuns: NUM_RUNS * 2 },
    );
  });
});

const nested = (depth: number, open: string, close: string, inner: string) => open.repeat(depth) + inner + close.repeat(depth);
const LONG = 35_000;

/** [what, text, expected]: the expected answer is written here, and JSON.parse is asked too. */
const CASES: [string, string, boolean][] = [
  // Empty text and spaces.
  ['empty text', '', false],
  ['a space only', ' ', false],
  ['the four spaces only', ' \t\n\r', false],
  ['a space before a value', ' 1', true],
  ['a tab before a value', '\t1', true],
  ['a newline before a value', '\n1', true],
  ['a carriage return before a value', '\r1', true],
  ['a space after a value', '1 ', true],
  ['a tab after a value', 'true\t', true],
  ['a newline after a value', 'null\n', true],
  ['a carriage return after a value', '"a"\r', true],
  ['each space between every token of an object', '{ "a"\t:\n1\r, "b" : [ 2\t,\n3\r] }', true],
  ['a tab inside an empty array', '[\t]', true],
  ['a newline inside an empty object', '{\n}', true],
  ['a carriage return before a comma', '[1\r,2]', true],
  ['a tab before a colon', '{"a"\t:1}', true],
  ['a newline after a colon', '{"a":\n1}', true],
  ['a carriage return before a key', '{\r"a":1}', true],
  ['a tab after a comma in an object', '{"a":1,\t"b":2}', true],
  ['a no-break space', '\u00a01', false],
  ['a vertical tab', '\u000b1', false],
  ['a form feed', '1\u000c', false],
  ['a byte order mark', '\ufeff1', false],
  ['a line separator', '[1,\u20282]', false],
  ['a no-break space between tokens', '[1,\u00a02]', false],
  ['a form feed inside an empty array', '[\u000c]', false],

  // Literals.
  ['true', 'true', true],
  ['false', 'false', true],
  ['null', 'null', true],
  ['tru', 'tru', false],
  ['fals', 'fals', false],
  ['nul', 'nul', false],
  ['truee', 'truee', false],
  ['nulll', 'nulll', false],
  ['falsey', 'falsey', false],
  ['True', 'True', false],
  ['NULL', 'NULL', false],
  ['t', 't', false],
  ['a literal in an array', '[true,false,null]', true],
  ['a cut literal in an array', '[tru]', false],
  ['undefined', 'undefined', false],
  ['NaN', 'NaN', false],
  ['Infinity', 'Infinity', false],

  // Numbers.
  ['0', '0', true],
  ['-0', '-0', true],
  ['7', '7', true],
  ['9', '9', true],
  ['1234567890', '1234567890', true],
  ['01', '01', false],
  ['00', '00', false],
  ['-', '-', false],
  ['--1', '--1', false],
  ['- 1', '- 1', false],
  ['-a', '-a', false],
  ['1.', '1.', false],
  ['1.e5', '1.e5', false],
  ['.5', '.5', false],
  ['0.5', '0.5', true],
  ['-0.0', '-0.0', true],
  ['1.25', '1.25', true],
  ['1.5e', '1.5e', false],
  ['1e', '1e', false],
  ['1e+', '1e+', false],
  ['1e-', '1e-', false],
  ['1e+-1', '1e+-1', false],
  ['1E-2', '1E-2', true],
  ['1e+5', '1e+5', true],
  ['1E+05', '1E+05', true],
  ['1e5', '1e5', true],
  ['1e12', '1e12', true],
  ['0e0', '0e0', true],
  ['1e5.5', '1e5.5', false],
  ['1.5.5', '1.5.5', false],
  ['1ee5', '1ee5', false],
  ['+1', '+1', false],
  ['-01', '-01', false],
  ['0x1', '0x1', false],
  ['1 2', '1 2', false],
  ['a number then a letter', '12a', false],
  ['numbers in an array', '[0,-0,1.5,-2e-3,10E+2]', true],
  ['a leading zero in an array', '[01]', false],
  ['a cut exponent in an array', '[1e]', false],
  ['a cut fraction in an object', '{"a":1.}', false],

  // Strings.
  ['the empty string', '""', true],
  ['a plain string', '"abc"', true],
  ['an escaped quote', '"\\""', true],
  ['an escaped backslash', '"\\\\"', true],
  ['an escaped slash', '"\\/"', true],
  ['an escaped backspace', '"\\b"', true],
  ['an escaped form feed', '"\\f"', true],
  ['an escaped newline', '"\\n"', true],
  ['an escaped carriage return', '"\\r"', true],
  ['an escaped tab', '"\\t"', true],
  ['every escape in a row', '"\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9"', true],
  ['a unicode escape', '"\\u00e9"', true],
  ['a unicode escape of digits', '"\\u0123"', true],
  ['a unicode escape of 9s', '"\\u9999"', true],
  ['a unicode escape in capitals', '"\\uABCD"', true],
  ['a unicode escape with E and F', '"\\uEEFF"', true],
  ['a unicode escape in small letters', '"\\uabcd"', true],
  ['a unicode escape with e and f', '"\\ueeff"', true],
  ['a unicode escape of a lone surrogate', '"\\ud800"', true],
  ['a unicode escape then text', '"\\u00e9abc"', true],
  ['a unicode escape of three digits', '"\\u123"', false],
  ['a unicode escape of two digits', '"\\u12"', false],
  ['a unicode escape of two digits at the end', '"\\u12', false],
  ['a unicode escape with G', '"\\u12G4"', false],
  ['a unicode escape with g', '"\\u12g4"', false],
  ['a unicode escape with @', '"\\u@000"', false],
  ['a unicode escape with a backquote', '"\\u`000"', false],
  ['a unicode escape with a slash', '"\\u/000"', false],
  ['a unicode escape with a colon', '"\\u:000"', false],
  ['a unicode escape with a space', '"\\u 000"', false],
  ['a capital U escape', '"\\U00e9"', false],
  ['\\x', '"\\x41"', false],
  ['\\a', '"\\a"', false],
  ['\\0', '"\\0"', false],
  ['\\e', '"\\e"', false],
  ['\\ followed by a newline', '"\\\n"', false],
  ['\\ followed by a space', '"\\ "', false],
  ['an escape at the very end', '"\\', false],
  ['an escaped quote at the very end', '"\\"', false],
  ['\\u at the very end', '"\\u', false],
  ['an escape at the very end of an array', '["\\', false],
  ['an escape at the very end after text', '"abc\\', false],
  ['U+0000 raw', '"\u0000"', false],
  ['U+0001 raw', '"\u0001"', false],
  ['a raw tab', '"\t"', false],
  ['a raw newline', '"a\nb"', false],
  ['a raw carriage return', '"\r"', false],
  ['U+001F raw', '"\u001f"', false],
  ['U+0020 raw', '" "', true],
  ['U+007F raw', '"\u007f"', true],
  ['U+0080 raw', '"\u0080"', true],
  ['a raw lone surrogate', '"\ud800"', true],
  ['a raw é', '"é"', true],
  ['unterminated', '"abc', false],
  ['a quote only', '"', false],
  ['unterminated after an escape', '"\\n', false],
  ['a single-quoted string', "'a'", false],
  ['two strings', '"a" "b"', false],
  ['two strings without a space', '"a""b"', false],

  // Objects and arrays.
  ['an empty object', '{}', true],
  ['an empty object with a space', '{ }', true],
  ['an empty array', '[]', true],
  ['an empty array with a space', '[ ]', true],
  ['a one-member object', '{"a":1}', true],
  ['a two-member object', '{"a":1,"b":[2]}', true],
  ['an object in an object', '{"a":{"b":{}}}', true],
  ['an array of arrays', '[[],[[]],[1,[2]]]', true],
  ['an array after a member', '{"a":[1],"b":2}', true],
  ['the empty key', '{"":0}', true],
  ['an escaped key', '{"\\u00e9\\n":0}', true],
  ['a trailing comma in an array', '[1,]', false],
  ['a trailing comma in an object', '{"a":1,}', false],
  ['a leading comma in an array', '[,1]', false],
  ['a leading comma in an object', '{,"a":1}', false],
  ['two commas', '[1,,2]', false],
  ['a comma only', '[,]', false],
  ['a missing comma', '[1 2]', false],
  ['a missing comma between members', '{"a":1 "b":2}', false],
  ['a missing colon', '{"a" 1}', false],
  ['a missing value', '{"a":}', false],
  ['a key without a value', '{"a"}', false],
  ['a comma for a colon', '{"a",1}', false],
  ['a colon for a comma', '{"a":1:"b":2}', false],
  ['a colon in an array', '[1:2]', false],
  ['a number key', '{1:1}', false],
  ['a bare key', '{a:1}', false],
  ['a literal key', '{true:1}', false],
  ['an unterminated key', '{"a', false],
  ['a key with a bad escape', '{"\\x":1}', false],
  ['a key with a raw control character', '{"\u0001":1}', false],
  ['a key after a comma that is not a string', '{"a":1,2:3}', false],
  ['an object as a key', '{{}:1}', false],
  ['an array nested 100 deep', nested(100, '[', ']', ''), true],
  ['an array nested 100 deep around a value', nested(100, '[', ']', '1'), true],
  ['an object nested 100 deep', nested(100, '{"a":', '}', '{}'), true],
  ['arrays and objects nested 100 deep', nested(50, '[{"a":', '}]', 'null'), true],
  ['an array nested 100 deep, one close short', `${'['.repeat(100)}${']'.repeat(99)}`, false],
  ['an array nested 100 deep, one close too many', `${'['.repeat(100)}${']'.repeat(101)}`, false],
  ['an object nested 100 deep closed by brackets', nested(100, '{"a":', ']', '1'), false],
  ['an array closed by a brace', '[1}', false],
  ['an empty array closed by a brace', '[}', false],
  ['an object closed by a bracket', '{"a":1]', false],
  ['an empty object closed by a bracket', '{]', false],
  ['an inner array closed by a brace', '{"a":[1}}', false],
  ['an unclosed array', '[1', false],
  ['an unclosed empty array', '[', false],
  ['an unclosed object', '{"a":1', false],
  ['an unclosed empty object', '{', false],
  ['an unclosed array after a comma', '[1,', false],
  ['a close only', ']', false],
  ['a brace close only', '}', false],
  ['two values at top level', '1 2', false],
  ['two objects at top level', '{}{}', false],
  ['two arrays at top level', '[] []', false],
  ['an array then a comma', '[1],', false],
  ['text after an object', '{"a":1}x', false],
  ['text after an array', '[1] x', false],
  ['text after a literal', 'true x', false],
  ['text after a string', '"a"x', false],
  ['a NUL after a value', '1\u0000', false],

  // A long string, as a large body's `notes` is: escapes in the middle and at its end.
  ['a long string with escapes in the middle and at its end', `"${'a'.repeat(LONG)}\\n\\u00e9\\"${'b'.repeat(LONG)}\\\\\\u00E9"`, true],
  ['a long string in an object', `{"notes":"${'a'.repeat(LONG)}\\t${'é'.repeat(LONG)}\\/"}`, true],
  ['a long string with a bad escape in the middle', `"${'a'.repeat(LONG)}\\x${'b'.repeat(LONG)}"`, false],
  ['a long string with a short unicode escape in the middle', `"${'a'.repeat(LONG)}\\u12${'x'.repeat(LONG)}"`, false],
  ['a long string with a raw control character in the middle', `"${'a'.repeat(LONG)}\u0000${'b'.repeat(LONG)}"`, false],
  ['a long string ending in a backslash', `"${'a'.repeat(LONG)}\\n${'b'.repeat(LONG)}\\`, false],
  ['a long string ending in a cut unicode escape', `"${'a'.repeat(LONG)}\\n${'b'.repeat(LONG)}\\u00e`, false],
  ['a long unterminated string', `"${'a'.repeat(LONG)}\\n${'b'.repeat(LONG)}`, false],
];

describe('isJsonText on literal cases', () => {
  it.each(CASES)('%s', (_what, text, expected) => {
    expect(parses(text)).toBe(expected);
    expect(isJsonText(text)).toBe(expected);
  });

  it('gives the same answer when asked twice (no state kept between calls)', () => {
    for (const [, text, expected] of CASES) {
      expect(isJsonText(text)).toBe(expected);
      expect(isJsonText(text)).toBe(expected);
    }
  });
});

// The step a large body takes before JSON.parse (src/http/body.ts): it throws where JSON.parse
// throws, and only there, so the body's answer is the same whichever of the two refuses it.
describe('requireJsonText on literal cases', () => {
  it('throws a SyntaxError exactly where JSON.parse does', () => {
    for (const [what, text, expected] of CASES) {
      if (expected) expect(() => requireJsonText(text), what).not.toThrow();
      else expect(() => requireJsonText(text), what).toThrowError(new SyntaxError('not JSON'));
    }
  });
});
