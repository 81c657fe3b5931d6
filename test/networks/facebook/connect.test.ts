// Connecting Facebook Pages end to end over real HTTP: auth-url -> the Facebook login dialog (the
// emulator consents at once) -> Crier's callback (code exchange, fb_exchange_token for the
// long-lived user token, /me/accounts for the Page tokens) -> ?session=<token> -> the user picks
// Pages (GET /v1/social-accounts/pending/:token, finalize) -> the Pages listed. Page tokens never
// expire and there is no refresh grant, so the refresher never touches them.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeId } from '../../../src/core/ids.ts';
import { FACEBOOK_SCOPES, metaError } from '../../../src/networks/facebook/oauth.ts';
import { GRAPH_VERSION } from '../../../src/networks/meta/graph-version.ts';
import { startFacebookEmulator, type FacebookEmulator } from '../../../emulators/facebook/server.ts';
import { accountRowsText, assertAuthorizeUrl, connectBackToApp, connectPending, connectTrip, expectConsentDeclined, finalizeConnection, listedAccount, pendingConnection, refreshTokens, registerApp, startConnectServer, stopConnectServer, storedAccount, whileConsentDeclined } from '../../helpers/connect.ts';
import type { TestOrg, TestServer } from '../../helpers/harness.ts';

let fb: FacebookEmulator, server: TestServer, org: TestOrg;
const APP = { clientId: '1234567890', clientSecret: 'facebook-app-secret' };

before(async () => ({ emulator: fb, server, org } = await startConnectServer('facebook', await startFacebookEmulator(), APP)));
after(() => stopConnectServer(server, fb));

const graphMe = (token: string) => fetch(`${fb.url}/${GRAPH_VERSION}/me?fields=id,name&access_token=${encodeURIComponent(token)}`).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

/** A user managing three Pages (one without a username), signed in on the dialog. */
function userWithThreePages() {
  const user = fb.addUser({
    name: 'Page Admin',
    pages: [
      { name: 'Bakery One', username: 'bakeryone', pictureUrl: 'https://cdn.example/bakery.jpg' },
      { name: 'Second Shop', username: null, pictureUrl: 'https://cdn.example/shop.jpg' },
      { name: 'Third Club', username: 'thirdclub' },
    ],
  });
  fb.signIn(user.id);
  return { user };
}

