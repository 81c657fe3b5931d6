// The X API v2 emulator over real HTTP: status codes, bodies and headers as X sends them, and
// what the inspection handle recorded.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startXEmulator, type XEmulator } from '../../emulators/index.ts';
import { mp4Lasting } from '../helpers/media.ts';

const PNG = Buffer.from('89504e470d0a1a0a0000000d494844520000000200000003080600000000000000', 'hex');
const UNAUTHORIZED = { title: 'Unauthorized', detail: 'Unauthorized', type: 'about:blank', status: 401 };
const INVALID = { title: 'Invalid Request', detail: 'One or more parameters to your request was invalid.', type: 'https://api.x.com/2/problems/invalid-request' };
/** The 429 body of X's rate-limit page (docs.x.com/x-api/fundamentals/rate-limits). */
const RATE_LIMITED = { errors: [{ code: 88, message: 'Rate limit exceeded' }] };

let x: XEmulator;
let tokenCount = 0;

/** A fresh user with its own token, so tests don't share duplicate-text or rate-limit state. */
function newUser(extra: { scopes?: string[]; premium?: boolean; refreshToken?: string; expiresInSecs?: number; plan?: 'self_serve' | 'enterprise' } = {}) {
  tokenCount += 1;
  const accessToken = `token-${tokenCount}`;
  const user = x.addUser({ username: `user${tokenCount}`, accessToken, ...extra });
  return { user, token: accessToken };
}

async function call(method: string, path: string, token: string | null, body?: unknown, headers: Record<string, string> = {}) {
  const init: RequestInit = { method, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } };
  if (body instanceof FormData || typeof body === 'string') init.body = body;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { ...init.headers, 'content-type': 'application/json' };
  }
  const res = await fetch(`${x.url}${path}`, init);
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

const tweet = (token: string, body: unknown) => call('POST', '/2/tweets', token, body);

async function uploadImage(token: string, bytes = PNG) {
  const form = new FormData();
  form.append('media_category', 'tweet_image');
  form.append('media', new Blob([new Uint8Array(bytes)]), 'a.png');
  const res = await call('POST', '/2/media/upload', token, form);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data.id as string;
}

async function uploadVideo(token: string, bytes: Buffer) {
  const init = await call('POST', '/2/media/upload/initialize', token, { media_type: 'video/mp4', total_bytes: bytes.length, media_category: 'tweet_video' });
  assert.equal(init.status, 200);
  const id = init.body.data.id as string;
  for (const [index, chunk] of [bytes.subarray(0, 4), bytes.subarray(4)].entries()) {
    const form = new FormData();
    form.append('segment_index', String(index));
    form.append('media', new Blob([new Uint8Array(chunk)]));
    const appended = await call('POST', `/2/media/upload/${id}/append`, token, form);
    assert.equal(appended.status, 200);
  }
  return { id, init: init.body, finalize: await call('POST', `/2/media/upload/${id}/finalize`, token) };
}

before(async () => {
  x = await startXEmulator();
});
after(() => x.close());

describe('authentication', () => {
  it('answers 401 with X problem body without a token, for an unknown one, and after expiry', async () => {
    const { token } = newUser();
    assert.deepEqual(await call('GET', '/2/users/me', null).then((r) => [r.status, r.body]), [401, UNAUTHORIZED]);
    assert.deepEqual((await call('GET', '/2/users/me', 'nope')).body, UNAUTHORIZED);
    assert.equal((await call('GET', '/2/users/me', token)).status, 200);
    x.expireToken(token);
    assert.equal((await call('GET', '/2/users/me', token)).status, 401);
  });

  it('expires access tokens after two hours of emulator time', async () => {
    const { token } = newUser();
    x.clock.advance(2 * 60 * 60 * 1000 - 1000);
    assert.equal((await call('GET', '/2/users/me', token)).status, 200);
    x.clock.advance(2000);
    assert.deepEqual((await call('GET', '/2/users/me', token)).body, UNAUTHORIZED);
  });

  it('refuses a token without the endpoint scope with 403', async () => {
    const { token } = newUser({ scopes: ['tweet.read', 'users.read'] });
    const res = await tweet(token, { text: 'hi' });
    assert.equal(res.status, 403);
    assert.deepEqual(res.body, { title: 'Forbidden', detail: 'You are not permitted to perform this action.', type: 'about:blank', status: 403 });
  });

  it('rotates refresh tokens on POST /2/oauth2/token and refuses the used one', async () => {
    const { token } = newUser({ refreshToken: 'refresh-1' });
    const form = (refresh: string) => new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refresh, client_id: 'crier' }).toString();
    const headers = { 'content-type': 'application/x-www-form-urlencoded' };
    const first = await call('POST', '/2/oauth2/token', null, form('refresh-1'), headers);
    assert.equal(first.status, 200);
    assert.equal(first.body.token_type, 'bearer');
    assert.equal(first.body.expires_in, 7200);
    assert.notEqual(first.body.access_token, token);
    assert.equal((await call('GET', '/2/users/me', first.body.access_token)).status, 200);
    const reused = await call('POST', '/2/oauth2/token', null, form('refresh-1'), headers);
    assert.deepEqual([reused.status, reused.body], [400, { error: 'invalid_request', error_description: 'Value passed for the token was invalid.' }]);
    assert.equal((await call('POST', '/2/oauth2/token', null, form(first.body.refresh_token), headers)).status, 200);
  });
});

