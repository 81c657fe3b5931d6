// Connecting a Pinterest account end to end over real HTTP: auth-url -> Pinterest's consent page
// (the emulator consents at once) -> Crier's callback (code exchange with the app in HTTP Basic and
// continuous_refresh=true) -> 302 with the account id. Then refresh: rotation (the new refresh token
// is stored, the old one is dead), an answer without refresh token, and a revoked grant.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startPinterestEmulator, type PinterestEmulator } from '../../../emulators/index.ts';
import { accountRowsText, assertAuthorizeUrl, connectNewUser, expectDisconnectedOnce, listedAccount, listedProfile, makeTokenDue, reconnectSameAccount, refreshDueAccount, refreshTokens, refreshWhenDue, startConnectServer, stopConnectServer, storedAccount } from '../../helpers/connect.ts';
import type { TestOrg, TestServer } from '../../helpers/harness.ts';

let pin: PinterestEmulator, server: TestServer, org: TestOrg;
const APP = { clientId: '1498765', clientSecret: 'crier-pinterest-secret' };

before(async () => ({ emulator: pin, server, org } = await startConnectServer('pinterest', await startPinterestEmulator(), APP)));
after(() => stopConnectServer(server, pin));

const userAccount = (token: string) => fetch(`${pin.url}/v5/user_account`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);
/** The emulator's refresh grant with a given refresh token (to see whether it is still alive). */
const presentRefresh = (refreshToken: string) =>
  fetch(`${pin.url}/v5/oauth/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${APP.clientId}:${APP.clientSecret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }).toString(),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

/** A new Pinterest user, connected for tenant_pin; the account's ids and the trip. */
const connect = (input: Parameters<PinterestEmulator['addUser']>[0] = {}) => connectNewUser(server, org, 'pinterest', pin, (user) => user.id, input, { tenant_id: 'tenant_pin' });

describe('connecting Pinterest', () => {
  test('the authorize URL: www.pinterest.com/oauth/, code flow, comma-separated scopes, no PKCE', async () => {
    const { trip } = await connect();
    assertAuthorizeUrl(trip.authUrl, `${pin.url}/oauth/`, {
      client_id: APP.clientId, redirect_uri: `${server.config.publicBaseUrl}/oauth/callback/pinterest`, response_type: 'code', state: /^[A-Za-z0-9_-]{43}$/, code_challenge: null,
      scope: 'boards:read,boards:write,pins:read,pins:write,user_accounts:read',
    });
  });

  test('a business account: listed with its fields, tokens sealed, the same id when connected again', async () => {
    const { user, accountId, rawId } = await connect({ username: 'acme_pins', accountType: 'BUSINESS', businessName: 'Acme Home' });
    assert.deepEqual(await listedProfile(server, org, accountId), {
      network: 'pinterest', username: 'acme_pins', nickname: 'Acme Home', uid: user.id, picture: user.profileImage, tenantId: 'tenant_pin', accountType: 'business', isActive: 1,
    });
    const stored = await storedAccount(server, rawId);
    assert.ok(stored.access && stored.refresh);
    assert.equal(await userAccount(stored.access!), 200);
    assert.ok(Math.abs(stored.expiresAt!.getTime() - (Date.now() + 30 * 24 * 3600 * 1000)) < 60_000);
    const dump = await accountRowsText(server);
    assert.ok(!dump.includes(stored.access!) && !dump.includes(stored.refresh!));

    await server.db.query('UPDATE social_accounts SET is_active = false WHERE id = $1', [rawId]);
    pin.signIn(user.id);
    const after = await reconnectSameAccount(server, org, 'pinterest', accountId);
    assert.equal(after.active, true);
    assert.notEqual(after.access, stored.access);
  });

  test('a personal account is accountType personal, named by its username', async () => {
    const { user, accountId } = await connect({ accountType: 'PINNER' });
    const listed = await listedAccount(server, org, accountId);
    assert.deepEqual([listed.accountType, listed.username, listed.nickname], ['personal', user.username, user.username]);
  });

  test('the code exchange authenticates with HTTP Basic and asks for continuous refresh', async () => {
    const before = pin.tokenRequests().length;
    await connect();
    const calls = pin.tokenRequests().slice(before);
    assert.equal(calls.length, 1);
    assert.equal(calls[0]!.grant, 'authorization_code');
    assert.equal(calls[0]!.basic, true);
    assert.equal(calls[0]!.form.continuous_refresh, 'true');
    // The app's credentials never travel in the form.
    assert.equal(calls[0]!.form.client_id, undefined);
  });
});

describe('Pinterest token refresh', () => {
  test('rotation: the new refresh token is stored and works; the old one is dead', async () => {
    const { rawId } = await connect();
    assert.equal((await refreshTokens(server)).get(rawId), undefined);
    const { before, now: after } = await refreshDueAccount(server, rawId, 'refreshed');
    assert.notEqual(after.access, before.access);
    assert.ok(after.refresh && after.refresh !== before.refresh);
    assert.equal(await userAccount(after.access!), 200);
    assert.ok(after.expiresAt!.getTime() > Date.now() + 29 * 24 * 3600 * 1000);
    assert.deepEqual(await presentRefresh(before.refresh!), { status: 401, body: { code: 283, message: 'The authorization grant is invalid' } });
    // The stored (rotated) one keeps working for the next refresh.
    assert.equal(await refreshWhenDue(server, rawId), 'refreshed');
  });

  test('an answer without refresh_token keeps the stored one', async () => {
    const { rawId } = await connect();
    pin.omitNextRefreshToken();
    const { before, now: after } = await refreshDueAccount(server, rawId, 'refreshed');
    assert.notEqual(after.access, before.access);
    assert.equal(after.refresh, before.refresh);
  });

  test('a revoked grant: inactive and exactly one account.token_expired, even on the next pass', async () => {
    const { user, rawId, accountId } = await connect();
    pin.revokeUser(user.id);
    const event = await expectDisconnectedOnce(server, org, accountId, rawId);
    assert.equal(event.data.network, 'pinterest');
    assert.match(event.data.error, /^pinterest: code 283/);
  });

  test('refused app credentials are not a disconnect: the account stays active', async () => {
    const { rawId } = await connect();
    await makeTokenDue(server, rawId);
    pin.failNext({ method: 'POST', path: '/v5/oauth/token', status: 401, body: { code: 2, message: 'Authentication failed.' } });
    assert.equal((await refreshTokens(server)).get(rawId), 'failed');
    assert.equal((await storedAccount(server, rawId)).active, true);
  });
});
