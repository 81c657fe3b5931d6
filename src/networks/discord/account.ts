// What a Discord account's sealed credential is: a channel webhook's URL (the first way in, as it
// always was), or a bot's token with the channel it posts in, stored as a small JSON object
// (`{"botToken","channelId"}`) that no webhook URL can be mistaken for. The account's networkUniqueId
// tells them apart too: a webhook's id, or `channel:<id>` for a bot's channel (a webhook and a channel
// may never share an id, but the prefix keeps the two namespaces apart for good).
import { PublishError } from '../../core/errors.ts';
import type { WebhookKey } from './client.ts';
import { parseWebhookUrl } from './webhook-url.ts';

/** A bot's key: its token (sent as `Authorization: Bot <token>`) and its channel. */
export interface BotKey {
  botToken: string;
  channelId: string;
}

export type DiscordAccountKey = { kind: 'webhook'; webhook: WebhookKey } | { kind: 'bot'; bot: BotKey };

/** The networkUniqueId of a bot account: its channel, namespaced apart from webhook ids. */
export const botAccountId = (channelId: string) => `channel:${channelId}`;

export const sealedBotCredential = (bot: BotKey) => JSON.stringify({ botToken: bot.botToken, channelId: bot.channelId });

/** The account's key from its stored credential, or null when it is neither form. */
export function accountKeyOf(credential: string | null | undefined, configured: string | undefined): DiscordAccountKey | null {
  const text = (credential ?? '').trim();
  if (text.startsWith('{')) {
    try {
      const bot = JSON.parse(text) as Partial<BotKey>;
      return typeof bot.botToken === 'string' && typeof bot.channelId === 'string' ? { kind: 'bot', bot: { botToken: bot.botToken, channelId: bot.channelId } } : null;
    } catch {
      return null;
    }
  }
  const webhook = parseWebhookUrl(text, configured);
  return webhook ? { kind: 'webhook', webhook } : null;
}

/** The key, or the `auth` refusal that asks to connect the account again. */
export function requireAccountKey(credential: string | null | undefined, configured: string | undefined): DiscordAccountKey {
  const key = accountKeyOf(credential, configured);
  if (!key) throw new PublishError('auth', 'discord: the account has no usable webhook URL or bot token stored; connect it again');
  return key;
}