describe('POST /2/tweets', () => {
  it('creates a post (201, data with edit history) and records it', async () => {
    const { user, token } = newUser();
    const res = await tweet(token, { text: 'Hello & welcome', reply_settings: 'following' });
    assert.equal(res.status, 201);
    assert.match(res.body.data.id, /^[0-9]{1,19}$/);
    assert.deepEqual(res.body.data, { id: res.body.data.id, text: 'Hello &amp; welcome', edit_history_tweet_ids: [res.body.data.id] });
    const recorded = x.tweets().find((t) => t.id === res.body.data.id);
    assert.equal(recorded?.text, 'Hello & welcome');
    assert.equal(recorded?.authorId, user.id);
    assert.equal(recorded?.authorUsername, user.username);
    assert.equal(recorded?.replySettings, 'following');
    assert.deepEqual(recorded?.mediaIds, []);
  });

  it('sends x-rate-limit-* headers and refuses the request past the window limit with 429', async () => {
    const limited = await startXEmulator({ rateLimits: { 'POST /2/tweets': 2 } });
    try {
      limited.addUser({ username: 'r', accessToken: 'r' });
      const post = (text: string) =>
        fetch(`${limited.url}/2/tweets`, { method: 'POST', headers: { authorization: 'Bearer r', 'content-type': 'application/json' }, body: JSON.stringify({ text }) });
      const first = await post('one');
      assert.equal(first.headers.get('x-rate-limit-limit'), '2');
      assert.equal(first.headers.get('x-rate-limit-remaining'), '1');
      const reset = Number(first.headers.get('x-rate-limit-reset'));
      assert.ok(reset > Date.now() / 1000 + 800 && reset <= Date.now() / 1000 + 901);
      assert.equal((await post('two')).status, 201);
      const third = await post('three');
      assert.equal(third.status, 429);
      assert.equal(third.headers.get('x-rate-limit-remaining'), '0');
      assert.deepEqual(await third.json(), RATE_LIMITED);
      limited.clock.advance(15 * 60 * 1000);
      assert.equal((await post('three')).status, 201);
    } finally {
      await limited.close();
    }
  });

  it('counts 280 weighted characters: URLs 23, CJK and emoji 2', async () => {
    const { token } = newUser();
    const url = `https://example.com/${'p'.repeat(80)}`;
    assert.equal((await tweet(token, { text: `${'a'.repeat(256)} ${url}` })).status, 201);
    const tooLong = await tweet(token, { text: `${'b'.repeat(257)} ${url}` });
    assert.equal(tooLong.status, 400);
    assert.deepEqual(tooLong.body, {
      ...INVALID,
      errors: [{
        parameters: { text: [`${'b'.repeat(257)} ${url}`] },
        message: 'Your Tweet text is too long. For more information on how Twitter determines text length see https://github.com/twitter/twitter-text.',
      }],
    });
    assert.equal((await tweet(token, { text: '漢'.repeat(140) })).status, 201);
    assert.equal((await tweet(token, { text: '字'.repeat(141) })).status, 400);
    assert.equal((await tweet(token, { text: '😀'.repeat(140) })).status, 201);
    assert.equal((await tweet(token, { text: 'é'.repeat(280) })).status, 201);
    assert.equal((await tweet(newUser({ premium: true }).token, { text: 'c'.repeat(1000) })).status, 201);
  });

  it('refuses an exact duplicate of a recent post by the same user with 403', async () => {
    const { token } = newUser();
    assert.equal((await tweet(token, { text: 'same words' })).status, 201);
    const dup = await tweet(token, { text: 'same words' });
    assert.deepEqual([dup.status, dup.body], [403, {
      title: 'Forbidden', detail: 'You are not allowed to create a Tweet with duplicate content.', type: 'about:blank', status: 403,
    }]);
    assert.equal((await tweet(newUser().token, { text: 'same words' })).status, 201);
    const { token: longLived } = newUser({ expiresInSecs: 7 * 24 * 3600 });
    assert.equal((await tweet(longLived, { text: 'again' })).status, 201);
    x.clock.advance(23 * 60 * 60 * 1000);
    assert.equal((await tweet(longLived, { text: 'again' })).status, 403);
    x.clock.advance(2 * 60 * 60 * 1000);
    assert.equal((await tweet(longLived, { text: 'again' })).status, 201);
  });

  it('threads replies and refuses a reply to a missing post with 403', async () => {
    const { user, token } = newUser();
    const root = (await tweet(token, { text: 'root' })).body.data.id;
    const child = await tweet(token, { text: 'child', reply: { in_reply_to_tweet_id: root } });
    assert.equal(child.status, 201);
    assert.equal(x.tweets().find((t) => t.id === child.body.data.id)?.inReplyToTweetId, root);
    const lookup = await call('GET', `/2/tweets/${child.body.data.id}?tweet.fields=conversation_id,in_reply_to_user_id,referenced_tweets,author_id`, token);
    assert.equal(lookup.body.data.conversation_id, root);
    assert.equal(lookup.body.data.in_reply_to_user_id, user.id);
    assert.deepEqual(lookup.body.data.referenced_tweets, [{ type: 'replied_to', id: root }]);
    const orphan = await tweet(token, { text: 'orphan', reply: { in_reply_to_tweet_id: '123' } });
    assert.deepEqual([orphan.status, orphan.body], [403, {
      title: 'Forbidden', detail: 'You attempted to reply to a Tweet that is deleted or not visible to you.', type: 'about:blank', status: 403,
    }]);
  });

  it('validates the body against the CreatePostsRequest schema with X wording', async () => {
    const { token } = newUser();
    const res = await tweet(token, { text: 'x', media: { media_ids: ['1', '2', '3', '4', '5'] }, extra: true, reply_settings: 'everyone' });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body.errors.map((e: { message: string }) => e.message), [
      '$.media.media_ids: there must be a maximum of 4 items in the array',
      '$.extra: is not defined in the schema and the schema does not allow additional properties',
      '$.reply_settings: does not have a value in the enumeration [following, mentionedUsers, subscribers, verified]',
    ]);
    const badId = await tweet(token, { text: 'x', reply: { in_reply_to_tweet_id: 'abc' } });
    assert.equal(badId.body.errors[0].message, '$.reply.in_reply_to_tweet_id: does not match the regex pattern ^[0-9]{1,19}$');
    assert.equal((await tweet(token, { text: 5 })).body.errors[0].message, '$.text: integer found, string expected');
    assert.deepEqual((await call('POST', '/2/tweets', token, 'not json', { 'content-type': 'application/json' })).body.errors, [
      { parameters: {}, message: 'Request body must be a JSON object.' },
    ]);
  });
});

