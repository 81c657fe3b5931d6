// Reddit's engagement capabilities called directly over real HTTP against the emulator: deleting a
// post (its comments first, checked before and after since Reddit answers {} either way), listing
// the account's submissions, reading a comment tree at any depth (more stubs expanded, the cursor
// continuing the top level), answering, and the figures Reddit shows. Each test checks what the
// capability returned and what Reddit received, in order.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startRedditEmulator, type RedditEmulator } from '../../../emulators/reddit/server.ts';
import type { AccountSession, NetworkCapabilities } from '../../../src/networks/capabilities.ts';
import type { PublishedPost } from '../../../src/core/post.ts';
import { PublishError } from '../../../src/core/errors.ts';
import { reddit } from '../../../src/networks/reddit/index.ts';
import { REDDIT_SCOPES } from '../../../src/networks/reddit/oauth.ts';

const APP = 'crier-reddit';
let rd: RedditEmulator;
let caps: NetworkCapabilities;
let ada: AccountSession;
let adaToken: string;

function sessionFor(username: string, userId: string, token: string): AccountSession {
  return {
    account: { id: 1, orgId: 1, network: 'reddit', username, networkUniqueId: `t2_${userId}`, serviceUrl: null, accessToken: token, refreshToken: null, credential: null },
    saveTokens: async () => {},
    userFetch: fetch,
  };
}

/** Posts as the user over the emulator's HTTP API, as Crier's publishing does. */
async function call(token: string, path: string, form: Record<string, string>) {
  const res = await fetch(`${rd.url}${path}`, {
    method: 'POST',
    headers: { authorization: `bearer ${token}`, 'user-agent': 'test:crier:1 (by /u/ada_l)', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ api_type: 'json', ...form }).toString(),
  });
  return (await res.json() as { json: { data: any } }).json.data;
}

async function submit(title: string, text = 'body', token = adaToken): Promise<PublishedPost> {
  const data = await call(token, '/api/submit', { sr: 'eng', kind: 'self', title, text });
  const root = { platformId: data.name, url: data.url };
  return { root, parts: [root], block: { subreddit: 'eng', title } };
}

/** The calls made since `mark` (an index into requests()), as "METHOD path?query". */
const callsSince = (mark: number) => rd.requests().slice(mark).map((r) => `${r.method} ${r.path}${r.query ? `?${r.query}` : ''}`);

async function refusal(promise: Promise<unknown>): Promise<PublishError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof PublishError, String(error));
    return error;
  }
  assert.fail('expected a PublishError');
}

before(async () => {
  rd = await startRedditEmulator();
  rd.addSubreddit({ name: 'eng' });
  const user = rd.addUser({ name: 'ada_l', linkKarma: 120, commentKarma: 34, subscribers: 7 });
  adaToken = rd.oauth.issue(user.id, APP, REDDIT_SCOPES).accessToken;
  ada = sessionFor('ada_l', user.id, adaToken);
  caps = reddit.capabilities!({ settings: { baseUrl: rd.url }, allowLoopbackFetch: true, publicBaseUrl: 'http://localhost' });
});
after(async () => {
  await rd.close();
});

describe('remove', () => {
  test('deletes the comments Crier added, then the submission, and checks Reddit shows it deleted; a second time it is absent', async () => {
    const post = await submit('To delete');
    const comment = await call(adaToken, '/api/comment', { thing_id: post.root.platformId, text: 'first comment' });
    const part = { platformId: comment.things[0].data.name, url: 'x' };
    rd.addComment({ on: post.root.platformId, author: 'someone_else', body: 'stays' });
    const mark = rd.requests().length;
    assert.equal(await caps.remove!(ada, { ...post, parts: [post.root, part] }), 'removed');
    assert.deepEqual(callsSince(mark), [
      `GET /api/info?id=${post.root.platformId}%2C${part.platformId}&raw_json=1`,
      'POST /api/del', 'POST /api/del',
      `GET /api/info?id=${post.root.platformId}&raw_json=1`,
    ]);
    assert.deepEqual(rd.forms().filter((f) => f.path === '/api/del').map((f) => f.form.id), [part.platformId, post.root.platformId]);
    assert.equal(rd.submissions().find((s) => s.name === post.root.platformId)!.deleted, true);
    assert.deepEqual(rd.comments(post.root.platformId).map((c) => [c.body, c.deleted]), [['first comment', true], ['stays', false]]);

    const again = rd.requests().length;
    assert.equal(await caps.remove!(ada, { ...post, parts: [post.root, part] }), 'absent');
    assert.deepEqual(callsSince(again).map((c) => c.split('?')[0]), ['GET /api/info'], 'nothing left to delete');
  });

  test('another redditor\'s submission: Reddit deletes nothing, and Crier says so (forbidden)', async () => {
    const bob = rd.addUser({ name: 'bob_b' });
    const post = await submit('Not yours', 'x', rd.oauth.issue(bob.id, APP, REDDIT_SCOPES).accessToken);
    const error = await refusal(caps.remove!(ada, post));
    assert.equal(error.kind, 'permanent');
    assert.equal(error.code, 'forbidden');
    assert.match(error.message, /still on Reddit after \/api\/del \(only its author, u\/bob_b, can delete it\)/);
  });
});

