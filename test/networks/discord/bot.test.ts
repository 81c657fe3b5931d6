// Publishing as a Discord bot over real HTTP: Crier's API and worker, the Discord emulator as Discord.
// Each test checks what the channel (or thread) holds afterwards: the bot as author, replies that
// reference the root, forum posts, threads, files, and the refusals a bot account meets.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeJpeg } from '../../helpers/media.ts';
import { startDiscordStack, type BotAccount, type DiscordStack } from './setup.ts';
import { publishedDestination } from '../../helpers/posting-stack.ts';

describe('publishing to Discord as a bot', () => {
  let s: DiscordStack;
  let jpeg: Buffer;

  before(async () => {
    s = await startDiscordStack();
    jpeg = await makeJpeg();
  });
  after(async () => s.close());

  const destination = (post: any) => post.socialAccounts[0];
  const messages = (account: BotAccount, channelId = account.channel.id) => s.dc.channel(channelId)!.messages;
  const photo = (name: string, altText?: string) => s.media(name, jpeg, 'image/jpeg', altText);

  it('a text post: the bot is the author, the block\'s content, embeds and flags, no mentions; the message id and its link', async () => {
    const account = await s.addBotAccount();
    const dest = publishedDestination(await s.publish(account, { containers: [{ content: 'shared' }], discord: {
      content: 'Release 2.0 @everyone', embeds: [{ title: 'Changelog', description: 'All new' }], suppressEmbeds: true,
    } }));
    const [message] = messages(account);
    assert.deepEqual([message!.botId, message!.webhookId, message!.username], [account.bot.id, undefined, account.bot.username]);
    assert.equal(message!.content, 'Release 2.0 @everyone');
    assert.deepEqual(message!.embeds, [{ title: 'Changelog', description: 'All new' }]);
    assert.equal(message!.flags, 4);
    assert.deepEqual(message!.allowedMentions, { parse: [] });
    assert.equal(typeof message!.nonce, 'string', 'sent with the reservation\'s nonce');
    assert.equal(dest.platformPostId, message!.id);
    assert.equal(dest.platformPostUrl, `https://discord.com/channels/${account.channel.guildId}/${account.channel.id}/${message!.id}`);
  });

  it('files: multipart with payload_json and files[n], each with its alt text', async () => {
    const account = await s.addBotAccount();
    publishedDestination(await s.publish(account, { containers: [{ content: 'pictures', media: [await photo('a.jpg', 'first'), await photo('b.jpg')] }] }));
    const [message] = messages(account);
    assert.deepEqual(message!.attachments.map((a) => [a.filename, a.size, a.description]), [['a.jpg', jpeg.length, 'first'], ['b.jpg', jpeg.length, undefined]]);
  });

  it('a thread of 3: each later container replies to the root, in order', async () => {
    const account = await s.addBotAccount();
    const dest = publishedDestination(await s.publish(account, { containers: [{ content: 'first' }, { content: 'second' }, { content: 'third', media: [await photo('t.jpg')] }] }));
    const sent = messages(account);
    assert.deepEqual(sent.map((m) => [m.content, m.attachments.length]), [['first', 0], ['second', 0], ['third', 1]]);
    assert.equal(dest.platformPostId, sent[0]!.id);
    assert.deepEqual(sent.map((m) => m.reference?.messageId), [undefined, sent[0]!.id, sent[0]!.id]);
  });

  it('a forum: threadName opens a forum post with the root, later containers reply inside it', async () => {
    const account = await s.addBotAccount('forum');
    const dest = publishedDestination(await s.publish(account, { containers: [{ content: 'the idea' }, { content: 'more' }], discord: { threadName: 'An idea' } }));
    const thread = s.dc.channel(dest.platformPostId)!;
    assert.deepEqual([thread.kind, thread.name, thread.parentId], ['publicThread', 'An idea', account.channel.id]);
    assert.deepEqual(thread.messages.map((m) => [m.content, m.reference?.messageId]), [['the idea', undefined], ['more', dest.platformPostId]]);
    assert.match(dest.platformPostUrl, new RegExp(`/${thread.id}/${dest.platformPostId}$`));
  });

  it('a forum without threadName or threadId is refused before any message, saying what to set', async () => {
    const account = await s.addBotAccount('forum');
    const dest = destination(await s.publish(account, { containers: [{ content: 'where to?' }] }));
    assert.equal(dest.status, 'failed');
    assert.match(dest.error, /^discord: the bot's channel #bot-channel-\d+ is a forum: set discord\.threadName/);
  });

  it('threadId: every message goes into that thread, replies to the root', async () => {
    const account = await s.addBotAccount();
    const threadId = s.dc.addThread(account.channel.id, 'weekly');
    publishedDestination(await s.publish(account, { containers: [{ content: 'week 1' }, { content: 'details' }], discord: { threadId } }));
    const inThread = messages(account, threadId);
    assert.deepEqual(inThread.map((m) => [m.content, m.reference?.messageId]), [['week 1', undefined], ['details', inThread[0]!.id]]);
    assert.deepEqual(messages(account), []);
  });

  it('username or avatarUrl (a webhook\'s) is refused for a bot, saying so; nothing is sent', async () => {
    const account = await s.addBotAccount();
    const dest = destination(await s.publish(account, { containers: [{ content: 'x' }], discord: { username: 'Someone', avatarUrl: 'https://example.com/a.png' } }));
    assert.equal(dest.status, 'failed');
    assert.match(dest.error, /^discord: discord\.username and discord\.avatarUrl are a webhook's; this account is a bot, which posts under its own name and avatar/);
    assert.deepEqual(messages(account), []);
  });

  it('429 on Create Message: waited out, the message sent once', async () => {
    const account = await s.addBotAccount();
    // Let through Get Current User and Get Channel, then refuse the send once.
    s.dc.forceRateLimit(account.bot.id, 1.2, { skip: 2 });
    const started = Date.now();
    publishedDestination(await s.publish(account, { containers: [{ content: 'after the limit' }] }));
    assert.ok(Date.now() - started >= 1200, 'waited what Discord asked for');
    assert.deepEqual(messages(account).map((m) => m.content), ['after the limit']);
  });

  it('a channel the bot no longer sees: the destination fails forbidden with Discord\'s reason', async () => {
    const account = await s.addBotAccount();
    const other = s.dc.addChannel({ name: 'elsewhere' });
    const moved = await s.h.server.addAccount(s.org, 'discord', '#elsewhere', { networkUniqueId: `channel:${other.id}`, credential: JSON.stringify({ botToken: account.bot.token, channelId: other.id }) });
    const dest = destination(await s.publish({ ...moved, bot: account.bot, channel: other }, { containers: [{ content: 'x' }] }));
    assert.equal(dest.status, 'failed');
    assert.match(dest.error, /Missing Access: the bot lacks a permission in the channel/);
  });

  it('removed: every message deleted with Delete Message, later first; one already gone counts as removed', async () => {
    const account = await s.addBotAccount();
    const postId = await s.create(account, { containers: [{ content: 'one' }, { content: 'two' }, { content: 'three' }] });
    publishedDestination(await s.h.stack.waitForPost(s.org, postId));
    const [first, second] = messages(account);
    await fetch(`${s.dc.url}/api/v10/channels/${account.channel.id}/messages/${second!.id}`, { method: 'DELETE', headers: { authorization: `Bot ${account.bot.token}` } });
    await fetch(`${s.dc.url}/__emulator/calls`, { method: 'DELETE' });
    const res = await s.h.server.request('DELETE', `/v1/posts/${postId}/remote`, { key: s.org.key });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.data.map((d: any) => d.outcome), ['deleted']);
    assert.deepEqual(messages(account), []);
    const calls = (await (await fetch(`${s.dc.url}/__emulator/calls`)).json() as { calls: any[] }).calls
      .filter((c) => c.method === 'DELETE' && c.path.includes(`/channels/${account.channel.id}/`)).map((c) => [c.path.split('/').pop(), c.status]);
    assert.equal(calls.length, 3);
    assert.deepEqual(calls.slice(1), [[second!.id, 404], [first!.id, 204]], 'the later messages first');
  });
});
