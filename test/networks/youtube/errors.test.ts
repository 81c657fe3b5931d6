// What YouTube's refusals become, over real HTTP against the Google emulator: a permanent failure
// with YouTube's words and reason, a retry when the refusal says "later" (and when), an auth failure
// that deactivates the account; and what is refused before any upload session is opened.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pacificDay } from '../../../src/networks/youtube/pool.ts';
import type { TestAccount, TestOrg } from '../../helpers/harness.ts';
import { paddedVideo } from '../../helpers/media.ts';
import { APP, CHUNK, KIB, publishingTo, sha256, startYoutubeHarness, type YoutubeHarness } from './setup.ts';

describe('YouTube\'s refusals', () => {
  let yt: YoutubeHarness;
  let org: TestOrg;
  let channel: TestAccount & { channelId: string };
  let p: ReturnType<typeof publishingTo>;

  before(async () => {
    yt = await startYoutubeHarness();
    yt.google.youtube.setProcessingPolls(0);
    yt.google.youtube.setQuota({ dailyUnits: 1e9 });
    org = await yt.h.server.createOrg();
    channel = await yt.addChannel(org, 'refusedchannel');
    p = publishingTo(yt, org, channel);
  });
  after(async () => yt.close());

  it('a metadata refusal fails with YouTube\'s words and reason', async () => {
    const error = p.failed((await p.videoPost({ content: 'x', youtube: { categoryId: '99' } })).post);
    assert.equal(error, 'youtube: The snippet.categoryId property specifies an invalid category ID. (invalidCategoryId)');
  });

  it('a 503 on a chunk is retried: the session is asked what it has, and the upload goes on in it', async () => {
    yt.google.failNext({ status: 503, method: 'PUT', path: '/upload/youtube/v3/videos' });
    const before = p.sessionsOpened();
    const { bytes, post } = await p.videoPost({ content: 'through a 503' });
    const video = p.published(post);
    assert.equal(p.sessionsOpened(), before + 1, 'one session');
    const session = yt.google.youtube.sessions().find((s) => s.videoId === video.id)!;
    assert.ok(session.queries >= 1, 'the retry asked the session first');
    assert.equal(video.sha256, sha256(bytes));
    assert.deepEqual(session.chunks.map((c) => c.start), Array.from({ length: Math.ceil(bytes.length / CHUNK) }, (_, i) => i * CHUNK), 'each chunk taken once');
  });

  it('the channel\'s upload limit is retried a day later', async () => {
    yt.google.youtube.setUploadCap(channel.channelId, 0);
    try {
      const { url } = await p.freshVideo();
      const postId = await yt.create(org, { accounts: [channel.id], containers: [{ content: 'over the cap', media: [{ url, filename: 'clip.mp4' }] }] });
      const retry = await p.retryOf(postId);
      assert.equal(retry.status, 'pending');
      assert.match(retry.error, /^youtube: the channel reached YouTube's upload limit \(The user has exceeded the number of videos they may upload\. \(uploadLimitExceeded\)\); trying again in 24 hours/);
      const inMs = new Date(retry.due_at).getTime() - Date.now();
      assert.ok(inMs > 23.9 * 3600_000 && inMs <= 24 * 3600_000, `due again in ${inMs} ms`);
    } finally {
      yt.google.youtube.setUploadCap(channel.channelId, undefined);
    }
  });

  it('an account on its own app whose project quota is spent waits for the Pacific midnight, not counted in any pool', async () => {
    yt.google.youtube.setQuota({ dailyUnits: yt.google.youtube.quotaUsed(APP.clientId) });
    try {
      const { url } = await p.freshVideo();
      const postId = await yt.create(org, { accounts: [channel.id], containers: [{ content: 'over quota', media: [{ url, filename: 'clip.mp4' }] }] });
      const retry = await p.retryOf(postId);
      assert.equal(retry.status, 'pending');
      assert.equal(retry.error, 'youtube: the app\'s daily YouTube quota is spent (The request cannot be completed because you have exceeded your quota. (quotaExceeded))');
      const midnight = pacificDay(new Date()).end.getTime();
      assert.ok(Math.abs(new Date(retry.due_at).getTime() - midnight) < 60_000, `due at ${retry.due_at}, the Pacific midnight is ${new Date(midnight).toISOString()}`);
      const { rows: ledger } = await yt.h.server.db.query('SELECT count(*)::int AS n FROM network_ledger');
      assert.equal(ledger[0].n, 0);
    } finally {
      yt.google.youtube.setQuota({ dailyUnits: 1e9 });
    }
  });

  it('Google\'s per-minute rate limit is retried a minute later', async () => {
    const body = { error: { code: 403, message: 'Rate Limit Exceeded', errors: [{ message: 'Rate Limit Exceeded', domain: 'usageLimits', reason: 'rateLimitExceeded' }], status: 'PERMISSION_DENIED' } };
    yt.google.failNext({ status: 403, method: 'POST', path: '/upload/youtube/v3/videos', body });
    const { url } = await p.freshVideo();
    const postId = await yt.create(org, { accounts: [channel.id], containers: [{ content: 'rate limited', media: [{ url, filename: 'clip.mp4' }] }] });
    const retry = await p.retryOf(postId);
    assert.equal(retry.error, 'youtube: rate limited (Rate Limit Exceeded (rateLimitExceeded))');
    const inMs = new Date(retry.due_at).getTime() - Date.now();
    assert.ok(inMs > 55_000 && inMs <= 60_000, `due again in ${inMs} ms`);
  });

  it('a file that is not a video fails before any session is opened', async () => {
    yt.h.stack.media.route('/page.mp4', (_req, res) => { res.writeHead(200, { 'content-type': 'text/html' }); res.end('<html></html>'); });
    const before = p.sessionsOpened();
    const postId = await yt.create(org, { accounts: [channel.id], containers: [{ content: 'not a video', media: [{ url: `${yt.h.stack.media.url}/page.mp4`, filename: 'page.mp4' }] }] });
    const post = await yt.h.stack.waitForPost(org, postId, undefined, 30_000);
    assert.equal(p.failed(post), 'youtube: page.mp4 is text/html; YouTube takes video files');
    assert.equal(p.sessionsOpened(), before);
  });

  it('a refused token fails the post as an auth failure and deactivates the account', async () => {
    const org2 = await yt.h.server.createOrg();
    const other = await yt.addChannel(org2, 'revoked');
    yt.google.revokeUser(other.userId);
    const url = await yt.video(org2, await paddedVideo(300 * KIB));
    const postId = await yt.create(org2, { accounts: [other.id], containers: [{ content: 'never', media: [{ url, filename: 'clip.mp4' }] }] });
    const post = await yt.h.stack.waitForPost(org2, postId, undefined, 30_000);
    assert.match(p.failed(post), /^youtube: the access token was refused \(Request had invalid authentication credentials\..*\(authError\)\); reconnect the account/);
    const listed = await yt.h.server.request('GET', `/v1/social-accounts/${other.id}`, { key: org2.key });
    assert.equal(listed.body.data.isActive, 0);
  });
});
