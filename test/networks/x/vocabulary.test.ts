// Crier's X reads in either of X's field vocabularies (src/networks/x/vocabulary.ts): against an API
// that takes only `post.fields` (OpenAPI v2.167), only `tweet.fields` (v2.166 and the prose docs), or
// one that changes while Crier runs. X's 400 naming the fields parameter as unknown is recognised, the
// read sent once more in the other vocabulary, and the one that worked remembered; answers are read in
// either vocabulary (referenced_posts, note_post).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startXEmulator, type VocabularySetting, type XEmulator } from '../../../emulators/x/server.ts';
import type { AccountSession } from '../../../src/networks/capabilities.ts';
import type { PartRef, PublishedPost } from '../../../src/core/post.ts';
import { PublishError } from '../../../src/core/errors.ts';
import { createXAdapter } from '../../../src/networks/x/adapter.ts';
import { xCapabilities } from '../../../src/networks/x/capabilities.ts';

const started: XEmulator[] = [];
let count = 0;

async function emulator(fieldVocabulary: VocabularySetting) {
  const x = await startXEmulator({ fieldVocabulary });
  started.push(x);
  return x;
}
after(async () => {
  for (const x of started) await x.close();
});

function account(x: XEmulator) {
  count += 1;
  const token = `vocab-token-${count}`;
  const user = x.addUser({ username: `vocab${count}`, accessToken: token });
  const session: AccountSession = {
    account: { id: count, orgId: 1, network: 'x', username: user.username, networkUniqueId: user.id, serviceUrl: null, accessToken: token, refreshToken: null, credential: null },
    saveTokens: async () => {},
    userFetch: fetch,
  };
  return { user, session };
}

function prepare(x: XEmulator, session: AccountSession, texts: string[]) {
  return createXAdapter({ apiUrl: x.url }).prepare({
    account: session.account,
    containers: texts.map((content) => ({ content, media: [] })),
    block: undefined,
    fetchMedia: () => { throw new Error('no media'); },
    openMedia: () => { throw new Error('no media'); },
    userFetch: fetch,
    saveTokens: async () => {},
    ledger: { withPool: () => { throw new Error('no ledger'); }, read: () => { throw new Error('no ledger'); } },
  });
}

async function publish(x: XEmulator, session: AccountSession, texts: string[]): Promise<PublishedPost> {
  const prepared = await prepare(x, session, texts);
  const parts: PartRef[] = [];
  for (let i = 0; i < texts.length; i++) parts.push(await prepared.publishPart(i, prepared.reserve(i), parts[0]));
  return { root: parts[0]!, parts, block: {} };
}

/** The reads since `mark`: which fields parameter each named, and X's status. */
const readsSince = (x: XEmulator, mark: number) =>
  x.calls().slice(mark).filter((c) => c.method === 'GET').map((c) => `${Object.keys(c.query).find((k) => k.endsWith('.fields') && k !== 'user.fields')} ${c.status}`);

describe('an API that takes only post.fields', () => {
  let x: XEmulator;
  before(async () => {
    x = await emulator('post');
  });

  it('reads a post\'s figures after one refused tweet.fields, then asks in post.fields at once', async () => {
    const caps = xCapabilities(x.url);
    const { session } = account(x);
    const post = await publish(x, session, ['figures']);
    x.setMetrics(post.root.platformId, { like_count: 3 });
    const mark = x.calls().length;
    assert.equal((await caps.analytics!.post!(session, post)).likes, 3);
    assert.deepEqual(readsSince(x, mark), ['tweet.fields 400', 'post.fields 200']);
    const again = x.calls().length;
    assert.equal((await caps.analytics!.post!(session, post)).likes, 3);
    assert.deepEqual(readsSince(x, again), ['post.fields 200']);
    assert.equal(x.calls().at(-1)!.query['post.fields'], 'public_metrics,non_public_metrics');
  });

  it('lists own posts from note_post and referenced_posts', async () => {
    const caps = xCapabilities(x.url);
    const { user, session } = account(x);
    const long = x.addTweet({ authorId: user.id, text: `long ${'word '.repeat(70)}end` });
    const other = account(x).user;
    const theirs = x.addTweet({ authorId: other.id, text: 'theirs' });
    const repost = x.addTweet({ authorId: user.id, retweetOf: theirs.id });
    const page = await caps.ownPosts!(session, {});
    assert.equal(page.items.find((p) => p.platformId === long.id)?.text, long.text);
    assert.equal(page.items.find((p) => p.platformId === repost.id)?.unsupported, `a repost of post ${theirs.id}, not a post of the account`);
    assert.equal(x.calls().at(-1)!.query['post.fields'], 'created_at,attachments,note_post,referenced_posts,conversation_id');
  });

  it('rebuilds a reply tree from referenced_posts', async () => {
    const caps = xCapabilities(x.url);
    const { user, session } = account(x);
    const post = await publish(x, session, ['a question']);
    const fan = account(x).user;
    const comment = x.addTweet({ authorId: fan.id, text: `@${user.username} hello`, inReplyTo: post.root.platformId });
    const answer = x.addTweet({ authorId: user.id, text: 'hi back', inReplyTo: comment.id });
    const tree = await caps.comments!.list(session, post, { includeReplies: true, resolveAuthorNames: false });
    assert.deepEqual(tree.items.map((c) => [c.id, c.replies?.map((r) => r.id)]), [[comment.id, [answer.id]]]);
  });

  it('finds a reply of a thread after a crash from referenced_posts', async () => {
    const { user, session } = account(x);
    const prepared = await prepare(x, session, ['root of a thread', 'its reply']);
    const root = await prepared.publishPart(0, prepared.reserve(0), undefined);
    const reservation = prepared.reserve(1);
    // The reply was created, and its answer lost with the crash.
    const reply = x.addTweet({ authorId: user.id, text: 'its reply', inReplyTo: root.platformId });
    assert.deepEqual(await prepared.reconcile!(1, reservation, root), { platformId: reply.id, url: `https://x.com/${user.username}/status/${reply.id}` });
  });
});

