// The list's page statement (src/posts/list.ts: the page's posts, then their targets and containers,
// returned as JSON texts and assembled in the API) against plain SQL over the same rows: for every
// filter, limit and offset, the same posts in the same order (created_at, then id, newest first),
// each with its accounts in target order and its containers and media in position order, and a
// total equal to count(*) of the same filter, with bounds on day and five-minute boundaries.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { encodeId } from '../../src/core/ids.ts';
import { listPosts } from '../../src/posts/list.ts';
import type { ListPostsQuery } from '../../src/posts/schema.ts';
import { postWhere, type PostFilter } from '../../src/posts/totals.ts';
import { parseDateOrDateTime } from '../../src/validation/date-time.ts';
import { startTestServer, type TestAccount, type TestOrg, type TestServer } from '../helpers/harness.ts';

let server: TestServer;
let org: TestOrg;
let accounts: TestAccount[];

/** A fixed day, so that day and slice boundaries fall where the posts below put them. */
const DAY0 = Date.UTC(2026, 10, 20);
const HOUR = 3_600_000;

before(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  accounts = [
    await server.addAccount(org, 'x', undefined, { tenantId: 't1' }),
    await server.addAccount(org, 'bluesky', undefined, { tenantId: 't1' }),
    await server.addAccount(org, 'threads', undefined, { tenantId: 't2' }),
    await server.addAccount(org, 'linkedin', undefined, {}),
  ];
  await seed();
});
after(() => server.close());

/**
 * 120 posts over four days: creation times on day and five-minute boundaries and a microsecond
 * either side, groups of posts sharing one creation time (the order falls back to the id), half of
 * them scheduled across day boundaries. Targets are inserted in an account order that differs from
 * the accounts' ids, containers in reverse position order (their ids run against their positions),
 * and some containers carry media, also inserted against their positions.
 */
async function seed(): Promise<void> {
  const ids = accounts.map((a) => a.rawId);
  await server.db.query(
    `WITH p AS (
       INSERT INTO posts (org_id, created_at, scheduled_at)
       SELECT $1,
              to_timestamp($2::float8 / 1000) + (i / 3) * interval '47 minutes'
                + CASE i % 4 WHEN 0 THEN interval '0' WHEN 1 THEN interval '1 microsecond' WHEN 2 THEN -interval '1 microsecond' ELSE interval '0' END,
              CASE WHEN i % 2 = 0 THEN to_timestamp($2::float8 / 1000) + (i * 41 % 96) * interval '1 hour' + (i % 5) * interval '5 minutes' END
         FROM generate_series(1, 120) AS i
       RETURNING id
     ), numbered AS (SELECT id, row_number() OVER (ORDER BY id) AS n FROM p),
     t AS (
       INSERT INTO targets (org_id, post_id, account_id)
       SELECT $1, numbered.id, a.account FROM numbered
        CROSS JOIN LATERAL unnest(CASE numbered.n % 4 WHEN 0 THEN ARRAY[$6, $3]::bigint[] WHEN 1 THEN ARRAY[$4, $5, $3]::bigint[]
                                                      WHEN 2 THEN ARRAY[$5]::bigint[] ELSE ARRAY[$3, $6, $4]::bigint[] END) WITH ORDINALITY AS a(account, k)
        ORDER BY numbered.id, a.k
     )
     INSERT INTO containers (org_id, post_id, position, content)
     SELECT $1, numbered.id, c.position, 'post ' || numbered.n || ' part ' || c.position
       FROM numbered CROSS JOIN LATERAL generate_series(numbered.n % 3, 0, -1) AS c(position)
      ORDER BY numbered.id, c.position DESC`,
    [org.orgId, DAY0, ...ids],
  );
  await server.db.query(
    `INSERT INTO container_media (org_id, container_id, position, url, filename, alt_text)
     SELECT $1, c.id, m.position, 'https://cdn.example.com/' || c.id || '-' || m.position || '.png', c.id || '-' || m.position || '.png',
            CASE WHEN m.position % 2 = 0 THEN 'alt ' || m.position END
       FROM containers c CROSS JOIN LATERAL generate_series(c.id % 3, 0, -1) AS m(position)
      WHERE c.org_id = $1 AND c.id % 4 = 0
      ORDER BY c.id, m.position DESC`,
    [org.orgId],
  );
}

interface ExpectedPage {
  ids: string[];
  posts: { id: string; accounts: string[]; containers: { id: string; content: string; media: string[] }[] }[];
  total: number;
}

