// Connecting Instagram professional accounts through Facebook Login for Business, end to end over
// real HTTP: the same Facebook dialog and token exchanges with the Instagram scopes, then the IG
// accounts linked to the user's Pages (instagram_business_account) offered in a pending session;
// each publishes with its Page's never-expiring token. Pages without an IG account are left out.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openSecret } from '../../src/accounts/secrets.ts';
import { refreshDueTokens } from '../../src/accounts/token-refresh.ts';
import { decodeId } from '../../src/ids.ts';
import { GRAPH_VERSION } from '../../src/networks/facebook/oauth.ts';
import { startFacebookEmulator, type FacebookEmulator } from '../../emulators/facebook/server.ts';
import { connectPending, connectTrip, listedAccount, registerApp } from '../helpers/connect.ts';
import { startTestServer, type TestOrg, type TestServer } from '../helpers/harness.ts';

let fb: FacebookEmulator;
let server: TestServer;
let org: TestOrg;
const APP = { clientId: '9876543210', clientSecret: 'instagram-via-facebook-secret' };

before(async () => {
  fb = await startFacebookEmulator();
  server = await startTestServer({ CRIER_INSTAGRAM_BASE_URL: fb.url });
  fb.addApp({ ...APP, redirectUris: [`${server.config.publicBaseUrl}/oauth/callback/instagram`] });
  org = await server.createOrg();
  await registerApp(server, org, 'instagram', APP);
});
after(async () => {
  await server.close();
  await fb.close();
});

const pending = (session: string) => server.request('GET', `/v1/social-accounts/pending/${session}`);
const finalize = (session: string, selectedPageIds: unknown) => server.request('POST', `/v1/social-accounts/pending/${session}/finalize`, { body: { selectedPageIds } });
const row = async (rawId: number) => (await server.db.query('SELECT * FROM social_accounts WHERE id = $1', [rawId])).rows[0];
const graph = (path: string, token: string) =>
  fetch(`${fb.url}/${GRAPH_VERSION}${path}${path.includes('?') ? '&' : '?'}access_token=${encodeURIComponent(token)}`).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

/** Two Pages, only the first with a linked Instagram account. */
function userWithOneInstagram() {
  const user = fb.addUser({
    name: 'Brand Owner',
    pages: [
      { name: 'Brand Page', instagram: { username: 'brand.ig', name: 'Brand On IG', profilePictureUrl: 'https://cdn.example/brand-ig.jpg' } },
      { name: 'Plain Page' },
    ],
  });
  fb.signIn(user.id);
  return user;
}

async function igIdOf(userPageId: string, token: string): Promise<string> {
  return (await graph(`/${userPageId}?fields=instagram_business_account`, token)).body.instagram_business_account.id;
}