describe('media', () => {
  it('uploads an image in one request and attaches up to four to a post', async () => {
    const { token } = newUser();
    const ids = [await uploadImage(token), await uploadImage(token), await uploadImage(token), await uploadImage(token)];
    const media = x.media().find((m) => m.id === ids[0]);
    assert.equal(media?.category, 'tweet_image');
    assert.equal(media?.size, PNG.length);
    const res = await tweet(token, { text: 'four', media: { media_ids: ids } });
    assert.equal(res.status, 201);
    assert.deepEqual(x.tweets().find((t) => t.id === res.body.data.id)?.mediaIds, ids);
    const lookup = await call('GET', `/2/tweets/${res.body.data.id}?tweet.fields=attachments`, token);
    assert.deepEqual(lookup.body.data.attachments.media_keys, ids.map((id) => `3_${id}`));
  });

  it('reports image dimensions and refuses unknown or foreign media ids', async () => {
    const { token } = newUser();
    const form = new FormData();
    form.append('media_category', 'tweet_image');
    form.append('media', new Blob([new Uint8Array(PNG)]));
    const res = await call('POST', '/2/media/upload', token, form);
    assert.deepEqual(res.body.data.image, { image_type: 'image/png', w: 2, h: 3 });
    assert.equal(res.body.data.media_key, `3_${res.body.data.id}`);
    assert.equal(res.body.data.expires_after_secs, 86400);
    const foreign = await tweet(newUser().token, { text: 'stolen', media: { media_ids: [res.body.data.id, '999'] } });
    assert.deepEqual([foreign.status, foreign.body], [400, {
      ...INVALID,
      errors: [{ parameters: { 'media.media_ids': [res.body.data.id, '999'] }, message: 'Your media IDs are invalid.' }],
    }]);
  });

  it('refuses the retired command=INIT form of POST /2/media/upload', async () => {
    const { token } = newUser();
    const form = new FormData();
    form.append('command', 'INIT');
    form.append('media_type', 'video/mp4');
    form.append('total_bytes', '10');
    const res = await call('POST', '/2/media/upload', token, form);
    assert.equal(res.status, 400);
    assert.ok(res.body.errors.some((e: { message: string }) => e.message === '$.command: is not defined in the schema and the schema does not allow additional properties'));
    assert.ok(res.body.errors.some((e: { message: string }) => e.message === '$.media: is missing but it is required'));
  });

  it('runs a chunked video through pending → in_progress → succeeded before it can be posted', async () => {
    const { token } = newUser();
    const video = Buffer.from('0000001866747970mp42-rest-of-the-video');
    const { id, init, finalize } = await uploadVideo(token, video);
    assert.deepEqual(Object.keys(init.data).sort(), ['expires_after_secs', 'id', 'media_key']);
    assert.equal(init.data.media_key, `7_${id}`);
    assert.equal(finalize.status, 200);
    assert.deepEqual(finalize.body.data.processing_info, { state: 'pending', check_after_secs: 1 });
    assert.equal(finalize.body.data.size, video.length);
    const status = () => call('GET', `/2/media/upload?command=STATUS&media_id=${id}`, token).then((r) => r.body.data.processing_info);

    const early = await tweet(token, { text: 'too early', media: { media_ids: [id] } });
    assert.equal(early.body.errors[0].message, 'Your media IDs are invalid.');
    x.clock.advance(1500);
    assert.equal((await status()).state, 'in_progress');
    assert.ok((await status()).progress_percent > 0);
    x.clock.advance(2000);
    assert.deepEqual(await status(), { state: 'succeeded', progress_percent: 100 });
    assert.equal((await call('GET', `/2/media/upload?media_id=${id}`, token)).body.data.processing_info.state, 'succeeded');
    assert.equal((await tweet(token, { text: 'video', media: { media_ids: [id] } })).status, 201);
    assert.equal(x.media().find((m) => m.id === id)?.state, 'succeeded');
  });

  it('lets tests fail processing or pin a state, and allows one video only', async () => {
    const { token } = newUser();
    x.failNextProcessing();
    const failed = await uploadVideo(token, Buffer.from('0000001866747970failing'));
    x.clock.advance(10_000);
    const info = (await call('GET', `/2/media/upload?command=STATUS&media_id=${failed.id}`, token)).body.data.processing_info;
    assert.deepEqual(info, { state: 'failed', progress_percent: 100 });

    const pinned = await uploadVideo(token, Buffer.from('0000001866747970pinned'));
    x.setMediaState(pinned.id, 'in_progress');
    x.clock.advance(10_000);
    assert.equal(x.media().find((m) => m.id === pinned.id)?.state, 'in_progress');
    x.setMediaState(pinned.id, 'succeeded');
    const image = await uploadImage(token);
    const mixed = await tweet(token, { text: 'mixed', media: { media_ids: [pinned.id, image] } });
    assert.equal(mixed.status, 400);
    assert.equal(mixed.body.errors[0].message, 'The Tweet exceeds the number of allowed attachment types.');
  });

  it('refuses a finalize whose segments do not add up to total_bytes', async () => {
    const { token } = newUser();
    const init = await call('POST', '/2/media/upload/initialize', token, { media_type: 'video/mp4', total_bytes: 100, media_category: 'tweet_video' });
    const id = init.body.data.id;
    const appended = await call('POST', `/2/media/upload/${id}/append`, token, { media: Buffer.from('short').toString('base64'), segment_index: 0 });
    assert.equal(appended.status, 200);
    assert.ok(Number.isInteger(appended.body.data.expires_at));
    const res = await call('POST', `/2/media/upload/${id}/finalize`, token);
    assert.equal(res.status, 400);
    assert.equal(res.body.errors[0].message, 'Segments do not add up to provided total file size.');
  });

  it('stores alt text from POST /2/media/metadata', async () => {
    const { token } = newUser();
    const id = await uploadImage(token);
    const res = await call('POST', '/2/media/metadata', token, { id, metadata: { alt_text: { text: 'A red square' } } });
    assert.deepEqual([res.status, res.body], [200, { data: { id, associated_metadata: { alt_text: { text: 'A red square' } } } }]);
    assert.equal(x.media().find((m) => m.id === id)?.altText, 'A red square');
  });
});

