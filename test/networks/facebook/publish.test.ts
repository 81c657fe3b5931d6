// Publishing to a Facebook Page over real HTTP: Crier's API and worker (the registry's Facebook
// adapter), the Facebook emulator as graph.facebook.com. Each test checks what the Page received —
// the photos' bytes and their order, the post's message and attachments, the comments and their
// mention tags — and what Crier reports.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startFacebookEmulator, type FacebookEmulator } from '../../../emulators/facebook/server.ts';
import { decodeId } from '../../../src/core/ids.ts';
import { FACEBOOK_SCOPES } from '../../../src/networks/facebook/oauth.ts';
import type { TestAccount, TestOrg } from '../../helpers/harness.ts';
import { PNG_1X1, type PublishingStack } from '../../helpers/publishing.ts';
import { makeJpeg, makeVideo, paddedVideo, startMediaPublishing, type MediaHarness } from '../../helpers/media.ts';

const APP = { clientId: 'crier-meta', clientSecret: 'secret', redirectUris: ['http://localhost/cb'] };
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('publishing to a Facebook Page', () => {
  let fb: FacebookEmulator;
  let h: MediaHarness & { stack: PublishingStack };
  let org: TestOrg;
  let account: TestAccount;
  let pageId: string;
  let otherPageId: string;
  let userId: string;

  before(async () => {
    fb = await startFacebookEmulator();
    fb.addApp(APP);
    const user = fb.addUser({ pages: [{ name: 'Acme', username: 'acme' }] });
    userId = user.id;
    pageId = user.pageIds[0]!;
    otherPageId = fb.addPage(fb.addUser({ pages: [] }).id, { name: 'Partner' }).id;
    const token = fb.issuePageToken(pageId, APP.clientId, FACEBOOK_SCOPES);
    h = await startMediaPublishing({ CRIER_FACEBOOK_BASE_URL: fb.url });
    org = await h.server.createOrg();
    account = await h.server.addAccount(org, 'facebook', 'acme', { networkUniqueId: pageId, accessToken: token });
  });
  after(async () => {
    await h.close();
    await fb.close();
  });

  const publish = async (body: object) => {
    const created = await h.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [account.id], ...body } });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    return h.stack.waitForPost(org, created.body.post.id, undefined, 30_000);
  };
  const published = (post: any) => {
    const destination = post.socialAccounts[0];
    assert.equal(destination.status, 'published', destination.error);
    return fb.pages.posts().find((p) => p.id === destination.platformPostId)!;
  };
  const failed = (post: any) => {
    const destination = post.socialAccounts[0];
    assert.equal(destination.status, 'failed', JSON.stringify(destination));
    return destination.error as string;
  };

  it('a text post with a link on the Page\'s feed, with its permalink; facebook.content overrides the shared text', async () => {
    const post = await publish({ content: 'shared', facebook: { content: 'Hello Facebook, see https://example.com' } });
    const sent = published(post);
    assert.equal(sent.pageId, pageId);
    assert.equal(sent.message, 'Hello Facebook, see https://example.com');
    assert.deepEqual(sent.photoIds, []);
    assert.equal(sent.link, 'https://example.com', 'a link post: its first URL as `link`, for the card');
    assert.match(post.socialAccounts[0].platformPostUrl, /^https:\/\/www\.facebook\.com\/acme\/posts\/pfbid0/);
  });

  it('photos are uploaded as bytes, unpublished, then attached to one post in order', async () => {
    const jpeg = await makeJpeg();
    const media = await h.upload(org, 'photo.jpg', jpeg, 'image/jpeg');
    const post = await publish({ containers: [{ content: 'Two photos', media: [{ url: media.url, filename: 'photo.jpg' }, { url: `${h.stack.media.url}/cat.png`, filename: 'cat.png' }] }] });
    const sent = published(post);
    assert.equal(sent.message, 'Two photos');
    const photos = sent.photoIds.map((id) => fb.pages.photos().find((p) => p.id === id)!);
    assert.deepEqual(photos.map((p) => [p.sha256, p.published]), [[sha256(jpeg), false], [sha256(PNG_1X1), false]]);
    assert.deepEqual(Object.keys(sent.params).sort(), ['attached_media[0]', 'attached_media[1]', 'message']);
  });

  it('later containers are comments by the Page, in order, with mentions tagged as @[page-id] where the comment quotes them', async (t) => {
    // Reading the mentioned Page (not the app user's) needs the app feature Meta reviews for it.
    fb.pages.pagePublicMetadataAccess(true);
    t.after(() => fb.pages.pagePublicMetadataAccess(false));
    const post = await publish({
      containers: [{ content: 'Launch day' }, { content: 'Thanks to Partner for the help' }, { content: 'More soon' }],
      facebook: { mentions: [{ pageId: otherPageId, text: 'Partner' }] },
    });
    const sent = published(post);
    assert.deepEqual(fb.pages.comments(sent.id).map((c) => [c.fromId, c.message]), [
      [pageId, `Thanks to @[${otherPageId}] for the help`], [pageId, 'More soon'],
    ]);
  });

  it('a mention of a Page the app may not read (no "Page Public Metadata Access" feature) fails naming the feature, not asking to reconnect', async () => {
    const before = fb.pages.posts().length;
    const error = failed(await publish({ containers: [{ content: 'Hi' }, { content: 'Thanks Partner' }], facebook: { mentions: [{ pageId: otherPageId, text: 'Partner' }] } }));
    assert.match(error, /the Meta app lacks the "Page Public Metadata Access" feature/);
    assert.match(error, /\(#10\)/, 'Meta\'s words are kept');
    assert.doesNotMatch(error, /reconnect the account granting it/);
    assert.equal(fb.pages.posts().length, before, 'nothing was posted');
  });

  it('a mention of a Page that does not exist fails the destination before anything is posted', async () => {
    const before = fb.pages.posts().length;
    const error = failed(await publish({ containers: [{ content: 'Hi' }, { content: 'Hi Ghost' }], facebook: { mentions: [{ pageId: '123456789', text: 'Ghost' }] } }));
    assert.match(error, /facebook: the mentioned Page 123456789 \("Ghost"\) does not exist/);
    assert.equal(fb.pages.posts().length, before);
  });

  it('#368 (blocked for policy) fails the destination with Meta\'s words', async () => {
    fb.pages.blockNext();
    const error = failed(await publish({ content: 'blocked words' }));
    assert.match(error, /facebook: Meta blocked the action for policy reasons \(\(#368\) The action attempted has been deemed abusive or is otherwise disallowed \(#368\/1390008\)\)/);
  });

  it('Page throttling (#32): retried after the wait the usage headers give', async () => {
    fb.pages.throttle(3 * 60_000);
    const created = await h.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [account.id], content: 'throttled' } });
    const post = await h.stack.waitForPost(org, created.body.post.id, (p) => Boolean(p.socialAccounts[0].error), 20_000);
    assert.match(post.socialAccounts[0].error, /facebook: rate limited \(\(#32\) Page request limit reached/);
    assert.equal(post.socialAccounts[0].status, 'pending');
    const { rows } = await h.server.db.query('SELECT due_at FROM targets WHERE post_id = $1', [decodeId(post.id)]);
    const inMs = (rows[0].due_at as Date).getTime() - Date.now();
    assert.ok(inMs > 170_000 && inMs <= 181_000, `due again in ${inMs} ms: the 3 minutes X-Business-Use-Case-Usage said`);
    fb.pages.throttle(0);
  });

  it('a feed video: started with its size, sent range by range as Meta asks, finished with the description, published once processed', async () => {
    fb.pages.setVideoProcessingMs(1500);
    const bytes = await paddedVideo(2.5 * 1024 * 1024); // three 1 MiB ranges
    const media = await h.upload(org, 'talk.mp4', bytes, 'video/mp4');
    const post = await publish({ containers: [{ content: 'Our talk', media: [{ url: media.url, filename: 'talk.mp4' }] }, { content: 'Slides soon' }] });
    const sent = published(post);
    assert.equal(sent.kind, 'video');
    assert.equal(sent.message, 'Our talk');
    const video = fb.pages.videos().find((v) => v.id === sent.id)!;
    assert.deepEqual(video.transfers, [0, 1024 * 1024, 2 * 1024 * 1024], 'each range once, in order');
    assert.equal(sha256(Buffer.concat(video.chunks)), sha256(bytes));
    assert.equal(video.params.description, 'Our talk');
    const calls = fb.pages.calls().filter((c) => c.path === `/${pageId}/videos`).map((c) => c.params.upload_phase);
    assert.deepEqual(calls.slice(-5), ['start', 'transfer', 'transfer', 'transfer', 'finish']);
    assert.equal(post.socialAccounts[0].platformPostUrl, `https://www.facebook.com/acme/videos/${sent.id}`);
    assert.deepEqual(fb.pages.comments(sent.id).map((c) => c.message), ['Slides soon']);
  });

  it('a Reel: video_reels start, the file to rupload, finish with video_state=PUBLISHED; its cover applied once published', async () => {
    const clip = await makeVideo({ seconds: 3, size: '180x320', rate: 24 });
    const media = await h.upload(org, 'reel.mp4', clip, 'video/mp4');
    const jpeg = await makeJpeg('90x160');
    const cover = await h.upload(org, 'cover.jpg', jpeg, 'image/jpeg');
    const post = await publish({ containers: [{ content: 'A reel', media: [{ url: media.url, filename: 'reel.mp4' }] }], facebook: { publishAsReel: true, videoCoverUrl: cover.url } });
    const sent = published(post);
    assert.equal(sent.kind, 'reel');
    const video = fb.pages.videos().find((v) => v.id === sent.id)!;
    assert.deepEqual([video.params.video_state, video.params.description], ['PUBLISHED', 'A reel']);
    assert.equal(sha256(Buffer.concat(video.chunks)), sha256(clip));
    assert.deepEqual(video.thumbnails, [{ sha256: sha256(jpeg), preferred: true }]);
    assert.equal(post.socialAccounts[0].platformPostUrl, `https://www.facebook.com/reel/${sent.id}`);
  });

  it('a cover Facebook refuses after the video is published: the video stays published, and the destination says so', async () => {
    const clip = await makeVideo({ seconds: 3, size: '180x320', rate: 24 });
    const media = await h.upload(org, 'covered.mp4', clip, 'video/mp4');
    const cover = await h.upload(org, 'cover.jpg', await makeJpeg('90x160'), 'image/jpeg');
    fb.failNext({ status: 400, method: 'POST', path: /\/thumbnails$/, body: { error: { message: '(#100) Invalid image', type: 'OAuthException', code: 100, fbtrace_id: 'Acover' } } });
    const post = await publish({ containers: [{ content: 'A covered video', media: [{ url: media.url, filename: 'covered.mp4' }] }], facebook: { videoCoverUrl: cover.url } });
    const destination = post.socialAccounts[0];
    assert.equal(destination.status, 'published');
    assert.match(destination.error, /^published without its cover: .*Invalid image.*; Facebook shows its own thumbnail$/);
    const sent = fb.pages.videos().find((v) => v.id === published(post).id)!;
    assert.deepEqual(sent.thumbnails, []);
  });

  it('Stories: a photo through photo_stories, a video through video_stories, with no text', async () => {
    const jpeg = await makeJpeg();
    const photo = await h.upload(org, 'story.jpg', jpeg, 'image/jpeg');
    const photoStory = published(await publish({ containers: [{ media: [{ url: photo.url, filename: 'story.jpg' }] }], facebook: { publishAsStory: true } }));
    assert.equal(photoStory.kind, 'story');
    assert.equal(photoStory.message, undefined);
    assert.equal(fb.pages.photos().find((p) => p.id === photoStory.photoIds[0])!.sha256, sha256(jpeg));
    const clip = await makeVideo({ seconds: 3, size: '180x320', rate: 24 });
    const video = await h.upload(org, 'story.mp4', clip, 'video/mp4');
    const videoStory = published(await publish({ containers: [{ media: [{ url: video.url, filename: 'story.mp4' }] }], facebook: { publishAsStory: true } }));
    assert.equal(videoStory.kind, 'story');
    assert.equal(sha256(Buffer.concat(fb.pages.videos().find((v) => v.id === videoStory.id)!.chunks)), sha256(clip));
  });

  it('a video Meta cannot process fails the destination with its message, and no post appears', async () => {
    fb.pages.failNextVideo('The video file you selected is in a format that we don\'t support.');
    const clip = await makeVideo({ seconds: 3, size: '180x320', rate: 24 });
    const media = await h.upload(org, 'bad.mp4', clip, 'video/mp4');
    const before = fb.pages.posts().length;
    const error = failed(await publish({ containers: [{ content: 'bad video', media: [{ url: media.url, filename: 'bad.mp4' }] }] }));
    assert.match(error, /facebook: Facebook could not process bad\.mp4: The video file you selected is in a format that we don't support\./);
    assert.equal(fb.pages.posts().length, before);
  });

  it('an expired or revoked Page token (#190) fails the destination as an auth failure', async () => {
    fb.revokeUser(userId);
    const error = failed(await publish({ content: 'after revoke' }));
    assert.match(error, /facebook: the access token was refused \(Error validating access token: The user has not authorized application crier-meta\. \(#190\/458\)\)/);
  });
});
