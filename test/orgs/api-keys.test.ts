// /v1/api-keys: list, create (shown once, owned by the creating key's user), revoke; validation and
// tenant isolation.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { encodeId } from '../../src/core/ids.ts';
import { createApiKey, insertApiKey } from '../../src/orgs/api-keys.ts';
import { startTestServer, type TestOrg, type TestServer } from '../helpers/harness.ts';

const VIEW_FIELDS = ['createdAt', 'fixedQuota', 'id', 'lastUsedAt', 'name', 'prefix', 'quotaUsed', 'rateLimit', 'revokedAt', 'role', 'userId'];

let server: TestServer;
let org: TestOrg;
let intruder: TestOrg;

before(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  intruder = await server.createOrg();
});
after(() => server.close());

async function firstUserId(orgId: number): Promise<number> {
  const { rows } = await server.db.query<{ id: number }>('SELECT id FROM users WHERE org_id = $1 ORDER BY id LIMIT 1', [orgId]);
  return rows[0]!.id;
}

describe('create', () => {
  test('the key is shown once, works at once, and belongs to the user of the key that created it', async () => {
    const res = await server.request('POST', '/v1/api-keys', { key: org.key, body: { name: '  CI deploys  ' } });
    assert.equal(res.status, 201);
    const { data } = res.body;
    assert.deepEqual(Object.keys(data).sort(), [...VIEW_FIELDS, 'key'].sort());
    assert.match(data.key, /^crier_[A-Za-z0-9_-]{40,}$/);
    assert.ok(data.key.startsWith(data.prefix) && data.prefix.length >= 8);
    assert.equal(data.name, 'CI deploys');
    assert.equal(data.userId, encodeId(await firstUserId(org.orgId)));
    assert.deepEqual([data.fixedQuota, data.quotaUsed, data.revokedAt, data.lastUsedAt, data.rateLimit], [null, 0, null, null, null]);
    assert.equal((await server.request('GET', '/v1/social-accounts', { key: data.key })).status, 200);

    const listed = await server.request('GET', '/v1/api-keys', { key: org.key });
    assert.ok(!JSON.stringify(listed.body).includes(data.key), 'a listing never shows a key');
    const entry = listed.body.data.find((k: { id: string }) => k.id === data.id);
    assert.deepEqual(Object.keys(entry).sort(), VIEW_FIELDS);
    assert.ok(entry.lastUsedAt, 'the request made with the new key is recorded');
  });

  test("a key created with another user's key belongs to that user", async () => {
    const { rows } = await server.db.query<{ id: number }>("INSERT INTO users (org_id, name) VALUES ($1, 'second') RETURNING id", [org.orgId]);
    const secondUser = rows[0]!.id;
    const theirs = await insertApiKey(server.db, org.orgId, secondUser, 'second user key');
    const res = await server.request('POST', '/v1/api-keys', { key: theirs.key, body: { name: 'made by second' } });
    assert.equal(res.status, 201);
    assert.equal(res.body.data.userId, encodeId(secondUser));
    const stored = await server.db.query('SELECT user_id FROM api_keys WHERE key_hash = sha256($1::text::bytea)', [res.body.data.key]);
    assert.equal(stored.rows[0].user_id, secondUser);
  });

  test('bad input is a 400 that names each field; nothing is created', async () => {
    const before = await keyCount(org.orgId);
    const cases: [unknown, string[]][] = [
      [{}, ['name']],
      [{ name: '' }, ['name']],
      [{ name: '   ' }, ['name']],
      [{ name: 'x'.repeat(101) }, ['name']],
      [{ name: ['a', 'b'] }, ['name']],
      [{ name: 'ok', fixedQuota: 0 }, ['fixedQuota']],
      [{ name: 'ok', fixedQuota: 2.5 }, ['fixedQuota']],
      [{ name: 'ok', fixedQuota: 'ten' }, ['fixedQuota']],
      [{ fixedQuota: -1 }, ['fixedQuota', 'name']],
      [{ name: 'ok', rateLimit: 100000 }, ['rateLimit']],
      [{ name: 'ok', fixedquota: 5 }, ['fixedquota']],
    ];
    for (const [body, fields] of cases) {
      const res = await server.request('POST', '/v1/api-keys', { key: org.key, body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.success, false);
      assert.equal(res.body.code, 'validation_error');
      assert.deepEqual([...new Set(res.body.details.map((d: { field: string }) => d.field))].sort(), fields, JSON.stringify(body));
    }
    const notJson = await server.request('POST', '/v1/api-keys', { key: org.key, rawBody: '{"name":', headers: { 'content-type': 'application/json' } });
    assert.equal(notJson.status, 400);
    assert.equal(await keyCount(org.orgId), before);
  });

  test('a key with a fixed quota may not create or revoke keys (403), so its quota cannot be escaped', async () => {
    const limited = await createApiKey(server.db, org.orgId, 'trial', 100);
    const before = await keyCount(org.orgId);
    const created = await server.request('POST', '/v1/api-keys', { key: limited.key, body: { name: 'escape' } });
    assert.equal(created.status, 403);
    assert.equal(created.body.code, 'forbidden');
    const revoked = await server.request('DELETE', `/v1/api-keys/${encodeId(limited.id)}`, { key: limited.key });
    assert.equal(revoked.status, 403);
    assert.equal(await keyCount(org.orgId), before);
    assert.equal((await server.request('GET', '/v1/api-keys', { key: limited.key })).status, 200, 'listing is allowed');
  });
});

describe('list', () => {
  test("newest first, revoked keys included, paginated; never another org's keys", async () => {
    const own = await createApiKey(server.db, org.orgId, 'listed');
    const res = await server.request('GET', '/v1/api-keys?limit=2', { key: org.key });
    assert.equal(res.status, 200);
    assert.equal(res.body.count, await keyCount(org.orgId));
    assert.deepEqual([res.body.limit, res.body.offset, res.body.data.length], [2, 0, 2]);
    assert.equal(res.body.data[0].id, encodeId(own.id));
    const page2 = await server.request('GET', '/v1/api-keys?limit=2&offset=1', { key: org.key });
    assert.equal(page2.body.data[0].id, res.body.data[1].id);

    const theirs = await server.request('GET', '/v1/api-keys?limit=100', { key: intruder.key });
    const theirIds = new Set(theirs.body.data.map((k: { id: string }) => k.id));
    assert.equal(theirs.body.count, await keyCount(intruder.orgId));
    assert.ok(!theirIds.has(encodeId(own.id)));
  });

  test('bad paging is a 400 naming the field', async () => {
    for (const [query, field] of [['limit=0', 'limit'], ['limit=101', 'limit'], ['offset=-1', 'offset'], ['limit=abc', 'limit']]) {
      const res = await server.request('GET', `/v1/api-keys?${query}`, { key: org.key });
      assert.equal(res.status, 400, query);
      assert.equal(res.body.details[0].field, field, query);
    }
  });
});

describe('revoke', () => {
  test('the key stops working at once; revoking again keeps the first revocation time', async () => {
    const victim = await createApiKey(server.db, org.orgId, 'old');
    const id = encodeId(victim.id);
    const res = await server.request('DELETE', `/v1/api-keys/${id}`, { key: org.key });
    assert.equal(res.status, 200);
    assert.equal(res.body.data.id, id);
    assert.ok(res.body.data.revokedAt);
    assert.equal((await server.request('GET', '/v1/posts', { key: victim.key })).status, 401);
    const again = await server.request('DELETE', `/v1/api-keys/${id}`, { key: org.key });
    assert.equal(again.status, 200);
    assert.equal(again.body.data.revokedAt, res.body.data.revokedAt);
    const listed = await server.request('GET', '/v1/api-keys?limit=100', { key: org.key });
    assert.equal(listed.body.data.find((k: { id: string }) => k.id === id).revokedAt, res.body.data.revokedAt);
  });

  test("another org's key is a 404 like a missing one, by public or numeric id, and keeps working", async () => {
    const theirs = await createApiKey(server.db, intruder.orgId, 'theirs');
    const missing = await server.request('DELETE', '/v1/api-keys/zzzzzzzzzz', { key: org.key });
    assert.equal(missing.status, 404);
    for (const id of [encodeId(theirs.id), String(theirs.id)]) {
      const res = await server.request('DELETE', `/v1/api-keys/${id}`, { key: org.key });
      assert.equal(res.status, 404);
      assert.deepEqual(res.body, missing.body);
    }
    assert.equal((await server.request('GET', '/v1/posts', { key: theirs.key })).status, 200);
    const { rows } = await server.db.query('SELECT revoked_at FROM api_keys WHERE id = $1', [theirs.id]);
    assert.equal(rows[0].revoked_at, null);
  });
});

async function keyCount(orgId: number): Promise<number> {
  const { rows } = await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM api_keys WHERE org_id = $1', [orgId]);
  return rows[0]!.n;
}