describe('reads', () => {
  it('answers GET /2/users/me and lists a user timeline newest first with pagination', async () => {
    const { user, token } = newUser();
    assert.deepEqual((await call('GET', '/2/users/me', token)).body, { data: { id: user.id, name: user.username, username: user.username } });
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await tweet(token, { text: `post ${i}` })).body.data.id);
    const page1 = await call('GET', `/2/users/${user.id}/tweets?max_results=5`, token);
    assert.deepEqual(page1.body.data.map((t: { id: string }) => t.id), ids.slice(2).reverse());
    assert.equal(page1.body.meta.result_count, 5);
    assert.equal(page1.body.meta.newest_id, ids[6]);
    const page2 = await call('GET', `/2/users/${user.id}/tweets?max_results=5&pagination_token=${page1.body.meta.next_token}`, token);
    assert.deepEqual(page2.body.data.map((t: { id: string }) => t.id), [ids[1], ids[0]]);
    assert.equal(page2.body.meta.next_token, undefined);
    const bad = await call('GET', `/2/users/${user.id}/tweets?max_results=200`, token);
    assert.equal(bad.body.errors[0].message, 'The `max_results` query parameter value [200] is not between 5 and 100');
    assert.deepEqual((await call('GET', `/2/users/${newUser().user.id}/tweets`, token)).body, { meta: { result_count: 0 } });
  });

  it('bounds a timeline by start_time/end_time (inclusive, whole seconds) or since_id/until_id (exclusive, winning over the times)', async () => {
    const { user, token } = newUser();
    const ids: string[] = [];
    const seconds: string[] = [];
    for (let i = 0; i < 4; i++) {
      const id = (await tweet(token, { text: `timed ${i}` })).body.data.id as string;
      ids.push(id);
      seconds.push(`${x.tweets().find((t) => t.id === id)!.createdAt.slice(0, 19)}Z`);
      x.clock.advance(60_000);
    }
    const list = async (query: string) => ((await call('GET', `/2/users/${user.id}/tweets?${query}`, token)).body.data ?? []).map((t: { id: string }) => t.id);
    assert.deepEqual(await list(`start_time=${seconds[1]}`), [ids[3], ids[2], ids[1]], 'start_time includes its whole second');
    assert.deepEqual(await list(`end_time=${seconds[2]}`), [ids[2], ids[1], ids[0]], 'end_time too');
    assert.deepEqual(await list(`start_time=${seconds[1]}&end_time=${seconds[2]}`), [ids[2], ids[1]]);
    assert.deepEqual(await list(`since_id=${ids[1]}`), [ids[3], ids[2]]);
    assert.deepEqual(await list(`since_id=${ids[0]}&until_id=${ids[3]}`), [ids[2], ids[1]]);
    assert.deepEqual(await list(`since_id=${ids[2]}&start_time=${seconds[0]}`), [ids[3]], 'since_id takes precedence');
    assert.deepEqual(await list(`start_time=${seconds[1]}&max_results=5&pagination_token=${ids[1]}`), [ids[1]], 'pages stay inside the range');
    const bad = await call('GET', `/2/users/${user.id}/tweets?start_time=yesterday`, token);
    assert.deepEqual([bad.status, bad.body.errors[0].parameters, bad.body.detail], [400, { start_time: ['yesterday'] }, INVALID.detail]);
    assert.equal((await call('GET', `/2/users/${user.id}/tweets?start_time=2009-01-01T00:00:00Z`, token)).status, 400, 'before 2010-11-06');
    assert.equal((await call('GET', `/2/users/${user.id}/tweets?start_time=${seconds[2]}&end_time=${seconds[1]}`, token)).status, 400);
    assert.equal((await call('GET', `/2/users/${user.id}/tweets?since_id=abc`, token)).status, 400);
  });

  it('answers a missing post with 200 and a resource-not-found error, also after DELETE', async () => {
    const { token } = newUser();
    const id = (await tweet(token, { text: 'short-lived' })).body.data.id;
    assert.deepEqual((await call('DELETE', `/2/tweets/${id}`, token)).body, { data: { deleted: true } });
    assert.equal(x.tweets().find((t) => t.id === id)?.deleted, true);
    const res = await call('GET', `/2/tweets/${id}`, token);
    assert.deepEqual([res.status, res.body], [200, {
      errors: [{
        value: id, detail: `Could not find tweet with id: [${id}].`, title: 'Not Found Error', resource_type: 'tweet',
        parameter: 'id', resource_id: id, type: 'https://api.x.com/2/problems/resource-not-found',
      }],
    }]);
  });

  it('answers unknown routes like api.x.com', async () => {
    const res = await call('GET', '/2/unknown', newUser().token);
    assert.deepEqual([res.status, res.body], [404, { errors: [{ message: 'Sorry, that page does not exist', code: 34 }] }]);
  });
});

