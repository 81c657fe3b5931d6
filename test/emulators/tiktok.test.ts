// The TikTok emulator's Login Kit v2 contract over real HTTP: client_key (not client_id), comma
// scopes, form-encoded token calls answered with {"error","error_description","log_id"} at HTTP 200,
// rotating refresh tokens (or the older non-rotating variant), and /v2/user/info/ in the v2 envelope.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTikTokEmulator, type TikTokEmulator } from '../../emulators/index.ts';

const APP = { clientId: 'awk1tiktokclientkey', clientSecret: 'tiktok-secret', redirectUris: ['https://app.example.com/tiktok/cb'] };
const REDIRECT = APP.redirectUris[0]!;
const SCOPES = 'user.info.basic,user.info.profile,video.publish,video.upload';
let tiktok: TikTokEmulator;

before(async () => {
  tiktok = await startTikTokEmulator();
  tiktok.addApp(APP);
});
after(() => tiktok.close());

const authorize = (em: TikTokEmulator, params: Record<string, string> = {}) =>
  fetch(`${em.url}/v2/auth/authorize/?${new URLSearchParams({ client_key: APP.clientId, scope: SCOPES, response_type: 'code', redirect_uri: REDIRECT, state: 'st', ...params })}`, { redirect: 'manual' });

async function newCode(em = tiktok, input: Parameters<TikTokEmulator['addUser']>[0] = {}): Promise<{ code: string; openId: string; scopes: string }> {
  const user = em.addUser(input);
  em.signIn(user.openId);
  const res = await authorize(em);
  assert.equal(res.status, 302);
  const back = new URL(res.headers.get('location')!);
  return { code: back.searchParams.get('code')!, openId: user.openId, scopes: back.searchParams.get('scopes')! };
}

async function token(form: Record<string, string>, em = tiktok, contentType = 'application/x-www-form-urlencoded') {
  const res = await fetch(`${em.url}/v2/oauth/token/`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: contentType.includes('json') ? JSON.stringify(form) : new URLSearchParams(form).toString(),
  });
  return { status: res.status, body: (await res.json()) as any };
}

const codeForm = (code: string, extra: Record<string, string> = {}) => ({ client_key: APP.clientId, client_secret: APP.clientSecret, code, grant_type: 'authorization_code', redirect_uri: REDIRECT, ...extra });
const refreshForm = (refreshToken: string) => ({ client_key: APP.clientId, client_secret: APP.clientSecret, grant_type: 'refresh_token', refresh_token: refreshToken });

async function userInfo(accessToken: string, fields = 'open_id,union_id,avatar_url,display_name,username', em = tiktok) {
  const res = await fetch(`${em.url}/v2/user/info/?fields=${fields}`, { headers: { authorization: `Bearer ${accessToken}` } });
  return { status: res.status, body: (await res.json()) as any };
}

function assertOAuthError(res: { status: number; body: any }, error: string, status = 200) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.deepEqual(Object.keys(res.body).sort(), ['error', 'error_description', 'log_id']);
  assert.equal(res.body.error, error, JSON.stringify(res.body));
  assert.match(res.body.log_id, /^\d{14}[0-9A-F]+$/);
}

