// Instagram's engagement capabilities (Instagram API with Facebook Login, the Page's token) over real
// HTTP against the Facebook emulator: deleting media, listing the account's own media, reading
// comments (other people's, one tier of answers through replies{}, Graph's paging) and answering
// them, the deprecated Graph comment shape, and the figures of a media (by its product type, never
// impressions or plays) and of the account. Each test checks what the capability returns and what
// Graph received.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startFacebookEmulator, type FacebookEmulator } from '../../../emulators/facebook/server.ts';
import type { AccountSession, NetworkCapabilities } from '../../../src/networks/capabilities.ts';
import type { PublishedPost } from '../../../src/core/post.ts';
import { PublishError } from '../../../src/core/errors.ts';
import { instagram } from '../../../src/networks/instagram/index.ts';
import { INSTAGRAM_SCOPES } from '../../../src/networks/instagram/oauth.ts';

const APP = { clientId: 'crier-meta', clientSecret: 'secret', redirectUris: ['http://localhost/cb'] };
const DAY = 86_400_000;
/** Deleting media needs instagram_manage_contents (Facebook Login path only). */
const SCOPES = [...INSTAGRAM_SCOPES];
/** A token granted without one engagement permission (an account connected before Crier asked for it). */
const without = (scope: string) => INSTAGRAM_SCOPES.filter((s) => s !== scope);