describe('fault injection', () => {
  it('answers the next matching requests with the injected 429, 503 or 401', async () => {
    const { token } = newUser();
    x.failNext({ status: 429, path: '/2/tweets' });
    const limited = await tweet(token, { text: 'first try' });
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get('x-rate-limit-remaining'), '0');
    assert.ok(Number(limited.headers.get('x-rate-limit-reset')) > Date.now() / 1000);
    assert.deepEqual(limited.body, RATE_LIMITED);
    assert.equal((await tweet(token, { text: 'first try' })).status, 201);

    x.failNext({ status: 503, times: 2, method: 'POST' });
    assert.equal((await tweet(token, { text: 'a' })).status, 503);
    const second = await tweet(token, { text: 'b' });
    assert.deepEqual([second.status, second.body], [503, { title: 'Service Unavailable', detail: 'Service Unavailable', type: 'about:blank', status: 503 }]);
    assert.equal((await tweet(token, { text: 'c' })).status, 201);

    x.failNext({ status: 401, path: /^\/2\/users/ });
    assert.deepEqual((await call('GET', '/2/users/me', token)).body, UNAUTHORIZED);
    x.failNext({ status: 429, headers: { 'x-rate-limit-reset': '12345' }, body: { errors: [{ code: 88, message: 'Rate limit exceeded' }] } });
    const custom = await call('GET', '/2/users/me', token);
    assert.equal(custom.headers.get('x-rate-limit-reset'), '12345');
    assert.deepEqual(custom.body, { errors: [{ code: 88, message: 'Rate limit exceeded' }] });
  });
});