describe('connecting Instagram accounts (Facebook Login)', () => {
  test('the authorize URL is the Facebook login dialog with the Instagram scopes', async () => {
    userWithOneInstagram();
    const { authUrl } = await connectTrip(server, org, 'instagram', {});
    assert.equal(`${authUrl.origin}${authUrl.pathname}`, `${fb.url}/${GRAPH_VERSION}/dialog/oauth`);
    assert.equal(authUrl.searchParams.get('client_id'), APP.clientId);
    assert.equal(authUrl.searchParams.get('redirect_uri'), `${server.config.publicBaseUrl}/oauth/callback/instagram`);
    assert.equal(authUrl.searchParams.get('response_type'), 'code');
    assert.deepEqual(authUrl.searchParams.get('scope')!.split(','), [
      'instagram_basic', 'instagram_content_publish', 'instagram_manage_comments', 'instagram_manage_messages',
      'pages_show_list', 'pages_read_engagement', 'business_management',
    ]);
  });

  test('two Pages, one with an Instagram account: exactly that account is offered, connected with its Page token', async () => {
    const user = userWithOneInstagram();
    const [brandPage] = user.pageIds;
    const calls = fb.tokenCalls().length;
    const { session } = await connectPending(server, org, 'instagram', { tenant_id: 'tenant_ig' });
    assert.deepEqual(fb.tokenCalls().slice(calls).map((c) => c.grant), ['authorization_code', 'fb_exchange_token']);

    const view = await pending(session);
    assert.equal(view.status, 200);
    assert.equal(view.body.data.network, 'instagram');
    assert.equal(view.body.data.availablePages.length, 1);
    const offered = view.body.data.availablePages[0];
    assert.deepEqual({ ...offered, id: undefined }, { id: undefined, type: 'business', name: 'Brand On IG', username: 'brand.ig', profilePictureUrl: 'https://cdn.example/brand-ig.jpg' });
    assert.match(offered.id, /^1784\d+$/);
    assert.doesNotMatch(JSON.stringify(view.body), /EAAB-|access_?token/i);

    const done = await finalize(session, [offered.id]);
    assert.equal(done.status, 200, JSON.stringify(done.body));
    const account = await listedAccount(server, org, done.body.connectedAccounts[0].id);
    assert.deepEqual(
      { network: account.network, username: account.username, nickname: account.nickname, uid: account.network_unique_id, picture: account.profile_picture_url, tenantId: account.tenantId, type: account.accountType, isActive: account.isActive },
      { network: 'instagram', username: 'brand.ig', nickname: 'Brand On IG', uid: offered.id, picture: 'https://cdn.example/brand-ig.jpg', tenantId: 'tenant_ig', type: 'business', isActive: 1 },
    );

    // The stored token is the linked Page's token: /me is the Page, and the IG account is reachable with it.
    const rawId = decodeId(account.id)!;
    const stored = await row(rawId);
    const access = openSecret(server.box, rawId, 'access', stored.access_token_enc)!;
    assert.equal((await graph('/me?fields=id', access)).body.id, brandPage);
    assert.equal(await igIdOf(brandPage!, access), offered.id);
    assert.deepEqual((await graph(`/${offered.id}?fields=id,username`, access)).body, { id: offered.id, username: 'brand.ig' });
    assert.equal(stored.token_expires_at, null);
    assert.equal(fb.tokenInfo(access)?.expiresAtMs, null);
    const dump = JSON.stringify((await server.db.query('SELECT to_jsonb(a)::text AS t FROM social_accounts a')).rows);
    assert.ok(!dump.includes(access));

    // Connecting it again later: the same account, a new token; the refresher never touches it.
    const again = await connectPending(server, org, 'instagram');
    const second = await finalize(again.session, [offered.id]);
    assert.equal(second.body.connectedAccounts[0].id, account.id);
    const newer = openSecret(server.box, rawId, 'access', (await row(rawId)).access_token_enc)!;
    assert.notEqual(newer, access);
    fb.clock.advance(61 * 24 * 3600_000);
    assert.equal((await refreshDueTokens(server.db, server.box, server.config)).get(rawId), undefined);
    assert.equal((await graph('/me?fields=id', newer)).status, 200);
  });

  test('a login whose Pages have no Instagram account at all: ?error=no_accounts', async () => {
    fb.signIn(fb.addUser({ pages: [{ name: 'Only Facebook' }, { name: 'Also Only Facebook' }] }).id);
    const trip = await connectTrip(server, org, 'instagram', { redirect_uri: 'https://app.example.com/connected' });
    assert.equal(trip.callback.status, 302);
    assert.equal(trip.redirectedTo!.searchParams.get('error'), 'no_accounts');
    assert.equal(trip.redirectedTo!.searchParams.get('session'), null);
  });

  test('the user declining on the dialog sends them back with ?error=access_denied', async () => {
    userWithOneInstagram();
    fb.declineConsent(true);
    try {
      const trip = await connectTrip(server, org, 'instagram', { redirect_uri: 'https://app.example.com/connected' });
      assert.equal(trip.redirectedTo!.searchParams.get('error'), 'access_denied');
    } finally {
      fb.declineConsent(false);
    }
  });

  test('a revoked login (the user removed the app) fails the connect as oauth_failed', async () => {
    userWithOneInstagram();
    fb.failNext({ status: 400, path: `/${GRAPH_VERSION}/me/accounts`, body: { error: { message: 'Error validating access token: The user has not authorized application 9876543210.', type: 'OAuthException', code: 190, error_subcode: 458, fbtrace_id: 'x' } } });
    const trip = await connectTrip(server, org, 'instagram', { redirect_uri: 'https://app.example.com/connected' });
    assert.equal(trip.callback.status, 302);
    assert.equal(trip.redirectedTo!.searchParams.get('error'), 'oauth_failed');
    assert.match(trip.redirectedTo!.searchParams.get('error_description')!, /#190\/458/);
  });
});
