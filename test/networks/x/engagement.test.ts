// X's engagement capabilities (src/networks/x/capabilities.ts) against the X emulator over real HTTP:
// a post published through the X adapter is removed (every container), listed among the account's
// posts, its replies read as a tree and answered, its figures and the account's read — each time
// checking what the emulator received, in order, and how X's refusals come back.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startXEmulator, type XEmulator } from '../../../emulators/x/server.ts';
import type { AccountSession } from '../../../src/networks/capabilities.ts';
import type { PartRef, PublishedPost } from '../../../src/core/post.ts';
import { PublishError } from '../../../src/core/errors.ts';
import { createXAdapter } from '../../../src/networks/x/adapter.ts';
import { xCapabilities } from '../../../src/networks/x/capabilities.ts';

let x: XEmulator;
let caps: ReturnType<typeof xCapabilities>;
let count = 0;

before(async () => {
  x = await startXEmulator();
  caps = xCapabilities(x.url);
});
after(() => x.close());

/** A connected account: an X user with its token, as a capability is handed it. */
function account(extra: { premium?: boolean; plan?: 'self_serve' | 'enterprise' } = {}) {
  count += 1;
  const token = `eng-token-${count}`;
  const user = x.addUser({ username: `brand${count}`, name: `Brand ${count}`, accessToken: token, ...extra });
  const session: AccountSession = {
    account: { id: count, orgId: 1, network: 'x', username: user.username, networkUniqueId: user.id, serviceUrl: null, accessToken: token, refreshToken: null, credential: null },
    saveTokens: async () => {},
    userFetch: fetch,
  };
  return { user, token, session };
}

/** Publishes containers through the X adapter, as the engine does: root first, then replies to it. */
async function publish(session: AccountSession, texts: string[]): Promise<PublishedPost> {
  const adapter = createXAdapter({ apiUrl: x.url });
  const prepared = await adapter.prepare({
    account: session.account,
    containers: texts.map((content) => ({ content, media: [] })),
    block: undefined,
    fetchMedia: () => { throw new Error('no media'); },
    openMedia: () => { throw new Error('no media'); },
    userFetch: fetch,
    saveTokens: async () => {},
    ledger: { withPool: () => { throw new Error('no ledger'); }, read: () => { throw new Error('no ledger'); } },
  });
  const parts: PartRef[] = [];
  for (let i = 0; i < texts.length; i++) parts.push(await prepared.publishPart(i, prepared.reserve(i), parts[0]));
  return { root: parts[0]!, parts, block: {} };
}

const callsSince = (mark: number) => x.calls().slice(mark).map((c) => ({ method: c.method, path: c.path, query: c.query, body: c.body, status: c.status }));
const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  assert.ok(error instanceof PublishError, `a PublishError, got ${String(error)}`);
  return error;
};

describe('remove', () => {
  it('deletes every container of a thread, last first; a second removal finds it absent', async () => {
    const { session } = account();
    const post = await publish(session, ['the root', 'second', 'third']);
    const mark = x.calls().length;
    assert.equal(await caps.remove!(session, post), 'removed');
    const ids = post.parts.map((p) => p.platformId);
    assert.deepEqual(callsSince(mark), [...ids].reverse().map((id) => ({ method: 'DELETE', path: `/2/tweets/${id}`, query: {}, body: undefined, status: 200 })));
    assert.deepEqual(x.tweets().filter((t) => ids.includes(t.id)).map((t) => t.deleted), [true, true, true]);
    assert.equal(await caps.remove!(session, post), 'absent');
  });

  it('someone else\'s post is refused (403, permanent); a malformed id is refused before any call', async () => {
    const { session } = account();
    const other = account();
    const theirs = await publish(other.session, ['not yours']);
    const error = await refusal(caps.remove!(session, theirs));
    assert.equal(error.kind, 'permanent');
    assert.match(error.message, /^x: You are not allowed to delete this Tweet\.$/);
    const mark = x.calls().length;
    const bad = await refusal(caps.remove!(session, { root: { platformId: 'abc', url: '' }, parts: [{ platformId: 'abc', url: '' }], block: {} }));
    assert.equal(bad.code, 'invalid');
    assert.equal(x.calls().length, mark);
  });

  it('a revoked token is an auth error', async () => {
    const { session, token } = account();
    const post = await publish(session, ['soon revoked']);
    x.expireToken(token);
    const error = await refusal(caps.remove!(session, post));
    assert.equal(error.kind, 'auth');
  });
});

