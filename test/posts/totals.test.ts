// The exact `pagination.total` of GET /v1/posts comes from counters kept by triggers (migration
// 012_post_counts.sql, src/posts/totals.ts). These tests change posts, targets and accounts in every
// way Crier (or anyone with SQL) does, concurrently, and then compare two things with count(*):
// every counter bucket, recomputed from the rows, and the total the list answers for many filters.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { upsertSocialAccount } from '../../src/accounts/social-accounts.ts';
import type { Db } from '../../src/db/pool.ts';
import { listPosts } from '../../src/posts/list.ts';
import type { ListPostsQuery } from '../../src/posts/schema.ts';
import { postWhere, type PostFilter } from '../../src/posts/totals.ts';
import { parseDateOrDateTime } from '../../src/validation/date-time.ts';
import { startTestServer, type TestAccount, type TestOrg, type TestServer } from '../helpers/harness.ts';

let server: TestServer;

before(async () => {
  server = await startTestServer();
});
after(() => server.close());

// ---- the oracle ----------------------------------------------------------------------------------

/**
 * Every counter of the org (summed over shards) against the same buckets recomputed with count(*)
 * from posts, targets and accounts: a post counts in '' always, in 'a<account>' per target, and in
 * 't<tenant>' once however many of its accounts carry the tenant.
 */
async function assertCountersExact(db: Db, orgId: number): Promise<void> {
  const expected = await db.query<{ key: string; n: string }>(
    `WITH scoped AS (
       SELECT p.id, '' AS scope FROM posts p WHERE p.org_id = $1
       UNION ALL SELECT t.post_id, 'a' || t.account_id FROM targets t JOIN posts p ON p.id = t.post_id WHERE p.org_id = $1
       UNION ALL SELECT DISTINCT t.post_id, 't' || a.tenant_id FROM targets t JOIN social_accounts a ON a.id = t.account_id
                  JOIN posts p ON p.id = t.post_id WHERE p.org_id = $1 AND a.tenant_id IS NOT NULL
     )
     SELECT concat_ws('|', s.scope, d.dim || g.grain, to_char(date_trunc(g.unit, d.at AT TIME ZONE 'UTC'), 'YYYY-MM-DD HH24:MI:SS')) AS key, count(*)::text AS n
       FROM scoped s JOIN posts p ON p.id = s.id
      CROSS JOIN LATERAL (VALUES ('c', p.created_at), ('s', p.scheduled_at)) AS d(dim, at)
      CROSS JOIN (VALUES ('d', 'day'), ('h', 'hour'), ('m', 'minute'), ('s', 'second')) AS g(grain, unit)
      WHERE d.at IS NOT NULL
      GROUP BY 1 ORDER BY 1`,
    [orgId],
  );
  const actual = await db.query<{ key: string; n: string }>(
    `SELECT concat_ws('|', scope, grain, to_char(bucket AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')) AS key, sum(n)::text AS n
       FROM post_counts WHERE org_id = $1 GROUP BY 1 HAVING sum(n) <> 0 ORDER BY 1`,
    [orgId],
  );
  assert.deepEqual(actual.rows, expected.rows, 'every counter bucket equals count(*) of its posts');
  const { rows: stale } = await db.query(
    'SELECT t.id FROM targets t JOIN posts p ON p.id = t.post_id WHERE p.org_id = $1 AND t.post_created_at <> p.created_at', [orgId]);
  assert.deepEqual(stale, [], "every target's copy of its post's created_at (the list's account index) is the post's");
}