describe('engagement reads and the reply rule', () => {
  it('searches a conversation of the last 7 days, newest first, with authors expanded and next_token pages', async () => {
    const { user, token } = newUser();
    const fan = newUser();
    const root = x.addTweet({ authorId: user.id, text: 'root' });
    x.addTweet({ authorId: fan.user.id, text: 'too old', inReplyTo: root.id, createdAt: new Date(Date.now() - 8 * 86_400_000).toISOString() });
    const replies = Array.from({ length: 11 }, (_, i) => x.addTweet({ authorId: fan.user.id, text: `reply ${i}`, inReplyTo: root.id }));
    const q = (extra = '') => `/2/tweets/search/recent?query=conversation_id:${root.id}&tweet.fields=author_id,referenced_tweets&expansions=author_id&user.fields=username,profile_image_url${extra}`;
    const first = await call('GET', q(), token);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual(first.body.data.map((t: any) => t.id), [...replies].reverse().slice(0, 10).map((t) => t.id));
    assert.deepEqual(first.body.data[0].referenced_tweets, [{ type: 'replied_to', id: root.id }]);
    assert.deepEqual(first.body.includes.users, [{ id: fan.user.id, name: fan.user.name, username: fan.user.username, profile_image_url: fan.user.profileImageUrl }]);
    assert.equal(first.body.meta.result_count, 10);
    const second = await call('GET', q(`&next_token=${first.body.meta.next_token}`), token);
    assert.deepEqual(second.body.data.map((t: any) => t.id), [replies[0]!.id, root.id]);
    assert.equal(second.body.meta.next_token, undefined);
    const bad = await call('GET', `/2/tweets/search/recent?query=from:someone`, token);
    assert.equal(bad.status, 400);
    assert.equal((await call('GET', q('&max_results=5'), token)).body.errors[0].message, 'The `max_results` query parameter value [5] is not between 10 and 100');
  });

  it('users/me gives public_metrics on request; a long post keeps its whole text in note_tweet', async () => {
    const { user, token } = newUser({ premium: true });
    x.setFollowers(user.id, { followers: 12, following: 3 });
    const long = 'word '.repeat(100).trim();
    const created = await tweet(token, { text: long });
    const me = await call('GET', '/2/users/me?user.fields=public_metrics', token);
    assert.deepEqual(me.body.data.public_metrics, { followers_count: 12, following_count: 3, tweet_count: 1, listed_count: 0, like_count: 0 });
    const read = await call('GET', `/2/tweets/${created.body.data.id}?tweet.fields=note_tweet`, token);
    assert.equal(read.body.data.note_tweet.text, long);
    assert.ok(read.body.data.text.length < long.length);
  });

  it('private metrics: the author\'s posts of the last 30 days only', async () => {
    const { user, token } = newUser();
    const other = newUser();
    const recent = x.addTweet({ authorId: user.id, text: 'recent', metrics: { impression_count: 9, engagements: 2 } });
    const old = x.addTweet({ authorId: user.id, text: 'old', createdAt: new Date(Date.now() - 31 * 86_400_000).toISOString() });
    const fields = '?tweet.fields=public_metrics,non_public_metrics';
    const mine = await call('GET', `/2/tweets/${recent.id}${fields}`, token);
    assert.deepEqual(mine.body.data.non_public_metrics, { impression_count: 9, url_link_clicks: 0, user_profile_clicks: 0, engagements: 2 });
    assert.equal((await call('GET', `/2/tweets/${old.id}${fields}`, token)).body.errors[0].title, 'Field Authorization Error');
    assert.equal((await call('GET', `/2/tweets/${recent.id}${fields}`, other.token)).body.errors[0].title, 'Field Authorization Error');
  });

  it('self-serve apps may reply only to their own posts, posts that mention them or quote them; enterprise apps anywhere', async () => {
    const { user, token } = newUser();
    const fan = newUser();
    const plain = x.addTweet({ authorId: fan.user.id, text: 'hello world' });
    const mention = x.addTweet({ authorId: fan.user.id, text: `hey @${user.username.toUpperCase()}` });
    const mine = x.addTweet({ authorId: user.id, text: 'mine' });
    const quote = x.addTweet({ authorId: fan.user.id, text: 'look', quoteOf: mine.id });
    const refused = await tweet(token, { text: 'hi', reply: { in_reply_to_tweet_id: plain.id } });
    assert.equal(refused.status, 403);
    assert.match(refused.body.detail, /not been mentioned or otherwise engaged by the author/);
    for (const target of [mention, mine, quote]) assert.equal((await tweet(token, { text: `hi ${target.id}`, reply: { in_reply_to_tweet_id: target.id } })).status, 201);
    const enterprise = x.addUser({ username: 'bigco', accessToken: 'enterprise-token', plan: 'enterprise' });
    assert.ok(enterprise);
    assert.equal((await tweet('enterprise-token', { text: 'hi', reply: { in_reply_to_tweet_id: plain.id } })).status, 201);
  });

  it('records every call behind a token, with its query, JSON body and status', async () => {
    const { user, token } = newUser();
    const mark = x.calls().length;
    await call('GET', '/2/users/me?user.fields=public_metrics', token);
    await tweet(token, { text: 'logged' });
    assert.deepEqual(x.calls().slice(mark), [
      { method: 'GET', path: '/2/users/me', query: { 'user.fields': 'public_metrics' }, queryValues: { 'user.fields': ['public_metrics'] }, body: undefined, userId: user.id, status: 200 },
      { method: 'POST', path: '/2/tweets', query: {}, queryValues: {}, body: { text: 'logged' }, userId: user.id, status: 201 },
    ]);
  });
});

