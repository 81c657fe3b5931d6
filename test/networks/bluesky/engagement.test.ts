// Bluesky's engagement capabilities (src/networks/bluesky/capabilities.ts) against the PDS emulator,
// which also answers the AppView reads a PDS proxies, over real HTTP: a thread published through the
// Bluesky adapter is removed (every record), listed among the account's posts, its replies read as a
// tree (and in the deprecated shape) and answered with strong refs, its counts and the account's
// read — each time checking the XRPC calls the emulator received, in order.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type BlueskyEmulator, startBlueskyEmulator } from '../../../emulators/bluesky/server.ts';
import { createBlueskyAdapter } from '../../../src/networks/bluesky/adapter.ts';
import { blueskyCapabilities } from '../../../src/networks/bluesky/capabilities.ts';
import type { AccountSession } from '../../../src/networks/capabilities.ts';
import type { ContainerInput, PartRef, PublishedPost } from '../../../src/core/post.ts';
import { PublishError } from '../../../src/core/errors.ts';
import { PNG_1X1 } from '../../helpers/publishing.ts';

let pds: BlueskyEmulator;
let caps: ReturnType<typeof blueskyCapabilities>;
let count = 0;

before(async () => {
  pds = await startBlueskyEmulator({ rateLimits: false });
  caps = blueskyCapabilities(pds.url);
});
after(() => pds.close());

const now = () => new Date().toISOString();

/** A connected account (app password kept, session tokens saved as the capability refreshes them). */
function account(name = 'brand') {
  count += 1;
  const handle = `${name}${count}.test`;
  const { did } = pds.addAccount({ handle, password: 'main-password', appPasswords: ['aaaa-bbbb-cccc-dddd'] });
  const saved: { accessToken?: string; refreshToken?: string }[] = [];
  const session: AccountSession = {
    account: { id: count, orgId: 1, network: 'bluesky', username: handle, networkUniqueId: did, serviceUrl: pds.url, accessToken: null, refreshToken: null, credential: 'aaaa-bbbb-cccc-dddd' },
    saveTokens: async (tokens) => {
      saved.push(tokens);
      Object.assign(session.account, { accessToken: tokens.accessToken ?? null, refreshToken: tokens.refreshToken ?? null });
    },
    userFetch: fetch,
  };
  return { did, handle, session, saved };
}

/** Publishes containers through the Bluesky adapter: the root, then replies to it. */
async function publish(session: AccountSession, containers: (string | ContainerInput)[]): Promise<PublishedPost> {
  const prepared = await createBlueskyAdapter({ service: pds.url }).prepare({
    account: session.account,
    containers: containers.map((c) => (typeof c === 'string' ? { content: c, media: [] } : c)),
    block: undefined,
    fetchMedia: async () => ({ bytes: PNG_1X1, contentType: 'image/png' }),
    openMedia: () => { throw new Error('not used'); },
    userFetch: fetch,
    saveTokens: session.saveTokens,
    ledger: { withPool: () => { throw new Error('no ledger'); }, read: () => { throw new Error('no ledger'); } },
  });
  const parts: PartRef[] = [];
  for (let i = 0; i < containers.length; i++) parts.push(await prepared.publishPart(i, prepared.reserve(i), parts[0]));
  return { root: parts[0]!, parts, block: {} };
}

/** A post by someone else: a reply (root and parent given as strong refs) or a plain post. */
function writePost(did: string, text: string, reply?: { root: { uri: string; cid: string }; parent: { uri: string; cid: string } }, extra: Record<string, unknown> = {}) {
  return pds.addRecord(did, 'app.bsky.feed.post', { $type: 'app.bsky.feed.post', text, createdAt: now(), ...(reply ? { reply } : {}), ...extra });
}
const ref = (part: PartRef | { uri: string; cid: string }) => ('platformId' in part ? { uri: String(part.ref!.uri), cid: String(part.ref!.cid) } : part);

/** The XRPC calls since `mark` other than the session's own (login, resume). */
const callsSince = (mark: number) => pds.calls().slice(mark).filter((c) => !c.nsid.startsWith('com.atproto.server.')).map((c) => ({ nsid: c.nsid, params: c.params, body: c.body, status: c.status }));
const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  assert.ok(error instanceof PublishError, `a PublishError, got ${String(error)}`);
  return error;
};
const rkeyOf = (uri: string) => uri.split('/').pop()!;

