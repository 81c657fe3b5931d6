// The Threads emulator's OAuth contract over real HTTP: Meta's error envelope and codes for the
// authorize window, the code exchange, the long-lived exchange, the refresh (≥ 24 h old, unexpired)
// and /v1.0/me; and publishing: containers, their states and refusals, threads_publish, the limits and the reads.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { startThreadsEmulator, type ThreadsEmulator } from '../../emulators/threads/server.ts';

const APP = { clientId: '990602627938098', clientSecret: 'threads-app-secret', redirectUris: ['https://app.example.com/threads/cb'] };
const REDIRECT = APP.redirectUris[0]!;
const HOUR = 3600_000;
const DAY = 24 * HOUR;
let threads: ThreadsEmulator;

before(async () => {
  threads = await startThreadsEmulator();
  threads.addApp(APP);
});
after(() => threads.close());

async function json(res: Response) {
  return { status: res.status, body: (await res.json()) as any };
}

const get = (path: string, params: Record<string, string> = {}, headers: Record<string, string> = {}) =>
  fetch(`${threads.url}${path}?${new URLSearchParams(params)}`, { headers }).then(json);

function authorizeUrl(params: Record<string, string> = {}) {
  return `${threads.url}/oauth/authorize?${new URLSearchParams({ client_id: APP.clientId, redirect_uri: REDIRECT, scope: 'threads_basic,threads_content_publish', response_type: 'code', state: 'st-1', ...params })}`;
}

async function newCode(userId?: string): Promise<string> {
  const id = userId ?? threads.addUser().id;
  threads.signIn(id);
  const res = await fetch(authorizeUrl(), { redirect: 'manual' });
  assert.equal(res.status, 302);
  return new URL(res.headers.get('location')!).searchParams.get('code')!;
}

