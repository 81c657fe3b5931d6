// Connecting a YouTube channel end to end over real HTTP against the Google emulator: auth-url (Google's
// consent page with offline access, a forced consent screen and PKCE) -> callback -> the channel
// listed; tokens sealed; reconnecting keeps the account; refresh without rotation; a revoked grant
// disconnects the account once; a Google account without a channel, or a consent that unticked the
// upload permission, connects nothing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startGoogleEmulator, type GoogleEmulator } from '../../emulators/index.ts';
import { openSecret } from '../../src/accounts/secrets.ts';
import { refreshDueTokens } from '../../src/accounts/token-refresh.ts';
import { decodeId } from '../../src/ids.ts';
import { connectOne, connectTrip, listedAccount, registerApp } from '../helpers/connect.ts';
import { startTestServer, type TestOrg, type TestServer } from '../helpers/harness.ts';

const APP = { clientId: '555-youtube.apps.googleusercontent.com', clientSecret: 'GOCSPX-youtube-secret' };
const UPLOAD = 'https://www.googleapis.com/auth/youtube.upload';
const FORCE_SSL = 'https://www.googleapis.com/auth/youtube.force-ssl';

let google: GoogleEmulator;
let server: TestServer;
let org: TestOrg;

before(async () => {
  google = await startGoogleEmulator();
  server = await startTestServer({ CRIER_YOUTUBE_BASE_URL: google.url });
  google.addApp({ ...APP, redirectUris: [`${server.config.publicBaseUrl}/oauth/callback/youtube`] });
  org = await server.createOrg();
  await registerApp(server, org, 'youtube', APP);
});
after(async () => {
  await server.close();
  await google.close();
});

async function row(rawId: number) {
  const found = (await server.db.query('SELECT * FROM social_accounts WHERE id = $1', [rawId])).rows[0];
  return {
    raw: found,
    access: openSecret(server.box, rawId, 'access', found.access_token_enc),
    refresh: openSecret(server.box, rawId, 'refresh', found.refresh_token_enc),
    expiresAt: found.token_expires_at as Date,
  };
}

