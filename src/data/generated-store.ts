// The sample store of any seed, generated: loaded only when a seed has no prebuilt data (dynamic
// import in src/data/store.ts), since the generator brings faker and its locales with it.
import { generateSampleData } from './generate/index.js';
import { SampleStore } from './store.js';

export function generatedStore(seed: string): SampleStore {
  return SampleStore.fromData(generateSampleData(seed));
}
