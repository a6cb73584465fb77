// The README's and the guides' code blocks, by the name of the `<!-- example: name -->` comment
// before each, for the tests that run them as they stand (test/readme-examples.test.ts,
// test/guides.test.ts, test/typed-client.test.ts, test/package.test.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** README.md and every guide in docs/, by path from the repository's root. */
export const DOCUMENTS: ReadonlyMap<string, string> = new Map(
  [
    'README.md',
    ...readdirSync('docs')
      .filter((name) => name.endsWith('.md'))
      .map((name) => join('docs', name)),
  ].map((path) => [path, readFileSync(path, 'utf8')]),
);

/** The fenced block after `<!-- example: name -->`, wherever it is. */
export function readmeExample(name: string): string {
  for (const text of DOCUMENTS.values()) {
    const marker = text.indexOf(`<!-- example: ${name} -->`);
    if (marker === -1) continue;
    const match = text.slice(marker).match(/```\w+\n([\s\S]*?)```/);
    if (match?.[1] === undefined) throw new Error(`the example ${name} has no code block`);
    return match[1];
  }
  throw new Error(`neither README.md nor docs/ has an example named ${name}`);
}
