// Connecting a Discord channel with its webhook URL over real HTTP: POST /v1/social-accounts/discord
// {webhookUrl}, validated against the emulated Discord (Get Webhook with Token), the URL stored sealed;
// each refusal a 400 naming the field.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startDiscordEmulator, type DiscordEmulator } from '../../../emulators/discord/server.ts';
import { openSecret } from '../../../src/accounts/secrets.ts';
import { decodeId } from '../../../src/core/ids.ts';
import { accountRowsText } from '../../helpers/connect.ts';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/harness.ts';

let dc: DiscordEmulator;
let server: TestServer;
let org: TestOrg;

before(async () => {
  dc = await startDiscordEmulator();
  server = await startTestServer({ CRIER_DISCORD_BASE_URL: dc.url });
  org = await server.createOrg();
});
after(async () => {
  await server.close();
  await dc.close();
});

const connect = (body: Record<string, unknown>) => server.request('POST', '/v1/social-accounts/discord', { key: org.key, body });

describe('connecting a Discord channel with a webhook URL', () => {
  test('the account is the webhook: its name, its id; the URL sealed in the row, never in plaintext', async () => {
    const webhook = dc.addWebhook({ name: 'Crier announcements', channelName: 'announcements' });
    const res = await connect({ webhookUrl: webhook.url, tenantId: 'tenant_dc' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(
      { network: res.body.data.network, username: res.body.data.username, uid: res.body.data.network_unique_id, tenantId: res.body.data.tenantId, isActive: res.body.data.isActive },
      { network: 'discord', username: 'Crier announcements', uid: webhook.id, tenantId: 'tenant_dc', isActive: 1 },
    );
    assert.ok(!JSON.stringify(res.body).includes(webhook.token), 'the token is never returned');
    const rawId = decodeId(res.body.data.id)!;
    const row = (await server.db.query('SELECT credential_enc FROM social_accounts WHERE id = $1', [rawId])).rows[0];
    assert.equal(openSecret(server.box, rawId, 'credential', row.credential_enc), webhook.url);
    assert.ok(!(await accountRowsText(server, rawId)).includes(webhook.token), 'the token is never stored in plaintext');
  });

  test('a URL with the API version segment is taken too', async () => {
    const webhook = dc.addWebhook({ name: 'Versioned' });
    const res = await connect({ webhookUrl: `${dc.url}/api/v10/webhooks/${webhook.id}/${webhook.token}` });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.data.network_unique_id, webhook.id);
  });

  test('a URL that is not a webhook URL of the configured Discord: 400 on webhookUrl, before any call', async () => {
    const webhook = dc.addWebhook({ name: 'Elsewhere' });
    const before = (await (await fetch(`${dc.url}/__emulator/calls`)).json() as { calls: unknown[] }).calls.length;
    for (const webhookUrl of [
      `https://discord.com/api/webhooks/${webhook.id}/${webhook.token}`,
      `${dc.url}/api/channels/${webhook.id}/${webhook.token}`,
      `${dc.url}/api/webhooks/not-a-snowflake/${webhook.token}`,
      'hello',
    ]) {
      const res = await connect({ webhookUrl });
      assert.equal(res.status, 400, webhookUrl);
      assert.deepEqual(res.body.details.map((d: any) => d.field), ['webhookUrl']);
      assert.match(res.body.details[0].message, new RegExp(`must be a Discord channel webhook URL: ${dc.url.replace(/[.]/g, '\\.')}/api/webhooks/<id>/<token>`));
    }
    const after = (await (await fetch(`${dc.url}/__emulator/calls`)).json() as { calls: unknown[] }).calls.length;
    assert.equal(after, before, 'no call was made');
  });

  test('a deleted webhook or a wrong token: 400 discord_webhook_refused on webhookUrl, saying what to do', async () => {
    const webhook = dc.addWebhook({ name: 'Doomed' });
    const wrong = await connect({ webhookUrl: `${dc.url}/api/webhooks/${webhook.id}/wrongtoken` });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.code, 'discord_webhook_refused');
    assert.match(wrong.body.details[0].message, /Discord knows no webhook with this id and token \(Invalid Webhook Token\)/);
    dc.deleteWebhook(webhook.id);
    const gone = await connect({ webhookUrl: webhook.url });
    assert.equal(gone.status, 400);
    assert.match(gone.body.details[0].message, /\(Unknown Webhook\): it was deleted, or the URL is mistyped/);
  });

  test('an empty body is refused, naming webhookUrl', async () => {
    const res = await connect({});
    assert.equal(res.status, 400);
    assert.ok(JSON.stringify(res.body.details).includes('webhookUrl'), JSON.stringify(res.body));
  });
});