const exchange = (form: Record<string, string>) =>
  fetch(`${threads.url}/oauth/access_token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() }).then(json);

const codeForm = (code: string, extra: Record<string, string> = {}) => ({ client_id: APP.clientId, client_secret: APP.clientSecret, code, grant_type: 'authorization_code', redirect_uri: REDIRECT, ...extra });

async function longLived(userId?: string): Promise<{ token: string; userId: string }> {
  const id = userId ?? threads.addUser().id;
  const short = await exchange(codeForm(await newCode(id)));
  const long = await get('/access_token', { grant_type: 'th_exchange_token', client_secret: APP.clientSecret, access_token: short.body.access_token });
  assert.equal(long.status, 200);
  return { token: long.body.access_token, userId: id };
}

function assertMetaError(res: { status: number; body: any }, code: number, subcode?: number) {
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.deepEqual(Object.keys(res.body), ['error']);
  assert.equal(res.body.error.type, 'OAuthException');
  assert.equal(res.body.error.code, code, JSON.stringify(res.body));
  assert.equal(res.body.error.error_subcode, subcode);
  assert.equal(typeof res.body.error.message, 'string');
  assert.equal(typeof res.body.error.fbtrace_id, 'string');
}

describe('the Threads authorize window', () => {
  test('consents at once: 302 to the redirect URI with code and state, and Meta\'s trailing #_', async () => {
    const user = threads.addUser();
    threads.signIn(user.id);
    const res = await fetch(authorizeUrl(), { redirect: 'manual' });
    assert.equal(res.status, 302);
    const location = res.headers.get('location')!;
    assert.match(location, /#_$/);
    const url = new URL(location);
    assert.equal(`${url.origin}${url.pathname}`, REDIRECT);
    assert.equal(url.searchParams.get('state'), 'st-1');
    assert.ok(url.searchParams.get('code'));
  });

  test('an unknown app, an unregistered redirect URI or an unknown scope is an error page, not a redirect', async () => {
    assertMetaError(await fetch(authorizeUrl({ client_id: '111' }), { redirect: 'manual' }).then(json), 101);
    assertMetaError(await fetch(authorizeUrl({ redirect_uri: 'https://evil.example/cb' }), { redirect: 'manual' }).then(json), 100);
    assertMetaError(await fetch(authorizeUrl({ scope: 'threads_basic,publish_everything' }), { redirect: 'manual' }).then(json), 100);
  });

  test('nobody signed in: back to the app with error=access_denied', async () => {
    threads.oauth.signIn(undefined);
    const res = await fetch(authorizeUrl(), { redirect: 'manual' });
    assert.equal(res.status, 302);
    const url = new URL(res.headers.get('location')!);
    assert.equal(url.searchParams.get('error'), 'access_denied');
    assert.equal(url.searchParams.get('code'), null);
  });
});

describe('the Threads code exchange', () => {
  test('answers {access_token, user_id} (a number) for a short-lived token that dies after an hour', async () => {
    const user = threads.addUser();
    const res = await exchange(codeForm(await newCode(user.id)));
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), ['access_token', 'user_id']);
    assert.equal(res.body.user_id, Number(user.id));
    assert.equal((await get('/v1.0/me', { access_token: res.body.access_token })).body.id, user.id);
    threads.clock.advance(HOUR + 1000);
    assertMetaError(await get('/v1.0/me', { access_token: res.body.access_token }), 190, 463);
  });

  test('refuses a wrong secret (1), an unknown app (101), a reused code (36009), a wrong redirect_uri (36008), an expired code (36007)', async () => {
    assertMetaError(await exchange(codeForm(await newCode(), { client_secret: 'wrong' })), 1);
    assertMetaError(await exchange(codeForm(await newCode(), { client_id: '42' })), 101);
    const code = await newCode();
    assert.equal((await exchange(codeForm(code))).status, 200);
    assertMetaError(await exchange(codeForm(code)), 100, 36009);
    assertMetaError(await exchange(codeForm(await newCode(), { redirect_uri: 'https://app.example.com/other' })), 100, 36008);
    const late = await newCode();
    threads.clock.advance(HOUR + 1000);
    assertMetaError(await exchange(codeForm(late)), 100, 36007);
    assertMetaError(await exchange(codeForm('never-issued')), 100);
  });
});

describe('long-lived tokens', () => {
  test('th_exchange_token: a 60-day bearer token; the app secret must be the issuing app\'s', async () => {
    const short = await exchange(codeForm(await newCode()));
    const wrong = await get('/access_token', { grant_type: 'th_exchange_token', client_secret: 'wrong', access_token: short.body.access_token });
    assertMetaError(wrong, 1);
    const res = await get('/access_token', { grant_type: 'th_exchange_token', client_secret: APP.clientSecret, access_token: short.body.access_token });
    assert.equal(res.status, 200);
    assert.deepEqual({ type: res.body.token_type, expires: res.body.expires_in }, { type: 'bearer', expires: 5_184_000 });
    assertMetaError(await get('/access_token', { grant_type: 'th_exchange_token', client_secret: APP.clientSecret, access_token: 'garbage' }), 190);
  });

  test('th_refresh_token: refused under 24 h of age (the token still works), then a new 60-day token', async () => {
    const { token, userId } = await longLived();
    const early = await get('/refresh_access_token', { grant_type: 'th_refresh_token', access_token: token });
    assertMetaError(early, 100);
    assert.equal((await get('/v1.0/me', { access_token: token })).status, 200);
    threads.clock.advance(2 * DAY);
    const res = await get('/refresh_access_token', { grant_type: 'th_refresh_token', access_token: token });
    assert.equal(res.status, 200);
    assert.equal(res.body.expires_in, 5_184_000);
    assert.notEqual(res.body.access_token, token);
    // The refreshed token lives 60 days from the refresh: 59 more days on, it still works.
    threads.clock.advance(59 * DAY);
    assert.equal((await get('/v1.0/me', { access_token: res.body.access_token })).body.id, userId);
    assertMetaError(await get('/v1.0/me', { access_token: token }), 190, 463);
  });

  test('an expired long-lived token cannot be refreshed (190/463); a short-lived one is refused; a revoked one is 190/458', async () => {
    const { token } = await longLived();
    threads.clock.advance(61 * DAY);
    assertMetaError(await get('/refresh_access_token', { grant_type: 'th_refresh_token', access_token: token }), 190, 463);

    const short = await exchange(codeForm(await newCode()));
    assertMetaError(await get('/refresh_access_token', { grant_type: 'th_refresh_token', access_token: short.body.access_token }), 100);

    const revoked = await longLived();
    threads.clock.advance(2 * DAY);
    threads.revokeUser(revoked.userId);
    assertMetaError(await get('/refresh_access_token', { grant_type: 'th_refresh_token', access_token: revoked.token }), 190, 458);
    assertMetaError(await get('/v1.0/me', { access_token: revoked.token }), 190, 458);
  });
});

describe('GET /v1.0/me', () => {
  test('the requested fields, by query token or Bearer header; id always; 2500 without a token; 100 for an unknown field', async () => {
    const user = threads.addUser({ username: 'me_check', name: 'Me Check', profilePictureUrl: 'https://cdn.example/me.jpg' });
    const { token } = await longLived(user.id);
    const all = await get('/v1.0/me', { fields: 'id,username,name,threads_profile_picture_url' }, { authorization: `Bearer ${token}` });
    assert.deepEqual(all, { status: 200, body: { id: user.id, username: 'me_check', name: 'Me Check', threads_profile_picture_url: 'https://cdn.example/me.jpg' } });
    assert.deepEqual((await get('/v1.0/me', { access_token: token, fields: 'username' })).body, { username: 'me_check', id: user.id });
    assertMetaError(await get('/v1.0/me', { fields: 'id' }), 2500);
    assertMetaError(await get('/v1.0/me', { access_token: token, fields: 'id,email' }), 100);
    const bare = threads.addUser({ profilePictureUrl: null });
    const bareToken = threads.issueLongLived(bare.id, APP.clientId);
    assert.deepEqual(Object.keys((await get('/v1.0/me', { access_token: bareToken, fields: 'id,threads_profile_picture_url' })).body), ['id']);
  });
});

describe('publishing', () => {
  const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5f0000000049454e44ae426082', 'hex');
  const MP4 = Buffer.concat([Buffer.from('000000186674797069736f6d0000020069736f6d69736f32', 'hex'), Buffer.alloc(64)]);
  let media: Server;
  let mediaUrl: string;
  let user: { id: string };
  let token: string;

  before(async () => {
    media = createServer((req, res) => {
      const body = req.url === '/a.png' ? PNG : req.url === '/v.mp4' ? MP4 : undefined;
      res.writeHead(body ? 200 : 404, { 'content-type': req.url === '/a.png' ? 'image/png' : 'video/mp4' });
      res.end(body ?? 'not found');
    });
    await new Promise<void>((resolve) => media.listen(0, '127.0.0.1', resolve));
    mediaUrl = `http://127.0.0.1:${(media.address() as AddressInfo).port}`;
    user = threads.addUser({ username: 'publisher' });
    token = threads.issueLongLived(user.id, APP.clientId, ['threads_basic', 'threads_content_publish']);
  });
  after(() => new Promise<void>((resolve) => media.close(() => resolve())));

  const post = (path: string, form: Record<string, string>, bearer = token) =>
    fetch(`${threads.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() }).then(json);
  const read = (path: string, params: Record<string, string> = {}) => get(path, { access_token: token, ...params });
  const container = async (form: Record<string, string>) => {
    const res = await post(`/v1.0/${user.id}/threads`, form);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.id as string;
  };
  const refusal = (res: { status: number; body: any }, code: number, subcode?: number) => {
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.error.code, code, JSON.stringify(res.body));
    assert.equal(res.body.error.error_subcode, subcode);
    assert.equal(typeof res.body.error.fbtrace_id, 'string');
  };

  test('a text container is FINISHED, publishes to a media id with a permalink, and is then PUBLISHED', async () => {
    const id = await container({ media_type: 'TEXT', text: 'hello threads', reply_control: 'accounts_you_follow' });
    assert.deepEqual((await read(`/v1.0/${id}`, { fields: 'status,error_message' })).body, { status: 'FINISHED', id });
    const published = await post(`/v1.0/${user.id}/threads_publish`, { creation_id: id });
    assert.equal(published.status, 200);
    const mediaId = published.body.id as string;
    assert.notEqual(mediaId, id);
    const node = (await read(`/v1.0/${mediaId}`, { fields: 'id,permalink,text,media_type,is_reply,username,timestamp' })).body;
    assert.match(node.permalink, /^https:\/\/www\.threads\.com\/@publisher\/post\/[\w-]+$/);
    assert.deepEqual([node.text, node.media_type, node.is_reply, node.username], ['hello threads', 'TEXT_POST', false, 'publisher']);
    assert.match(node.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0000$/);
    assert.equal((await read(`/v1.0/${id}`, { fields: 'status' })).body.status, 'PUBLISHED');
    refusal(await post(`/v1.0/${user.id}/threads_publish`, { creation_id: id }), 100);
    const listed = await read(`/v1.0/me/threads`, { fields: 'id,text', since: String(Math.floor(Date.now() / 1000) - 60) });
    assert.deepEqual(listed.body.data[0], { id: mediaId, text: 'hello threads' });
    const limit = await read(`/v1.0/${user.id}/threads_publishing_limit`, { fields: 'quota_usage,config' });
    assert.deepEqual(limit.body, { data: [{ quota_usage: 1, config: { quota_total: 250, quota_duration: 86400 } }] });
  });

  // User reference, GET /{threads-user-id}/threads: since must be at least 1688540400 and before
  // until; until not later than now and after since.
  test('a user\'s posts and replies refuse a since before 1688540400, an until in the future, a since not before until', async () => {
    const now = Math.floor(threads.clock.now() / 1000);
    refusal(await read('/v1.0/me/threads', { since: '1688540399' }), 100);
    refusal(await read('/v1.0/me/replies', { since: '1600000000' }), 100);
    refusal(await read('/v1.0/me/threads', { until: String(now + 3600) }), 100);
    refusal(await read('/v1.0/me/threads', { since: String(now - 60), until: String(now - 120) }), 100);
    refusal(await read('/v1.0/me/threads', { since: String(now - 60), until: String(now - 60) }), 100);
    const bounded = await read('/v1.0/me/threads', { since: '1688540400', until: String(now) });
    assert.equal(bounded.status, 200, JSON.stringify(bounded.body));
  });

  test('container refusals: missing text, over 500 characters, 6 links, a bad reply_control, a 1-item carousel, another user\'s path, no publish permission', async () => {
    refusal(await post(`/v1.0/${user.id}/threads`, { media_type: 'TEXT' }), 100);
    refusal(await post(`/v1.0/${user.id}/threads`, { media_type: 'TEXT', text: 'a'.repeat(499) + '😀' }), 100);
    const links = await post(`/v1.0/${user.id}/threads`, { media_type: 'TEXT', text: [1, 2, 3, 4, 5, 6].map((i) => `https://e.example/${i}`).join(' ') });
    refusal(links, 100);
    assert.match(links.body.error.message, /THREADS_API__LINK_LIMIT_EXCEEDED/);
    refusal(await post(`/v1.0/${user.id}/threads`, { media_type: 'TEXT', text: 'x', reply_control: 'nobody' }), 100);
    const item = await container({ media_type: 'IMAGE', image_url: `${mediaUrl}/a.png`, is_carousel_item: 'true' });
    refusal(await post(`/v1.0/${user.id}/threads`, { media_type: 'CAROUSEL', children: item }), 100);
    refusal(await post(`/v1.0/${user.id}/threads_publish`, { creation_id: item }), 100);
    refusal(await post(`/v1.0/1234/threads`, { media_type: 'TEXT', text: 'x' }), 100, 33);
    const readOnly = threads.issueLongLived(user.id, APP.clientId, ['threads_basic']);
    const denied = await post(`/v1.0/${user.id}/threads`, { media_type: 'TEXT', text: 'x' }, readOnly);
    assert.equal(denied.status, 403);
    assert.equal(denied.body.error.code, 10);
  });

  test('media are fetched: an unfetchable image is refused at creation (1/2207052); a video is IN_PROGRESS until processed, or ERROR when unfetchable', async () => {
    refusal(await post(`/v1.0/${user.id}/threads`, { media_type: 'IMAGE', image_url: `${mediaUrl}/missing.png` }), 1, 2207052);
    const video = await container({ media_type: 'VIDEO', video_url: `${mediaUrl}/v.mp4`, text: 'clip' });
    assert.equal((await read(`/v1.0/${video}`, { fields: 'status' })).body.status, 'IN_PROGRESS');
    refusal(await post(`/v1.0/${user.id}/threads_publish`, { creation_id: video }), 24, 4279009);
    threads.clock.advance(2000);
    await new Promise((resolve) => setTimeout(resolve, 100)); // the background fetch
    assert.equal((await read(`/v1.0/${video}`, { fields: 'status' })).body.status, 'FINISHED');
    const broken = await container({ media_type: 'VIDEO', video_url: `${mediaUrl}/gone.mp4` });
    threads.clock.advance(2000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual((await read(`/v1.0/${broken}`, { fields: 'status,error_message' })).body, { status: 'ERROR', error_message: 'FAILED_DOWNLOADING_VIDEO', id: broken });
  });

  test('a carousel publishes its children in order; a reply is listed under /replies with its parent', async () => {
    const a = await container({ media_type: 'IMAGE', image_url: `${mediaUrl}/a.png`, is_carousel_item: 'true', alt_text: 'one' });
    const b = await container({ media_type: 'IMAGE', image_url: `${mediaUrl}/a.png`, is_carousel_item: 'true', alt_text: 'two' });
    const carousel = await container({ media_type: 'CAROUSEL', children: `${a},${b}`, text: 'album' });
    const root = (await post(`/v1.0/${user.id}/threads_publish`, { creation_id: carousel })).body.id;
    assert.deepEqual(threads.published().find((p) => p.id === root)!.media.map((m) => m.altText), ['one', 'two']);
    const reply = await container({ media_type: 'TEXT', text: 'a reply', reply_to_id: root });
    const replyId = (await post(`/v1.0/${user.id}/threads_publish`, { creation_id: reply })).body.id;
    const replies = await read(`/v1.0/${user.id}/replies`, { fields: 'id,text,replied_to,root_post' });
    assert.deepEqual(replies.body.data[0], { id: replyId, text: 'a reply', replied_to: { id: root }, root_post: { id: root } });
  });

  // Media-retrieval reference (developers.facebook.com/documentation/threads/reference/media-retrieval,
  // checked 2026-11-29) lists these fields for GET /{threads-media-id}: none of them is a "nonexisting field".
  test('a media node answers every field the media-retrieval reference lists: alt_text and the reply fields; ones without a value are left out', async () => {
    const image = await container({ media_type: 'IMAGE', image_url: `${mediaUrl}/a.png`, alt_text: 'a red square', reply_control: 'mentioned_only' });
    const mediaId = (await post(`/v1.0/${user.id}/threads_publish`, { creation_id: image })).body.id as string;
    const node = await read(`/v1.0/${mediaId}`, { fields: 'id,alt_text,has_replies,is_reply_owned_by_me,hide_status,reply_audience,thumbnail_url,link_attachment_url,quoted_post,reposted_post,gif_url,poll_attachment,topic_tag,is_spoiler_media,text_entities,text_attachment,location_id' });
    assert.equal(node.status, 200, JSON.stringify(node.body));
    assert.deepEqual(node.body, { id: mediaId, alt_text: 'a red square', has_replies: false, is_reply_owned_by_me: true, hide_status: 'NOT_HUSHED', reply_audience: 'MENTIONED_ONLY' });
    const listed = await read(`/v1.0/me/threads`, { fields: 'id,alt_text', limit: '1' });
    assert.deepEqual(listed.body.data[0], { id: mediaId, alt_text: 'a red square' });
    refusal(await read(`/v1.0/${mediaId}`, { fields: 'id,bogus' }), 100);
  });

  test('faults: Media Not Found once on a FINISHED container, an EXPIRED container, a spent publishing limit (9)', async () => {
    const id = await container({ media_type: 'TEXT', text: 'not found once' });
    threads.notFoundOnPublish(1);
    refusal(await post(`/v1.0/${user.id}/threads_publish`, { creation_id: id }), 24, 4279009);
    assert.equal((await post(`/v1.0/${user.id}/threads_publish`, { creation_id: id })).status, 200);
    threads.expireNextContainer();
    const old = await container({ media_type: 'TEXT', text: 'too old' });
    assert.equal((await read(`/v1.0/${old}`, { fields: 'status' })).body.status, 'EXPIRED');
    refusal(await post(`/v1.0/${user.id}/threads_publish`, { creation_id: old }), 100);
    const busy = threads.addUser({ username: 'busy' });
    const busyToken = threads.issueLongLived(busy.id, APP.clientId, ['threads_basic', 'threads_content_publish']);
    threads.usePublishingQuota(busy.id, 250);
    const busyContainer = (await post(`/v1.0/${busy.id}/threads`, { media_type: 'TEXT', text: 'one too many' }, busyToken)).body.id;
    refusal(await post(`/v1.0/${busy.id}/threads_publish`, { creation_id: busyContainer }, busyToken), 9, 2207042);
  });
});