/** The posts a list query selects, counted by count(*) with the list's own WHERE clause. */
async function countStar(db: Db, orgId: number, query: ListPostsQuery, accountRawId: number | undefined): Promise<number> {
  const bound = (text: string | undefined) => (text ? parseDateOrDateTime(text)! : undefined);
  const filter: PostFilter = {
    orgId,
    accountId: accountRawId,
    tenantId: query.tenant_id,
    created: { after: bound(query.created_after), before: bound(query.created_before) },
    scheduled: { after: bound(query.scheduled_after), before: bound(query.scheduled_before) },
    ...(query.status ? { statuses: query.status.split(',') } : {}),
  };
  const params: unknown[] = [orgId];
  const where = postWhere(filter, params);
  return (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM posts p WHERE ${where}`, params)).rows[0]!.n;
}

/**
 * The list's total (limit 1, so that the counters answer, not a partial page) against count(*), for
 * `samples` filters: every scope, with and without created and scheduled ranges whose bounds fall
 * exactly on posts' own times, a millisecond either side, on second, minute, hour and day boundaries,
 * or anywhere.
 */
async function assertListTotalsExact(db: Db, org: TestOrg, accounts: TestAccount[], samples = 150): Promise<void> {
  const { rows } = await db.query<{ created_at: Date; scheduled_at: Date | null }>('SELECT created_at, scheduled_at FROM posts WHERE org_id = $1', [org.orgId]);
  const { rows: tenants } = await db.query<{ tenant_id: string }>('SELECT DISTINCT tenant_id FROM social_accounts WHERE org_id = $1 AND tenant_id IS NOT NULL', [org.orgId]);
  const times = rows.flatMap((r) => (r.scheduled_at ? [r.created_at, r.scheduled_at] : [r.created_at])).map((d) => d.getTime());
  const pick = <T>(list: T[]): T => list[Math.floor(Math.random() * list.length)]!;
  const instant = (): string => {
    const t = pick(times);
    const grain = pick([1_000, 60_000, 300_000, 3_600_000, 86_400_000]);
    const variants = [t, t - 1, t + 1, Math.floor(t / grain) * grain, Math.ceil(t / grain) * grain, t + (Math.random() - 0.5) * 6 * 86_400_000];
    return new Date(Math.round(pick(variants))).toISOString();
  };
  const check = async (query: ListPostsQuery, account?: TestAccount) => {
    const page = await listPosts(db, org.orgId, query);
    assert.equal(page.pagination.total, await countStar(db, org.orgId, query, account?.rawId), `total of ${JSON.stringify(query)}`);
  };
  // Bounds a millisecond either side of, and exactly on, posts' own times: where an off-by-one shows.
  const createdTimes = rows.map((r) => r.created_at.getTime());
  const scheduledTimes = rows.flatMap((r) => (r.scheduled_at ? [r.scheduled_at.getTime()] : []));
  for (const [dimension, list] of [['created', createdTimes], ['scheduled', scheduledTimes]] as const) {
    for (let i = 0; i < Math.min(10, list.length); i++) {
      const t = pick(list);
      for (const [side, at] of [['after', t - 1], ['after', t], ['before', t], ['before', t + 1]] as const) {
        await check({ limit: 1, [`${dimension}_${side}`]: new Date(at).toISOString() });
      }
    }
  }
  for (let i = 0; i < samples; i++) {
    const query: ListPostsQuery = { limit: 1 };
    let account: TestAccount | undefined;
    const scope = i % 5;
    if (scope === 1 || scope === 3) account = pick(accounts);
    if (scope >= 2 && tenants.length) query.tenant_id = scope === 4 && i % 10 === 4 ? 'no-such-tenant' : pick(tenants).tenant_id;
    if (account) query.social_account_id = i % 2 ? account.id : String(account.rawId);
    // Every third filter asks for statuses too: their total is counted from the destinations (totals.ts).
    if (i % 3 === 2) query.status = pick(['pending', 'cancelled', 'pending,cancelled', 'published,failed']);
    const ranges = Math.floor(i / 5) % 4; // none, created, scheduled, both
    for (const dimension of ranges === 1 ? ['created'] : ranges === 2 ? ['scheduled'] : ranges === 3 ? ['created', 'scheduled'] : []) {
      const side = Math.floor(Math.random() * 3); // after, before, both
      if (side !== 1) (query as Record<string, unknown>)[`${dimension}_after`] = instant();
      if (side !== 0) (query as Record<string, unknown>)[`${dimension}_before`] = instant();
    }
    await check(query, account);
  }
}

// ---- fixtures ------------------------------------------------------------------------------------

interface World {
  org: TestOrg;
  accounts: TestAccount[];
}

/** An org with accounts on three tenants, two sharing one, and one without a tenant. */
async function world(): Promise<World> {
  const org = await server.createOrg();
  const accounts = [
    await server.addAccount(org, 'x', undefined, { tenantId: 't1' }),
    await server.addAccount(org, 'bluesky', undefined, { tenantId: 't1' }),
    await server.addAccount(org, 'threads', undefined, { tenantId: 't2' }),
    await server.addAccount(org, 'linkedin', undefined, {}),
  ];
  return { org, accounts };
}

const someOf = (accounts: TestAccount[], seed: number) => {
  const chosen = accounts.filter((_, i) => (seed >> i) & 1);
  return chosen.length ? chosen : [accounts[seed % accounts.length]!];
};

async function createPost(w: World, seed: number, scheduledInHours?: number): Promise<string> {
  const body: Record<string, unknown> = { accounts: someOf(w.accounts, seed).map((a) => a.id), content: `post ${seed}` };
  if (scheduledInHours !== undefined) body.scheduledAt = new Date(Date.now() + scheduledInHours * 3_600_000).toISOString();
  const res = await server.request('POST', '/v1/posts', { key: w.org.key, body });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.post.id;
}

/** Marks every destination of the org's posts published, so DELETE removes their records. */
async function finishAll(db: Db, orgId: number): Promise<void> {
  await db.query("UPDATE targets SET status = 'published', published_at = now() WHERE org_id = $1", [orgId]);
}

// ---- the tests -----------------------------------------------------------------------------------

describe('exact totals from counters', () => {
  test('creates, reschedules, deletes and tenant changes racing one another leave every total exact', async () => {
    const w = await world();
    for (let i = 0; i < 12; i++) await createPost(w, i, i % 3 === 0 ? undefined : (i % 7) * 20 + 1);
    await finishAll(server.db, w.org.orgId);
    const finished = (await server.db.query<{ id: number }>('SELECT id FROM posts WHERE org_id = $1 ORDER BY id', [w.org.orgId])).rows;
    const { encodeId } = await import('../../src/core/ids.ts');

    for (let round = 0; round < 3; round++) {
      const pending = await Promise.all(Array.from({ length: 4 }, (_, i) => createPost(w, 20 + round * 4 + i, 30 + i * 25)));
      const work: Promise<unknown>[] = [];
      for (let i = 0; i < 16; i++) work.push(createPost(w, round * 16 + i, i % 4 === 0 ? undefined : (i * 37) % 700 + 1));
      for (const id of pending) {
        work.push(server.request('PATCH', `/v1/posts/${id}`, { key: w.org.key, body: { scheduledAt: new Date(Date.now() + (round + 2) * 86_400_000 + 7 * 60_000).toISOString() } })
          .then((res) => assert.equal(res.status, 200, JSON.stringify(res.body))));
      }
      for (const { id } of finished.splice(0, 3)) {
        work.push(server.request('DELETE', `/v1/posts/${encodeId(id)}`, { key: w.org.key })
          .then((res) => assert.equal(res.body.outcome, 'record_deleted', JSON.stringify(res.body))));
      }
      // Reconnects that move accounts between tenants, one of them to no tenant at all.
      const moves: [TestAccount, string | null][] = [[w.accounts[0]!, round % 2 ? 't1' : 't2'], [w.accounts[2]!, round % 2 ? 't2' : 't1'], [w.accounts[3]!, round === 1 ? 't3' : null]];
      for (const [account, tenantId] of moves) {
        work.push(server.db.query<{ network_unique_id: string }>('SELECT network_unique_id FROM social_accounts WHERE id = $1', [account.rawId])
          .then(({ rows }) => upsertSocialAccount(server.db, server.box, { orgId: w.org.orgId, network: account.network, username: account.username, networkUniqueId: rows[0]!.network_unique_id, tenantId })));
      }
      await Promise.all(work);
      await assertCountersExact(server.db, w.org.orgId);
    }
    await assertListTotalsExact(server.db, w.org, w.accounts);
  });

  test('one statement writing many posts and targets (a batched create) is counted exactly', async () => {
    const w = await world();
    await server.db.query(
      `WITH p AS (
         INSERT INTO posts (org_id, scheduled_at, created_at)
         SELECT $1, CASE WHEN i % 3 = 0 THEN now() + i * interval '17 minutes' WHEN i % 3 = 1 THEN date_trunc('day', now()) + i * interval '1 day' END,
                -- Every fourth post exactly on a slice's first microsecond, where a bound off by one would show.
                CASE WHEN i % 4 = 0 THEN date_trunc('hour', now()) - i * interval '5 minutes' ELSE now() - i * interval '13 minutes' END
           FROM generate_series(1, 400) AS i
         RETURNING id
       )
       INSERT INTO targets (org_id, post_id, account_id)
       SELECT $1, p.id, a.id FROM p JOIN social_accounts a ON a.org_id = $1 AND (p.id + a.id) % 3 <> 0`,
      [w.org.orgId],
    );
    await assertCountersExact(server.db, w.org.orgId);
    await assertListTotalsExact(server.db, w.org, w.accounts);
  });

  test('a target added to an existing post counts the post once more per account, never twice per tenant', async () => {
    const w = await world();
    const id = await createPost(w, 0b0001); // account 0, tenant t1
    const { decodeId } = await import('../../src/core/ids.ts');
    await server.db.query('INSERT INTO targets (org_id, post_id, account_id) VALUES ($1, $2, $3), ($1, $2, $4)',
      [w.org.orgId, decodeId(id), w.accounts[1]!.rawId, w.accounts[2]!.rawId]); // t1 again, and t2
    await assertCountersExact(server.db, w.org.orgId);
    const t1 = await listPosts(server.db, w.org.orgId, { tenant_id: 't1', limit: 1 });
    assert.equal(t1.pagination.total, 1);
    // And deleted on its own: the post leaves t2 but stays in t1 through account 0.
    await server.db.query('DELETE FROM targets WHERE post_id = $1 AND account_id IN ($2, $3)', [decodeId(id), w.accounts[1]!.rawId, w.accounts[2]!.rawId]);
    await assertCountersExact(server.db, w.org.orgId);
    assert.equal((await listPosts(server.db, w.org.orgId, { tenant_id: 't2', limit: 1 })).pagination.total, 0);
    assert.equal((await listPosts(server.db, w.org.orgId, { tenant_id: 't1', limit: 1 })).pagination.total, 1);
  });

  test('moving created_at (as tests and imports do) moves the post between buckets', async () => {
    const w = await world();
    for (let i = 0; i < 6; i++) await createPost(w, i, i % 2 ? 5 : undefined);
    await server.db.query("UPDATE posts SET created_at = created_at - (id % 5) * interval '19 hours' WHERE org_id = $1", [w.org.orgId]);
    await assertCountersExact(server.db, w.org.orgId);
    await assertListTotalsExact(server.db, w.org, w.accounts, 60);
  });

  test('an account deleted with its posts\' targets, and a whole org deleted, leave no stale counts', async () => {
    const w = await world();
    for (let i = 0; i < 8; i++) await createPost(w, i, i % 2 ? 3 : undefined);
    // The API refuses this (409 account_has_posts); SQL can do it.
    await server.db.query('DELETE FROM social_accounts WHERE id = $1', [w.accounts[1]!.rawId]);
    await assertCountersExact(server.db, w.org.orgId);
    await assertListTotalsExact(server.db, w.org, [w.accounts[0]!, w.accounts[2]!, w.accounts[3]!], 40);

    const other = await world();
    for (let i = 0; i < 4; i++) await createPost(other, i);
    await server.db.query('DELETE FROM orgs WHERE id = $1', [w.org.orgId]);
    const left = await server.db.query('SELECT count(*)::int AS n FROM post_counts WHERE org_id = $1', [w.org.orgId]);
    assert.equal(left.rows[0].n, 0);
    await assertCountersExact(server.db, other.org.orgId);
  });

  test('a target cannot be moved to another post or account', async () => {
    const w = await world();
    await createPost(w, 0b0011);
    await assert.rejects(
      server.db.query('UPDATE targets SET account_id = $2 WHERE account_id = $1 AND org_id = $3', [w.accounts[0]!.rawId, w.accounts[3]!.rawId, w.org.orgId]),
      /cannot change/,
    );
  });
});

describe('no hot row', () => {
  test('two transactions creating posts of one org at once never wait for each other', async () => {
    const w = await world();
    const a = new pg.Client({ connectionString: server.databaseUrl });
    const b = new pg.Client({ connectionString: server.databaseUrl });
    await a.connect();
    await b.connect();
    try {
      const insert = (client: pg.Client) => client.query(
        `WITH p AS (INSERT INTO posts (org_id) VALUES ($1) RETURNING id)
         INSERT INTO targets (org_id, post_id, account_id) SELECT $1, p.id, unnest($2::bigint[]) FROM p`,
        [w.org.orgId, w.accounts.map((x) => x.rawId)],
      );
      await a.query('BEGIN');
      await insert(a); // holds its counter rows until it commits
      await b.query("BEGIN; SET LOCAL lock_timeout = '2s'");
      await insert(b); // same org, scopes and buckets: would time out if it had to wait for `a`
      await b.query('COMMIT');
      await a.query('COMMIT');
    } finally {
      await a.end();
      await b.end();
    }
    await assertCountersExact(server.db, w.org.orgId);
  });

  test('folding merges the shards without waiting for writers and without changing any total', async () => {
    const w = await world();
    for (let i = 0; i < 6; i++) await createPost(w, i, i % 2 ? 4 : undefined);
    const writer = new pg.Client({ connectionString: server.databaseUrl });
    await writer.connect();
    try {
      // A first post gives this backend its counter rows; the second, uncommitted, holds them locked.
      await writer.query('INSERT INTO posts (org_id) VALUES ($1)', [w.org.orgId]);
      await writer.query('BEGIN');
      await writer.query('INSERT INTO posts (org_id) VALUES ($1)', [w.org.orgId]);
      // The writer's rows are locked: the fold skips them instead of waiting (lock_timeout would fail it).
      const folder = new pg.Client({ connectionString: server.databaseUrl });
      await folder.connect();
      await folder.query("SET lock_timeout = '2s'").then(() => folder.query('SELECT post_counts_fold()')).finally(() => folder.end());
      await writer.query('COMMIT');
    } finally {
      await writer.end();
    }
    await assertCountersExact(server.db, w.org.orgId);
    await server.db.query('SELECT post_counts_fold()');
    const shards = await server.db.query('SELECT count(*)::int AS n FROM post_counts WHERE org_id = $1 AND shard <> 0', [w.org.orgId]);
    assert.equal(shards.rows[0].n, 0, 'every shard folded into shard 0');
    await assertCountersExact(server.db, w.org.orgId);
    await assertListTotalsExact(server.db, w.org, w.accounts, 40);
  });
});
