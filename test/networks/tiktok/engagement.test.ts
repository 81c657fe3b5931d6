// TikTok after publishing, each capability called directly against the emulator over HTTP: the
// creator's public videos (POST /v2/video/list/, cursor pages), a video's counts (POST /v2/video/query/)
// and the account's (GET /v2/user/info/ stats fields). Posts are published through Crier first (a
// direct post gets a public video id; an inbox draft keeps its publish_id, which TikTok never maps to the
// video the creator later posts). No remove and no comments are declared: TikTok has no such API.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { NetworkCapabilities } from '../../../src/networks/capabilities.ts';
import type { PublishedPost } from '../../../src/core/post.ts';
import { PublishError } from '../../../src/core/errors.ts';
import { TIKTOK_ENGAGEMENT_SCOPES, TIKTOK_SCOPES } from '../../../src/networks/tiktok/oauth.ts';
import { paddedVideo } from '../../helpers/media.ts';
import { capabilitiesAt, sessionOf } from '../../helpers/engagement-session.ts';
import { APP, MB, startTikTokStack, type Creator, type TikTokStack } from './setup.ts';

const published = (platformId: string, url = 'https://www.tiktok.com/'): PublishedPost => {
  const root = { platformId, url };
  return { root, parts: [root], block: {} };
};