describe('ownPosts', () => {
  test('the account\'s submissions newest first, 100 a page with Reddit\'s after as the cursor; deleted ones left out', async () => {
    const carl = rd.addUser({ name: 'carl_c' });
    const token = rd.oauth.issue(carl.id, APP, REDDIT_SCOPES).accessToken;
    const titles = Array.from({ length: 102 }, (_, i) => `Post ${i}`);
    for (const title of titles) await submit(title, `text of ${title}`, token);
    const session = sessionFor('carl_c', carl.id, token);
    const mark = rd.requests().length;
    const first = await caps.ownPosts!(session, {});
    assert.equal(first.items.length, 100);
    assert.equal(first.items[0]!.text, 'Post 101\n\ntext of Post 101');
    assert.match(first.items[0]!.url, /^https:\/\/www\.reddit\.com\/r\/eng\/comments\/\w+\/post_101\/$/);
    assert.equal(first.items[0]!.mediaCount, 0);
    assert.deepEqual(first.items[0]!.ref, { subreddit: 'eng', title: 'Post 101' });
    assert.ok(Math.abs(Date.parse(first.items[0]!.createdAt!) - Date.now()) < 60_000);
    assert.equal(first.next, first.items[99]!.platformId);
    const second = await caps.ownPosts!(session, { cursor: first.next });
    assert.deepEqual(second.items.map((p) => p.text.split('\n')[0]), ['Post 1', 'Post 0']);
    assert.equal(second.next, undefined);
    assert.deepEqual(callsSince(mark), [
      'GET /user/carl_c/submitted?limit=100&raw_json=1&sort=new',
      `GET /user/carl_c/submitted?limit=100&raw_json=1&sort=new&after=${first.next}`,
    ]);
  });

  test('since: the page reaching back before it ends the list; without the history scope Crier says to reconnect', async () => {
    const dana = rd.addUser({ name: 'dana_d' });
    const token = rd.oauth.issue(dana.id, APP, REDDIT_SCOPES).accessToken;
    await submit('Old one', 'x', token);
    rd.clock.advance(30 * 60_000);
    const since = new Date(rd.clock.now() - 60_000);
    await submit('New one', 'y', token);
    const page = await caps.ownPosts!(sessionFor('dana_d', dana.id, token), { since });
    assert.deepEqual(page.items.map((p) => p.text), ['New one\n\ny']);
    assert.equal(page.next, undefined);

    const narrow = rd.oauth.issue(dana.id, APP, ['identity', 'read', 'submit']).accessToken;
    const error = await refusal(caps.ownPosts!(sessionFor('dana_d', dana.id, narrow), {}));
    assert.equal(error.code, 'forbidden');
    assert.match(error.message, /needs the "history" scope; reconnect the account/);
  });
});

