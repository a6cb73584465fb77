// The generator, for seeds without prebuilt data. src/data/store.ts imports this module
// dynamically, so the generator, faker and its locales sit in a chunk of their own
// (dist/chunks/generated-store-*.js) that the default seed never loads. It imports nothing from
// store.ts, so the two modules never import each other: the store is built from the data there.
export { generateSampleData } from './generate/index.js';
