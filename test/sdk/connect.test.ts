// The SDK's connects for the networks that take credentials instead of OAuth, against their emulators
// and a started Crier: a Telegram channel by its bot's token, a Discord channel by its webhook URL, a
// Mastodon account by its instance and token; each answered as GET /v1/social-accounts/:id lists it,
// and a wrong credential a CrierError naming its field.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startDiscordEmulator, type DiscordEmulator } from '../../emulators/discord/server.ts';
import { startMastodonEmulator, type MastodonEmulator } from '../../emulators/mastodon/server.ts';
import { startTelegramEmulator, type TelegramEmulator } from '../../emulators/telegram/server.ts';
import { Crier, CrierError } from '../../sdk/src/index.ts';
import { startTestServer, type TestOrg, type TestServer } from '../helpers/harness.ts';

let telegram: TelegramEmulator;
let discord: DiscordEmulator;
let mastodon: MastodonEmulator;
let server: TestServer;
let org: TestOrg;
let crier: Crier;

before(async () => {
  [telegram, discord, mastodon] = await Promise.all([startTelegramEmulator(), startDiscordEmulator(), startMastodonEmulator()]);
  server = await startTestServer({ CRIER_TELEGRAM_BASE_URL: telegram.url, CRIER_DISCORD_BASE_URL: discord.url, CRIER_MASTODON_BASE_URL: mastodon.url });
  org = await server.createOrg();
  crier = new Crier({ baseUrl: server.url, apiKey: org.key });
});
after(async () => {
  await server.close();
  await Promise.all([telegram.close(), discord.close(), mastodon.close()]);
});

const refusedOn = (field: string) => (error: unknown) =>
  error instanceof CrierError && error.status === 400 && (error.details ?? []).some((d) => d.field === field);

test('Telegram: a channel its bot administers', async () => {
  const bot = telegram.addBot({ username: 'sdk_bot' });
  const chat = telegram.addChat({ type: 'channel', title: 'SDK news', username: 'sdk_news' });
  telegram.setMember(chat, bot, 'administrator', { can_post_messages: true });
  const connected = await crier.accounts.connectTelegram({ botToken: bot.token, chatId: '@sdk_news' });
  assert.deepEqual([connected.data.network, connected.data.username], ['telegram', 'sdk_news']);
  assert.equal((await crier.accounts.get(connected.data.id)).data.id, connected.data.id);
  await assert.rejects(crier.accounts.connectTelegram({ botToken: '123:wrong', chatId: '@sdk_news' }), refusedOn('botToken'));
});

test('Discord: a channel by its webhook URL', async () => {
  const webhook = discord.addWebhook({ name: 'sdk_hook', channelName: 'news' });
  const connected = await crier.accounts.connectDiscord({ webhookUrl: webhook.url });
  assert.deepEqual([connected.data.network, connected.data.username], ['discord', 'sdk_hook']);
  await assert.rejects(crier.accounts.connectDiscord({ webhookUrl: 'https://example.com/not-a-webhook' }), refusedOn('webhookUrl'));
});

test('Mastodon: an account by its instance and an access token', async () => {
  const { token } = mastodon.addAccount({ username: 'sdk', displayName: 'SDK' });
  const connected = await crier.accounts.connectMastodon({ instanceUrl: mastodon.url, accessToken: token });
  assert.deepEqual([connected.data.network, connected.data.username], ['mastodon', `sdk@${new URL(mastodon.url).host}`]);
  await assert.rejects(crier.accounts.connectMastodon({ instanceUrl: mastodon.url, accessToken: 'nope' }), refusedOn('accessToken'));
});

test('Discord: a bot in a server channel, and half a bot refused naming the field', async () => {
  const bot = discord.addBot({ username: 'sdk_bot' });
  const channel = discord.addChannel({ name: 'releases' });
  discord.grantChannel(bot.id, channel.id);
  const connected = await crier.accounts.connectDiscord({ botToken: bot.token, channelId: channel.id });
  assert.deepEqual([connected.data.network, connected.data.username], ['discord', '#releases']);
  await assert.rejects(crier.accounts.connectDiscord({ botToken: bot.token }), refusedOn('channelId'));
});

test('Mastodon through OAuth: authUrl with the instance answers its authorize page, with the app Crier registered there', async () => {
  const { data } = await crier.accounts.authUrl('mastodon', { instance_url: mastodon.url, redirect_uri: 'https://app.example.com/connected' });
  const url = new URL(data.auth_url);
  assert.equal(`${url.origin}${url.pathname}`, `${mastodon.url}/oauth/authorize`);
  assert.ok(url.searchParams.get('client_id'), data.auth_url);
  assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
  await assert.rejects(crier.accounts.authUrl('mastodon', {}), refusedOn('instance_url'));
});
