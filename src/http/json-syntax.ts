// Whether text is JSON, decided without JSON.parse. For large request bodies only: when
// JSON.parse throws, V8 records the text it failed on in a long-lived object (the error's script),
// so a body of hundreds of kilobytes that is not JSON outlives the request in the old generation
// until a full garbage collection. A flood of such bodies grew the server's memory by tens of
// MiB; checked here first, they die young. Exactly the grammar JSON.parse accepts (ECMA-404).

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** A run of characters a JSON string holds as they are: anything but a quote, a backslash or a control character. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: JSON strings exclude exactly U+0000 to U+001F.
const PLAIN = /[^"\\\u0000-\u001f]*/y;

/** What may follow a backslash besides u: " \\ / b f n r t. */
const SIMPLE_ESCAPES = new Set([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);

const isDigit = (code: number) => code >= ZERO && code <= NINE;
const isHex = (code: number) => isDigit(code) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);

/** Throws a SyntaxError where JSON.parse(text) would, without keeping the text alive (above). */
export function requireJsonText(text: string): void {
  if (!isJsonText(text)) throw new SyntaxError('not JSON');
}

/** True when JSON.parse(text) would succeed. Iterative, so any depth is safe. */
export function isJsonText(text: string): boolean {
  const end = text.length;
  let i = 0;
  /** Open containers: true for an object, false for an array. */
  const open: boolean[] = [];

  const skipSpace = () => {
    for (let code = text.charCodeAt(i); code === SPACE || code === TAB || code === LF || code === CR; code = text.charCodeAt(++i));
  };
  const literal = (word: string) => {
    if (text.startsWith(word, i)) {
      i += word.length;
      return true;
    }
    return false;
  };
  const string = (): boolean => {
    // At the opening quote. The plain characters run is skipped by a regular expression: V8
    // runs it as native code, several times faster than a loop over each character, and a
    // large body is mostly one long string (a 1 MiB `notes`).
    for (i++; ; i++) {
      PLAIN.lastIndex = i;
      PLAIN.test(text);
      i = PLAIN.lastIndex;
      const code = text.charCodeAt(i);
      if (code === QUOTE) {
        i++;
        return true;
      }
      // The end of the text (NaN) or a control character.
      if (code !== BACKSLASH) return false;
      const escaped = text.charCodeAt(++i);
      if (escaped === 0x75 /* u */) {
        for (let digit = 0; digit < 4; digit++) if (!isHex(text.charCodeAt(++i))) return false;
      } else if (!SIMPLE_ESCAPES.has(escaped)) return false; // NaN, past the end, too
    }
  };
  const number = (): boolean => {
    if (text.charCodeAt(i) === MINUS) i++;
    if (text.charCodeAt(i) === ZERO) i++;
    else if (isDigit(text.charCodeAt(i))) while (isDigit(text.charCodeAt(i))) i++;
    else return false;
    if (text.charCodeAt(i) === DOT) {
      i++;
      if (!isDigit(text.charCodeAt(i))) return false;
      while (isDigit(text.charCodeAt(i))) i++;
    }
    const exponent = text.charCodeAt(i);
    if (exponent === 0x65 /* e */ || exponent === 0x45 /* E */) {
      i++;
      const sign = text.charCodeAt(i);
      if (sign === PLUS || sign === MINUS) i++;
      if (!isDigit(text.charCodeAt(i))) return false;
      while (isDigit(text.charCodeAt(i))) i++;
    }
    return true;
  };

  // Each turn reads one value, then closes containers and reads separators up to the next value.
  for (;;) {
    skipSpace();
    const code = text.charCodeAt(i);
    if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      const isObject = code === OPEN_BRACE;
      i++;
      skipSpace();
      if (text.charCodeAt(i) === (isObject ? CLOSE_BRACE : CLOSE_BRACKET)) i++;
      else {
        open.push(isObject);
        if (isObject && !key()) return false;
        continue;
      }
    } else if (code === QUOTE) {
      if (!string()) return false;
    } else if (code === MINUS || isDigit(code)) {
      if (!number()) return false;
    } else if (!(literal('true') || literal('false') || literal('null'))) return false;

    // After a value: close what ends here, until a comma asks for the next value.
    for (;;) {
      skipSpace();
      if (open.length === 0) return i === end;
      const isObject = open[open.length - 1] as boolean;
      const next = text.charCodeAt(i);
      if (next === COMMA) {
        i++;
        if (isObject && !key()) return false;
        break;
      }
      if (next !== (isObject ? CLOSE_BRACE : CLOSE_BRACKET)) return false;
      i++;
      open.pop();
    }
  }

  /** A member's name and its colon; the value follows. */
  function key(): boolean {
    skipSpace();
    if (text.charCodeAt(i) !== QUOTE || !string()) return false;
    skipSpace();
    if (text.charCodeAt(i) !== COLON) return false;
    i++;
    return true;
  }
}
