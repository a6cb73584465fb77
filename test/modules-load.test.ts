// The package's entry, loaded inside a test. A module that throws as it loads (an endpoint's
// definition emptied, a table that cannot be built) fails every test file that imports it, but
// vitest reports that as a file that could not run, not as a failed test, and Stryker's vitest
// runner counts failed tests only: such a static mutant would be reported as surviving
// (docs/operations.md, "Static mutants"). Loaded here, the same break is a failed test.
import { expect, it } from 'vitest';

it('the package loads, and its sandbox answers a GET of each collection of the reference', async () => {
  const { createSandbox } = await import('../src/index.js');
  const sandbox = createSandbox();
  const collections = ['clients', 'sites', 'waste_profiles', 'jobs', 'containers', 'manifests', 'invoices', 'webhook_endpoints', 'events'];
  for (const collection of collections) {
    const response = await sandbox.fetch(
      new Request(`http://sandbox.test/v1/${collection}?limit=1`, { headers: { Authorization: 'Bearer svc_test_sandbox_public' } }),
    );
    expect(response.status, collection).toBe(200);
  }
});
