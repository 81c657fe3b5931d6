// The Facebook emulator's own contract: the login dialog (error page for an unknown app or redirect
// URI, decline, "#_"), the token endpoint's Meta error bodies (wrong secret, unknown app, reused,
// expired or mismatched code), the long-lived exchange, Page tokens that never expire when taken
// from a long-lived token, /me/accounts paging, and dead tokens answering 190 with Meta's subcodes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createHmac } from 'node:crypto';
import { startFacebookEmulator, type FacebookEmulator } from '../../emulators/facebook/server.ts';
import { startHttpsServer, type TestHttpsServer } from '../helpers/https-server.ts';
import { PNG_1X1 } from '../helpers/publishing.ts';

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

describe('the Facebook emulator: Instagram content publishing', () => {
  let media: TestHttpsServer;
  let token: string;
  let igId: string;
  const post = async (path: string, params: Record<string, string>) => {
    const res = await fetch(`${fb.url}/${V}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `OAuth ${token}` }, body: q(params) });
    return { status: res.status, headers: res.headers, body: (await res.json()) as any };
  };
  const read = (path: string) => get(`/${V}${path}`, { authorization: `OAuth ${token}` });
  const statusOf = async (id: string) => (await read(`/${id}?fields=status_code,status`)).body;

  before(async () => {
    media = await startHttpsServer();
    media.route('/a.png', (_req, res) => { res.writeHead(200, { 'content-type': 'image/png' }); res.end(PNG_1X1); });
    media.route('/clip.mp4', (_req, res) => { res.writeHead(200, { 'content-type': 'video/mp4' }); res.end(Buffer.concat([Buffer.from('0000001866747970', 'hex'), Buffer.from('mp42'), Buffer.alloc(64)])); });
    fb.trustMediaCa(media.ca);
    const user = fb.addUser({ pages: [{ instagram: { username: 'shop' } }] });
    const page = fb.addPage(user.id, { instagram: { username: 'shop2' } });
    igId = page.instagram!.id;
    token = fb.issuePageToken(page.id, APP.clientId, ['instagram_basic', 'instagram_content_publish', 'pages_show_list']);
    fb.instagram.setProcessingMs({ image: 60_000, video: 60_000 });
  });
  after(() => media.close());

  test('a container is IN_PROGRESS until the emulator\'s clock passes its processing, then media_publish gives the media; the container says PUBLISHED', async () => {
    const created = await post(`/${igId}/media`, { image_url: `${media.url}/a.png`, caption: 'hi' });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.deepEqual(await statusOf(created.body.id), { status_code: 'IN_PROGRESS', status: 'IN_PROGRESS', id: created.body.id });
    const early = await post(`/${igId}/media_publish`, { creation_id: created.body.id });
    assertMetaError(early.body, 9007, /Media ID is not available/, 2207027);
    fb.clock.advance(60_000);
    assert.equal((await statusOf(created.body.id)).status_code, 'FINISHED');
    const published = await post(`/${igId}/media_publish`, { creation_id: created.body.id });
    assert.equal(published.status, 200);
    assert.equal((await statusOf(created.body.id)).status_code, 'PUBLISHED');
    const again = await post(`/${igId}/media_publish`, { creation_id: created.body.id });
    assertMetaError(again.body, 9007);
    const node = await read(`/${published.body.id}?fields=id,caption,media_type,media_product_type,permalink`);
    assert.equal(node.body.caption, 'hi');
    assert.equal(node.body.media_type, 'IMAGE');
    assert.match(node.body.permalink, /^https:\/\/www\.instagram\.com\/p\/[\w-]+\/$/);
    assert.equal(fb.instagram.published().at(-1)!.fetched[0]!.size, PNG_1X1.length, 'the image was downloaded');
  });

  test('parameters are checked as Meta does: VIDEO outside a carousel, 4 collaborators, a 1-item carousel, collaborators on a Story', async () => {
    assertMetaError((await post(`/${igId}/media`, { media_type: 'VIDEO', video_url: `${media.url}/clip.mp4` })).body, 100, /REELS/, 2207067);
    assertMetaError((await post(`/${igId}/media`, { image_url: `${media.url}/a.png`, collaborators: '["a","b","c","d"]' })).body, 100, /at most 3/, 2207053);
    const item = await post(`/${igId}/media`, { image_url: `${media.url}/a.png`, is_carousel_item: 'true' });
    assertMetaError((await post(`/${igId}/media`, { media_type: 'CAROUSEL', children: item.body.id })).body, 100, /2 to 10/, 2207024);
    assertMetaError((await post(`/${igId}/media`, { media_type: 'STORIES', image_url: `${media.url}/a.png`, collaborators: '["a"]' })).body, 100, /Stories/);
    assertMetaError((await post(`/${igId}/media`, { image_url: `${media.url}/a.png`, user_tags: '[{"username":"a","x":2,"y":0}]' })).body, 100, /user_tags/);
  });

  test('a URL it cannot download: an image is refused at once (#9004/2207052), a video ends in status ERROR', async () => {
    assertMetaError((await post(`/${igId}/media`, { image_url: `${media.url}/nothing.jpg` })).body, 9004, /Only photo or video/, 2207052);
    const reel = await post(`/${igId}/media`, { media_type: 'REELS', video_url: `${media.url}/nothing.mp4` });
    assert.equal(reel.status, 200);
    const status = await (async () => {
      for (let i = 0; i < 100; i++) {
        const s = await statusOf(reel.body.id);
        if (s.status_code !== 'IN_PROGRESS') return s;
        await new Promise((r) => setTimeout(r, 20));
      }
      return undefined;
    })();
    assert.deepEqual(status, { id: reel.body.id, status_code: 'ERROR', status: 'Error: Media download has failed. The media URI doesn\'t meet our requirements. (2207052)' });
  });

  test('an unpublished container expires after 24 hours', async () => {
    const created = await post(`/${igId}/media`, { image_url: `${media.url}/a.png` });
    fb.clock.advance(24 * 3_600_000 + 1000);
    assert.equal((await statusOf(created.body.id)).status_code, 'EXPIRED');
    assertMetaError((await post(`/${igId}/media_publish`, { creation_id: created.body.id })).body, -2, /expired/, 2207020);
  });

  test('content_publishing_limit counts the last 24 hours; over the limit media_publish is #9/2207042', async () => {
    const limit = await read(`/${igId}/content_publishing_limit?fields=quota_usage,config`);
    assert.deepEqual(limit.body, { data: [{ quota_usage: 0, config: { quota_total: 50, quota_duration: 86400 } }] });
    fb.instagram.setQuota(1);
    fb.instagram.publishedElsewhere(igId, 1);
    const created = await post(`/${igId}/media`, { image_url: `${media.url}/a.png` });
    fb.clock.advance(60_000);
    assertMetaError((await post(`/${igId}/media_publish`, { creation_id: created.body.id })).body, 9, /maximum number of posts/, 2207042);
    fb.instagram.setQuota(50);
  });

  test('usage headers on every answer; a throttled account answers #80002 with estimated_time_to_regain_access', async () => {
    const ok = await read(`/${igId}/media?fields=id`);
    const buc = JSON.parse(ok.headers.get('x-business-use-case-usage')!);
    assert.equal(buc[igId][0].type, 'instagram');
    assert.equal(typeof JSON.parse(ok.headers.get('x-app-usage')!).call_count, 'number');
    fb.instagram.throttle(5 * 60_000);
    const refused = await read(`/${igId}/media?fields=id`);
    assertMetaError(refused.body, 80002, /too many calls/);
    assert.equal(JSON.parse(refused.headers.get('x-business-use-case-usage')!)[igId][0].estimated_time_to_regain_access, 5);
    fb.instagram.throttle(0);
  });

  test('comments: POST /{media-id}/comments message= by the account, listed in order', async () => {
    fb.instagram.publishedElsewhere(igId, 1);
    const mediaId = fb.instagram.published().at(-1)!.id;
    assert.equal((await post(`/${mediaId}/comments`, { message: 'one' })).status, 200);
    await post(`/${mediaId}/comments`, { message: 'two' });
    const listed = await read(`/${mediaId}/comments?fields=id,text,username`);
    assert.deepEqual(listed.body.data.map((c: any) => [c.text, c.username]), [['one', 'shop2'], ['two', 'shop2']]);
  });
});

describe('the Facebook emulator: Page publishing', () => {
  let pageId: string;
  let token: string;
  let userToken: string;
  const call = async (path: string, init: { body?: BodyInit; headers?: Record<string, string>; as?: string } = {}) => {
    const res = await fetch(`${fb.url}${path}`, { method: 'POST', headers: { authorization: `OAuth ${init.as ?? token}`, ...init.headers }, body: init.body ?? null });
    return { status: res.status, headers: res.headers, body: (await res.json()) as any };
  };
  const formPost = (path: string, params: Record<string, string>, as?: string) =>
    call(`/${V}${path}`, { body: q(params), headers: { 'content-type': 'application/x-www-form-urlencoded' }, ...(as ? { as } : {}) });
  const multipart = (path: string, fields: Record<string, string>, file: { name: string; bytes: Buffer }) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append(file.name, new Blob([new Uint8Array(file.bytes)]), 'file.bin');
    return call(`/${V}${path}`, { body: form });
  };

  before(() => {
    const user = fb.addUser({ pages: [{ name: 'Shop', username: 'shoppage' }] });
    pageId = user.pageIds[0]!;
    token = fb.issuePageToken(pageId, APP.clientId, ['pages_manage_posts', 'pages_read_engagement']);
    // Another Page's token, of the same user: it cannot post as this Page.
    userToken = fb.issuePageToken(fb.addPage(user.id, { name: 'Other' }).id, APP.clientId, ['pages_manage_posts', 'pages_read_engagement']);
    fb.pages.setVideoProcessingMs(60_000);
  });

  test('only the Page\'s own token posts as the Page (#200 for another Page\'s); posts carry X-Page-Usage', async () => {
    const refused = await formPost(`/${pageId}/feed`, { message: 'hi' }, userToken);
    assertMetaError(refused.body, 200, /pages_manage_posts/);
    const ok = await formPost(`/${pageId}/feed`, { message: 'hi' });
    assert.equal(ok.status, 200);
    assert.match(ok.body.id, new RegExp(`^${pageId}_\\d+$`));
    assert.equal(typeof JSON.parse(ok.headers.get('x-page-usage')!).call_count, 'number');
  });

  test('photos by bytes: an image is kept unpublished and attached once; anything else is refused', async () => {
    const photo = await multipart(`/${pageId}/photos`, { published: 'false' }, { name: 'source', bytes: PNG_1X1 });
    assert.equal(photo.status, 200, JSON.stringify(photo.body));
    assert.deepEqual(Object.keys(photo.body), ['id']);
    const notImage = await multipart(`/${pageId}/photos`, { published: 'false' }, { name: 'source', bytes: Buffer.from('hello') });
    assertMetaError(notImage.body, 100, undefined, 2069019);
    const post = await formPost(`/${pageId}/feed`, { message: 'with photo', 'attached_media[0]': JSON.stringify({ media_fbid: photo.body.id }) });
    assert.equal(post.status, 200);
    const again = await formPost(`/${pageId}/feed`, { message: 'again', 'attached_media[0]': JSON.stringify({ media_fbid: photo.body.id }) });
    assertMetaError(again.body, 100, /attached_media/);
  });

  test('a chunked feed video: offsets as Meta hands them out, finish only with every byte, processing on the clock', async () => {
    const bytes = Buffer.alloc(1.5 * 1024 * 1024, 7);
    const start = await formPost(`/${pageId}/videos`, { upload_phase: 'start', file_size: String(bytes.length) });
    assert.deepEqual([start.body.start_offset, start.body.end_offset], ['0', String(1024 * 1024)]);
    const session = start.body.upload_session_id;
    const early = await formPost(`/${pageId}/videos`, { upload_phase: 'finish', upload_session_id: session });
    assertMetaError(early.body, 6000, /received 0 of/);
    const first = await multipart(`/${pageId}/videos`, { upload_phase: 'transfer', upload_session_id: session, start_offset: '0' }, { name: 'video_file_chunk', bytes: bytes.subarray(0, 1024 * 1024) });
    assert.deepEqual([first.body.start_offset, first.body.end_offset], [String(1024 * 1024), String(bytes.length)]);
    const resent = await multipart(`/${pageId}/videos`, { upload_phase: 'transfer', upload_session_id: session, start_offset: '0' }, { name: 'video_file_chunk', bytes: bytes.subarray(0, 1024 * 1024) });
    assert.equal(resent.body.start_offset, String(1024 * 1024), 'a range received already is not appended again');
    await multipart(`/${pageId}/videos`, { upload_phase: 'transfer', upload_session_id: session, start_offset: String(1024 * 1024) }, { name: 'video_file_chunk', bytes: bytes.subarray(1024 * 1024) });
    assert.deepEqual((await formPost(`/${pageId}/videos`, { upload_phase: 'finish', upload_session_id: session, description: 'clip' })).body, { success: true });
    const status = async () => (await get(`/${V}/${start.body.video_id}?fields=status`, { authorization: `OAuth ${token}` })).body.status;
    assert.equal((await status()).processing_phase.status, 'in_progress');
    fb.clock.advance(60_000);
    const done = await status();
    assert.deepEqual([done.video_status, done.publishing_phase.publish_status], ['ready', 'published']);
    // A Video node's permalink_url is a path on www.facebook.com, not a full URL.
    const permalink = (await get(`/${V}/${start.body.video_id}?fields=permalink_url`, { authorization: `OAuth ${token}` })).body.permalink_url;
    assert.equal(permalink, `/shoppage/videos/${start.body.video_id}`);
  });

  test('a Page it does not manage is read only with the app\'s "Page Public Metadata Access" feature (#10 otherwise)', async () => {
    const stranger = fb.addPage(fb.addUser({ pages: [] }).id, { name: 'Stranger' }).id;
    const read = (id: string) => get(`/${V}/${id}?fields=id,name`, { authorization: `OAuth ${token}` });
    assert.deepEqual((await read(pageId)).body, { id: pageId, name: 'Shop' }, 'its own Page');
    const refused = await read(stranger);
    assertMetaError(refused.body, 10, /requires the 'pages_read_engagement' permission or the 'Page Public Content Access' feature or the 'Page Public Metadata Access' feature/);
    fb.pages.pagePublicMetadataAccess(true);
    try {
      assert.deepEqual((await read(stranger)).body, { id: stranger, name: 'Stranger' });
    } finally {
      fb.pages.pagePublicMetadataAccess(false);
    }
  });

  test('a Reel through rupload: start, the bytes with offset and file_size, finish with video_state', async () => {
    const start = await formPost(`/${pageId}/video_reels`, { upload_phase: 'start' });
    const url = new URL(start.body.upload_url);
    assert.equal(url.pathname, `/video-upload/${V}/${start.body.video_id}`);
    const up = await call(url.pathname, { body: new Uint8Array(Buffer.alloc(1000, 1)), headers: { offset: '0', file_size: '1000' } });
    assert.deepEqual(up.body, { success: true });
    const noState = await formPost(`/${pageId}/video_reels`, { upload_phase: 'finish', video_id: start.body.video_id });
    assertMetaError(noState.body, 100, /video_state/);
    const finished = await formPost(`/${pageId}/video_reels`, { upload_phase: 'finish', video_id: start.body.video_id, video_state: 'PUBLISHED', description: 'reel' });
    assert.deepEqual(finished.body, { success: true });
  });

  test('#368 and #32 switches answer Meta\'s bodies; #32 carries the minutes to wait', async () => {
    fb.pages.blockNext();
    assertMetaError((await formPost(`/${pageId}/feed`, { message: 'x' })).body, 368, /abusive/, 1390008);
    fb.pages.throttle(2 * 60_000);
    const throttled = await formPost(`/${pageId}/feed`, { message: 'x' });
    assertMetaError(throttled.body, 32, /Page request limit reached/);
    assert.equal(JSON.parse(throttled.headers.get('x-business-use-case-usage')!)[pageId][0].estimated_time_to_regain_access, 2);
    fb.pages.throttle(0);
  });
});

describe('the Facebook emulator: Page insights', () => {
  let pageId: string;
  let token: string;
  const insights = () => get(`/${V}/${pageId}/insights?${q({ metric: 'page_post_engagements', period: 'day', since: '1763510400', until: '1763683200' })}`, { authorization: `OAuth ${token}` });

  before(() => {
    pageId = fb.addUser({ pages: [{ name: 'Corner shop' }] }).pageIds[0]!;
    token = fb.issuePageToken(pageId, APP.clientId, ['read_insights', 'pages_read_engagement']);
  });

  test('a Page under 100 likes gets no insights: error 2874008 (Meta\'s Pages API error codes), or the empty data third parties report', async () => {
    fb.pages.setPageCounts(pageId, { fans: 99, followers: 500 });
    const refused = await insights();
    assert.equal(refused.status, 400);
    assertMetaError(refused.body, 100, /only available for Pages with at least 100 likes/, 2874008);

    fb.pages.smallPageInsights('empty');
    try {
      assert.deepEqual(await insights().then((r) => [r.status, r.body]), [200, { data: [] }]);
    } finally {
      fb.pages.smallPageInsights('error');
    }
  });

  test('from 100 likes on, one value per day', async () => {
    fb.pages.setPageCounts(pageId, { fans: 100 });
    fb.pages.setPageDay(pageId, '2025-11-19', { page_post_engagements: 4 });
    const answered = await insights();
    assert.equal(answered.status, 200, JSON.stringify(answered.body));
    assert.deepEqual(answered.body.data.map((d: any) => [d.name, d.values.map((v: any) => v.value)]), [['page_post_engagements', [4, 0]]]);
  });
});
