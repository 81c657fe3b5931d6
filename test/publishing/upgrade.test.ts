// Upgrading an installation whose publishing jobs were pg-boss jobs (migrations up to 009): migration
// 010 makes the same targets due on the targets table — a queued post at its time, a pending retry at
// its job's start time (its current generation's job, not an older one), a target left publishing by
// a stopped worker now — leaves drafts and unqueued posts alone, and drops pg-boss's schema. The
// pgboss.job table here has the columns of pg-boss 12 that the migration reads.
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { ensureDatabase } from '../../src/db/database.ts';
import { migrate } from '../../src/db/migrate.ts';
import { createPool, type Db } from '../../src/db/pool.ts';

const MIGRATIONS = path.resolve(import.meta.dirname, '../../src/db/migrations');
const name = `crier_upgrade_${process.pid}`;
let db: Db;

before(async () => {
  const url = await ensureDatabase(process.env.CRIER_TEST_ADMIN_URL!, name);
  db = createPool(url, 2);
  await db.query('CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
  for (const file of (await readdir(MIGRATIONS)).filter((f) => f.endsWith('.sql') && f < '010').sort()) {
    await db.query(await readFile(path.join(MIGRATIONS, file), 'utf8'));
    await db.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
  }
  await db.query(`CREATE SCHEMA pgboss;
    CREATE TABLE pgboss.job (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), name text NOT NULL, data jsonb, state text NOT NULL DEFAULT 'created', start_after timestamptz NOT NULL DEFAULT now())`);
});
after(async () => {
  await db.end();
  const admin = new pg.Client({ connectionString: process.env.CRIER_TEST_ADMIN_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
  await admin.end();
});

test('migration 010 turns pending pg-boss jobs into due targets and drops pg-boss', async () => {
  const org = (await db.query("INSERT INTO orgs (name) VALUES ('upgrade') RETURNING id")).rows[0].id;
  const account = (await db.query("INSERT INTO social_accounts (org_id, network, username, network_unique_id) VALUES ($1, 'x', 'u', 'n') RETURNING id", [org])).rows[0].id;
  const target = async (post: { scheduledAt?: Date; draft?: boolean; queued?: boolean; generation?: number; status?: string }) => {
    const p = (await db.query('INSERT INTO posts (org_id, scheduled_at, is_draft, queued, generation) VALUES ($1, $2, $3, $4, $5) RETURNING id',
      [org, post.scheduledAt ?? null, post.draft ?? false, post.queued ?? true, post.generation ?? 1])).rows[0].id;
    const t = (await db.query('INSERT INTO targets (org_id, post_id, account_id, status) VALUES ($1, $2, $3, $4) RETURNING id', [org, p, account, post.status ?? 'pending'])).rows[0].id;
    return { post: p, target: t };
  };
  const later = new Date(Date.now() + 3600_000);
  const retryAt = new Date(Date.now() + 600_000);
  const immediate = await target({});
  const scheduled = await target({ scheduledAt: later });
  const draft = await target({ draft: true, queued: false });
  const unqueued = await target({ queued: false });
  const retrying = await target({ generation: 2 });
  const interrupted = await target({ status: 'publishing' });
  const job = (t: { post: number; target: number }, generation: number, startAfter: Date, state = 'created') =>
    db.query("INSERT INTO pgboss.job (name, data, state, start_after) VALUES ('publish', $1, $2, $3)", [{ targetId: t.target, postId: t.post, generation }, state, startAfter]);
  await job(retrying, 1, new Date(Date.now() + 7200_000)); // a job of the generation before a reschedule: ignored
  await job(retrying, 2, retryAt);
  await job(retrying, 2, new Date(Date.now() + 9000_000), 'completed'); // done already: ignored

  const startedAt = Date.now();
  // 010 and every later migration apply (later ones, e.g. the list's counters, run on the upgraded data).
  const pending = (await readdir(MIGRATIONS)).filter((f) => f.endsWith('.sql') && f >= '010').sort();
  assert.equal(pending[0], '010_publishing_queue.sql');
  assert.deepEqual(await migrate(db), pending);
  const due = new Map((await db.query<{ id: number; due_at: Date | null }>('SELECT id, due_at FROM targets')).rows.map((r) => [r.id, r.due_at]));
  const near = (at: Date | null | undefined) => at !== null && at !== undefined && Math.abs(at.getTime() - startedAt) < 60_000;
  assert.ok(near(due.get(immediate.target)), 'an immediate post is due now');
  assert.equal(due.get(scheduled.target)?.getTime(), later.getTime(), 'a scheduled post at its time');
  assert.equal(due.get(draft.target), null, 'a draft is not due');
  assert.equal(due.get(unqueued.target), null, 'a post that was not queued stays unqueued');
  assert.equal(due.get(retrying.target)?.getTime(), retryAt.getTime(), "a pending retry at its current job's start");
  assert.ok(near(due.get(interrupted.target)), 'a target left publishing is taken over now');
  const schema = await db.query("SELECT 1 FROM pg_namespace WHERE nspname = 'pgboss'");
  assert.equal(schema.rowCount, 0, "pg-boss's schema is gone");
});
