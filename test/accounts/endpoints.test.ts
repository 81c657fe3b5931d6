// The social-networks (BYOK OAuth apps) and social-accounts-by-id endpoints as a client sees them:
// validation with per-field details, a client secret that is never returned (and sealed at rest),
// and another organization's ids indistinguishable from missing ones.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestOrg, type TestServer } from '../helpers/harness.ts';

let server: TestServer;
let org: TestOrg;
let other: TestOrg;

before(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  other = await server.createOrg();
});
after(() => server.close());

const api = (method: string, path: string, body?: unknown, who: TestOrg = org) => server.request(method, path, { key: who.key, body });
const fields = (res: { body: any }) => (res.body.details ?? []).map((d: any) => d.field).sort();
const SECRET = 'client-secret-do-not-show-9f8e7d';

describe('social networks', () => {
  test('registering an app: 201, the secret never returned and sealed in the database', async () => {
    const res = await api('POST', '/v1/social-networks', { network: 'x', client_key: 'my-client-id', client_secret: SECRET });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body.data).sort(), ['client_key', 'config_id', 'createdAt', 'id', 'inbound', 'network', 'scopes']);
    assert.equal(res.body.data.scopes, null, "no scopes given: the network's defaults");
    assert.equal(res.body.data.inbound, null, 'x sends Crier no webhooks: nothing to set up');
    assert.equal(res.body.data.network, 'x');
    assert.equal(res.body.data.client_key, 'my-client-id');
    const one = await api('GET', `/v1/social-networks/${res.body.data.id}`);
    const list = await api('GET', '/v1/social-networks');
    assert.deepEqual(one.body.data, res.body.data);
    assert.deepEqual(list.body.data, [res.body.data]);
    for (const body of [res.body, one.body, list.body]) assert.doesNotMatch(JSON.stringify(body), new RegExp(SECRET));
    const { rows } = await server.db.query('SELECT * FROM social_networks WHERE org_id = $1', [org.orgId]);
    assert.equal(rows.length, 1);
    assert.ok(!Buffer.from(rows[0].client_secret_enc).includes(SECRET));
    assert.doesNotMatch(JSON.stringify(rows), new RegExp(SECRET));
  });

  test('registering the same network again replaces the credentials in place (200, same id)', async () => {
    const first = await api('POST', '/v1/social-networks', { network: 'linkedin', client_key: 'a', client_secret: 's1' });
    const again = await api('POST', '/v1/social-networks', { network: 'linkedin', client_key: 'b', client_secret: 's2' });
    assert.equal(first.status, 201);
    assert.equal(again.status, 200);
    assert.equal(again.body.data.id, first.body.data.id);
    assert.equal(again.body.data.client_key, 'b');
  });

  test('bad network and empty fields: 400 with a detail per field', async () => {
    const res = await api('POST', '/v1/social-networks', { network: 'myspace', client_key: '', client_secret: '   ' });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'validation_error');
    assert.deepEqual(fields(res), ['client_key', 'client_secret', 'network']);
    assert.deepEqual(fields(await api('POST', '/v1/social-networks', { network: 'bluesky', client_key: 'k', client_secret: 's' })), ['network']);
    assert.deepEqual(fields(await api('POST', '/v1/social-networks', { network: 'x', client_key: 5 })), ['client_key', 'client_secret']);
    assert.equal((await api('POST', '/v1/social-networks', {})).status, 400);
  });

  test("another org's app is a 404, to read and to delete; delete removes it", async () => {
    const created = (await api('POST', '/v1/social-networks', { network: 'threads', client_key: 'k', client_secret: 's' })).body.data;
    assert.equal((await api('GET', `/v1/social-networks/${created.id}`, undefined, other)).status, 404);
    assert.equal((await api('DELETE', `/v1/social-networks/${created.id}`, undefined, other)).status, 404);
    assert.deepEqual((await api('GET', '/v1/social-networks', undefined, other)).body.data, []);
    assert.equal((await api('GET', '/v1/social-networks/not-an-id')).status, 404);
    assert.equal((await api('DELETE', `/v1/social-networks/${created.id}`)).status, 200);
    assert.equal((await api('GET', `/v1/social-networks/${created.id}`)).status, 404);
    assert.equal((await api('DELETE', `/v1/social-networks/${created.id}`)).status, 404);
  });

  test('auth-url: 400 without a registered app, for a bad tenant_id or redirect_uri, and for bluesky (app passwords)', async () => {
    const fresh = await server.createOrg();
    const none = await api('POST', '/v1/social-networks/x/auth-url', {}, fresh);
    assert.equal(none.status, 400);
    assert.equal(none.body.code, 'app_not_registered');
    const badTenant = await api('POST', '/v1/social-networks/x/auth-url', { tenant_id: 'acme corp' });
    assert.equal(badTenant.status, 400);
    assert.deepEqual(fields(badTenant), ['tenant_id']);
    assert.deepEqual(fields(await api('POST', '/v1/social-networks/x/auth-url', { tenant_id: 'a/b', redirect_uri: 'javascript:alert(1)' })), ['redirect_uri', 'tenant_id']);
    const linkedin = await api('POST', '/v1/social-networks/linkedin/auth-url', {}, fresh);
    assert.equal(linkedin.body.code, 'app_not_registered', 'every OAuth network is wired; this org has no linkedin app');
    const bluesky = await api('POST', '/v1/social-networks/bluesky/auth-url', {});
    assert.equal(bluesky.body.code, 'unsupported_network');
    assert.match(bluesky.body.error, /app password/);
    assert.deepEqual(fields(await api('POST', '/v1/social-networks/myspace/auth-url', {})), ['network']);
  });

  test('auth-url needs an API key; the callback does not, and refuses an unknown state', async () => {
    assert.equal((await server.request('POST', '/v1/social-networks/x/auth-url', { body: {} })).status, 401);
    const res = await server.request('GET', '/oauth/callback/x?code=abc&state=nope');
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'invalid_state');
  });
});

