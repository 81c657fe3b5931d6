// The exact totals and the pages of GET /v1/posts in the data shapes that made them slow (migration
// 029): posts so dense that thousands share a minute and hundreds one instant, bounds falling inside
// an hour, a minute or a second, or on their edges, and writers inserting and deleting while lists
// are read. Every total is compared with count(*) of the same filter in the same snapshot, every
// page with ORDER BY / LIMIT / OFFSET over the same rows.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { encodeId } from '../../src/core/ids.ts';
import type { Queryable } from '../../src/db/pool.ts';
import { listPosts } from '../../src/posts/list.ts';
import type { ListPostsQuery } from '../../src/posts/schema.ts';
import { postWhere, type PostFilter } from '../../src/posts/totals.ts';
import { startTestServer, type TestAccount, type TestOrg, type TestServer } from '../helpers/harness.ts';

let server: TestServer;

before(async () => {
  server = await startTestServer();
});
after(() => server.close());

/** A fixed minute, so that second, minute, hour and day edges fall where the posts below put them. */
const T0 = Date.UTC(2026, 10, 20, 9, 30);
const SECOND = 1_000;
const MINUTE = 60_000;
const HOUR = 3_600_000;
const at = (ms: number) => new Date(ms).toISOString();

interface World {
  org: TestOrg;
  accounts: TestAccount[];
}

/** An org with accounts on two tenants, two sharing one, and one without a tenant. */
async function world(): Promise<World> {
  const org = await server.createOrg();
  return {
    org,
    accounts: [
      await server.addAccount(org, 'x', undefined, { tenantId: 't1' }),
      await server.addAccount(org, 'bluesky', undefined, { tenantId: 't1' }),
      await server.addAccount(org, 'threads', undefined, { tenantId: 't2' }),
      await server.addAccount(org, 'linkedin', undefined, {}),
    ],
  };
}

/**
 * Posts with the given creation and scheduled times (ms), each targeting one to three accounts by
 * its position, in one statement.
 */
async function insertPosts(db: Queryable, w: World, created: number[], scheduled: (number | null)[]): Promise<void> {
  await db.query(
    `WITH s AS (
       SELECT i, to_timestamp(c / 1000) AS created, to_timestamp(s / 1000) AS scheduled
         FROM unnest($2::float8[], $3::float8[]) WITH ORDINALITY AS u(c, s, i)
     ), p AS (
       INSERT INTO posts (org_id, created_at, scheduled_at) SELECT $1, created, scheduled FROM s ORDER BY i RETURNING id
     )
     INSERT INTO targets (org_id, post_id, account_id)
     SELECT $1, p.id, a.account FROM p
      CROSS JOIN LATERAL unnest(CASE p.id % 5 WHEN 0 THEN ARRAY[$4, $5]::bigint[] WHEN 1 THEN ARRAY[$5, $6]::bigint[] WHEN 2 THEN ARRAY[$7]::bigint[]
                                              WHEN 3 THEN ARRAY[$4, $6, $7]::bigint[] ELSE ARRAY[$4]::bigint[] END) AS a(account)`,
    [w.org.orgId, created, scheduled, ...w.accounts.map((a) => a.rawId)],
  );
}

function filterOf(w: World, query: ListPostsQuery): PostFilter {
  const date = (text: string | undefined) => (text === undefined ? undefined : new Date(text));
  return {
    orgId: w.org.orgId,
    accountId: query.social_account_id === undefined ? undefined : w.accounts.find((a) => a.id === query.social_account_id)!.rawId,
    tenantId: query.tenant_id,
    created: { after: date(query.created_after), before: date(query.created_before) },
    scheduled: { after: date(query.scheduled_after), before: date(query.scheduled_before) },
  };
}

