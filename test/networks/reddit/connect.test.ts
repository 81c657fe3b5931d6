// Connecting a Reddit account end to end over real HTTP: auth-url (duration=permanent) -> Reddit's
// authorize page (the emulator consents at once) -> Crier's callback (code exchange with Basic client
// credentials and a descriptive User-Agent, then /api/v1/me) -> 302 with the account id. Then the
// hourly refresh: the refresh token is kept (Reddit sends none back), and a refused one disconnects
// the account with exactly one account.token_expired.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeId } from '../../../src/core/ids.ts';
import { startRedditEmulator, type RedditEmulator } from '../../../emulators/reddit/server.ts';
import { accountRowsText, assertAuthorizeUrl, connectBackToApp, connectNewUser, connectOne, expectDisconnectedOnce, listedAccount, listedProfile, makeTokenDue, reconnectSameAccount, refreshDueAccount, refreshTokens, refreshWhenDue, startConnectServer, stopConnectServer, storedAccount, tokenExpiredEvents } from '../../helpers/connect.ts';
import type { TestOrg, TestServer } from '../../helpers/harness.ts';

const APP = { clientId: 'crier-reddit-app', clientSecret: 'crier-reddit-secret' };
const TEST_UA = 'web:crier-tests:1.0 (by /u/crier_dev)';
let reddit: RedditEmulator, server: TestServer, org: TestOrg;

before(async () => ({ emulator: reddit, server, org } = await startConnectServer('reddit', await startRedditEmulator(), APP)));
after(() => stopConnectServer(server, reddit));

const meStatus = (token: string) =>
  fetch(`${reddit.url}/api/v1/me`, { headers: { authorization: `bearer ${token}`, 'user-agent': TEST_UA } }).then((r) => r.status);

/** A new redditor, signed in and connected; the account's ids. */
const connectNew = (input: Parameters<RedditEmulator['addUser']>[0] = {}) => connectNewUser(server, org, 'reddit', reddit, (user) => user.id, input);

describe('connecting a Reddit account', () => {
  test('the authorize URL: www.reddit.com\'s page, duration=permanent, the scopes space-separated', async () => {
    const res = await server.request('POST', '/v1/social-networks/reddit/auth-url', { key: org.key, body: {} });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const url = new URL(res.body.data.auth_url);
    assertAuthorizeUrl(url, `${reddit.url}/api/v1/authorize`, {
      client_id: APP.clientId, response_type: 'code', redirect_uri: `${server.config.publicBaseUrl}/oauth/callback/reddit`, state: /^[A-Za-z0-9_-]{43}$/, code_challenge: null,
      duration: 'permanent', scope: ['identity', 'submit', 'read', 'flair', 'edit', 'history'].join(' '),
    });
  });

  test('the full flow: listed with the redditor\'s fields, tokens sealed, an hour of validity; again gives the same id', async () => {
    const icon = 'https://styles.redditmedia.com/t5_9z/styles/profileIcon_q.png?width=256&height=256&crop=256:256,smart&s=0f';
    const user = reddit.addUser({ name: 'crier_poster', displayName: 'Crier Poster', iconImg: icon });
    reddit.signIn(user.id);
    const { accountId } = await connectOne(server, org, 'reddit', { tenant_id: 'tenant_r' });
    // The picture as Reddit stores it: "&", not the "&amp;" of an escaped answer.
    assert.deepEqual(await listedProfile(server, org, accountId), {
      network: 'reddit', username: 'crier_poster', nickname: 'Crier Poster', uid: `t2_${user.id}`, picture: icon, tenantId: 'tenant_r', accountType: 'personal', isActive: 1,
    });

    const rawId = decodeId(accountId)!;
    const stored = await storedAccount(server, rawId);
    assert.ok(stored.access && stored.refresh);
    const ttl = stored.expiresAt!.getTime() - Date.now();
    assert.ok(ttl > 3500_000 && ttl <= 3600_000, String(ttl));
    assert.equal(await meStatus(stored.access!), 200);
    const dump = await accountRowsText(server);
    assert.ok(!dump.includes(stored.access!) && !dump.includes(stored.refresh!));

    await server.db.query('UPDATE social_accounts SET is_active = false WHERE id = $1', [rawId]);
    await reconnectSameAccount(server, org, 'reddit', accountId);
    assert.equal((await listedAccount(server, org, accountId)).isActive, 1);
  });

  test('a redditor without a display name or custom icon: nickname is the username; the snoovatar wins over the icon', async () => {
    const plain = await connectNew({ name: 'plain_one', iconImg: 'https://www.redditstatic.com/avatars/defaults/v2/avatar_default_3.png' });
    const listed = await listedAccount(server, org, plain.accountId);
    assert.deepEqual([listed.nickname, listed.profile_picture_url], ['plain_one', 'https://www.redditstatic.com/avatars/defaults/v2/avatar_default_3.png']);
    const snoo = await connectNew({ snoovatarImg: 'https://i.redd.it/snoovatar/avatars/abc.png' });
    assert.equal((await listedAccount(server, org, snoo.accountId)).profile_picture_url, 'https://i.redd.it/snoovatar/avatars/abc.png');
  });

  test('quirk: the token and profile calls carry Basic/bearer auth and a descriptive User-Agent', async () => {
    const before = reddit.requests().length;
    await connectNew();
    const calls = reddit.requests().slice(before);
    const tokenCall = calls.find((c) => c.path === '/api/v1/access_token')!;
    const meCall = calls.find((c) => c.path === '/api/v1/me')!;
    assert.equal(tokenCall.auth, 'basic');
    assert.equal(tokenCall.contentType, 'application/x-www-form-urlencoded');
    assert.equal(meCall.auth, 'bearer');
    for (const call of [tokenCall, meCall]) {
      // <platform>:<app ID>:<version string>, the form Reddit asks for.
      assert.equal(call.userAgent, `web:${APP.clientId}:crier/1.0`);
      assert.match(call.userAgent, /^web:[^:\s]+:[^:\s]+\/\d+\.\d+/);
    }
  });

  test('a refused code or a throttled token call send the user back with ?error and store nothing', async () => {
    reddit.signIn(reddit.addUser({ name: 'never_stored' }).id);
    reddit.failNext({ method: 'POST', path: '/api/v1/access_token', status: 200, body: { error: 'invalid_grant' } });
    const bad = await connectBackToApp(server, org, 'reddit');
    assert.equal(bad.get('error'), 'oauth_failed');
    assert.match(bad.get('error_description')!, /invalid_grant/);
    reddit.failNext({ method: 'POST', path: '/api/v1/access_token', status: 429 });
    const throttled = await connectBackToApp(server, org, 'reddit');
    assert.equal(throttled.get('error'), 'oauth_failed');
    const { rows } = await server.db.query(`SELECT 1 FROM social_accounts WHERE network = 'reddit' AND username = 'never_stored'`);
    assert.equal(rows.length, 0);
  });
});

