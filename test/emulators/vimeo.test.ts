// The Vimeo emulator's OAuth contract over real HTTP: the authorize page's checks, the code exchange
// (Basic client credentials, JSON body, single-use codes, exact redirect_uri) with the user in the
// answer and no expiry or refresh token, GET /me's 401 bodies for unknown and revoked tokens, and the
// engagement paths (one-tier replies, DELETE with its scope, video and member figures).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startVimeoEmulator, type VimeoEmulator } from '../../emulators/index.ts';

const APP = { clientId: 'vimeo-client', clientSecret: 'vimeo-secret' };
const REDIRECT = 'https://crier.example/oauth/callback/vimeo';
const ACCEPT = 'application/vnd.vimeo.*+json;version=3.4';
let vimeo: VimeoEmulator;

before(async () => {
  vimeo = await startVimeoEmulator();
  vimeo.addApp({ ...APP, redirectUris: [REDIRECT] });
});
after(() => vimeo.close());

function authorizeUrl(params: Record<string, string> = {}): string {
  const url = new URL(`${vimeo.url}/oauth/authorize`);
  url.search = new URLSearchParams({ response_type: 'code', client_id: APP.clientId, redirect_uri: REDIRECT, state: 'st', scope: 'public private upload', ...params }).toString();
  return url.toString();
}

async function consent(params: Record<string, string> = {}): Promise<URL> {
  const res = await fetch(authorizeUrl(params), { redirect: 'manual' });
  assert.equal(res.status, 302, await res.clone().text());
  return new URL(res.headers.get('location')!);
}

