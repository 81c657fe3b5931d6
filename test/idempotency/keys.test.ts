// Idempotency-Key on POST /v1/posts (spec rule 6, docs/design.md §8), including real concurrent duplicates.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { countRows, startTestServer, type TestAccount, type TestOrg, type TestServer } from '../helpers/harness.ts';
import { claimIdempotencyKeys, fingerprintOf, storeIdempotentResponses } from '../../src/idempotency/keys.ts';
import { createPostWriter, type CreateSubmission } from '../../src/posts/create.ts';
import { parseCreateBody } from '../../src/posts/validate.ts';
import { STRICT_FETCH_POLICY } from '../../src/validation/fetched-url.ts';
import type { Db } from '../../src/db/pool.ts';

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

/** Runs `work` while another session holds the advisory lock a request with this key would hold. */
async function whileKeyHeld(key: string, work: () => Promise<void>): Promise<void> {
  const holder = new pg.Client({ connectionString: server.databaseUrl });
  await holder.connect();
  await holder.query('BEGIN');
  await holder.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`idempotency:${org.orgId}:POST /v1/posts:${key}`]);
  try {
    await work();
  } finally {
    await holder.query('ROLLBACK');
    await holder.end();
  }
}

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
    await whileKeyHeld(key, async () => {
      const res = await create(key, { accounts: [x.id], content: 'busy' });
      assert.equal(res.status, 409);
      assert.equal(res.headers.get('retry-after'), '1');
      assert.equal(res.body.success, false);
    });
    assert.equal((await create(key, { accounts: [x.id], content: 'busy' })).status, 200);
  });

  test('the key is judged before the accounts: a busy key with an unknown account is a 409, a stored one replays', async () => {
    const key = randomUUID();
    await whileKeyHeld(key, async () => {
      assert.equal((await create(key, { accounts: ['idem_nobody'], content: 'unknown account' })).status, 409);
    });
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

  // The claim takes the key's lock and reads its stored response in one statement, whose snapshot is
  // taken before the lock: a request that commits the key in between has released its lock and is not
  // seen, and the claim says "claimed". That window is microseconds wide, so these tests write what the
  // other request's commit writes (its stored response, from another session) right after the claim,
  // and show that the second piece of work cannot commit.
  test('one batch of keyed creates: each request gets its own answer, the key judged first', async () => {
    const stored = randomUUID();
    const storedBody = { accounts: [x.id], content: 'stored before the batch' };
    const first = await create(stored, storedBody);
    assert.equal(first.status, 200);
    const reused = randomUUID();
    assert.equal((await create(reused, { accounts: [x.id], content: 'one body' })).status, 200);
    const repeated = randomUUID();
    const requests: [string, unknown][] = [
      [randomUUID(), { accounts: [x.id], content: 'a new post' }],
      [randomUUID(), { accounts: [x.id] }],
      [randomUUID(), { accounts: ['idem_nobody'], content: 'no such account' }],
      [repeated, { accounts: [x.id], content: 'first of a repeated key' }],
      [repeated, { accounts: [x.id], content: 'first of a repeated key' }],
      [stored, storedBody],
      [reused, { accounts: [x.id], content: 'another body' }],
      [randomUUID(), { accounts: [x.id], content: 'another new post' }],
    ];
    const postsBefore = await countRows(server.db, 'posts', org.orgId);
    const writer = createPostWriter(server.db);
    // All announced first: the batch waits for them and holds all eight.
    const arriving = requests.map(([key]) => writer.expect(key));
    const answers = requests.map(([key, body], i) => {
      const now = new Date();
      const answer = writer.submit({ orgId: org.orgId, key, body, parsed: parseCreateBody(body, now, STRICT_FETCH_POLICY), now });
      arriving[i]!();
      return answer.then((value) => ({ ok: true as const, value }), (error: { status: number; code?: string }) => ({ ok: false as const, error }));
    });
    const settled = await Promise.all(answers);
    const summary = settled.map((s) => (s.ok ? `${s.value.status}${s.value.replayed ? ' replayed' : ''}` : `${s.error.status} ${s.error.code}`));
    assert.deepEqual(summary, [
      '200', '400 validation_error', '400 no_account_resolved', '200', '409 idempotency_in_progress', '200 replayed', '422 idempotency_key_reuse', '200',
    ]);
    const made = settled.flatMap((s) => (s.ok && !s.value.replayed ? [(s.value.body as { post: { id: string } }).post.id] : []));
    assert.equal(new Set(made).size, 3);
    assert.deepEqual(settled[5]!.ok && settled[5]!.value.body, first.body);
    assert.equal(await countRows(server.db, 'posts', org.orgId), postsBefore + 3, 'the three new posts, nothing else');
    const keys = await server.db.query<{ post: string }>(
      "SELECT response_body->'post'->>'id' AS post FROM idempotency_keys WHERE key = ANY($1) ORDER BY 1",
      [[requests[0]![0], requests[1]![0], requests[2]![0], repeated, requests[7]![0]]],
    );
    assert.deepEqual(keys.rows.map((r) => r.post), [...made].sort(), 'the new posts\' responses stored, the 400s not');
  });

  describe('a key whose response is committed after the claim read it', () => {
    const waitUntil = async (done: () => Promise<boolean>) => {
      for (let i = 0; i < 500; i++) {
        if (await done()) return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error('the write never waited for the other transaction');
    };
    const storeFirstResponse = async (key: string, body: unknown, response: unknown) => {
      await server.db.query(
        `INSERT INTO idempotency_keys (org_id, endpoint, key, fingerprint, response_status, response_body, response_headers)
         VALUES ($1, 'POST /v1/posts', $2, $3, 200, $4, '{}')`,
        [org.orgId, key, fingerprintOf(body), JSON.stringify(response)],
      );
    };

    test('storing over the live response is refused with 409 and Retry-After: the first response stays', async () => {
      const key = randomUUID();
      const body = { accounts: [x.id], content: 'committed meanwhile' };
      const tx = await server.db.connect();
      try {
        await tx.query('BEGIN');
        const request = { orgId: org.orgId, key, fingerprint: fingerprintOf(body) };
        const [claim] = await claimIdempotencyKeys(tx, 'POST /v1/posts', [request]);
        assert.equal(claim!.kind, 'claimed');
        await storeFirstResponse(key, body, { success: true, first: true });
        await assert.rejects(
          storeIdempotentResponses(tx, 'POST /v1/posts', [{ request, response: { status: 200, body: { success: true, second: true }, headers: {} } }]),
          (error: { status?: number; code?: string; headers?: Record<string, string> }) =>
            error.status === 409 && error.code === 'idempotency_in_progress' && error.headers?.['retry-after'] === '1',
        );
        await tx.query('ROLLBACK');
      } finally {
        tx.release();
      }
      const { rows } = await server.db.query('SELECT response_body FROM idempotency_keys WHERE key = $1', [key]);
      assert.deepEqual(rows.map((r) => r.response_body), [{ success: true, first: true }]);
    });

    test('an expired response is replaced', async () => {
      const key = randomUUID();
      const body = { accounts: [x.id], content: 'expired meanwhile' };
      await storeFirstResponse(key, body, { success: true, old: true });
      await server.db.query("UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = $1", [key]);
      const request = { orgId: org.orgId, key, fingerprint: fingerprintOf(body) };
      await storeIdempotentResponses(server.db, 'POST /v1/posts', [{ request, response: { status: 200, body: { success: true, new: true }, headers: {} } }]);
      const { rows } = await server.db.query('SELECT response_body FROM idempotency_keys WHERE key = $1', [key]);
      assert.deepEqual(rows[0].response_body, { success: true, new: true });
    });

    /**
     * A writer whose first write is raced: the other request's transaction has stored `key`'s response,
     * not yet committed, when the write (which claims the keys and stores the responses in one
     * statement) starts, and commits once the write waits for it, i.e. after the write's snapshot.
     */
    const racingWriter = (key: string, body: unknown, response: unknown) => {
      const race = { ran: false };
      const racing = {
        connect: async () => {
          const client = await server.db.connect();
          const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
          (client as unknown as { query: unknown }).query = async (...args: unknown[]) => {
            const text = typeof args[0] === 'object' ? (args[0] as { text?: string }).text : args[0];
            if (race.ran || typeof text !== 'string' || !text.includes('INSERT INTO posts')) return query(...args);
            race.ran = true;
            const other = new pg.Client({ connectionString: server.databaseUrl });
            await other.connect();
            try {
              await other.query('BEGIN');
              await other.query(
                `INSERT INTO idempotency_keys (org_id, endpoint, key, fingerprint, response_status, response_body, response_headers)
                 VALUES ($1, 'POST /v1/posts', $2, $3, 200, $4, '{}')`,
                [org.orgId, key, fingerprintOf(body), JSON.stringify(response)],
              );
              const { rows: [{ pid }] } = await query('SELECT pg_backend_pid() AS pid') as { rows: { pid: number }[] };
              const write = query(...args);
              write.catch(() => {});
              await waitUntil(async () => (await server.db.query("SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND wait_event_type = 'Lock'", [pid])).rowCount === 1);
              await other.query('COMMIT');
              return await write;
            } finally {
              await other.end();
            }
          };
          const release = client.release.bind(client);
          client.release = (error?: Error | boolean) => {
            (client as unknown as { query: unknown }).query = query;
            return release(error);
          };
          return client;
        },
      } as unknown as Db;
      return { writer: createPostWriter(racing), race };
    };
    const submission = (key: string, body: unknown): CreateSubmission => {
      const now = new Date();
      return { orgId: org.orgId, key, body, parsed: parseCreateBody(body, now, STRICT_FETCH_POLICY), now };
    };

    test('in a batch of creates: the write fails, the raced request replays the first response, the other is created once', async () => {
      const raced = randomUUID();
      const fresh = randomUUID();
      const racedBody = { accounts: [x.id], content: 'raced in a batch' };
      const freshBody = { accounts: [x.id], content: 'fresh in that batch' };
      const firstResponse = { success: true, post: { id: 'first' } };
      const { writer, race } = racingWriter(raced, racedBody, firstResponse);
      const postsBefore = await countRows(server.db, 'posts', org.orgId);
      // Announced, the second request joins the first one's batch (its start waits for it).
      const arriving = writer.expect(fresh);
      const racedOutcome = writer.submit(submission(raced, racedBody));
      arriving();
      const freshOutcome = writer.submit(submission(fresh, freshBody));
      const [racedDone, freshDone] = await Promise.all([racedOutcome, freshOutcome]);
      assert.ok(race.ran);
      assert.equal(racedDone.replayed, true);
      assert.deepEqual(racedDone.body, firstResponse);
      assert.equal(freshDone.replayed, false);
      assert.equal(freshDone.status, 200);
      assert.equal(await countRows(server.db, 'posts', org.orgId), postsBefore + 1, 'only the fresh request wrote a post');
      const stored = await server.db.query<{ key: string; body: unknown }>('SELECT key, response_body AS body FROM idempotency_keys WHERE key = ANY($1)', [[raced, fresh]]);
      assert.deepEqual(new Map(stored.rows.map((r) => [r.key, r.body])), new Map<string, unknown>([[raced, firstResponse], [fresh, freshDone.body]]));
    });

    test('a request alone: its write fails, and it replays the first response', async () => {
      const raced = randomUUID();
      const body = { accounts: [x.id], content: 'raced alone' };
      const firstResponse = { success: true, post: { id: 'first alone' } };
      const { writer, race } = racingWriter(raced, body, firstResponse);
      const postsBefore = await countRows(server.db, 'posts', org.orgId);
      const outcome = await writer.submit(submission(raced, body));
      assert.ok(race.ran);
      assert.equal(outcome.replayed, true);
      assert.deepEqual(outcome.body, firstResponse);
      assert.equal(await countRows(server.db, 'posts', org.orgId), postsBefore, 'no post written');
    });
  });
});
