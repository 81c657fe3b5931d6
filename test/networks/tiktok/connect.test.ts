// Connecting a TikTok account end to end over real HTTP: auth-url (client_key, comma-separated
// scopes) -> TikTok's authorize page (the emulator consents at once) -> Crier's callback (form token
// call with client_key/client_secret, then /v2/user/info/) -> 302 with the account id. Then the
// rotating refresh tokens: each refresh stores the new one and kills the old, two refreshers racing
// make one call, a revoked grant (TikTok's invalid_grant at HTTP 200) disconnects once.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTikTokEmulator, type TikTokEmulator } from '../../../emulators/index.ts';
import { accountRowsText, assertAuthorizeUrl, connectNewUser, connectTrip, expectConsentDeclined, expectDisconnectedOnce, listedAccount, listedProfile, makeTokenDue, reconnectSameAccount, refreshDueAccount, refreshTokens, refreshWhenDue, startConnectServer, stopConnectServer, storedAccount, tokenExpiredEvents } from '../../helpers/connect.ts';
import type { TestOrg, TestServer } from '../../helpers/harness.ts';

let tiktok: TikTokEmulator, server: TestServer, org: TestOrg;
const APP = { clientId: 'awcrierclientkey01', clientSecret: 'crier-tiktok-secret' };

before(async () => ({ emulator: tiktok, server, org } = await startConnectServer('tiktok', await startTikTokEmulator(), APP)));
after(() => stopConnectServer(server, tiktok));

/** A new TikTok user (signed in by open_id), connected; the account's ids. */
const connectUser = (input: Parameters<TikTokEmulator['addUser']>[0] = {}, body: Record<string, unknown> = {}) => connectNewUser(server, org, 'tiktok', tiktok, (user) => user.openId, input, body);

