// Trying engagement in the sandbox (`crier start --sandbox`, a real process): someone comments on a
// published post on its emulator (POST /v1/sandbox/posts/:id/comments), GET …/replies shows the
// comment at once (the 30 s list cache forgotten), the account answers it through Crier, and the
// commenter answers back; where the network pushes comments, comment.received reaches the built-in
// inbox. And what the sandbox routes refuse.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, test } from 'node:test';
import { freePort } from '../../src/db/embedded.ts';
import { runSandbox, sandboxApi, waitForSettledPost, type SandboxRun } from '../helpers/sandbox.ts';
import { makeJpeg, makeVideo } from '../helpers/media.ts';

let dataDir: string;
let env: Record<string, string | undefined>;
let api: ReturnType<typeof sandboxApi>;

before(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'crier-sandbox-engagement-'));
  env = { CRIER_DATA_DIR: dataDir, DATABASE_URL: undefined, PORT: String(await freePort()), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
  api = sandboxApi(env);
});
after(() => rm(dataDir, { recursive: true, force: true }));

/**
 * The networks whose sandbox takes comments: what a post to them needs besides its text, and how a
 * comment's text reads back (X's replies start with the handle they answer, as X's apps write them).
 */
const COMMENTED: Record<string, { media?: 'image' | 'video'; block?: Record<string, unknown>; shown?: (text: string, account: string) => string }> = {
  x: { shown: (text, account) => `@${account} ${text}` },
  threads: {},
  linkedin: {},
  bluesky: {},
  facebook: {},
  reddit: { block: { reddit: { subreddit: 'crier_sandbox', title: 'Tell us what you think' } } },
  youtube: { media: 'video' },
  vimeo: { media: 'video' },
  instagram: { media: 'image' },
};
const shown = (network: string, text: string, account: string) => COMMENTED[network]!.shown?.(text, account) ?? text;

const accountOf = (run: SandboxRun, network: string) => run.accounts.find((a) => a.network === network)!;
const json = (body: object) => ({ method: 'POST', body: JSON.stringify(body) });

/** Every reply of a Reply tree, flattened. */
const flatten = (replies: any[]): any[] => replies.flatMap((r) => [r, ...flatten(r.replies ?? [])]);

test('someone comments on a published post: the replies show it at once, the account answers, the commenter answers back', async (t) => {
  const run = await runSandbox(t, env);
  // One post per kind of media the networks need, each to every network that takes it.
  const posts = new Map<string, string>();
  for (const media of [undefined, 'image', 'video'] as const) {
    const group = Object.keys(COMMENTED).filter((network) => COMMENTED[network]!.media === media);
    if (!group.length) continue;
    const attached = media ? [{ url: await uploaded(run, media), filename: media === 'image' ? 'photo.jpg' : 'clip.mp4' }] : [];
    const created = await api('/v1/posts', run.key, json({
      accounts: group.map((network) => accountOf(run, network).id),
      containers: [{ content: 'Tell us what you think', media: attached }],
      ...Object.assign({}, ...group.map((network) => COMMENTED[network]!.block ?? {})),
    }));
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const settled = await waitForSettledPost(api, run.key, created.body.post.id, 90);
    assert.deepEqual(settled.socialAccounts.map((a: any) => [a.network, a.status, a.error ?? null]), group.map((n) => [n, 'published', null]));
    for (const network of group) posts.set(network, created.body.post.id);
  }

  for (const [network, postId] of posts) {
    // Read first: the empty list is cached, and the comment must show anyway.
    const before = await api(`/v1/posts/${postId}/replies?network=${network}`, run.key);
    assert.equal(before.status, 200, `${network}: ${JSON.stringify(before.body)}`);
    assert.deepEqual(before.body.data, [], network);

    const comment = await api(`/v1/sandbox/posts/${postId}/comments`, run.key, json({ network, text: `Love it (${network})`, author: 'fan_one' }));
    assert.equal(comment.status, 201, `${network}: ${JSON.stringify(comment.body)}`);
    assert.equal(comment.body.network, network);
    // The guide lists handles without their @, which a YouTube username keeps.
    assert.equal(comment.body.username.replace(/^@/, ''), accountOf(run, network).username);
    const commentId = comment.body.comment_id;

    const listed = await api(`/v1/posts/${postId}/replies?network=${network}`, run.key);
    const account = accountOf(run, network).username;
    assert.deepEqual(listed.body.data.map((r: any) => [r.id, r.text]), [[commentId, shown(network, `Love it (${network})`, account)]], network);

    const answer = await api(`/v1/posts/${postId}/replies`, run.key, json({ network, content: 'Thank you!', parent_comment_id: commentId }));
    assert.equal(answer.status, 200, `${network}: ${JSON.stringify(answer.body)}`);
    const back = await api(`/v1/sandbox/posts/${postId}/comments`, run.key, json({ network, text: 'You are welcome', author: 'fan_one', parent_comment_id: answer.body.reply_id }));
    assert.equal(back.status, 201, `${network}: ${JSON.stringify(back.body)}`);

    const tree = await api(`/v1/posts/${postId}/replies?network=${network}&include_replies=true`, run.key);
    const all = flatten(tree.body.data);
    assert.deepEqual(tree.body.data.map((r: any) => r.id), [commentId], `${network}: one top-level comment`);
    const expected = [[commentId, shown(network, `Love it (${network})`, account)], [answer.body.reply_id, 'Thank you!'], [back.body.comment_id, shown(network, 'You are welcome', account)]];
    for (const [id, text] of expected) assert.equal(all.find((r) => r.id === id)?.text, text, `${network}: ${text}`);
  }
});