describe('social accounts by id', () => {
  test('GET returns the account; another org or a malformed id is a 404', async () => {
    const account = await server.addAccount(org, 'x', 'byid_user', { accessToken: 'tok-secret-123' });
    const res = await api('GET', `/v1/social-accounts/${account.id}`);
    assert.equal(res.status, 200);
    assert.equal(res.body.data.id, account.id);
    assert.equal(res.body.data.username, 'byid_user');
    assert.doesNotMatch(JSON.stringify(res.body), /tok-secret-123/);
    assert.equal((await api('GET', `/v1/social-accounts/${account.id}`, undefined, other)).status, 404);
    assert.equal((await api('GET', `/v1/social-accounts/${account.rawId}`)).status, 404);
    assert.equal((await api('DELETE', `/v1/social-accounts/${account.id}`, undefined, other)).status, 404);
    assert.equal((await api('GET', `/v1/social-accounts/${account.id}`)).status, 200, 'the other org could not delete it');
  });

  test('DELETE removes an account without posts', async () => {
    const account = await server.addAccount(org, 'bluesky', 'to_delete');
    assert.equal((await api('DELETE', `/v1/social-accounts/${account.id}`)).status, 200);
    assert.equal((await api('GET', `/v1/social-accounts/${account.id}`)).status, 404);
    assert.equal((await api('DELETE', `/v1/social-accounts/${account.id}`)).status, 404);
  });

  test('DELETE of an account with posts is a 409 and the posts keep their history', async () => {
    const used = await server.addAccount(org, 'x', 'has_posts');
    const kept = await server.addAccount(org, 'x', 'other_account');
    const post = await api('POST', '/v1/posts', { accounts: [used.id, kept.id], content: 'a draft', isDraft: true });
    assert.equal(post.status, 200, JSON.stringify(post.body));
    const res = await api('DELETE', `/v1/social-accounts/${used.id}`);
    assert.equal(res.status, 409);
    assert.equal(res.body.code, 'account_has_posts');
    const after = await api('GET', `/v1/posts/${post.body.post.id}`);
    assert.deepEqual(after.body.post.socialAccounts.map((a: any) => a.username).sort(), ['has_posts', 'other_account']);
    assert.equal((await api('GET', `/v1/social-accounts/${used.id}`)).status, 200);
  });
});