describe('the TikTok authorize page', () => {
  test('consents at once: 302 with code, the granted scopes (comma list) and state', async () => {
    const { code, scopes } = await newCode();
    assert.ok(code);
    assert.equal(scopes, SCOPES);
  });

  test('client_key is required: client_id alone is an error page; an unregistered redirect_uri too', async () => {
    const res = await fetch(`${tiktok.url}/v2/auth/authorize/?${new URLSearchParams({ client_id: APP.clientId, scope: SCOPES, response_type: 'code', redirect_uri: REDIRECT, state: 's' })}`, { redirect: 'manual' });
    assertOAuthError({ status: res.status, body: await res.json() }, 'invalid_client');
    const bad = await authorize(tiktok, { redirect_uri: 'https://evil.example/cb' });
    assert.notEqual(bad.status, 302);
  });

  test('space-separated scopes are one unknown scope: back with error=invalid_scope; nobody signed in: access_denied', async () => {
    tiktok.signIn(tiktok.addUser().openId);
    const spaced = new URL((await authorize(tiktok, { scope: 'user.info.basic video.publish' })).headers.get('location')!);
    assert.equal(spaced.searchParams.get('error'), 'invalid_scope');
    assert.equal(spaced.searchParams.get('code'), null);
    tiktok.oauth.signIn(undefined);
    const nobody = new URL((await authorize(tiktok)).headers.get('location')!);
    assert.equal(nobody.searchParams.get('error'), 'access_denied');
    assert.equal(nobody.searchParams.get('state'), 'st');
  });

  test('a user who unticks a scope grants the rest', async () => {
    const { scopes } = await newCode(tiktok, { deniedScopes: ['user.info.profile'] });
    assert.equal(scopes, 'user.info.basic,video.publish,video.upload');
  });
});

describe('POST /v2/oauth/token/', () => {
  test('the code grant answers TikTok\'s token shape', async () => {
    const { code, openId } = await newCode();
    const res = await token(codeForm(code));
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), ['access_token', 'expires_in', 'open_id', 'refresh_expires_in', 'refresh_token', 'scope', 'token_type']);
    assert.deepEqual(
      { open_id: res.body.open_id, scope: res.body.scope, token_type: res.body.token_type, expires_in: res.body.expires_in, refresh_expires_in: res.body.refresh_expires_in },
      { open_id: openId, scope: SCOPES, token_type: 'Bearer', expires_in: 7200, refresh_expires_in: 180 * 86400 },
    );
  });

  test('refusals come as {error, error_description, log_id} with HTTP 200', async () => {
    const { code } = await newCode();
    // client_id instead of client_key; a wrong secret; JSON instead of a form.
    const { client_key: _key, ...withoutKey } = codeForm(code);
    assertOAuthError(await token({ ...withoutKey, client_id: APP.clientId }), 'invalid_client');
    assertOAuthError(await token(codeForm(code, { client_secret: 'wrong' })), 'invalid_client');
    assertOAuthError(await token(codeForm(code), tiktok, 'application/json'), 'invalid_request');
    assertOAuthError(await token({ ...codeForm(code), grant_type: '' }), 'invalid_request');
    // The code survived the refusals above (they never reached it); once used it is dead.
    assert.equal((await token(codeForm(code))).status, 200);
    assertOAuthError(await token(codeForm(code)), 'invalid_grant');
    assertOAuthError(await token(codeForm((await newCode()).code, { redirect_uri: 'https://app.example.com/other' })), 'invalid_grant');
    const late = await newCode();
    tiktok.clock.advance(301_000);
    assertOAuthError(await token(codeForm(late.code)), 'invalid_grant');
    assertOAuthError(await token({ ...codeForm('x'), grant_type: 'client_credentials' }), 'unsupported_grant_type');
  });

  test('refresh tokens rotate: a new pair, and the old refresh token is dead', async () => {
    const first = await token(codeForm((await newCode()).code));
    const second = await token(refreshForm(first.body.refresh_token));
    assert.equal(second.status, 200);
    assert.notEqual(second.body.refresh_token, first.body.refresh_token);
    assert.notEqual(second.body.access_token, first.body.access_token);
    assertOAuthError(await token(refreshForm(first.body.refresh_token)), 'invalid_grant');
    assert.equal((await token(refreshForm(second.body.refresh_token))).status, 200);
  });

  test('a refresh token dies after 180 days or when the user removes the app; omitNextRefreshToken drops the field once', async () => {
    const expired = await token(codeForm((await newCode()).code));
    tiktok.clock.advance(181 * 86400_000);
    assertOAuthError(await token(refreshForm(expired.body.refresh_token)), 'invalid_grant');

    const { code, openId } = await newCode();
    const revoked = await token(codeForm(code));
    tiktok.revokeUser(openId);
    assertOAuthError(await token(refreshForm(revoked.body.refresh_token)), 'invalid_grant');
    assert.equal((await userInfo(revoked.body.access_token)).status, 401);

    const pair = await token(codeForm((await newCode()).code));
    tiktok.omitNextRefreshToken();
    const bare = await token(refreshForm(pair.body.refresh_token));
    assert.equal(bare.status, 200);
    assert.equal('refresh_token' in bare.body, false);
    assert.equal('refresh_token' in (await token(codeForm((await newCode()).code))).body, true);
  });

  test('the older variant: 24 h access tokens, 365-day refresh tokens that come back unchanged', async () => {
    const legacy = await startTikTokEmulator({ variant: 'legacy' });
    try {
      legacy.addApp(APP);
      const first = await token(codeForm((await newCode(legacy)).code), legacy);
      assert.deepEqual([first.body.expires_in, first.body.refresh_expires_in], [86400, 365 * 86400]);
      const second = await token(refreshForm(first.body.refresh_token), legacy);
      assert.equal(second.body.refresh_token, first.body.refresh_token);
      assert.notEqual(second.body.access_token, first.body.access_token);
    } finally {
      await legacy.close();
    }
  });

  test('oauthErrorStatus changes the status of OAuth errors', async () => {
    const strict = await startTikTokEmulator({ oauthErrorStatus: 400 });
    try {
      strict.addApp(APP);
      assertOAuthError(await token(codeForm('nope'), strict), 'invalid_grant', 400);
    } finally {
      await strict.close();
    }
  });
});

