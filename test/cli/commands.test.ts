// The admin commands of the `crier` CLI against a real database.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { createTestDatabase } from '../helpers/harness.ts';
import { runCrier } from '../helpers/process.ts';

let databaseUrl: string;
let db: pg.Pool;
const env = () => ({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' });

before(async () => {
  databaseUrl = await createTestDatabase();
  db = new pg.Pool({ connectionString: databaseUrl });
});
after(async () => {
  await db.end();
});

test('migrate is idempotent', async () => {
  const res = await runCrier(['migrate'], env());
  assert.equal(res.code, 0, res.stderr);
  const again = await runCrier(['migrate'], env());
  assert.equal(again.code, 0, again.stderr);
});

test('org create, key create (with quota), key revoke, org subscription', async () => {
  const created = await runCrier(['org', 'create', 'acme'], env());
  assert.equal(created.code, 0, created.stderr);
  const orgId = created.stdout.match(/id (\d+)/)![1]!;
  const adminKey = created.stdout.match(/(crier_\S+)/)![1]!;
  const org = await db.query('SELECT name, subscription_status FROM orgs WHERE id = $1', [orgId]);
  assert.deepEqual(org.rows, [{ name: 'acme', subscription_status: 'active' }]);

  const key = await runCrier(['key', 'create', '--org', orgId, '--name', 'ci', '--quota', '100'], env());
  assert.equal(key.code, 0, key.stderr);
  const keyId = key.stdout.match(/key (\d+)/)![1]!;
  const secret = key.stdout.match(/(crier_\S+)/)![1]!;
  assert.notEqual(secret, adminKey);
  const stored = await db.query('SELECT name, fixed_quota, prefix, key_hash FROM api_keys WHERE id = $1', [keyId]);
  assert.equal(stored.rows[0].name, 'ci');
  assert.equal(Number(stored.rows[0].fixed_quota), 100);
  assert.ok(secret.startsWith(stored.rows[0].prefix));
  const everything = JSON.stringify((await db.query('SELECT * FROM api_keys')).rows);
  assert.ok(!everything.includes(secret), 'the key itself is never stored');

  const revoked = await runCrier(['key', 'revoke', keyId], env());
  assert.equal(revoked.code, 0, revoked.stderr);
  assert.equal((await db.query('SELECT revoked_at IS NOT NULL AS r FROM api_keys WHERE id = $1', [keyId])).rows[0].r, true);
  assert.equal((await runCrier(['key', 'revoke', keyId], env())).code, 1, 'revoking twice says nothing matched');

  const limited = await runCrier(['key', 'limit', keyId, '30'], env());
  assert.equal(limited.code, 0, limited.stderr);
  assert.equal((await db.query('SELECT rate_limit FROM api_keys WHERE id = $1', [keyId])).rows[0].rate_limit, 30);
  assert.equal((await runCrier(['key', 'limit', keyId, 'default'], env())).code, 0);
  assert.equal((await db.query('SELECT rate_limit FROM api_keys WHERE id = $1', [keyId])).rows[0].rate_limit, null);

  const linked = await runCrier(['org', 'stripe-customer', orgId, 'cus_Test123'], env());
  assert.equal(linked.code, 0, linked.stderr);
  assert.equal((await db.query('SELECT stripe_customer_id FROM orgs WHERE id = $1', [orgId])).rows[0].stripe_customer_id, 'cus_Test123');

  const sub = await runCrier(['org', 'subscription', orgId, 'past_due'], env());
  assert.equal(sub.code, 0, sub.stderr);
  assert.equal((await db.query('SELECT subscription_status FROM orgs WHERE id = $1', [orgId])).rows[0].subscription_status, 'past_due');
  const bad = await runCrier(['org', 'subscription', orgId, 'paused'], env());
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /status must be one of/);
});

test('doctor checks the database and the clock', async () => {
  const res = await runCrier(['doctor'], env());
  assert.equal(res.code, 0, res.stdout + res.stderr);
  assert.match(res.stdout, /ok\s+database: PostgreSQL \d+/);
  assert.match(res.stdout, /ok\s+clock: within \d+ ms/);
});

test('an unknown command prints the usage and exits 2', async () => {
  const res = await runCrier(['frobnicate'], env());
  assert.equal(res.code, 2);
  assert.match(res.stderr, /Usage: crier/);
});