async function token(body: unknown, opts: { auth?: string | null; contentType?: string } = {}) {
  const auth = opts.auth === undefined ? `${APP.clientId}:${APP.clientSecret}` : opts.auth;
  const res = await fetch(`${vimeo.url}/oauth/access_token`, {
    method: 'POST',
    headers: {
      accept: ACCEPT,
      'content-type': opts.contentType ?? 'application/json',
      ...(auth ? { authorization: `Basic ${Buffer.from(auth).toString('base64')}` } : {}),
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

const me = async (accessToken?: string) => {
  const res = await fetch(`${vimeo.url}/me`, { headers: { accept: ACCEPT, ...(accessToken ? { authorization: `bearer ${accessToken}` } : {}) } });
  return { status: res.status, body: (await res.json()) as any };
};

async function signedInCode(): Promise<{ code: string; userId: string }> {
  const user = vimeo.addUser({});
  vimeo.signIn(user.id);
  return { code: (await consent()).searchParams.get('code')!, userId: user.id };
}

describe('the Vimeo authorize page', () => {
  test('an unknown client or an unregistered redirect_uri is an error page, not a redirect', async () => {
    for (const params of [{ client_id: 'nope' }, { redirect_uri: 'https://evil.example/cb' }] as Record<string, string>[]) {
      const res = await fetch(authorizeUrl(params), { redirect: 'manual' });
      assert.equal(res.status, 400);
      assert.equal(res.headers.get('location'), null);
      assert.equal(((await res.json()) as any).error_code, 2002);
    }
  });

  test('request problems and a declining user go back to the redirect URI with error and state', async () => {
    vimeo.signIn(vimeo.addUser({}).id);
    assert.equal((await consent({ scope: 'public telepathy' })).searchParams.get('error'), 'invalid_scope');
    assert.equal((await consent({ response_type: 'token' })).searchParams.get('error'), 'unsupported_response_type');
    assert.equal((await consent({ state: '' })).searchParams.get('error'), 'invalid_request');
    vimeo.signIn(undefined);
    const denied = await consent();
    assert.deepEqual([denied.searchParams.get('error'), denied.searchParams.get('state')], ['access_denied', 'st']);
  });

  test('the signed-in user consents at once: code and state', async () => {
    vimeo.signIn(vimeo.addUser({}).id);
    const back = await consent();
    assert.equal(`${back.origin}${back.pathname}`, REDIRECT);
    assert.equal(back.searchParams.get('state'), 'st');
    assert.ok(back.searchParams.get('code'));
  });
});

describe('the Vimeo token endpoint', () => {
  test('a code gives a non-expiring token with the user and the app, and no refresh token', async () => {
    const user = vimeo.addUser({ name: 'Ann Films', username: 'annfilms', pictureBase: 'https://i.vimeocdn.com/portrait/42' });
    vimeo.signIn(user.id);
    const code = (await consent({ scope: 'public private upload edit interact' })).searchParams.get('code')!;
    const res = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body).sort(), ['access_token', 'app', 'scope', 'token_type', 'user']);
    assert.equal(res.body.token_type, 'bearer');
    assert.equal(res.body.scope, 'public private upload edit interact');
    assert.equal(res.body.user.uri, `/users/${user.id}`);
    assert.equal(res.body.user.link, 'https://vimeo.com/annfilms');
    assert.equal(res.body.user.pictures.sizes.at(-1).link, 'https://i.vimeocdn.com/portrait/42_360x360?r=pad');
    // Vimeo user tokens do not expire: a year later the token still works.
    vimeo.clock.advance(365 * 24 * 3600 * 1000);
    const later = await me(res.body.access_token);
    assert.equal(later.status, 200);
    assert.equal(later.body.name, 'Ann Films');
  });

  test('wrong or missing client credentials: 401 invalid_client', async () => {
    const { code } = await signedInCode();
    for (const auth of [`${APP.clientId}:wrong`, 'unknown:secret', null]) {
      const res = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT }, { auth });
      assert.equal(res.status, 401, String(auth));
      assert.equal(res.body.error, 'invalid_client');
    }
  });

  test('a form-encoded body is refused (the call is JSON)', async () => {
    const { code } = await signedInCode();
    const form = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT }).toString();
    const res = await token(form, { contentType: 'application/x-www-form-urlencoded' });
    assert.equal(res.status, 400);
    assert.equal(res.body.error, 'invalid_request');
    // The code was not consumed by the refused call.
    assert.equal((await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT })).status, 200);
  });

  test('a reused, unknown or expired code and another redirect_uri: 400 invalid_request', async () => {
    const { code } = await signedInCode();
    assert.equal((await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT })).status, 200);
    const reused = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
    assert.deepEqual(reused, { status: 400, body: { error: 'invalid_request', error_description: 'Invalid authorization code' } });
    assert.equal((await token({ grant_type: 'authorization_code', code: 'made-up', redirect_uri: REDIRECT })).body.error_description, 'Invalid authorization code');
    const other = await signedInCode();
    const mismatch = await token({ grant_type: 'authorization_code', code: other.code, redirect_uri: 'https://crier.example/elsewhere' });
    assert.equal(mismatch.status, 400);
    assert.equal(mismatch.body.error, 'invalid_request');
    const late = await signedInCode();
    vimeo.clock.advance(11 * 60 * 1000);
    assert.equal((await token({ grant_type: 'authorization_code', code: late.code, redirect_uri: REDIRECT })).status, 400);
    assert.equal((await token({ grant_type: 'client_credentials' })).body.error, 'unsupported_grant_type');
  });
});

describe('GET /me', () => {
  test('no or an unknown token: 401 error_code 8000 in Vimeo\'s envelope', async () => {
    for (const t of [undefined, 'never-issued']) {
      const res = await me(t);
      assert.equal(res.status, 401);
      assert.deepEqual(Object.keys(res.body).sort(), ['developer_message', 'error', 'error_code', 'link']);
      assert.equal(res.body.error_code, 8000);
      assert.equal(res.body.link, null);
    }
  });

  test('a revoked token (the user removed the app, or DELETE /tokens): 401 error_code 8003', async () => {
    const { code, userId } = await signedInCode();
    const { body } = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
    assert.equal((await me(body.access_token)).status, 200);
    vimeo.revokeUser(userId);
    const revoked = await me(body.access_token);
    assert.equal(revoked.status, 401);
    assert.equal(revoked.body.error_code, 8003);
    assert.equal(revoked.body.error, 'The user credentials are invalid.');

    const second = await signedInCode();
    const t2 = (await token({ grant_type: 'authorization_code', code: second.code, redirect_uri: REDIRECT })).body.access_token;
    const del = await fetch(`${vimeo.url}/tokens`, { method: 'DELETE', headers: { authorization: `bearer ${t2}`, accept: ACCEPT } });
    assert.equal(del.status, 204);
    assert.equal((await me(t2)).body.error_code, 8003);
  });

  test('a member without a custom portrait lists Vimeo\'s default pictures', async () => {
    const user = vimeo.addUser({ pictureBase: null });
    vimeo.signIn(user.id);
    const code = (await consent()).searchParams.get('code')!;
    const { body } = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
    assert.equal(body.user.pictures.type, 'default');
    assert.equal(body.user.pictures.active, false);
    assert.equal(body.user.link, `https://vimeo.com/user${user.id}`);
  });

  test('requests() records the Accept header and the auth scheme of each call', async () => {
    await me('whatever');
    const last = vimeo.requests().at(-1)!;
    assert.deepEqual([last.method, last.path, last.accept, last.auth], ['GET', '/me', ACCEPT, 'bearer']);
  });
});

