// A list reads timestamps as PostgreSQL's text and rewrites them without a Date (serialize.ts): the
// result must be exactly what parsing them into Dates gave, in any session time zone.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { RAW_TIMESTAMPS, toPostJson, type PostRow } from '../../src/posts/serialize.ts';
import { createTestDatabase } from '../helpers/harness.ts';

let client: pg.Client;

before(async () => {
  client = new pg.Client({ connectionString: await createTestDatabase() });
  await client.connect();
});
after(() => client.end());

/** Timestamps with every fraction length, far past and future, and both ends of a millisecond. */
const SAMPLE = `SELECT 1 AS id, 1 AS org_id, false AS is_draft, null::jsonb AS network_options, false AS process_media, false AS queued,
                       '[]'::json AS accounts, '[]'::json AS containers, t AS created_at, t + interval '1 microsecond' AS published_at,
                       CASE WHEN i % 2 = 0 THEN t - interval '999 microseconds' END AS scheduled_at
                  FROM (SELECT i, timestamptz '2026-11-24 09:31:29Z' + (i * 7919 % 1000000) * interval '1 microsecond' + i * interval '37 days 13 seconds' AS t
                          FROM generate_series(-200, 200) AS i
                        UNION ALL SELECT 0, timestamptz '0099-01-01 00:00:00.5Z' UNION ALL SELECT 0, timestamptz '9999-12-31 23:59:59.999999Z') AS s`;

for (const zone of ['UTC', 'Asia/Kolkata', 'America/St_Johns']) {
  test(`raw timestamps give the same ISO strings as Dates (session time zone ${zone})`, async () => {
    await client.query(`SET TIME ZONE '${zone}'`);
    const parsed = await client.query<PostRow>(SAMPLE);
    const raw = await client.query<PostRow>({ text: SAMPLE, types: RAW_TIMESTAMPS });
    assert.ok(typeof raw.rows[0]!.created_at === 'string' && parsed.rows[0]!.created_at instanceof Date);
    assert.equal(raw.rows.length, 403);
    for (let i = 0; i < raw.rows.length; i++) assert.deepEqual(toPostJson(raw.rows[i]!), toPostJson(parsed.rows[i]!));
  });
}
