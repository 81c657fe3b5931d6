// Editing a published Discord post's texts with the `edit` capability (as PATCH /v1/posts/:id/remote
// calls it), for a webhook account and a bot account: each post is published through Crier first,
// then edited; the emulator's channel shows what a reader sees — the new content, the edit's
// timestamp, and everything else of the message (embeds, files) as it was.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AccountSession, NetworkCapabilities } from '../../../src/networks/capabilities.ts';
import type { PublishedPost } from '../../../src/core/post.ts';
import { PublishError } from '../../../src/core/errors.ts';
import { loadDestinations } from '../../../src/engagement/destinations.ts';
import { makeJpeg } from '../../helpers/media.ts';
import { startDiscordStack, type BotAccount, type DiscordStack, type Hook } from './setup.ts';

describe('editing a Discord post', () => {
  let s: DiscordStack;
  let jpeg: Buffer;
  let capabilities: NetworkCapabilities;

  before(async () => {
    s = await startDiscordStack();
    jpeg = await makeJpeg();
    capabilities = s.h.server.networks.capabilities('discord');
  });
  after(async () => s.close());

  /** The account as a capability calls Discord with: its stored credential. */
  const sessionOf = (account: Hook | BotAccount, credential: string): AccountSession => ({
    account: { id: account.rawId, orgId: s.org.orgId, network: 'discord', username: account.username, networkUniqueId: 'unused', serviceUrl: null, accessToken: null, refreshToken: null, credential },
    saveTokens: async () => {},
    userFetch: fetch,
  });
  const hookSession = (hook: Hook) => sessionOf(hook, hook.webhook.url);
  const botSession = (account: BotAccount) => sessionOf(account, JSON.stringify({ botToken: account.bot.token, channelId: account.channel.id }));

  /** Published through Crier; the post as the engagement routes hand it to a capability. */
  async function published(account: Hook | BotAccount, body: object): Promise<PublishedPost> {
    const postId = await s.create(account, body);
    const post = await s.h.stack.waitForPost(s.org, postId);
    assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
    return (await loadDestinations(s.h.server.db, s.org.orgId, postId)).destinations[0]!.post;
  }

  it('a webhook\'s message: the new content and an edit timestamp; its embed and file stay', async () => {
    const hook = await s.addHook();
    const post = await published(hook, {
      containers: [{ content: 'typo', media: [{ url: await s.upload('p.jpg', jpeg, 'image/jpeg'), filename: 'p.jpg' }] }],
      discord: { embeds: [{ title: 'Kept' }] },
    });
    await capabilities.edit!(hookSession(hook), post, ['fixed @everyone']);
    const message = s.dc.message(post.root.platformId)!;
    assert.equal(message.content, 'fixed @everyone');
    assert.equal(typeof message.editedTimestamp, 'string');
    assert.deepEqual([message.embeds.map((e) => e.title), message.attachments.map((a) => a.filename)], [['Kept'], ['p.jpg']]);
    assert.deepEqual(message.allowedMentions, { parse: [] });
  });

  it('a webhook\'s forum post: each part edited in its thread (thread_id); a part left undefined stays', async () => {
    const hook = await s.addHook({ channelKind: 'forum' });
    const post = await published(hook, { containers: [{ content: 'one' }, { content: 'two' }, { content: 'three' }], discord: { threadName: 'Edited' } });
    await capabilities.edit!(hookSession(hook), post, ['ONE', undefined, 'THREE']);
    const thread = s.dc.channel(s.dc.message(post.root.platformId)!.channelId)!;
    assert.deepEqual(thread.messages.map((m) => [m.content, m.editedTimestamp !== null]), [['ONE', true], ['two', false], ['THREE', true]]);
  });

  it('a bot\'s thread of replies: each message edited with Edit Message', async () => {
    const account = await s.addBotAccount();
    const post = await published(account, { containers: [{ content: 'root' }, { content: 'reply' }] });
    await capabilities.edit!(botSession(account), post, ['root, edited', 'reply, edited']);
    const sent = s.dc.channel(account.channel.id)!.messages;
    assert.deepEqual(sent.map((m) => [m.content, typeof m.editedTimestamp, m.reference?.messageId]), [['root, edited', 'string', undefined], ['reply, edited', 'string', sent[0]!.id]]);
  });

  it('a bot\'s forum post: edited in its thread', async () => {
    const account = await s.addBotAccount('forum');
    const post = await published(account, { containers: [{ content: 'idea' }], discord: { threadName: 'Idea' } });
    await capabilities.edit!(botSession(account), post, ['better idea']);
    assert.equal(s.dc.channel(post.root.platformId)!.messages[0]!.content, 'better idea');
  });

  it('a message deleted in Discord: not_found', async () => {
    const account = await s.addBotAccount();
    const post = await published(account, { containers: [{ content: 'doomed' }] });
    await fetch(`${s.dc.url}/api/v10/channels/${account.channel.id}/messages/${post.root.platformId}`, { method: 'DELETE', headers: { authorization: `Bot ${account.bot.token}` } });
    await assert.rejects(capabilities.edit!(botSession(account), post, ['too late']), (error: unknown) => error instanceof PublishError && error.code === 'not_found');
  });
});
