// A list reads timestamps as JSON text in UTC and rewrites them without a Date (list.ts, serialize.ts):
// the result must be exactly what parsing them into Dates gave, in any session time zone.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { toPostJson, type PostRow } from '../../src/posts/serialize.ts';
import { createTestDatabase } from '../helpers/harness.ts';

let client: pg.Client;

before(async () => {
  client = new pg.Client({ connectionString: await createTestDatabase() });
  await client.connect();
});
after(() => client.end());

/** Timestamps with every fraction length, far past and future, and both ends of a millisecond. */
const SAMPLE = `SELECT t AS created_at, t + interval '1 microsecond' AS published_at,
                       CASE WHEN i % 2 = 0 THEN t - interval '999 microseconds' END AS scheduled_at
                  FROM (SELECT i, timestamptz '2026-11-24 09:31:29Z' + (i * 7919 % 1000000) * interval '1 microsecond' + i * interval '37 days 13 seconds' AS t
                          FROM generate_series(-200, 200) AS i
                        UNION ALL SELECT 0, timestamptz '0099-01-01 00:00:00.5Z' UNION ALL SELECT 0, timestamptz '9999-12-31 23:59:59.999999Z'
                        UNION ALL SELECT 0, timestamptz '0044-03-15 10:00:00.5Z BC' UNION ALL SELECT 0, timestamptz '12345-01-01 00:00:00Z') AS s`;

/** The same timestamps as the list's statement writes them: JSON of the UTC wall-clock time. */
const AS_LIST_JSON = `SELECT json_build_array(created_at AT TIME ZONE 'UTC', published_at AT TIME ZONE 'UTC', scheduled_at AT TIME ZONE 'UTC')::text AS json
                        FROM (${SAMPLE}) AS s`;

const post = (times: Pick<PostRow, 'created_at' | 'published_at' | 'scheduled_at'>): PostRow => ({
  id: 1, org_id: 1, is_draft: false, network_options: null, process_media: false, queued: false, accounts: [], containers: [], ...times,
});

for (const zone of ['UTC', 'Asia/Kolkata', 'America/St_Johns']) {
  test(`timestamps read as the list's JSON give the same ISO strings as Dates (session time zone ${zone})`, async () => {
    await client.query(`SET TIME ZONE '${zone}'`);
    const parsed = await client.query<Pick<PostRow, 'created_at' | 'published_at' | 'scheduled_at'>>(SAMPLE);
    const json = await client.query<{ json: string }>(AS_LIST_JSON);
    assert.ok(parsed.rows[0]!.created_at instanceof Date);
    assert.equal(json.rows.length, 405);
    for (let i = 0; i < json.rows.length; i++) {
      const [created_at, published_at, scheduled_at] = JSON.parse(json.rows[i]!.json) as [string, string, string | null];
      assert.equal(typeof created_at, 'string');
      assert.deepEqual(toPostJson(post({ created_at, published_at, scheduled_at })), toPostJson(post(parsed.rows[i]!)));
    }
  });
}

test('a target\'s published_at as read.ts gives it (JSON of a timestamptz, with its offset) is the Date\'s ISO string', async () => {
  await client.query("SET TIME ZONE 'UTC'");
  const { rows } = await client.query<{ json: string; at: Date }>(
    `SELECT to_json(t)::text AS json, t AS at FROM (${SAMPLE}) AS s, LATERAL (VALUES (s.created_at)) AS v(t)
      WHERE t BETWEEN '0001-01-01Z' AND '9999-12-31Z'`,
  );
  assert.ok(rows.length > 400 && rows[0]!.json.endsWith('+00:00"'), rows[0]!.json);
  for (const { json, at } of rows) {
    const withTarget = (published_at: string | Date) =>
      toPostJson({ ...post({ created_at: at, published_at: null, scheduled_at: null }), accounts: [{ id: 1, network: 'x', username: 'u', nickname: 'n', status: 'published', published_at }] }, true);
    assert.deepEqual(withTarget(JSON.parse(json) as string), withTarget(at));
  }
});