describe('an API that takes only tweet.fields', () => {
  it('is asked in tweet.fields, and never in post.fields', async () => {
    const x = await emulator('tweet');
    const caps = xCapabilities(x.url);
    const { user, session } = account(x);
    const post = await publish(x, session, ['plain']);
    x.addTweet({ authorId: user.id, text: `long ${'word '.repeat(70)}end` });
    const mark = x.calls().length;
    await caps.analytics!.post!(session, post);
    await caps.ownPosts!(session, {});
    await caps.comments!.list(session, post, { includeReplies: false, resolveAuthorNames: false });
    assert.deepEqual(readsSince(x, mark), ['tweet.fields 200', 'tweet.fields 200', 'tweet.fields 200']);
  });
});

describe('an API that changes vocabulary while Crier runs', () => {
  it('follows it each way, one refused read each time', async () => {
    const x = await emulator('tweet');
    const caps = xCapabilities(x.url);
    const { session } = account(x);
    const post = await publish(x, session, ['changing']);
    const read = async () => {
      const mark = x.calls().length;
      await caps.analytics!.post!(session, post);
      return readsSince(x, mark);
    };
    assert.deepEqual(await read(), ['tweet.fields 200']);
    x.setFieldVocabulary('post');
    assert.deepEqual(await read(), ['tweet.fields 400', 'post.fields 200']);
    assert.deepEqual(await read(), ['post.fields 200']);
    x.setFieldVocabulary('tweet');
    assert.deepEqual(await read(), ['post.fields 400', 'tweet.fields 200']);
  });

  it('does not retry a 400 about anything else, and a refusal in both vocabularies is X\'s error', async () => {
    const x = await emulator('both');
    const caps = xCapabilities(x.url);
    const { session } = account(x);
    const post = await publish(x, session, ['refused']);
    const envelope = (parameter: string) => ({
      errors: [{ parameters: { [parameter]: ['x'] }, message: `The \`${parameter}\` query parameter value [x] is not one of [a,b]` }],
      title: 'Invalid Request', detail: 'One or more parameters to your request was invalid.', type: 'https://api.x.com/2/problems/invalid-request',
    });
    let mark = x.calls().length;
    x.failNext({ status: 400, method: 'GET', path: `/2/tweets/${post.root.platformId}`, body: envelope('expansions') });
    const other = await caps.analytics!.post!(session, post).catch((e: unknown) => e);
    assert.ok(other instanceof PublishError);
    assert.equal(other.message, 'x: expansions: The `expansions` query parameter value [x] is not one of [a,b]');
    assert.equal(readsSince(x, mark).length, 1);

    mark = x.calls().length;
    x.failNext({ status: 400, method: 'GET', path: `/2/tweets/${post.root.platformId}`, body: envelope('tweet.fields') });
    x.failNext({ status: 400, method: 'GET', path: `/2/tweets/${post.root.platformId}`, body: envelope('post.fields') });
    const both = await caps.analytics!.post!(session, post).catch((e: unknown) => e);
    assert.ok(both instanceof PublishError);
    assert.equal(both.message, 'x: post.fields: The `post.fields` query parameter value [x] is not one of [a,b]');
    assert.deepEqual(readsSince(x, mark), ['tweet.fields 400', 'post.fields 400']);
    // Nothing was learnt: the next read is asked as before.
    mark = x.calls().length;
    await caps.analytics!.post!(session, post);
    assert.deepEqual(readsSince(x, mark), ['tweet.fields 200']);
  });
});