describe('comments', () => {
  test('top-level comments newest first as Reply records; with includeReplies answers nest at any depth', async () => {
    const post = await submit('Discuss');
    const a = rd.addComment({ on: post.root.platformId, author: 'eve_e', body: 'first!', score: 5 });
    const a1 = rd.addComment({ on: a.name, author: 'ada_l', body: 'thanks' });
    rd.addComment({ on: a1.name, author: 'eve_e', body: 'welcome' });
    const b = rd.addComment({ on: post.root.platformId, author: 'frank_f', body: 'second' });
    const mark = rd.requests().length;
    const flat = await caps.comments!.list(ada, post, { includeReplies: false, resolveAuthorNames: false });
    assert.deepEqual(callsSince(mark), [`GET /comments/${post.root.platformId.slice(3)}?sort=new&depth=1&limit=200&threaded=true&raw_json=1`]);
    assert.equal(flat.next, undefined);
    assert.deepEqual(flat.items.map((r) => r.text), ['second', 'first!']);
    const eve = rd.comments(post.root.platformId).find((c) => c.author === 'eve_e')!;
    assert.deepEqual(flat.items[1], {
      id: a.id, author: eve.authorFullname, author_name: 'eve_e', author_username: 'eve_e',
      author_profile_url: 'https://www.reddit.com/user/eve_e', text: 'first!',
      created_at: new Date(Math.floor(a.createdUtc) * 1000).toISOString(), like_count: 5,
      platform_specific: { name: a.name, parent_id: post.root.platformId, permalink: `https://www.reddit.com${a.permalink}`, depth: 0 },
    });
    assert.equal(flat.items[0]!.id, b.id);

    const nested = await caps.comments!.list(ada, post, { includeReplies: true, resolveAuthorNames: false });
    const [second, first] = nested.items;
    assert.deepEqual(second!.replies, []);
    assert.deepEqual(first!.replies!.map((r) => [r.text, r.author_name, r.replies!.map((x) => x.text)]), [['thanks', 'ada_l', ['welcome']]]);
    assert.equal(first!.replies![0]!.replies![0]!.platform_specific!.depth, 2);
  });

  test('past 200 comments: the top level continues with the cursor (morechildren), stubs under a comment are expanded', async () => {
    const post = await submit('Busy');
    for (let i = 0; i < 5; i++) rd.addComment({ on: post.root.platformId, author: 'old_one', body: `old ${i}` });
    const hot = rd.addComment({ on: post.root.platformId, author: 'hot_h', body: 'hot take' });
    for (let i = 0; i < 250; i++) rd.addComment({ on: hot.name, author: 'replier', body: `reply ${i}` });
    const mark = rd.requests().length;
    const page = await caps.comments!.list(ada, post, { includeReplies: true, resolveAuthorNames: false });
    assert.deepEqual(page.items.map((r) => r.text), ['hot take']);
    assert.equal(page.items[0]!.replies!.length, 250, 'the 51 answers Reddit left out were read with morechildren');
    assert.equal(page.items[0]!.replies![0]!.text, 'reply 249');
    assert.equal(page.items[0]!.replies![249]!.text, 'reply 0');
    const calls = callsSince(mark);
    assert.equal(calls.length, 2);
    const more = new URL(`http://x${calls[1]!.slice(4)}`);
    assert.equal(more.pathname, '/api/morechildren');
    assert.equal(more.searchParams.get('link_id'), post.root.platformId);
    assert.equal(more.searchParams.get('children')!.split(',').length, 51);
    assert.equal(page.next!.split(',').length, 5);

    const rest = await caps.comments!.list(ada, post, { includeReplies: false, resolveAuthorNames: false, cursor: page.next });
    assert.deepEqual(rest.items.map((r) => r.text), ['old 4', 'old 3', 'old 2', 'old 1', 'old 0']);
    assert.equal(rest.next, undefined);
    assert.equal(rest.items[0]!.replies, undefined);
    const bad = await refusal(caps.comments!.list(ada, post, { includeReplies: false, resolveAuthorNames: false, cursor: 'not a cursor!' }));
    assert.equal(bad.code, 'invalid');
  });

  test('more answers than three morechildren calls read: the rest is counted on the comment, not fetched', async () => {
    const post = await submit('Viral');
    const viral = rd.addComment({ on: post.root.platformId, author: 'viral_v', body: 'viral' });
    for (let i = 0; i < 600; i++) rd.addComment({ on: viral.name, author: 'fan', body: `fan ${i}` });
    const mark = rd.requests().length;
    const page = await caps.comments!.list(ada, post, { includeReplies: true, resolveAuthorNames: false });
    assert.equal(callsSince(mark).filter((c) => c.startsWith('GET /api/morechildren')).length, 3);
    assert.equal(page.items[0]!.replies!.length, 199 + 300);
    assert.equal(page.items[0]!.platform_specific!.more_replies, 101);
    assert.equal(page.next, undefined);
  });

  test('deeper than Reddit shows: the last comment shown says how many answers were not read; deleted comments keep their place', async () => {
    const post = await submit('Deep');
    let on = post.root.platformId;
    for (let level = 0; level < 12; level++) on = rd.addComment({ on, author: 'deep_d', body: `level ${level}` }).name;
    const gone = rd.addComment({ on: post.root.platformId, author: 'ada_l', body: 'oops' });
    await fetch(`${rd.url}/api/del`, { method: 'POST', headers: { authorization: `bearer ${adaToken}`, 'user-agent': 'test:crier:1', 'content-type': 'application/x-www-form-urlencoded' }, body: `id=${gone.name}` });
    const page = await caps.comments!.list(ada, post, { includeReplies: true, resolveAuthorNames: false });
    const [deleted, deep] = page.items;
    assert.equal(deleted!.text, '[deleted]');
    assert.equal(deleted!.author_name, null);
    assert.equal(deleted!.author_username, undefined);
    assert.equal(deleted!.platform_specific!.deleted, true);
    let node = deep!;
    for (let level = 1; level < 10; level++) node = node.replies![0]!;
    assert.equal(node.text, 'level 9');
    assert.deepEqual(node.replies, []);
    assert.equal(node.platform_specific!.more_replies, 1);
  });

  test('reply: on the post (thing_id t3_) or under a comment (t1_ from the id list gives); refusals as PublishErrors', async () => {
    const post = await submit('Answer me');
    const question = rd.addComment({ on: post.root.platformId, author: 'gina_g', body: 'how?' });
    const top = await caps.comments!.reply(ada, post, 'a comment');
    const answer = await caps.comments!.reply(ada, post, 'like this', question.id);
    const forms = rd.forms().filter((f) => f.path === '/api/comment').slice(-2).map((f) => f.form);
    assert.deepEqual(forms, [
      { api_type: 'json', thing_id: post.root.platformId, text: 'a comment' },
      { api_type: 'json', thing_id: question.name, text: 'like this' },
    ]);
    const stored = rd.comments(post.root.platformId);
    assert.equal(stored.find((c) => c.id === top.replyId)!.parentId, post.root.platformId);
    assert.equal(stored.find((c) => c.id === answer.replyId)!.parentId, question.name);
    const listed = await caps.comments!.list(ada, post, { includeReplies: true, resolveAuthorNames: false });
    assert.equal(listed.items.find((r) => r.id === question.id)!.replies![0]!.id, answer.replyId);

    const before = rd.requests().length;
    assert.equal((await refusal(caps.comments!.reply(ada, post, '   '))).code, 'invalid');
    assert.equal((await refusal(caps.comments!.reply(ada, post, 'x', 'not an id!'))).code, 'invalid');
    assert.equal(rd.requests().length, before, 'refused before any call');
    await fetch(`${rd.url}/api/del`, { method: 'POST', headers: { authorization: `bearer ${adaToken}`, 'user-agent': 'test:crier:1', 'content-type': 'application/x-www-form-urlencoded' }, body: `id=t1_${top.replyId}` });
    const onDeleted = await refusal(caps.comments!.reply(ada, post, 'still there?', top.replyId));
    assert.equal(onDeleted.kind, 'permanent');
    assert.equal(onDeleted.code, 'not_found');
    assert.match(onDeleted.message, /DELETED_COMMENT/);
  });
});

