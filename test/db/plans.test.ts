// Statements that run on every create keep a probe per row whatever the tables' statistics. A
// connection keeps a statement's plan (PL/pgSQL, prepared statements), and a plan made while a table
// was empty and never analyzed, as it is here, once hashed or scanned the whole table on each call:
// the create benchmark slowed with every post stored. auto_explain hands each plan to this client as
// a notice, nested statements (the triggers' own) included.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { claimIdempotencyKeys, fingerprintOf } from '../../src/idempotency/keys.ts';
import { claimDue, registerWorker } from '../../src/publishing/queue.ts';
import { startTestServer, type TestAccount, type TestOrg, type TestServer } from '../helpers/harness.ts';

let server: TestServer;
let client: pg.Client;
let org: TestOrg;
let accounts: TestAccount[];
const plans: string[] = [];

before(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  accounts = [await server.addAccount(org, 'x'), await server.addAccount(org, 'bluesky', undefined, { tenantId: 'tenant-1' })];
  client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  client.on('notice', (notice) => plans.push(notice.message ?? ''));
  await client.query(`LOAD 'auto_explain'`);
  await client.query(`SET auto_explain.log_min_duration = 0; SET auto_explain.log_nested_statements = on; SET auto_explain.log_level = 'notice'; SET auto_explain.log_analyze = on`);
});
after(async () => {
  await client.end();
  await server.close();
});

/** The plans logged while `run` ran whose query text contains `marker`. */
async function plansOf(marker: string, run: () => Promise<unknown>): Promise<string[]> {
  plans.length = 0;
  await run();
  return plans.filter((plan) => plan.includes(marker));
}

/** The tables a plan reads from start to end. */
const scanned = (plan: string) => [...plan.matchAll(/Seq Scan on (\w+)/g)].map((m) => m[1]);

test('the counters triggers read posts, targets and accounts by key, never scanning a table', async () => {
  const counted = await plansOf('', async () => {
    const { rows: [post] } = await client.query<{ id: string }>('INSERT INTO posts (org_id) VALUES ($1) RETURNING id', [org.orgId]);
    const [x, bluesky] = accounts.map((a) => a.rawId);
    await client.query(`INSERT INTO targets (org_id, post_id, account_id) SELECT $1, $2, unnest($3::bigint[])`, [org.orgId, post!.id, [x, bluesky]]);
    await client.query(`UPDATE posts SET scheduled_at = now() + interval '1 day' WHERE id = $1`, [post!.id]);
    await client.query('DELETE FROM targets WHERE post_id = $1 AND account_id = $2', [post!.id, bluesky]);
    await client.query('DELETE FROM posts WHERE id = $1', [post!.id]);
  });
  const statements = (marker: string) => counted.filter((plan) => plan.includes(marker));
  // Each trigger's own statements were planned and logged: the assertions below saw them.
  const newTargets = statements('array_agg(s.scope), array_agg(p.created_at), array_agg(p.scheduled_at), array_agg(1)');
  assert.equal(newTargets.length, 1, 'new targets');
  assert.equal(statements('array_agg(-1)').length, 1, 'the removed target');
  assert.equal(statements('array_fill(OLD.org_id').length, 1, 'the deleted post');
  assert.equal(statements('id = t.account_id OFFSET 0 FOR KEY SHARE').length, 2, 'the scopes of the moved post, then of the deleted post');
  assert.deepEqual(counted.flatMap(scanned).filter((table) => ['posts', 'targets', 'social_accounts'].includes(table!)), []);
  assert.match(newTargets[0]!, /Index Scan using posts_pkey on posts/);
});

test('claiming Idempotency-Keys probes the stored keys by primary key, never scanning them', async () => {
  const requests = ['k-1', 'k-2', 'k-3'].map((key) => ({ orgId: org.orgId, key, fingerprint: fingerprintOf({ key }) }));
  const found = await plansOf('pg_try_advisory_xact_lock', async () => {
    await client.query('BEGIN');
    const claims = await claimIdempotencyKeys(client, 'POST /v1/posts', requests);
    assert.deepEqual(claims, requests.map(() => ({ kind: 'claimed' })));
    await client.query('ROLLBACK');
  });
  assert.equal(found.length, 1);
  assert.match(found[0]!, /Index Scan using idempotency_keys_pkey on idempotency_keys/);
  assert.doesNotMatch(found[0]!, /Bitmap Heap Scan on idempotency_keys|Seq Scan on idempotency_keys/);
});

