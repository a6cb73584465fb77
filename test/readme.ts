// The README's code blocks, by the name of the `<!-- example: name -->` comment before each, for
// the tests that run them as they stand (test/readme-examples.test.ts, test/package.test.ts).
import { readFileSync } from 'node:fs';

const README = readFileSync('README.md', 'utf8');

/** The fenced block after `<!-- example: name -->`. */
export function readmeExample(name: string): string {
  const marker = README.indexOf(`<!-- example: ${name} -->`);
  if (marker === -1) throw new Error(`README.md has no example named ${name}`);
  const match = README.slice(marker).match(/```\w+\n([\s\S]*?)```/);
  if (match?.[1] === undefined) throw new Error(`the example ${name} has no code block`);
  return match[1];
}
