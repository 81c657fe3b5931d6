// Deleting a post from Telegram through DELETE /v1/posts/:id/remote: every message Crier sent —
// the thread's replies first, each of an album's messages — goes with deleteMessage; a message
// past Telegram's 48 hours cannot be deleted, and the destination says so.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeJpeg } from '../../helpers/media.ts';
import { startTelegramStack, type TelegramStack } from './setup.ts';

describe('deleting a Telegram post', () => {
  let s: TelegramStack;
  let jpeg: Buffer;

  before(async () => {
    s = await startTelegramStack();
    jpeg = await makeJpeg();
  });
  after(async () => s.close());

  const remove = (postId: string) => s.h.server.request('DELETE', `/v1/posts/${postId}/remote`, { key: s.org.key });

  it('a thread whose root is an album: every message deleted, the destination shows deleted', async () => {
    const channel = await s.addChannel();
    const photo = async (name: string) => ({ url: await s.upload(name, jpeg, 'image/jpeg'), filename: name });
    const postId = await s.create(channel, { containers: [{ content: 'album', media: [await photo('a.jpg'), await photo('b.jpg')] }, { content: 'reply' }] });
    const post = await s.h.stack.waitForPost(s.org, postId);
    assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
    assert.equal(s.tg.chat(channel.chatId)!.messages.length, 3);
    const removed = await remove(postId);
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.deepEqual(removed.body.data.map((d: any) => d.outcome), ['deleted']);
    assert.deepEqual(s.tg.chat(channel.chatId)!.messages, []);
    const read = await s.h.server.request('GET', `/v1/posts/${postId}`, { key: s.org.key });
    assert.equal(read.body.post.socialAccounts[0].status, 'deleted');
  });

  it('after 48 hours Telegram refuses: the post stays and the reason names the window', async () => {
    const channel = await s.addChannel();
    const postId = await s.create(channel, { containers: [{ content: 'too old to delete' }] });
    await s.h.stack.waitForPost(s.org, postId);
    s.tg.advanceClock(49 * 3600_000);
    const removed = await remove(postId);
    assert.notEqual(removed.body.data?.[0]?.outcome, 'deleted', JSON.stringify(removed.body));
    assert.match(JSON.stringify(removed.body), /message can't be deleted.*48 hours/);
    assert.equal(s.tg.chat(channel.chatId)!.messages.length, 1);
    s.tg.advanceClock(-49 * 3600_000);
  });
});