describe('GET /v2/user/info/', () => {
  test('the requested fields in {data:{user}, error:{code:"ok"}}', async () => {
    const { code, openId } = await newCode(tiktok, { username: 'crier.tok', displayName: 'Crier Tok', avatarUrl: 'https://cdn.example/a.jpg' });
    const { body } = await token(codeForm(code));
    const res = await userInfo(body.access_token);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data.user, { open_id: openId, union_id: res.body.data.user.union_id, avatar_url: 'https://cdn.example/a.jpg', display_name: 'Crier Tok', username: 'crier.tok' });
    assert.deepEqual({ code: res.body.error.code, message: res.body.error.message }, { code: 'ok', message: '' });
  });

  test('401 access_token_invalid for an unknown or expired token; scope_not_authorized for a field outside the grant', async () => {
    const bad = await userInfo('act.nope');
    assert.equal(bad.status, 401);
    assert.deepEqual({ data: bad.body.data, code: bad.body.error.code }, { data: {}, code: 'access_token_invalid' });

    const { code } = await newCode(tiktok, { deniedScopes: ['user.info.profile'] });
    const { body } = await token(codeForm(code));
    const denied = await userInfo(body.access_token);
    assert.equal(denied.status, 401);
    assert.equal(denied.body.error.code, 'scope_not_authorized');
    assert.equal((await userInfo(body.access_token, 'open_id,display_name')).status, 200);
    assert.equal((await userInfo(body.access_token, '')).body.error.code, 'invalid_params');

    tiktok.clock.advance(7201_000);
    const expired = await userInfo(body.access_token, 'open_id');
    assert.deepEqual([expired.status, expired.body.error.code], [401, 'access_token_invalid']);
  });
});

