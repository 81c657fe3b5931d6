// Tenant isolation: another org's key sees 404 or an empty list on every route, never the data.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestServer, type TestAccount, type TestOrg, type TestServer } from '../helpers/harness.ts';

let server: TestServer;
let owner: TestOrg;
let intruder: TestOrg;
let account: TestAccount;
let postId: string;

before(async () => {
  server = await startTestServer();
  owner = await server.createOrg();
  intruder = await server.createOrg();
  account = await server.addAccount(owner, 'x', 'private_x', { tenantId: 'secret-tenant' });
  await server.addAccount(intruder, 'x', 'intruder_x');
  const res = await server.request('POST', '/v1/posts', { key: owner.key, body: { accounts: [account.id], content: 'private' } });
  postId = res.body.post.id;
});
after(() => server.close());

test('GET /v1/posts/:id of another org is a 404 like a missing post', async () => {
  const theirs = await server.request('GET', `/v1/posts/${postId}`, { key: intruder.key });
  const missing = await server.request('GET', '/v1/posts/zzzzzzzzzz', { key: intruder.key });
  assert.equal(theirs.status, 404);
  assert.deepEqual(theirs.body, { ...missing.body });
});

test('GET /v1/posts never lists another org’s posts, whatever the filters', async () => {
  for (const q of ['', `?social_account_id=${account.id}`, `?social_account_id=${account.rawId}`, '?tenant_id=secret-tenant']) {
    const res = await server.request('GET', `/v1/posts${q}`, { key: intruder.key });
    assert.equal(res.status, 200, q);
    assert.deepEqual(res.body.posts, [], q);
    assert.equal(res.body.pagination.total, 0);
  }
});

test('GET /v1/social-accounts never lists another org’s accounts', async () => {
  for (const q of ['', `?id=${account.id}`, '?username=private', '?tenantId=secret-tenant']) {
    const res = await server.request('GET', `/v1/social-accounts${q}`, { key: intruder.key });
    assert.equal(res.status, 200, q);
    assert.ok(res.body.data.every((a: any) => a.username !== 'private_x'), q);
  }
});

test("POST /v1/posts cannot target another org's account by id or username", async () => {
  const res = await server.request('POST', '/v1/posts', { key: intruder.key, body: { accounts: [account.id, 'private_x'], content: 'hijack' } });
  assert.equal(res.status, 400);
  const targets = await server.db.query('SELECT count(*)::int AS n FROM targets WHERE account_id = $1', [account.rawId]);
  assert.equal(targets.rows[0].n, 1);
});