describe('connecting Facebook Pages', () => {
  test('the authorize URL is the versioned login dialog with the Pages scopes, comma-separated, and no PKCE', async () => {
    const user = fb.addUser({});
    fb.signIn(user.id);
    const { authUrl } = await connectTrip(server, org, 'facebook', {});
    assertAuthorizeUrl(authUrl, `${fb.url}/${GRAPH_VERSION}/dialog/oauth`, {
      client_id: APP.clientId, redirect_uri: `${server.config.publicBaseUrl}/oauth/callback/facebook`, response_type: 'code', state: /^[A-Za-z0-9_-]{43}$/, code_challenge: null,
      scope: [
        'pages_show_list', 'pages_manage_posts', 'pages_read_engagement', 'pages_manage_engagement', 'pages_read_user_content', 'read_insights', 'publish_video', 'business_management',
      ].join(','),
    });
    assert.deepEqual([...FACEBOOK_SCOPES], authUrl.searchParams.get('scope')!.split(','));
  });

  test('three Pages: a session to pick from (no token shown), bad picks refused, two connected, the session then gone', async () => {
    const { user } = userWithThreePages();
    const callsBefore = fb.tokenCalls().length;
    const { session, trip } = await connectPending(server, org, 'facebook', { tenant_id: 'tenant_fb' });
    assert.equal(trip.redirectedTo!.searchParams.get('account_id'), null);
    // The code exchange, then the long-lived exchange, and nothing else.
    assert.deepEqual(fb.tokenCalls().slice(callsBefore).map((c) => c.grant), ['authorization_code', 'fb_exchange_token']);

    // No API key: the session token is the credential.
    const view = await pendingConnection(server, session);
    assert.equal(view.status, 200, JSON.stringify(view.body));
    assert.equal(view.body.data.network, 'facebook');
    const [p1, p2, p3] = user.pageIds;
    assert.deepEqual(view.body.data.availablePages, [
      { id: p1, type: 'page', name: 'Bakery One', username: 'bakeryone', profilePictureUrl: 'https://cdn.example/bakery.jpg' },
      { id: p2, type: 'page', name: 'Second Shop', username: p2, profilePictureUrl: 'https://cdn.example/shop.jpg' },
      { id: p3, type: 'page', name: 'Third Club', username: 'thirdclub', profilePictureUrl: `https://scontent.example.fbcdn.net/page/${p3}.jpg` },
    ]);
    assert.doesNotMatch(JSON.stringify(view.body), /EAAB-|access_?token/i);

    // An id that was not offered: 400 naming it, and the session still works.
    const bad = await finalizeConnection(server, session, [p1, 'not-a-page']);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.details[0].field, 'selectedPageIds[1]');
    assert.equal((await pendingConnection(server, session)).status, 200);

    const done = await finalizeConnection(server, session, [p1, p2]);
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(done.body.connectedAccounts.length, 2);
    assert.doesNotMatch(JSON.stringify(done.body), /EAAB-/);
    assert.equal((await finalizeConnection(server, session, [p3])).status, 404);
    assert.equal((await pendingConnection(server, session)).status, 404);

    const listed = await server.request('GET', '/v1/social-accounts?network=facebook', { key: org.key });
    const ours = listed.body.data.filter((a: any) => [p1, p2, p3].includes(a.network_unique_id));
    assert.equal(ours.length, 2);
    const first = await listedAccount(server, org, done.body.connectedAccounts.find((a: any) => a.network_unique_id === p1).id);
    assert.deepEqual(
      { username: first.username, nickname: first.nickname, uid: first.network_unique_id, picture: first.profile_picture_url, tenantId: first.tenantId, type: first.accountType, isActive: first.isActive },
      { username: 'bakeryone', nickname: 'Bakery One', uid: p1, picture: 'https://cdn.example/bakery.jpg', tenantId: 'tenant_fb', type: 'page', isActive: 1 },
    );

    // The stored token is the Page's own (GET /me answers the Page), it never expires, and it is sealed.
    const rawId = decodeId(first.id)!;
    const stored = await storedAccount(server, rawId);
    const access = stored.access!;
    assert.deepEqual((await graphMe(access)).body, { id: p1, name: 'Bakery One' });
    assert.equal(fb.tokenInfo(access)?.kind, 'page');
    assert.equal(fb.tokenInfo(access)?.expiresAtMs, null);
    assert.equal(stored.row.token_expires_at, null);
    assert.equal(stored.row.refresh_token_enc, null);
    const dump = await accountRowsText(server);
    assert.ok(!dump.includes(access));
    assert.ok(!Buffer.from(stored.row.access_token_enc).includes(access));
  });

  test('an expired session is a 410', async () => {
    userWithThreePages();
    const { session } = await connectPending(server, org, 'facebook');
    await server.db.query(`UPDATE pending_connections SET expires_at = now() - interval '1 second'`);
    assert.equal((await pendingConnection(server, session)).status, 410);
    const late = await finalizeConnection(server, session, ['anything']);
    assert.equal(late.status, 410);
  });

  test('reconnecting a Page later updates the same account with a new Page token', async () => {
    const { user } = userWithThreePages();
    const pageId = user.pageIds[2]!;
    const first = await connectPending(server, org, 'facebook');
    const a = await finalizeConnection(server, first.session, [pageId]);
    const accountId = a.body.connectedAccounts[0].id;
    const rawId = decodeId(accountId)!;
    const before = (await storedAccount(server, rawId)).access;
    await server.db.query('UPDATE social_accounts SET is_active = false WHERE id = $1', [rawId]);

    const second = await connectPending(server, org, 'facebook');
    const b = await finalizeConnection(server, second.session, [pageId]);
    assert.equal(b.status, 200);
    assert.equal(b.body.connectedAccounts[0].id, accountId);
    assert.equal((await listedAccount(server, org, accountId)).isActive, 1);
    const after = (await storedAccount(server, rawId)).access!;
    assert.notEqual(after, before);
    assert.equal((await graphMe(after)).body.id, pageId);
  });

  test('a Page token (expiresAt null) is never touched by the refresher, even once the user token would have expired', async () => {
    const { user } = userWithThreePages();
    const { session } = await connectPending(server, org, 'facebook');
    const done = await finalizeConnection(server, session, [user.pageIds[0]]);
    const rawId = decodeId(done.body.connectedAccounts[0].id)!;
    const before = await storedAccount(server, rawId);
    fb.clock.advance(61 * 24 * 3600_000);
    const outcomes = await refreshTokens(server);
    assert.equal(outcomes.get(rawId), undefined);
    const now = await storedAccount(server, rawId);
    assert.equal(now.row.is_active, true);
    assert.equal(now.row.token_expires_at, null);
    assert.deepEqual(Buffer.from(now.row.access_token_enc), Buffer.from(before.row.access_token_enc));
    // 61 days on, the Page token still works (it does not expire).
    assert.equal((await graphMe(now.access!)).status, 200);
    const events = await server.db.query(`SELECT 1 FROM events WHERE org_id = $1 AND type = 'account.token_expired'`, [org.orgId]);
    assert.equal(events.rowCount, 0);
  });

  test('the user declining on the dialog sends them back with ?error=access_denied', async () => {
    userWithThreePages();
    await whileConsentDeclined(fb, () => expectConsentDeclined(server, org, 'facebook', 'session'));
  });

  test('a user without Pages gets ?error=no_accounts; a Graph outage while listing Pages is oauth_failed', async () => {
    fb.signIn(fb.addUser({ pages: [] }).id);
    const none = await connectBackToApp(server, org, 'facebook');
    assert.equal(none.get('error'), 'no_accounts');

    userWithThreePages();
    fb.failNext({ status: 500, path: `/${GRAPH_VERSION}/me/accounts` });
    const down = await connectBackToApp(server, org, 'facebook');
    assert.equal(down.get('error'), 'oauth_failed');
    assert.match(down.get('error_description')!, /list the Pages/);
  });

  test('an app secret Facebook refuses fails the connect as app_credentials_rejected naming the secret', async () => {
    const other = await server.createOrg();
    await registerApp(server, other, 'facebook', { clientId: APP.clientId, clientSecret: 'wrong-secret' });
    userWithThreePages();
    const back = await connectBackToApp(server, other, 'facebook');
    assert.equal(back.get('error'), 'app_credentials_rejected');
    assert.match(back.get('error_description')!, /client secret/);
  });
});

