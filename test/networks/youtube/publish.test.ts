// Publishing to YouTube over real HTTP: Crier's API and worker (the registry's YouTube adapter), the
// Google emulator as YouTube, videos uploaded to Crier, thumbnails served by another HTTPS host.
// Each test checks what YouTube received — the metadata, the bytes and their chunks, the thumbnail,
// the comments and their order — and what Crier reports.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeId } from '../../../src/core/ids.ts';
import type { PublishError } from '../../../src/core/errors.ts';
import type { PublishInput } from '../../../src/networks/contract.ts';
import { createYoutubeAdapter } from '../../../src/networks/youtube/adapter.ts';
import type { YoutubeSettings } from '../../../src/networks/youtube/settings.ts';
import { createLedger } from '../../../src/accounts/ledger.ts';
import type { TestAccount, TestOrg } from '../../helpers/harness.ts';
import { PNG_1X1 } from '../../helpers/publishing.ts';
import { makeJpeg, paddedVideo } from '../../helpers/media.ts';
import { CHUNK, KIB, publishingTo, sha256, startYoutubeHarness, type YoutubeHarness } from './setup.ts';

describe('publishing to YouTube', () => {
  let yt: YoutubeHarness;
  let org: TestOrg;
  let channel: TestAccount & { channelId: string; token: string };
  let p: ReturnType<typeof publishingTo>;

  before(async () => {
    yt = await startYoutubeHarness();
    yt.google.youtube.setProcessingPolls(0);
    // The project's classic 10,000 units would stop at the sixth upload (the quota is tested in pool.test.ts).
    yt.google.youtube.setQuota({ dailyUnits: 1e9 });
    const media = yt.h.stack.media;
    media.route('/thumb.png', (_req, res) => { res.writeHead(200, { 'content-type': 'image/png' }); res.end(PNG_1X1); });
    media.route('/not-an-image.png', (_req, res) => { res.writeHead(200, { 'content-type': 'image/png' }); res.end('<html>a page</html>'); });
    media.route('/huge.jpg', (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/jpeg' });
      res.end(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(50 * 1024 * 1024)]));
    });
    org = await yt.h.server.createOrg();
    channel = await yt.addChannel(org, 'makerstudio');
    p = publishingTo(yt, org, channel);
  });
  after(async () => yt.close());

  it('every field of the block reaches videos.insert, and the bytes arrive in 256 KiB chunks', async () => {
    const { bytes, post } = await p.videoPost({
      content: 'ignored: the block has its own',
      youtube: {
        content: 'The description\nwith two lines', title: 'Making a chair', privacyStatus: 'unlisted', categoryId: '26',
        tags: ['woodwork', 'how to'], madeForKids: true, containsSyntheticMedia: true,
      },
    });
    const video = p.published(post);
    assert.deepEqual(video.snippet.title, 'Making a chair');
    assert.equal(video.snippet.description, 'The description\nwith two lines');
    assert.deepEqual(video.snippet.tags, ['woodwork', 'how to']);
    assert.equal(video.snippet.categoryId, '26');
    assert.deepEqual(video.status, { privacyStatus: 'unlisted', selfDeclaredMadeForKids: true, containsSyntheticMedia: true });
    assert.equal(video.channelId, channel.channelId);
    assert.equal(video.sha256, sha256(bytes), 'YouTube received the file exactly');
    const session = yt.google.youtube.sessions().find((s) => s.videoId === video.id)!;
    assert.equal(session.total, bytes.length);
    assert.deepEqual(session.chunks, [{ start: 0, end: CHUNK - 1 }, { start: CHUNK, end: 2 * CHUNK - 1 }, { start: 2 * CHUNK, end: bytes.length - 1 }]);
    assert.equal(post.socialAccounts[0].platformPostUrl, `https://www.youtube.com/watch?v=${video.id}`);
    assert.equal(video.uploadStatus, 'processed');
  });

  it('without a block: the title is the text\'s first line, public, and made-for-kids and synthetic media are left out', async () => {
    const { post } = await p.videoPost({ content: '  Sunday   market walk  \nMore words below' });
    const video = p.published(post);
    assert.equal(video.snippet.title, 'Sunday market walk');
    assert.deepEqual(video.status, { privacyStatus: 'public' }, 'nothing YouTube would take as a declaration was sent');
  });

  it('what YouTube would refuse is refused at create time, field by field', async () => {
    const url = await yt.video(org, await paddedVideo(300 * KIB));
    const posts = async () => (await yt.h.server.db.query('SELECT count(*)::int AS n FROM posts WHERE org_id = $1', [org.orgId])).rows[0].n as number;
    const before = await posts();
    const refused = await yt.h.server.request('POST', '/v1/posts', {
      key: org.key,
      body: {
        accounts: [channel.id],
        containers: [{ content: 'a <b>bold</b> claim', media: [{ url, filename: 'clip.mp4' }] }, { content: 'more', media: [{ url, filename: 'clip.mp4' }] }],
        youtube: { title: 't'.repeat(101), tags: Array.from({ length: 60 }, (_, i) => `tag number ${i}`) },
      },
    });
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body.details.map((d: any) => d.field).sort(), ['containers[0].content', 'containers[1].media', 'youtube.tags', 'youtube.title']);
    const category = await yt.h.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [channel.id], containers: [{ content: 'c', media: [{ url, filename: 'clip.mp4' }] }], youtube: { categoryId: 'music' } } });
    assert.equal(category.status, 400);
    assert.deepEqual(category.body.details.map((d: any) => d.field), ['youtube.categoryId']);
    assert.match(refused.body.details.find((d: any) => d.field === 'youtube.title').message, /101 characters; YouTube takes up to 100/);
    assert.equal(await posts(), before, 'nothing was stored');
  });

  it('a root without its one video is refused at creation, naming the account, before any call to YouTube', async () => {
    const url = await yt.video(org, await paddedVideo(300 * KIB));
    const sessions = yt.google.youtube.sessions().length;
    const posts = async () => (await yt.h.server.db.query('SELECT count(*)::int AS n FROM posts WHERE org_id = $1', [org.orgId])).rows[0].n as number;
    const before = await posts();
    const image = await yt.h.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [channel.id], containers: [{ content: 'a photo', media: [{ url, filename: 'photo.jpg' }] }] } });
    assert.equal(image.status, 400, JSON.stringify(image.body));
    assert.deepEqual(image.body.details, [{ field: 'socialAccounts[0]',
      message: 'youtube: a YouTube post is one video in the first container, and "photo.jpg" is not an mp4, mov, m4v or webm video' }]);
    const text = await yt.h.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [channel.id], content: 'words alone' } });
    assert.deepEqual(text.body.details, [{ field: 'socialAccounts[0]', message: 'youtube: a YouTube post is one video in the first container, this one has 0 media' }]);
    assert.equal(await posts(), before, 'nothing was stored');
    assert.equal(yt.google.youtube.sessions().length, sessions, 'no upload session was opened');
  });

  it('a long first line makes a title cut at a word under 100 characters', async () => {
    const words = 'word '.repeat(40).trim();
    const { post } = await p.videoPost({ content: words });
    const title = p.published(post).snippet.title as string;
    assert.ok(title.length <= 100 && title.length > 60, title);
    assert.ok(words.startsWith(title) && !title.endsWith(' '));
  });

  it('a Short: #Shorts closes the description and the URL is the Shorts one', async () => {
    const { post } = await p.videoPost({ content: 'Quick tip', youtube: { isShort: true } });
    const video = p.published(post);
    assert.equal(video.snippet.description, 'Quick tip\n\n#Shorts');
    assert.equal(post.socialAccounts[0].platformPostUrl, `https://www.youtube.com/shorts/${video.id}`);
  });

  it('an upload YouTube reports with another privacy is published, and the destination says so without blaming an audit', async () => {
    // Since the 2026-11-02 revision unverified projects' uploads are no longer forced private.
    yt.google.youtube.applyPrivacy('private');
    try {
      const { post } = await p.videoPost({ content: 'Locked', youtube: { privacyStatus: 'public' } });
      const video = p.published(post);
      assert.equal(video.status.privacyStatus, 'public', 'public was asked');
      assert.equal(post.socialAccounts[0].error, 'YouTube reports the video private (asked: public)');
    } finally {
      yt.google.youtube.applyPrivacy(undefined);
    }
  });

  it('a thumbnail is checked first and set once the video is processed', async () => {
    const thumbUrl = `${yt.h.stack.media.url}/thumb.png`;
    const { post } = await p.videoPost({ content: 'With a cover', youtube: { thumbnailUrl: thumbUrl } });
    const video = p.published(post);
    assert.equal(post.socialAccounts[0].error ?? null, null);
    assert.deepEqual(yt.google.youtube.thumbnailSets(video.id).map((t) => [t.status, t.contentType, t.sha256]), [[200, 'image/png', sha256(PNG_1X1)]]);
    const calls = yt.google.youtube.calls();
    const processedAt = calls.findLastIndex((c) => c.path === '/youtube/v3/videos' && c.query.id === video.id);
    const thumbAt = calls.findIndex((c) => c.path === '/upload/youtube/v3/thumbnails/set' && c.query.videoId === video.id);
    assert.ok(processedAt >= 0 && thumbAt > processedAt, 'thumbnails.set came after the processing check');
  });

  it('a JPEG thumbnail YouTube refuses leaves the video published with its automatic thumbnail, and says so', async () => {
    const jpeg = await makeJpeg();
    yt.h.stack.media.route('/refused.jpg', (_req, res) => { res.writeHead(200, { 'content-type': 'image/jpeg' }); res.end(jpeg); });
    yt.google.youtube.refuseThumbnails('The authenticated user doesn\'t have permissions to upload and set custom video thumbnails.');
    try {
      const { post } = await p.videoPost({ content: 'Cover refused', youtube: { thumbnailUrl: `${yt.h.stack.media.url}/refused.jpg` } });
      const video = p.published(post);
      assert.equal(post.socialAccounts[0].error, 'the video is published with YouTube\'s automatic thumbnail: YouTube refused the custom one (The authenticated user doesn\'t have permissions to upload and set custom video thumbnails. (forbidden))');
      assert.deepEqual(yt.google.youtube.thumbnailSets(video.id).map((t) => [t.status, t.contentType]), [[403, 'image/jpeg']]);
    } finally {
      yt.google.youtube.refuseThumbnails(undefined);
    }
  });

  for (const [name, path, expected] of [
    ['unreachable', '/missing.png', /^youtube: the thumbnail https:\/\/\S+\/missing\.png could not be downloaded \(.*404/],
    ['not an image', '/not-an-image.png', /^youtube: the thumbnail https:\/\/\S+\/not-an-image\.png is not a JPEG or PNG image \(it was served as image\/png\)$/],
    ['over 50 MB', '/huge.jpg', /^youtube: the thumbnail https:\/\/\S+\/huge\.jpg is 52428804 bytes; YouTube thumbnails are up to 52428800 bytes \(50 MB\)$/],
  ] as const) {
    it(`a thumbnail ${name} fails the publish before any upload`, async () => {
      const before = p.sessionsOpened();
      const { post } = await p.videoPost({ content: `thumb ${name}`, youtube: { thumbnailUrl: `${yt.h.stack.media.url}${path}` } });
      assert.match(p.failed(post), expected);
      assert.equal(p.sessionsOpened(), before, 'no upload session was opened');
    });
  }

  it('a thread: the video, then each later container a top-level comment on it, in order', async () => {
    const { post, postId } = await p.videoPost({}, [{ content: 'The video' }, { content: 'First comment' }, { content: 'Second comment' }]);
    const video = p.published(post);
    const comments = yt.google.youtube.comments(video.id);
    assert.deepEqual(comments.map((c) => [c.authorChannelId, c.textOriginal]), [[channel.channelId, 'First comment'], [channel.channelId, 'Second comment']]);
    const { rows } = await yt.h.server.db.query(
      'SELECT p.position, p.platform_id, p.platform_url FROM target_parts p JOIN targets t ON t.id = p.target_id WHERE t.post_id = $1 ORDER BY p.position',
      [decodeId(postId)],
    );
    assert.deepEqual(rows.map((r) => r.platform_id), [video.id, comments[0]!.threadId, comments[1]!.threadId]);
    assert.equal(rows[1].platform_url, `https://www.youtube.com/watch?v=${video.id}&lc=${comments[0]!.commentId}`);
  });

  it('reconcile after a crash: a comment already on the video is found, one never posted is absent, an unreadable list is unknown', async () => {
    const { post } = await p.videoPost({}, [{ content: 'Root' }, { content: 'Posted once' }]);
    const video = p.published(post);
    const [posted] = yt.google.youtube.comments(video.id);
    const adapter = createYoutubeAdapter({ apiUrl: yt.google.url, settings: yt.h.server.config.networks.youtube as YoutubeSettings });
    const notUsed = async () => { throw new Error('reconcile reads no media'); };
    const input: PublishInput = {
      account: { id: channel.rawId, orgId: org.orgId, network: 'youtube', username: channel.username, networkUniqueId: channel.channelId, serviceUrl: null, accessToken: channel.token, refreshToken: null, credential: null },
      containers: [{ content: 'Root', media: [{ url: 'https://media.example/clip.mp4', filename: 'clip.mp4' }] }, { content: 'Posted once', media: [] }, { content: 'Never posted', media: [] }],
      block: undefined, fetchMedia: notUsed, openMedia: notUsed, userFetch: fetch, saveTokens: async () => {}, ledger: createLedger(yt.h.server.db, 'youtube'),
    };
    const prepared = await adapter.prepare(input);
    const root = { platformId: video.id, url: post.socialAccounts[0].platformPostUrl };
    const reserved = { startedAt: new Date(Date.now() - 60_000).toISOString() };
    assert.deepEqual(await prepared.reconcile(1, reserved, root), { platformId: posted!.threadId, url: `https://www.youtube.com/watch?v=${video.id}&lc=${posted!.commentId}` });
    assert.equal(await prepared.reconcile(2, reserved, root), 'absent');
    assert.equal(await prepared.reconcile(1, { startedAt: new Date(Date.now() + 3600_000).toISOString() }, root), 'absent', 'a comment older than the reservation is not ours');
    yt.google.failNext({ status: 500, method: 'GET', path: '/youtube/v3/commentThreads' });
    await assert.rejects(prepared.reconcile(2, reserved, root), (error: PublishError) => {
      assert.equal(error.kind, 'unknown');
      assert.match(error.message, /^youtube: could not tell whether container 3 is already posted \(youtube: server error 500/);
      return true;
    });
  });

  it('processing that fails, or a rejection, fails the post with YouTube\'s reason', async () => {
    yt.google.youtube.failNextVideo({ uploadStatus: 'failed', failureReason: 'codec' });
    assert.equal(p.failed((await p.videoPost({ content: 'bad codec' })).post), 'youtube: YouTube could not process clip.mp4 (failureReason: codec)');
    yt.google.youtube.failNextVideo({ uploadStatus: 'rejected', rejectionReason: 'duplicate' });
    assert.equal(p.failed((await p.videoPost({ content: 'a copy' })).post), 'youtube: YouTube rejected clip.mp4 (rejectionReason: duplicate)');
  });

});
