// The Mastodon emulator's OAuth as the documentation describes it, over raw HTTP
// (https://docs.joinmastodon.org/methods/apps/, /methods/oauth/): an app registered by anyone, the
// authorize page that consents for the signed-in account, the code grant with PKCE (a wrong verifier,
// a code used twice, another app's secret refused as Doorkeeper refuses them), a token that works with
// its scopes only; and masto.js's own app and token calls, unchanged, against it.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createOAuthAPIClient, createRestAPIClient } from 'masto';
import { startMastodonEmulator, type Account, type MastodonEmulator } from '../../emulators/mastodon/server.ts';

const CALLBACK = 'https://crier.example/oauth/callback/mastodon';
let masto: MastodonEmulator;
let alice: Account;

before(async () => {
  masto = await startMastodonEmulator();
  alice = masto.addAccount({ username: 'alice' });
  masto.signIn(alice.id);
});
after(() => masto.close());

async function json(path: string, init: { method?: string; body?: unknown; form?: Record<string, string>; token?: string } = {}) {
  const headers: Record<string, string> = init.token ? { authorization: `Bearer ${init.token}` } : {};
  let body: string | undefined;
  if (init.body !== undefined) [headers['content-type'], body] = ['application/json', JSON.stringify(init.body)];
  if (init.form) [headers['content-type'], body] = ['application/x-www-form-urlencoded', new URLSearchParams(init.form).toString()];
  const res = await fetch(`${masto.url}${path}`, { method: init.method ?? (body ? 'POST' : 'GET'), headers, body, redirect: 'manual' });
  const text = await res.text();
  return { status: res.status, location: res.headers.get('location'), body: text ? JSON.parse(text) : undefined };
}

const registerApp = (scopes = 'read:accounts write:statuses') => json('/api/v1/apps', { body: { client_name: 'Crier', redirect_uris: CALLBACK, scopes, website: 'https://crier.example' } });

/** The authorize page's answer: where it sends the browser back, as query parameters. */
async function authorize(clientId: string, params: Record<string, string>) {
  const query = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: CALLBACK, state: 's1', ...params });
  const res = await json(`/oauth/authorize?${query}`);
  assert.equal(res.status, 302, JSON.stringify(res.body));
  return Object.fromEntries(new URL(res.location!).searchParams);
}

const challengeOf = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