describe('refreshing Reddit tokens', () => {
  test('a due token is refreshed; Reddit sends no refresh token back, so the stored one is kept; the new token works', async () => {
    const account = await connectNew();
    assert.equal((await refreshTokens(server)).get(account.rawId), undefined, 'a fresh token is not due');
    const { before, now } = await refreshDueAccount(server, account.rawId, 'refreshed');
    assert.notEqual(now.access, before.access);
    assert.equal(now.refresh, before.refresh);
    assert.ok(now.expiresAt!.getTime() > Date.now() + 3500_000);
    assert.equal(await meStatus(now.access!), 200);
    // The kept refresh token still works the next time.
    assert.equal(await refreshWhenDue(server, account.rawId), 'refreshed');
    const refreshCalls = reddit.requests().filter((r) => r.path === '/api/v1/access_token').slice(-2);
    assert.ok(refreshCalls.every((c) => c.auth === 'basic' && c.userAgent === `web:${APP.clientId}:crier/1.0`));
  });

  test('a revoked refresh token (Reddit: 400 {"error":400}): inactive, exactly one account.token_expired even on later passes', async () => {
    const account = await connectNew();
    const { refresh: refreshToken } = await storedAccount(server, account.rawId);
    const revoked = await fetch(`${reddit.url}/api/v1/revoke_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': TEST_UA, authorization: `Basic ${Buffer.from(`${APP.clientId}:${APP.clientSecret}`).toString('base64')}` },
      body: new URLSearchParams({ token: refreshToken!, token_type_hint: 'refresh_token' }).toString(),
    });
    assert.equal(revoked.status, 200);
    const event = await expectDisconnectedOnce(server, org, account.accountId, account.rawId);
    assert.equal(event.data.network, 'reddit');
    assert.match(event.data.error, /^reddit: HTTP 400/);
  });

  test('quirk: {"error":"invalid_grant"} on refresh also disconnects, with exactly one account.token_expired', async () => {
    for (const status of [200, 400]) {
      const account = await connectNew();
      await makeTokenDue(server, account.rawId);
      reddit.failNext({ method: 'POST', path: '/api/v1/access_token', status, body: { error: 'invalid_grant' } });
      assert.equal((await refreshTokens(server)).get(account.rawId), 'disconnected', `HTTP ${status}`);
      assert.equal(await refreshWhenDue(server, account.rawId), undefined);
      const events = await tokenExpiredEvents(server, org.orgId, account.rawId);
      assert.equal(events.length, 1);
      assert.match(events[0].data.error, /^reddit: invalid_grant/);
    }
  });

  test('throttling (429) or a server error leaves the account as it was, to be tried again after a pause', async () => {
    const account = await connectNew();
    const before = await storedAccount(server, account.rawId);
    const endPause = () => server.db.query(`UPDATE social_accounts SET token_refresh_retry_at = now() - interval '1 second' WHERE id = $1`, [account.rawId]);
    for (const status of [429, 503]) {
      await makeTokenDue(server, account.rawId);
      reddit.failNext({ method: 'POST', path: '/api/v1/access_token', status });
      assert.equal((await refreshTokens(server)).get(account.rawId), 'failed', `HTTP ${status}`);
      const now = await storedAccount(server, account.rawId);
      assert.deepEqual([now.active, now.refresh, now.access], [true, before.refresh, before.access]);
      assert.equal((await refreshTokens(server)).get(account.rawId), undefined, 'paused: not tried on the next pass');
      await endPause();
    }
    assert.equal((await tokenExpiredEvents(server, org.orgId, account.rawId)).length, 0);
    assert.equal((await refreshTokens(server)).get(account.rawId), 'refreshed');
  });
});
