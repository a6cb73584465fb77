// Every field of a record that its PATCH does not take, sent in that PATCH: 400 parameter_invalid
// naming it, with words that say it cannot be changed here rather than that it does not exist
// (SANDBOX.md, "Strict inputs": "a field that cannot be changed by that endpoint (e.g. kind on
// PATCH /v1/clients/{id}): 400 parameter_invalid naming it"; docs/behaviour.md gives the words).
// The fields are the reference's ("Resources and their fields"), the writable ones its endpoint
// table's PATCH rows; both are written here, not taken from src/.
import { describe, expect, it } from 'vitest';
import { FIELDS, type ObjectName } from '../reference/resources.js';
import { expectError, findSample, invalid, send, writesApp } from './helpers.js';

const app = writesApp();

/** Each PATCH of the reference, with the fields its body takes ("body, optional: …"). */
const PATCHES: { collection: string; object: ObjectName; writable: string[] }[] = [
  { collection: 'clients', object: 'client', writable: ['name', 'billing_email', 'portal_enabled', 'metadata'] },
  { collection: 'sites', object: 'site', writable: ['name', 'access_notes', 'metadata'] },
  { collection: 'waste_profiles', object: 'waste_profile', writable: ['name', 'waste_codes', 'dot_description'] },
  { collection: 'jobs', object: 'job', writable: ['scheduled_for', 'window', 'metadata'] },
  { collection: 'containers', object: 'container', writable: ['status', 'weight_lb'] },
];

describe.each(PATCHES)('PATCH /v1/$collection/{id}', ({ collection, object, writable }) => {
  const readOnly = FIELDS[object].filter((field) => !writable.includes(field));

  it.each(readOnly)('refuses %s: it cannot be changed by this endpoint', async (field) => {
    const { id } = await findSample<{ id: string }>(app, `/v1/${collection}`);
    const result = await send(app, 'PATCH', `/v1/${collection}/${id}`, { body: { [field]: 'changed' } });
    expectError(result, invalid(field));
    expect(result.json.error.message).toBe(`${field} cannot be changed by this endpoint.`);
  });

  it('calls a field the record does not have an unknown parameter, not a read-only one', async () => {
    const { id } = await findSample<{ id: string }>(app, `/v1/${collection}`);
    const result = await send(app, 'PATCH', `/v1/${collection}/${id}`, { body: { colour: 'green' } });
    expectError(result, invalid('colour'));
    expect(result.json.error.message).toBe('Received unknown parameter: colour.');
  });
});
