// Connecting a Vimeo account end to end over real HTTP: auth-url -> Vimeo's authorize page (the
// emulator consents at once) -> Crier's callback (JSON code exchange with Basic client credentials
// and the 3.4 Accept header; the user comes with the token) -> 302 with the account id. Vimeo tokens
// do not expire: none is stored with an expiry, and the refresher never touches them.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeId } from '../../../src/core/ids.ts';
import { startVimeoEmulator, type VimeoEmulator } from '../../../emulators/vimeo/server.ts';
import { accountRowsText, assertAuthorizeUrl, connectBackToApp, connectOne, expectConsentDeclined, listedAccount, listedProfile, reconnectSameAccount, refreshTokens, startConnectServer, stopConnectServer, storedAccount } from '../../helpers/connect.ts';
import type { TestOrg, TestServer } from '../../helpers/harness.ts';

const APP = { clientId: 'crier-vimeo-app', clientSecret: 'crier-vimeo-secret' };
const ACCEPT = 'application/vnd.vimeo.*+json;version=3.4';
let vimeo: VimeoEmulator, server: TestServer, org: TestOrg;

before(async () => ({ emulator: vimeo, server, org } = await startConnectServer('vimeo', await startVimeoEmulator(), APP)));
after(() => stopConnectServer(server, vimeo));

const me = async (token: string) => {
  const res = await fetch(`${vimeo.url}/me`, { headers: { authorization: `bearer ${token}`, accept: ACCEPT } });
  return { status: res.status, body: (await res.json()) as any };
};

describe('connecting a Vimeo account', () => {
  test('the authorize URL: Vimeo\'s page, the publishing scopes space-separated, a random state, no PKCE', async () => {
    const res = await server.request('POST', '/v1/social-networks/vimeo/auth-url', { key: org.key, body: {} });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const url = new URL(res.body.data.auth_url);
    assertAuthorizeUrl(url, `${vimeo.url}/oauth/authorize`, {
      response_type: 'code', client_id: APP.clientId, redirect_uri: `${server.config.publicBaseUrl}/oauth/callback/vimeo`, state: /^[A-Za-z0-9_-]{43}$/, code_challenge: null,
      scope: ['public', 'private', 'upload', 'edit', 'interact', 'delete'].join(' '),
    });
  });

  test('the full flow: listed with the member\'s fields, token sealed without expiry; again gives the same id', async () => {
    const user = vimeo.addUser({ name: 'Ann Films', username: 'annfilms', pictureBase: 'https://i.vimeocdn.com/portrait/777' });
    vimeo.signIn(user.id);
    const { accountId } = await connectOne(server, org, 'vimeo', { tenant_id: 'tenant_v' });
    assert.deepEqual(await listedProfile(server, org, accountId), {
      network: 'vimeo', username: 'annfilms', nickname: 'Ann Films', uid: user.id, picture: 'https://i.vimeocdn.com/portrait/777_360x360?r=pad', tenantId: 'tenant_v', accountType: 'personal', isActive: 1,
    });

    const rawId = decodeId(accountId)!;
    const stored = await storedAccount(server, rawId);
    const access = stored.access!;
    assert.ok(access);
    assert.equal(stored.row.refresh_token_enc, null);
    assert.equal(stored.row.token_expires_at, null);
    assert.equal((await me(access)).body.uri, `/users/${user.id}`);
    const dump = await accountRowsText(server);
    assert.ok(!dump.includes(access));
    assert.ok(!Buffer.from(stored.row.access_token_enc).includes(access));

    await server.db.query('UPDATE social_accounts SET is_active = false WHERE id = $1', [rawId]);
    const again = await reconnectSameAccount(server, org, 'vimeo', accountId);
    assert.equal((await listedAccount(server, org, accountId)).isActive, 1);
    assert.notEqual(again.access, access);
  });

  test('quirk: the token call is JSON with Basic client credentials and the 3.4 Accept header', async () => {
    vimeo.signIn(vimeo.addUser({}).id);
    const before = vimeo.requests().length;
    await connectOne(server, org, 'vimeo');
    const calls = vimeo.requests().slice(before).filter((r) => r.path === '/oauth/access_token');
    assert.equal(calls.length, 1);
    assert.deepEqual(
      { method: calls[0]!.method, auth: calls[0]!.auth, contentType: calls[0]!.contentType, accept: calls[0]!.accept },
      { method: 'POST', auth: 'basic', contentType: 'application/json', accept: ACCEPT },
    );
    // The user came with the token: no profile call was needed.
    assert.equal(vimeo.requests().slice(before).filter((r) => r.path === '/me').length, 0);
  });

  test('quirk: the stored token has no expiry and refreshDueTokens never touches it; a revoked one is 401 8003 until the user reconnects', async () => {
    const user = vimeo.addUser({ username: 'forever' });
    vimeo.signIn(user.id);
    const { accountId } = await connectOne(server, org, 'vimeo');
    const rawId = decodeId(accountId)!;
    const before = (await storedAccount(server, rawId)).row;
    assert.equal(before.token_expires_at, null);
    for (let i = 0; i < 2; i++) assert.equal((await refreshTokens(server)).get(rawId), undefined);
    const after = await storedAccount(server, rawId);
    assert.deepEqual([after.row.is_active, after.row.token_expires_at, Buffer.compare(after.row.access_token_enc, before.access_token_enc)], [true, null, 0]);

    const access = after.access!;
    vimeo.revokeUser(user.id);
    const revoked = await me(access);
    assert.equal(revoked.status, 401);
    assert.equal(revoked.body.error_code, 8003);
    const fresh = (await reconnectSameAccount(server, org, 'vimeo', accountId)).access!;
    assert.equal((await me(fresh)).status, 200);
  });

  test('a member without a custom URL or portrait: username "user<id>", no picture', async () => {
    const user = vimeo.addUser({ name: 'Plain', pictureBase: null });
    vimeo.signIn(user.id);
    const { accountId } = await connectOne(server, org, 'vimeo');
    const listed = await listedAccount(server, org, accountId);
    assert.deepEqual([listed.username, listed.nickname, listed.profile_picture_url], [`user${user.id}`, 'Plain', null]);
  });

  test('a refused code or refused client credentials send the user back with ?error and store nothing', async () => {
    vimeo.signIn(vimeo.addUser({ username: 'never_stored' }).id);
    vimeo.failNext({ method: 'POST', path: '/oauth/access_token', status: 400, body: { error: 'invalid_request', error_description: 'Invalid authorization code' } });
    const bad = await connectBackToApp(server, org, 'vimeo');
    assert.equal(bad.get('error'), 'oauth_failed');
    assert.match(bad.get('error_description')!, /Invalid authorization code/);

    vimeo.failNext({ method: 'POST', path: '/oauth/access_token', status: 401, body: { error: 'invalid_client', error_description: 'bad secret' } });
    const client = await connectBackToApp(server, org, 'vimeo');
    assert.equal(client.get('error'), 'app_credentials_rejected');
    const { rows } = await server.db.query(`SELECT 1 FROM social_accounts WHERE network = 'vimeo' AND username = 'never_stored'`);
    assert.equal(rows.length, 0);
  });

  test('the user declining: back with error=access_denied', async () => {
    vimeo.signIn(undefined);
    await expectConsentDeclined(server, org, 'vimeo');
  });
});