describe('threads emulator: replies, conversation, delete, insights and the replies webhook', () => {
  let user: { id: string };
  let token: string;
  const SCOPES = ['threads_basic', 'threads_content_publish', 'threads_read_replies', 'threads_delete', 'threads_manage_insights'];

  before(() => {
    user = threads.addUser({ username: 'engaged' });
    token = threads.issueLongLived(user.id, APP.clientId, SCOPES);
  });

  const call = (method: string, path: string, params: Record<string, string> = {}, bearer = token) =>
    fetch(`${threads.url}${path}?${new URLSearchParams(params)}`, { method, headers: { authorization: `Bearer ${bearer}` } }).then(json);
  const refusal = (res: { status: number; body: any }, code: number, subcode?: number) => {
    assert.equal(res.status, code === 10 ? 403 : 400, JSON.stringify(res.body));
    assert.equal(res.body.error.code, code, JSON.stringify(res.body));
    assert.equal(res.body.error.error_subcode, subcode);
  };
  const rootPost = (text: string) => threads.addPost({ userId: user.id, text });

  test('/replies answers the direct replies, /conversation every depth; newest first unless reverse=false; cursor paging', async () => {
    const root = rootPost('talk to me');
    const a = threads.addReply({ to: root.id, username: 'ann', text: 'a' });
    const b = threads.addReply({ to: root.id, username: 'ben', text: 'b' });
    const a1 = threads.addReply({ to: a.id, username: 'cal', text: 'a1' });
    const a11 = threads.addReply({ to: a1.id, username: 'engaged', text: 'a11' });
    const direct = await call('GET', `/v1.0/${root.id}/replies`, { fields: 'id,username,replied_to,root_post,has_replies,is_reply_owned_by_me,hide_status' });
    assert.deepEqual(direct.body.data, [
      { id: b.id, username: 'ben', replied_to: { id: root.id }, root_post: { id: root.id }, has_replies: false, is_reply_owned_by_me: false, hide_status: 'NOT_HUSHED' },
      { id: a.id, username: 'ann', replied_to: { id: root.id }, root_post: { id: root.id }, has_replies: true, is_reply_owned_by_me: false, hide_status: 'NOT_HUSHED' },
    ]);
    const all = await call('GET', `/v1.0/${root.id}/conversation`, { fields: 'id,text,is_reply_owned_by_me', reverse: 'false' });
    assert.deepEqual(all.body.data.map((r: any) => r.text), ['a', 'b', 'a1', 'a11']);
    assert.equal(all.body.data[3].id, a11.id);
    assert.equal(all.body.data[3].is_reply_owned_by_me, true);
    const first = await call('GET', `/v1.0/${root.id}/conversation`, { reverse: 'false', limit: '3' });
    assert.equal(first.body.data.length, 3);
    assert.ok(first.body.paging.next);
    const rest = await call('GET', `/v1.0/${root.id}/conversation`, { reverse: 'false', limit: '3', after: first.body.paging.cursors.after });
    assert.deepEqual(rest.body.data, [{ id: a11.id }]);
    assert.equal(rest.body.paging.next, undefined);
    refusal(await call('GET', `/v1.0/${root.id}/replies`, { fields: 'likes' }), 100);
    const readOnly = threads.issueLongLived(user.id, APP.clientId, ['threads_basic']);
    refusal(await call('GET', `/v1.0/${root.id}/replies`, {}, readOnly), 10);
    const stranger = threads.addUser({ username: 'stranger' });
    refusal(await call('GET', `/v1.0/${root.id}/replies`, {}, threads.issueLongLived(stranger.id, APP.clientId, SCOPES)), 100, 33);
  });

  test('DELETE /{media-id}: {success, deleted_id}; gone afterwards (100/33); counted in delete_quota_usage; another user\'s post refused', async () => {
    const post = rootPost('delete me');
    const reply = threads.addReply({ to: post.id, username: 'ann', text: 'stays' });
    assert.deepEqual((await call('DELETE', `/v1.0/${post.id}`)).body, { success: true, deleted_id: post.id });
    refusal(await call('DELETE', `/v1.0/${post.id}`), 100, 33);
    refusal(await call('DELETE', `/v1.0/${reply.id}`), 100, 33);
    assert.ok(threads.published().some((m) => m.id === reply.id), 'the replies below a deleted root stay');
    const limit = await call('GET', `/v1.0/${user.id}/threads_publishing_limit`, { fields: 'delete_quota_usage,delete_config' });
    assert.deepEqual(limit.body, { data: [{ delete_quota_usage: 1, delete_config: { quota_total: 100, quota_duration: 86400 } }] });
    const noScope = threads.issueLongLived(user.id, APP.clientId, ['threads_basic']);
    refusal(await call('DELETE', `/v1.0/${rootPost('kept').id}`, {}, noScope), 10);
  });

  test('insights: a post\'s lifetime values (replies from the tree), the user\'s daily views and totals; refusals', async () => {
    const post = rootPost('counted');
    const r = threads.addReply({ to: post.id, username: 'ann', text: 'r' });
    threads.addReply({ to: r.id, username: 'ben', text: 'rr' });
    threads.setPostInsights(post.id, { likes: 4, views: 50 });
    const insights = await call('GET', `/v1.0/${post.id}/insights`, { metric: 'likes,replies,views' });
    assert.deepEqual(insights.body.data.map((d: any) => [d.name, d.period, d.values]), [['likes', 'lifetime', [{ value: 4 }]], ['replies', 'lifetime', [{ value: 2 }]], ['views', 'lifetime', [{ value: 50 }]]]);
    assert.equal(insights.body.data[0].id, `${post.id}/insights/likes/lifetime`);
    refusal(await call('GET', `/v1.0/${post.id}/insights`, { metric: 'impressions' }), 100);
    threads.setUserInsights(user.id, { followersCount: 9, days: [{ day: '2026-02-01', views: 3, likes: 2 }, { day: '2026-02-02', views: 4, likes: 1 }] });
    const since = String(Date.parse('2026-02-01T00:00:00Z') / 1000);
    const until = String(Date.parse('2026-02-03T00:00:00Z') / 1000);
    const account = await call('GET', `/v1.0/${user.id}/threads_insights`, { metric: 'views,likes,followers_count', since, until });
    assert.deepEqual(account.body.data.map((d: any) => [d.name, d.values ?? d.total_value]), [
      ['views', [{ value: 3, end_time: '2026-02-02T00:00:00+0000' }, { value: 4, end_time: '2026-02-03T00:00:00+0000' }]],
      ['likes', { value: 3 }],
      ['followers_count', { value: 9 }],
    ]);
    refusal(await call('GET', `/v1.0/${user.id}/threads_insights`, { metric: 'likes', since: '1700000000', until }), 100);
    // Insights reference: follower_demographics "is not compatible with the since and until parameters".
    refusal(await call('GET', `/v1.0/${user.id}/threads_insights`, { metric: 'follower_demographics', since, until }), 100);
    refusal(await call('GET', `/v1.0/${user.id}/threads_insights`, { metric: 'likes,follower_demographics', since }), 100);
    assert.equal((await call('GET', `/v1.0/${user.id}/threads_insights`, { metric: 'follower_demographics' })).status, 200);
    refusal(await call('GET', `/v1.0/${post.id}/insights`, { metric: 'likes' }, threads.issueLongLived(user.id, APP.clientId, ['threads_basic'])), 10);
  });

  test('the replies webhook: Meta\'s body, signed with the app secret, the same bytes on redelivery', async () => {
    const bodies: { body: string; signature: string | undefined }[] = [];
    const hook = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        bodies.push({ body, signature: req.headers['x-hub-signature-256'] as string | undefined });
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    try {
      const callbackUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
      const post = rootPost('notify me');
      const reply = threads.addReply({ to: post.id, username: 'ann', text: 'ping' });
      const sent = await threads.sendRepliesWebhook({ callbackUrl, appId: '42', appSecret: 's3cret', replyId: reply.id });
      assert.equal(sent.status, 200);
      const body = JSON.parse(bodies[0]!.body);
      assert.deepEqual({ ...body, time: typeof body.time, subscription_id: typeof body.subscription_id }, {
        app_id: '42', topic: 'moderate', target_id: reply.id, time: 'number', subscription_id: 'string', has_uid_field: false,
        values: { field: 'replies', value: {
          id: reply.id, username: 'ann', text: 'ping', media_type: 'TEXT_POST', permalink: reply.permalink, replied_to: { id: post.id },
          root_post: { id: post.id, owner_id: user.id, username: 'engaged' }, shortcode: reply.shortcode, timestamp: body.values.value.timestamp,
        } },
      });
      assert.equal(bodies[0]!.signature, `sha256=${createHmac('sha256', 's3cret').update(bodies[0]!.body).digest('hex')}`);
      await threads.sendRepliesWebhook({ callbackUrl, appId: '42', appSecret: 's3cret', replyId: reply.id });
      assert.deepEqual(bodies[1], bodies[0]);
    } finally {
      await new Promise<void>((resolve) => hook.close(() => resolve()));
    }
  });
});