/** count(*) of the posts `query` selects, with the list's own WHERE clause. */
async function countStar(db: Queryable, w: World, query: ListPostsQuery): Promise<number> {
  const params: unknown[] = [w.org.orgId];
  const where = postWhere(filterOf(w, query), params);
  return (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM posts p WHERE ${where}`, params)).rows[0]!.n;
}

/** The filters of the issue: no scope, each account, each tenant, a tenant with one of its accounts. */
function scopes(w: World): Partial<ListPostsQuery>[] {
  return [
    {},
    ...w.accounts.map((a) => ({ social_account_id: a.id })),
    { tenant_id: 't1' },
    { tenant_id: 't2' },
    { tenant_id: 't1', social_account_id: w.accounts[1]!.id },
    { tenant_id: 't2', social_account_id: w.accounts[0]!.id }, // the account does not carry it: 0
  ];
}

/**
 * Bounds at `t` and around it: on it, a millisecond either side, and on the edges of its second,
 * minute, hour and day.
 */
function boundsAround(t: number): number[] {
  const edges = [SECOND, MINUTE, HOUR, 86_400_000].flatMap((grain) => [Math.floor(t / grain) * grain, Math.ceil(t / grain) * grain + (t % grain === 0 ? grain : 0)]);
  return [t, t - 1, t + 1, ...edges];
}

/**
 * Ranges of created (or scheduled) times from `bounds`, after, before and both (the other end another
 * of the bounds), each bound on each side with every scope in turn: totals as count(*).
 */
async function assertTotalsExact(w: World, dimension: 'created' | 'scheduled', bounds: number[]): Promise<number> {
  let checked = 0;
  const sorted = [...new Set(bounds)].sort((a, b) => a - b);
  const allScopes = scopes(w);
  for (let i = 0; i < sorted.length; i++) {
    const lo = sorted[i]!;
    const hi = sorted[(i * 7 + 3) % sorted.length]!;
    const ranges = [{ [`${dimension}_after`]: at(lo) }, { [`${dimension}_before`]: at(lo) }, { [`${dimension}_after`]: at(lo), [`${dimension}_before`]: at(hi) }];
    for (let k = 0; k < ranges.length; k++) {
      const query = { ...allScopes[(i + k * 3) % allScopes.length], ...ranges[k], limit: 1 } as ListPostsQuery;
      const page = await listPosts(server.db, w.org.orgId, query);
      assert.equal(page.pagination.total, await countStar(server.db, w, query), `total of ${JSON.stringify(query)}`);
      checked++;
    }
  }
  return checked;
}

describe('exact totals whatever the shape', () => {
  test('thousands of posts in one minute, hundreds sharing one instant: every bound inside or on a second, minute, hour or day', async () => {
    const w = await world();
    // 3,000 posts 17 ms apart (51 s), 400 at one instant inside that minute, 600 over the hour after,
    // 200 the day before; scheduled: 500 at exactly 10:00:00, the rest spread over the next minutes.
    const dense = Array.from({ length: 3_000 }, (_, i) => T0 + 1_003 + i * 17);
    const burst = Array.from({ length: 400 }, () => T0 + 20_500);
    const hour = Array.from({ length: 600 }, (_, i) => T0 + MINUTE + i * 5_987);
    const dayBefore = Array.from({ length: 200 }, (_, i) => T0 - 86_400_000 + i * 61_001);
    const created = [...dense, ...burst, ...hour, ...dayBefore];
    const scheduled = created.map((_, i) => (i % 3 === 0 ? null : i % 3 === 1 ? Date.UTC(2026, 10, 20, 10) : T0 + HOUR + (i % 700) * 313));
    await insertPosts(server.db, w, created, scheduled);

    const probes = [T0 + 20_500, T0 + 1_003, T0 + 1_003 + 2_999 * 17, T0 + 30_000 + 7, T0 + MINUTE + 1_234, T0 + HOUR / 2 + 17, T0 - HOUR * 5 + 1];
    const checked = await assertTotalsExact(w, 'created', probes.flatMap(boundsAround));
    const scheduledProbes = [Date.UTC(2026, 10, 20, 10), T0 + HOUR + 313 * 10, T0 + HOUR + 100_003];
    const checkedScheduled = await assertTotalsExact(w, 'scheduled', scheduledProbes.flatMap(boundsAround));
    assert.ok(checked > 120 && checkedScheduled > 50, `${checked} and ${checkedScheduled} totals compared`);
  });

  test('pages by account and by tenant over posts sharing their creation instant equal ORDER BY / LIMIT / OFFSET', async () => {
    const w = await world();
    // 300 posts at one instant (the order falls back to the id), 300 a millisecond apart around it.
    await insertPosts(server.db, w, [...Array.from({ length: 300 }, () => T0 + 5_000), ...Array.from({ length: 300 }, (_, i) => T0 + 4_850 + i)], Array(600).fill(null));
    for (const scope of scopes(w)) {
      for (const [range, limit, offset] of [[{}, 20, 0], [{}, 20, 140], [{ created_after: at(T0 + 4_999) }, 50, 30], [{ created_before: at(T0 + 5_001), created_after: at(T0 + 4_900) }, 100, 250], [{}, 7, 590]] as const) {
        const query = { ...scope, ...range, limit, offset } as ListPostsQuery;
        const page = await listPosts(server.db, w.org.orgId, query);
        const params: unknown[] = [w.org.orgId];
        const where = postWhere(filterOf(w, query), params);
        const { rows } = await server.db.query<{ id: number }>(`SELECT p.id FROM posts p WHERE ${where} ORDER BY p.created_at DESC, p.id DESC LIMIT ${limit} OFFSET ${offset}`, params);
        assert.deepEqual(page.posts.map((p) => p.id), rows.map((r) => encodeId(r.id)), `page of ${JSON.stringify(query)}`);
        assert.equal(page.pagination.total, await countStar(server.db, w, query), `total of ${JSON.stringify(query)}`);
      }
    }
  });

  test('the counters are kept at exactly the grains post_count_grains lists, for creation and scheduled time', async () => {
    const w = await world();
    await insertPosts(server.db, w, [T0 + 1_234], [T0 + HOUR + 5_678]);
    const { rows: listed } = await server.db.query<{ grain: string; width: string }>(
      "SELECT d.dim || g.grain AS grain, extract(epoch FROM g.width)::text AS width FROM post_count_grains g CROSS JOIN (VALUES ('c'), ('s')) AS d(dim) ORDER BY 1");
    const { rows: kept } = await server.db.query<{ grain: string; width: string }>(
      `SELECT grain, extract(epoch FROM (CASE WHEN grain LIKE 'c%' THEN $2::timestamptz ELSE $3::timestamptz END) - bucket)::text AS width
         FROM post_counts WHERE org_id = $1 AND scope = '' GROUP BY grain, bucket HAVING sum(n) = 1 ORDER BY 1`,
      [w.org.orgId, at(T0 + 1_234), at(T0 + HOUR + 5_678)]);
    assert.deepEqual(kept.map((r) => r.grain), listed.map((r) => r.grain));
    // Each bucket starts where its width cuts the post's time (09:30:01.234 and 10:30:05.678, UTC).
    const offsets: Record<string, number> = { cd: 34_201.234, ch: 1_801.234, cm: 1.234, cs: 0.234, sd: 37_805.678, sh: 1_805.678, sm: 5.678, ss: 0.678 };
    assert.deepEqual(kept.map((r) => [r.grain, Number(r.width)]), Object.entries(offsets).sort());
    assert.deepEqual(listed.map((r) => Number(r.width)).sort((a, b) => a - b), [1, 1, 60, 60, 3_600, 3_600, 86_400, 86_400]);
  });

  test("a target carries its post's created_at, moved with it; a target of no post is refused as its foreign key would", async () => {
    const w = await world();
    await insertPosts(server.db, w, [T0, T0 + 1], [null, null]);
    const copies = () => server.db.query<{ same: boolean }>(
      'SELECT t.post_created_at = p.created_at AS same FROM targets t JOIN posts p ON p.id = t.post_id WHERE p.org_id = $1', [w.org.orgId]);
    assert.ok((await copies()).rows.every((r) => r.same));
    await server.db.query("UPDATE posts SET created_at = created_at - interval '3 hours' WHERE org_id = $1", [w.org.orgId]);
    const after = (await copies()).rows;
    assert.ok(after.length >= 2 && after.every((r) => r.same), 'moved with the post');
    const account = w.accounts[0]!.rawId;
    await assert.rejects(server.db.query('INSERT INTO targets (org_id, post_id, account_id) VALUES ($1, -1, $2)', [w.org.orgId, account]),
      (error: { code?: string }) => error.code === '23503');
  });

  test('while writers insert and delete posts in the same seconds, each list total equals count(*) in its own snapshot', async () => {
    const w = await world();
    await insertPosts(server.db, w, Array.from({ length: 500 }, (_, i) => Date.now() - 2 * SECOND + i * 3), Array(500).fill(null));
    const started = Date.now();
    const running = () => Date.now() - started < 2_500;
    const client = async () => {
      const c = new pg.Client({ connectionString: server.databaseUrl });
      await c.connect();
      return c;
    };
    // Writers: posts created now (the current second, as the API creates them), and deletes of older ones.
    const writer = async (seed: number) => {
      const c = await client();
      let writes = 0;
      try {
        for (let i = 0; running(); i++) {
          if ((i + seed) % 3 === 2) {
            await c.query('DELETE FROM posts WHERE id = (SELECT id FROM posts WHERE org_id = $1 ORDER BY id OFFSET $2 LIMIT 1)', [w.org.orgId, (i * 37 + seed) % 200]);
          } else {
            await insertPosts(c, w, [Date.now(), Date.now() + 1], [null, Date.now() + HOUR]);
          }
          writes++;
        }
      } finally {
        await c.end();
      }
      return writes;
    };
    // Readers: the list and count(*) in one REPEATABLE READ transaction, so both see one snapshot.
    const reader = async (seed: number) => {
      const c = await client();
      let reads = 0;
      try {
        for (let i = 0; running(); i++) {
          const now = Date.now();
          const ranges = [{}, { created_after: at(now - 1_500 - (i % 7)) }, { created_after: at(now - 3_000), created_before: at(now - 400 + (i % 13)) }, { scheduled_after: at(now) }];
          const allScopes = scopes(w);
          const query = { ...allScopes[(i + seed) % allScopes.length], ...ranges[i % ranges.length], limit: 1 } as ListPostsQuery;
          await c.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
          const page = await listPosts(c, w.org.orgId, query);
          const exact = await countStar(c, w, query);
          await c.query('COMMIT');
          assert.equal(page.pagination.total, exact, `total of ${JSON.stringify(query)} in one snapshot`);
          reads++;
        }
      } finally {
        await c.end();
      }
      return reads;
    };
    const [writes, reads] = await Promise.all([
      Promise.all([writer(0), writer(1), writer(2)]),
      Promise.all([reader(0), reader(1)]),
    ]);
    assert.ok(writes.every((n) => n > 10) && reads.every((n) => n > 10), `writes ${writes}, reads ${reads}`);
    // And at rest, with the counters' shards folded or not.
    const now = Date.now();
    await assertTotalsExact(w, 'created', [now - 4_000, now - 1_000, now, ...boundsAround(now - 2_345)]);
    await server.db.query('SELECT post_counts_fold()');
    await assertTotalsExact(w, 'created', [now - 4_000, now - 1_000, now, ...boundsAround(now - 2_345)]);
  });
});