describe('instagram engagement', () => {
  let fb: FacebookEmulator;
  let caps: NetworkCapabilities;
  let pageId: string;
  let igId: string;
  let token: string;
  let session: AccountSession;

  before(async () => {
    fb = await startFacebookEmulator();
    fb.addApp(APP);
    const user = fb.addUser({ pages: [{ name: 'Acme', instagram: { username: 'acme' } }] });
    pageId = user.pageIds[0]!;
    token = fb.issuePageToken(pageId, APP.clientId, SCOPES);
    igId = (await (await fetch(`${fb.url}/v23.0/${pageId}?fields=instagram_business_account&access_token=${token}`)).json() as any).instagram_business_account.id;
    session = sessionFor(igId, token);
    caps = instagram.capabilities!({ settings: { baseUrl: fb.url }, allowLoopbackFetch: true, publicBaseUrl: 'http://127.0.0.1:1' });
  });
  after(() => fb.close());

  const seed = (kind?: Parameters<FacebookEmulator['instagram']['publishedElsewhere']>[2]): PublishedPost => {
    const id = fb.instagram.publishedElsewhere(igId, 1, kind)[0]!;
    const root = { platformId: id, url: `https://www.instagram.com/p/${id}/` };
    return { root, parts: [root], block: {} };
  };
  const callsSince = (mark: number) => fb.instagram.calls().slice(mark);

  it('lists top-level comments as Reply records (username, no name), answers nested one tier through replies{}', async () => {
    const post = seed();
    const first = fb.instagram.addComment(post.root.platformId, { text: 'Love it', username: 'ada', fromId: '9001', likeCount: 4 });
    const second = fb.instagram.addComment(post.root.platformId, { text: 'Link?', username: 'bob', fromId: '9002', hidden: true });
    const answer = fb.instagram.addComment(first.id, { text: 'Same', username: 'cy', fromId: '9003' });
    const deeper = fb.instagram.addComment(answer.id, { text: 'Me too', username: 'di', fromId: '9004' });

    const mark = fb.instagram.calls().length;
    const flat = await caps.comments!.list(session, post, { includeReplies: false, resolveAuthorNames: false });
    assert.deepEqual(flat.items.map((r) => r.id), [first.id, second.id]);
    const ada = flat.items[0]!;
    assert.deepEqual({ ...ada, created_at: undefined }, {
      id: first.id, author: '9001', author_name: null, author_username: 'ada', author_profile_url: 'https://www.instagram.com/ada/',
      text: 'Love it', created_at: undefined, like_count: 4, platform_specific: { hidden: false },
    });
    assert.match(ada.created_at!, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/);
    assert.equal(flat.items[1]!.platform_specific?.hidden, true);
    assert.ok(!('replies' in ada));
    assert.doesNotMatch(callsSince(mark)[0]!.params.fields!, /replies/);

    const nested = await caps.comments!.list(session, post, { includeReplies: true, resolveAuthorNames: false });
    assert.deepEqual(nested.items.map((r) => [r.id, (r.replies ?? []).map((a) => [a.id, a.author_username, a.text, a.platform_specific?.parent_id])]), [
      [first.id, [[answer.id, 'cy', 'Same', first.id], [deeper.id, 'di', 'Me too', first.id]]],
      [second.id, []],
    ]);
    const calls = callsSince(mark + 1);
    assert.deepEqual(calls.map((c) => `${c.method} ${c.path}`), [`GET /${post.root.platformId}/comments`], 'the answers came with the comments, in one call');
    assert.match(calls[0]!.params.fields!, /replies\{id,text,timestamp,like_count,hidden,from\{id,username\}/);
  });

  it('a long thread: the expansion\'s first page, then /{ig-comment-id}/replies for the rest; comments paged with Graph\'s cursors', async () => {
    const post = seed();
    const top = fb.instagram.addComment(post.root.platformId, { text: 'Thread' });
    const answers = Array.from({ length: 30 }, (_, i) => fb.instagram.addComment(top.id, { text: `a${i}` }).id);
    const others = Array.from({ length: 55 }, (_, i) => fb.instagram.addComment(post.root.platformId, { text: `c${i}` }).id);
    const mark = fb.instagram.calls().length;
    const one = await caps.comments!.list(session, post, { includeReplies: true, resolveAuthorNames: false });
    assert.equal(one.items.length, 50);
    assert.deepEqual(one.items[0]!.replies!.map((r) => r.id), answers);
    assert.deepEqual(callsSince(mark).map((c) => `${c.method} ${c.path}`), [`GET /${post.root.platformId}/comments`, `GET /${top.id}/replies`]);
    const two = await caps.comments!.list(session, post, { includeReplies: false, resolveAuthorNames: false, cursor: one.next });
    assert.deepEqual([...one.items, ...two.items].map((r) => r.id), [top.id, ...others]);
    assert.equal(two.next, undefined);
  });

  it('throttled by Meta (#80002): a retryable rate_limited failure with the wait the usage header gives', async () => {
    const post = seed();
    fb.instagram.throttle(3 * 60_000);
    try {
      await assert.rejects(caps.comments!.reply(session, post, 'hello'), (e: PublishError) => e.kind === 'retryable' && e.code === 'rate_limited' && e.retryAfterMs === 3 * 60_000);
      assert.deepEqual(fb.instagram.comments(post.root.platformId), []);
    } finally {
      fb.instagram.throttle(0);
    }
  });

  it('comments the media with POST /{ig-media-id}/comments and answers with POST /{ig-comment-id}/replies', async () => {
    const post = seed();
    const question = fb.instagram.addComment(post.root.platformId, { text: 'Price?', username: 'eve' });
    const mark = fb.instagram.calls().length;
    const top = await caps.comments!.reply(session, post, 'Thanks everyone');
    const answer = await caps.comments!.reply(session, post, '10 EUR', question.id);
    assert.deepEqual(callsSince(mark).map((c) => [c.method, c.path, c.params.message]), [
      ['POST', `/${post.root.platformId}/comments`, 'Thanks everyone'],
      ['POST', `/${question.id}/replies`, '10 EUR'],
    ]);
    assert.deepEqual(fb.instagram.comments(post.root.platformId).filter((c) => c.username === 'acme').map((c) => [c.id, c.parentId]), [[top.replyId, undefined], [answer.replyId, question.id]]);
    await assert.rejects(caps.comments!.reply(session, post, ''), (e: PublishError) => e.code === 'invalid');
    // Instagram: "You cannot reply to hidden comments" — refused with the network's reason, nothing posted.
    const hidden = fb.instagram.addComment(post.root.platformId, { text: 'spam', username: 'zed', hidden: true });
    await assert.rejects(caps.comments!.reply(session, post, 'hi', hidden.id), (e: PublishError) => e.kind === 'permanent' && /hidden comment/.test(e.message));
    assert.equal(fb.instagram.comments(post.root.platformId).filter((c) => c.parentId === hidden.id).length, 0);
  });

  it('the deprecated shape: Graph\'s comment items, their replies included, as Instagram returns them', async () => {
    const post = seed();
    const c = fb.instagram.addComment(post.root.platformId, { text: 'Old client', username: 'fay', fromId: '9009' });
    const a = fb.instagram.addComment(c.id, { text: 'yes', username: 'gus', fromId: '9010' });
    const page = await caps.comments!.legacy!(session, post, {});
    const item = page.items[0] as any;
    assert.equal(item.id, c.id);
    assert.equal(item.text, 'Old client');
    assert.equal(item.username, 'fay');
    assert.deepEqual(item.from, { id: '9009', username: 'fay' });
    assert.match(item.timestamp, /\+0000$/);
    assert.deepEqual(item.replies.data.map((r: any) => [r.id, r.text]), [[a.id, 'yes']]);
  });

  it('deletes media with DELETE /{ig-media-id} (comments go with it); gone media is absent; without instagram_manage_contents it is refused', async () => {
    const post = seed();
    fb.instagram.addComment(post.root.platformId, { text: 'bye' });
    const mark = fb.instagram.calls().length;
    assert.equal(await caps.remove!(session, post), 'removed');
    assert.deepEqual(callsSince(mark).map((c) => `${c.method} ${c.path}`), [`DELETE /${post.root.platformId}`]);
    assert.equal(fb.instagram.published().some((m) => m.id === post.root.platformId), false);
    assert.deepEqual(fb.instagram.comments(post.root.platformId), []);
    assert.equal(await caps.remove!(session, post), 'absent');
    await assert.rejects(caps.comments!.list(session, post, { includeReplies: true, resolveAuthorNames: false }), (e: PublishError) => e.code === 'not_found');
    await assert.rejects(caps.analytics!.post!(session, post), (e: PublishError) => e.code === 'not_found');

    const kept = seed();
    const publishOnly = fb.issuePageToken(pageId, APP.clientId, without('instagram_manage_contents'));
    await assert.rejects(caps.remove!(sessionFor(igId, publishOnly), kept), (e: PublishError) => e.kind === 'permanent' && e.code === 'forbidden' && /reconnect/.test(e.message));
    assert.ok(fb.instagram.published().some((m) => m.id === kept.root.platformId));
    await assert.rejects(caps.remove!(sessionFor(igId, 'EAABnope'), kept), (e: PublishError) => e.kind === 'auth');
  });

  it('lists the account\'s own media newest first, stopping at `since` (the media edge has no time filter), with carousel counts', async () => {
    const user = fb.addUser({ pages: [{ name: 'Shop', instagram: { username: 'shop' } }] });
    const shopPage = user.pageIds[0]!;
    const shopToken = fb.issuePageToken(shopPage, APP.clientId, SCOPES);
    const shopIg = (await (await fetch(`${fb.url}/v23.0/${shopPage}?fields=instagram_business_account&access_token=${shopToken}`)).json() as any).instagram_business_account.id;
    const shop = sessionFor(shopIg, shopToken);
    const old = fb.instagram.publishedElsewhere(shopIg, 60, { caption: 'old' });
    fb.clock.advance(2 * DAY);
    const since = new Date(fb.clock.now() - 1000);
    const album = fb.instagram.publishedElsewhere(shopIg, 1, { caption: 'album', children: 3 })[0]!;
    fb.clock.advance(1000);
    const reel = fb.instagram.publishedElsewhere(shopIg, 1, { caption: 'reel', productType: 'REELS', mediaType: 'VIDEO' })[0]!;

    const all = await caps.ownPosts!(shop, {});
    assert.equal(all.items.length, 50);
    assert.deepEqual(all.items.slice(0, 2).map((p) => [p.platformId, p.text, p.mediaCount]), [[reel, 'reel', 1], [album, 'album', 3]]);
    assert.match(all.items[0]!.url, /^https:\/\/www\.instagram\.com\/reel\//);
    assert.ok(all.next);
    const rest = await caps.ownPosts!(shop, { cursor: all.next });
    assert.deepEqual([...all.items, ...rest.items].map((p) => p.platformId), [reel, album, ...old]);

    const mark = fb.instagram.calls().length;
    const recent = await caps.ownPosts!(shop, { since });
    assert.deepEqual(recent.items.map((p) => p.platformId), [reel, album]);
    assert.equal(recent.next, undefined, 'older media reached: no further page');
    assert.deepEqual(callsSince(mark).map((c) => c.path), [`/${shopIg}/media`]);
  });

  it('a feed media\'s figures from the 2025 metrics; a Reel adds its watch times; a Story its replies; never impressions or plays', async () => {
    const post = seed();
    fb.instagram.addComment(post.root.platformId, { text: 'one' });
    fb.instagram.setMediaInsights(post.root.platformId, { views: 300, reach: 200, likes: 12, shares: 3, saved: 5, total_interactions: 21 });
    const mark = fb.instagram.calls().length;
    assert.deepEqual(await caps.analytics!.post!(session, post), {
      likes: 12, comments: 1, shares: 3, views: 300, reach: 200, saves: 5, impressions: null,
      platform_specific: { total_interactions: 21, media_product_type: 'FEED' },
    });
    const insights = callsSince(mark).find((c) => c.path === `/${post.root.platformId}/insights`)!;
    assert.equal(insights.params.metric, 'views,reach,likes,comments,shares,saved,total_interactions');

    const reel = seed({ productType: 'REELS', mediaType: 'VIDEO' });
    fb.instagram.setMediaInsights(reel.root.platformId, { views: 1000, ig_reels_avg_watch_time: 4200, ig_reels_video_view_total_time: 90000 });
    const reelMetrics = await caps.analytics!.post!(session, reel);
    assert.equal(reelMetrics.views, 1000);
    // total_interactions was never set: Meta leaves a metric without data out ("an empty data set
    // instead of 0"), so Crier reports nothing for it rather than a 0 it was not given.
    assert.deepEqual(reelMetrics.platform_specific, { ig_reels_avg_watch_time: 4200, ig_reels_video_view_total_time: 90000, media_product_type: 'REELS' });
    assert.equal(reelMetrics.reach, null, 'reach was not given either');

    const story = seed({ productType: 'STORY' });
    fb.instagram.setMediaInsights(story.root.platformId, { views: 40, reach: 30, replies: 2 });
    const storyMetrics = await caps.analytics!.post!(session, story);
    assert.deepEqual([storyMetrics.views, storyMetrics.reach, storyMetrics.saves, storyMetrics.platform_specific.replies], [40, 30, null, 2]);
    assert.equal(storyMetrics.likes, 0, 'a Story has no likes metric: the like_count of the node');
    for (const call of fb.instagram.calls().filter((c) => c.path.endsWith('/insights'))) assert.doesNotMatch(call.params.metric ?? '', /impressions|plays|video_views/);
  });

  it('a token without instagram_manage_insights: the node\'s counters, and why there are no insights', async () => {
    const post = seed();
    fb.instagram.addComment(post.root.platformId, { text: 'hi' });
    fb.instagram.setMediaInsights(post.root.platformId, { likes: 7, views: 70 });
    const plain = sessionFor(igId, fb.issuePageToken(pageId, APP.clientId, without('instagram_manage_insights')));
    const metrics = await caps.analytics!.post!(plain, post);
    assert.deepEqual([metrics.likes, metrics.comments, metrics.views, metrics.reach], [7, 1, null, null], 'likes and comments from like_count and comments_count');
    assert.match(String(metrics.platform_specific.insights_unavailable), /^instagram: permission missing/);
    const account = await caps.analytics!.account!(plain, { since: new Date(Date.now() - 7 * DAY), until: new Date() });
    assert.deepEqual([account.engagement, account.ranged], [null, false]);
    assert.equal(typeof account.followers, 'number');
  });

  it('the account\'s figures: counters on the user node, interactions over the period in windows of 30 days', async () => {
    fb.instagram.setAccountCounts(igId, { followers: 2500, follows: 180 });
    const until = new Date(Date.UTC(2026, 10, 20));
    fb.instagram.setAccountDay(igId, '2026-11-01', { total_interactions: 40, views: 400, reach: 300, accounts_engaged: 30 });
    fb.instagram.setAccountDay(igId, '2026-11-15', { total_interactions: 2, views: 20, reach: 15, accounts_engaged: 2 });
    fb.instagram.setAccountDay(igId, '2026-10-01', { total_interactions: 100, views: 1000 });
    const media = fb.instagram.published().filter((m) => m.igUserId === igId && m.productType !== 'STORY').length;

    const short = await caps.analytics!.account!(session, { since: new Date(until.getTime() - 20 * DAY), until });
    assert.deepEqual(short, { followers: 2500, following: 180, posts: media, engagement: 42, ranged: true, platform_specific: { views: 420, reach: 315, accounts_engaged: 32 } });

    const mark = fb.instagram.calls().length;
    const long = await caps.analytics!.account!(session, { since: new Date(until.getTime() - 60 * DAY), until });
    assert.equal(long.engagement, 142);
    assert.deepEqual(long.platform_specific, { views: 1420 }, 'people reached are not summed across windows');
    const windows = callsSince(mark).filter((c) => c.path === `/${igId}/insights`);
    assert.deepEqual(windows.map((c) => [c.params.period, c.params.metric_type, (Number(c.params.until) - Number(c.params.since)) / 86_400]), [['day', 'total_value', 30], ['day', 'total_value', 30]]);
  });
});

function sessionFor(igUserId: string, accessToken: string | null): AccountSession {
  return {
    account: { id: 2, orgId: 1, network: 'instagram', username: 'acme', networkUniqueId: igUserId, serviceUrl: null, accessToken, refreshToken: null, credential: null },
    saveTokens: async () => {},
    userFetch: fetch,
  };
}