describe('remove', () => {
  it('deletes every record of a thread, last first; a second removal finds it absent', async () => {
    const { did, session } = account();
    const post = await publish(session, ['root', 'second', 'third']);
    const mark = pds.calls().length;
    assert.equal(await caps.remove!(session, post), 'removed');
    assert.deepEqual(callsSince(mark).map((c) => [c.nsid, c.body, c.status]), [...post.parts].reverse().map((p) => [
      'com.atproto.repo.deleteRecord', { repo: did, collection: 'app.bsky.feed.post', rkey: rkeyOf(p.platformId) }, 200,
    ]));
    assert.deepEqual(pds.records(did).filter((r) => r.collection === 'app.bsky.feed.post'), []);
    assert.equal(await caps.remove!(session, post), 'absent');
  });

  it('a post of another repository is refused without a delete; a malformed uri before any call', async () => {
    const mine = account();
    const other = account('other');
    const theirs = await publish(other.session, ['theirs']);
    const mark = pds.calls().length;
    const error = await refusal(caps.remove!(mine.session, theirs));
    assert.equal(error.code, 'forbidden');
    assert.ok(!pds.calls().slice(mark).some((c) => c.nsid === 'com.atproto.repo.deleteRecord'));
    const bad = await refusal(caps.remove!(mine.session, { root: { platformId: 'https://bsky.app/x', url: '' }, parts: [{ platformId: 'https://bsky.app/x', url: '' }], block: {} }));
    assert.equal(bad.code, 'invalid');
    assert.equal(pds.records(other.did).length, 1);
  });

  it('a revoked session without an app password is an auth error', async () => {
    const { did, session } = account();
    const post = await publish(session, ['soon revoked']);
    pds.revokeSessions(did);
    pds.expireToken(session.account.accessToken!);
    session.account.credential = null;
    const error = await refusal(caps.remove!(session, post));
    assert.equal(error.kind, 'auth');
  });
});

describe('ownPosts', () => {
  it('pages through the author feed without replies; reposts unsupported; media counted; uri and cid kept', async () => {
    const { did, handle, session } = account();
    const other = account('other');
    const theirs = writePost(other.did, 'their post');
    const thread = await publish(session, [{ content: 'with a picture', media: [{ url: 'https://media.test/cat.png', filename: 'cat.png' }] }, 'a thread reply']);
    const repost = pds.addRecord(did, 'app.bsky.feed.repost', { subject: theirs, createdAt: now() });
    for (let i = 0; i < 100; i++) writePost(did, `filler ${i}`);
    const mark = pds.calls().length;
    const page1 = await caps.ownPosts!(session, {});
    assert.equal(page1.items.length, 100);
    assert.equal(page1.items[0]!.text, 'filler 99');
    assert.ok(page1.next);
    const page2 = await caps.ownPosts!(session, { cursor: page1.next });
    assert.equal(page2.next, undefined);
    assert.ok(repost.uri);
    const root = thread.root;
    assert.deepEqual(page2.items.map((p) => ({ ...p, createdAt: typeof p.createdAt })), [
      { platformId: theirs.uri, url: `https://bsky.app/profile/${other.handle}/post/${rkeyOf(theirs.uri)}`, text: 'their post', createdAt: 'string', mediaCount: 0, ref: theirs, unsupported: `a repost of ${other.handle}'s post, not a post of the account` },
      { platformId: root.platformId, url: `https://bsky.app/profile/${handle}/post/${rkeyOf(root.platformId)}`, text: 'with a picture', createdAt: 'string', mediaCount: 1, ref: root.ref },
    ]);
    assert.deepEqual(callsSince(mark).map((c) => [c.nsid, c.params]), [
      ['app.bsky.feed.getAuthorFeed', { actor: did, filter: 'posts_no_replies', limit: '100' }],
      ['app.bsky.feed.getAuthorFeed', { actor: did, filter: 'posts_no_replies', limit: '100', cursor: page1.next }],
    ]);
  });

  it('stops paging once a page reaches before `since`', async () => {
    const { did, session } = account();
    for (let i = 0; i < 101; i++) writePost(did, `post ${i}`);
    const page = await caps.ownPosts!(session, { since: new Date(Date.now() + 60_000) });
    assert.equal(page.items.length, 100);
    assert.equal(page.next, undefined);
  });
});

