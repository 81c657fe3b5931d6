// Discord's own REST client for Node, `@discordjs/rest` (the REST layer of discord.js, maintained by
// the discord.js team; Discord publishes no official JS client), run unchanged against the emulator:
// its documented `api` option points it there (https://discord.js.org/docs/packages/rest/main/RESTOptions:Interface#api).
// Webhook routes are called with `auth: false` (the token is in the path); bot routes with the client's
// token (`setToken`, sent as `Authorization: Bot <token>`). It sends JSON, or multipart
// with payload_json and files[n] for files; it reads the X-RateLimit-* headers and waits out a 429
// itself; it throws DiscordAPIError (code, status, rawError) on a refusal.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DiscordAPIError, REST } from '@discordjs/rest';
import { startDiscordEmulator, type DiscordEmulator, type WebhookView } from '../../emulators/discord/server.ts';
import { makeJpeg } from '../helpers/media.ts';

let dc: DiscordEmulator;
let hook: WebhookView;
let rest: REST;
let route: `/${string}`;
const wait = new URLSearchParams({ wait: 'true' });

before(async () => {
  dc = await startDiscordEmulator();
  hook = dc.addWebhook({ name: 'discord.js hook', channelName: 'releases' });
  rest = new REST({ api: `${dc.url}/api`, version: '10' });
  route = `/webhooks/${hook.id}/${hook.token}`;
});
after(async () => {
  rest.clearHashSweeper();
  rest.clearHandlerSweeper();
  await dc.close();
});

const stored = () => dc.channel(hook.channelId)!.messages;

describe('@discordjs/rest against the Discord emulator', () => {
  test('reads the webhook with its token', async () => {
    const webhook = await rest.get(route, { auth: false }) as { id: string; name: string; channel_id: string };
    assert.deepEqual([webhook.id, webhook.name, webhook.channel_id], [hook.id, 'discord.js hook', hook.channelId]);
  });

  test('executes with wait: the message it answers is the one the channel holds', async () => {
    const message = await rest.post(route, { auth: false, query: wait, body: { content: 'v1.0 is out', username: 'Release bot' } }) as { id: string; content: string; author: { username: string } };
    assert.equal(message.content, 'v1.0 is out');
    assert.equal(message.author.username, 'Release bot');
    const [held] = stored().filter((m) => m.id === message.id);
    assert.deepEqual([held!.content, held!.username], ['v1.0 is out', 'Release bot']);
  });

  test('a file: multipart with payload_json and files[0], the attachment with its description', async () => {
    const jpeg = await makeJpeg();
    const message = await rest.post(route, {
      auth: false, query: wait,
      body: { content: 'a picture', attachments: [{ id: 0, description: 'the release banner' }] },
      files: [{ name: 'banner.jpg', data: jpeg, contentType: 'image/jpeg' }],
    }) as { id: string; attachments: { filename: string; size: number; description?: string }[] };
    assert.deepEqual(message.attachments.map((a) => [a.filename, a.size, a.description]), [['banner.jpg', jpeg.length, 'the release banner']]);
    assert.equal(dc.message(message.id)!.attachments[0]!.contentType, 'image/jpeg');
  });

  test('edits then deletes a message', async () => {
    const message = await rest.post(route, { auth: false, query: wait, body: { content: 'typo' } }) as { id: string };
    const edited = await rest.patch(`${route}/messages/${message.id}`, { auth: false, body: { content: 'fixed' } }) as { content: string; edited_timestamp: string | null };
    assert.equal(edited.content, 'fixed');
    assert.ok(edited.edited_timestamp);
    assert.equal(dc.message(message.id)!.content, 'fixed');
    await rest.delete(`${route}/messages/${message.id}`, { auth: false });
    assert.equal(dc.message(message.id), undefined);
  });

  test('a refusal is a DiscordAPIError with Discord\'s code and nested errors', async () => {
    await assert.rejects(rest.post(route, { auth: false, query: wait, body: { content: 'x'.repeat(2001) } }), (error: unknown) => {
      assert.ok(error instanceof DiscordAPIError);
      assert.equal(error.code, 50035);
      assert.equal(error.status, 400);
      assert.match(error.message, /content\[BASE_TYPE_MAX_LENGTH\]: Must be 2000 or fewer in length/);
      return true;
    });
  });

  test('a 429 with retry_after: the client waits it out and sends again, once', async () => {
    const before = stored().length;
    dc.forceRateLimit(hook.id, 0.3);
    const started = Date.now();
    const message = await rest.post(route, { auth: false, query: wait, body: { content: 'after the limit' } }) as { id: string };
    assert.ok(Date.now() - started >= 250, 'it waited the retry_after');
    assert.equal(stored().length, before + 1);
    assert.equal(dc.message(message.id)!.content, 'after the limit');
  });
});

describe('@discordjs/rest as a bot against the Discord emulator', () => {
  let bot: REST;
  let channelId: string;
  let botId: string;
  before(() => {
    const made = dc.addBot({ username: 'discord.js bot' });
    botId = made.id;
    channelId = dc.addChannel({ name: 'bots' }).id;
    dc.grantChannel(made.id, channelId);
    bot = new REST({ api: `${dc.url}/api`, version: '10' }).setToken(made.token);
  });
  after(() => {
    bot.clearHashSweeper();
    bot.clearHandlerSweeper();
  });

  test('reads itself and its channel', async () => {
    const me = await bot.get('/users/@me') as { id: string; bot: boolean };
    assert.deepEqual([me.id, me.bot], [botId, true]);
    const channel = await bot.get(`/channels/${channelId}`) as { id: string; type: number };
    assert.deepEqual([channel.id, channel.type], [channelId, 0]);
  });

  test('sends, replies with a file, lists, edits and deletes', async () => {
    const root = await bot.post(`/channels/${channelId}/messages`, { body: { content: 'root', nonce: 'djs-1', enforce_nonce: true } }) as { id: string; author: { id: string } };
    assert.equal(root.author.id, botId);
    const jpeg = await makeJpeg();
    const reply = await bot.post(`/channels/${channelId}/messages`, {
      body: { content: 'reply', message_reference: { message_id: root.id }, attachments: [{ id: 0, description: 'a picture' }] },
      files: [{ name: 'p.jpg', data: jpeg, contentType: 'image/jpeg' }],
    }) as { id: string; message_reference: { message_id: string }; attachments: unknown[] };
    assert.deepEqual([reply.message_reference.message_id, reply.attachments.length], [root.id, 1]);
    const listed = await bot.get(`/channels/${channelId}/messages`, { query: new URLSearchParams({ after: root.id }) }) as { id: string }[];
    assert.deepEqual(listed.map((m) => m.id), [reply.id]);
    const edited = await bot.patch(`/channels/${channelId}/messages/${root.id}`, { body: { content: 'root, edited' } }) as { content: string; edited_timestamp: string | null };
    assert.equal(edited.content, 'root, edited');
    assert.ok(edited.edited_timestamp);
    await bot.delete(`/channels/${channelId}/messages/${reply.id}`);
    assert.equal(dc.message(reply.id), undefined);
  });

  test('a 429 on a bot route: the client waits it out and sends again, once', async () => {
    const before = dc.channel(channelId)!.messages.length;
    dc.forceRateLimit(botId, 0.3);
    const started = Date.now();
    await bot.post(`/channels/${channelId}/messages`, { body: { content: 'after the limit' } });
    assert.ok(Date.now() - started >= 250);
    assert.equal(dc.channel(channelId)!.messages.length, before + 1);
  });
});
