// What can still fail when creating a post. The post, its containers and its targets — which are the
// publishing queue, written due — are one statement, so the old partial outcome (the post stored but
// its publishing job not queued: a 202 with scheduled false) cannot happen any more: a create is
// stored and queued, or not stored at all. Here the targets table really refuses the write, with an
// error of the kind a busy or restarting database gives: the answer is a retryable 500, nothing is
// stored, and the retry with the same Idempotency-Key, once the database is back, creates the post
// once, queued.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { countRows, startTestServer, type TestAccount, type TestOrg, type TestServer } from '../helpers/harness.ts';

let server: TestServer;
let org: TestOrg;
let x: TestAccount;

before(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  x = await server.addAccount(org, 'x', 'queue_x');
});
after(() => server.close());

async function refuseTargets(on: boolean): Promise<void> {
  if (on) {
    await server.db.query(`
      CREATE FUNCTION refuse_targets() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'the database is starting up' USING ERRCODE = '57P03'; END $$;
      CREATE TRIGGER refuse_targets BEFORE INSERT ON targets FOR EACH ROW EXECUTE FUNCTION refuse_targets();`);
  } else {
    await server.db.query('DROP TRIGGER refuse_targets ON targets; DROP FUNCTION refuse_targets();');
  }
}

test('a create whose targets cannot be written stores nothing and says to retry; the retry creates it once, queued', async () => {
  const key = randomUUID();
  const body = { accounts: [x.id], content: 'all or nothing' };
  await refuseTargets(true);
  let failed;
  try {
    failed = await server.request('POST', '/v1/posts', { key: org.key, body, headers: { 'idempotency-key': key } });
  } finally {
    await refuseTargets(false);
  }
  assert.equal(failed.status, 500);
  assert.equal(failed.body.code, 'temporarily_unavailable');
  assert.equal(failed.headers.get('retry-after'), '1');
  assert.equal(await countRows(server.db, 'posts', org.orgId), 0, 'no post without its targets');
  assert.equal(await countRows(server.db, 'containers', org.orgId), 0);
  assert.equal(await countRows(server.db, 'idempotency_keys', org.orgId), 0, 'the failure is not remembered for the key');

  const retried = await server.request('POST', '/v1/posts', { key: org.key, body, headers: { 'idempotency-key': key } });
  assert.equal(retried.status, 200, JSON.stringify(retried.body));
  assert.equal(retried.headers.get('idempotency-replayed'), null, 'the retry did the work');
  assert.equal(retried.body.post.scheduled, true);
  const due = await server.db.query('SELECT status, due_at FROM targets WHERE org_id = $1', [org.orgId]);
  assert.equal(due.rows.length, 1);
  assert.equal(due.rows[0].status, 'pending');
  assert.ok(due.rows[0].due_at.getTime() <= Date.now(), 'due now');

  const replay = await server.request('POST', '/v1/posts', { key: org.key, body, headers: { 'idempotency-key': key } });
  assert.equal(replay.status, 200);
  assert.equal(replay.headers.get('idempotency-replayed'), 'true');
  assert.equal(replay.body.post.id, retried.body.post.id);
  assert.equal(await countRows(server.db, 'posts', org.orgId), 1);
});

test('an out-of-window scheduledAt is a 400 and stores nothing', async () => {
  const before = await countRows(server.db, 'posts', org.orgId);
  const res = await server.request('POST', '/v1/posts', {
    key: org.key,
    body: { accounts: [x.id], content: 'far', scheduledAt: new Date(Date.now() + 40 * 86400_000).toISOString() },
  });
  assert.equal(res.status, 400);
  assert.equal(await countRows(server.db, 'posts', org.orgId), before);
});

test('a draft is stored with nothing due: scheduled false, and a 200', async () => {
  const res = await server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [x.id], content: 'draft', isDraft: true } });
  assert.equal(res.status, 200);
  assert.equal(res.body.post.scheduled, false);
  const due = await server.db.query('SELECT due_at FROM targets WHERE post_id = (SELECT max(id) FROM posts WHERE org_id = $1)', [org.orgId]);
  assert.deepEqual(due.rows, [{ due_at: null }]);
});
