// Connecting Instagram professional accounts through Facebook Login for Business, end to end over
// real HTTP: the same Facebook dialog and token exchanges with the Instagram scopes, then the IG
// accounts linked to the user's Pages (instagram_business_account) offered in a pending session;
// each publishes with its Page's never-expiring token. Pages without an IG account are left out.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeId } from '../../../src/core/ids.ts';
import { GRAPH_VERSION } from '../../../src/networks/meta/graph-version.ts';
import { startFacebookEmulator, type FacebookEmulator } from '../../../emulators/facebook/server.ts';
import { accountRowsText, assertAuthorizeUrl, connectBackToApp, connectPending, connectTrip, expectConsentDeclined, finalizeConnection, listedAccount, pendingConnection, refreshTokens, startConnectServer, stopConnectServer, storedAccount, whileConsentDeclined } from '../../helpers/connect.ts';
import type { TestOrg, TestServer } from '../../helpers/harness.ts';

let fb: FacebookEmulator, server: TestServer, org: TestOrg;
const APP = { clientId: '9876543210', clientSecret: 'instagram-via-facebook-secret' };

before(async () => ({ emulator: fb, server, org } = await startConnectServer('instagram', await startFacebookEmulator(), APP)));
after(() => stopConnectServer(server, fb));

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
    assertAuthorizeUrl(authUrl, `${fb.url}/${GRAPH_VERSION}/dialog/oauth`, {
      client_id: APP.clientId, redirect_uri: `${server.config.publicBaseUrl}/oauth/callback/instagram`, response_type: 'code',
      scope: [
        'instagram_basic', 'instagram_content_publish', 'instagram_manage_comments',
        'pages_show_list', 'pages_read_engagement', 'business_management',
        'instagram_manage_insights', 'instagram_manage_contents',
      ].join(','),
    });
  });

  test('two Pages, one with an Instagram account: exactly that account is offered, connected with its Page token', async () => {
    const user = userWithOneInstagram();
    const [brandPage] = user.pageIds;
    const calls = fb.tokenCalls().length;
    const { session } = await connectPending(server, org, 'instagram', { tenant_id: 'tenant_ig' });
    assert.deepEqual(fb.tokenCalls().slice(calls).map((c) => c.grant), ['authorization_code', 'fb_exchange_token']);

    const view = await pendingConnection(server, session);
    assert.equal(view.status, 200);
    assert.equal(view.body.data.network, 'instagram');
    assert.equal(view.body.data.availablePages.length, 1);
    const offered = view.body.data.availablePages[0];
    assert.deepEqual({ ...offered, id: undefined }, { id: undefined, type: 'business', name: 'Brand On IG', username: 'brand.ig', profilePictureUrl: 'https://cdn.example/brand-ig.jpg' });
    assert.match(offered.id, /^1784\d+$/);
    assert.doesNotMatch(JSON.stringify(view.body), /EAAB-|access_?token/i);

    const done = await finalizeConnection(server, session, [offered.id]);
    assert.equal(done.status, 200, JSON.stringify(done.body));
    const account = await listedAccount(server, org, done.body.connectedAccounts[0].id);
    assert.deepEqual(
      { network: account.network, username: account.username, nickname: account.nickname, uid: account.network_unique_id, picture: account.profile_picture_url, tenantId: account.tenantId, type: account.accountType, isActive: account.isActive },
      { network: 'instagram', username: 'brand.ig', nickname: 'Brand On IG', uid: offered.id, picture: 'https://cdn.example/brand-ig.jpg', tenantId: 'tenant_ig', type: 'business', isActive: 1 },
    );

    // The stored token is the linked Page's token: /me is the Page, and the IG account is reachable with it.
    const rawId = decodeId(account.id)!;
    const stored = await storedAccount(server, rawId);
    const access = stored.access!;
    assert.equal((await graph('/me?fields=id', access)).body.id, brandPage);
    assert.equal(await igIdOf(brandPage!, access), offered.id);
    assert.deepEqual((await graph(`/${offered.id}?fields=id,username`, access)).body, { id: offered.id, username: 'brand.ig' });
    assert.equal(stored.row.token_expires_at, null);
    assert.equal(fb.tokenInfo(access)?.expiresAtMs, null);
    const dump = await accountRowsText(server);
    assert.ok(!dump.includes(access));

    // Connecting it again later: the same account, a new token; the refresher never touches it.
    const again = await connectPending(server, org, 'instagram');
    const second = await finalizeConnection(server, again.session, [offered.id]);
    assert.equal(second.body.connectedAccounts[0].id, account.id);
    const newer = (await storedAccount(server, rawId)).access!;
    assert.notEqual(newer, access);
    fb.clock.advance(61 * 24 * 3600_000);
    assert.equal((await refreshTokens(server)).get(rawId), undefined);
    assert.equal((await graph('/me?fields=id', newer)).status, 200);
  });

  test('a login whose Pages have no Instagram account at all: ?error=no_accounts', async () => {
    fb.signIn(fb.addUser({ pages: [{ name: 'Only Facebook' }, { name: 'Also Only Facebook' }] }).id);
    const back = await connectBackToApp(server, org, 'instagram');
    assert.equal(back.get('error'), 'no_accounts');
    assert.equal(back.get('session'), null);
  });

  test('the user declining on the dialog sends them back with ?error=access_denied', async () => {
    userWithOneInstagram();
    await whileConsentDeclined(fb, () => expectConsentDeclined(server, org, 'instagram', 'session'));
  });

  test('a revoked login (the user removed the app) fails the connect as oauth_failed', async () => {
    userWithOneInstagram();
    fb.failNext({ status: 400, path: `/${GRAPH_VERSION}/me/accounts`, body: { error: { message: 'Error validating access token: The user has not authorized application 9876543210.', type: 'OAuthException', code: 190, error_subcode: 458, fbtrace_id: 'x' } } });
    const back = await connectBackToApp(server, org, 'instagram');
    assert.equal(back.get('error'), 'oauth_failed');
    assert.match(back.get('error_description')!, /#190\/458/);
  });
});