/** The page and total the filter should give, by plain SQL: ORDER BY / LIMIT / OFFSET and count(*). */
async function expected(query: ListPostsQuery, limit: number, offset: number): Promise<ExpectedPage> {
  const bound = (text: string | undefined) => (text ? parseDateOrDateTime(text)! : undefined);
  const account = query.social_account_id === undefined ? undefined : accounts.find((a) => a.id === query.social_account_id)!.rawId;
  const filter: PostFilter = {
    orgId: org.orgId,
    accountId: account,
    tenantId: query.tenant_id,
    created: { after: bound(query.created_after), before: bound(query.created_before) },
    scheduled: { after: bound(query.scheduled_after), before: bound(query.scheduled_before) },
  };
  const params: unknown[] = [org.orgId];
  const where = postWhere(filter, params);
  const total = (await server.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM posts p WHERE ${where}`, params)).rows[0]!.n;
  const { rows } = await server.db.query<{ id: number; accounts: number[]; containers: { id: number; content: string; media: string[] }[] }>(
    `SELECT p.id,
            array(SELECT t.account_id FROM targets t WHERE t.post_id = p.id ORDER BY t.id) AS accounts,
            (SELECT coalesce(json_agg(json_build_object('id', c.id, 'content', c.content,
                      'media', array(SELECT m.url FROM container_media m WHERE m.container_id = c.id ORDER BY m.position)) ORDER BY c.position), '[]')
               FROM containers c WHERE c.post_id = p.id) AS containers
       FROM posts p WHERE ${where} ORDER BY p.created_at DESC, p.id DESC LIMIT ${limit} OFFSET ${offset}`,
    params,
  );
  const posts = rows.map((r) => ({
    id: encodeId(r.id),
    accounts: r.accounts.map((a) => encodeId(Number(a))),
    containers: r.containers.map((c) => ({ id: encodeId(c.id), content: c.content, media: c.media })),
  }));
  return { ids: posts.map((p) => p.id), posts, total };
}

async function assertPageAsSql(query: ListPostsQuery): Promise<void> {
  const limit = query.limit ?? 50;
  const offset = query.offset ?? 0;
  const page = await listPosts(server.db, org.orgId, query);
  const want = await expected(query, limit, offset);
  const label = JSON.stringify(query);
  assert.deepEqual(page.posts.map((p) => p.id), want.ids, `order of ${label}`);
  assert.deepEqual(
    page.posts.map((p) => ({
      id: p.id,
      accounts: p.socialAccounts.map((a) => a.id),
      containers: p.containers.map((c) => ({ id: c.id, content: c.content, media: c.media.map((m) => m.url) })),
    })),
    want.posts,
    `accounts, containers and media of ${label}`,
  );
  assert.deepEqual(page.pagination, { total: want.total, count: want.ids.length, limit, offset }, `pagination of ${label}`);
}

const at = (ms: number) => new Date(ms).toISOString();

describe('GET /v1/posts page statement', () => {
  test('the seed has what the comparisons need: ties, reordered targets, containers and media', async () => {
    const { rows } = await server.db.query<{ ties: number; reordered: number; media: number }>(
      `SELECT (SELECT count(*)::int FROM (SELECT created_at FROM posts WHERE org_id = $1 GROUP BY 1 HAVING count(*) > 1) AS s) AS ties,
              (SELECT count(*)::int FROM containers c JOIN containers d ON d.post_id = c.post_id AND d.position > c.position AND d.id < c.id WHERE c.org_id = $1) AS reordered,
              (SELECT count(*)::int FROM container_media WHERE org_id = $1) AS media`,
      [org.orgId],
    );
    assert.ok(rows[0]!.ties > 5 && rows[0]!.reordered > 20 && rows[0]!.media > 20, JSON.stringify(rows[0]));
  });

  test('every page of every filter equals ORDER BY / LIMIT / OFFSET over the same rows, its total count(*)', async () => {
    const day = 86_400_000;
    const ranges: Partial<ListPostsQuery>[] = [
      {},
      // Day boundaries, a microsecond-precision post on each side of them, five-minute slices.
      { created_after: at(DAY0 + day), created_before: at(DAY0 + 2 * day) },
      { created_after: at(DAY0 + day - 1), created_before: at(DAY0 + 3 * day + 1) },
      { created_after: at(DAY0 + 47 * 60_000 * 10) },
      { created_before: at(DAY0 + 5 * 60_000 * 100) },
      { scheduled_after: at(DAY0 + day), scheduled_before: at(DAY0 + 3 * day) },
      { scheduled_after: at(DAY0 + 20 * HOUR + 5 * 60_000) },
      { scheduled_before: at(DAY0 + 2 * day - 1) },
      { created_after: at(DAY0 + day / 2), scheduled_before: at(DAY0 + 3 * day) },
    ];
    const scopes: Partial<ListPostsQuery>[] = [
      {},
      { social_account_id: accounts[0]!.id },
      { social_account_id: accounts[3]!.id },
      { tenant_id: 't1' },
      { tenant_id: 't2' },
      { tenant_id: 't1', social_account_id: accounts[1]!.id },
      { tenant_id: 'none-such' },
    ];
    const pages: Partial<ListPostsQuery>[] = [{}, { limit: 1 }, { limit: 7 }, { limit: 7, offset: 7 }, { limit: 20, offset: 45 }, { limit: 100, offset: 118 }];
    let compared = 0;
    for (const range of ranges) {
      for (const scope of scopes) {
        for (const pageOf of pages) {
          await assertPageAsSql({ ...range, ...scope, ...pageOf } as ListPostsQuery);
          compared++;
        }
      }
    }
    assert.equal(compared, ranges.length * scopes.length * pages.length);
  });

  test('an empty page past the end still gives the exact total', async () => {
    await assertPageAsSql({ limit: 10, offset: 500 } as ListPostsQuery);
    await assertPageAsSql({ tenant_id: 't2', limit: 5, offset: 200 } as ListPostsQuery);
  });
});
