// Connecting a TikTok account end to end over real HTTP: auth-url (client_key, comma-separated
// scopes) -> TikTok's authorize page (the emulator consents at once) -> Crier's callback (form token
// call with client_key/client_secret, then /v2/user/info/) -> 302 with the account id. Then the
// rotating refresh tokens: each refresh stores the new one and kills the old, two refreshers racing
// make one call, a revoked grant (TikTok's invalid_grant at HTTP 200) disconnects once.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openSecret } from '../../src/accounts/secrets.ts';
import { refreshDueTokens } from '../../src/accounts/token-refresh.ts';
import { decodeId } from '../../src/ids.ts';
import { startTikTokEmulator, type TikTokEmulator } from '../../emulators/index.ts';
import { connectOne, connectTrip, listedAccount, registerApp } from '../helpers/connect.ts';
import { startTestServer, type TestOrg, type TestServer } from '../helpers/harness.ts';

let tiktok: TikTokEmulator;
let server: TestServer;
let org: TestOrg;
const APP = { clientId: 'awcrierclientkey01', clientSecret: 'crier-tiktok-secret' };

before(async () => {
  tiktok = await startTikTokEmulator();
  server = await startTestServer({ CRIER_TIKTOK_BASE_URL: tiktok.url });
  tiktok.addApp({ ...APP, redirectUris: [`${server.config.publicBaseUrl}/oauth/callback/tiktok`] });
  org = await server.createOrg();
  await registerApp(server, org, 'tiktok', APP);
});
after(async () => {
  await server.close();
  await tiktok.close();
});

async function connectUser(input: Parameters<TikTokEmulator['addUser']>[0] = {}, body: Record<string, unknown> = {}) {
  const user = tiktok.addUser(input);
  tiktok.signIn(user.openId);
  const { accountId } = await connectOne(server, org, 'tiktok', body);
  return { user, id: accountId, rawId: decodeId(accountId)! };
}

async function stored(rawId: number) {
  const row = (await server.db.query('SELECT * FROM social_accounts WHERE id = $1', [rawId])).rows[0];
  return {
    row,
    access: openSecret(server.box, rawId, 'access', row.access_token_enc),
    refresh: openSecret(server.box, rawId, 'refresh', row.refresh_token_enc),
    expiresAt: row.token_expires_at as Date,
    active: row.is_active as boolean,
  };
}

