// Connecting an X account end to end over real HTTP: auth-url -> X's authorize page (the emulator
// consents at once) -> Crier's callback (code exchange with PKCE and the org's own app) -> 302 to the
// app's redirect_uri with the account id. Tokens are sealed; states are single-use and expire.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeId } from '../../../src/core/ids.ts';
import { startXEmulator, type XEmulator } from '../../../emulators/x/server.ts';
import { accountRowsText, authorizeTrip, storedAccount } from '../../helpers/connect.ts';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/harness.ts';

let x: XEmulator;
let server: TestServer;
let org: TestOrg;
const APP = { clientId: 'crier-test-app', clientSecret: 'crier-test-app-secret' };
const REDIRECT = 'https://app.example.com/connected?from=crier';

before(async () => {
  x = await startXEmulator();
  server = await startTestServer({ CRIER_X_API_URL: x.url, CRIER_X_AUTHORIZE_URL: `${x.url}/i/oauth2/authorize` });
  x.addApp({ ...APP, callbackUrls: [`${server.config.publicBaseUrl}/oauth/callback/x`] });
  org = await server.createOrg();
  const res = await server.request('POST', '/v1/social-networks', { key: org.key, body: { network: 'x', client_key: APP.clientId, client_secret: APP.clientSecret } });
  assert.equal(res.status, 201);
});
after(async () => {
  await server.close();
  await x.close();
});

/** auth-url, then the browser's trip: X's authorize page redirects to Crier's callback URL (not yet called). */
const authorize = (body: Record<string, unknown> = { redirect_uri: REDIRECT }, who: TestOrg = org) => authorizeTrip(server, who, 'x', body);

const callback = (path: string) => fetch(server.url + path, { redirect: 'manual' });

describe('connecting an X account', () => {
  test('the authorize URL asks for the publishing scopes with PKCE S256 and a random state', async () => {
    const { authUrl } = await authorize();
    const q = authUrl.searchParams;
    assert.equal(`${authUrl.origin}${authUrl.pathname}`, `${x.url}/i/oauth2/authorize`);
    assert.equal(q.get('response_type'), 'code');
    assert.equal(q.get('client_id'), APP.clientId);
    assert.equal(q.get('redirect_uri'), `${server.config.publicBaseUrl}/oauth/callback/x`);
    assert.deepEqual(q.get('scope')!.split(' ').sort(), ['media.write', 'offline.access', 'tweet.read', 'tweet.write', 'users.read']);
    assert.equal(q.get('code_challenge_method'), 'S256');
    assert.match(q.get('code_challenge')!, /^[A-Za-z0-9_-]{43}$/);
    assert.match(q.get('state')!, /^[A-Za-z0-9_-]{43}$/);
  });

  test('the full flow: 302 to redirect_uri with the account id; listed; tokens sealed; again gives the same id', async () => {
    const user = x.addUser({ username: 'connected_one', name: 'Connected One', accessToken: 'unused-setup-token' });
    x.signIn(user.id);
    const { callbackPath } = await authorize({ redirect_uri: REDIRECT, tenant_id: 'tenant_1' });
    const res = await callback(callbackPath);
    assert.equal(res.status, 302, await res.clone().text());
    const back = new URL(res.headers.get('location')!);
    assert.equal(`${back.origin}${back.pathname}`, 'https://app.example.com/connected');
    assert.equal(back.searchParams.get('from'), 'crier');
    const accountId = back.searchParams.get('account_id')!;
    assert.ok(decodeId(accountId));

    const listed = await server.request('GET', '/v1/social-accounts?network=x', { key: org.key });
    const account = listed.body.data.find((a: any) => a.id === accountId);
    assert.deepEqual(
      { network: account.network, username: account.username, nickname: account.nickname, tenantId: account.tenantId, isActive: account.isActive, uid: account.network_unique_id },
      { network: 'x', username: 'connected_one', nickname: 'Connected One', tenantId: 'tenant_1', isActive: 1, uid: user.id },
    );

    // The tokens work against X, and neither appears in plaintext anywhere in the row.
    const rawId = decodeId(accountId)!;
    const stored = await storedAccount(server, rawId);
    const { row } = stored;
    const access = stored.access!;
    const refresh = stored.refresh!;
    assert.ok(access && refresh);
    assert.ok(row.token_expires_at.getTime() > Date.now() + 7000_000);
    const me = await fetch(`${x.url}/2/users/me`, { headers: { authorization: `Bearer ${access}` } });
    assert.equal(((await me.json()) as any).data.id, user.id);
    const dump = await accountRowsText(server);
    assert.ok(!dump.includes(access) && !dump.includes(refresh));
    for (const column of [row.access_token_enc, row.refresh_token_enc]) assert.ok(!Buffer.from(column).includes(access) && !Buffer.from(column).includes(refresh));

    // Connecting the same X user again: same account, active again, new tokens.
    await server.db.query('UPDATE social_accounts SET is_active = false WHERE id = $1', [rawId]);
    const again = await callback((await authorize()).callbackPath);
    assert.equal(new URL(again.headers.get('location')!).searchParams.get('account_id'), accountId);
    const after = (await server.request('GET', `/v1/social-accounts/${accountId}`, { key: org.key })).body.data;
    assert.equal(after.isActive, 1);
    assert.notEqual((await storedAccount(server, rawId)).access, access);
  });

  test('without redirect_uri the callback answers the account as JSON', async () => {
    const user = x.addUser({ username: 'json_one', accessToken: 'unused-json' });
    x.signIn(user.id);
    const res = await callback((await authorize({})).callbackPath);
    assert.equal(res.status, 200);
    const body = (await res.json()) as any;
    assert.equal(body.success, true);
    assert.equal(body.data.username, 'json_one');
    assert.doesNotMatch(JSON.stringify(body), /token/i);
  });

  test('a state works once: the second callback with it is a 400 and changes nothing', async () => {
    const user = x.addUser({ username: 'once_only', accessToken: 'unused-once' });
    x.signIn(user.id);
    const { callbackPath } = await authorize();
    assert.equal((await callback(callbackPath)).status, 302);
    const second = await callback(callbackPath);
    assert.equal(second.status, 400);
    assert.equal(((await second.json()) as any).code, 'invalid_state');
    // Two callbacks racing with one fresh state: exactly one connects.
    const racing = (await authorize()).callbackPath;
    const statuses = (await Promise.all([callback(racing), callback(racing)])).map((r) => r.status).sort();
    assert.deepEqual(statuses, [302, 400]);
  });

  test('an expired state is a 400', async () => {
    const user = x.addUser({ username: 'too_late', accessToken: 'unused-late' });
    x.signIn(user.id);
    const { callbackPath } = await authorize();
    await server.db.query(`UPDATE oauth_states SET expires_at = now() - interval '1 second' WHERE org_id = $1`, [org.orgId]);
    const res = await callback(callbackPath);
    assert.equal(res.status, 400);
    assert.match(((await res.json()) as any).error, /expired/);
  });

  test('the user declining sends them back with ?error', async () => {
    const { authUrl } = await authorize();
    const res = await callback(`/oauth/callback/x?error=access_denied&state=${authUrl.searchParams.get('state')}`);
    assert.equal(res.status, 302);
    const back = new URL(res.headers.get('location')!);
    assert.equal(back.searchParams.get('error'), 'access_denied');
    assert.equal(back.searchParams.get('account_id'), null);
  });

  test("a tenant_id with a character outside [A-Za-z0-9_-] is a 400", async () => {
    for (const tenant of ['a b', 'a/b', 'é', '', 'x'.repeat(129)]) {
      const res = await server.request('POST', '/v1/social-networks/x/auth-url', { key: org.key, body: { tenant_id: tenant } });
      assert.equal(res.status, 400, tenant);
      assert.equal(res.body.details[0].field, 'tenant_id');
    }
  });
});