/** The tables a plan scanned from start to end, leaving out scans it never ran. */
const scannedInDeed = (plan: string) => [...plan.matchAll(/Seq Scan on (\w+)[^\n]*/g)].filter((m) => !m[0].includes('never executed')).map((m) => m[1]);

test('claiming due targets reads no attempt unless one is stale, and posts and accounts by key', async () => {
  const workerId = await registerWorker(server.db);
  const [x] = accounts;
  const post = async () => (await server.db.query<{ id: string }>('INSERT INTO posts (org_id) VALUES ($1) RETURNING id', [org.orgId])).rows[0]!.id;
  const due = async (postId: string) => server.db.query('INSERT INTO targets (org_id, post_id, account_id, due_at) VALUES ($1, $2, $3, now())', [org.orgId, postId, x!.rawId]);
  const claim = async () => {
    let claimed: Awaited<ReturnType<typeof claimDue>> = [];
    const found = await plansOf('WITH due AS', async () => {
      claimed = await claimDue(client, workerId, 10);
    });
    assert.equal(found.length, 1);
    return { claimed, plan: found[0]! };
  };

  // Fresh targets only: the attempts table is not read at all.
  const fresh = await post();
  await due(fresh);
  const first = await claim();
  assert.deepEqual(first.claimed.map((c) => [String(c.post_id), c.attempt_count]), [[String(fresh), 1]]);
  assert.deepEqual(scannedInDeed(first.plan).filter((t) => ['posts', 'social_accounts', 'attempts'].includes(t!)), []);

  // A target whose attempt a dead worker left unfinished: that attempt is superseded.
  const abandoned = await post();
  await due(abandoned);
  const { rows: [stale] } = await server.db.query<{ id: string }>(
    'INSERT INTO attempts (org_id, target_id, worker_id) SELECT $1, id, $2 FROM targets WHERE post_id = $3 RETURNING id', [org.orgId, workerId, abandoned],
  );
  await server.db.query('UPDATE targets SET current_attempt_id = $1, attempt_count = 1 WHERE post_id = $2', [stale!.id, abandoned]);
  const second = await claim();
  assert.deepEqual(second.claimed.map((c) => [String(c.post_id), c.attempt_count]), [[String(abandoned), 2]]);
  const { rows: [old] } = await server.db.query('SELECT outcome, finished_at IS NOT NULL AS finished FROM attempts WHERE id = $1', [stale!.id]);
  assert.deepEqual(old, { outcome: 'superseded', finished: true });
  assert.deepEqual(scannedInDeed(second.plan).filter((t) => ['posts', 'social_accounts'].includes(t!)), []);
});

test('admitting destinations to their accounts\' quotas reads admissions and targets by key, never scanning them', async () => {
  const [x, bluesky] = accounts.map((a) => a.rawId);
  const targets: string[] = [];
  for (let i = 0; i < 4; i++) {
    const { rows: [post] } = await server.db.query<{ id: string }>('INSERT INTO posts (org_id) VALUES ($1) RETURNING id', [org.orgId]);
    const { rows: [target] } = await server.db.query<{ id: string }>('INSERT INTO targets (org_id, post_id, account_id) VALUES ($1, $2, $3) RETURNING id', [org.orgId, post!.id, i < 3 ? x : bluesky]);
    targets.push(target!.id);
  }
  // Three for an account whose quota is 2 (held back: the item-by-item path and the waiting reason),
  // one for another with room (the set-based path).
  const admit = () => client.query(
    'SELECT target_id, wait_ms FROM publishing_admit_batch($1::bigint[], $2::bigint[], $3::int[], $4::int[], $5::float8[])',
    [[x, x, x, bluesky], targets, [1, 1, 1, 1], [2, 2, 2, 100], [60, 60, 60, 60]],
  );
  const found = await plansOf('account_admissions', admit);
  assert.ok(found.length >= 5, `the function's statements were logged (${found.length})`);
  const held = (await server.db.query('SELECT error FROM targets WHERE id = $1', [targets[2]])).rows[0].error;
  assert.match(held, /^waiting for the account's publishing quota \(2 per 1 min\)/);
  assert.deepEqual(found.flatMap(scannedInDeed).filter((t) => ['account_admissions', 'targets'].includes(t!)), [], found.join('\n---\n'));
});
