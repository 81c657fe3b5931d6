// Connecting a YouTube channel end to end over real HTTP against the Google emulator: auth-url (Google's
// consent page with offline access, a forced consent screen and PKCE) -> callback -> the channel
// listed; tokens sealed; reconnecting keeps the account; refresh without rotation; a revoked grant
// disconnects the account once; a Google account without a channel, or a consent that unticked the
// upload permission, connects nothing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startGoogleEmulator, type GoogleEmulator } from '../../../emulators/index.ts';
import { decodeId } from '../../../src/core/ids.ts';
import { accountRowsText, assertAuthorizeUrl, connectBackToApp, connectOne, connectTrip, expectDisconnectedOnce, listedProfile, reconnectSameAccount, refreshDueAccount, refreshTokens, refreshWhenDue, registerApp, startConnectServer, stopConnectServer, storedAccount } from '../../helpers/connect.ts';
import type { TestOrg, TestServer } from '../../helpers/harness.ts';

const APP = { clientId: '555-youtube.apps.googleusercontent.com', clientSecret: 'GOCSPX-youtube-secret' };
const UPLOAD = 'https://www.googleapis.com/auth/youtube.upload';
const FORCE_SSL = 'https://www.googleapis.com/auth/youtube.force-ssl';

let google: GoogleEmulator, server: TestServer, org: TestOrg;

before(async () => ({ emulator: google, server, org } = await startConnectServer('youtube', await startGoogleEmulator(), APP)));
after(() => stopConnectServer(server, google));

const mine = (accessToken: string) =>
  fetch(`${google.url}/youtube/v3/channels?part=snippet&mine=true`, { headers: { authorization: `Bearer ${accessToken}` } }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
const youtubeAccounts = async (o: TestOrg) => Number((await server.db.query(`SELECT count(*) FROM social_accounts WHERE org_id = $1 AND network = 'youtube'`, [o.orgId])).rows[0].count);

describe('connecting a YouTube channel', () => {
  test('the authorize URL is Google’s, with offline access, a consent screen, granted scopes and PKCE S256', async () => {
    google.signIn(google.addUser({}).id);
    const { authUrl } = await connectTrip(server, org, 'youtube');
    assertAuthorizeUrl(authUrl, `${google.url}/o/oauth2/v2/auth`, {
      client_id: APP.clientId, redirect_uri: `${server.config.publicBaseUrl}/oauth/callback/youtube`, response_type: 'code', code_challenge: /^[A-Za-z0-9_-]{43}$/, state: /^[A-Za-z0-9_-]{43}$/,
      scope: [UPLOAD, FORCE_SSL].join(' '), access_type: 'offline', prompt: 'consent', include_granted_scopes: 'true', code_challenge_method: 'S256',
    });
  });

  test('the channel is connected and listed, its tokens sealed; connecting it again keeps the account', async () => {
    const user = google.addUser({ name: 'Maker Studio', channel: { title: 'Maker Studio', customUrl: '@makerstudio' } });
    const channel = user.channel!;
    google.signIn(user.id);
    const { accountId, trip } = await connectOne(server, org, 'youtube', { tenant_id: 'tenant_yt' });
    assert.equal(`${trip.redirectedTo!.origin}${trip.redirectedTo!.pathname}`, 'https://app.example.com/connected');

    assert.deepEqual(await listedProfile(server, org, accountId), {
      network: 'youtube', username: '@makerstudio', nickname: 'Maker Studio', uid: channel.id, picture: channel.thumbnailUrl, tenantId: 'tenant_yt', accountType: 'channel', isActive: 1,
    });

    const rawId = decodeId(accountId)!;
    const saved = await storedAccount(server, rawId);
    assert.ok(saved.access && saved.refresh, 'an access and a refresh token are stored');
    const inAnHour = saved.expiresAt!.getTime() - Date.now();
    assert.ok(inAnHour > 3500_000 && inAnHour <= 3600_000, `expires in ~1 h, got ${inAnHour} ms`);
    assert.equal((await mine(saved.access!)).body.items[0].id, channel.id, 'the stored access token works at YouTube');
    const dump = await accountRowsText(server, rawId);
    assert.ok(!dump.includes(saved.access!) && !dump.includes(saved.refresh!), 'no token in plaintext in the row');
    for (const column of [saved.row.access_token_enc, saved.row.refresh_token_enc]) {
      assert.ok(!Buffer.from(column).includes(saved.access!) && !Buffer.from(column).includes(saved.refresh!));
    }

    const reconnected = await reconnectSameAccount(server, org, 'youtube', accountId);
    assert.notEqual(reconnected.access, saved.access);
    assert.ok(reconnected.refresh, 'prompt=consent makes Google send a refresh token on a reconnect too');
    assert.equal((await server.request('GET', '/v1/social-accounts?network=youtube', { key: org.key })).body.data.filter((a: any) => a.network_unique_id === channel.id).length, 1);
  });

  test('a due token is refreshed; Google sends no refresh token and the stored one stays and keeps working', async () => {
    google.signIn(google.addUser({}).id);
    const rawId = decodeId((await connectOne(server, org, 'youtube')).accountId)!;
    assert.equal((await refreshTokens(server)).get(rawId), undefined, 'not due yet');
    const { before, now } = await refreshDueAccount(server, rawId, 'refreshed');
    assert.notEqual(now.access, before.access);
    assert.equal(now.refresh, before.refresh, 'the refresh token was kept');
    assert.ok(now.expiresAt!.getTime() > Date.now() + 3000_000);
    assert.equal((await mine(now.access!)).status, 200, 'the new access token works');
    // The kept refresh token still refreshes.
    assert.equal(await refreshWhenDue(server, rawId), 'refreshed');
    assert.equal((await mine((await storedAccount(server, rawId)).access!)).status, 200);
  });

  test('a revoked grant (invalid_grant): the account is disconnected with exactly one account.token_expired', async () => {
    const user = google.addUser({});
    google.signIn(user.id);
    const { accountId } = await connectOne(server, org, 'youtube');
    const rawId = decodeId(accountId)!;
    google.revokeUser(user.id);
    const event = await expectDisconnectedOnce(server, org, accountId, rawId);
    assert.equal(event.data.network, 'youtube');
    assert.match(event.data.error, /invalid_grant/);
    assert.match(event.data.error, /Token has been expired or revoked/);
  });

  test('a Google account without a YouTube channel: back with ?error and no account stored', async () => {
    const fresh = await server.createOrg();
    await registerApp(server, fresh, 'youtube', APP);
    google.signIn(google.addUser({ channel: null }).id);
    const back = await connectBackToApp(server, fresh, 'youtube');
    assert.equal(back.get('error'), 'oauth_failed');
    assert.match(back.get('error_description')!, /no YouTube channel/);
    assert.equal(back.get('account_id'), null);
    assert.equal(await youtubeAccounts(fresh), 0);
  });

  test('a consent that unticked the upload permission connects nothing and says why', async () => {
    const fresh = await server.createOrg();
    await registerApp(server, fresh, 'youtube', APP);
    google.signIn(google.addUser({}).id);
    google.declineScopesAtNextConsent([UPLOAD]);
    const back = await connectBackToApp(server, fresh, 'youtube');
    assert.equal(back.get('error'), 'oauth_failed');
    assert.match(back.get('error_description')!, /youtube\.upload/);
    assert.equal(await youtubeAccounts(fresh), 0);
  });
});
