// Secrets at rest, end to end: after connecting accounts (X through OAuth, Bluesky with an app
// password, a pending page pick), registering an app and a signed webhook with a credential header,
// no secret appears in plaintext anywhere in the database (every schema, every column, bytea
// included). A ciphertext that is altered, or moved to another row or column, does not open. And
// `crier secrets rotate` (the real CLI) re-seals everything: the new key opens all of it, the old
// key no longer starts Crier.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createPendingConnection } from '../../src/accounts/pending-connections.ts';
import { openSecret } from '../../src/accounts/secrets.ts';
import { createSecretBox } from '../../src/security/crypto.ts';
import { checkSecretKey, rotateSecrets, SEALED_COLUMNS } from '../../src/security/sealed-columns.ts';
import { connectOne, registerApp } from '../helpers/connect.ts';
import { TEST_SECRET_KEY_HEX, type TestOrg } from '../helpers/harness.ts';
import { runCrier, startCrierProcess } from '../helpers/process.ts';
import { startPublishingStack, type PublishingStack } from '../helpers/publishing.ts';

let stack: PublishingStack;
let org: TestOrg;
/** Every plaintext secret handed to Crier or issued to it during the setup. */
const secrets = new Set<string>();
const APP = { clientId: 'scan-app', clientSecret: 'scan-app-secret-Zq81' };

before(async () => {
  stack = await startPublishingStack();
  const { server, x } = stack;
  org = await server.createOrg();
  x.addApp({ ...APP, callbackUrls: [`${server.config.publicBaseUrl}/oauth/callback/x`] });
  await registerApp(server, org, 'x', APP);
  secrets.add(APP.clientSecret);

  const user = x.addUser({ username: 'scanned', accessToken: 'setup-only-token' });
  x.signIn(user.id);
  const { accountId } = await connectOne(server, org, 'x');
  const row = (await server.db.query('SELECT id, access_token_enc, refresh_token_enc FROM social_accounts WHERE network = $1 AND username = $2', ['x', 'scanned'])).rows[0];
  secrets.add(openSecret(server.box, row.id, 'access', row.access_token_enc)!);
  secrets.add(openSecret(server.box, row.id, 'refresh', row.refresh_token_enc)!);
  assert.ok(accountId);

  await stack.addBlueskyAccount(org);
  secrets.add('abcd-efgh-ijkl-mnop');
  const bsky = (await server.db.query(`SELECT id, access_token_enc, refresh_token_enc FROM social_accounts WHERE network = 'bluesky' AND org_id = $1`, [org.orgId])).rows[0];
  secrets.add(openSecret(server.box, bsky.id, 'access', bsky.access_token_enc)!); // the session JWTs
  secrets.add(openSecret(server.box, bsky.id, 'refresh', bsky.refresh_token_enc)!);

  const webhook = await server.request('POST', '/v1/webhooks', {
    key: org.key,
    body: { name: 'scan', url: 'https://127.0.0.1:9/hook', events: ['post.published'], secret: 'whook-secret-Pz0r1', headers: { 'x-receiver-key': 'receiver-credential-K7' } },
  });
  assert.equal(webhook.status, 201, JSON.stringify(webhook.body));
  secrets.add('whook-secret-Pz0r1');
  secrets.add('receiver-credential-K7');

  // A connect in flight (its PKCE verifier is sealed) and a page pick waiting for the user.
  const inFlight = await server.request('POST', '/v1/social-networks/x/auth-url', { key: org.key, body: {} });
  assert.equal(inFlight.status, 200);
  await createPendingConnection(server.db, server.box, {
    orgId: org.orgId, network: 'facebook', tenantId: null, redirectUri: null,
    candidates: [{ id: 'page-1', type: 'page', name: 'A page', username: 'apage', profilePictureUrl: null, tokens: { accessToken: 'page-token-Hh55', expiresAt: null } }],
  });
  secrets.add('page-token-Hh55');
});
after(() => stack.close());

