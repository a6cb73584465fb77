// Preloaded (`node -r`) by test/start-stop.test.ts: writes each V8 flag the server sets at run
// time to stderr, so the test can see when the heap bound is set relative to the first answer.
const v8 = require('node:v8');

const setFlagsFromString = v8.setFlagsFromString;
v8.setFlagsFromString = (flags) => {
  process.stderr.write(`[v8 flag] ${flags}\n`);
  return setFlagsFromString(flags);
};
