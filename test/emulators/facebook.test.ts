// The Facebook emulator's own contract: the login dialog (error page for an unknown app or redirect
// URI, decline, "#_"), the token endpoint's Meta error bodies (wrong secret, unknown app, reused,
// expired or mismatched code), the long-lived exchange, Page tokens that never expire when taken
// from a long-lived token, /me/accounts paging, and dead tokens answering 190 with Meta's subcodes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createHmac } from 'node:crypto';
import { startFacebookEmulator, type FacebookEmulator } from '../../emulators/facebook/server.ts';

let fb: FacebookEmulator;
const APP = { clientId: '4242424242', clientSecret: 'emulator-secret' };
const REDIRECT = 'https://crier.example/oauth/callback/facebook';
const V = 'v23.0';

before(async () => {
  fb = await startFacebookEmulator();
  fb.addApp({ ...APP, redirectUris: [REDIRECT] });
});
after(() => fb.close());

const get = async (path: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${fb.url}${path}`, { headers, redirect: 'manual' });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
};
const q = (params: Record<string, string>) => new URLSearchParams(params).toString();
const dialog = (params: Record<string, string> = {}) =>
  fetch(`${fb.url}/${V}/dialog/oauth?${q({ client_id: APP.clientId, redirect_uri: REDIRECT, state: 'st', scope: 'pages_show_list,pages_manage_posts', response_type: 'code', ...params })}`, { redirect: 'manual' });
const codeFor = async () => {
  const res = await dialog();
  assert.equal(res.status, 302);
  return new URL(res.headers.get('location')!).searchParams.get('code')!;
};
const exchange = (params: Record<string, string>) => get(`/${V}/oauth/access_token?${q({ client_id: APP.clientId, client_secret: APP.clientSecret, redirect_uri: REDIRECT, ...params })}`);

/** Meta's error envelope. */
function assertMetaError(body: any, code: number, message?: RegExp, subcode?: number) {
  assert.equal(body.error.type === 'OAuthException' || body.error.type === 'GraphMethodException', true, JSON.stringify(body));
  assert.equal(body.error.code, code, JSON.stringify(body));
  assert.equal(typeof body.error.fbtrace_id, 'string');
  if (message) assert.match(body.error.message, message);
  if (subcode !== undefined) assert.equal(body.error.error_subcode, subcode);
}

describe('the Facebook emulator', () => {
  test('the dialog redirects with code, state and "#_"; an unknown app or redirect URI is an error page', async () => {
    const user = fb.addUser({});
    fb.signIn(user.id);
    const ok = await dialog();
    assert.equal(ok.status, 302);
    const location = ok.headers.get('location')!;
    assert.ok(location.endsWith('#_'), location);
    const back = new URL(location);
    assert.equal(`${back.origin}${back.pathname}`, REDIRECT);
    assert.equal(back.searchParams.get('state'), 'st');
    assert.ok(back.searchParams.get('code'));

    const badRedirect = await dialog({ redirect_uri: 'https://evil.example/cb' });
    assert.equal(badRedirect.status, 400);
    assert.equal(badRedirect.headers.get('location'), null);
    assertMetaError(await badRedirect.json(), 191, /redirect/i);
    const badApp = await dialog({ client_id: '999' });
    assert.equal(badApp.status, 400);
    assertMetaError(await badApp.json(), 101);
    const badScope = await dialog({ scope: 'pages_show_list,publish_actions' });
    assert.equal(badScope.status, 400);
    assertMetaError(await badScope.json(), 100, /Invalid Scopes: publish_actions/);
  });

  test('a declining user is sent back with error=access_denied&error_reason=user_denied', async () => {
    const user = fb.addUser({});
    fb.signIn(user.id);
    fb.declineConsent(true);
    try {
      const res = await dialog();
      assert.equal(res.status, 302);
      const back = new URL(res.headers.get('location')!);
      assert.equal(back.searchParams.get('error'), 'access_denied');
      assert.equal(back.searchParams.get('error_reason'), 'user_denied');
      assert.equal(back.searchParams.get('state'), 'st');
      assert.equal(back.searchParams.get('code'), null);
    } finally {
      fb.declineConsent(false);
    }
  });

  test('the code grant: wrong secret, unknown app, wrong redirect_uri, reused and expired codes', async () => {
    const user = fb.addUser({});
    fb.signIn(user.id);
    const wrongSecret = await exchange({ code: await codeFor(), client_secret: 'nope' });
    assert.equal(wrongSecret.status, 400);
    assertMetaError(wrongSecret.body, 1, /client secret/);
    const unknownApp = await exchange({ code: await codeFor(), client_id: '1' });
    assertMetaError(unknownApp.body, 101, /Invalid application ID/);
    const mismatch = await exchange({ code: await codeFor(), redirect_uri: 'https://crier.example/other' });
    assertMetaError(mismatch.body, 100, /redirect_uri is identical/);
    assertMetaError((await exchange({ code: 'garbage' })).body, 100, /Invalid verification code format/);

    const code = await codeFor();
    const first = await exchange({ code });
    assert.equal(first.status, 200);
    assert.deepEqual(Object.keys(first.body).sort(), ['access_token', 'expires_in', 'token_type']);
    assert.equal(first.body.token_type, 'bearer');
    assert.ok(first.body.expires_in <= 7200);
    const reused = await exchange({ code });
    assert.equal(reused.status, 400);
    assertMetaError(reused.body, 100, /This authorization code has been used/);
    assert.match(reused.headers.get('www-authenticate')!, /invalid_code/);

    const late = await codeFor();
    fb.clock.advance(11 * 60_000);
    assertMetaError((await exchange({ code: late })).body, 100, /expired/);
    // There is no refresh grant.
    assertMetaError((await exchange({ grant_type: 'refresh_token', refresh_token: 'x' })).body, 100, /Invalid grant_type/);
  });

  test('fb_exchange_token gives a ~60-day token whose Page tokens never expire; a short-lived one\'s Page tokens do', async () => {
    const user = fb.addUser({ name: 'Token Owner', pages: [{ name: 'Owned Page', username: 'ownedpage' }] });
    fb.signIn(user.id);
    const short = (await exchange({ code: await codeFor() })).body.access_token;
    const long = await get(`/${V}/oauth/access_token?${q({ grant_type: 'fb_exchange_token', client_id: APP.clientId, client_secret: APP.clientSecret, fb_exchange_token: short })}`);
    assert.equal(long.status, 200);
    assert.equal(long.body.expires_in, 60 * 24 * 3600);
    assert.notEqual(long.body.access_token, short);
    const badExchange = await get(`/${V}/oauth/access_token?${q({ grant_type: 'fb_exchange_token', client_id: APP.clientId, client_secret: APP.clientSecret, fb_exchange_token: 'junk' })}`);
    assertMetaError(badExchange.body, 190);

    const fromLong = (await get(`/${V}/me/accounts?fields=id,access_token`, { authorization: `Bearer ${long.body.access_token}` })).body.data[0].access_token;
    const fromShort = (await get(`/${V}/me/accounts?fields=id,access_token&access_token=${short}`)).body.data[0].access_token;
    const debug = async (token: string) => (await get(`/${V}/debug_token?${q({ input_token: token, access_token: `${APP.clientId}|${APP.clientSecret}` })}`)).body.data;
    assert.deepEqual({ type: (await debug(fromLong)).type, expires: (await debug(fromLong)).expires_at }, { type: 'PAGE', expires: 0 });
    assert.ok((await debug(fromShort)).expires_at > 0);
    const me = await get(`/${V}/me?fields=id,name,username&access_token=${fromLong}`);
    assert.deepEqual(me.body, { id: user.pageIds[0], name: 'Owned Page', username: 'ownedpage' });

    fb.clock.advance(2 * 3600_000);
    const expired = await get(`/${V}/me?access_token=${fromShort}`);
    assert.equal(expired.status, 400);
    assertMetaError(expired.body, 190, /Session has expired/, 463);
    assert.equal((await get(`/${V}/me?access_token=${fromLong}`)).status, 200);

    fb.revokeUser(user.id);
    const revoked = await get(`/${V}/me?access_token=${fromLong}`);
    assertMetaError(revoked.body, 190, /has not authorized application/, 458);
    assertMetaError((await get(`/${V}/me?access_token=never-issued`)).body, 190, /Cannot parse access token/);
    assertMetaError((await get(`/${V}/me`)).body, 2500);
  });

  test('/me/accounts pages with cursors and paging.next; fields expand; appsecret_proof is checked', async () => {
    const user = fb.addUser({ pages: [{ name: 'P1', instagram: { username: 'ig_one' } }, { name: 'P2', username: null }, { name: 'P3' }] });
    fb.signIn(user.id);
    const token = (await exchange({ code: await codeFor() })).body.access_token;
    const fields = 'id,name,username,picture{url},instagram_business_account{id,username}';
    const first = await get(`/${V}/me/accounts?${q({ fields, limit: '2', access_token: token })}`);
    assert.equal(first.status, 200);
    assert.deepEqual(first.body.data.map((p: any) => p.name), ['P1', 'P2']);
    assert.equal(first.body.data[0].instagram_business_account.username, 'ig_one');
    assert.equal(first.body.data[1].username, undefined);
    assert.equal(first.body.data[1].instagram_business_account, undefined);
    assert.deepEqual(Object.keys(first.body.data[0].picture.data), ['url']);
    assert.ok(first.body.paging.cursors.after);
    const second = await get(new URL(first.body.paging.next).pathname + new URL(first.body.paging.next).search);
    assert.deepEqual(second.body.data.map((p: any) => p.name), ['P3']);
    assert.equal(second.body.paging.next, undefined);

    const missing = await get(`/${V}/me/accounts?${q({ fields: 'id,bogus', access_token: token })}`);
    assertMetaError(missing.body, 100, /nonexisting field \(bogus\) on node type \(Page\)/);
    const proof = createHmac('sha256', APP.clientSecret).update(token).digest('hex');
    assert.equal((await get(`/${V}/me/accounts?${q({ access_token: token, appsecret_proof: proof })}`)).status, 200);
    assertMetaError((await get(`/${V}/me/accounts?${q({ access_token: token, appsecret_proof: 'bad' })}`)).body, 100, /appsecret_proof/);
    // An Instagram account is readable through its Page.
    const ig = first.body.data[0].instagram_business_account;
    assert.deepEqual((await get(`/${V}/${ig.id}?fields=id,username&access_token=${token}`)).body, { id: ig.id, username: 'ig_one' });
  });

  test('failNext answers a Meta error body with the status', async () => {
    fb.failNext({ status: 503, path: `/${V}/me/accounts` });
    const res = await get(`/${V}/me/accounts?access_token=x`);
    assert.equal(res.status, 503);
    assertMetaError(res.body, 2);
  });
});
