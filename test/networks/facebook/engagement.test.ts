// Facebook's engagement capabilities over real HTTP against the Facebook emulator, with a Page token:
// deleting a post, listing the Page's own posts, reading comments (other people's, one tier of
// answers, Graph's paging) and answering them, the deprecated Graph comment shape, and the figures of
// a post and of the Page. Each test checks what the capability returns and what Graph received.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { startFacebookEmulator, type FacebookEmulator } from '../../../emulators/facebook/server.ts';
import type { AccountMetrics, AccountSession, NetworkCapabilities } from '../../../src/networks/capabilities.ts';
import type { PublishedPost } from '../../../src/core/post.ts';
import { PublishError } from '../../../src/core/errors.ts';
import { FacebookClient } from '../../../src/networks/facebook/client.ts';
import { facebook } from '../../../src/networks/facebook/index.ts';
import { FACEBOOK_SCOPES } from '../../../src/networks/facebook/oauth.ts';

const APP = { clientId: 'crier-meta', clientSecret: 'secret', redirectUris: ['http://localhost/cb'] };
const DAY = 86_400_000;
/** Page insights need read_insights, which the connect does not ask for yet (README.md). */
const SCOPES = [...FACEBOOK_SCOPES];

describe('facebook engagement', () => {
  let fb: FacebookEmulator;
  let caps: NetworkCapabilities;
  let pageId: string;
  let token: string;
  let session: AccountSession;
  let client: FacebookClient;

  before(async () => {
    fb = await startFacebookEmulator();
    fb.addApp(APP);
    pageId = fb.addUser({ pages: [{ name: 'Acme', username: 'acme' }] }).pageIds[0]!;
    token = fb.issuePageToken(pageId, APP.clientId, SCOPES);
    session = sessionFor(pageId, token);
    caps = facebook.capabilities!({ settings: { baseUrl: fb.url }, allowLoopbackFetch: true, publicBaseUrl: 'http://127.0.0.1:1' });
    client = new FacebookClient(fb.url, token, pageId);
  });
  after(() => fb.close());

  const publish = async (message: string): Promise<PublishedPost> => {
    const id = await client.createPost(message, []);
    const root = { platformId: id, url: `https://www.facebook.com/${id}` };
    return { root, parts: [root], block: {} };
  };
  const callsSince = (mark: number) => fb.pages.calls().slice(mark).map((c) => `${c.method} ${c.path}`);

  it('lists the top-level comments of other people as Reply records, answers nested one tier when asked', async () => {
    const post = await publish('Comment on me');
    const first = fb.pages.addComment(post.root.platformId, { message: 'Nice!', fromId: '5001', fromName: 'Ada Lovelace', likeCount: 3 });
    const second = fb.pages.addComment(post.root.platformId, { message: 'Where is it?', fromId: '5002', fromName: 'Bob' });
    const answer = fb.pages.addComment(first.id, { message: 'Agreed', fromId: '5003', fromName: 'Cy' });
    // An answer to an answer: Facebook attaches it to the top-level comment.
    const deeper = fb.pages.addComment(answer.id, { message: 'Me too', fromId: '5004', fromName: 'Di' });

    const mark = fb.pages.calls().length;
    const flat = await caps.comments!.list(session, post, { includeReplies: false, resolveAuthorNames: false });
    assert.equal(flat.next, undefined);
    assert.deepEqual(flat.items.map((r) => r.id), [first.id, second.id]);
    const ada = flat.items[0]!;
    assert.deepEqual({ ...ada, created_at: undefined }, {
      id: first.id, author: '5001', author_name: 'Ada Lovelace', text: 'Nice!', created_at: undefined, like_count: 3,
      platform_specific: { comment_count: 2, permalink_url: `https://www.facebook.com/${post.root.platformId}?comment_id=${first.id}` },
    });
    assert.match(ada.created_at!, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/);
    assert.ok(!('replies' in ada), 'no replies key unless asked');
    assert.deepEqual(callsSince(mark), [`GET /${post.root.platformId}/comments`]);
    const params = fb.pages.calls()[mark]!.params;
    assert.equal(params.filter, 'toplevel');
    assert.match(params.fields!, /from\{id,name\}/);

    const nested = await caps.comments!.list(session, post, { includeReplies: true, resolveAuthorNames: false });
    assert.deepEqual(nested.items.map((r) => [r.id, (r.replies ?? []).map((a) => [a.id, a.author_name, a.text, a.platform_specific?.parent_id])]), [
      [first.id, [[answer.id, 'Cy', 'Agreed', first.id], [deeper.id, 'Di', 'Me too', first.id]]],
      [second.id, []],
    ]);
    // One call for the answers of the comment that has some; none for the one without.
    assert.deepEqual(callsSince(mark + 1), [`GET /${post.root.platformId}/comments`, `GET /${first.id}/comments`]);
  });

  it('pages through comments with Graph\'s cursors; a cursor Crier did not give is refused', async () => {
    const post = await publish('Popular');
    const made = Array.from({ length: 60 }, (_, i) => fb.pages.addComment(post.root.platformId, { message: `c${i}` }).id);
    const one = await caps.comments!.list(session, post, { includeReplies: false, resolveAuthorNames: false });
    assert.equal(one.items.length, 50);
    assert.ok(one.next, 'a next cursor');
    assert.doesNotMatch(one.next!, /access_token/, 'the token never leaves in a cursor');
    const two = await caps.comments!.list(session, post, { includeReplies: false, resolveAuthorNames: false, cursor: one.next });
    assert.deepEqual([...one.items, ...two.items].map((r) => r.id), made);
    assert.equal(two.next, undefined);
    await assert.rejects(caps.comments!.list(session, post, { includeReplies: false, resolveAuthorNames: false, cursor: 'access_token=stolen' }), (e: PublishError) => e.kind === 'permanent' && e.code === 'invalid');
  });

  it('comments the post, answers a comment, and attaches an answer to an answer under its top-level comment', async () => {
    const post = await publish('Ask me');
    const question = fb.pages.addComment(post.root.platformId, { message: 'Price?', fromName: 'Eve' });
    const mark = fb.pages.calls().length;
    const top = await caps.comments!.reply(session, post, 'Thanks all');
    const answer = await caps.comments!.reply(session, post, '10 EUR', question.id);
    const followUp = fb.pages.addComment(question.id, { message: 'Thanks' });
    const again = await caps.comments!.reply(session, post, 'You are welcome', followUp.id);
    assert.deepEqual(fb.pages.calls().slice(mark).map((c) => [c.method, c.path, c.params.message]), [
      ['POST', `/${post.root.platformId}/comments`, 'Thanks all'],
      ['POST', `/${question.id}/comments`, '10 EUR'],
      ['POST', `/${followUp.id}/comments`, 'You are welcome'],
    ]);
    const stored = fb.pages.comments(post.root.platformId);
    assert.deepEqual(stored.filter((c) => c.fromId === pageId).map((c) => [c.id, c.parentId]), [[top.replyId, undefined], [answer.replyId, question.id], [again.replyId, question.id]]);
    await assert.rejects(caps.comments!.reply(session, post, '   '), (e: PublishError) => e.code === 'invalid');
    assert.equal(fb.pages.calls().length, mark + 3, 'an empty comment is refused before any call');
  });

  it('the deprecated shape: Graph\'s comment items as Facebook returns them', async () => {
    const post = await publish('Legacy');
    const c = fb.pages.addComment(post.root.platformId, { message: 'Old client', fromId: '5009', fromName: 'Fay', likeCount: 1 });
    const page = await caps.comments!.legacy!(session, post, {});
    assert.equal(page.items.length, 1);
    const item = page.items[0] as Record<string, unknown>;
    assert.deepEqual({ ...item, created_time: undefined }, { id: c.id, message: 'Old client', created_time: undefined, from: { id: '5009', name: 'Fay' }, like_count: 1, comment_count: 0 });
    assert.match(String(item.created_time), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/);
  });

  it('deletes a post with DELETE /{post-id}; a post already gone is absent', async () => {
    const post = await publish('Delete me');
    fb.pages.addComment(post.root.platformId, { message: 'bye' });
    const mark = fb.pages.calls().length;
    assert.equal(await caps.remove!(session, post), 'removed');
    assert.deepEqual(callsSince(mark), [`DELETE /${post.root.platformId}`]);
    assert.equal(fb.pages.posts().some((p) => p.id === post.root.platformId), false);
    assert.deepEqual(fb.pages.comments(post.root.platformId), []);
    assert.equal(await caps.remove!(session, post), 'absent');
    // A gone post's comments, or an answer to a comment that is gone: not_found, in Graph's words.
    await assert.rejects(caps.comments!.list(session, post, { includeReplies: false, resolveAuthorNames: false }), (e: PublishError) => e.kind === 'permanent' && e.code === 'not_found' && /Unsupported get request/.test(e.message));
    await assert.rejects(caps.comments!.reply(session, post, 'hello?'), (e: PublishError) => e.code === 'not_found');
  });

  it('deletes a Reel by its video id, as the adapter stored it; its figures come from the Video node and video_insights', async () => {
    fb.pages.setVideoProcessingMs(0);
    const { videoId, uploadUrl } = await client.startPhased('video_reels');
    await client.rupload(uploadUrl, Readable.from([MP4]), MP4.length);
    await client.finishPhased('video_reels', videoId, 'A reel');
    assert.equal((await client.videoStatus(videoId)).published, true, 'processed at once');
    const root = { platformId: videoId, url: `https://www.facebook.com/reel/${videoId}` };
    const reel: PublishedPost = { root, parts: [root], block: { publishAsReel: true } };
    fb.pages.addComment(videoId, { message: 'wow' });
    fb.pages.setPostStats(videoId, { reactions: { like: 4 }, views: 321, reach: 200 });
    let mark = fb.pages.calls().length;
    const metrics = await caps.analytics!.post!(session, reel);
    assert.deepEqual(metrics, {
      likes: 4, comments: 1, shares: null, views: 321, reach: null, saves: null, impressions: null,
      platform_specific: { blue_reels_play_count: 321, post_impressions_unique: 200, post_video_avg_time_watched: 0 },
    }, 'a Video node has no shares; its plays are the views, every metric under its own name');
    assert.deepEqual(callsSince(mark), [`GET /${videoId}/video_insights`]);
    mark = fb.pages.calls().length;
    assert.equal(await caps.remove!(session, reel), 'removed');
    assert.deepEqual(callsSince(mark), [`DELETE /${videoId}`]);
    assert.equal(fb.pages.posts().some((p) => p.id === videoId), false);
  });

  it('a refused token is an auth failure; a token without pages_manage_posts cannot delete', async () => {
    const post = await publish('Guarded');
    const readOnly = fb.issuePageToken(pageId, APP.clientId, ['pages_show_list', 'pages_read_engagement']);
    await assert.rejects(caps.remove!(sessionFor(pageId, readOnly), post), (e: PublishError) => e.kind === 'permanent' && e.code === 'forbidden');
    await assert.rejects(caps.comments!.list(sessionFor(pageId, 'EAABnot-a-token'), post, { includeReplies: false, resolveAuthorNames: false }), (e: PublishError) => e.kind === 'auth');
    await assert.rejects(caps.remove!(sessionFor(pageId, null), post), (e: PublishError) => e.kind === 'auth');
  });

  it('throttled by Meta (#32): a retryable rate_limited failure with the wait the usage header gives', async () => {
    const post = await publish('Busy hour');
    fb.pages.throttle(5 * 60_000);
    try {
      await assert.rejects(caps.comments!.list(session, post, { includeReplies: false, resolveAuthorNames: false }), (e: PublishError) =>
        e.kind === 'retryable' && e.code === 'rate_limited' && e.retryAfterMs === 5 * 60_000 && /Page request limit reached/.test(e.message));
    } finally {
      fb.pages.throttle(0);
    }
  });

  it('lists the Page\'s own posts newest first with since/until and Graph\'s paging, counting photos', async () => {
    const user = fb.addUser({ pages: [{ name: 'Busy' }] });
    const busy = user.pageIds[0]!;
    const busyToken = fb.issuePageToken(busy, APP.clientId, FACEBOOK_SCOPES);
    const busyClient = new FacebookClient(fb.url, busyToken, busy);
    const old = await busyClient.createPost('old one', []);
    fb.clock.advance(3 * DAY);
    const start = new Date(fb.clock.now());
    const ids: string[] = [];
    for (let i = 0; i < 104; i++) ids.push(await busyClient.createPost(`post ${i}`, []));
    const photos = [await busyClient.uploadPhoto(PNG, 'a.png', 'image/png'), await busyClient.uploadPhoto(PNG, 'b.png', 'image/png')];
    const album = await busyClient.createPost('two photos', photos);
    fb.clock.advance(DAY);
    const busySession = sessionFor(busy, busyToken);

    const mark = fb.pages.calls().length;
    const first = await caps.ownPosts!(busySession, { since: start });
    assert.equal(first.items.length, 100);
    assert.deepEqual(first.items[0], { platformId: album, url: first.items[0]!.url, text: 'two photos', createdAt: first.items[0]!.createdAt, mediaCount: 2 });
    assert.match(first.items[0]!.url, /^https:\/\/www\.facebook\.com\/emulatedpage\d+\/posts\//);
    assert.equal(first.items[1]!.mediaCount, 0);
    const second = await caps.ownPosts!(busySession, { since: start, cursor: first.next });
    assert.equal(second.next, undefined);
    const listed = [...first.items, ...second.items].map((p) => p.platformId);
    assert.deepEqual(listed, [album, ...ids.reverse()], 'every post since `start`, newest first; the older one left out');
    assert.ok(!listed.includes(old));
    const reads = fb.pages.calls().slice(mark);
    assert.deepEqual(reads.map((c) => c.path), [`/${busy}/published_posts`, `/${busy}/published_posts`]);
    assert.equal(reads[0]!.params.since, String(Math.floor(start.getTime() / 1000)));
    // With since, Graph pages by time: the next page asks `until` the last post's second, with its paging token.
    assert.equal(reads[1]!.params.since, reads[0]!.params.since);
    assert.equal(reads[1]!.params.until, String(Math.floor(Date.parse(first.items.at(-1)!.createdAt!) / 1000)));
    assert.ok(reads[1]!.params.__paging_token);
    assert.doesNotMatch(first.next!, /access_token/);

    const unbounded = await caps.ownPosts!(busySession, {});
    assert.equal(unbounded.items.length, 100);
    const rest = await caps.ownPosts!(busySession, { cursor: unbounded.next });
    assert.deepEqual([...unbounded.items, ...rest.items].map((p) => p.platformId), [...listed, old], 'without a period: cursor paging through every post');
    assert.ok(fb.pages.calls().at(-1)!.params.after);

    const until = await caps.ownPosts!(busySession, { until: new Date(start.getTime() - DAY) });
    assert.deepEqual(until.items.map((p) => p.platformId), [old]);
  });

  it('a post\'s figures: reactions, comments and shares on the node, views and reach from the views metrics', async () => {
    const post = await publish('Figures');
    fb.pages.addComment(post.root.platformId, { message: 'one' });
    fb.pages.addComment(post.root.platformId, { message: 'two' });
    fb.pages.setPostStats(post.root.platformId, { reactions: { like: 3, love: 2 }, shares: 4, views: 120, reach: 80, clicks: 7 });
    const mark = fb.pages.calls().length;
    const metrics = await caps.analytics!.post!(session, post);
    assert.deepEqual(metrics, {
      likes: 5, comments: 2, shares: 4, views: 120, reach: 80, saves: null, impressions: null,
      platform_specific: { post_clicks: 7, post_reactions_by_type_total: { like: 3, love: 2 } },
    });
    const insights = fb.pages.calls().slice(mark).find((c) => c.path === `/${post.root.platformId}/insights`)!;
    assert.equal(insights.params.metric, 'post_media_view,post_total_media_view_unique,post_clicks,post_reactions_by_type_total');
    assert.doesNotMatch(insights.params.metric!, /impressions/);

    const quiet = await publish('Nobody shared');
    assert.equal((await caps.analytics!.post!(session, quiet)).shares, 0, 'Graph leaves shares out of an unshared post');
  });

  it('a metric Meta retires makes the whole insights call invalid: each metric is then asked alone', async () => {
    const post = await publish('Retired');
    fb.pages.setPostStats(post.root.platformId, { views: 9, reach: 6 });
    fb.failNext({ status: 400, path: `/v23.0/${post.root.platformId}/insights`, body: { error: { message: '(#100) The value must be a valid insights metric', type: 'OAuthException', code: 100, fbtrace_id: 'x' } } });
    const mark = fb.pages.calls().length;
    const metrics = await caps.analytics!.post!(session, post);
    assert.equal(metrics.views, 9);
    assert.equal(metrics.reach, 6);
    assert.deepEqual(fb.pages.calls().slice(mark).filter((c) => c.path.endsWith('/insights')).map((c) => c.params.metric), ['post_media_view', 'post_total_media_view_unique', 'post_clicks', 'post_reactions_by_type_total']);
  });

  it('a token without read_insights: the node\'s figures, and why there are no insights (not ranged)', async () => {
    const post = await publish('No insights');
    fb.pages.setPostStats(post.root.platformId, { reactions: { like: 2 }, views: 50 });
    const plain = sessionFor(pageId, fb.issuePageToken(pageId, APP.clientId, FACEBOOK_SCOPES.filter((scope) => scope !== 'read_insights')));
    const metrics = await caps.analytics!.post!(plain, post);
    assert.deepEqual([metrics.likes, metrics.comments, metrics.shares, metrics.views, metrics.reach], [2, 0, 0, null, null]);
    assert.match(String(metrics.platform_specific.insights_unavailable), /^facebook: permission missing \(\(#10\) Application does not have permission for this action \(#10\)\); reconnect/);
    fb.pages.setPageCounts(pageId, { followers: 10 });
    const account = await caps.analytics!.account!(plain, { since: new Date(Date.now() - 7 * DAY), until: new Date() });
    assert.equal(account.followers, 10);
    assert.equal(account.engagement, null);
    assert.equal(account.ranged, false);
    assert.match(String(account.platform_specific.insights_unavailable), /permission missing/);
  });

  it('a Page under 100 likes has no insights: no figures and why, whether Graph refuses (#100/2874008) or answers empty data', async () => {
    const small = fb.addUser({ pages: [{ name: 'Corner shop', username: 'cornershop' }] }).pageIds[0]!;
    const smallSession = sessionFor(small, fb.issuePageToken(small, APP.clientId, SCOPES));
    fb.pages.setPageCounts(small, { followers: 120, fans: 40 });
    // What a Page with enough likes would be given for that day: none of it may show.
    fb.pages.setPageDay(small, '2026-11-19', { page_post_engagements: 5, page_media_view: 50 });
    const period = { since: new Date(Date.UTC(2026, 10, 13)), until: new Date(Date.UTC(2026, 10, 20)) };
    const noFigures = (metrics: AccountMetrics) => {
      assert.deepEqual({ ...metrics, platform_specific: undefined }, { followers: 120, following: null, posts: null, engagement: null, ranged: false, platform_specific: undefined });
      assert.deepEqual(Object.keys(metrics.platform_specific).sort(), ['fan_count', 'insights_unavailable']);
      assert.equal(metrics.platform_specific.fan_count, 40);
      return String(metrics.platform_specific.insights_unavailable);
    };

    const refused = noFigures(await caps.analytics!.account!(smallSession, period));
    assert.match(refused, /^facebook: Meta gives Page insights only to Pages with 100 or more likes \(Facebook Page insights are only available for Pages with at least 100 likes\. \(#100\/2874008\)\)$/);

    fb.pages.smallPageInsights('empty');
    try {
      const empty = noFigures(await caps.analytics!.account!(smallSession, period));
      assert.equal(empty, 'facebook: Graph answered no Page insights for the period; Meta gives them only to Pages with 100 or more likes, and this Page has 40');
    } finally {
      fb.pages.smallPageInsights('error');
    }

    // Should Graph refuse a post's insights the same way, the post keeps its node's counters.
    const post = await publish('Small reach');
    fb.pages.setPostStats(post.root.platformId, { reactions: { like: 1 } });
    fb.failNext({ status: 400, path: `/v23.0/${post.root.platformId}/insights`, body: { error: { message: 'Facebook Page insights are only available for Pages with at least 100 likes.', type: 'OAuthException', code: 100, error_subcode: 2874008, fbtrace_id: 'x' } } });
    const metrics = await caps.analytics!.post!(session, post);
    assert.deepEqual([metrics.likes, metrics.views, metrics.reach], [1, null, null]);
    assert.match(String(metrics.platform_specific.insights_unavailable), /only to Pages with 100 or more likes/);
  });

  it('the Page\'s figures: followers from the node, engagement summed per day over the period in windows of 90 days', async () => {
    fb.pages.setPageCounts(pageId, { followers: 1500, fans: 1400 });
    const until = new Date(Date.UTC(2026, 10, 20));
    const since = new Date(until.getTime() - 120 * DAY);
    fb.pages.setPageDay(pageId, '2026-07-30', { page_post_engagements: 10, page_media_view: 100 });
    fb.pages.setPageDay(pageId, '2026-11-19', { page_post_engagements: 5, page_media_view: 50, page_follows: 1490 });
    fb.pages.setPageDay(pageId, '2026-11-20', { page_post_engagements: 1000 });
    const mark = fb.pages.calls().length;
    const metrics = await caps.analytics!.account!(session, { since, until });
    assert.deepEqual(metrics, { followers: 1500, following: null, posts: null, engagement: 15, ranged: true, platform_specific: { fan_count: 1400, page_media_view: 150, page_follows: 1490 } });
    const windows = fb.pages.calls().slice(mark).filter((c) => c.path === `/${pageId}/insights`);
    assert.deepEqual(windows.map((c) => [Number(c.params.since), Number(c.params.until), c.params.period]), [
      [since.getTime() / 1000, since.getTime() / 1000 + 90 * 86_400, 'day'],
      [since.getTime() / 1000 + 90 * 86_400, until.getTime() / 1000, 'day'],
    ]);
  });
});

function sessionFor(pageId: string, accessToken: string | null): AccountSession {
  return {
    account: { id: 1, orgId: 1, network: 'facebook', username: 'acme', networkUniqueId: pageId, serviceUrl: null, accessToken, refreshToken: null, credential: null },
    saveTokens: async () => {},
    userFetch: fetch,
  };
}

/** Bytes the emulator takes as a video upload (it does not decode them). */
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42'), Buffer.alloc(64)]);

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
