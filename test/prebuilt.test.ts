// Issue #10: the default seed's data that the build ships (scripts/prebuilt-data.mjs) is, byte
// for byte, what the generator makes, in both forms (Node's file and layout, the Worker's
// module), so the two can never drift. The prebuilt files are written to a folder of the test's.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { readConfig } from '../src/config.js';
import { DEFAULT_SEED } from '../src/data/dataset.js';
import { generateSampleData } from '../src/data/generate/index.js';
import { COLLECTIONS, type PrebuiltSampleData } from '../src/data/prebuilt.js';
import { SampleStore } from '../src/data/store.js';

const folder = mkdtempSync(join(tmpdir(), 'sandbox-prebuilt-'));
const generated = SampleStore.fromData(generateSampleData(DEFAULT_SEED));
const forms: Record<string, PrebuiltSampleData> = {};

beforeAll(async () => {
  execFileSync(process.execPath, ['scripts/prebuilt-data.mjs', '--out', folder], { stdio: 'inherit' });
  for (const form of ['node', 'worker']) {
    const module = await import(/* @vite-ignore */ pathToFileURL(join(folder, `${form}.js`)).href);
    forms[form] = module.PREBUILT_SAMPLE_DATA;
  }
}, 60_000);

afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe.each(['node', 'worker'])('the prebuilt data, %s form', (form) => {
  it('is the default seed, every list byte for byte what the generator makes, in list order', () => {
    const prebuilt = forms[form] as PrebuiltSampleData;
    expect(prebuilt.seed).toBe(DEFAULT_SEED);
    const store = SampleStore.fromPrebuilt(prebuilt);
    const decoder = new TextDecoder();
    for (const account of ['A', 'B'] as const) {
      for (const collection of COLLECTIONS) {
        const built = store.accounts[account][collection];
        const made = generated.accounts[account][collection];
        expect(
          built.records.map((record) => record.id),
          `${account} ${collection}`,
        ).toEqual(made.records.map((record) => record.id));
        for (const record of made.records) {
          const bytes = built.bytes(record.id) as Uint8Array;
          expect(decoder.decode(bytes)).toBe(decoder.decode(made.bytes(record.id)));
        }
      }
    }
    expect(JSON.stringify(store.toPrebuilt())).toBe(JSON.stringify(generated.toPrebuilt()));
  });
});

describe('an app on the prebuilt data', () => {
  it('answers every page of every list as the generated data does', async () => {
    const store = SampleStore.fromPrebuilt(forms.node as PrebuiltSampleData);
    // Two apps, one per store: the same requests must give the same bytes.
    const config = readConfig({ SANDBOX_RATE_LIMIT: 'off' });
    const apps = [store, generated].map((data) => createApp(config, { store: data, clientAddress: () => '192.0.2.10' }));
    for (const collection of COLLECTIONS) {
      const answers = await Promise.all(
        apps.map(async (app) =>
          (await app.request(`/v1/${collection}?limit=100`, { headers: { Authorization: 'Bearer svc_test_sandbox_public' } })).text(),
        ),
      );
      expect(answers[0]).toBe(answers[1]);
    }
  });
});

describe('the Node form, in a running process', () => {
  it('keeps serving the lists it started with when a rebuild replaces the file', async () => {
    const own = mkdtempSync(join(tmpdir(), 'sandbox-prebuilt-replaced-'));
    try {
      execFileSync(process.execPath, ['scripts/prebuilt-data.mjs', '--out', own], { stdio: 'inherit' });
      const { PREBUILT_SAMPLE_DATA } = await import(/* @vite-ignore */ pathToFileURL(join(own, 'node.js')).href);
      // The build replaces the file whole (written beside, renamed over): here with bytes of
      // the same size that are no JSON at all.
      const file = join(own, 'default-seed.bin');
      writeFileSync(`${file}.next`, Buffer.alloc(statSync(file).size, 0x20));
      renameSync(`${file}.next`, file);
      const store = SampleStore.fromPrebuilt(PREBUILT_SAMPLE_DATA as PrebuiltSampleData);
      for (const collection of COLLECTIONS) {
        expect(
          store.accounts.A[collection].records.map((record) => record.id),
          collection,
        ).toEqual(generated.accounts.A[collection].records.map((record) => record.id));
      }
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  }, 60_000);
});
