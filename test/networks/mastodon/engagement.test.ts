// Mastodon's engagement capabilities (src/networks/mastodon/capabilities.ts) against the Mastodon
// emulator over real HTTP: a thread published through the adapter has its comments read (the
// thread's own statuses left out, answers nested, HTML content as plain text) and answered (the
// parent's visibility, its author mentioned, an Idempotency-Key), its counts and the account's read,
// and the account's statuses listed for imports (a boost unsupported) — each checked on the instance.
// A user's own instance is reached through the session's guarded fetch, never directly.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { MastodonEmulator } from '../../../emulators/mastodon/server.ts';
import { mastodonCapabilities } from '../../../src/networks/mastodon/capabilities.ts';
import { plainText } from '../../../src/networks/mastodon/html.ts';
import { PublishError } from '../../../src/core/errors.ts';
import { instanceCall, publish, sessionOf, startInstance } from './setup.ts';

let masto: MastodonEmulator;
let caps: ReturnType<typeof mastodonCapabilities>;

before(async () => {
  masto = await startInstance();
  caps = mastodonCapabilities(masto.url);
});
after(() => masto.close());

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  assert.ok(error instanceof PublishError, `a PublishError, got ${String(error)}`);
  return error;
};
const other = (name: string) => masto.addAccount({ username: name, displayName: name === 'carol' ? '' : `${name[0]!.toUpperCase()}${name.slice(1)}` });