describe('analytics', () => {
  test('a post: score as likes, num_comments, no views for API clients; unknown figures null; a deleted post is not_found', async () => {
    const post = await submit('Figures');
    rd.addComment({ on: post.root.platformId, author: 'hal_h', body: 'nice' });
    rd.setSubmissionStats(post.root.platformId, { score: 42, upvoteRatio: 0.93, numCrossposts: 2 });
    const mark = rd.requests().length;
    assert.deepEqual(await caps.analytics!.post!(ada, post), {
      likes: 42, comments: 1, shares: null, views: null, reach: null, saves: null, impressions: null,
      platform_specific: { score: 42, upvote_ratio: 0.93, num_comments: 1, num_crossposts: 2, view_count: null },
    });
    assert.deepEqual(callsSince(mark), [`GET /api/info?id=${post.root.platformId}&raw_json=1`]);
    await caps.remove!(ada, post);
    assert.equal((await refusal(caps.analytics!.post!(ada, post))).code, 'not_found');
  });

  test('the account: karma from /api/v1/me, followers from its profile subreddit, not ranged', async () => {
    const mark = rd.requests().length;
    assert.deepEqual(await caps.analytics!.account!(ada, { since: new Date(0), until: new Date() }), {
      followers: 7, following: null, posts: null, engagement: 154, ranged: false,
      platform_specific: { link_karma: 120, comment_karma: 34, total_karma: 154, awardee_karma: 0, awarder_karma: 0 },
    });
    assert.deepEqual(callsSince(mark), ['GET /api/v1/me?raw_json=1']);
  });

  test('over Reddit\'s 100 a minute: rate_limited, waiting for x-ratelimit-reset', async () => {
    rd.failNext({ status: 429, method: 'GET', path: '/api/v1/me', headers: { 'x-ratelimit-used': '1000', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '42' } });
    const error = await refusal(caps.analytics!.account!(ada, { since: new Date(0), until: new Date() }));
    assert.equal(error.kind, 'retryable');
    assert.equal(error.code, 'rate_limited');
    assert.equal(error.retryAfterMs, 42_000);
  });

  test('a revoked token is an auth error (reconnect)', async () => {
    const ivy = rd.addUser({ name: 'ivy_i' });
    const token = rd.oauth.issue(ivy.id, APP, REDDIT_SCOPES).accessToken;
    rd.revokeUser(ivy.id);
    const error = await refusal(caps.analytics!.account!(sessionFor('ivy_i', ivy.id, token), { since: new Date(0), until: new Date() }));
    assert.equal(error.kind, 'auth');
  });
});
