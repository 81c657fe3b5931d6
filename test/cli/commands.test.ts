// The admin commands of the `crier` CLI against a real database.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { ensureDatabase } from '../../src/db/database.ts';
import { createTestDatabase } from '../helpers/harness.ts';
import { CRIER_BIN, runCrier } from '../helpers/process.ts';

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
  assert.match(res.stderr, /Usage: npx crier/);
});

/** Everything a failed command wrote on stderr is one line: what is wrong and what to do. */
function assertOneLine(stderr: string, pattern: RegExp): void {
  assert.equal(stderr.trimEnd().split('\n').length, 1, `more than one line on stderr:\n${stderr}`);
  assert.match(stderr, pattern);
  assert.doesNotMatch(stderr, /\n\s+at /, 'no stack trace');
}

const orgOfKey = async (keyId: string) => (await db.query('SELECT org_id FROM api_keys WHERE id = $1', [keyId])).rows[0].org_id as number;

test('key create --org takes the org by name, orgId or numeric id, and says which org it used', async () => {
  const name = `globex-${randomBytes(3).toString('hex')}`;
  const created = await runCrier(['org', 'create', name], env());
  const [, orgId, publicId] = created.stdout.match(/id (\d+) \(orgId (\w+)\)/)!;
  for (const ref of [name, publicId!, orgId!]) {
    const res = await runCrier(['key', 'create', '--org', ref, '--name', `by ${ref}`], env());
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, new RegExp(`created for org ${orgId} \\(${name}\\)`));
    assert.equal(await orgOfKey(res.stdout.match(/key (\d+)/)![1]!), Number(orgId));
  }
  const sub = await runCrier(['org', 'subscription', name, 'trialing'], env());
  assert.equal(sub.code, 0, sub.stderr);
  assert.equal((await db.query('SELECT subscription_status FROM orgs WHERE id = $1', [orgId])).rows[0].subscription_status, 'trialing');
});

test('key create --role makes a key of that role; an unknown role is one line and creates nothing', async () => {
  const name = `roles-${randomBytes(3).toString('hex')}`;
  const orgId = (await runCrier(['org', 'create', name], env())).stdout.match(/id (\d+)/)![1]!;
  const editor = await runCrier(['key', 'create', '--org', orgId, '--name', 'writer', '--role', 'editor'], env());
  assert.equal(editor.code, 0, editor.stderr);
  assert.match(editor.stdout, /"writer" \(editor\) created/);
  const keyId = editor.stdout.match(/key (\d+)/)![1]!;
  assert.equal((await db.query('SELECT role FROM api_keys WHERE id = $1', [keyId])).rows[0].role, 'editor');
  const keys = (await db.query('SELECT count(*)::int AS n FROM api_keys')).rows[0].n;
  const bad = await runCrier(['key', 'create', '--org', orgId, '--name', 'x', '--role', 'owner'], env());
  assert.notEqual(bad.code, 0);
  assertOneLine(bad.stderr, /--role must be one of admin, editor, approver/);
  assert.equal((await db.query('SELECT count(*)::int AS n FROM api_keys')).rows[0].n, keys);
});

test('an unknown org is one line, not a stack, and nothing is created', async () => {
  const keys = (await db.query('SELECT count(*)::int AS n FROM api_keys')).rows[0].n;
  for (const ref of ['no-such-org', '999999']) {
    const res = await runCrier(['key', 'create', '--org', ref, '--name', 'ci'], env());
    assert.equal(res.code, 1);
    assertOneLine(res.stderr, new RegExp(`no organization "${ref}"`));
  }
  assert.equal((await db.query('SELECT count(*)::int AS n FROM api_keys')).rows[0].n, keys);
});