describe('the X emulator code grant', () => {
  const token = (form: Record<string, string>, auth = `${APP.clientId}:${APP.clientSecret}`) =>
    fetch(`${x.url}/2/oauth2/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(auth).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

  test('refuses a wrong verifier, a wrong secret, a reused code and an unknown client', async () => {
    const user = x.addUser({ username: 'grant_checks', accessToken: 'unused-grant' });
    x.signIn(user.id);
    const redirectUri = `${server.config.publicBaseUrl}/oauth/callback/x`;
    const consent = async (challenge: string) => {
      const url = new URL(`${x.url}/i/oauth2/authorize`);
      url.search = new URLSearchParams({ response_type: 'code', client_id: APP.clientId, redirect_uri: redirectUri, scope: 'tweet.read users.read', state: 's', code_challenge: challenge, code_challenge_method: 'plain' }).toString();
      const res = await fetch(url, { redirect: 'manual' });
      return new URL(res.headers.get('location')!).searchParams.get('code')!;
    };
    const code = await consent('verifier-one');
    assert.deepEqual((await token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: 'other' })).body.error, 'invalid_grant');
    const good = await consent('verifier-two');
    assert.equal((await token({ grant_type: 'authorization_code', code: good, redirect_uri: redirectUri, code_verifier: 'verifier-two' }, `${APP.clientId}:wrong`)).status, 401);
    const ok = await consent('verifier-three');
    const first = await token({ grant_type: 'authorization_code', code: ok, redirect_uri: redirectUri, code_verifier: 'verifier-three' });
    assert.equal(first.status, 200);
    assert.deepEqual(Object.keys(first.body).sort(), ['access_token', 'expires_in', 'scope', 'token_type']);
    assert.equal((await token({ grant_type: 'authorization_code', code: ok, redirect_uri: redirectUri, code_verifier: 'verifier-three' })).body.error, 'invalid_grant');
    assert.equal((await token({ grant_type: 'authorization_code', redirect_uri: redirectUri })).body.error, 'invalid_request');
    const unknown = await fetch(`${x.url}/i/oauth2/authorize?client_id=nope&redirect_uri=${encodeURIComponent(redirectUri)}`, { redirect: 'manual' });
    assert.equal(unknown.status, 400);
    const badRedirect = await fetch(`${x.url}/i/oauth2/authorize?client_id=${APP.clientId}&redirect_uri=${encodeURIComponent('https://evil.example/cb')}`, { redirect: 'manual' });
    assert.equal(badRedirect.status, 400);
  });
});
