// Upgrading an installation with posts to migration 029 (src/db/migrations/029_post_lists_any_shape.sql):
// its counters, kept at 012's grains until then, are recounted at the day, hour, minute and second,
// and every existing target gets its post's created_at, so that the list's totals and its account
// and tenant pages are right from the first request after the upgrade.
import assert from 'node:assert/strict';
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { encodeId } from '../../src/core/ids.ts';
import { ensureDatabase } from '../../src/db/database.ts';
import { migrate, migrateAll } from '../../src/db/migrate.ts';
import { createPool, type Db } from '../../src/db/pool.ts';
import { listPosts } from '../../src/posts/list.ts';
import type { ListPostsQuery } from '../../src/posts/schema.ts';
import { postWhere, type PostFilter } from '../../src/posts/totals.ts';

const MIGRATIONS = path.resolve(import.meta.dirname, '../../src/db/migrations');
const name = `crier_lists_upgrade_${process.pid}`;
let db: Db;
let scratch: string;

before(async () => {
  db = createPool(await ensureDatabase(process.env.CRIER_TEST_ADMIN_URL!, name), 2);
  scratch = await mkdtemp(path.join(os.tmpdir(), 'crier-lists-upgrade-'));
  // Every migration before 029, with the functions as they are now (as an upgrade applies them).
  for (const file of (await readdir(MIGRATIONS)).filter((f) => f.endsWith('.sql') && f < '029')) {
    await cp(path.join(MIGRATIONS, file), path.join(scratch, file));
  }
  await migrateAll(db, { migrations: scratch });
});
after(async () => {
  await db.end();
  await rm(scratch, { recursive: true, force: true });
  const admin = new pg.Client({ connectionString: process.env.CRIER_TEST_ADMIN_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
  await admin.end();
});

test('029 recounts the posts already stored at its grains and gives their targets their created_at', async () => {
  const org = (await db.query<{ id: number }>("INSERT INTO orgs (name) VALUES ('upgrade') RETURNING id")).rows[0]!.id;
  const accounts: number[] = [];
  for (const [i, tenant] of [[1, 't1'], [2, 't1'], [3, null]] as const) {
    accounts.push((await db.query<{ id: number }>(
      "INSERT INTO social_accounts (org_id, network, username, tenant_id, network_unique_id) VALUES ($1, 'x', 'u' || $2, $3, 'n' || $2) RETURNING id",
      [org, i, tenant])).rows[0]!.id);
  }
  await db.query(
    `WITH p AS (
       INSERT INTO posts (org_id, created_at, scheduled_at)
       SELECT $1, timestamptz '2026-11-20 09:30:00Z' + i * interval '7.3 seconds',
              CASE WHEN i % 2 = 0 THEN timestamptz '2026-11-21 10:00:00Z' + i * interval '41 seconds' END
         FROM generate_series(1, 600) AS i
       RETURNING id
     )
     INSERT INTO targets (org_id, post_id, account_id)
     SELECT $1, p.id, a FROM p CROSS JOIN unnest($2::bigint[]) AS a WHERE (p.id + a) % 3 <> 0`,
    [org, accounts],
  );
  // A counter as 012 kept them (five-minute slices): meaningless after 029, which must drop it.
  await db.query("INSERT INTO post_counts (org_id, scope, grain, bucket, shard, n) VALUES ($1, '', 'cm', '2026-11-20 09:30:00Z', 0, 999)", [org]);

  assert.deepEqual((await migrate(db)).filter((f) => f < '030'), ['029_post_lists_any_shape.sql']);

  // Every counter bucket against count(*) of its posts, at every grain of both times.
  const counted = await db.query<{ key: string; n: string }>(
    `WITH scoped AS (
       SELECT p.id, '' AS scope FROM posts p WHERE p.org_id = $1
       UNION ALL SELECT t.post_id, 'a' || t.account_id FROM targets t WHERE t.org_id = $1
       UNION ALL SELECT DISTINCT t.post_id, 't' || a.tenant_id FROM targets t JOIN social_accounts a ON a.id = t.account_id
                  WHERE t.org_id = $1 AND a.tenant_id IS NOT NULL
     )
     SELECT concat_ws('|', s.scope, d.dim || g.grain, to_char(date_trunc(g.unit, d.at AT TIME ZONE 'UTC'), 'YYYY-MM-DD HH24:MI:SS')) AS key, count(*)::text AS n
       FROM scoped s JOIN posts p ON p.id = s.id
      CROSS JOIN LATERAL (VALUES ('c', p.created_at), ('s', p.scheduled_at)) AS d(dim, at)
      CROSS JOIN (VALUES ('d', 'day'), ('h', 'hour'), ('m', 'minute'), ('s', 'second')) AS g(grain, unit)
      WHERE d.at IS NOT NULL
      GROUP BY 1 ORDER BY 1`,
    [org],
  );
  const kept = await db.query<{ key: string; n: string }>(
    `SELECT concat_ws('|', scope, grain, to_char(bucket AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')) AS key, sum(n)::text AS n
       FROM post_counts WHERE org_id = $1 GROUP BY 1 HAVING sum(n) <> 0 ORDER BY 1`,
    [org],
  );
  assert.ok(counted.rows.length > 1_000, `${counted.rows.length} buckets`);
  assert.deepEqual(kept.rows, counted.rows);
  const { rows: stale } = await db.query('SELECT t.id FROM targets t JOIN posts p ON p.id = t.post_id WHERE t.org_id = $1 AND t.post_created_at IS DISTINCT FROM p.created_at', [org]);
  assert.deepEqual(stale, []);

  // And the list answers from them: totals as count(*), account and tenant pages by the new index.
  for (const query of [
    { limit: 5, created_after: '2026-11-20T09:31:13.500Z', created_before: '2026-11-20T10:12:00.001Z' },
    { limit: 5, social_account_id: String(accounts[0]), scheduled_after: '2026-11-21T11:00:00Z' },
    { limit: 5, offset: 3, tenant_id: 't1', created_after: '2026-11-20T09:45:07.250Z' },
  ] as ListPostsQuery[]) {
    const page = await listPosts(db, org, query);
    const filter: PostFilter = {
      orgId: org,
      accountId: query.social_account_id === undefined ? undefined : Number(query.social_account_id),
      tenantId: query.tenant_id,
      created: { after: query.created_after ? new Date(query.created_after) : undefined, before: query.created_before ? new Date(query.created_before) : undefined },
      scheduled: { after: query.scheduled_after ? new Date(query.scheduled_after) : undefined },
    };
    const params: unknown[] = [org];
    const where = postWhere(filter, params);
    const { rows } = await db.query<{ id: number; total: number }>(
      `SELECT p.id, count(*) OVER ()::int AS total FROM posts p WHERE ${where} ORDER BY p.created_at DESC, p.id DESC`, params);
    const offset = query.offset ?? 0;
    assert.equal(page.pagination.total, rows[0]?.total ?? 0, `total of ${JSON.stringify(query)}`);
    assert.deepEqual(page.posts.map((p) => p.id), rows.slice(offset, offset + 5).map((r) => encodeId(r.id)), `page of ${JSON.stringify(query)}`);
  }
});