const userInfo = (token: string) =>
  fetch(`${tiktok.url}/v2/user/info/?fields=open_id`, { headers: { authorization: `Bearer ${token}` } }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
const tokenCall = (form: Record<string, string>) =>
  fetch(`${tiktok.url}/v2/oauth/token/`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
const makeDue = (rawId: number) => server.db.query(`UPDATE social_accounts SET token_expires_at = now() + interval '1 minute' WHERE id = $1`, [rawId]);
const refresh = () => refreshDueTokens(server.db, server.box, server.config);
const expiredEvents = async (rawId: number) =>
  (await server.db.query('SELECT type, data FROM events WHERE org_id = $1', [org.orgId])).rows.filter((e: any) => e.type === 'account.token_expired' && e.data.accountId === rawId);

describe('connecting a TikTok account', () => {
  test('quirk: the authorize URL carries client_key (no client_id) and comma-separated scopes', async () => {
    tiktok.signIn(tiktok.addUser().openId);
    const { authUrl } = await connectTrip(server, org, 'tiktok');
    const q = authUrl.searchParams;
    assert.equal(`${authUrl.origin}${authUrl.pathname}`, `${tiktok.url}/v2/auth/authorize/`);
    assert.equal(q.get('client_key'), APP.clientId);
    assert.equal(q.has('client_id'), false);
    assert.equal(q.get('scope'), 'user.info.basic,user.info.profile,video.publish,video.upload');
    assert.equal(q.get('response_type'), 'code');
    assert.equal(q.get('redirect_uri'), `${server.config.publicBaseUrl}/oauth/callback/tiktok`);
    assert.match(q.get('state')!, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(q.get('code_challenge'), null);
  });

  test('the full flow: listed with the profile, tokens sealed, reconnecting keeps the id', async () => {
    const { user, id, rawId } = await connectUser(
      { username: 'crier.tok', displayName: 'Crier Tok', avatarUrl: 'https://cdn.example/tok.jpg' },
      { tenant_id: 'tenant_tok' },
    );
    const listed = await listedAccount(server, org, id);
    assert.deepEqual(
      {
        network: listed.network, username: listed.username, nickname: listed.nickname, uid: listed.network_unique_id,
        picture: listed.profile_picture_url, tenantId: listed.tenantId, accountType: listed.accountType, isActive: listed.isActive,
      },
      {
        network: 'tiktok', username: 'crier.tok', nickname: 'Crier Tok', uid: user.openId,
        picture: 'https://cdn.example/tok.jpg', tenantId: 'tenant_tok', accountType: 'personal', isActive: 1,
      },
    );
    const first = await stored(rawId);
    assert.ok(first.access && first.refresh);
    const hours = (first.expiresAt.getTime() - Date.now()) / 3600_000;
    assert.ok(hours > 1.9 && hours <= 2, `access token expiry ${hours} h ahead`);
    assert.equal((await userInfo(first.access!)).body.data.user.open_id, user.openId);
    const dump = JSON.stringify((await server.db.query('SELECT to_jsonb(a)::text AS t FROM social_accounts a WHERE id = $1', [rawId])).rows);
    assert.ok(!dump.includes(first.access!) && !dump.includes(first.refresh!));
    for (const column of [first.row.access_token_enc, first.row.refresh_token_enc]) {
      assert.ok(!Buffer.from(column).includes(first.access!) && !Buffer.from(column).includes(first.refresh!));
    }

    tiktok.signIn(user.openId);
    const again = await connectOne(server, org, 'tiktok');
    assert.equal(again.accountId, id);
    assert.notEqual((await stored(rawId)).access, first.access);
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
    const { user, id } = await connectUser({ displayName: 'No Handle', deniedScopes: ['user.info.profile'] });
    const listed = await listedAccount(server, org, id);
    assert.deepEqual([listed.username, listed.nickname, listed.network_unique_id], ['No Handle', 'No Handle', user.openId]);
  });

  test('a declined consent comes back as ?error without an account', async () => {
    tiktok.oauth.signIn(undefined);
    const trip = await connectTrip(server, org, 'tiktok', { redirect_uri: 'https://app.example.com/connected' });
    assert.equal(trip.callback.status, 302);
    assert.equal(trip.redirectedTo?.searchParams.get('error'), 'access_denied');
    assert.equal(trip.redirectedTo?.searchParams.get('account_id'), null);
  });
});

describe('refreshing TikTok tokens', () => {
  test('rotation: a due token is refreshed, the new refresh token stored, the old one dead at TikTok', async () => {
    const { rawId } = await connectUser();
    assert.equal((await refresh()).get(rawId), undefined);
    const before = await stored(rawId);
    await makeDue(rawId);
    assert.equal((await refresh()).get(rawId), 'refreshed');
    const now = await stored(rawId);
    assert.notEqual(now.access, before.access);
    assert.notEqual(now.refresh, before.refresh);
    assert.ok(now.expiresAt.getTime() > Date.now() + 7000_000);
    assert.equal((await userInfo(now.access!)).status, 200);
    const old = await tokenCall({ client_key: APP.clientId, client_secret: APP.clientSecret, grant_type: 'refresh_token', refresh_token: before.refresh! });
    assert.equal(old.body.error, 'invalid_grant');
    // The stored (new) refresh token is the live one: the next refresh works.
    await makeDue(rawId);
    assert.equal((await refresh()).get(rawId), 'refreshed');
  });

  test('quirk: two passes racing the same due account make exactly one refresh call; the account stays active', async () => {
    const { rawId } = await connectUser();
    for (let round = 0; round < 3; round++) {
      await makeDue(rawId);
      const calls = tiktok.tokenCalls('refresh_token').length;
      const results = await Promise.all([refresh(), refresh()]);
      assert.equal(tiktok.tokenCalls('refresh_token').length, calls + 1, `round ${round}`);
      const outcomes = results.map((r) => r.get(rawId)).filter(Boolean);
      assert.deepEqual(outcomes.filter((o) => o === 'refreshed'), ['refreshed'], `round ${round}: ${outcomes}`);
      assert.ok(outcomes.every((o) => o === 'refreshed' || o === 'skipped'), `round ${round}: ${outcomes}`);
    }
    const now = await stored(rawId);
    assert.equal(now.active, true);
    assert.equal((await userInfo(now.access!)).status, 200);
    assert.deepEqual(await expiredEvents(rawId), []);
  });

  test('an answer without refresh_token keeps the stored one', async () => {
    const { rawId } = await connectUser();
    const before = await stored(rawId);
    await makeDue(rawId);
    tiktok.omitNextRefreshToken();
    assert.equal((await refresh()).get(rawId), 'refreshed');
    const now = await stored(rawId);
    assert.notEqual(now.access, before.access);
    assert.equal(now.refresh, before.refresh);
    assert.equal((await userInfo(now.access!)).status, 200);
  });

  test('a TikTok outage (503) leaves the account as it was', async () => {
    const { rawId } = await connectUser();
    const before = await stored(rawId);
    await makeDue(rawId);
    tiktok.failNext({ method: 'POST', path: '/v2/oauth/token/', status: 503 });
    assert.equal((await refresh()).get(rawId), 'failed');
    const now = await stored(rawId);
    assert.deepEqual([now.active, now.refresh, now.access], [true, before.refresh, before.access]);
    await server.db.query(`UPDATE social_accounts SET token_expires_at = now() + interval '2 hours' WHERE id = $1`, [rawId]);
  });

  test('a revoked grant (invalid_grant at HTTP 200): disconnected, isActive 0, exactly one account.token_expired', async () => {
    const { id, rawId, user } = await connectUser();
    tiktok.revokeUser(user.openId);
    await makeDue(rawId);
    assert.equal((await refresh()).get(rawId), 'disconnected');
    await makeDue(rawId);
    assert.equal((await refresh()).get(rawId), undefined);
    assert.equal((await listedAccount(server, org, id)).isActive, 0);
    const events = await expiredEvents(rawId);
    assert.equal(events.length, 1);
    assert.deepEqual([events[0].data.network, events[0].data.username], ['tiktok', user.username]);
    assert.match(events[0].data.error, /^tiktok: invalid_grant/);
  });
});
