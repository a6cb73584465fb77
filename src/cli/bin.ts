// The `waste-operations-sandbox` command (package.json "bin" → dist/cli.js).
import { main } from './main.js';

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== undefined) process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  },
);
