// Publishing through a Discord channel webhook over real HTTP: Crier's API and worker, the Discord
// emulator as Discord, and what Crier reports. Each test checks what the channel (or thread) holds
// afterwards: contents, names, embeds, flags, files and where each message went.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeJpeg } from '../../helpers/media.ts';
import { startDiscordStack, type DiscordStack, type Hook } from './setup.ts';
import { publishedDestination } from '../../helpers/posting-stack.ts';

describe('publishing to Discord', () => {
  let s: DiscordStack;
  let jpeg: Buffer;

  before(async () => {
    s = await startDiscordStack();
    jpeg = await makeJpeg();
  });
  after(async () => s.close());

  const destination = (post: any) => post.socialAccounts[0];
  const messages = (hook: Hook, channelId = hook.webhook.channelId) => s.dc.channel(channelId)!.messages;
  const photo = (name: string, altText?: string) => s.media(name, jpeg, 'image/jpeg', altText);

  it('a text post: the block\'s content, name, avatar, embeds and flags; the message id and its link', async () => {
    const hook = await s.addHook();
    const dest = publishedDestination(await s.publish(hook, { containers: [{ content: 'shared text' }], discord: {
      content: 'Release 2.0 is out @everyone', username: 'Release notes', avatarUrl: 'https://example.com/avatar.png',
      embeds: [{ title: 'Changelog', description: 'Everything new', url: 'https://example.com/changes', color: 0x5865f2 }],
      suppressEmbeds: true, flags: 4096,
    } }));
    const [message] = messages(hook);
    assert.equal(message!.content, 'Release 2.0 is out @everyone');
    assert.deepEqual([message!.username, message!.avatarUrl], ['Release notes', 'https://example.com/avatar.png']);
    assert.deepEqual(message!.embeds, [{ title: 'Changelog', description: 'Everything new', url: 'https://example.com/changes', color: 0x5865f2 }]);
    assert.equal(message!.flags, 4096 | 4);
    assert.deepEqual(message!.allowedMentions, { parse: [] }, 'nobody is pinged by a published post');
    assert.equal(dest.platformPostId, message!.id);
    assert.match(dest.platformPostUrl, new RegExp(`^https://discord\\.com/channels/\\d+/${hook.webhook.channelId}/${message!.id}$`));
  });

  it('files: uploaded as multipart (payload_json and files[n]), each with its alt text as the description', async () => {
    const hook = await s.addHook();
    publishedDestination(await s.publish(hook, { containers: [{ content: 'two pictures', media: [await photo('one.jpg', 'the first'), await photo('two.jpg')] }] }));
    const [message] = messages(hook);
    assert.equal(message!.content, 'two pictures');
    assert.deepEqual(message!.attachments.map((a) => [a.filename, a.size, a.contentType, a.description]), [['one.jpg', jpeg.length, 'image/jpeg', 'the first'], ['two.jpg', jpeg.length, 'image/jpeg', undefined]]);
  });

  it('a thread of containers: the root then each later container as a message of its own, in order, in the channel', async () => {
    const hook = await s.addHook();
    const post = publishedDestination(await s.publish(hook, { containers: [{ content: 'first' }, { content: 'second' }, { content: 'third', media: [await photo('t.jpg')] }] }));
    const sent = messages(hook);
    assert.deepEqual(sent.map((m) => [m.content, m.attachments.length]), [['first', 0], ['second', 0], ['third', 1]]);
    assert.equal(post.platformPostId, sent[0]!.id);
  });

  it('a forum post: threadName opens it with the root, and every later container is sent into it', async () => {
    const hook = await s.addHook({ channelKind: 'forum' });
    const dest = publishedDestination(await s.publish(hook, { containers: [{ content: 'the idea' }, { content: 'more on it' }], discord: { threadName: 'A new idea' } }));
    const [root] = messages(hook, dest.platformPostId);
    const thread = s.dc.channel(root!.channelId)!;
    assert.deepEqual([thread.kind, thread.name, thread.parentId], ['publicThread', 'A new idea', hook.webhook.channelId]);
    assert.deepEqual(thread.messages.map((m) => m.content), ['the idea', 'more on it']);
    assert.deepEqual(messages(hook), [], 'nothing in the forum itself');
    assert.match(dest.platformPostUrl, new RegExp(`/${thread.id}/${root!.id}$`));
  });

  it('threadId: every message of the post goes into that existing thread', async () => {
    const hook = await s.addHook();
    const threadId = s.dc.addThread(hook.webhook.channelId, 'weekly');
    publishedDestination(await s.publish(hook, { containers: [{ content: 'week 1' }, { content: 'details' }], discord: { threadId } }));
    assert.deepEqual(messages(hook, threadId).map((m) => m.content), ['week 1', 'details']);
    assert.deepEqual(messages(hook), []);
  });

  it('a forum webhook without threadName: Discord\'s 220001, said with what to set', async () => {
    const hook = await s.addHook({ channelKind: 'forum' });
    const dest = destination(await s.publish(hook, { containers: [{ content: 'where does this go?' }] }));
    assert.equal(dest.status, 'failed');
    assert.match(dest.error, /^discord: Webhooks posted to forum channels must have a thread_name or thread_id: the webhook's channel is a forum; set discord\.threadName/);
  });

  it('429: the destination waits retry_after (a float of seconds), then publishes once', async () => {
    const hook = await s.addHook();
    s.dc.forceRateLimit(hook.webhook.id, 1.5, { calls: 2 });
    const started = Date.now();
    publishedDestination(await s.publish(hook, { containers: [{ content: 'after the limit' }] }));
    assert.ok(Date.now() - started >= 1500, 'waited what Discord asked for');
    assert.deepEqual(messages(hook).map((m) => m.content), ['after the limit']);
  });

  it('429 on a follow-up: the root is not sent again, the follow-up waits and goes once, then the rest', async () => {
    const hook = await s.addHook();
    // Let through the webhook read and the root's execution, then refuse the next execution once.
    s.dc.forceRateLimit(hook.webhook.id, 1, { skip: 2 });
    publishedDestination(await s.publish(hook, { containers: [{ content: 'root' }, { content: 'limited' }, { content: 'last' }] }));
    assert.deepEqual(messages(hook).map((m) => m.content), ['root', 'limited', 'last']);
    const calls = (await (await fetch(`${s.dc.url}/__emulator/calls`)).json() as { calls: any[] }).calls
      .filter((c) => c.method === 'POST' && c.path.includes(hook.webhook.id)).map((c) => c.status);
    assert.deepEqual(calls, [200, 429, 200, 200]);
  });

  it('a burst of 12 posts to a webhook taking 2 a second: each goes once, none fails, though most are refused more times than the attempts allowed', async () => {
    const hook = await s.addHook();
    s.dc.setBucket(2, 1000);
    try {
      const ids = await Promise.all(Array.from({ length: 12 }, (_, i) => s.create(hook, { containers: [{ content: `burst ${i}` }] })));
      const posts = await Promise.all(ids.map((id) => s.h.stack.waitForPost(s.org, id, undefined, 60_000)));
      for (const post of posts) publishedDestination(post);
      assert.deepEqual(messages(hook).map((m) => m.content).sort(), Array.from({ length: 12 }, (_, i) => `burst ${i}`).sort());
      // Two a second for 12: the last waited through five refusals or more (5 attempts allowed),
      // each of which the network certainly did not carry out: counted as refusals, not as tries.
      const targets = (await s.h.server.db.query(
        `SELECT t.attempt_count, t.refusals, (SELECT count(*) FROM attempts a WHERE a.target_id = t.id AND a.outcome = 'retry')::int AS refused
           FROM targets t WHERE t.account_id = $1`, [hook.rawId])).rows;
      assert.ok(targets.every((t) => t.refusals === t.refused && t.attempt_count === t.refused + 1), JSON.stringify(targets));
      assert.ok(Math.max(...targets.map((t) => t.refused)) >= 5, `refusals per post: ${targets.map((t) => t.refused).join(', ')}`);
    } finally {
      s.dc.setBucket(5, 2000);
    }
  });

  it('a deleted webhook: the destination fails saying so, and the account is disconnected', async () => {
    const hook = await s.addHook();
    s.dc.deleteWebhook(hook.webhook.id);
    const dest = destination(await s.publish(hook, { containers: [{ content: 'nobody will see this' }] }));
    assert.equal(dest.status, 'failed');
    assert.match(dest.error, /^discord: the webhook is gone or its token was refused \(Unknown Webhook\); make a new webhook/);
    const row = (await s.h.server.db.query('SELECT is_active FROM social_accounts WHERE id = $1', [hook.rawId])).rows[0];
    assert.equal(row.is_active, false);
  });

  it('a file over the upload limit (25 MiB) fails the destination before anything is sent, naming its size', async () => {
    const hook = await s.addHook();
    const big = Buffer.concat([jpeg, Buffer.alloc(25 * 1024 * 1024 + 1 - jpeg.length)]);
    const dest = destination(await s.publish(hook, { containers: [{ content: 'too big', media: [{ url: await s.upload('big.jpg', big, 'image/jpeg'), filename: 'big.jpg' }] }] }));
    assert.equal(dest.status, 'failed');
    assert.match(dest.error, new RegExp(`big\\.jpg is ${big.length} bytes; Discord takes files up to ${25 * 1024 * 1024} bytes`));
    assert.deepEqual(messages(hook), []);
  });

  it('what Discord cannot send is refused at create, before any call', async () => {
    const hook = await s.addHook();
    const refusal = async (body: object) => {
      const res = await s.h.server.request('POST', '/v1/posts', { key: s.org.key, body: { accounts: [hook.id], ...body } });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      return res.body.details as { field: string; message: string }[];
    };
    const pic = await photo('p.jpg');
    assert.match((await refusal({ containers: [{ content: 'x'.repeat(2001) }] }))[0]!.message, /container 1 is 2001 characters; a Discord message takes 2000/);
    assert.match((await refusal({ containers: [{ content: 'eleven', media: Array(11).fill(pic) }] }))[0]!.message, /container 1 has 11 files; a Discord message takes 10 at most/);
    assert.deepEqual((await refusal({ containers: [{ content: 'x' }], discord: { threadName: 'a', threadId: '123' } }))[0]!.field, 'discord.threadId');
    assert.deepEqual((await refusal({ containers: [{ content: 'x' }], discord: { flags: 1 } }))[0]!.field, 'discord.flags');
    assert.deepEqual((await refusal({ containers: [{ content: 'x' }], discord: { threadName: 'n'.repeat(101) } }))[0]!.field, 'discord.threadName');
    assert.deepEqual((await refusal({ containers: [{ content: 'x' }], discord: { embeds: Array(11).fill({ title: 't' }) } }))[0]!.field, 'discord.embeds');
    assert.deepEqual(messages(hook), []);
  });
});