describe('TikTok engagement capabilities', () => {
  let s: TikTokStack;
  let caps: NetworkCapabilities;

  before(async () => {
    s = await startTikTokStack({ env: { CRIER_TIKTOK_CREATOR_CAP: '100' } });
    caps = capabilitiesAt('tiktok', s.tt.url);
  });
  after(async () => s.close());

  /** A session whose token also grants the engagement scopes (video.list, user.info.stats). */
  const engaged = (creator: { openId: string }) =>
    sessionOf('tiktok', creator.openId, s.tt.oauth.issue(creator.openId, APP.clientId, [...TIKTOK_SCOPES, ...TIKTOK_ENGAGEMENT_SCOPES]).accessToken);
  const videoPost = async (creator: Creator, name: string, block: object) => {
    const url = await s.upload(name, await paddedVideo(MB), 'video/mp4');
    const post = await s.publish(creator, { containers: [{ content: `video ${name}`, media: [{ url, filename: name }] }], tiktok: block });
    const destination = post.socialAccounts[0];
    assert.equal(destination.status, 'published', destination.error);
    return destination as { platformPostId: string; platformPostUrl: string };
  };
  const callsSince = (from: number) => s.tt.displayCalls().slice(from);

  it('declares ownPosts, analytics and the dry run\'s preview only: no remove, no comments', () => {
    assert.deepEqual(Object.keys(caps).sort(), ['analytics', 'ownPosts', 'preview']);
    assert.deepEqual(Object.keys(caps.analytics!).sort(), ['account', 'post']);
  });

  it('a direct post: its public video is read by id (likes, comments, shares, views) and listed', async () => {
    const ada = await s.addCreator('ada.stats');
    const dest = await videoPost(ada, 'direct.mp4', { postMode: 'DIRECT_POST', privacyLevel: 'PUBLIC_TO_EVERYONE', content: 'Direct caption' });
    assert.match(dest.platformPostId, /^\d+$/);
    s.tt.setVideoStats(dest.platformPostId, { likeCount: 120, commentCount: 7, shareCount: 3, viewCount: 4500 });
    const from = s.tt.displayCalls().length;
    const metrics = await caps.analytics!.post!(engaged(ada), published(dest.platformPostId, dest.platformPostUrl));
    assert.deepEqual(metrics, { likes: 120, comments: 7, shares: 3, views: 4500, reach: null, saves: null, impressions: null, platform_specific: {} });
    assert.deepEqual(callsSince(from), [{
      method: 'POST', path: '/v2/video/query/', fields: 'id,like_count,comment_count,share_count,view_count',
      body: { filters: { video_ids: [dest.platformPostId] } }, code: 'ok',
    }]);
    const page = await caps.ownPosts!(engaged(ada), {});
    assert.deepEqual(page.items.map((v) => [v.platformId, v.text, v.mediaCount]), [[dest.platformPostId, 'Direct caption', 1]]);
    assert.match(page.items[0]!.url, new RegExp(`^https://www\\.tiktok\\.com/@ada\\.stats/video/${dest.platformPostId}`));
  });

  it('a public id beyond a JS number\'s precision (7663542984343883021) is read back exactly: its figures are found', async () => {
    const ida = await s.addCreator('ida.int64');
    s.tt.nextPostId('7663542984343883021');
    const dest = await videoPost(ida, 'int64.mp4', { postMode: 'DIRECT_POST', privacyLevel: 'PUBLIC_TO_EVERYONE' });
    assert.equal(dest.platformPostId, '7663542984343883021');
    s.tt.setVideoStats(dest.platformPostId, { likeCount: 9, viewCount: 90 });
    const metrics = await caps.analytics!.post!(engaged(ida), published(dest.platformPostId, dest.platformPostUrl));
    assert.deepEqual([metrics.likes, metrics.views], [9, 90]);
  });

  it('an inbox draft (MEDIA_UPLOAD) is known by its publish_id: no figures, and nothing is asked of TikTok', async () => {
    const bo = await s.addCreator('bo.inbox');
    const dest = await videoPost(bo, 'inbox.mp4', {});
    assert.match(dest.platformPostId, /^v_pub_file~/);
    const from = s.tt.displayCalls().length;
    await assert.rejects(caps.analytics!.post!(engaged(bo), published(dest.platformPostId)),
      (e: PublishError) => e.kind === 'permanent' && e.code === 'not_found' && /publish_id, not a public video \(an inbox draft/.test(e.message));
    assert.deepEqual(callsSince(from), []);
    // The creator posts the draft in the app: a new video id, which only the list shows.
    const video = s.tt.postFromInbox(dest.platformPostId);
    const page = await caps.ownPosts!(engaged(bo), {});
    assert.deepEqual(page.items.map((v) => v.platformId), [video.id]);
    assert.notEqual(video.id, dest.platformPostId);
  });

  it('ownPosts pages newest first, 20 at a time, from `until`, and stops past `since`', async () => {
    const cy = await s.addCreator('cy.pages');
    const base = Date.UTC(2026, 0, 1);
    for (let i = 0; i < 45; i++) s.tt.addVideo(cy.openId, { createdAtMs: base + i * 3600_000, videoDescription: `clip ${i}`, title: `T${i}` });
    const session = engaged(cy);
    const from = s.tt.displayCalls().length;
    const first = await caps.ownPosts!(session, {});
    assert.deepEqual(first.items.map((v) => v.text), Array.from({ length: 20 }, (_, k) => `clip ${44 - k}`));
    assert.deepEqual(first.items[0], {
      platformId: first.items[0]!.platformId, url: first.items[0]!.url, text: 'clip 44',
      createdAt: new Date(base + 44 * 3600_000).toISOString(), mediaCount: 1, ref: { title: 'T44', duration: 15 },
    });
    const second = await caps.ownPosts!(session, { cursor: first.next });
    const third = await caps.ownPosts!(session, { cursor: second.next });
    assert.deepEqual(third.items.map((v) => v.text), ['clip 4', 'clip 3', 'clip 2', 'clip 1', 'clip 0']);
    assert.equal(third.next, undefined);
    assert.deepEqual(callsSince(from).map((c) => c.body), [{ max_count: 20 }, { max_count: 20, cursor: Number(first.next) }, { max_count: 20, cursor: Number(second.next) }]);
    assert.equal(callsSince(from)[0]!.fields, 'id,title,video_description,create_time,share_url,cover_image_url,duration');
    // A window: the first page starts at `until`; no next page once `since` is passed.
    const window = await caps.ownPosts!(session, { since: new Date(base + 30 * 3600_000), until: new Date(base + 40 * 3600_000) });
    assert.deepEqual(window.items.map((v) => v.text).slice(0, 3), ['clip 40', 'clip 39', 'clip 38']);
    assert.equal(window.next, undefined, 'the page reaches back past since');
    assert.deepEqual(s.tt.displayCalls().at(-1)!.body, { max_count: 20, cursor: base + 40 * 3600_000 + 1 });
  });

  it('analytics.account: the creator\'s current totals, not ranged', async () => {
    const di = await s.addCreator('di.totals');
    s.tt.setUserStats(di.openId, { follower_count: 1200, following_count: 80, likes_count: 56000 });
    s.tt.addVideo(di.openId);
    s.tt.addVideo(di.openId);
    const from = s.tt.displayCalls().length;
    const metrics = await caps.analytics!.account!(engaged(di), { since: new Date(Date.now() - 7 * 86_400_000), until: new Date() });
    assert.deepEqual(metrics, { followers: 1200, following: 80, posts: 2, engagement: 56000, ranged: false, platform_specific: { likes_count: 56000 } });
    assert.deepEqual(callsSince(from), [{ method: 'GET', path: '/v2/user/info/', fields: 'follower_count,following_count,likes_count,video_count', body: null, code: 'ok' }]);
  });

  it('a token connected without the engagement scopes: refused naming the scope, not a disconnect', async () => {
    const ed = await s.addCreator('ed.scopes');
    const plain = sessionOf('tiktok', ed.openId, ed.token);
    await assert.rejects(caps.ownPosts!(plain, {}), (e: PublishError) => e.kind === 'permanent' && e.code === 'forbidden' && /without TikTok's video\.list scope/.test(e.message));
    await assert.rejects(caps.analytics!.account!(plain, { since: new Date(0), until: new Date() }), (e: PublishError) => e.kind === 'permanent' && /user\.info\.stats/.test(e.message));
    const full = engaged(ed);
    s.tt.revokeUser(ed.openId);
    await assert.rejects(caps.ownPosts!(full, {}), (e: PublishError) => e.kind === 'auth' && /access_token_invalid/.test(e.message));
  });

  it('a video the creator deleted or made private: not_found; a rate limit waits a minute', async () => {
    const fay = await s.addCreator('fay.gone');
    await assert.rejects(caps.analytics!.post!(engaged(fay), published('7300000000000000001')), (e: PublishError) => e.code === 'not_found' && /not among the creator's public videos/.test(e.message));
    s.tt.failNext({ status: 429, method: 'POST', path: '/v2/video/list/' });
    await assert.rejects(caps.ownPosts!(engaged(fay), {}), (e: PublishError) => e.kind === 'retryable' && e.code === 'rate_limited' && e.retryAfterMs === 60_000);
  });
});
