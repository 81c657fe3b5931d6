// Editing a published Telegram post's texts with the `edit` capability (as PATCH /v1/posts/:id/remote
// calls it): each post is published through Crier first, then edited; the emulator's chat shows what a
// reader of the channel would see — the new text or caption, the edit date, the formatting gone.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AccountSession, NetworkCapabilities } from '../../../src/networks/capabilities.ts';
import type { PublishedPost } from '../../../src/core/post.ts';
import { PublishError } from '../../../src/core/errors.ts';
import { loadDestinations } from '../../../src/engagement/destinations.ts';
import { makeJpeg } from '../../helpers/media.ts';
import { startTelegramStack, type Channel, type TelegramStack } from './setup.ts';

describe('editing a Telegram post', () => {
  let s: TelegramStack;
  let jpeg: Buffer;
  let capabilities: NetworkCapabilities;

  before(async () => {
    s = await startTelegramStack();
    jpeg = await makeJpeg();
    capabilities = s.h.server.networks.capabilities('telegram');
  });
  after(async () => s.close());

  /** The account as a capability calls Telegram with: the chat and the bot's token. */
  const sessionOf = (channel: Channel, token = channel.bot.token): AccountSession => ({
    account: { id: channel.rawId, orgId: s.org.orgId, network: 'telegram', username: channel.username, networkUniqueId: String(channel.chatId), serviceUrl: null, accessToken: null, refreshToken: null, credential: token },
    saveTokens: async () => {},
    userFetch: fetch,
  });

  const postIds = new WeakMap<PublishedPost, string>();

  /** Published through Crier; the post as the engagement routes hand it to a capability. */
  async function published(channel: Channel, body: object): Promise<PublishedPost> {
    const postId = await s.create(channel, body);
    const post = await s.h.stack.waitForPost(s.org, postId);
    assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
    const destination = (await loadDestinations(s.h.server.db, s.org.orgId, postId)).destinations[0]!.post;
    postIds.set(destination, postId);
    return destination;
  }

  const messages = (channel: Channel) => s.tg.chat(channel.chatId)!.messages;
  const message = (channel: Channel, id: string | number) => messages(channel).find((m) => m.messageId === Number(id))!;
  const photo = async (name: string) => ({ url: await s.upload(name, jpeg, 'image/jpeg'), filename: name });

  it('a text message: the new text, an edit date; formatting sent with telegram.content is gone, the link preview stays off', async () => {
    const channel = await s.addChannel();
    const post = await published(channel, {
      containers: [{ content: 'shared text' }],
      telegram: { content: '<b>bold</b> https://example.com', parseMode: 'HTML', disableLinkPreview: true },
    });
    assert.deepEqual(message(channel, post.root.platformId).entities, [{ type: 'bold', offset: 0, length: 4 }]);
    await capabilities.edit!(sessionOf(channel), post, ['plain <b>now</b> https://example.com']);
    const edited = message(channel, post.root.platformId);
    assert.equal(edited.text, 'plain <b>now</b> https://example.com');
    assert.deepEqual(edited.entities, []);
    assert.equal(typeof edited.editDate, 'number');
    assert.equal(edited.linkPreviewDisabled, true);
  });

  it("a photo's caption, and an album's caption on its first message (the others keep none)", async () => {
    const channel = await s.addChannel();
    const single = await published(channel, { containers: [{ content: 'one photo', media: [await photo('p.jpg')] }] });
    await capabilities.edit!(sessionOf(channel), single, ['the photo, captioned anew']);
    assert.equal(message(channel, single.root.platformId).caption, 'the photo, captioned anew');
    assert.equal(message(channel, single.root.platformId).file?.kind, 'photo');

    const album = await published(channel, { containers: [{ content: 'an album', media: [await photo('a.jpg'), await photo('b.jpg')] }] });
    await capabilities.edit!(sessionOf(channel), album, ['the album, captioned anew']);
    const [first, second] = (album.root.ref!.messageIds as number[]).map((id) => message(channel, id));
    assert.equal(first!.caption, 'the album, captioned anew');
    assert.equal(typeof first!.editDate, 'number');
    assert.equal(second!.caption, undefined);
    assert.equal(second!.editDate, undefined);
  });

  it('a post published before its ref said what it carries: a caption is found after Telegram says there is no text', async () => {
    const channel = await s.addChannel();
    const post = await published(channel, { containers: [{ content: 'older photo', media: [await photo('o.jpg')] }] });
    const { files: _files, ...olderRef } = post.root.ref!;
    const older = { ...post, root: { ...post.root, ref: olderRef }, parts: [{ ...post.parts[0]!, ref: olderRef }] };
    await capabilities.edit!(sessionOf(channel), older, ['captioned after a retry']);
    assert.equal(message(channel, post.root.platformId).caption, 'captioned after a retry');
  });

  it("a thread's second part alone: the root stays as it was", async () => {
    const channel = await s.addChannel();
    const post = await published(channel, { containers: [{ content: 'root' }, { content: 'reply' }] });
    await capabilities.edit!(sessionOf(channel), post, [undefined, 'reply, edited']);
    assert.equal(message(channel, post.parts[1]!.platformId).text, 'reply, edited');
    const root = message(channel, post.root.platformId);
    assert.deepEqual([root.text, root.editDate], ['root', undefined]);
  });

  it('the same text: success, nothing changes', async () => {
    const channel = await s.addChannel();
    const post = await published(channel, { containers: [{ content: 'unchanged' }] });
    await capabilities.edit!(sessionOf(channel), post, ['unchanged']);
    const held = message(channel, post.root.platformId);
    assert.deepEqual([held.text, held.editDate], ['unchanged', undefined]);
  });

  it('refusals: a deleted message is not_found, another bot\'s message forbidden, flood control rate_limited with its wait', async () => {
    const channel = await s.addChannel();
    const post = await published(channel, { containers: [{ content: 'to be refused' }] });

    s.tg.floodChat(channel.chatId, 3);
    await assert.rejects(capabilities.edit!(sessionOf(channel), post, ['too fast']), (error: unknown) =>
      error instanceof PublishError && error.code === 'rate_limited' && error.kind === 'retryable' && error.retryAfterMs === 3000);
    assert.equal(message(channel, post.root.platformId).text, 'to be refused');

    // The channel connected again with another administrator bot: it did not send the message.
    const other = s.tg.addBot({ username: `other_editor_${channel.chatId}_bot`.replace('-', '') });
    s.tg.setMember(channel.chatId, other, 'administrator', { can_post_messages: true });
    await assert.rejects(capabilities.edit!(sessionOf(channel, other.token), post, ['not mine']), (error: unknown) =>
      error instanceof PublishError && error.code === 'forbidden' && /message can't be edited/.test(error.message));

    const removed = await s.h.server.request('DELETE', `/v1/posts/${postIds.get(post)}/remote`, { key: s.org.key });
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    await assert.rejects(capabilities.edit!(sessionOf(channel), post, ['gone']), (error: unknown) =>
      error instanceof PublishError && error.code === 'not_found' && /message to edit not found/.test(error.message));
  });

  it('a text over the publish limits is refused before any call: 4,096 UTF-16 units in a message, 1,024 in a caption', async () => {
    const channel = await s.addChannel();
    const text = await published(channel, { containers: [{ content: 'short' }] });
    await capabilities.edit!(sessionOf(channel), text, ['😀'.repeat(2048)]);
    await assert.rejects(capabilities.edit!(sessionOf(channel), text, ['😀'.repeat(2048) + 'x']), (error: unknown) =>
      error instanceof PublishError && error.code === 'invalid' && /4097 characters.*4096/.test(error.message));
    const captioned = await published(channel, { containers: [{ content: 'short', media: [await photo('c.jpg')] }] });
    await assert.rejects(capabilities.edit!(sessionOf(channel), captioned, ['x'.repeat(1025)]), (error: unknown) =>
      error instanceof PublishError && error.code === 'invalid' && /1024 in a caption/.test(error.message));
    assert.equal(message(channel, captioned.root.platformId).caption, 'short');
  });
});