describe('ownPosts', () => {
  it('lists the account\'s posts newest first, without replies, whole long texts, reposts unsupported, over pages', async () => {
    const { user, session } = account({ premium: true });
    const other = account();
    const theirs = x.addTweet({ authorId: other.user.id, text: 'their post' });
    const long = `${'long words '.repeat(40)}end & more`;
    const first = x.addTweet({ authorId: user.id, text: 'first <post>' });
    x.addTweet({ authorId: user.id, text: 'a thread reply', inReplyTo: first.id });
    const repost = x.addTweet({ authorId: user.id, retweetOf: theirs.id });
    const longPost = x.addTweet({ authorId: user.id, text: long });
    for (let i = 0; i < 100; i++) x.addTweet({ authorId: user.id, text: `filler ${i}` });
    const mark = x.calls().length;
    const page1 = await caps.ownPosts!(session, {});
    assert.equal(page1.items.length, 100);
    assert.equal(page1.items[0]!.text, 'filler 99');
    assert.ok(page1.next);
    const page2 = await caps.ownPosts!(session, { cursor: page1.next });
    assert.equal(page2.next, undefined);
    assert.deepEqual(page2.items.map((p) => ({ ...p, createdAt: typeof p.createdAt })), [
      { platformId: longPost.id, url: `https://x.com/${user.username}/status/${longPost.id}`, text: long, createdAt: 'string', mediaCount: 0 },
      { platformId: repost.id, url: `https://x.com/${user.username}/status/${repost.id}`, text: 'RT @' + other.user.username + ': their post', createdAt: 'string', mediaCount: 0, unsupported: `a repost of post ${theirs.id}, not a post of the account` },
      { platformId: first.id, url: `https://x.com/${user.username}/status/${first.id}`, text: 'first <post>', createdAt: 'string', mediaCount: 0 },
    ]);
    const fields = 'created_at,attachments,note_tweet,referenced_tweets,conversation_id';
    assert.deepEqual(callsSince(mark), [
      { method: 'GET', path: `/2/users/${user.id}/tweets`, query: { max_results: '100', exclude: 'replies', 'tweet.fields': fields }, body: undefined, status: 200 },
      { method: 'GET', path: `/2/users/${user.id}/tweets`, query: { max_results: '100', exclude: 'replies', 'tweet.fields': fields, pagination_token: page1.next }, body: undefined, status: 200 },
    ]);
  });

  it('since and until become start_time and end_time (whole seconds)', async () => {
    const { user, session } = account();
    const day = 86_400_000;
    const now = Date.now();
    x.addTweet({ authorId: user.id, text: 'ten days ago', createdAt: new Date(now - 10 * day).toISOString() });
    const middle = x.addTweet({ authorId: user.id, text: 'five days ago', createdAt: new Date(now - 5 * day).toISOString() });
    x.addTweet({ authorId: user.id, text: 'today' });
    const since = new Date(now - 7 * day + 123);
    const until = new Date(now - 1 * day);
    const mark = x.calls().length;
    const page = await caps.ownPosts!(session, { since, until });
    assert.deepEqual(page.items.map((p) => p.platformId), [middle.id]);
    const query = x.calls()[mark]!.query;
    assert.equal(query.start_time, `${since.toISOString().slice(0, 19)}Z`);
    assert.equal(query.end_time, `${until.toISOString().slice(0, 19)}Z`);
  });
});