describe('comments', () => {
  it('reads the thread: the root\'s and its containers\' answers are the comments, nested at any depth when asked', async () => {
    const { did, handle, session } = account();
    const post = await publish(session, ['our post', 'our second part']);
    const [root, part2] = post.parts;
    const ann = account('ann');
    const bob = account('bob');
    pds.addRecord(ann.did, 'app.bsky.actor.profile', { displayName: 'Ann A.' });
    const c1 = writePost(ann.did, 'first comment', { root: ref(root!), parent: ref(root!) });
    const c1a = writePost(bob.did, 'answer to ann', { root: ref(root!), parent: c1 });
    const c1aa = writePost(did, 'our answer to bob', { root: ref(root!), parent: c1a });
    const c2 = writePost(bob.did, 'comment on part two', { root: ref(root!), parent: ref(part2!) });
    pds.addRecord(bob.did, 'app.bsky.feed.like', { subject: c1, createdAt: now() });

    const mark = pds.calls().length;
    const flat = await caps.comments!.list(session, post, { includeReplies: false, resolveAuthorNames: false });
    assert.equal(flat.next, undefined);
    assert.deepEqual(flat.items.map((r) => r.id), [c1.uri, c2.uri]);
    assert.ok(flat.items.every((r) => !('replies' in r)));
    const first = flat.items[0]!;
    assert.equal(typeof first.created_at, 'string');
    assert.deepEqual({ ...first, created_at: null, platform_specific: { ...first.platform_specific, indexed_at: null } }, {
      id: c1.uri,
      author: ann.did,
      author_name: 'Ann A.',
      author_username: ann.handle,
      author_profile_url: `https://bsky.app/profile/${ann.handle}`,
      text: 'first comment',
      created_at: null,
      like_count: 1,
      platform_specific: { cid: c1.cid, reply_count: 1, repost_count: 0, quote_count: 0, indexed_at: null, parent_uri: root!.platformId },
    });
    assert.equal(flat.items[1]!.author_name, null);
    assert.deepEqual(callsSince(mark).map((c) => [c.nsid, c.params]), [['app.bsky.feed.getPostThread', { uri: root!.platformId, depth: '2', parentHeight: '0' }]]);

    const tree = await caps.comments!.list(session, post, { includeReplies: true, resolveAuthorNames: false });
    const shape = (r: any): unknown => ({ id: r.id, by: r.author_username, replies: r.replies.map(shape) });
    assert.deepEqual(tree.items.map(shape), [
      { id: c1.uri, by: ann.handle, replies: [{ id: c1a.uri, by: bob.handle, replies: [{ id: c1aa.uri, by: handle, replies: [] }] }] },
      { id: c2.uri, by: bob.handle, replies: [] },
    ]);
    assert.equal(pds.calls().at(-1)!.params.depth, '1000');
  });

  it('the deprecated shape: each top-level reply with its numeric reply count', async () => {
    const { session } = account();
    const post = await publish(session, ['legacy']);
    const fan = account('fan');
    const c = writePost(fan.did, 'hello', { root: ref(post.root), parent: ref(post.root) });
    writePost(fan.did, 'and again', { root: ref(post.root), parent: c });
    const page = await caps.comments!.legacy!(session, post, {});
    assert.equal(page.next, undefined);
    const [item] = page.items as any[];
    assert.equal(typeof item.createdAt, 'string');
    assert.deepEqual({ ...item, createdAt: null }, { uri: c.uri, cid: c.cid, author: { did: fan.did, handle: fan.handle, displayName: null }, text: 'hello', createdAt: null, replyCount: 1 });
  });

  it('answers the post and a comment with strong refs (the parent looked up by uri), facets detected', async () => {
    const { did, session } = account();
    const post = await publish(session, ['ask me']);
    const fan = account('fan');
    const question = writePost(fan.did, 'a question', { root: ref(post.root), parent: ref(post.root) });
    const mark = pds.calls().length;
    const onPost = await caps.comments!.reply(session, post, 'a note on our post');
    const onComment = await caps.comments!.reply(session, post, `thanks @${fan.handle}!`, question.uri);
    const calls = callsSince(mark);
    assert.deepEqual(calls.map((c) => c.nsid), [
      'app.bsky.feed.getPosts', 'com.atproto.repo.createRecord',
      'app.bsky.feed.getPosts', 'com.atproto.identity.resolveHandle', 'com.atproto.repo.createRecord',
    ]);
    assert.deepEqual(calls[2]!.params, { uris: [post.root.platformId, question.uri] });
    const records = pds.records(did);
    const answer = records.find((r) => r.uri === onComment.replyId)!.value as any;
    assert.deepEqual(answer.reply, { root: ref(post.root), parent: question });
    assert.equal(answer.facets[0].features[0].did, fan.did);
    assert.deepEqual((records.find((r) => r.uri === onPost.replyId)!.value as any).reply, { root: ref(post.root), parent: ref(post.root) });
  });

  it('a missing comment is not_found; one from another thread is refused; too long or empty text before any call', async () => {
    const { did, session } = account();
    const post = await publish(session, ['post']);
    const elsewhere = await publish(session, ['another post']);
    const gone = await refusal(caps.comments!.reply(session, post, 'hi', `at://${did}/app.bsky.feed.post/3lzzzzzzzzzzz`));
    assert.equal(gone.code, 'not_found');
    const fan = account('fan');
    const foreign = writePost(fan.did, 'elsewhere', { root: ref(elsewhere.root), parent: ref(elsewhere.root) });
    const wrong = await refusal(caps.comments!.reply(session, post, 'hi', foreign.uri));
    assert.equal(wrong.code, 'invalid');
    assert.match(wrong.message, /is not a reply in this post's thread/);
    const mark = pds.calls().length;
    assert.match((await refusal(caps.comments!.reply(session, post, 'é'.repeat(301)))).message, /has 301 characters \(graphemes\); Bluesky allows 300/);
    assert.equal((await refusal(caps.comments!.reply(session, post, ' '))).code, 'invalid');
    assert.equal(pds.calls().length, mark);
  });

  it('a deleted post\'s thread is not_found', async () => {
    const { session } = account();
    const post = await publish(session, ['short-lived']);
    await caps.remove!(session, post);
    const error = await refusal(caps.comments!.list(session, post, { includeReplies: false, resolveAuthorNames: false }));
    assert.equal(error.code, 'not_found');
  });
});

describe('analytics', () => {
  it('a post: likes, comments (the thread\'s own container left out), reposts and quotes as shares, bookmarks; no views', async () => {
    const { session } = account();
    const post = await publish(session, ['counted', 'our own second part']);
    const fans = [account('fan'), account('fan'), account('fan')];
    const root = ref(post.root);
    for (const fan of fans) pds.addRecord(fan.did, 'app.bsky.feed.like', { subject: root, createdAt: now() });
    pds.addRecord(fans[0]!.did, 'app.bsky.feed.repost', { subject: root, createdAt: now() });
    writePost(fans[1]!.did, 'quoting', undefined, { embed: { $type: 'app.bsky.embed.record', record: root } });
    writePost(fans[2]!.did, 'a comment', { root, parent: root });
    pds.setBookmarks(root.uri, 4);
    const mark = pds.calls().length;
    assert.deepEqual(await caps.analytics!.post!(session, post), {
      likes: 3, comments: 1, shares: 2, views: null, reach: null, saves: 4, impressions: null,
      platform_specific: { replyCount: 2, repostCount: 1, quoteCount: 1, bookmarkCount: 4 },
    });
    assert.deepEqual(callsSince(mark).map((c) => [c.nsid, c.params]), [['app.bsky.feed.getPosts', { uris: root.uri }]]);
  });

  it('a deleted post is not_found', async () => {
    const { session } = account();
    const post = await publish(session, ['gone']);
    await caps.remove!(session, post);
    assert.equal((await refusal(caps.analytics!.post!(session, post))).code, 'not_found');
  });

  it('the account: followers, follows and posts from getProfile; current totals', async () => {
    const { did, session } = account();
    const fans = [account('fan'), account('fan')];
    for (const fan of fans) pds.addRecord(fan.did, 'app.bsky.graph.follow', { subject: did, createdAt: now() });
    pds.addRecord(did, 'app.bsky.graph.follow', { subject: fans[0]!.did, createdAt: now() });
    await publish(session, ['one', 'two']);
    const mark = pds.calls().length;
    assert.deepEqual(await caps.analytics!.account!(session, { since: new Date(0), until: new Date() }), {
      followers: 2, following: 1, posts: 2, engagement: null, ranged: false, platform_specific: {},
    });
    assert.deepEqual(callsSince(mark).map((c) => [c.nsid, c.params]), [['app.bsky.actor.getProfile', { actor: did }]]);
  });

  it('a rate limit comes back retryable with the reset time', async () => {
    const { session } = account();
    await publish(session, ['warm the session']);
    pds.failNext({ status: 429, path: '/xrpc/app.bsky.actor.getProfile' });
    const error = await refusal(caps.analytics!.account!(session, { since: new Date(0), until: new Date() }));
    assert.equal(error.kind, 'retryable');
    assert.equal(error.code, 'rate_limited');
    assert.ok(error.retryAfterMs! > 200_000 && error.retryAfterMs! <= 300_000, String(error.retryAfterMs));
  });
});