describe('connecting a Discord channel with a bot', () => {
  const withBot = (kind: 'text' | 'announcement' | 'forum' | 'media' = 'text') => {
    const bot = dc.addBot({ username: 'Crier bot' });
    const channel = dc.addChannel({ kind, name: `${kind}-room` });
    dc.grantChannel(bot.id, channel.id);
    return { bot, channel };
  };
  const fields = (res: { body: any }) => res.body.details.map((d: any) => d.field);

  test('the account is the channel: #name, channel:<id>; the token sealed with the channel id, never in plaintext', async () => {
    const { bot, channel } = withBot();
    const res = await connect({ botToken: bot.token, channelId: channel.id });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual([res.body.data.username, res.body.data.network_unique_id], [`#${channel.name}`, `channel:${channel.id}`]);
    assert.ok(!JSON.stringify(res.body).includes(bot.token), 'the token is never returned');
    const rawId = decodeId(res.body.data.id)!;
    const row = (await server.db.query('SELECT credential_enc FROM social_accounts WHERE id = $1', [rawId])).rows[0];
    assert.deepEqual(JSON.parse(openSecret(server.box, rawId, 'credential', row.credential_enc)!), { botToken: bot.token, channelId: channel.id });
    assert.ok(!(await accountRowsText(server, rawId)).includes(bot.token), 'the token is never stored in plaintext');
  });

  test('announcement, forum and media channels are taken too; a token pasted with "Bot " is taken', async () => {
    for (const kind of ['announcement', 'forum', 'media'] as const) {
      const { bot, channel } = withBot(kind);
      const res = await connect({ botToken: `Bot ${bot.token}`, channelId: channel.id });
      assert.equal(res.status, 200, `${kind}: ${JSON.stringify(res.body)}`);
    }
  });

  test('neither way, both ways, or half a bot: 400 naming each field concerned', async () => {
    const { bot, channel } = withBot();
    const webhook = dc.addWebhook({ name: 'Both' });
    const neither = await connect({});
    assert.equal(neither.status, 400);
    assert.deepEqual(fields(neither), ['webhookUrl', 'botToken', 'channelId']);
    const both = await connect({ webhookUrl: webhook.url, botToken: bot.token, channelId: channel.id });
    assert.equal(both.status, 400);
    assert.deepEqual(fields(both), ['botToken', 'channelId']);
    assert.match(both.body.details[0].message, /two ways to connect: send webhookUrl alone, or botToken with channelId/);
    const tokenOnly = await connect({ botToken: bot.token });
    assert.deepEqual([tokenOnly.status, fields(tokenOnly)], [400, ['channelId']]);
    assert.match(tokenOnly.body.details[0].message, /required with botToken/);
    const channelOnly = await connect({ channelId: channel.id });
    assert.deepEqual([channelOnly.status, fields(channelOnly)], [400, ['botToken']]);
    const malformed = await connect({ botToken: bot.token, channelId: 'general' });
    assert.deepEqual([malformed.status, fields(malformed)], [400, ['channelId']]);
  });

  test('a wrong token: 400 discord_bot_refused on botToken', async () => {
    const { channel } = withBot();
    const res = await connect({ botToken: 'aaaa.bbbb.cccc', channelId: channel.id });
    assert.deepEqual([res.status, res.body.code, fields(res)], [400, 'discord_bot_refused', ['botToken']]);
    assert.match(res.body.details[0].message, /Discord refused this token \(401: Unauthorized\)/);
  });

  test('a channel unknown, not shared with the bot, a DM or a voice channel: 400 on channelId saying why', async () => {
    const { bot, channel } = withBot();
    const unknown = await connect({ botToken: bot.token, channelId: '123456789012345678' });
    assert.deepEqual([unknown.status, fields(unknown)], [400, ['channelId']]);
    assert.match(unknown.body.details[0].message, /Discord knows no channel with this id \(Unknown Channel\)/);
    const hidden = dc.addChannel({ name: 'staff' });
    const notGranted = await connect({ botToken: bot.token, channelId: hidden.id });
    assert.match(notGranted.body.details[0].message, /the bot Crier bot cannot see this channel \(Missing Access\): add it to the server/);
    const voice = dc.addChannel({ kind: 'voice', guildId: channel.guildId, name: 'lounge' });
    const dm = dc.addChannel({ kind: 'dm' });
    dc.grantChannel(bot.id, voice.id);
    dc.grantChannel(bot.id, dm.id);
    const voiceRes = await connect({ botToken: bot.token, channelId: voice.id });
    assert.equal(voiceRes.status, 400);
    assert.match(voiceRes.body.details[0].message, /a bot posts in a server's text, announcement, forum or media channel; it is a voice channel/);
    const dmRes = await connect({ botToken: bot.token, channelId: dm.id });
    assert.match(dmRes.body.details[0].message, /it is a direct message, not a server channel/);
  });
});