describe('a Business app with a Facebook Login for Business configuration (config_id)', () => {
  test('the dialog presents the configuration instead of scopes, and the connect gets its permissions', async () => {
    const business = await server.createOrg();
    const registered = await server.request('POST', '/v1/social-networks', { key: business.key, body: { network: 'facebook', client_key: APP.clientId, client_secret: APP.clientSecret, config_id: '987654321012345' } });
    assert.equal(registered.status, 201, JSON.stringify(registered.body));
    assert.equal(registered.body.data.config_id, '987654321012345');
    fb.addLoginConfiguration({ id: '987654321012345', clientId: APP.clientId, scopes: [...FACEBOOK_SCOPES] });
    const { user } = userWithThreePages();
    const { authUrl } = await connectTrip(server, business, 'facebook', {});
    assert.equal(authUrl.searchParams.get('config_id'), '987654321012345');
    assert.equal(authUrl.searchParams.get('scope'), null, 'the configuration names the permissions');
    const { session } = await connectPending(server, business, 'facebook');
    const done = await finalizeConnection(server, session, [user.pageIds[0]!]);
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(done.body.connectedAccounts.length, 1);
    // Registered again without it: back to scopes.
    await registerApp(server, business, 'facebook', APP);
    const again = await connectTrip(server, business, 'facebook', {});
    assert.equal(again.authUrl.searchParams.get('config_id'), null);
    assert.equal(again.authUrl.searchParams.get('scope'), FACEBOOK_SCOPES.join(','));
  });

  test('a configuration that is not the app\'s: the dialog refuses it (the emulator\'s invented wording)', async () => {
    const other = await server.createOrg();
    await server.request('POST', '/v1/social-networks', { key: other.key, body: { network: 'facebook', client_key: APP.clientId, client_secret: APP.clientSecret, config_id: '111' } });
    userWithThreePages();
    const started = await server.request('POST', '/v1/social-networks/facebook/auth-url', { key: other.key, body: {} });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const dialog = await fetch(started.body.data.auth_url, { redirect: 'manual' });
    assert.equal(dialog.status, 400);
    assert.match(JSON.stringify(await dialog.json()), /Invalid config_id/);
  });

  test('config_id is refused where the network\'s login takes none, and must be digits', async () => {
    const org2 = await server.createOrg();
    const onX = await server.request('POST', '/v1/social-networks', { key: org2.key, body: { network: 'x', client_key: 'k', client_secret: 's', config_id: '123' } });
    assert.equal(onX.status, 400);
    assert.deepEqual(onX.body.details, [{ field: 'config_id', message: "x's login takes no saved configuration: leave config_id out" }]);
    const letters = await server.request('POST', '/v1/social-networks', { key: org2.key, body: { network: 'instagram', client_key: 'k', client_secret: 's', config_id: 'abc' } });
    assert.equal(letters.status, 400);
    assert.deepEqual(letters.body.details, [{ field: 'config_id', message: 'must be a Facebook Login for Business configuration id (Business apps): digits, from the app dashboard' }]);
    assert.equal((await server.request('GET', '/v1/social-networks', { key: org2.key })).body.data.length, 0, 'nothing stored');
  });
});

describe('classifying Meta errors', () => {
  const res = (status: number, error?: Record<string, unknown>) => ({ status, ok: false, body: error ? { error: { type: 'OAuthException', ...error } } : undefined });
  const kind = (status: number, error?: Record<string, unknown>, grant = false) => metaError('facebook', 'x', res(status, error), grant).kind;

  test('dead tokens and refused codes are revoked; refused app credentials are client; throttling and outages are transient', () => {
    assert.equal(kind(400, { code: 190, error_subcode: 463, message: 'Error validating access token: Session has expired' }), 'revoked');
    assert.equal(kind(400, { code: 190, message: 'Invalid OAuth access token' }), 'revoked');
    assert.equal(kind(400, { code: 100, message: 'This authorization code has been used.' }, true), 'revoked');
    assert.equal(kind(400, { code: 100, message: 'Tried accessing nonexisting field' }, false), 'transient');
    assert.equal(kind(400, { code: 101, message: 'Error validating application. Invalid application ID.' }, true), 'client');
    assert.equal(kind(400, { code: 1, message: 'Error validating client secret.' }, true), 'client');
    assert.equal(kind(500, { code: 1, message: 'An unknown error has occurred.' }), 'transient');
    for (const code of [4, 17, 32, 613, 80001]) assert.equal(kind(400, { code, message: 'limit reached' }, true), 'transient', String(code));
    assert.equal(kind(502), 'transient');
    assert.equal(kind(401), 'revoked');
  });
});