describe('comments', () => {
  it('reads the conversation and rebuilds the tree at any depth; the thread\'s own posts are not comments', async () => {
    const { user, session } = account();
    const post = await publish(session, ['our post', 'our second part']);
    const [root, part2] = post.parts.map((p) => p.platformId);
    const ann = account();
    const bob = account();
    const old = x.addTweet({ authorId: ann.user.id, text: 'too old to be found', inReplyTo: root!, createdAt: new Date(Date.now() - 8 * 86_400_000).toISOString() });
    const c1 = x.addTweet({ authorId: ann.user.id, text: 'first comment & more', inReplyTo: root!, metrics: { like_count: 4 } });
    const c1a = x.addTweet({ authorId: bob.user.id, text: 'answer to ann', inReplyTo: c1.id });
    const c1aa = x.addTweet({ authorId: user.id, text: 'our answer to bob', inReplyTo: c1a.id });
    const c2 = x.addTweet({ authorId: bob.user.id, text: 'comment on part two', inReplyTo: part2! });
    const mark = x.calls().length;
    const flat = await caps.comments!.list(session, post, { includeReplies: false, resolveAuthorNames: false });
    assert.equal(flat.next, undefined);
    assert.deepEqual(flat.items.map((r) => r.id), [c1.id, c2.id]);
    assert.ok(flat.items.every((r) => !('replies' in r)));
    assert.ok(!flat.items.some((r) => r.id === old.id));
    assert.deepEqual(flat.items[0], {
      id: c1.id,
      author: ann.user.id,
      author_name: ann.user.name,
      author_username: ann.user.username,
      author_profile_url: `https://x.com/${ann.user.username}`,
      author_avatar_url: ann.user.profileImageUrl,
      text: 'first comment & more',
      created_at: c1.createdAt,
      like_count: 4,
      platform_specific: { reply_count: 1, retweet_count: 0, quote_count: 0, in_reply_to_tweet_id: root },
    });
    assert.deepEqual(callsSince(mark), [{
      method: 'GET',
      path: '/2/tweets/search/recent',
      query: {
        query: `conversation_id:${root}`,
        max_results: '100',
        'tweet.fields': 'author_id,created_at,public_metrics,referenced_tweets,in_reply_to_user_id,conversation_id',
        expansions: 'author_id',
        'user.fields': 'name,username,profile_image_url',
      },
      body: undefined,
      status: 200,
    }]);

    const tree = await caps.comments!.list(session, post, { includeReplies: true, resolveAuthorNames: false });
    const shape = (r: any): unknown => ({ id: r.id, author: r.author, replies: r.replies.map(shape) });
    assert.deepEqual(tree.items.map(shape), [
      { id: c1.id, author: ann.user.id, replies: [{ id: c1a.id, author: bob.user.id, replies: [{ id: c1aa.id, author: user.id, replies: [] }] }] },
      { id: c2.id, author: bob.user.id, replies: [] },
    ]);
  });

  it('pages through X\'s search with next_token, five pages a call', async () => {
    const { session } = account();
    const post = await publish(session, ['a popular post']);
    const fan = account();
    for (let i = 0; i < 620; i++) x.addTweet({ authorId: fan.user.id, text: `comment ${i}`, inReplyTo: post.root.platformId });
    const mark = x.calls().length;
    const first = await caps.comments!.list(session, post, { includeReplies: false, resolveAuthorNames: false });
    assert.equal(first.items.length, 500);
    assert.ok(first.next);
    const calls = callsSince(mark);
    assert.equal(calls.length, 5);
    assert.deepEqual(calls.map((c) => c.query.next_token !== undefined), [false, true, true, true, true]);
    const second = await caps.comments!.list(session, post, { includeReplies: false, resolveAuthorNames: false, cursor: first.next });
    assert.equal(second.next, undefined);
    // 620 comments and the post itself: the rest of the comments on the second call.
    assert.equal(second.items.length, 120);
    assert.equal(x.calls().at(-2)!.query.next_token, first.next);
  });

  it('answers the post, and a comment that mentions the account', async () => {
    const { user, session } = account();
    const post = await publish(session, ['ask me anything']);
    const fan = account();
    const question = x.addTweet({ authorId: fan.user.id, text: `@${user.username} what about this?`, inReplyTo: post.root.platformId });
    const mark = x.calls().length;
    const onPost = await caps.comments!.reply(session, post, 'a note on our own post');
    const onComment = await caps.comments!.reply(session, post, 'here is the answer', question.id);
    assert.deepEqual(callsSince(mark).map((c) => c.body), [
      { text: 'a note on our own post', reply: { in_reply_to_tweet_id: post.root.platformId } },
      { text: 'here is the answer', reply: { in_reply_to_tweet_id: question.id } },
    ]);
    const made = x.tweets();
    assert.equal(made.find((t) => t.id === onPost.replyId)!.inReplyToTweetId, post.root.platformId);
    assert.equal(made.find((t) => t.id === onComment.replyId)!.inReplyToTweetId, question.id);
  });

  it('a comment that does not summon the account: X\'s 403 is a permanent error saying why; enterprise apps may answer', async () => {
    const { session } = account();
    const post = await publish(session, ['our post']);
    const fan = account();
    const comment = x.addTweet({ authorId: fan.user.id, text: 'nice post', inReplyTo: post.root.platformId });
    const error = await refusal(caps.comments!.reply(session, post, 'thanks!', comment.id));
    assert.equal(error.kind, 'permanent');
    assert.equal(error.code, 'forbidden');
    assert.match(error.message, /^x: X refused the reply to \d+ \(Reply to this conversation is not allowed because you have not been mentioned/);
    assert.match(error.message, /Since 23 Feb 2026, apps on X's self-serve plans may reply only to posts whose author @mentioned the account or quoted one of its posts/);

    const enterprise = account({ plan: 'enterprise' });
    const theirs = x.addTweet({ authorId: fan.user.id, text: 'another', inReplyTo: post.root.platformId });
    assert.match((await caps.comments!.reply(enterprise.session, post, 'thanks!', theirs.id)).replyId, /^\d+$/);
  });

  it('a deleted comment is not_found; empty text and a malformed id are refused before any call', async () => {
    const { session } = account();
    const post = await publish(session, ['post']);
    const gone = await refusal(caps.comments!.reply(session, post, 'hello', '1234'));
    assert.equal(gone.code, 'not_found');
    const mark = x.calls().length;
    assert.equal((await refusal(caps.comments!.reply(session, post, '  '))).code, 'invalid');
    assert.equal((await refusal(caps.comments!.reply(session, post, 'hi', 'at://nope'))).code, 'invalid');
    assert.equal(x.calls().length, mark);
  });
});

describe('analytics', () => {
  it('a recent post: public and private metrics, mapped; the thread\'s own second post is not a comment', async () => {
    const { session } = account();
    const post = await publish(session, ['measured', 'our own second part']);
    x.setMetrics(post.root.platformId, { like_count: 7, retweet_count: 2, quote_count: 1, bookmark_count: 3, impression_count: 120, url_link_clicks: 5, user_profile_clicks: 4, engagements: 20 });
    const fan = account();
    x.addTweet({ authorId: fan.user.id, text: 'a reply', inReplyTo: post.root.platformId });
    const mark = x.calls().length;
    assert.deepEqual(await caps.analytics!.post!(session, post), {
      likes: 7, comments: 1, shares: 3, views: 120, reach: null, saves: 3, impressions: 120,
      platform_specific: { reply_count: 2, retweet_count: 2, quote_count: 1, url_link_clicks: 5, user_profile_clicks: 4, engagements: 20 },
    });
    assert.deepEqual(callsSince(mark).map((c) => [c.path, c.query]), [[`/2/tweets/${post.root.platformId}`, { 'tweet.fields': 'public_metrics,non_public_metrics' }]]);
  });

  it('a post older than 30 days: public metrics only (X refuses private ones)', async () => {
    const { user, session } = account();
    const old = x.addTweet({ authorId: user.id, text: 'old', createdAt: new Date(Date.now() - 40 * 86_400_000).toISOString(), metrics: { like_count: 2, impression_count: 50 } });
    const post = { root: { platformId: old.id, url: '' }, parts: [{ platformId: old.id, url: '' }], block: {} };
    const mark = x.calls().length;
    const metrics = await caps.analytics!.post!(session, post);
    assert.deepEqual(metrics, { likes: 2, comments: 0, shares: 0, views: 50, reach: null, saves: 0, impressions: 50, platform_specific: { reply_count: 0, retweet_count: 0, quote_count: 0 } });
    assert.deepEqual(x.calls()[mark]!.query, { 'tweet.fields': 'public_metrics' });
  });

  it('a deleted post is not_found', async () => {
    const { session } = account();
    const post = await publish(session, ['to delete']);
    await caps.remove!(session, post);
    const error = await refusal(caps.analytics!.post!(session, post));
    assert.equal(error.code, 'not_found');
    assert.match(error.message, /Could not find tweet/);
  });

  it('the account: followers, following and posts from users/me; current totals (ranged false)', async () => {
    const { user, session } = account();
    x.setFollowers(user.id, { followers: 1200, following: 80 });
    await publish(session, ['one', 'two']);
    const mark = x.calls().length;
    assert.deepEqual(await caps.analytics!.account!(session, { since: new Date(Date.now() - 86_400_000), until: new Date() }), {
      followers: 1200, following: 80, posts: 2, engagement: null, ranged: false, platform_specific: { listed_count: 0, like_count: 0 },
    });
    assert.deepEqual(callsSince(mark).map((c) => [c.path, c.query]), [['/2/users/me', { 'user.fields': 'public_metrics' }]]);
  });

  it('a rate limit comes back retryable with X\'s reset time', async () => {
    const { session } = account();
    x.failNext({ status: 429, path: '/2/users/me', headers: { 'x-rate-limit-reset': String(Math.floor(Date.now() / 1000) + 120) } });
    const error = await refusal(caps.analytics!.account!(session, { since: new Date(), until: new Date() }));
    assert.equal(error.kind, 'retryable');
    assert.equal(error.code, 'rate_limited');
    assert.ok(error.retryAfterMs! > 100_000 && error.retryAfterMs! <= 120_000, String(error.retryAfterMs));
  });
});
