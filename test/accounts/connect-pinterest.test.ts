// Connecting a Pinterest account end to end over real HTTP: auth-url -> Pinterest's consent page
// (the emulator consents at once) -> Crier's callback (code exchange with the app in HTTP Basic and
// continuous_refresh=true) -> 302 with the account id. Then refresh: rotation (the new refresh token
// is stored, the old one is dead), an answer without refresh token, and a revoked grant.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openSecret } from '../../src/accounts/secrets.ts';
import { refreshDueTokens } from '../../src/accounts/token-refresh.ts';
import { decodeId } from '../../src/ids.ts';
import { startPinterestEmulator, type PinterestEmulator } from '../../emulators/index.ts';
import { connectOne, listedAccount, registerApp } from '../helpers/connect.ts';
import { startTestServer, type TestOrg, type TestServer } from '../helpers/harness.ts';

let pin: PinterestEmulator;
let server: TestServer;
let org: TestOrg;
const APP = { clientId: '1498765', clientSecret: 'crier-pinterest-secret' };

before(async () => {
  pin = await startPinterestEmulator();
  server = await startTestServer({ CRIER_PINTEREST_BASE_URL: pin.url });
  pin.addApp({ ...APP, redirectUris: [`${server.config.publicBaseUrl}/oauth/callback/pinterest`] });
  org = await server.createOrg();
  await registerApp(server, org, 'pinterest', APP);
});
after(async () => {
  await server.close();
  await pin.close();
});

async function secrets(rawId: number) {
  const row = (await server.db.query('SELECT * FROM social_accounts WHERE id = $1', [rawId])).rows[0];
  return {
    row,
    access: openSecret(server.box, rawId, 'access', row.access_token_enc),
    refresh: openSecret(server.box, rawId, 'refresh', row.refresh_token_enc),
    expiresAt: row.token_expires_at as Date,
    active: row.is_active as boolean,
  };
}

const makeDue = (rawId: number) => server.db.query(`UPDATE social_accounts SET token_expires_at = now() + interval '1 minute' WHERE id = $1`, [rawId]);
const refresh = () => refreshDueTokens(server.db, server.box, server.config);
const userAccount = (token: string) => fetch(`${pin.url}/v5/user_account`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);
/** The emulator's refresh grant with a given refresh token (to see whether it is still alive). */
const presentRefresh = (refreshToken: string) =>
  fetch(`${pin.url}/v5/oauth/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${APP.clientId}:${APP.clientSecret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }).toString(),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

async function connect(input: Parameters<PinterestEmulator['addUser']>[0] = {}) {
  const user = pin.addUser(input);
  pin.signIn(user.id);
  const { accountId, trip } = await connectOne(server, org, 'pinterest', { tenant_id: 'tenant_pin' });
  return { user, accountId, rawId: decodeId(accountId)!, trip };
}

describe('connecting Pinterest', () => {
  test('the authorize URL: www.pinterest.com/oauth/, code flow, comma-separated scopes, no PKCE', async () => {
    const { trip } = await connect();
    const q = trip.authUrl.searchParams;
    assert.equal(`${trip.authUrl.origin}${trip.authUrl.pathname}`, `${pin.url}/oauth/`);
    assert.equal(q.get('client_id'), APP.clientId);
    assert.equal(q.get('redirect_uri'), `${server.config.publicBaseUrl}/oauth/callback/pinterest`);
    assert.equal(q.get('response_type'), 'code');
    assert.equal(q.get('scope'), 'boards:read,boards:write,pins:read,pins:write,user_accounts:read');
    assert.match(q.get('state')!, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(q.get('code_challenge'), null);
  });

  test('a business account: listed with its fields, tokens sealed, the same id when connected again', async () => {
    const { user, accountId, rawId } = await connect({ username: 'acme_pins', accountType: 'BUSINESS', businessName: 'Acme Home' });
    const listed = await listedAccount(server, org, accountId);
    assert.deepEqual(
      { network: listed.network, username: listed.username, nickname: listed.nickname, uid: listed.network_unique_id, picture: listed.profile_picture_url, tenantId: listed.tenantId, accountType: listed.accountType, isActive: listed.isActive },
      { network: 'pinterest', username: 'acme_pins', nickname: 'Acme Home', uid: user.id, picture: user.profileImage, tenantId: 'tenant_pin', accountType: 'business', isActive: 1 },
    );
    const stored = await secrets(rawId);
    assert.ok(stored.access && stored.refresh);
    assert.equal(await userAccount(stored.access!), 200);
    assert.ok(Math.abs(stored.expiresAt.getTime() - (Date.now() + 30 * 24 * 3600 * 1000)) < 60_000);
    const dump = JSON.stringify((await server.db.query('SELECT to_jsonb(a)::text AS t FROM social_accounts a')).rows);
    assert.ok(!dump.includes(stored.access!) && !dump.includes(stored.refresh!));

    await server.db.query('UPDATE social_accounts SET is_active = false WHERE id = $1', [rawId]);
    pin.signIn(user.id);
    const again = await connectOne(server, org, 'pinterest');
    assert.equal(again.accountId, accountId);
    const after = await secrets(rawId);
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
    const before = await secrets(rawId);
    assert.equal((await refresh()).get(rawId), undefined);
    await makeDue(rawId);
    assert.equal((await refresh()).get(rawId), 'refreshed');
    const after = await secrets(rawId);
    assert.notEqual(after.access, before.access);
    assert.ok(after.refresh && after.refresh !== before.refresh);
    assert.equal(await userAccount(after.access!), 200);
    assert.ok(after.expiresAt.getTime() > Date.now() + 29 * 24 * 3600 * 1000);
    assert.deepEqual(await presentRefresh(before.refresh!), { status: 401, body: { code: 283, message: 'The authorization grant is invalid' } });
    // The stored (rotated) one keeps working for the next refresh.
    await makeDue(rawId);
    assert.equal((await refresh()).get(rawId), 'refreshed');
  });

  test('an answer without refresh_token keeps the stored one', async () => {
    const { rawId } = await connect();
    const before = await secrets(rawId);
    pin.omitNextRefreshToken();
    await makeDue(rawId);
    assert.equal((await refresh()).get(rawId), 'refreshed');
    const after = await secrets(rawId);
    assert.notEqual(after.access, before.access);
    assert.equal(after.refresh, before.refresh);
  });

  test('a revoked grant: inactive and exactly one account.token_expired, even on the next pass', async () => {
    const { user, rawId, accountId } = await connect();
    pin.revokeUser(user.id);
    await makeDue(rawId);
    assert.equal((await refresh()).get(rawId), 'disconnected');
    await makeDue(rawId);
    assert.equal((await refresh()).get(rawId), undefined);
    assert.equal((await listedAccount(server, org, accountId)).isActive, 0);
    const { rows } = await server.db.query('SELECT type, data FROM events WHERE org_id = $1', [org.orgId]);
    const events = rows.filter((e: any) => e.type === 'account.token_expired' && e.data.accountId === rawId);
    assert.equal(events.length, 1);
    assert.equal(events[0].data.network, 'pinterest');
    assert.match(events[0].data.error, /^pinterest: code 283/);
  });

  test('refused app credentials are not a disconnect: the account stays active', async () => {
    const { rawId } = await connect();
    await makeDue(rawId);
    pin.failNext({ method: 'POST', path: '/v5/oauth/token', status: 401, body: { code: 2, message: 'Authentication failed.' } });
    assert.equal((await refresh()).get(rawId), 'failed');
    assert.equal((await secrets(rawId)).active, true);
  });
});
