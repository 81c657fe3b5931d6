// The SDK's event feed against a started Crier: crier.events.list with its filters, the cursor
// followed by the pages/all iterators (each event once, oldest first, resumable from a cursor), a
// refused query as a CrierError with per-field details, and only the key's organization's events.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Crier, CrierError } from '../../sdk/src/index.ts';
import { emitEvent } from '../../src/webhooks/outbox.ts';
import { startTestServer, type TestOrg, type TestServer } from '../helpers/harness.ts';

let server: TestServer;
let org: TestOrg;
let crier: Crier;

before(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  const other = await server.createOrg();
  crier = new Crier({ baseUrl: server.url, apiKey: org.key, retry: { backoffMs: 10 } });
  await emitEvent(server.db, other.orgId, 'test', { message: 'theirs', endpointId: 1 });
  for (let n = 0; n < 5; n += 1) await emitEvent(server.db, org.orgId, n === 2 ? 'post.error' : 'test', { message: `m${n}`, endpointId: 1 });
});
after(() => server.close());

test('events.list answers the API\'s page; types as a list', async () => {
  const page = await crier.events.list({ limit: 2 });
  assert.deepEqual(page, (await server.request('GET', '/v1/events?limit=2', { key: org.key })).body);
  assert.deepEqual(page.data.map((e) => (e.data as any).message), ['m0', 'm1']);
  assert.equal(page.hasMore, true);
  const errors = await crier.events.list({ types: ['post.error'] });
  assert.deepEqual(errors.data.map((e) => e.event), ['post.error']);
});

test('events.all follows the cursor page after page: every event once, oldest first, and resumes from a cursor', async () => {
  const seen = [];
  for await (const event of crier.events.all({}, 2)) seen.push(event);
  assert.deepEqual(seen.map((e) => (e.data as any).message), ['m0', 'm1', 'm2', 'm3', 'm4'], "the org's events only");
  const pages = [];
  for await (const page of crier.events.pages({ after: seen[2]!.cursor }, 1)) pages.push(page.map((e) => (e.data as any).message));
  assert.deepEqual(pages, [['m3'], ['m4']]);
  await emitEvent(server.db, org.orgId, 'test', { message: 'm5', endpointId: 1 });
  const resumed = [];
  for await (const event of crier.events.all({ after: seen.at(-1)!.cursor, types: 'test' })) resumed.push((event.data as any).message);
  assert.deepEqual(resumed, ['m5']);
});

test('a refused query is a CrierError with the fields named', async () => {
  await assert.rejects(crier.events.list({ after: 'nope!', limit: 500 }), (error: unknown) => {
    assert.ok(error instanceof CrierError);
    assert.equal(error.status, 400);
    assert.deepEqual(error.details?.map((d) => d.field), ['after', 'limit']);
    return true;
  });
});
