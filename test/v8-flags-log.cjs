// Preloaded (`node -r`) by test/start-stop.test.ts: writes each V8 flag the server sets at run
// time to stdout, the stream of the server's banner (printed once it listens), so that the
// order of the two in the pipe says whether a flag was set before the server listened.
const v8 = require('node:v8');

const setFlagsFromString = v8.setFlagsFromString;
v8.setFlagsFromString = (flags) => {
  process.stdout.write(`[v8 flag] ${flags}\n`);
  return setFlagsFromString(flags);
};