describe('what X documents that a self-serve user may not do', () => {
  it('refuses quote_tweet_id from a self-serve app with 403 and takes it from an enterprise one', async () => {
    const { user, token } = newUser();
    const quoted = x.addTweet({ authorId: newUser().user.id, text: 'worth quoting' });
    const refused = await tweet(token, { text: 'look at this', quote_tweet_id: quoted.id });
    assert.deepEqual([refused.status, refused.body], [403, {
      title: 'Client Forbidden',
      detail: 'Quote-posting (using the quote_tweet_id parameter) requires an Enterprise plan. It is not available on self-serve (pay-per-use) tiers.',
      type: 'https://api.x.com/2/problems/client-forbidden',
      status: 403,
    }]);
    assert.equal(x.tweets().some((t) => t.authorId === user.id), false);
    const enterprise = newUser({ plan: 'enterprise' });
    const quote = await tweet(enterprise.token, { text: 'look at this', quote_tweet_id: quoted.id });
    assert.equal(quote.status, 201);
    assert.equal(x.tweets().find((t) => t.id === quote.body.data.id)?.quoteTweetId, quoted.id);
  });

  it('refuses a video longer than the user\'s cap at post time (20 minutes, 125 with Premium), read from the file', async () => {
    const { token } = newUser();
    const long = await uploadVideo(token, mp4Lasting(21 * 60));
    assert.equal(x.media().find((m) => m.id === long.id)?.videoMs, 21 * 60_000);
    const short = await uploadVideo(token, mp4Lasting(19 * 60));
    x.clock.advance(5000);
    const refused = await tweet(token, { text: 'a long film', media: { media_ids: [long.id] } });
    assert.deepEqual([refused.status, refused.body], [403, {
      title: 'Forbidden', detail: 'This user is not allowed to post a video longer than 20 minutes.', type: 'about:blank', status: 403,
    }]);
    assert.equal((await tweet(token, { text: 'a short film', media: { media_ids: [short.id] } })).status, 201);

    const premium = newUser({ premium: true });
    const allowed = await uploadVideo(premium.token, mp4Lasting(21 * 60));
    const tooLong = await uploadVideo(premium.token, mp4Lasting(126 * 60));
    x.clock.advance(5000);
    assert.equal((await tweet(premium.token, { text: 'premium film', media: { media_ids: [allowed.id] } })).status, 201);
    const over = await tweet(premium.token, { text: 'too long even for premium', media: { media_ids: [tooLong.id] } });
    assert.deepEqual([over.status, over.body.detail], [403, 'This user is not allowed to post a video longer than 125 minutes.']);
  });

  it('takes a video\'s length from setMediaDuration() when its bytes carry no movie header', async () => {
    const { token } = newUser();
    const video = await uploadVideo(token, Buffer.from('0000001866747970no-movie-header'));
    x.setMediaDuration(video.id, 20 * 60 + 1);
    x.clock.advance(5000);
    assert.equal((await tweet(token, { text: 'headerless', media: { media_ids: [video.id] } })).status, 403);
    x.setMediaDuration(video.id, 20 * 60);
    assert.equal((await tweet(token, { text: 'headerless', media: { media_ids: [video.id] } })).status, 201);
  });
});

