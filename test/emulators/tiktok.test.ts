// The TikTok emulator's Login Kit v2 contract over real HTTP: client_key (not client_id), comma
// scopes, form-encoded token calls answered with {"error","error_description","log_id"} at HTTP 200,
// rotating refresh tokens (or the older non-rotating variant), and /v2/user/info/ in the v2 envelope.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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

describe('the Content Posting API (inits and the status fetch)', () => {
  const INT64_MAX = 2n ** 63n - 1n;
  let posting: TikTokEmulator;
  before(async () => {
    posting = await startTikTokEmulator({ processingPolls: 0, rateLimits: { init: 0, status: 0 } });
  });
  after(() => posting.close());

  const creator = () => {
    const user = posting.addUser();
    return { openId: user.openId, token: posting.oauth.issue(user.openId, APP.clientId, ['user.info.basic', 'video.publish', 'video.upload']).accessToken };
  };
  const call = async (path: string, token: string, body: unknown) => {
    const res = await fetch(`${posting.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json; charset=UTF-8' }, body: JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, text, body: JSON.parse(text) as any };
  };
  /** An MP4's first box, padded: enough for TikTok's format check. */
  const VIDEO = Buffer.concat([Buffer.from('00000018667479706d703432', 'hex'), Buffer.alloc(988)]);
  const source = { source: 'FILE_UPLOAD', video_size: VIDEO.length, chunk_size: VIDEO.length, total_chunk_count: 1 };
  /** A direct post of VIDEO, uploaded whole; the raw text of its status fetch. */
  const directPost = async (c: { token: string }) => {
    const init = await call('/v2/post/publish/video/init/', c.token, { post_info: { title: 't', privacy_level: 'PUBLIC_TO_EVERYONE' }, source_info: source });
    assert.equal(init.status, 200, init.text);
    const put = await fetch(init.body.data.upload_url, { method: 'PUT', headers: { 'content-type': 'video/mp4', 'content-range': `bytes 0-${VIDEO.length - 1}/${VIDEO.length}` }, body: new Uint8Array(VIDEO) });
    assert.equal(put.status, 201);
    return (await call('/v2/post/publish/status/fetch/', c.token, { publish_id: init.body.data.publish_id })).text;
  };

  test('publicaly_available_post_id is list<int64>: JSON numbers written with every digit, each below 2^63', async () => {
    const c = creator();
    posting.nextPostId('7663542984343883021');
    const exact = await directPost(c);
    assert.match(exact, /"status":"PUBLISH_COMPLETE"/);
    assert.match(exact, /"publicaly_available_post_id":\[7663542984343883021\]/, exact);
    for (let i = 0; i < 12; i += 1) {
      const digits = /"publicaly_available_post_id":\[(\d+)\]/.exec(await directPost(c))?.[1];
      assert.ok(digits && digits.length === 19 && BigInt(digits) <= INT64_MAX, `an int64 of 19 digits: ${digits}`);
    }
    assert.throws(() => posting.nextPostId('92233720368547758080'), /not a positive int64/);
  });

  test('the Video Object\'s ids are strings of an int64\'s digits', async () => {
    const c = creator();
    for (let i = 0; i < 12; i += 1) {
      const { id } = posting.addVideo(c.openId);
      assert.ok(typeof id === 'string' && /^\d{19}$/.test(id) && BigInt(id) <= INT64_MAX, id);
    }
  });

  test('spam_risk_too_many_pending_share: a creator\'s 6th inbox draft in 24 hours, video or photo, is refused (403)', async () => {
    const c = creator();
    posting.setVerifiedPrefixes(['https://cdn.example.com/']);
    for (let i = 0; i < 5; i += 1) assert.equal((await call('/v2/post/publish/inbox/video/init/', c.token, { source_info: source })).status, 200);
    const video = await call('/v2/post/publish/inbox/video/init/', c.token, { source_info: source });
    assert.deepEqual([video.status, video.body.error.code], [403, 'spam_risk_too_many_pending_share']);
    const photo = await call('/v2/post/publish/content/init/', c.token, {
      media_type: 'PHOTO', post_mode: 'MEDIA_UPLOAD', post_info: {}, source_info: { source: 'PULL_FROM_URL', photo_images: ['https://cdn.example.com/a.jpg'], photo_cover_index: 0 },
    });
    assert.deepEqual([photo.status, photo.body.error.code], [403, 'spam_risk_too_many_pending_share']);
    assert.equal((await call('/v2/post/publish/video/init/', c.token, { post_info: { privacy_level: 'SELF_ONLY' }, source_info: source })).status, 200, 'a direct post is not a pending share');
    posting.clock.advance(24 * 3600_000 + 1);
    const fresh = posting.oauth.issue(c.openId, APP.clientId, ['video.upload']).accessToken;
    assert.equal((await call('/v2/post/publish/inbox/video/init/', fresh, { source_info: source })).status, 200, 'a day later the drafts no longer count');
  });

  describe('videos pulled from a URL (source_info.source PULL_FROM_URL)', () => {
    /** A host serving VIDEO at /clip.mp4, text at /page.html and 404 elsewhere; it counts its GETs. */
    let media: Server;
    let mediaUrl = '';
    const gets: string[] = [];
    before(async () => {
      media = createServer((req, res) => {
        gets.push(req.url ?? '');
        if (req.url === '/clip.mp4') return void res.writeHead(200, { 'content-type': 'video/mp4' }).end(VIDEO);
        if (req.url === '/page.html') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>not a video</html>');
        res.writeHead(404).end();
      });
      await new Promise<void>((resolve) => media.listen(0, '127.0.0.1', resolve));
      mediaUrl = `http://127.0.0.1:${(media.address() as AddressInfo).port}`;
    });
    after(() => new Promise<void>((resolve) => media.close(() => resolve())));

    /** Status fetches until the publish leaves PROCESSING_DOWNLOAD (the download runs beside the API). */
    const settled = async (token: string, publishId: string) => {
      for (let i = 0; i < 100; i += 1) {
        const status = await call('/v2/post/publish/status/fetch/', token, { publish_id: publishId });
        if (status.body.data.status !== 'PROCESSING_DOWNLOAD') return status;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error(`${publishId} never left PROCESSING_DOWNLOAD`);
    };
    const pull = (path: string, c: { token: string }, videoUrl: string, postInfo: Record<string, unknown> = {}) =>
      call(path, c.token, { ...(Object.keys(postInfo).length ? { post_info: postInfo } : {}), source_info: { source: 'PULL_FROM_URL', video_url: videoUrl } });

    test('a direct post: the emulator downloads the video from video_url and publishes it', async () => {
      posting.setVerifiedPrefixes([`${mediaUrl}/`]);
      const c = creator();
      const before = gets.length;
      const init = await pull('/v2/post/publish/video/init/', c, `${mediaUrl}/clip.mp4`, { title: 'pulled', privacy_level: 'PUBLIC_TO_EVERYONE' });
      assert.equal(init.status, 200, init.text);
      assert.match(init.body.data.publish_id, /^v_pub_url~v2-1\./);
      assert.equal(init.body.data.upload_url, undefined, 'nothing to upload: TikTok pulls the video');
      const status = await settled(c.token, init.body.data.publish_id);
      assert.equal(status.body.data.status, 'PUBLISH_COMPLETE', status.text);
      assert.equal(status.body.data.downloaded_bytes, VIDEO.length);
      assert.equal(status.body.data.publicaly_available_post_id.length, 1);
      assert.deepEqual(gets.slice(before), ['/clip.mp4'], 'the video was fetched from its URL once');
      const seen = posting.publishes().find((p) => p.publishId === init.body.data.publish_id)!;
      assert.deepEqual([seen.pulledVideo?.bytes, seen.pulledVideo?.sha256], [VIDEO.length, createHash('sha256').update(VIDEO).digest('hex')]);
    });

    test('an inbox draft pulled from a URL lands in the inbox', async () => {
      posting.setVerifiedPrefixes([`${mediaUrl}/`]);
      const c = creator();
      const init = await pull('/v2/post/publish/inbox/video/init/', c, `${mediaUrl}/clip.mp4`);
      assert.equal(init.status, 200, init.text);
      const status = await settled(c.token, init.body.data.publish_id);
      assert.deepEqual([status.body.data.status, status.body.data.downloaded_bytes], ['SEND_TO_USER_INBOX', VIDEO.length]);
    });

    test('a URL outside the verified prefixes is 403 url_ownership_unverified, and nothing is downloaded', async () => {
      posting.setVerifiedPrefixes(['https://cdn.example.com/']);
      const c = creator();
      const before = gets.length;
      for (const path of ['/v2/post/publish/video/init/', '/v2/post/publish/inbox/video/init/']) {
        const init = await pull(path, c, `${mediaUrl}/clip.mp4`, path.includes('inbox') ? {} : { privacy_level: 'SELF_ONLY' });
        assert.deepEqual([init.status, init.body.error.code], [403, 'url_ownership_unverified'], init.text);
      }
      assert.equal(gets.length, before);
    });

    test('a missing video_url is 400; an unreachable URL ends video_pull_failed, one that is not a video file_format_check_failed', async () => {
      posting.setVerifiedPrefixes([`${mediaUrl}/`]);
      const c = creator();
      const missing = await call('/v2/post/publish/inbox/video/init/', c.token, { source_info: { source: 'PULL_FROM_URL' } });
      assert.deepEqual([missing.status, missing.body.error.code], [400, 'invalid_params']);
      const gone = await pull('/v2/post/publish/inbox/video/init/', c, `${mediaUrl}/gone.mp4`);
      const goneStatus = await settled(c.token, gone.body.data.publish_id);
      assert.deepEqual([goneStatus.body.data.status, goneStatus.body.data.fail_reason], ['FAILED', 'video_pull_failed']);
      const page = await pull('/v2/post/publish/inbox/video/init/', c, `${mediaUrl}/page.html`);
      const pageStatus = await settled(c.token, page.body.data.publish_id);
      assert.deepEqual([pageStatus.body.data.status, pageStatus.body.data.fail_reason], ['FAILED', 'file_format_check_failed']);
    });
  });

  test('branded content cannot be private: brand_content_toggle with SELF_ONLY is 400 invalid_params', async () => {
    const c = creator();
    const branded = await call('/v2/post/publish/video/init/', c.token, { post_info: { privacy_level: 'SELF_ONLY', brand_content_toggle: true }, source_info: source });
    assert.deepEqual([branded.status, branded.body.error.code], [400, 'invalid_params']);
    assert.match(branded.body.error.message, /Branded content visibility cannot be set to private/);
    const open = await call('/v2/post/publish/video/init/', c.token, { post_info: { privacy_level: 'FOLLOWER_OF_CREATOR', brand_content_toggle: true }, source_info: source });
    assert.equal(open.status, 200, open.text);
  });
});
