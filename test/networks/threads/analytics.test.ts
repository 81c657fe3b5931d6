// Threads insights through Crier's `analytics` capability, over real HTTP against the emulator: a
// post's lifetime figures (GET /{root}/insights, replies counting the whole tree), nothing for a
// repost, and the account's figures over a period (GET /{user-id}/threads_insights with since/until),
// followers being Threads' current total; refusals as PublishErrors.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PublishError } from '../../../src/core/errors.ts';
import { engagementSetup, type EngagementSetup, type Profile } from './setup.ts';

const day = (iso: string) => new Date(`${iso}T00:00:00Z`);

describe('Threads analytics', () => {
  let s: EngagementSetup;
  let ada: Profile;

  before(async () => {
    s = await engagementSetup();
    ada = s.profile('ada_insights');
  });
  after(() => s.close());

  it('a post\'s figures under Crier\'s names, every Threads figure under its own', async () => {
    const post = await s.publish(ada, ['measured', 'part two']);
    const bob = s.th.addReply({ to: post.root.platformId, username: 'bob', text: 'hi' });
    s.th.addReply({ to: bob.id, username: 'carol', text: 'hi bob' });
    s.th.setPostInsights(post.root.platformId, { views: 1200, likes: 40, reposts: 3, quotes: 2, shares: 5 });
    const from = s.th.calls().length;
    const metrics = await s.caps.analytics!.post!(ada.session, post);
    assert.deepEqual(metrics, {
      likes: 40, comments: 3, shares: 5, views: 1200, reach: null, saves: null, impressions: null,
      platform_specific: { views: 1200, likes: 40, replies: 3, reposts: 3, quotes: 2, shares: 5 },
    });
    const calls = s.callsSince(from);
    assert.deepEqual(calls.map((c) => `${c.method} ${c.path} ${c.params.metric}`), [`GET /v1.0/${post.root.platformId}/insights views,likes,replies,reposts,quotes,shares`]);
  });

  it('a repost has no figures: every one is null, never 0', async () => {
    const repost = s.th.addPost({ userId: ada.userId, mediaType: 'REPOST_FACADE' });
    const metrics = await s.caps.analytics!.post!(ada.session, { root: { platformId: repost.id, url: repost.permalink }, parts: [{ platformId: repost.id, url: repost.permalink }], block: {} });
    assert.deepEqual(metrics, { likes: null, comments: null, shares: null, views: null, reach: null, saves: null, impressions: null, platform_specific: {} });
  });

  it('the account over a period: totals of the days asked, followers now', async () => {
    s.th.setUserInsights(ada.userId, {
      followersCount: 812,
      days: [
        { day: '2026-03-01', views: 10, likes: 1, replies: 1, reposts: 0, quotes: 0, clicks: 4 },
        { day: '2026-03-02', views: 20, likes: 5, replies: 2, reposts: 1, quotes: 1, clicks: 0 },
        { day: '2026-03-03', views: 30, likes: 7, replies: 0, reposts: 2, quotes: 0, clicks: 1 },
        { day: '2026-03-09', views: 99, likes: 99, replies: 99, reposts: 99, quotes: 99, clicks: 99 },
      ],
    });
    const from = s.th.calls().length;
    const metrics = await s.caps.analytics!.account!(ada.session, { since: day('2026-03-01'), until: day('2026-03-04') });
    assert.deepEqual(metrics, {
      followers: 812, following: null, posts: null, engagement: 13 + 3 + 3 + 1, ranged: true,
      platform_specific: { likes: 13, replies: 3, reposts: 3, quotes: 1, clicks: 5, profile_views: 60 },
    });
    const call = s.callsSince(from)[0]!;
    assert.equal(call.path, `/v1.0/${ada.userId}/threads_insights`);
    assert.deepEqual([call.params.metric, call.params.since, call.params.until], [
      'views,likes,replies,reposts,quotes,clicks,followers_count', String(day('2026-03-01').getTime() / 1000), String(day('2026-03-04').getTime() / 1000),
    ]);
  });

  it('a period before Threads keeps figures: since moves to 2024-04-13, or the ask is refused', async () => {
    await s.caps.analytics!.account!(ada.session, { since: day('2023-01-01'), until: day('2026-03-04') });
    assert.equal(s.th.calls().at(-1)!.params.since, '1712991600');
    const from = s.th.calls().length;
    await assert.rejects(s.caps.analytics!.account!(ada.session, { since: day('2023-01-01'), until: day('2024-01-01') }), (e: PublishError) => e.kind === 'permanent' && e.code === 'invalid');
    assert.equal(s.callsSince(from).length, 0);
  });

  it('a token without threads_manage_insights is forbidden; another profile\'s post is not_found', async () => {
    const eve = s.profile('eve_insights', ['threads_basic', 'threads_content_publish']);
    const post = await s.publish(eve, ['no insights for me']);
    await assert.rejects(s.caps.analytics!.post!(eve.session, post), (e: PublishError) => e.code === 'forbidden' && /threads_manage_insights/.test(e.message));
    await assert.rejects(s.caps.analytics!.post!(ada.session, post), (e: PublishError) => e.code === 'not_found');
  });
});