describe('the Mastodon emulator\'s OAuth', () => {
  test('POST /api/v1/apps: the Application with its credentials; 422 without a name or with a relative redirect URI', async () => {
    const res = await registerApp();
    assert.equal(res.status, 200);
    assert.deepEqual([res.body.name, res.body.website, res.body.scopes, res.body.redirect_uris, res.body.redirect_uri], ['Crier', 'https://crier.example', ['read:accounts', 'write:statuses'], [CALLBACK], CALLBACK]);
    assert.ok(res.body.client_id && res.body.client_secret);
    assert.deepEqual(await json('/api/v1/apps', { body: { redirect_uris: CALLBACK } }).then((r) => [r.status, r.body]), [422, { error: "Validation failed: Application name can't be blank" }]);
    assert.deepEqual(await json('/api/v1/apps', { body: { client_name: 'x', redirect_uris: '/callback' } }).then((r) => [r.status, r.body]), [422, { error: 'Validation failed: Redirect URI must be an absolute URI.' }]);
    const array = await json('/api/v1/apps', { body: { client_name: 'x', redirect_uris: [CALLBACK, 'https://other.example/cb'] } });
    assert.deepEqual([array.status, array.body.redirect_uris, array.body.scopes], [200, [CALLBACK, 'https://other.example/cb'], ['read']]);
  });

  test('authorize with PKCE, then the token: it works on the API with the scopes granted, no more', async () => {
    const app = (await registerApp()).body;
    const verifier = randomBytes(32).toString('base64url');
    const back = await authorize(app.client_id, { scope: 'read:accounts', code_challenge: challengeOf(verifier), code_challenge_method: 'S256' });
    assert.equal(back.state, 's1');
    const token = await json('/oauth/token', { form: { grant_type: 'authorization_code', code: back.code!, client_id: app.client_id, client_secret: app.client_secret, redirect_uri: CALLBACK, code_verifier: verifier } });
    assert.equal(token.status, 200, JSON.stringify(token.body));
    assert.deepEqual([token.body.token_type, token.body.scope, typeof token.body.created_at], ['Bearer', 'read:accounts', 'number']);
    const me = await json('/api/v1/accounts/verify_credentials', { token: token.body.access_token });
    assert.deepEqual([me.status, me.body.id, me.body.acct], [200, alice.id, 'alice']);
    const post = await json('/api/v1/statuses', { body: { status: 'not granted' }, token: token.body.access_token });
    assert.deepEqual([post.status, post.body], [403, { error: 'This action is outside the authorized scopes' }]);
  });

  test('a wrong PKCE verifier, a code used twice, another secret: refused as Doorkeeper refuses them', async () => {
    const app = (await registerApp()).body;
    const verifier = randomBytes(32).toString('base64url');
    const exchange = (code: string, overrides: Record<string, string> = {}) => json('/oauth/token', {
      form: { grant_type: 'authorization_code', code, client_id: app.client_id, client_secret: app.client_secret, redirect_uri: CALLBACK, code_verifier: verifier, ...overrides },
    });
    const pkce = { scope: 'read:accounts', code_challenge: challengeOf(verifier), code_challenge_method: 'S256' };
    const wrong = await exchange((await authorize(app.client_id, pkce)).code!, { code_verifier: randomBytes(32).toString('base64url') });
    assert.deepEqual([wrong.status, wrong.body.error], [400, 'invalid_grant']);
    assert.match(wrong.body.error_description, /authorization grant is invalid/);
    const code = (await authorize(app.client_id, pkce)).code!;
    assert.equal((await exchange(code)).status, 200);
    assert.deepEqual(await exchange(code).then((r) => [r.status, r.body.error]), [400, 'invalid_grant']);
    const stranger = await exchange((await authorize(app.client_id, pkce)).code!, { client_secret: 'not-the-secret' });
    assert.deepEqual([stranger.status, stranger.body.error], [401, 'invalid_client']);
  });

  test('authorize: a scope beyond the app\'s, or nobody signed in, goes back with the error; an unknown redirect URI stays', async () => {
    const app = (await registerApp('read:accounts')).body;
    assert.deepEqual(await authorize(app.client_id, { scope: 'write:statuses' }).then((q) => [q.error, q.state]), ['invalid_scope', 's1']);
    masto.signIn(undefined);
    try {
      assert.equal((await authorize(app.client_id, { scope: 'read:accounts' })).error, 'access_denied');
    } finally {
      masto.signIn(alice.id);
    }
    const stray = await json(`/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: app.client_id, redirect_uri: 'https://evil.example/cb' })}`);
    assert.deepEqual([stray.status, stray.body.error], [400, 'invalid_redirect_uri']);
  });

  test('masto.js registers an app and exchanges a code, unchanged', async () => {
    const rest = createRestAPIClient({ url: masto.url });
    const app = await rest.v1.apps.create({ clientName: 'masto.js', redirectUris: CALLBACK, scopes: 'read write', website: 'https://masto.example' });
    assert.ok(app.clientId && app.clientSecret);
    // masto's token call has no code_verifier: the authorize goes without PKCE, which Mastodon allows.
    const { code } = await authorize(app.clientId!, { scope: 'read write' });
    const oauth = createOAuthAPIClient({ url: masto.url });
    const token = await oauth.token.create({ grantType: 'authorization_code', clientId: app.clientId!, clientSecret: app.clientSecret!, redirectUri: CALLBACK, code: code! });
    assert.equal(token.scope, 'read write');
    const me = await createRestAPIClient({ url: masto.url, accessToken: token.accessToken }).v1.accounts.verifyCredentials();
    assert.equal(me.id, alice.id);
    const status = await createRestAPIClient({ url: masto.url, accessToken: token.accessToken }).v1.statuses.create({ status: 'through masto and OAuth' });
    assert.equal(masto.statusesOf(alice.id).at(-1)!.id, status.id);
  });
});
