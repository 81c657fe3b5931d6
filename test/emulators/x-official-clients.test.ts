// X's official SDK (@xdevplatform/xdk) and the most used community client (twitter-api-v2), unchanged,
// against the X emulator: a post, media one-shot and chunked, a post read back with fields and
// expansions. xdk takes a local URL through its documented `baseUrl` option. twitter-api-v2 has no
// base-URL option: it is pointed here through its documented plugin hook (onBeforeRequestConfig
// rewrites https://api.x.com to the emulator) and its `httpAgent` setting (a plain-HTTP agent).
import assert from 'node:assert/strict';
import { Agent } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { ApiError, Client } from '@xdevplatform/xdk';
import { ApiResponseError, TwitterApi } from 'twitter-api-v2';
import { startXEmulator, type XEmulator } from '../../emulators/x/server.ts';

/** A 2×3 PNG: not valid UTF-8, so a chunk read as text would not come back whole. */
const PNG = Buffer.from('89504e470d0a1a0a0000000d494844520000000200000003080600000000000000', 'hex');
/** The start of an MP4 (an ftyp box) and some bytes: the emulator does not decode video. */
const MP4 = Buffer.concat([Buffer.from('000000186674797069736f6d0000020069736f6d69736f32', 'hex'), Buffer.alloc(40, 7)]);

let both: XEmulator;
let posts: XEmulator;
let tweets: XEmulator;
let users = 0;

before(async () => {
  // Processing done at once, so twitter-api-v2's wait (real seconds) is one STATUS call.
  const videoProcessing = { checkAfterSecs: 0, durationMs: 0 };
  both = await startXEmulator({ fieldVocabulary: 'both', videoProcessing });
  posts = await startXEmulator({ fieldVocabulary: 'post', videoProcessing });
  tweets = await startXEmulator({ fieldVocabulary: 'tweet', videoProcessing });
});
after(async () => {
  for (const x of [both, posts, tweets]) await x.close();
});

function userOn(x: XEmulator) {
  users += 1;
  const token = `client-token-${users}`;
  const user = x.addUser({ username: `client${users}`, accessToken: token });
  return { user, token };
}

function twitterApiV2(x: XEmulator, token: string) {
  const client = new TwitterApi(token, {
    httpAgent: new Agent(),
    plugins: [{ onBeforeRequestConfig: ({ params }) => { params.url = params.url.replace('https://api.x.com', x.url); } }],
  });
  return client.v2;
}