/** Every value of every column of every table outside the system schemas, bytea as bytes. */
async function everyStoredValue(): Promise<{ where: string; value: Buffer | string }[]> {
  const { db } = stack.server;
  const tables = await db.query<{ schema: string; name: string }>(
    `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
      WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
  );
  const values: { where: string; value: Buffer | string }[] = [];
  for (const { schema, name } of tables.rows) {
    const { rows } = await db.query(`SELECT * FROM "${schema}"."${name}"`);
    for (const row of rows) {
      for (const [column, value] of Object.entries(row)) {
        if (value === null || value === undefined) continue;
        values.push({ where: `${schema}.${name}.${column}`, value: Buffer.isBuffer(value) ? value : typeof value === 'string' ? value : JSON.stringify(value) });
      }
    }
  }
  return values;
}

describe('secrets at rest', () => {
  test('no secret appears in plaintext anywhere in the database', async () => {
    assert.ok(secrets.size >= 9, `the setup should have produced the secrets: ${secrets.size}`);
    const values = await everyStoredValue();
    assert.ok(values.some((v) => v.where === 'public.social_accounts.access_token_enc'), 'the scan reads the sealed columns too');
    for (const secret of secrets) {
      const found = values.filter(({ value }) => (Buffer.isBuffer(value) ? value.includes(secret) : value.includes(secret))).map((v) => v.where);
      assert.deepEqual(found, [], `"${secret.slice(0, 6)}…" stored in plaintext`);
    }
    // The scan would see one: a plaintext copy planted in an ordinary column is found.
    await stack.server.db.query(`UPDATE social_accounts SET nickname = $1 WHERE org_id = $2 AND network = 'bluesky'`, ['abcd-efgh-ijkl-mnop', org.orgId]);
    const planted = (await everyStoredValue()).filter(({ value }) => String(value).includes('abcd-efgh-ijkl-mnop'));
    assert.deepEqual(planted.map((v) => v.where), ['public.social_accounts.nickname']);
    await stack.server.db.query(`UPDATE social_accounts SET nickname = username WHERE org_id = $1 AND network = 'bluesky'`, [org.orgId]);
  });

  test('a ciphertext altered by one bit, or moved to another row or column, does not open', async () => {
    const { db, box } = stack.server;
    const rows = (await db.query('SELECT id, access_token_enc, refresh_token_enc FROM social_accounts WHERE org_id = $1 AND access_token_enc IS NOT NULL ORDER BY id', [org.orgId])).rows;
    assert.ok(rows.length >= 2);
    const [a, b] = rows;
    assert.ok(openSecret(box, a.id, 'access', a.access_token_enc));
    const flipped = Buffer.from(a.access_token_enc);
    flipped[flipped.length - 1] ^= 1;
    assert.throws(() => openSecret(box, a.id, 'access', flipped));
    assert.throws(() => openSecret(box, b.id, 'access', a.access_token_enc), 'moved to another row');
    assert.throws(() => openSecret(box, a.id, 'refresh', a.access_token_enc), 'moved to another column');
    assert.throws(() => openSecret(createSecretBox(Buffer.alloc(32, 7)), a.id, 'access', a.access_token_enc), 'another key');
  });
});

describe('crier secrets rotate', () => {
  let dataDir: string;
  before(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'crier-rotate-'));
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  /** Every sealed value, opened with `box`. */
  async function openAll(box = stack.server.box): Promise<string[]> {
    const opened: string[] = [];
    for (const { table, column, rowKey, associatedData } of SEALED_COLUMNS) {
      const { rows } = await stack.server.db.query(`SELECT ${rowKey} AS key, ${column} AS sealed FROM ${table} WHERE ${column} IS NOT NULL ORDER BY 1`);
      for (const row of rows) opened.push(`${table}.${column}:${box.decrypt(row.sealed, associatedData(row.key))}`);
    }
    return opened;
  }

  test('re-seals every secret under the new key; the old key then refuses to start', async () => {
    const before = await openAll();
    assert.ok(before.length >= 8);
    const newKey = Buffer.alloc(32, 3).toString('hex');
    const env = { DATABASE_URL: stack.server.databaseUrl, CRIER_SECRET_KEY: TEST_SECRET_KEY_HEX, CRIER_DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
    const rotated = await runCrier(['secrets', 'rotate', '--new-key', newKey], env);
    assert.equal(rotated.code, 0, rotated.stderr);
    assert.match(rotated.stdout, /re-sealed \d+ secret/);
    assert.doesNotMatch(rotated.stdout, new RegExp(newKey), 'a key given on the command line is not echoed');

    const newBox = createSecretBox(Buffer.from(newKey, 'hex'));
    assert.deepEqual(await openAll(newBox), before, 'the same plaintexts under the new key');
    await assert.rejects(openAll(stack.server.box), 'the old key opens nothing');
    await assert.rejects(checkSecretKey(stack.server.db, stack.server.box), /not the key this database/);

    // A Crier process with the old key fails closed at start; with the new key it serves.
    const old = await runCrier(['api'], { ...env, PORT: '0' });
    assert.notEqual(old.code, 0);
    assert.match(old.stderr + old.stdout, /not the key this database's secrets are sealed with/);
    const fresh = startCrierProcess(['api'], { ...env, PORT: '0', CRIER_SECRET_KEY: newKey });
    try {
      await fresh.waitFor(/Crier is running/);
    } finally {
      fresh.child.kill('SIGTERM');
      await fresh.exited;
    }

    // Rotating back with the key file flow: the new key is written to <dataDir>/secret-key.
    const toFile = await runCrier(['secrets', 'rotate'], { ...env, CRIER_SECRET_KEY: newKey });
    assert.equal(toFile.code, 0, toFile.stderr);
    const generated = toFile.stdout.match(/CRIER_SECRET_KEY=([0-9a-f]{64})/)?.[1];
    assert.ok(generated, toFile.stdout);
    assert.deepEqual(await openAll(createSecretBox(Buffer.from(generated, 'hex'))), before);
    // Back to the suite's key so later tests of this file (and the stack's close) still open things.
    const back = await runCrier(['secrets', 'rotate', '--new-key', TEST_SECRET_KEY_HEX], { ...env, CRIER_SECRET_KEY: generated });
    assert.equal(back.code, 0, back.stderr);
    assert.deepEqual(await openAll(), before);
    await assert.rejects(readFile(path.join(dataDir, 'secret-key.next')), 'no key file is left behind when the key is in the environment');
  });

  test('with the key in the data dir, rotation replaces the key file', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'crier-rotate-file-'));
    try {
        await writeFile(path.join(dir, 'secret-key'), TEST_SECRET_KEY_HEX + '\n', { mode: 0o600 });
      const before = await openAll();
      const env = { DATABASE_URL: stack.server.databaseUrl, CRIER_DATA_DIR: dir, LOG_LEVEL: 'warn' };
      const res = await runCrier(['secrets', 'rotate'], env);
      assert.equal(res.code, 0, res.stderr);
      assert.match(res.stdout, /the new key is in .*secret-key/);
      const stored = (await readFile(path.join(dir, 'secret-key'), 'utf8')).trim();
      assert.notEqual(stored, TEST_SECRET_KEY_HEX);
      assert.deepEqual(await openAll(createSecretBox(Buffer.from(stored, 'hex'))), before);
      await assert.rejects(readFile(path.join(dir, 'secret-key.next')));
      const back = await runCrier(['secrets', 'rotate', '--new-key', TEST_SECRET_KEY_HEX], env);
      assert.equal(back.code, 0, back.stderr);
      assert.deepEqual(await openAll(), before);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('a rotation killed between the commit and the key file swap is finished by the next start', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'crier-rotate-crash-'));
    try {
      const before = await openAll();
      const next = Buffer.alloc(32, 9);
      // What a rotation leaves when killed after its commit: the database under the new key, the
      // new key only in secret-key.next, the old one still in secret-key.
      await writeFile(path.join(dir, 'secret-key'), TEST_SECRET_KEY_HEX + '\n', { mode: 0o600 });
      await writeFile(path.join(dir, 'secret-key.next'), next.toString('hex') + '\n', { mode: 0o600 });
      await rotateSecrets(stack.server.db, stack.server.box, createSecretBox(next));
      const env = { DATABASE_URL: stack.server.databaseUrl, CRIER_DATA_DIR: dir, LOG_LEVEL: 'warn', PORT: '0' };
      const crier = startCrierProcess(['api'], env);
      try {
        await crier.waitFor(/Crier is running/);
      } finally {
        crier.child.kill('SIGTERM');
        await crier.exited;
      }
      assert.equal((await readFile(path.join(dir, 'secret-key'), 'utf8')).trim(), next.toString('hex'));
      await assert.rejects(readFile(path.join(dir, 'secret-key.next')));
      assert.deepEqual(await openAll(createSecretBox(next)), before);
      await rotateSecrets(stack.server.db, createSecretBox(next), stack.server.box);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
