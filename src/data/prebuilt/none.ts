// What `#prebuilt-sample-data` is without a build (tests and `tsx` run the sources): nothing, so
// the store generates the default seed's data too. The Node bundles and the Worker get the
// prebuilt data instead (package.json "imports"; scripts/prebuilt-data.mjs writes it).
import type { PrebuiltSampleData } from '../prebuilt.js';

export const PREBUILT_SAMPLE_DATA: PrebuiltSampleData | undefined = undefined;
