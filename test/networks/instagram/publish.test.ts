// Publishing to Instagram over real HTTP: Crier's API and worker (the registry's Instagram adapter),
// the Facebook emulator as graph.facebook.com, which downloads every media URL it is given — from
// Crier behind its HTTPS front, or from another HTTPS host. Each test checks what Instagram received
// (the containers' parameters, their order, the published media, the comments) and what Crier reports.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startFacebookEmulator, type FacebookEmulator } from '../../../emulators/facebook/server.ts';
import { decodeId } from '../../../src/core/ids.ts';
import { INSTAGRAM_SCOPES } from '../../../src/networks/instagram/oauth.ts';
import type { TestAccount, TestOrg } from '../../helpers/harness.ts';
import { PNG_1X1, type PublishingStack } from '../../helpers/publishing.ts';
import { until } from '../../helpers/until.ts';
import { makeJpeg, makeVideo, startMediaPublishing, type MediaHarness } from '../../helpers/media.ts';

const APP = { clientId: 'crier-meta', clientSecret: 'secret', redirectUris: ['http://localhost/cb'] };
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('publishing to Instagram', () => {
  let fb: FacebookEmulator;
  let h: MediaHarness & { stack: PublishingStack };
  let org: TestOrg;
  let account: TestAccount & { igId: string };
  let jpeg: Buffer;
  let video: Buffer;
  let imageUrl: string;
  let videoUrl: string;
  let userId: string;

  before(async () => {
    fb = await startFacebookEmulator();
    fb.addApp(APP);
    const user = fb.addUser({ pages: [{ name: 'Acme', instagram: { username: 'acme' } }] });
    userId = user.id;
    const page = user.pageIds[0]!;
    const token = fb.issuePageToken(page, APP.clientId, INSTAGRAM_SCOPES);
    h = await startMediaPublishing({ CRIER_INSTAGRAM_BASE_URL: fb.url });
    fb.trustMediaCa(h.front.ca);
    fb.trustMediaCa(h.stack.media.ca);
    fb.instagram.setProcessingMs({ image: 100, video: 600 });
    org = await h.server.createOrg();
    const igId = (await (await fetch(`${fb.url}/v23.0/${page}?fields=instagram_business_account&access_token=${token}`)).json() as any).instagram_business_account.id;
    account = { ...(await h.server.addAccount(org, 'instagram', 'acme', { networkUniqueId: igId, accessToken: token })), igId };
    jpeg = await makeJpeg();
    video = await makeVideo({ seconds: 3, size: '160x284', rate: 24 });
    imageUrl = (await h.upload(org, 'photo.jpg', jpeg, 'image/jpeg')).url;
    videoUrl = (await h.upload(org, 'clip.mp4', video, 'video/mp4')).url;
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
    return fb.instagram.published().find((m) => m.id === destination.platformPostId)!;
  };
  const dueIn = async (postId: string) => {
    const { rows } = await h.server.db.query('SELECT due_at FROM targets WHERE post_id = $1', [decodeId(postId)]);
    return (rows[0].due_at as Date).getTime() - Date.now();
  };
  const failed = (post: any) => {
    const destination = post.socialAccounts[0];
    assert.equal(destination.status, 'failed', JSON.stringify(destination));
    return destination.error as string;
  };

  it('one image: image_url, the caption, alt text, location and user tags in the container; the permalink', async () => {
    const post = await publish({
      containers: [{ content: 'Hello from Crier', media: [{ url: imageUrl, filename: 'photo.jpg', altText: 'a test card' }] }],
      instagram: { locationId: '110843418940484', userTags: [{ username: 'ada', x: 0.5, y: 0.25 }], isAiGenerated: true },
    });
    const media = published(post);
    assert.equal(media.mediaType, 'IMAGE');
    assert.equal(media.productType, 'FEED');
    assert.equal(media.caption, 'Hello from Crier');
    assert.deepEqual({ ...media.options, image_url: undefined }, {
      image_url: undefined, caption: 'Hello from Crier', alt_text: 'a test card', location_id: '110843418940484',
      user_tags: JSON.stringify([{ username: 'ada', x: 0.5, y: 0.25 }]), is_ai_generated: 'true',
    });
    assert.equal(media.fetched[0]!.sha256, sha256(jpeg), 'Instagram downloaded the uploaded bytes from Crier');
    assert.equal(post.socialAccounts[0].platformPostUrl, `https://www.instagram.com/p/${media.shortcode}/`);
  });

  it('caption precedence: instagram.content over instagram.caption over the root text', async () => {
    const both = published(await publish({ containers: [{ content: 'root', media: [{ url: imageUrl, filename: 'photo.jpg' }] }], instagram: { content: 'override', caption: 'cap' } }));
    assert.equal(both.options.caption, 'override');
    const caption = published(await publish({ containers: [{ content: 'root', media: [{ url: imageUrl, filename: 'photo.jpg' }] }], instagram: { caption: 'cap' } }));
    assert.equal(caption.options.caption, 'cap');
  });

  it('a video is a Reel shared to the feed, with collaborators and a cover URL; the container was polled until FINISHED before media_publish', async () => {
    const post = await publish({
      containers: [{ content: 'A reel', media: [{ url: videoUrl, filename: 'clip.mp4' }] }],
      instagram: { collaborators: ['bob', 'eve'], reelCoverUrl: `${h.stack.media.url}/cat.png`, reelThumbOffset: 1200 },
    });
    const media = published(post);
    assert.equal(media.productType, 'REELS');
    assert.equal(media.options.media_type, 'REELS');
    assert.equal(media.options.collaborators, '["bob","eve"]');
    assert.equal(media.options.cover_url, `${h.stack.media.url}/cat.png`);
    assert.equal(media.options.thumb_offset, undefined, 'the cover takes precedence over the offset');
    assert.equal(media.options.share_to_feed, 'true');
    assert.deepEqual(media.fetched.map((f) => f.sha256), [sha256(video), sha256(PNG_1X1)]);
    const calls = fb.instagram.calls().filter((c) => c.path.includes(media.containerId) || c.params.creation_id === media.containerId);
    assert.ok(calls.some((c) => c.params.fields === 'status_code,status'), 'the status was polled');
    assert.equal(calls.at(-1)!.path, `/${account.igId}/media_publish`, 'media_publish came last');
    assert.match(post.socialAccounts[0].platformPostUrl, /^https:\/\/www\.instagram\.com\/reel\//);
  });

  it('a Reel with a frame offset, and a trial Reel with its graduation strategy', async () => {
    const thumb = published(await publish({ containers: [{ content: 'offset', media: [{ url: videoUrl, filename: 'clip.mp4' }] }], instagram: { reelThumbOffset: 1500 } }));
    assert.equal(thumb.options.thumb_offset, '1500');
    const trial = published(await publish({ containers: [{ content: 'trial', media: [{ url: videoUrl, filename: 'clip.mp4' }] }], instagram: { trialReel: { graduationStrategy: 'SS_PERFORMANCE' } } }));
    assert.equal(trial.options.trial_params, '{"graduation_strategy":"SS_PERFORMANCE"}');
    assert.equal(trial.options.share_to_feed, undefined);
  });

  it('a Story: media_type=STORIES, one image, no caption', async () => {
    const post = await publish({ containers: [{ media: [{ url: imageUrl, filename: 'photo.jpg' }] }], instagram: { publishAsStory: true } });
    const media = published(post);
    assert.equal(media.productType, 'STORY');
    assert.deepEqual(Object.keys(media.options).sort(), ['image_url', 'media_type']);
    assert.equal(media.options.media_type, 'STORIES');
    assert.equal(media.caption, undefined);
  });

  it('a mixed carousel: items with is_carousel_item in order, then the CAROUSEL container with its children and the AI label', async () => {
    const post = await publish({
      containers: [{ content: 'Three things', media: [
        { url: imageUrl, filename: 'photo.jpg', altText: 'first' },
        { url: videoUrl, filename: 'clip.mp4' },
        { url: `${h.stack.media.url}/cat.png`, filename: 'cat.png', altText: 'third' },
      ] }],
      instagram: { isAiGenerated: true, collaborators: ['bob'] },
    });
    const media = published(post);
    assert.equal(media.mediaType, 'CAROUSEL_ALBUM');
    assert.equal(media.options.media_type, 'CAROUSEL');
    assert.equal(media.options.is_ai_generated, 'true');
    assert.equal(media.options.collaborators, '["bob"]');
    assert.equal(media.options.children, media.children.map((c) => c.id).join(','));
    assert.deepEqual(media.children.map((c) => [c.options.is_carousel_item, c.options.media_type, c.options.alt_text]), [
      ['true', undefined, 'first'], ['true', 'VIDEO', undefined], ['true', undefined, 'third'],
    ]);
    assert.deepEqual(media.children.map((c) => c.fetched[0]!.sha256), [sha256(jpeg), sha256(video), sha256(PNG_1X1)]);
  });

  it('later containers are comments on the published media, in order', async () => {
    const post = await publish({ containers: [{ content: 'root', media: [{ url: imageUrl, filename: 'photo.jpg' }] }, { content: 'first comment' }, { content: 'second comment' }] });
    const media = published(post);
    assert.deepEqual(fb.instagram.comments(media.id).map((c) => [c.username, c.text]), [['acme', 'first comment'], ['acme', 'second comment']]);
  });

  it('a URL Instagram cannot download fails the destination with Meta\'s words', async () => {
    const error = failed(await publish({ containers: [{ content: 'gone', media: [{ url: `${h.stack.media.url}/missing.jpg`, filename: 'missing.jpg' }] }] }));
    assert.match(error, /instagram: Only photo or video can be accepted as media type\. \(#9004\/2207052\)/);
  });

  it('a container whose processing fails fails the destination with its status, and nothing is published', async () => {
    const before = fb.instagram.published().length;
    fb.instagram.failNextContainer();
    const error = failed(await publish({ containers: [{ content: 'broken', media: [{ url: videoUrl, filename: 'clip.mp4' }] }] }));
    assert.match(error, /instagram: Instagram could not process clip\.mp4: Error: An unexpected error occurred/);
    assert.equal(fb.instagram.published().length, before);
  });

  it('an expired container is created again and published', async () => {
    fb.instagram.hold();
    const created = await h.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [account.id], containers: [{ content: 'late', media: [{ url: imageUrl, filename: 'photo.jpg' }] }] } });
    const first = await until(() => fb.instagram.containers().find((c) => c.params.caption === 'late'));
    fb.instagram.expire(first.id);
    fb.instagram.hold(false);
    const media = published(await h.stack.waitForPost(org, created.body.post.id, undefined, 30_000));
    assert.notEqual(media.containerId, first.id);
    assert.equal(fb.instagram.containers().filter((c) => c.params.caption === 'late').length, 2);
  });

  it('a spent publishing limit: nothing is created, the destination waits for the slot to free, saying when', async () => {
    fb.instagram.setQuota(fb.instagram.published().length);
    const containersBefore = fb.instagram.containers().length;
    const created = await h.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [account.id], containers: [{ content: 'over', media: [{ url: imageUrl, filename: 'photo.jpg' }] }] } });
    const post = await h.stack.waitForPost(org, created.body.post.id, (p) => Boolean(p.socialAccounts[0].error), 20_000);
    assert.match(post.socialAccounts[0].error, /instagram: the account has published \d+ of its \d+ posts allowed per 24 hours; the next slot frees at 20\d\d-/);
    assert.equal(post.socialAccounts[0].status, 'pending');
    const inMs = await dueIn(post.id);
    assert.ok(inMs > 23 * 3_600_000 && inMs <= 24 * 3_600_000, `due again in ${inMs} ms: when the oldest post of the day leaves the 24 h window`);
    assert.equal(fb.instagram.containers().length, containersBefore, 'no container was created');
    fb.instagram.setQuota(50);
  });

  it('throttled by Meta (#80002): retried after the wait X-Business-Use-Case-Usage gives', async () => {
    fb.instagram.throttle(60_000);
    const created = await h.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [account.id], containers: [{ content: 'throttled', media: [{ url: imageUrl, filename: 'photo.jpg' }] }] } });
    const post = await h.stack.waitForPost(org, created.body.post.id, (p) => Boolean(p.socialAccounts[0].error), 20_000);
    assert.match(post.socialAccounts[0].error, /instagram: rate limited \(\(#80002\) There have been too many calls/);
    assert.equal(post.socialAccounts[0].status, 'pending');
    const inMs = await dueIn(post.id);
    assert.ok(inMs > 50_000 && inMs <= 61_000, `due again in ${inMs} ms: the minute Meta said`);
    fb.instagram.throttle(0);
  });

  it('a refused token (#190) fails the destination as an auth failure', async () => {
    fb.revokeUser(userId);
    const error = failed(await publish({ containers: [{ content: 'revoked', media: [{ url: imageUrl, filename: 'photo.jpg' }] }] }));
    assert.match(error, /instagram: the access token was refused \(Error validating access token: The user has not authorized application crier-meta\. \(#190\/458\)\)/);
  });
});

