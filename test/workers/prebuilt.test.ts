// Issue #10 on Workers: the Worker imports the default seed's data prebuilt (wrangler's
// [build] writes dist/prebuilt/worker.js, `#prebuilt-sample-data` under the "workerd"
// condition), so a fresh isolate answers its first request without running the generator.
import { describe, expect, it } from 'vitest';
import { PREBUILT_SAMPLE_DATA } from '#prebuilt-sample-data';
import { DEFAULT_SEED } from '../../src/data/dataset.js';
import { sampleStore } from '../../src/data/store.js';
import { call } from './support/worker.js';

describe('the default seed on Workers', () => {
  it('comes prebuilt with the bundle: the store is at hand, not a generation under way', () => {
    expect(PREBUILT_SAMPLE_DATA?.seed).toBe(DEFAULT_SEED);
    expect(sampleStore(DEFAULT_SEED)).not.toBeInstanceOf(Promise);
  });

  it('serves the same records as the generator would (a known ID of the README catalog)', async () => {
    const jobs = await call('/v1/jobs?limit=1');
    expect(jobs.status).toBe(200);
    const cancel = await call('/v1/jobs/job_wR79b7gPQg1ViA');
    expect((cancel.json as { id: string }).id).toBe('job_wR79b7gPQg1ViA');
  });
});
