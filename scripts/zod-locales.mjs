// An esbuild plugin for every bundle of the sandbox (Node's, scripts/build.mjs; the Worker's,
// scripts/worker-build.mjs). zod exports every one of its 60-odd locales as `z.locales`, and a
// bundle that uses `z` as a value must keep them all: 360 KB, 40% of the largest chunk, parsed at
// every start. The sandbox's messages are its own and zod's default locale is `en`, so only `en`
// is bundled.
export const onlyEnglishZodLocale = {
  name: 'only-english-zod-locale',
  setup(build) {
    build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({
      contents: "export { default as en } from './en.js';",
      loader: 'js',
    }));
  },
};
