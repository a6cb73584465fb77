// A header value as the client typed it, for a message that quotes it. HTTP carries header values
// as bytes; Node's parser hands each byte over as one character (Latin-1), so a Sandbox-Simulate
// of "délai", sent as UTF-8, read "dÃ©lai" in its 400 (issue #35). Only messages need the text:
// the checks compare ASCII.

/**
 * The value's bytes read as UTF-8 when they are UTF-8; otherwise the value unchanged: bytes that
 * are not UTF-8 are shown one character a byte, as before, and a value a runtime decoded already
 * (workerd does: characters past U+00FF) is left alone. ASCII reads as itself.
 */
export function headerText(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: any character past a byte
  if (/[^\x00-\xff]/.test(value)) return value;
  const bytes = Uint8Array.from(value, (character) => character.charCodeAt(0));
  try {
    // Made per call, since only a 400's message reads it; one made as the module loads would be a
    // static mutant that breaks every import, which Stryker's vitest runner reports as survived
    // (docs/operations.md, "Static mutants").
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return value;
  }
}