test('an org name two organizations share is ambiguous: the CLI lists both ids and creates nothing', async () => {
  const name = `twin-${randomBytes(3).toString('hex')}`;
  const ids = [];
  for (let i = 0; i < 2; i++) ids.push((await runCrier(['org', 'create', name], env())).stdout.match(/id (\d+)/)![1]);
  const keys = (await db.query('SELECT count(*)::int AS n FROM api_keys')).rows[0].n;
  const res = await runCrier(['key', 'create', '--org', name, '--name', 'ci'], env());
  assert.equal(res.code, 1);
  assertOneLine(res.stderr, new RegExp(`"${name}" is ambiguous.*id ${ids[0]}.*id ${ids[1]}.*give the id`));
  assert.equal((await db.query('SELECT count(*)::int AS n FROM api_keys')).rows[0].n, keys);
});

test('org create without a name, and key create without --name, say what is missing', async () => {
  const orgs = (await db.query('SELECT count(*)::int AS n FROM orgs')).rows[0].n;
  const org = await runCrier(['org', 'create'], env());
  assert.equal(org.code, 1);
  assertOneLine(org.stderr, /org create needs the organization's name: npx crier org create <name>/);
  assert.equal((await db.query('SELECT count(*)::int AS n FROM orgs')).rows[0].n, orgs);
  const key = await runCrier(['key', 'create', '--org', '1'], env());
  assert.equal(key.code, 1);
  assertOneLine(key.stderr, /key create needs --org and --name/);
});

test('migrate says which migrations it applied, then that the database is up to date', async () => {
  const empty = await ensureDatabase(process.env.CRIER_TEST_ADMIN_URL!, `crier_t_${randomBytes(6).toString('hex')}`);
  const files = readdirSync(path.resolve(import.meta.dirname, '../../src/db/migrations')).filter((f) => f.endsWith('.sql')).sort();
  const first = await runCrier(['migrate'], { ...env(), DATABASE_URL: empty });
  assert.equal(first.code, 0, first.stderr);
  assert.equal(first.stdout.trim(), `applied ${files.length} migration(s): ${files.join(', ')}`);
  const again = await runCrier(['migrate'], { ...env(), DATABASE_URL: empty });
  assert.equal(again.code, 0, again.stderr);
  assert.equal(again.stdout.trim(), 'the database is up to date: no migration to apply');
  const admin = new pg.Client({ connectionString: process.env.CRIER_TEST_ADMIN_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE ${pg.escapeIdentifier(new URL(empty).pathname.slice(1))} WITH (FORCE)`);
  await admin.end();
});

test('a bare `crier` prints the usage and exits instead of starting; npm start still runs `crier start`', { timeout: 30_000 }, async () => {
  const res = await runCrier([], env());
  assert.equal(res.code, 2);
  assert.match(res.stderr, /^Usage: npx crier <command>/);
  assert.doesNotMatch(res.stdout + res.stderr, /Crier is running/);
  const scripts = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../package.json'), 'utf8')).scripts;
  assert.equal(scripts.start, 'node bin/crier.js start');
});

/** A Node on this machine too old to run Crier (Node 20 ships with it), if there is one. */
function oldNode(): string | undefined {
  let candidates: string[];
  try {
    candidates = execFileSync('which', ['-a', 'node'], { encoding: 'utf8' }).split('\n').filter(Boolean);
  } catch {
    return undefined;
  }
  return candidates.find((node) => {
    try {
      const [major, minor] = execFileSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim().split('.').map(Number) as [number, number];
      return major < 22 || (major === 22 && minor < 18);
    } catch {
      return false;
    }
  });
}

const old = oldNode();
test('on a Node too old to strip types, crier says which Node it needs instead of ERR_UNKNOWN_FILE_EXTENSION', { skip: old ? false : 'no Node older than 22.18 on this machine' }, async () => {
  const version = execFileSync(old!, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
  const res = spawnSync(old!, [CRIER_BIN, 'start'], { env: { ...process.env, ...env() }, encoding: 'utf8', timeout: 30_000 });
  assert.equal(res.status, 1);
  assertOneLine(res.stderr, new RegExp(`Crier needs Node\\.js 22\\.18 or newer .*This is Node\\.js ${version.replace(/\./g, '\\.')}`));
  assert.doesNotMatch(res.stderr, /ERR_UNKNOWN_FILE_EXTENSION/);
});