describe('comments', () => {
  it('the replies to any status of the thread, its own statuses left out; answers nested when asked; HTML as plain text', async () => {
    const { remote, session } = sessionOf(masto);
    const post = await publish(masto, session, ['root', 'second part']);
    const alice = other('alice');
    const bob = other('bob');
    const carol = other('carol');
    const a = masto.reply(alice.id, post.root.platformId, 'Nice <b>post</b> & more\nline two\n\nsecond paragraph');
    const b = masto.reply(bob.id, post.parts[1]!.platformId, 'on the second', 'unlisted');
    const c = masto.reply(carol.id, a.id, 'agreed');
    const mine = masto.reply(remote.id, a.id, 'thank you');
    masto.favourite(bob.id, a.id);
    masto.favourite(carol.id, a.id);

    const flat = await caps.comments!.list(session, post, { includeReplies: false, resolveAuthorNames: false });
    assert.equal(flat.next, undefined);
    assert.deepEqual(flat.items.map((r) => [r.id, r.text, 'replies' in r]), [[a.id, 'Nice <b>post</b> & more\nline two\n\nsecond paragraph', false], [b.id, 'on the second', false]]);
    assert.deepEqual(flat.items[0], {
      id: a.id, author: alice.id, author_name: 'Alice', author_username: 'alice',
      author_avatar_url: `${masto.url}/avatars/original/missing.png`, author_profile_url: `${masto.url}/@alice`,
      text: 'Nice <b>post</b> & more\nline two\n\nsecond paragraph', created_at: a.createdAt, like_count: 2,
      platform_specific: { visibility: 'public', url: `${masto.url}/@alice/${a.id}`, in_reply_to_id: post.root.platformId, replies_count: 2, reblogs_count: 0, media_count: 0 },
    });

    const tree = await caps.comments!.list(session, post, { includeReplies: true, resolveAuthorNames: false });
    const shape = (r: { id: string; author_name: string | null; replies?: unknown[] }): unknown => [r.id, r.author_name, (r.replies ?? []).map((x) => shape(x as never))];
    assert.deepEqual(tree.items.map(shape), [[a.id, 'Alice', [[c.id, null, []], [mine.id, `Brand ${remote.username.slice(5)}`, []]]], [b.id, 'Bob', []]]);
    assert.equal(tree.items[1]!.platform_specific!.visibility, 'unlisted');
  });

  it('answers the post (in reply to the root) and a comment (mentioning its author, with its visibility), each with an Idempotency-Key', async () => {
    const { remote, session } = sessionOf(masto);
    const post = await publish(masto, session, ['ask me'], { visibility: 'unlisted' });
    const dana = other('dana');
    const question = masto.reply(dana.id, post.root.platformId, 'a question', 'private');

    const onPost = await caps.comments!.reply(session, post, 'a note on my own post');
    const answer = await caps.comments!.reply(session, post, 'here is the answer', question.id);
    const again = await caps.comments!.reply(session, post, '@dana already named', question.id);

    const made = (id: string) => masto.statusesOf(remote.id).find((s) => s.id === id)!;
    assert.deepEqual([made(onPost.replyId).inReplyToId, made(onPost.replyId).text, made(onPost.replyId).visibility], [post.root.platformId, 'a note on my own post', 'unlisted']);
    assert.deepEqual([made(answer.replyId).inReplyToId, made(answer.replyId).text, made(answer.replyId).visibility], [question.id, '@dana here is the answer', 'private']);
    assert.equal(made(again.replyId).text, '@dana already named');
    for (const id of [onPost.replyId, answer.replyId, again.replyId]) assert.match(made(id).idempotencyKey ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(new Set([onPost, answer, again].map((r) => made(r.replyId).idempotencyKey)).size, 3);

    const listed = await caps.comments!.list(session, post, { includeReplies: true, resolveAuthorNames: false });
    assert.deepEqual(listed.items.map((r) => [r.id, (r.replies ?? []).map((x) => x.id)]), [[question.id, [answer.replyId, again.replyId]], [onPost.replyId, []]]);
  });

  it('refusals: an empty text, a comment not of this post, a post gone from the instance', async () => {
    const { session } = sessionOf(masto);
    const post = await publish(masto, session, ['short lived']);
    const elsewhere = await publish(masto, session, ['another post']);
    assert.equal((await refusal(caps.comments!.reply(session, post, '  '))).code, 'invalid');
    assert.equal((await refusal(caps.comments!.reply(session, post, 'hi', elsewhere.root.platformId))).code, 'not_found');
    await caps.remove!(session, post);
    assert.equal((await refusal(caps.comments!.list(session, post, { includeReplies: false, resolveAuthorNames: false }))).code, 'not_found');
    assert.equal((await refusal(caps.comments!.reply(session, post, 'too late'))).code, 'not_found');
  });
});

describe('analytics', () => {
  it('a post: favourites, boosts, and the replies to its statuses less its own; no views, reach or impressions', async () => {
    const { session } = sessionOf(masto);
    const post = await publish(masto, session, ['counted', 'and continued']);
    const erin = other('erin');
    const finn = other('finn');
    masto.reply(erin.id, post.root.platformId, 'one');
    const two = masto.reply(finn.id, post.parts[1]!.platformId, 'two');
    masto.reply(erin.id, two.id, 'an answer, not a top-level comment');
    masto.favourite(erin.id, post.root.platformId);
    masto.favourite(finn.id, post.root.platformId);
    masto.boost(finn.id, post.root.platformId);
    assert.deepEqual(await caps.analytics!.post!(session, post), {
      likes: 2, comments: 2, shares: 1, views: null, reach: null, saves: null, impressions: null,
      platform_specific: { favourites_count: 2, reblogs_count: 1, replies_count: 2 },
    });
  });

  it('the account: followers, following and statuses as current totals', async () => {
    const { remote, session } = sessionOf(masto);
    await publish(masto, session, ['one', 'two']);
    masto.setFollowCounts(remote.id, 120, 7);
    const figures = await caps.analytics!.account!(session, { since: new Date(Date.now() - 86_400_000), until: new Date() });
    assert.deepEqual({ ...figures, platform_specific: {} }, { followers: 120, following: 7, posts: 2, engagement: null, ranged: false, platform_specific: {} });
  });
});

describe('ownPosts', () => {
  it('pages of 40, newest first, by the Link header; a thread once; replies to others left out; a boost unsupported', async () => {
    const { remote, session } = sessionOf(masto);
    const gail = other('gail');
    const theirs = masto.reply(gail.id, (await publish(masto, sessionOf(masto).session, ['a stranger post'])).root.platformId, 'their status');
    const thread = await publish(masto, session, ['first <thread>', 'its second status']);
    masto.boost(remote.id, theirs.id);
    await caps.comments!.reply(session, { root: { platformId: theirs.id, url: '' }, parts: [{ platformId: theirs.id, url: '' }], block: {} }, 'answering a stranger');
    for (let i = 0; i < 40; i++) await publish(masto, session, [`filler ${i}`]);

    const page1 = await caps.ownPosts!(session, {});
    assert.equal(page1.items.length, 40);
    assert.equal(page1.items[0]!.text, 'filler 39');
    assert.ok(page1.next);
    const page2 = await caps.ownPosts!(session, { cursor: page1.next });
    assert.equal(page2.next, undefined);
    const boost = masto.statusesOf(remote.id).find((s) => s.reblogOfId === theirs.id)!;
    assert.deepEqual(page2.items.map((p) => ({ ...p, createdAt: typeof p.createdAt })), [
      { platformId: boost.id, url: `${masto.url}/@gail/${theirs.id}`, text: 'their status', createdAt: 'string', mediaCount: 0, ref: { instance: masto.url }, unsupported: "a boost of gail's status, not a status of the account" },
      { platformId: thread.root.platformId, url: thread.root.url, text: 'first <thread>', createdAt: 'string', mediaCount: 0, ref: { instance: masto.url } },
    ]);
    assert.deepEqual(thread.root.ref, { instance: masto.url });
  });

  it('stops paging once a page reaches before `since`; `until` drops what is newer', async () => {
    const { session } = sessionOf(masto);
    for (let i = 0; i < 41; i++) await publish(masto, session, [`post ${i}`]);
    const future = await caps.ownPosts!(session, { since: new Date(Date.now() + 60_000) });
    assert.deepEqual([future.items.length, future.next], [0, undefined]);
    const past = await caps.ownPosts!(session, { until: new Date(Date.now() - 60_000) });
    assert.equal(past.items.length, 0);
    assert.ok(past.next);
  });
});

describe("a user's own instance", () => {
  it('every call goes through the session\'s guarded fetch, none directly', async () => {
    const guardedCaps = mastodonCapabilities(undefined);
    const { remote, session, guarded } = sessionOf(masto);
    const post = await publish(masto, session, ['guarded']);
    masto.reply(other('hana').id, post.root.platformId, 'hello');
    await guardedCaps.comments!.list(session, post, { includeReplies: true, resolveAuthorNames: false });
    await guardedCaps.comments!.reply(session, post, 'answer');
    await guardedCaps.analytics!.post!(session, post);
    await guardedCaps.analytics!.account!(session, { since: new Date(0), until: new Date() });
    await guardedCaps.ownPosts!(session, {});
    await guardedCaps.edit!(session, post, ['guarded, edited']);
    assert.deepEqual(guarded.map((u) => new URL(u).pathname), [
      `/api/v1/statuses/${post.root.platformId}/context`,
      `/api/v1/statuses/${post.root.platformId}`, '/api/v1/accounts/verify_credentials', '/api/v1/statuses',
      `/api/v1/statuses/${post.root.platformId}`, '/api/v1/accounts/verify_credentials',
      `/api/v1/accounts/${remote.id}/statuses`,
      `/api/v1/statuses/${post.root.platformId}`, `/api/v1/statuses/${post.root.platformId}`,
    ]);
    assert.equal((await instanceCall(masto, remote.token, `/api/v1/statuses/${post.root.platformId}`)).body.content, '<p>guarded, edited</p>');
  });
});

describe('content as plain text', () => {
  it('paragraphs, line breaks, links and mentions as Mastodon writes them; entities decoded once; no markup survives', () => {
    const link = '<a href="https://example.org/a/very/long/path" rel="nofollow noopener" target="_blank"><span class="invisible">https://</span><span class="ellipsis">example.org/a/very/</span><span class="invisible">long/path</span></a>';
    const mention = '<span class="h-card" translate="no"><a href="https://social.example/@bob" class="u-url mention">@<span>bob</span></a></span>';
    assert.equal(plainText(`<p>${mention} see ${link}</p><p>line one<br />line two</p>`), '@bob see https://example.org/a/very/long/path\n\nline one\nline two');
    assert.equal(plainText('<p>&amp;lt;b&amp;gt; is &lt;b&gt;, &#x1F600; &#128512; &quot;q&quot; &apos;a&#39; &bogus; &#0;</p>'), '&lt;b&gt; is <b>, 😀 😀 "q" \'a\' &bogus; &#0;');
    assert.equal(plainText('<p>from\nanother server</p>\n<p>two</p><script>x</script>'), 'from another server\n\ntwox');
  });
});