describe('the Vimeo paths engagement reads and writes', () => {
  const call = async (method: string, path: string, accessToken: string, json?: unknown) => {
    const res = await fetch(vimeo.url + path, {
      method,
      headers: { authorization: `bearer ${accessToken}`, accept: ACCEPT, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const member = (scopes = ['public', 'private', 'upload', 'interact', 'delete']) => {
    const user = vimeo.addUser({});
    return { user, token: vimeo.oauth.issue(user.id, APP.clientId, scopes).accessToken };
  };
  const video = async (token: string) => (await call('POST', '/me/videos', token, { upload: { approach: 'tus', size: 10 }, name: 'V' })).body.uri as string;

  test('replies are one tier: listed under their comment only, with the comment\'s replies total; a reply takes none', async () => {
    const { user, token } = member();
    const uri = await video(token);
    const id = uri.split('/').at(-1)!;
    const top = vimeo.addComment(id, { userId: user.id, text: 'top' });
    for (const text of ['a', 'b', 'c']) await call('POST', `${uri}/comments/${top}/replies`, token, { text });
    const comments = await call('GET', `${uri}/comments`, token);
    assert.deepEqual(comments.body.data.map((c: any) => [c.text, c.metadata.connections.replies.total]), [['top', 3]]);
    const replies = await call('GET', `${uri}/comments/${top}/replies?per_page=2&direction=asc`, token);
    assert.deepEqual(replies.body.data.map((c: any) => c.text), ['a', 'b']);
    assert.equal(replies.body.paging.next, `${uri}/comments/${top}/replies?per_page=2&direction=asc&page=2`);
    const replyId = replies.body.data[0].uri.split('/').at(-1);
    const deeper = await call('POST', `${uri}/comments/${replyId}/replies`, token, { text: 'deeper' });
    assert.equal(deeper.status, 404);
    assert.deepEqual(Object.keys(deeper.body).sort(), ['developer_message', 'error', 'error_code', 'link']);
    assert.equal(deeper.body.error_code, 5000);
  });

  test('another member\'s public video is read and commented on; editing and deleting it stay the owner\'s (403)', async () => {
    const owner = member(['public', 'private', 'upload', 'interact', 'delete', 'edit']);
    const other = member(['public', 'private', 'interact', 'edit', 'delete']);
    const uri = await video(owner.token);
    const read = await call('GET', `${uri}?fields=uri,name,privacy.view,user.uri,upload.upload_link`, other.token);
    assert.equal(read.status, 200, JSON.stringify(read.body));
    assert.deepEqual(read.body, { uri, name: 'V', privacy: { view: 'anybody' }, user: { uri: `/users/${owner.user.id}` }, upload: { upload_link: null } });
    const comment = await call('POST', `${uri}/comments`, other.token, { text: 'nice one' });
    assert.equal(comment.status, 201, JSON.stringify(comment.body));
    assert.equal(comment.body.user.uri, `/users/${other.user.id}`);
    const commentId = comment.body.uri.split('/').at(-1);
    const reply = await call('POST', `${uri}/comments/${commentId}/replies`, owner.token, { text: 'thanks' });
    assert.equal(reply.status, 201);
    assert.equal((await call('POST', `${uri}/comments/${commentId}/replies`, other.token, { text: 'welcome' })).status, 201);
    const listed = await call('GET', `${uri}/comments`, other.token);
    assert.deepEqual(listed.body.data.map((c: any) => [c.text, c.metadata.connections.replies.total]), [['nice one', 2]]);
    const replies = await call('GET', `${uri}/comments/${commentId}/replies?direction=asc`, other.token);
    assert.deepEqual(replies.body.data.map((c: any) => c.text), ['thanks', 'welcome']);
    for (const [method, body] of [['PATCH', { name: 'mine now' }], ['DELETE', undefined]] as const) {
      const refused = await call(method, uri, other.token, body);
      assert.equal(refused.status, 403, `${method}: ${JSON.stringify(refused.body)}`);
      assert.deepEqual(Object.keys(refused.body).sort(), ['developer_message', 'error', 'error_code', 'link']);
      assert.match(refused.body.error, /^The authenticated user doesn't own the video/);
    }
    assert.equal(vimeo.videos().find((v) => v.uri === uri)!.name, 'V');
    assert.equal(vimeo.videos().find((v) => v.uri === uri)!.deleted, false);
  });

  test('another member\'s private video stays 404 on every route; a contacts-only comment section refuses others 403 3412', async () => {
    const owner = member(['public', 'private', 'upload', 'interact', 'edit']);
    const other = member(['public', 'private', 'interact', 'edit', 'delete']);
    const uri = await video(owner.token);
    const id = uri.split('/').at(-1)!;
    const top = vimeo.addComment(id, { userId: owner.user.id, text: 'top' });
    assert.equal((await call('PATCH', uri, owner.token, { privacy: { view: 'nobody' } })).status, 200);
    for (const [method, path, body] of [
      ['GET', uri], ['PATCH', uri, { name: 'x' }], ['DELETE', uri], ['GET', `${uri}/comments`], ['POST', `${uri}/comments`, { text: 'hi' }],
      ['GET', `${uri}/comments/${top}/replies`], ['POST', `${uri}/comments/${top}/replies`, { text: 'hi' }],
    ] as const) {
      const answer = await call(method, path, other.token, body);
      assert.deepEqual([answer.status, answer.body.error_code], [404, 5000], `${method} ${path}`);
    }
    assert.equal((await call('GET', uri, owner.token)).status, 200, 'the owner still reads it');
    assert.equal((await call('PATCH', uri, owner.token, { privacy: { view: 'users', comments: 'contacts' } })).status, 200);
    assert.equal((await call('GET', uri, other.token)).status, 200, 'view users: any logged-in member');
    const closed = await call('POST', `${uri}/comments`, other.token, { text: 'hi' });
    assert.deepEqual([closed.status, closed.body.error_code], [403, 3412]);
    assert.equal((await call('POST', `${uri}/comments`, owner.token, { text: 'mine' })).status, 201, 'the owner comments on their own video');
  });

  test('DELETE /videos/{id} needs the delete scope; the video is gone after; the figures read back', async () => {
    const { user, token } = member();
    const narrow = vimeo.oauth.issue(user.id, APP.clientId, ['public', 'private']).accessToken;
    const uri = await video(token);
    const id = uri.split('/').at(-1)!;
    vimeo.setVideoStats(id, { plays: 12, likes: 3 });
    vimeo.setFollowers(user.id, { followers: 9, following: 4 });
    const stats = await call('GET', `${uri}?fields=stats.plays,metadata.connections.likes.total,metadata.connections.comments.total`, token);
    assert.deepEqual(stats.body, { stats: { plays: 12 }, metadata: { connections: { likes: { total: 3 }, comments: { total: 0 } } } });
    const meBody = await call('GET', '/me?fields=metadata.connections.followers.total,metadata.connections.following.total,metadata.connections.videos.total', token);
    assert.deepEqual(meBody.body, { metadata: { connections: { followers: { total: 9 }, following: { total: 4 }, videos: { total: 1 } } } });
    const refused = await call('DELETE', uri, narrow);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error, 'Your access token does not have the "delete" scope');
    assert.equal((await call('DELETE', uri, token)).status, 204);
    assert.equal((await call('GET', uri, token)).status, 404);
    assert.equal((await call('DELETE', uri, token)).status, 404);
    assert.equal(vimeo.videos().find((v) => v.id === id)!.deleted, true);
  });
});
