// Connecting a Discord channel, one of two ways (each field optional; `connectDiscord` says which
// combinations it takes): a channel webhook's URL alone (no bot, no OAuth), or a bot's token with the
// id of a server channel the bot posts in (bot.ts). A webhook URL is validated by asking Discord (Get
// Webhook with Token, https://discord.com/developers/docs/resources/webhook#get-webhook-with-token),
// which answers the webhook's id, name, channel and server. That account is the webhook: its id is the
// account's networkUniqueId, its name (else its channel's id) the username, its URL the credential,
// stored encrypted.
import { RequestError, validationError, type FieldIssue } from '../../core/errors.ts';
import type { CredentialField, PasswordAccount, PasswordLoginInput } from '../contract.ts';
import type { NetworkAnswer } from '../http.ts';
import { connectBot } from './bot.ts';
import { DiscordClient, ERROR_CODES, ORIGIN, reasonOf, type DiscordWebhook } from './client.ts';
import { expectedShape, parseWebhookUrl } from './webhook-url.ts';

export const DISCORD_FIELDS: readonly CredentialField[] = [
  {
    name: 'webhookUrl',
    description: "a channel webhook's URL (the channel's settings › Integrations › Webhooks › Copy Webhook URL: `https://discord.com/api/webhooks/<id>/<token>`); or connect a bot with botToken and channelId instead",
    maxLength: 300,
    secret: true,
    optional: true,
  },
  {
    name: 'botToken',
    description: "a bot's token (Developer Portal › your application › Bot › Reset Token), with channelId: the bot posts in that channel of a server it was added to",
    maxLength: 120,
    secret: true,
    optional: true,
  },
  {
    name: 'channelId',
    description: "with botToken: the id of the server's text, announcement, forum or media channel the bot posts in (Developer Mode on, right-click the channel › Copy Channel ID)",
    maxLength: 20,
    secret: false,
    optional: true,
  },
];

/** The webhook URL alone, or the bot token with the channel id; any other combination is a 400 naming each field. */
export async function connectDiscord(configured: string | undefined, input: PasswordLoginInput): Promise<PasswordAccount> {
  const given = (name: string) => (input[name] ?? '').trim() !== '';
  const webhook = given('webhookUrl');
  const token = given('botToken');
  const channel = given('channelId');
  if (webhook && !token && !channel) return connectWebhook(configured, input);
  if (!webhook && token && channel) return connectBot(configured, { botToken: input.botToken!, channelId: input.channelId! });
  throw validationError(combinationIssues(webhook, token, channel), 'Connect a Discord channel with webhookUrl alone, or with botToken and channelId');
}

function combinationIssues(webhook: boolean, token: boolean, channel: boolean): FieldIssue[] {
  if (webhook) {
    const why = 'a webhook URL and a bot are two ways to connect: send webhookUrl alone, or botToken with channelId';
    return [...(token ? [{ field: 'botToken', message: why }] : []), ...(channel ? [{ field: 'channelId', message: why }] : [])];
  }
  if (token) return [{ field: 'channelId', message: 'required with botToken: the id of the channel the bot posts in' }];
  if (channel) return [{ field: 'botToken', message: "required with channelId: the token of the bot that posts in the channel" }];
  return [
    { field: 'webhookUrl', message: 'required, unless botToken and channelId are given: a channel webhook\'s URL' },
    { field: 'botToken', message: 'required with channelId, unless webhookUrl is given' },
    { field: 'channelId', message: 'required with botToken, unless webhookUrl is given' },
  ];
}

/** `configured`: CRIER_DISCORD_BASE_URL (the emulator), else undefined: Discord itself. */
export async function connectWebhook(configured: string | undefined, input: PasswordLoginInput): Promise<PasswordAccount> {
  const webhookUrl = (input.webhookUrl ?? '').trim();
  const key = parseWebhookUrl(webhookUrl, configured);
  if (!key) {
    throw validationError([{ field: 'webhookUrl', message: `must be a Discord channel webhook URL: ${expectedShape(configured)}` }], 'The Discord webhook URL is not well formed');
  }
  const webhook = webhookOf(await reach(() => new DiscordClient(configured ?? ORIGIN, key).webhookAnswer()));
  return { username: webhook.name || `channel ${webhook.channel_id ?? webhook.id}`, networkUniqueId: webhook.id, serviceUrl: null, credential: webhookUrl };
}

async function reach(call: () => Promise<NetworkAnswer>): Promise<NetworkAnswer> {
  try {
    return await call();
  } catch (error) {
    throw new RequestError(502, `Discord could not be reached to validate the webhook: ${(error as Error).message}`, { code: 'network_unavailable' });
  }
}

/** The webhook, or the refusal said on the field. */
function webhookOf(answer: NetworkAnswer): DiscordWebhook {
  if (answer.status === 200 && typeof (answer.body as DiscordWebhook | undefined)?.id === 'string') return answer.body as DiscordWebhook;
  const said = reasonOf(answer.body) ?? `HTTP ${answer.status}`;
  if (answer.status === 429 || answer.status >= 500) throw new RequestError(502, `Discord could not validate the webhook now: ${said}`, { code: 'network_unavailable' });
  const code = (answer.body as { code?: number } | undefined)?.code;
  const gone = code === ERROR_CODES.unknownWebhook || code === ERROR_CODES.invalidWebhookToken || answer.status === 401 || answer.status === 404;
  throw new RequestError(400, `Discord refused the webhook: ${said}`, {
    code: 'discord_webhook_refused',
    details: [{ field: 'webhookUrl', message: gone ? `Discord knows no webhook with this id and token (${said}): it was deleted, or the URL is mistyped; copy it again from the channel's settings` : said }],
  });
}