/** A file uploaded through the media API: its URL. */
async function uploaded(run: SandboxRun, media: 'image' | 'video'): Promise<string> {
  const filename = media === 'image' ? 'photo.jpg' : 'clip.mp4';
  const upload = await api('/v1/media/upload', run.key, json({ filename }));
  const bytes = media === 'image' ? await makeJpeg('1080x1080') : await makeVideo({ seconds: 2, size: '640x360', rate: 30 });
  const put = await fetch(upload.body.data.upload_url, { method: 'PUT', body: new Uint8Array(bytes) });
  assert.ok(put.ok, `PUT ${put.status}`);
  return (await api(`/v1/media/${upload.body.data.id}/confirm`, run.key, json({}))).body.data.url;
}

test('what the sandbox routes refuse: an unknown post, a blank text, a destination without comments, messages to an account without them', async (t) => {
  const run = await runSandbox(t, env);
  const unknown = await api('/v1/sandbox/posts/nope/comments', run.key, json({ text: 'hi' }));
  assert.equal(unknown.status, 404);

  const created = await api('/v1/posts', run.key, json({ accounts: [accountOf(run, 'google_business').id, accountOf(run, 'x').id], content: 'Opening hours' }));
  const postId = created.body.post.id;
  await waitForSettledPost(api, run.key, postId, 30);
  const blank = await api(`/v1/sandbox/posts/${postId}/comments`, run.key, json({ text: '   ' }));
  assert.equal(blank.status, 400);
  assert.deepEqual(blank.body.details.map((d: any) => d.field), ['text']);
  const badAuthor = await api(`/v1/sandbox/posts/${postId}/comments`, run.key, json({ text: 'hi', author: 'not a handle!' }));
  assert.equal(badAuthor.status, 400);
  const onGoogle = await api(`/v1/sandbox/posts/${postId}/comments`, run.key, json({ text: 'hi', network: 'google_business' }));
  assert.equal(onGoogle.status, 400);
  assert.equal(onGoogle.body.code, 'replies_not_supported');
  // Without a network, the destination with comments is the one meant (as for GET …/replies).
  const chosen = await api(`/v1/sandbox/posts/${postId}/comments`, run.key, json({ text: 'hi' }));
  assert.equal(chosen.status, 201, JSON.stringify(chosen.body));
  assert.equal(chosen.body.network, 'x');
  assert.equal(chosen.body.username, accountOf(run, 'x').username);

  const toX = await api(`/v1/sandbox/social-accounts/${accountOf(run, 'x').id}/messages`, run.key, json({ text: 'hello' }));
  assert.equal(toX.status, 400);
  assert.equal(toX.body.code, 'messages_not_supported');
  const toNobody = await api('/v1/sandbox/social-accounts/nope/messages', run.key, json({ text: 'hello' }));
  assert.equal(toNobody.status, 404);
  await sleep(0);
});