const mine = (accessToken: string) =>
  fetch(`${google.url}/youtube/v3/channels?part=snippet&mine=true`, { headers: { authorization: `Bearer ${accessToken}` } }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
const makeDue = (rawId: number) => server.db.query(`UPDATE social_accounts SET token_expires_at = now() + interval '1 minute' WHERE id = $1`, [rawId]);
const refresh = () => refreshDueTokens(server.db, server.box, server.config);
const expiredEvents = async (rawId: number) =>
  (await server.db.query('SELECT type, data FROM events WHERE org_id = $1', [org.orgId])).rows.filter((e) => e.type === 'account.token_expired' && e.data.accountId === rawId);
const youtubeAccounts = async (o: TestOrg) => Number((await server.db.query(`SELECT count(*) FROM social_accounts WHERE org_id = $1 AND network = 'youtube'`, [o.orgId])).rows[0].count);

describe('connecting a YouTube channel', () => {
  test('the authorize URL is Google’s, with offline access, a consent screen, granted scopes and PKCE S256', async () => {
    google.signIn(google.addUser({}).id);
    const { authUrl } = await connectTrip(server, org, 'youtube');
    const q = authUrl.searchParams;
    assert.equal(`${authUrl.origin}${authUrl.pathname}`, `${google.url}/o/oauth2/v2/auth`);
    assert.equal(q.get('client_id'), APP.clientId);
    assert.equal(q.get('redirect_uri'), `${server.config.publicBaseUrl}/oauth/callback/youtube`);
    assert.equal(q.get('response_type'), 'code');
    assert.deepEqual(q.get('scope')!.split(' '), [UPLOAD, FORCE_SSL]);
    assert.equal(q.get('access_type'), 'offline');
    assert.equal(q.get('prompt'), 'consent');
    assert.equal(q.get('include_granted_scopes'), 'true');
    assert.equal(q.get('code_challenge_method'), 'S256');
    assert.match(q.get('code_challenge')!, /^[A-Za-z0-9_-]{43}$/);
    assert.match(q.get('state')!, /^[A-Za-z0-9_-]{43}$/);
  });

  test('the channel is connected and listed, its tokens sealed; connecting it again keeps the account', async () => {
    const user = google.addUser({ name: 'Maker Studio', channel: { title: 'Maker Studio', customUrl: '@makerstudio' } });
    const channel = user.channel!;
    google.signIn(user.id);
    const { accountId, trip } = await connectOne(server, org, 'youtube', { tenant_id: 'tenant_yt' });
    assert.equal(`${trip.redirectedTo!.origin}${trip.redirectedTo!.pathname}`, 'https://app.example.com/connected');

    const listed = await listedAccount(server, org, accountId);
    assert.deepEqual(
      { network: listed.network, username: listed.username, nickname: listed.nickname, uid: listed.network_unique_id, picture: listed.profile_picture_url, tenantId: listed.tenantId, type: listed.accountType, active: listed.isActive },
      { network: 'youtube', username: '@makerstudio', nickname: 'Maker Studio', uid: channel.id, picture: channel.thumbnailUrl, tenantId: 'tenant_yt', type: 'channel', active: 1 },
    );

    const rawId = decodeId(accountId)!;
    const saved = await row(rawId);
    assert.ok(saved.access && saved.refresh, 'an access and a refresh token are stored');
    const inAnHour = saved.expiresAt.getTime() - Date.now();
    assert.ok(inAnHour > 3500_000 && inAnHour <= 3600_000, `expires in ~1 h, got ${inAnHour} ms`);
    assert.equal((await mine(saved.access!)).body.items[0].id, channel.id, 'the stored access token works at YouTube');
    const dump = JSON.stringify((await server.db.query('SELECT to_jsonb(a)::text AS t FROM social_accounts a WHERE id = $1', [rawId])).rows);
    assert.ok(!dump.includes(saved.access!) && !dump.includes(saved.refresh!), 'no token in plaintext in the row');
    for (const column of [saved.raw.access_token_enc, saved.raw.refresh_token_enc]) {
      assert.ok(!Buffer.from(column).includes(saved.access!) && !Buffer.from(column).includes(saved.refresh!));
    }

    const again = await connectOne(server, org, 'youtube');
    assert.equal(again.accountId, accountId);
    const reconnected = await row(rawId);
    assert.notEqual(reconnected.access, saved.access);
    assert.ok(reconnected.refresh, 'prompt=consent makes Google send a refresh token on a reconnect too');
    assert.equal((await server.request('GET', '/v1/social-accounts?network=youtube', { key: org.key })).body.data.filter((a: any) => a.network_unique_id === channel.id).length, 1);
  });

  test('a due token is refreshed; Google sends no refresh token and the stored one stays and keeps working', async () => {
    google.signIn(google.addUser({}).id);
    const rawId = decodeId((await connectOne(server, org, 'youtube')).accountId)!;
    const before = await row(rawId);
    assert.equal((await refresh()).get(rawId), undefined, 'not due yet');
    await makeDue(rawId);
    assert.equal((await refresh()).get(rawId), 'refreshed');
    const now = await row(rawId);
    assert.notEqual(now.access, before.access);
    assert.equal(now.refresh, before.refresh, 'the refresh token was kept');
    assert.ok(now.expiresAt.getTime() > Date.now() + 3000_000);
    assert.equal((await mine(now.access!)).status, 200, 'the new access token works');
    // The kept refresh token still refreshes.
    await makeDue(rawId);
    assert.equal((await refresh()).get(rawId), 'refreshed');
    assert.equal((await mine((await row(rawId)).access!)).status, 200);
  });

  test('a revoked grant (invalid_grant): the account is disconnected with exactly one account.token_expired', async () => {
    const user = google.addUser({});
    google.signIn(user.id);
    const { accountId } = await connectOne(server, org, 'youtube');
    const rawId = decodeId(accountId)!;
    google.revokeUser(user.id);
    await makeDue(rawId);
    assert.equal((await refresh()).get(rawId), 'disconnected');
    await makeDue(rawId);
    assert.equal((await refresh()).get(rawId), undefined, 'an inactive account is not picked again');
    assert.equal((await listedAccount(server, org, accountId)).isActive, 0);
    const events = await expiredEvents(rawId);
    assert.equal(events.length, 1);
    assert.equal(events[0].data.network, 'youtube');
    assert.match(events[0].data.error, /invalid_grant/);
    assert.match(events[0].data.error, /Token has been expired or revoked/);
  });

  test('a Google account without a YouTube channel: back with ?error and no account stored', async () => {
    const fresh = await server.createOrg();
    await registerApp(server, fresh, 'youtube', APP);
    google.signIn(google.addUser({ channel: null }).id);
    const trip = await connectTrip(server, fresh, 'youtube', { redirect_uri: 'https://app.example.com/connected' });
    assert.equal(trip.callback.status, 302);
    assert.equal(trip.redirectedTo!.searchParams.get('error'), 'oauth_failed');
    assert.match(trip.redirectedTo!.searchParams.get('error_description')!, /no YouTube channel/);
    assert.equal(trip.redirectedTo!.searchParams.get('account_id'), null);
    assert.equal(await youtubeAccounts(fresh), 0);
  });

  test('a consent that unticked the upload permission connects nothing and says why', async () => {
    const fresh = await server.createOrg();
    await registerApp(server, fresh, 'youtube', APP);
    google.signIn(google.addUser({}).id);
    google.declineScopesAtNextConsent([UPLOAD]);
    const trip = await connectTrip(server, fresh, 'youtube', { redirect_uri: 'https://app.example.com/connected' });
    assert.equal(trip.redirectedTo!.searchParams.get('error'), 'oauth_failed');
    assert.match(trip.redirectedTo!.searchParams.get('error_description')!, /youtube\.upload/);
    assert.equal(await youtubeAccounts(fresh), 0);
  });
});