describe('the Display API (POST /v2/video/list/, /v2/video/query/)', () => {
  const display = async (path: string, accessToken: string, fields: string, body: unknown) => {
    const res = await fetch(`${tiktok.url}${path}?fields=${fields}`, {
      method: 'POST', headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const creator = () => {
    const user = tiktok.addUser();
    return { openId: user.openId, token: tiktok.oauth.issue(user.openId, APP.clientId, ['user.info.basic', 'video.list', 'user.info.stats']).accessToken };
  };

  test('only the fields asked, newest first, max_count 1–20, cursor in milliseconds', async () => {
    const c = creator();
    const older = tiktok.addVideo(c.openId, { createdAtMs: Date.UTC(2026, 2, 1), title: 'old' });
    const newer = tiktok.addVideo(c.openId, { createdAtMs: Date.UTC(2026, 2, 2), title: 'new', likeCount: 5 });
    const page = await display('/v2/video/list/', c.token, 'id,title,create_time,like_count', { max_count: 1 });
    assert.equal(page.status, 200);
    assert.deepEqual(page.body.data, { videos: [{ id: newer.id, title: 'new', create_time: Date.UTC(2026, 2, 2) / 1000, like_count: 5 }], cursor: Date.UTC(2026, 2, 2), has_more: true });
    const next = await display('/v2/video/list/', c.token, 'id', { max_count: 1, cursor: page.body.data.cursor });
    assert.deepEqual(next.body.data, { videos: [{ id: older.id }], cursor: Date.UTC(2026, 2, 1), has_more: false });
    for (const body of [{ max_count: 21 }, { max_count: 0 }, { cursor: 'yesterday' }]) {
      assert.deepEqual([(await display('/v2/video/list/', c.token, 'id', body)).body.error.code], ['invalid_params'], JSON.stringify(body));
    }
    assert.equal((await display('/v2/video/list/', c.token, 'id,plays', {})).body.error.code, 'invalid_params');
    assert.equal((await display('/v2/video/list/', c.token, '', {})).body.error.code, 'invalid_params');
  });

  test('query returns the creator\'s own ids only; 1 to 20 ids', async () => {
    const c = creator();
    const other = creator();
    const mine = tiktok.addVideo(c.openId, { viewCount: 42 });
    const theirs = tiktok.addVideo(other.openId);
    const res = await display('/v2/video/query/', c.token, 'id,view_count', { filters: { video_ids: [mine.id, theirs.id] } });
    assert.deepEqual(res.body.data.videos, [{ id: mine.id, view_count: 42 }]);
    assert.equal((await display('/v2/video/query/', c.token, 'id', { filters: { video_ids: [] } })).body.error.code, 'invalid_params');
    const many = Array.from({ length: 21 }, (_, i) => String(i));
    assert.equal((await display('/v2/video/query/', c.token, 'id', { filters: { video_ids: many } })).status, 400);
  });

  test('without video.list: 401 scope_not_authorized; past 600 a minute: 429 rate_limit_exceeded', async () => {
    const user = tiktok.addUser();
    const basic = tiktok.oauth.issue(user.openId, APP.clientId, ['user.info.basic']).accessToken;
    const refused = await display('/v2/video/list/', basic, 'id', {});
    assert.deepEqual([refused.status, refused.body.error.code], [401, 'scope_not_authorized']);
    const c = creator();
    tiktok.setRateLimits({ display: 2 });
    try {
      assert.equal((await display('/v2/video/list/', c.token, 'id', {})).status, 200);
      assert.equal((await display('/v2/video/list/', c.token, 'id', {})).status, 200);
      const limited = await display('/v2/video/list/', c.token, 'id', {});
      assert.deepEqual([limited.status, limited.body.error.code], [429, 'rate_limit_exceeded']);
      assert.equal((await display('/v2/video/query/', c.token, 'id', { filters: { video_ids: ['1'] } })).status, 200, 'each endpoint has its own window');
    } finally {
      tiktok.setRateLimits({ display: 600 });
    }
  });

  test('user.info.stats fields: as set, video_count from the public videos', async () => {
    const c = creator();
    tiktok.setUserStats(c.openId, { follower_count: 9, likes_count: 70 });
    tiktok.addVideo(c.openId);
    const res = await userInfo(c.token, 'follower_count,following_count,likes_count,video_count');
    assert.deepEqual(res.body.data.user, { follower_count: 9, following_count: 0, likes_count: 70, video_count: 1 });
  });
});