describe('twitter-api-v2 1.29', () => {
  it('posts, uploads an image in one request (multipart, media without a filename) and attaches it', async () => {
    const { token } = userOn(both);
    const v2 = twitterApiV2(both, token);
    const uploaded = await v2.post('media/upload', { media: PNG, media_category: 'tweet_image' }, { forceBodyMode: 'form-data' });
    assert.equal(uploaded.data.size, PNG.length);
    assert.deepEqual(uploaded.data.image, { image_type: 'image/png', w: 2, h: 3 });
    const posted = await v2.tweet({ text: 'from twitter-api-v2', media: { media_ids: [uploaded.data.id] } });
    assert.match(posted.data.id, /^\d+$/);
    assert.equal(both.tweets().at(-1)!.text, 'from twitter-api-v2');
  });

  it('uploads chunked with uploadMedia (initialize, append, finalize, STATUS) and posts the video', async () => {
    const { token } = userOn(both);
    const v2 = twitterApiV2(both, token);
    const image = await v2.uploadMedia(PNG, { media_type: 'image/png' }, 10);
    assert.deepEqual(both.media().find((m) => m.id === image)?.size, PNG.length);
    const video = await v2.uploadMedia(MP4, { media_type: 'video/mp4' }, 16);
    const view = both.media().find((m) => m.id === video)!;
    assert.deepEqual([view.size, view.state, view.category], [MP4.length, 'succeeded', 'tweet_video']);
    const appends = both.calls().filter((c) => c.path === `/2/media/upload/${video}/append`);
    assert.equal(appends.length, Math.ceil(MP4.length / 16));
    assert.ok(both.calls().some((c) => c.path === '/2/media/upload' && c.query.command === 'STATUS' && c.query.media_id === video));
    const posted = await v2.tweet({ text: 'a video', media: { media_ids: [video] } });
    assert.match(posted.data.id, /^\d+$/);
  });

  it('reads a post back with tweet.fields and expansions', async () => {
    const { user, token } = userOn(both);
    const v2 = twitterApiV2(both, token);
    const root = await v2.tweet('root');
    const reply = await v2.reply('and a reply', root.data.id);
    const read = await v2.singleTweet(reply.data.id, { 'tweet.fields': ['author_id', 'referenced_tweets', 'created_at'], expansions: ['author_id'], 'user.fields': ['username'] });
    assert.equal(read.data.author_id, user.id);
    assert.deepEqual(read.data.referenced_tweets, [{ type: 'replied_to', id: root.data.id }]);
    assert.deepEqual(read.includes?.users, [{ id: user.id, name: user.name, username: user.username }]);
  });

  it('is refused with X\'s 400 where the API takes only post.fields', async () => {
    const { user, token } = userOn(posts);
    const posted = posts.addTweet({ authorId: user.id, text: 'hi' });
    const error = await twitterApiV2(posts, token).singleTweet(posted.id, { 'tweet.fields': ['author_id'] }).catch((e: unknown) => e);
    assert.ok(error instanceof ApiResponseError);
    assert.equal(error.code, 400);
    assert.match((error.data.errors?.[0] as { message?: string } | undefined)?.message ?? '', /^The query parameter \[tweet\.fields\] is not one of \[id,post\.fields,/);
  });
});

describe('@xdevplatform/xdk 0.6.6', () => {
  const xdk = (x: XEmulator, token: string) => new Client({ baseUrl: x.url, accessToken: token });

  it('posts, uploads an image in one request (JSON, base64) and attaches it', async () => {
    const { token } = userOn(posts);
    const client = xdk(posts, token);
    const uploaded = await client.media.upload({ media: PNG.toString('base64'), mediaCategory: 'tweet_image' });
    const id = uploaded.data!.id!;
    assert.equal(posts.media().find((m) => m.id === id)?.size, PNG.length);
    const posted = await client.posts.create({ text: 'from xdk', media: { mediaIds: [id] } });
    assert.match(posted.data!.id!, /^\d+$/);
    assert.deepEqual(posts.tweets().at(-1)!.mediaIds, [id]);
  });

  it('uploads chunked (initialize, append, finalize) and reads the upload status', async () => {
    const { token } = userOn(posts);
    const client = xdk(posts, token);
    const init = await client.media.initializeUpload({ mediaType: 'video/mp4', totalBytes: MP4.length, mediaCategory: 'tweet_video' });
    const id = init.data!.id!;
    for (const [segmentIndex, chunk] of [MP4.subarray(0, 20), MP4.subarray(20)].entries()) {
      await client.media.appendUpload(id, { media: chunk.toString('base64'), segmentIndex });
    }
    const finalized = await client.media.finalizeUpload(id);
    assert.equal(finalized.data!.size, MP4.length);
    const status = await client.media.getUploadStatus(id, { command: 'STATUS' });
    assert.equal(status.data!.processingInfo!.state, 'succeeded');
  });

  it('reads a post back with post.fields and expansions, answered in the post vocabulary', async () => {
    const { user, token } = userOn(posts);
    const client = xdk(posts, token);
    const root = await client.posts.create({ text: 'root' });
    const reply = await client.posts.create({ text: 'and a reply', reply: { inReplyToTweetId: root.data!.id! } });
    // xdk types post.fields from v2.167's enum, which lacks author_id and referenced_posts (the Post
    // object has them): the values are sent all the same.
    const postFields = ['author_id', 'referenced_posts'] as unknown as ['created_at'];
    const read = await client.posts.getById(reply.data!.id!, { postFields, expansions: ['author_id'], userFields: ['username'] });
    const data = read.data as Record<string, unknown>;
    assert.equal(data.authorId, user.id);
    assert.deepEqual(data.referencedPosts, [{ type: 'replied_to', id: root.data!.id }]);
    assert.deepEqual(read.includes?.users, [{ id: user.id, name: user.name, username: user.username }]);
  });

  it('is refused with X\'s 400 where the API takes only tweet.fields', async () => {
    const { user, token } = userOn(tweets);
    const posted = tweets.addTweet({ authorId: user.id, text: 'hi' });
    const error = await xdk(tweets, token).posts.getById(posted.id, { postFields: ['created_at'] }).catch((e: unknown) => e);
    assert.ok(error instanceof ApiError);
    assert.equal(error.status, 400);
    assert.match(error.data.errors[0].message, /^The query parameter \[post\.fields\] is not one of \[id,tweet\.fields,/);
  });
});
