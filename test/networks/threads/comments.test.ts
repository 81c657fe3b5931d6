// Threads replies through Crier's `comments` capability, over real HTTP against the emulator: the
// top-level replies of a post (GET /{root}/replies, paged), nested to any depth from the conversation
// when asked, the post's own thread containers left out; answering the post or a reply (TEXT container
// with reply_to_id, status until FINISHED, threads_publish); and Threads' refusals as PublishErrors.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PublishError } from '../../../src/core/errors.ts';
import type { Reply } from '../../../src/networks/capabilities.ts';
import { engagementSetup, type EngagementSetup, type Profile } from './setup.ts';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('Threads comments', () => {
  let s: EngagementSetup;
  let ada: Profile;

  before(async () => {
    s = await engagementSetup();
    ada = s.profile('ada_comments');
  });
  after(() => s.close());

  const comments = () => s.caps.comments!;
  const shape = (reply: Reply): unknown => ({ text: reply.text, author: reply.author, ...(reply.replies ? { replies: reply.replies.map(shape) } : {}) });

  it('lists the top-level replies oldest first as Reply records: the root\'s, then each later container\'s, never those containers', async () => {
    const post = await s.publish(ada, ['the root', 'part two of the thread']);
    const bob = s.th.addReply({ to: post.root.platformId, username: 'bob', text: 'first!' });
    s.th.addReply({ to: post.root.platformId, username: 'carol', text: 'nice post', hidden: true });
    s.th.addReply({ to: bob.id, username: 'dan', text: 'answering bob' });
    const eve = s.th.addReply({ to: post.parts[1]!.platformId, username: 'eve', text: 'on part two' });
    s.th.addReply({ to: eve.id, username: 'bob', text: 'answering eve' });
    const from = s.th.calls().length;
    const page = await comments().list(ada.session, post, { includeReplies: false, resolveAuthorNames: false });
    assert.equal(page.next, undefined);
    assert.deepEqual(page.items.map((r) => [r.author, r.text]), [['bob', 'first!'], ['carol', 'nice post'], ['eve', 'on part two']]);
    const [first, second] = page.items;
    assert.deepEqual({ ...first, created_at: 'checked' }, {
      id: bob.id, author: 'bob', author_name: null, author_username: 'bob', author_profile_url: 'https://www.threads.com/@bob',
      author_avatar_url: `https://scontent.cdninstagram.com/v/t51/${bob.userId}.jpg`, text: 'first!', created_at: 'checked',
      platform_specific: { permalink: bob.permalink, media_type: 'TEXT_POST', hide_status: 'NOT_HUSHED', replied_to_id: post.root.platformId, is_reply_owned_by_me: false, is_verified: false },
    });
    assert.match(first!.created_at!, ISO);
    assert.equal(first!.replies, undefined, 'no replies key unless asked');
    assert.equal(second!.platform_specific!.hide_status, 'HIDDEN');
    assert.equal(page.items[2]!.platform_specific!.replied_to_id, post.parts[1]!.platformId);
    const calls = s.callsSince(from);
    assert.deepEqual(calls.map((c) => `${c.method} ${c.path}`), [`GET /v1.0/${post.root.platformId}/replies`, `GET /v1.0/${post.parts[1]!.platformId}/replies`]);
    assert.equal(calls[0]!.params.reverse, 'false');
    const nestedPage = await comments().list(ada.session, post, { includeReplies: true, resolveAuthorNames: false });
    assert.deepEqual(nestedPage.items.map(shape), [
      { text: 'first!', author: 'bob', replies: [{ text: 'answering bob', author: 'dan', replies: [] }] },
      { text: 'nice post', author: 'carol', replies: [] },
      { text: 'on part two', author: 'eve', replies: [{ text: 'answering eve', author: 'bob', replies: [] }] },
    ]);
    assert.equal(calls[0]!.params.limit, '50');
    assert.match(calls[0]!.params.fields!, /^id,text,timestamp,permalink,username,/);
  });

  it('nests answers at any depth when asked, from the conversation', async () => {
    const post = await s.publish(ada, ['deep thread']);
    const bob = s.th.addReply({ to: post.root.platformId, username: 'bob', text: 'b1' });
    const carol = s.th.addReply({ to: post.root.platformId, username: 'carol', text: 'c1' });
    const dan = s.th.addReply({ to: bob.id, username: 'dan', text: 'd answers b1' });
    const { replyId } = await comments().reply(ada.session, post, 'ada answers dan', dan.id);
    s.th.addReply({ to: replyId, username: 'bob', text: 'b answers ada' });
    s.th.addReply({ to: carol.id, username: 'eve', text: 'e answers c1' });
    const from = s.th.calls().length;
    const page = await comments().list(ada.session, post, { includeReplies: true, resolveAuthorNames: false });
    assert.deepEqual(page.items.map(shape), [
      { text: 'b1', author: 'bob', replies: [{ text: 'd answers b1', author: 'dan', replies: [{ text: 'ada answers dan', author: 'ada_comments', replies: [{ text: 'b answers ada', author: 'bob', replies: [] }] }] }] },
      { text: 'c1', author: 'carol', replies: [{ text: 'e answers c1', author: 'eve', replies: [] }] },
    ]);
    const own = page.items[0]!.replies![0]!.replies![0]!;
    assert.equal(own.id, replyId);
    assert.equal(own.platform_specific!.is_reply_owned_by_me, true);
    assert.deepEqual(s.callsSince(from).map((c) => `${c.method} ${c.path} ${c.params.reverse}`), [
      `GET /v1.0/${post.root.platformId}/conversation false`, `GET /v1.0/${post.root.platformId}/replies false`,
    ]);
  });

  it('pages through top-level replies with Threads\' cursor', async () => {
    const post = await s.publish(ada, ['a popular post']);
    for (let i = 0; i < 60; i++) s.th.addReply({ to: post.root.platformId, username: `fan_${i % 7}`, text: `reply ${i}` });
    const first = await comments().list(ada.session, post, { includeReplies: false, resolveAuthorNames: false });
    assert.equal(first.items.length, 50);
    assert.ok(first.next);
    const second = await comments().list(ada.session, post, { includeReplies: false, resolveAuthorNames: false, cursor: first.next });
    assert.equal(second.next, undefined);
    assert.deepEqual([...first.items, ...second.items].map((r) => r.text), Array.from({ length: 60 }, (_, i) => `reply ${i}`));
    assert.equal(s.th.calls().at(-1)!.params.after, first.next);
  });

  it('pages on into the later containers of a thread; a cursor of no container of the post is refused', async () => {
    const post = await s.publish(ada, ['thread root', 'thread two', 'thread three']);
    for (let i = 0; i < 55; i++) s.th.addReply({ to: post.root.platformId, username: 'fan', text: `root ${i}` });
    for (let i = 0; i < 3; i++) s.th.addReply({ to: post.parts[1]!.platformId, username: 'fan', text: `two ${i}` });
    s.th.addReply({ to: post.parts[2]!.platformId, username: 'fan', text: 'three 0' });
    const texts: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await comments().list(ada.session, post, { includeReplies: false, resolveAuthorNames: false, ...(cursor ? { cursor } : {}) });
      texts.push(...page.items.map((r) => r.text));
      cursor = page.next;
      pages += 1;
    } while (cursor);
    assert.equal(pages, 2);
    assert.deepEqual(texts, [...Array.from({ length: 55 }, (_, i) => `root ${i}`), 'two 0', 'two 1', 'two 2', 'three 0']);
    // A page not filled by the root's replies takes only what is left of it from the next container.
    for (let i = 3; i < 60; i++) s.th.addReply({ to: post.parts[1]!.platformId, username: 'fan', text: `two ${i}` });
    const second = await comments().list(ada.session, post, { includeReplies: false, resolveAuthorNames: false, cursor: (await comments().list(ada.session, post, { includeReplies: false, resolveAuthorNames: false })).next });
    assert.equal(second.items.length, 50);
    // The root's first Threads page held its two later containers too (left out): 48 replies, then 7.
    assert.deepEqual([second.items[0]!.text, second.items[6]!.text, second.items[7]!.text, second.items[49]!.text], ['root 48', 'root 54', 'two 0', 'two 42']);
    assert.match(second.next!, /^part1:.+/);
    const third = await comments().list(ada.session, post, { includeReplies: false, resolveAuthorNames: false, cursor: second.next });
    assert.deepEqual(third.items.map((r) => r.text), [...Array.from({ length: 17 }, (_, i) => `two ${43 + i}`), 'three 0']);
    assert.equal(third.next, undefined);
    await assert.rejects(comments().list(ada.session, post, { includeReplies: false, resolveAuthorNames: false, cursor: 'part7:' }), (e: PublishError) => e.kind === 'permanent' && e.code === 'invalid');
  });

  it('answers the post, then a reply: a TEXT container with reply_to_id, its status, then threads_publish', async () => {
    const post = await s.publish(ada, ['ask me anything']);
    const bob = s.th.addReply({ to: post.root.platformId, username: 'bob', text: 'a question' });
    const from = s.th.calls().length;
    const onPost = await comments().reply(ada.session, post, 'thanks all');
    const onBob = await comments().reply(ada.session, post, 'here is the answer', bob.id);
    const calls = s.callsSince(from);
    assert.deepEqual(calls.map((c) => `${c.method} ${c.path.replace(/\/\d{10,}$/, '/{id}')}`), [
      `POST /v1.0/${ada.userId}/threads`, 'GET /v1.0/{id}', `POST /v1.0/${ada.userId}/threads_publish`,
      `POST /v1.0/${ada.userId}/threads`, 'GET /v1.0/{id}', `POST /v1.0/${ada.userId}/threads_publish`,
    ]);
    assert.deepEqual([calls[0]!.params.media_type, calls[0]!.params.text, calls[0]!.params.reply_to_id], ['TEXT', 'thanks all', post.root.platformId]);
    assert.equal(calls[3]!.params.reply_to_id, bob.id);
    const published = s.th.published();
    const mine = (id: string) => published.find((m) => m.id === id)!;
    assert.deepEqual([mine(onPost.replyId).text, mine(onPost.replyId).replyToId, mine(onPost.replyId).userId], ['thanks all', post.root.platformId, ada.userId]);
    assert.deepEqual([mine(onBob.replyId).replyToId, mine(onBob.replyId).rootId], [bob.id, post.root.platformId]);
  });

  it('waits for a container still IN_PROGRESS before publishing it', async () => {
    const post = await s.publish(ada, ['slow network']);
    s.th.stickNextContainer('patience');
    const from = s.th.calls().length;
    const pending = comments().reply(ada.session, post, 'patience');
    setTimeout(() => s.th.releaseContainer(s.th.containers().at(-1)!.id), 300);
    const { replyId } = await pending;
    const statusReads = s.callsSince(from).filter((c) => c.method === 'GET');
    assert.ok(statusReads.length >= 2, `status asked ${statusReads.length} times`);
    assert.equal(s.th.published().find((m) => m.id === replyId)!.text, 'patience');
  });

  it('refuses an empty or too long reply before any call', async () => {
    const post = await s.publish(ada, ['strict']);
    const from = s.th.calls().length;
    await assert.rejects(comments().reply(ada.session, post, '   '), (e: PublishError) => e.kind === 'permanent' && e.code === 'invalid');
    await assert.rejects(comments().reply(ada.session, post, 'x'.repeat(501)), (e: PublishError) => e.code === 'invalid' && /at most 500/.test(e.message));
    assert.equal(s.callsSince(from).length, 0);
  });

  it('a deleted post is not_found; a refused token is auth; throttling is rate_limited', async () => {
    const post = await s.publish(ada, ['soon gone']);
    await s.caps.remove!(ada.session, post);
    await assert.rejects(comments().list(ada.session, post, { includeReplies: false, resolveAuthorNames: false }), (e: PublishError) => e instanceof PublishError && e.kind === 'permanent' && e.code === 'not_found');
    const live = await s.publish(ada, ['still here']);
    s.th.failNext({ status: 400, body: { error: { message: 'Application request limit reached', type: 'OAuthException', code: 4 } }, path: `/v1.0/${live.root.platformId}/replies` });
    await assert.rejects(comments().list(ada.session, live, { includeReplies: false, resolveAuthorNames: false }), (e: PublishError) => e.kind === 'retryable' && e.code === 'rate_limited' && (e.retryAfterMs ?? 0) > 0);
    const gone = s.profile('gone_comments');
    const theirs = await s.publish(gone, ['revoked later']);
    s.th.revokeUser(gone.userId);
    await assert.rejects(comments().reply(gone.session, theirs, 'hello'), (e: PublishError) => e.kind === 'auth');
  });

  it('reads only replies under the account\'s own posts', async () => {
    const other = s.profile('someone_else');
    const theirs = await s.publish(other, ['not ada\'s']);
    await assert.rejects(comments().list(ada.session, theirs, { includeReplies: false, resolveAuthorNames: false }), (e: PublishError) => e.code === 'not_found');
  });
});
