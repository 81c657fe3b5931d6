// Idempotency-Key on POST /v1/posts (spec rule 6, docs/design.md §8), including real concurrent duplicates.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { countRows, startTestServer, type TestAccount, type TestOrg, type TestServer } from '../helpers/harness.ts';

let server: TestServer;
let org: TestOrg;
let x: TestAccount;

before(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  x = await server.addAccount(org, 'x', 'idem_x');
});
after(() => server.close());

const create = (key: string | undefined, body: unknown, apiKey = org.key) =>
  server.request('POST', '/v1/posts', { key: apiKey, body, headers: key === undefined ? {} : { 'idempotency-key': key } });

describe('Idempotency-Key', () => {
  test('a retry with the same key and body replays the response and creates nothing', async () => {
    const key = randomUUID();
    const body = { accounts: [x.id], content: 'once', colour: 'red' };
    const first = await create(key, body);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('idempotency-replayed'), null);
    const posts = await countRows(server.db, 'posts', org.orgId);
    const second = await create(key, body);
    assert.equal(second.status, 200);
    assert.equal(second.headers.get('idempotency-replayed'), 'true');
    assert.deepEqual(second.body, first.body);
    assert.equal(await countRows(server.db, 'posts', org.orgId), posts);
  });

  test('key order in the body does not change its identity', async () => {
    const key = randomUUID();
    const first = await create(key, { content: 'order', accounts: [x.id] });
    const second = await create(key, { accounts: [x.id], content: 'order' });
    assert.equal(second.headers.get('idempotency-replayed'), 'true');
    assert.equal(second.body.post.id, first.body.post.id);
  });

  test('the same key with another body is a 422 idempotency_key_reuse', async () => {
    const key = randomUUID();
    await create(key, { accounts: [x.id], content: 'first body' });
    const posts = await countRows(server.db, 'posts', org.orgId);
    const res = await create(key, { accounts: [x.id], content: 'second body' });
    assert.equal(res.status, 422);
    assert.equal(res.body.code, 'idempotency_key_reuse');
    assert.equal(await countRows(server.db, 'posts', org.orgId), posts);
  });

  test('a malformed key is a 400', async () => {
    for (const key of ['', 'a'.repeat(256), 'caf\u00e9', 'tab\there']) {
      const res = await create(key, { accounts: [x.id], content: 'k' });
      assert.equal(res.status, 400, JSON.stringify(key));
      assert.equal(res.body.code, 'invalid_idempotency_key');
    }
    const longest = await create('k'.repeat(255), { accounts: [x.id], content: 'k' });
    assert.equal(longest.status, 200);
  });

  test('keys are scoped to the organization', async () => {
    const other = await server.createOrg();
    const theirs = await server.addAccount(other, 'x', 'idem_other');
    const key = randomUUID();
    const mine = await create(key, { accounts: [x.id], content: 'scoped' });
    const res = await create(key, { accounts: [theirs.id], content: 'scoped' }, other.key);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('idempotency-replayed'), null);
    assert.notEqual(res.body.post.id, mine.body.post.id);
  });

  test('a rejected request is not remembered: fixing the problem with the same key works', async () => {
    const key = randomUUID();
    const body = { accounts: ['idem_later'], content: 'later' };
    assert.equal((await create(key, body)).status, 400);
    await server.addAccount(org, 'bluesky', 'idem_later');
    const res = await create(key, body);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('idempotency-replayed'), null);
  });

  test('while the first request holds the key, a duplicate gets 409 with Retry-After', async () => {
    const key = randomUUID();
    // Hold the same advisory lock the first request would hold, from another session.
    const holder = new pg.Client({ connectionString: server.databaseUrl });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`idempotency:${org.orgId}:POST /v1/posts:${key}`]);
    try {
      const res = await create(key, { accounts: [x.id], content: 'busy' });
      assert.equal(res.status, 409);
      assert.equal(res.headers.get('retry-after'), '1');
      assert.equal(res.body.success, false);
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
    assert.equal((await create(key, { accounts: [x.id], content: 'busy' })).status, 200);
  });

  test('the key is judged before the accounts: a busy key with an unknown account is a 409, a stored one replays', async () => {
    const key = randomUUID();
    const holder = new pg.Client({ connectionString: server.databaseUrl });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`idempotency:${org.orgId}:POST /v1/posts:${key}`]);
    try {
      const res = await create(key, { accounts: ['idem_nobody'], content: 'unknown account' });
      assert.equal(res.status, 409);
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
    const refused = await create(key, { accounts: ['idem_nobody'], content: 'unknown account' });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.code, 'no_account_resolved');
    const body = { accounts: ['idem_renamed'], content: 'renamed later' };
    const renamed = await server.addAccount(org, 'bluesky', 'idem_renamed');
    const first = await create(key, body);
    assert.equal(first.status, 200);
    await server.db.query("UPDATE social_accounts SET username = 'idem_renamed_2' WHERE id = $1", [renamed.rawId]);
    const replay = await create(key, body);
    assert.equal(replay.status, 200);
    assert.equal(replay.headers.get('idempotency-replayed'), 'true');
    assert.deepEqual(replay.body, first.body);
  });

  test('a record older than 24 hours is forgotten', async () => {
    const key = randomUUID();
    const first = await create(key, { accounts: [x.id], content: 'old' });
    await server.db.query("UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = $1", [key]);
    const again = await create(key, { accounts: [x.id], content: 'old' });
    assert.equal(again.status, 200);
    assert.equal(again.headers.get('idempotency-replayed'), null);
    assert.notEqual(again.body.post.id, first.body.post.id);
    const { purgeExpiredIdempotencyKeys } = await import('../../src/idempotency/keys.ts');
    await server.db.query("UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = $1", [key]);
    assert.ok((await purgeExpiredIdempotencyKeys(server.db)) >= 1);
    const left = await server.db.query('SELECT 1 FROM idempotency_keys WHERE key = $1', [key]);
    assert.equal(left.rowCount, 0);
  });

  test('20 concurrent identical requests create exactly one post; the others replay it or get 409', async () => {
    const key = randomUUID();
    const body = { accounts: [x.id], content: 'race' };
    const postsBefore = await countRows(server.db, 'posts', org.orgId);
    const responses = await Promise.all(Array.from({ length: 20 }, () => create(key, body)));
    const statuses = responses.map((r) => r.status);
    assert.ok(statuses.every((s) => s === 200 || s === 409), JSON.stringify(statuses));
    const created = responses.filter((r) => r.status === 200 && r.headers.get('idempotency-replayed') === null);
    assert.equal(created.length, 1, 'exactly one request did the work');
    for (const r of responses.filter((r) => r.status === 200)) assert.equal(r.body.post.id, created[0]!.body.post.id);
    for (const r of responses.filter((r) => r.status === 409)) assert.equal(r.headers.get('retry-after'), '1');
    assert.equal(await countRows(server.db, 'posts', org.orgId), postsBefore + 1);
    const due = await server.db.query('SELECT count(*)::int AS n FROM targets WHERE due_at IS NOT NULL AND post_id = (SELECT max(id) FROM posts WHERE org_id = $1)', [org.orgId]);
    assert.equal(due.rows[0].n, 1, 'its one target is queued once');
  });
});