describe('scopes, as the description lists them for each operation', () => {
  const forbidden = { title: 'Forbidden', detail: 'You are not permitted to perform this action.', type: 'about:blank', status: 403 };

  it('asks every scope of the operation: DELETE /2/tweets/:id needs tweet.read, tweet.write and users.read', async () => {
    const lacking = newUser({ scopes: ['tweet.read', 'tweet.write'] });
    const mine = x.addTweet({ authorId: lacking.user.id, text: 'mine to delete' });
    assert.deepEqual(await call('DELETE', `/2/tweets/${mine.id}`, lacking.token).then((r) => [r.status, r.body]), [403, forbidden]);
    assert.equal(x.tweets().find((t) => t.id === mine.id)?.deleted, false);
    const full = newUser({ scopes: ['tweet.read', 'tweet.write', 'users.read'] });
    const theirs = x.addTweet({ authorId: full.user.id, text: 'to delete' });
    assert.deepEqual((await call('DELETE', `/2/tweets/${theirs.id}`, full.token)).body, { data: { deleted: true } });
  });

  it('GET /2/users/me needs tweet.read as well as users.read; media routes only media.write', async () => {
    const usersOnly = newUser({ scopes: ['users.read'] });
    assert.deepEqual(await call('GET', '/2/users/me', usersOnly.token).then((r) => [r.status, r.body]), [403, forbidden]);
    const reader = newUser({ scopes: ['users.read', 'tweet.read'] });
    assert.equal((await call('GET', '/2/users/me', reader.token)).status, 200);
    const mediaOnly = newUser({ scopes: ['media.write'] });
    await uploadImage(mediaOnly.token);
    assert.equal((await tweet(mediaOnly.token, { text: 'no tweet scopes' })).status, 403);
  });

  it('takes users.email on the consent page, as X\'s authorize page lists it', async () => {
    const { user } = newUser();
    x.addApp({ clientId: 'email-app', clientSecret: 's', callbackUrls: ['https://app.example/cb'] });
    x.signIn(user.id);
    const consent = async (scope: string) => {
      const query = new URLSearchParams({ response_type: 'code', client_id: 'email-app', redirect_uri: 'https://app.example/cb', scope, state: 's', code_challenge: 'c', code_challenge_method: 'plain' });
      const res = await fetch(`${x.url}/i/oauth2/authorize?${query}`, { redirect: 'manual' });
      assert.equal(res.status, 302);
      return new URL(res.headers.get('location')!).searchParams;
    };
    const granted = await consent('tweet.read users.read users.email');
    assert.equal(granted.get('error'), null);
    assert.ok(granted.get('code'));
    assert.equal((await consent('tweet.read users.phone')).get('error'), 'invalid_scope');
  });
});
