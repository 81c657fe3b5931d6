// The operator's managed app (CRIER_<NETWORK>_CLIENT_ID/_SECRET), over real HTTP against the Google
// emulator: an org that registered no YouTube app connects through the operator's, the account
// remembers it (social_accounts.managed_app) and its token is refreshed with that app; an org with
// its own app connects through its own (bring your own key) even when a managed one exists; a half
// configured managed app stops Crier at start.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startGoogleEmulator, type GoogleEmulator } from '../../emulators/index.ts';
import { loadConfig } from '../../src/config.ts';
import { NETWORK_LIST } from '../../src/networks/registry.ts';
import { decodeId } from '../../src/core/ids.ts';
import { callbackUrl, connectOne, refreshWhenDue, registerApp, storedAccount } from '../helpers/connect.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

const MANAGED = { clientId: 'operator-youtube.apps.googleusercontent.com', clientSecret: 'GOCSPX-operator' };
const OWN = { clientId: 'org-youtube.apps.googleusercontent.com', clientSecret: 'GOCSPX-org' };

let google: GoogleEmulator, server: TestServer;

before(async () => {
  google = await startGoogleEmulator();
  server = await startTestServer({
    CRIER_YOUTUBE_BASE_URL: google.url, CRIER_YOUTUBE_CLIENT_ID: MANAGED.clientId, CRIER_YOUTUBE_CLIENT_SECRET: MANAGED.clientSecret,
  });
  for (const app of [MANAGED, OWN]) google.addApp({ ...app, redirectUris: [callbackUrl(server, 'youtube')] });
});
after(async () => {
  await server.close();
  await google.close();
});

const tokenCallsOf = (clientId: string, grant: string) => google.oauth.tokenCalls.filter((c) => c.clientId === clientId && c.grant === grant).length;

describe('the operator’s managed app', () => {
  test('an org without its own app connects through the managed app, and its token refreshes with it', async () => {
    const org = await server.createOrg();
    google.signIn(google.addUser({}).id);
    const { accountId, trip } = await connectOne(server, org, 'youtube');
    assert.equal(trip.authUrl.searchParams.get('client_id'), MANAGED.clientId, 'the consent is for the operator’s app');
    const rawId = decodeId(accountId)!;
    assert.equal((await storedAccount(server, rawId)).row.managed_app, true);
    assert.equal(tokenCallsOf(MANAGED.clientId, 'authorization_code'), 1, 'the code was exchanged by the managed app');

    const refreshesBefore = tokenCallsOf(MANAGED.clientId, 'refresh_token');
    assert.equal(await refreshWhenDue(server, rawId), 'refreshed');
    assert.equal(tokenCallsOf(MANAGED.clientId, 'refresh_token'), refreshesBefore + 1, 'refreshed with the managed app');
  });

  test('an org that registered its own app connects through it (bring your own key), and keeps refreshing with it', async () => {
    const org = await server.createOrg();
    await registerApp(server, org, 'youtube', OWN);
    google.signIn(google.addUser({}).id);
    const { accountId, trip } = await connectOne(server, org, 'youtube');
    assert.equal(trip.authUrl.searchParams.get('client_id'), OWN.clientId);
    const rawId = decodeId(accountId)!;
    assert.equal((await storedAccount(server, rawId)).row.managed_app, false);
    const ownRefreshes = tokenCallsOf(OWN.clientId, 'refresh_token');
    assert.equal(await refreshWhenDue(server, rawId), 'refreshed');
    assert.equal(tokenCallsOf(OWN.clientId, 'refresh_token'), ownRefreshes + 1);
  });

  test('a managed account keeps the managed app after the org registers its own: the token was issued to the operator’s', async () => {
    const org = await server.createOrg();
    google.signIn(google.addUser({}).id);
    const { accountId } = await connectOne(server, org, 'youtube');
    await registerApp(server, org, 'youtube', OWN);
    const managedRefreshes = tokenCallsOf(MANAGED.clientId, 'refresh_token');
    assert.equal(await refreshWhenDue(server, decodeId(accountId)!), 'refreshed');
    assert.equal(tokenCallsOf(MANAGED.clientId, 'refresh_token'), managedRefreshes + 1);
  });

  test('without a managed app, an org with no app of its own is told to register one', async () => {
    const org = await server.createOrg();
    const res = await server.request('POST', '/v1/social-networks/vimeo/auth-url', { key: org.key, body: {} });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'app_not_registered');
    assert.match(res.body.error, /CRIER_VIMEO_CLIENT_ID/);
  });

  test('an ID without its secret (or the reverse) stops Crier at start', () => {
    assert.throws(() => loadConfig({ CRIER_YOUTUBE_CLIENT_ID: 'x' }, NETWORK_LIST), /set both CRIER_YOUTUBE_CLIENT_ID and CRIER_YOUTUBE_CLIENT_SECRET/);
    assert.throws(() => loadConfig({ CRIER_TIKTOK_CLIENT_SECRET: 'y' }, NETWORK_LIST), /set both CRIER_TIKTOK_CLIENT_ID and CRIER_TIKTOK_CLIENT_SECRET/);
    assert.deepEqual(loadConfig({ CRIER_BLUESKY_CLIENT_ID: 'x' }, NETWORK_LIST).managedApps, {}, 'a password network has no app to manage');
    assert.deepEqual(loadConfig({ CRIER_YOUTUBE_CLIENT_ID: 'a', CRIER_YOUTUBE_CLIENT_SECRET: 'b' }, NETWORK_LIST).managedApps, { youtube: { clientId: 'a', clientSecret: 'b' } });
  });

  test('a login configuration (Meta\'s config_id) for the operator\'s Business app: only where the login takes one, digits, with its app', () => {
    assert.deepEqual(loadConfig({ CRIER_FACEBOOK_CLIENT_ID: 'a', CRIER_FACEBOOK_CLIENT_SECRET: 'b', CRIER_FACEBOOK_LOGIN_CONFIG_ID: '42' }, NETWORK_LIST).managedApps, { facebook: { clientId: 'a', clientSecret: 'b', loginConfigId: '42' } });
    assert.throws(() => loadConfig({ CRIER_X_CLIENT_ID: 'a', CRIER_X_CLIENT_SECRET: 'b', CRIER_X_LOGIN_CONFIG_ID: '42' }, NETWORK_LIST), /CRIER_X_LOGIN_CONFIG_ID: X's login takes no saved configuration/);
    assert.throws(() => loadConfig({ CRIER_INSTAGRAM_CLIENT_ID: 'a', CRIER_INSTAGRAM_CLIENT_SECRET: 'b', CRIER_INSTAGRAM_LOGIN_CONFIG_ID: 'x1' }, NETWORK_LIST), /CRIER_INSTAGRAM_LOGIN_CONFIG_ID must be the configuration's id/);
    assert.throws(() => loadConfig({ CRIER_FACEBOOK_LOGIN_CONFIG_ID: '42' }, NETWORK_LIST), /CRIER_FACEBOOK_LOGIN_CONFIG_ID needs CRIER_FACEBOOK_CLIENT_ID/);
  });
});
