// When queueing the publishing jobs fails, the post is still committed, unqueued, and the answer is a
// 202 with scheduled: false (spec). The failure here is real: the job table refuses inserts.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { startTestServer, type TestAccount, type TestOrg, type TestServer } from '../helpers/harness.ts';

let server: TestServer;
let org: TestOrg;
let x: TestAccount;

before(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  x = await server.addAccount(org, 'x', 'queue_x');
  await server.db.query(`
    CREATE FUNCTION refuse_jobs() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'job table unavailable'; END $$;
    CREATE TRIGGER refuse_jobs BEFORE INSERT ON pgboss.job FOR EACH ROW EXECUTE FUNCTION refuse_jobs();`);
});
after(() => server.close());

test('a failing enqueue commits the post with scheduled false and answers 202', async () => {
  const key = randomUUID();
  const res = await server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [x.id], content: 'unqueued' }, headers: { 'idempotency-key': key } });
  assert.equal(res.status, 202);
  assert.equal(res.body.success, true);
  assert.equal(res.body.post.scheduled, false);
  const rows = await server.db.query('SELECT queued FROM posts WHERE org_id = $1', [org.orgId]);
  assert.deepEqual(rows.rows, [{ queued: false }]);
  const targets = await server.db.query('SELECT status FROM targets WHERE org_id = $1', [org.orgId]);
  assert.deepEqual(targets.rows, [{ status: 'pending' }]);
  const jobs = await server.db.query("SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'publish'");
  assert.equal(jobs.rows[0].n, 0);

  const read = await server.request('GET', `/v1/posts/${res.body.post.id}`, { key: org.key });
  assert.equal(read.body.post.scheduled, false);
  // The 202 is remembered like any success: a retry replays it rather than creating a second post.
  const replay = await server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [x.id], content: 'unqueued' }, headers: { 'idempotency-key': key } });
  assert.equal(replay.status, 202);
  assert.equal(replay.headers.get('idempotency-replayed'), 'true');
});

test('an out-of-window scheduledAt is a 400 even while queueing fails (never a 202)', async () => {
  const res = await server.request('POST', '/v1/posts', {
    key: org.key,
    body: { accounts: [x.id], content: 'far', scheduledAt: new Date(Date.now() + 40 * 86400_000).toISOString() },
  });
  assert.equal(res.status, 400);
});

test('a draft needs no queue and is a 200', async () => {
  const res = await server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [x.id], content: 'draft', isDraft: true } });
  assert.equal(res.status, 200);
  assert.equal(res.body.post.scheduled, false);
});
