// Issue #8 on Workers: IDs looked up by prefix alone, no invented limit, messages for people,
// through the Worker's own fetch handler (the Node suites hold the full tables).
import { describe, expect, it } from 'vitest';
import { call } from './support/worker.js';

interface ErrorBody {
  error: { code: string; param?: string; message: string };
}
const errorOf = (result: { json: unknown }) => (result.json as ErrorBody).error;

describe('exact at every edge, on Workers', () => {
  it('a body reference of another length is looked up: 404 resource_missing naming the field, replayed with its key', async () => {
    const body = {
      client: 'cli_doesnotexist0000',
      name: 'Depot',
      address: { line1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701' },
    };
    const headers = { 'Idempotency-Key': 'workers-missing-client' };
    const first = await call('/v1/sites', { method: 'POST', body, headers });
    expect(first.status).toBe(404);
    expect(errorOf(first)).toMatchObject({ code: 'resource_missing', param: 'client' });
    const replay = await call('/v1/sites', { method: 'POST', body, headers });
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(replay.text).toBe(first.text);
  });

  it('a filter on an unknown ID is an empty list; another prefix is 400 naming the prefix', async () => {
    const empty = await call('/v1/sites?client=cli_doesnotexist0000');
    expect(empty.json).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });
    const wrong = await call('/v1/sites?client=job_abc');
    expect(errorOf(wrong)).toMatchObject({ code: 'parameter_invalid', param: 'client' });
    expect(errorOf(wrong).message).toBe('Invalid client: must be the ID of a client, which begins with cli_; received "job_abc".');
  });

  it('a waste profile takes 60 codes', async () => {
    const clients = (await call('/v1/clients?limit=1')).json as { data: { id: string }[] };
    // U001 to U063 less the three numbers the RCRA U list skips (U013, U040, U054).
    const codes = Array.from({ length: 63 }, (_, i) => `U${String(i + 1).padStart(3, '0')}`).filter(
      (code) => !['U013', 'U040', 'U054'].includes(code),
    );
    expect(codes).toHaveLength(60);
    const result = await call('/v1/waste_profiles', {
      method: 'POST',
      body: { client: clients.data[0]?.id, name: 'Lab pack', waste_codes: codes },
    });
    expect(result.status, result.text.slice(0, 300)).toBe(201);
  });

  it('messages name the field, show the value and suggest the close one', async () => {
    const result = await call('/v1/clients', { method: 'POST', body: { name: 'Acme', kind: 'labratory' } });
    expect(errorOf(result).message).toBe(
      'Invalid kind: must be one of hhw_program, commercial_industrial or laboratory; received "labratory". Did you mean "laboratory"?',
    );
    const unknown = await call('/v1/jobs?stauts=draft');
    expect(errorOf(unknown).message).toBe('Received unknown parameter: stauts. Did you mean "status"?');
  });
});
