// Deleting a post from Discord through DELETE /v1/posts/:id/remote: every message Crier sent (later
// containers first) goes with Delete Webhook Message, in its thread when it is in one; a message
// someone already deleted counts as gone.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startDiscordStack, type DiscordStack } from './setup.ts';

describe('deleting a Discord post', () => {
  let s: DiscordStack;

  before(async () => {
    s = await startDiscordStack();
  });
  after(async () => s.close());

  const remove = (postId: string) => s.h.server.request('DELETE', `/v1/posts/${postId}/remote`, { key: s.org.key });

  it('a forum post of two messages: both deleted (with thread_id), later first; the destination shows deleted', async () => {
    const hook = await s.addHook({ channelKind: 'forum' });
    const postId = await s.create(hook, { containers: [{ content: 'root' }, { content: 'follow-up' }], discord: { threadName: 'Short-lived' } });
    const post = await s.h.stack.waitForPost(s.org, postId);
    const dest = post.socialAccounts[0];
    assert.equal(dest.status, 'published', dest.error);
    const threadId = s.dc.message(dest.platformPostId)!.channelId;
    assert.equal(s.dc.channel(threadId)!.messages.length, 2);
    await fetch(`${s.dc.url}/__emulator/calls`, { method: 'DELETE' });
    const removed = await remove(postId);
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.deepEqual(removed.body.data.map((d: any) => d.outcome), ['deleted']);
    assert.deepEqual(s.dc.channel(threadId)!.messages, []);
    const calls = (await (await fetch(`${s.dc.url}/__emulator/calls`)).json() as { calls: any[] }).calls.filter((c) => c.method === 'DELETE');
    assert.deepEqual(calls.map((c) => [c.query.thread_id?.[0], c.status]), [[threadId, 204], [threadId, 204]]);
    const read = await s.h.server.request('GET', `/v1/posts/${postId}`, { key: s.org.key });
    assert.equal(read.body.post.socialAccounts[0].status, 'deleted');
  });

  it('a message already deleted in Discord: the rest deleted, the post shows deleted', async () => {
    const hook = await s.addHook();
    const postId = await s.create(hook, { containers: [{ content: 'one' }, { content: 'two' }] });
    const post = await s.h.stack.waitForPost(s.org, postId);
    const [root] = s.dc.channel(hook.webhook.channelId)!.messages;
    await fetch(`${s.dc.url}/api/v10/webhooks/${hook.webhook.id}/${hook.webhook.token}/messages/${root!.id}`, { method: 'DELETE' });
    assert.equal(post.socialAccounts[0].status, 'published');
    const removed = await remove(postId);
    assert.deepEqual(removed.body.data.map((d: any) => d.outcome), ['deleted'], JSON.stringify(removed.body));
    assert.deepEqual(s.dc.channel(hook.webhook.channelId)!.messages, []);
  });

  it('a thread longer than the webhook bucket: the 429 in between is waited out, every message deleted', async () => {
    const hook = await s.addHook();
    const postId = await s.create(hook, { containers: ['1', '2', '3', '4', '5', '6', '7'].map((content) => ({ content })) });
    assert.equal((await s.h.stack.waitForPost(s.org, postId)).socialAccounts[0].status, 'published');
    s.dc.setBucket(3, 1000);
    const removed = await remove(postId);
    s.dc.setBucket(5, 2000);
    assert.deepEqual(removed.body.data.map((d: any) => d.outcome), ['deleted'], JSON.stringify(removed.body));
    assert.deepEqual(s.dc.channel(hook.webhook.channelId)!.messages, []);
  });
});