/** The inbox's deliveries of `event` until `found` picks one (about 10 s), else undefined. */
async function inboxEvent(key: string, event: string, found: (data: any) => boolean): Promise<any> {
  for (let i = 0; i < 100; i++) {
    const listed = await api('/v1/sandbox/webhook-inbox?limit=100', key);
    const delivery = listed.body.data.find((e: any) => e.event === event && found(e.body?.data ?? {}));
    if (delivery) return delivery.body.data;
    await sleep(100);
  }
  return undefined;
}

test('where the network pushes them: a sandbox comment reaches the inbox as comment.received, and a direct message to Instagram becomes a conversation with message.received', async (t) => {
  const run = await runSandbox(t, env);
  const inbox = run.crier.output().match(/"url":"(http:\/\/\S+\/sandbox\/webhook-inbox)"/)![1]!;
  const hook = await api('/v1/webhooks', run.key, json({ name: 'inbox', url: inbox, events: ['comment.received', 'message.received', 'conversation.started'] }));
  assert.equal(hook.status, 201, JSON.stringify(hook.body));

  const image = await uploaded(run, 'image');
  const created = await api('/v1/posts', run.key, json({
    accounts: [accountOf(run, 'threads').id, accountOf(run, 'instagram').id],
    containers: [{ content: 'Comments welcome', media: [{ url: image, filename: 'photo.jpg' }] }],
  }));
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const postId = created.body.post.id;
  const settled = await waitForSettledPost(api, run.key, postId, 60);
  assert.deepEqual(settled.socialAccounts.map((a: any) => [a.network, a.status, a.error ?? null]), [['threads', 'published', null], ['instagram', 'published', null]]);

  for (const network of ['threads', 'instagram']) {
    const text = `Pushed to Crier (${network})`;
    const comment = await api(`/v1/sandbox/posts/${postId}/comments`, run.key, json({ network, text, author: 'fan_two' }));
    assert.equal(comment.status, 201, `${network}: ${JSON.stringify(comment.body)}`);
    const received = await inboxEvent(run.key, 'comment.received', (data) => data.commentId === comment.body.comment_id);
    assert.ok(received, `${network}: comment.received in the inbox`);
    assert.deepEqual(
      [received.network, received.accountId, received.postId, received.text, received.authorUsername, received.parentCommentId],
      [network, accountOf(run, network).id, postId, text, 'fan_two', null],
    );
  }

  const instagram = accountOf(run, 'instagram');
  const message = await api(`/v1/sandbox/social-accounts/${instagram.id}/messages`, run.key, json({ text: 'Is this in stock?', from: 'fan_two' }));
  assert.equal(message.status, 201, JSON.stringify(message.body));
  assert.equal(message.body.network, 'instagram');
  const messageId = message.body.message_id;

  let conversations: any[] = [];
  let messages: any[] = [];
  for (let i = 0; i < 100 && !messages.some((m) => m.platformMessageId === messageId); i++) {
    const listed = await api(`/v1/conversations?social_account_id=${instagram.id}`, run.key);
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    conversations = listed.body.data;
    if (conversations.length) messages = (await api(`/v1/conversations/${conversations[0].id}/messages`, run.key)).body.data;
    if (!messages.some((m) => m.platformMessageId === messageId)) await sleep(100);
  }
  assert.equal(conversations.length, 1, JSON.stringify(conversations));
  assert.deepEqual(messages.map((m) => [m.direction, m.status, m.text, m.platformMessageId]), [['in', 'received', 'Is this in stock?', messageId]]);
  const conversation = conversations[0];

  const received = await inboxEvent(run.key, 'message.received', (data) => data.conversationId === conversation.id);
  assert.ok(received, 'message.received in the inbox');
  assert.deepEqual([received.network, received.content, received.senderId, received.messageId], ['instagram', 'Is this in stock?', conversation.participantId, messages[0].id]);
  assert.ok(await inboxEvent(run.key, 'conversation.started', (data) => data.conversationId === conversation.id), 'conversation.started in the inbox');
});