const userInfo = (token: string) =>
  fetch(`${tiktok.url}/v2/user/info/?fields=open_id`, { headers: { authorization: `Bearer ${token}` } }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
const tokenCall = (form: Record<string, string>) =>
  fetch(`${tiktok.url}/v2/oauth/token/`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

describe('connecting a TikTok account', () => {
  test('quirk: the authorize URL carries client_key (no client_id) and comma-separated scopes', async () => {
    tiktok.signIn(tiktok.addUser().openId);
    const { authUrl } = await connectTrip(server, org, 'tiktok');
    assertAuthorizeUrl(authUrl, `${tiktok.url}/v2/auth/authorize/`, {
      client_key: APP.clientId, client_id: null, response_type: 'code', redirect_uri: `${server.config.publicBaseUrl}/oauth/callback/tiktok`, state: /^[A-Za-z0-9_-]{43}$/, code_challenge: null,
      scope: 'user.info.basic,user.info.profile,video.publish,video.upload',
    });
  });

  test('the full flow: listed with the profile, tokens sealed, reconnecting keeps the id', async () => {
    const { user, accountId, rawId } = await connectUser({ username: 'crier.tok', displayName: 'Crier Tok', avatarUrl: 'https://cdn.example/tok.jpg' }, { tenant_id: 'tenant_tok' });
    assert.deepEqual(await listedProfile(server, org, accountId), {
      network: 'tiktok', username: 'crier.tok', nickname: 'Crier Tok', uid: user.openId, picture: 'https://cdn.example/tok.jpg', tenantId: 'tenant_tok', accountType: 'personal', isActive: 1,
    });
    const first = await storedAccount(server, rawId);
    assert.ok(first.access && first.refresh);
    const hours = (first.expiresAt!.getTime() - Date.now()) / 3600_000;
    assert.ok(hours > 1.9 && hours <= 2, `access token expiry ${hours} h ahead`);
    assert.equal((await userInfo(first.access!)).body.data.user.open_id, user.openId);
    const dump = await accountRowsText(server, rawId);
    assert.ok(!dump.includes(first.access!) && !dump.includes(first.refresh!));
    for (const column of [first.row.access_token_enc, first.row.refresh_token_enc]) {
      assert.ok(!Buffer.from(column).includes(first.access!) && !Buffer.from(column).includes(first.refresh!));
    }

    tiktok.signIn(user.openId);
    assert.notEqual((await reconnectSameAccount(server, org, 'tiktok', accountId)).access, first.access);
  });

  test('quirk: the token request sent client_key and client_secret in the form (TikTok refuses client_id)', async () => {
    const before = tiktok.tokenRequests().length;
    await connectUser();
    const sent = tiktok.tokenRequests().slice(before);
    assert.equal(sent.length, 1);
    assert.deepEqual(Object.keys(sent[0]!).sort(), ['client_key', 'client_secret', 'code', 'grant_type', 'redirect_uri']);
    assert.equal(sent[0]!.client_key, APP.clientId);
    assert.equal(sent[0]!.grant_type, 'authorization_code');
    // What a client sending client_id would get: TikTok's OAuth error, at HTTP 200.
    const refused = await tokenCall({ client_id: APP.clientId, client_secret: APP.clientSecret, code: 'c', grant_type: 'authorization_code', redirect_uri: 'x' });
    assert.deepEqual([refused.status, refused.body.error], [200, 'invalid_client']);
  });

  test('a user who unticks user.info.profile still connects (display name as username, no 401 for the username field)', async () => {
    const { user, accountId } = await connectUser({ displayName: 'No Handle', deniedScopes: ['user.info.profile'] });
    const listed = await listedAccount(server, org, accountId);
    assert.deepEqual([listed.username, listed.nickname, listed.network_unique_id], ['No Handle', 'No Handle', user.openId]);
  });

  test('a declined consent comes back as ?error without an account', async () => {
    tiktok.oauth.signIn(undefined);
    await expectConsentDeclined(server, org, 'tiktok');
  });
});

describe('refreshing TikTok tokens', () => {
  test('rotation: a due token is refreshed, the new refresh token stored, the old one dead at TikTok', async () => {
    const { rawId } = await connectUser();
    assert.equal((await refreshTokens(server)).get(rawId), undefined);
    const { before, now } = await refreshDueAccount(server, rawId, 'refreshed');
    assert.notEqual(now.access, before.access);
    assert.notEqual(now.refresh, before.refresh);
    assert.ok(now.expiresAt!.getTime() > Date.now() + 7000_000);
    assert.equal((await userInfo(now.access!)).status, 200);
    const old = await tokenCall({ client_key: APP.clientId, client_secret: APP.clientSecret, grant_type: 'refresh_token', refresh_token: before.refresh! });
    assert.equal(old.body.error, 'invalid_grant');
    // The stored (new) refresh token is the live one: the next refresh works.
    assert.equal(await refreshWhenDue(server, rawId), 'refreshed');
  });

  test('quirk: two passes racing the same due account make exactly one refresh call; the account stays active', async () => {
    const { rawId } = await connectUser();
    for (let round = 0; round < 3; round++) {
      await makeTokenDue(server, rawId);
      const calls = tiktok.tokenCalls('refresh_token').length;
      const results = await Promise.all([refreshTokens(server), refreshTokens(server)]);
      assert.equal(tiktok.tokenCalls('refresh_token').length, calls + 1, `round ${round}`);
      const outcomes = results.map((r) => r.get(rawId)).filter(Boolean);
      assert.deepEqual(outcomes.filter((o) => o === 'refreshed'), ['refreshed'], `round ${round}: ${outcomes}`);
      assert.ok(outcomes.every((o) => o === 'refreshed' || o === 'skipped'), `round ${round}: ${outcomes}`);
    }
    const now = await storedAccount(server, rawId);
    assert.equal(now.active, true);
    assert.equal((await userInfo(now.access!)).status, 200);
    assert.deepEqual(await tokenExpiredEvents(server, org.orgId, rawId), []);
  });

  test('an answer without refresh_token keeps the stored one', async () => {
    const { rawId } = await connectUser();
    tiktok.omitNextRefreshToken();
    const { before, now } = await refreshDueAccount(server, rawId, 'refreshed');
    assert.notEqual(now.access, before.access);
    assert.equal(now.refresh, before.refresh);
    assert.equal((await userInfo(now.access!)).status, 200);
  });

  test('a TikTok outage (503) leaves the account as it was', async () => {
    const { rawId } = await connectUser();
    tiktok.failNext({ method: 'POST', path: '/v2/oauth/token/', status: 503 });
    const { before, now } = await refreshDueAccount(server, rawId, 'failed');
    assert.deepEqual([now.active, now.refresh, now.access], [true, before.refresh, before.access]);
    await server.db.query(`UPDATE social_accounts SET token_expires_at = now() + interval '2 hours' WHERE id = $1`, [rawId]);
  });

  test('a revoked grant (invalid_grant at HTTP 200): disconnected, isActive 0, exactly one account.token_expired', async () => {
    const { accountId, rawId, user } = await connectUser();
    tiktok.revokeUser(user.openId);
    const event = await expectDisconnectedOnce(server, org, accountId, rawId);
    assert.deepEqual([event.data.network, event.data.username], ['tiktok', user.username]);
    assert.match(event.data.error, /^tiktok: invalid_grant/);
  });
});
