// A channel webhook's URL, as Discord shows it under the channel's Integrations › Webhooks › "Copy
// Webhook URL": https://discord.com/api/webhooks/<id>/<token> (an API version segment, /api/v10/, is
// accepted too, and the older discordapp.com host). With CRIER_DISCORD_BASE_URL set (the emulator),
// that origin takes Discord's place. It is the account's credential: the token in it lets anyone post.
import { ORIGIN, type WebhookKey } from './client.ts';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The origins a webhook URL may name: Discord's hosts, or the configured one alone. */
function originsFor(configured: string | undefined): string[] {
  return configured ? [configured.replace(/\/+$/, '')] : [ORIGIN, 'https://discordapp.com', 'https://ptb.discord.com', 'https://canary.discord.com'];
}

/** The webhook's id and token, or null when the URL is not a webhook URL of those origins. */
export function parseWebhookUrl(url: string, configured: string | undefined): WebhookKey | null {
  const origins = originsFor(configured).map(escape).join('|');
  const match = new RegExp(`^(?:${origins})/api(?:/v\\d+)?/webhooks/([1-9][0-9]{0,19})/([A-Za-z0-9_-]{1,100})/?$`).exec(url.trim());
  return match ? { id: match[1]!, token: match[2]! } : null;
}

/** What a well-formed URL looks like, for the refusal of a malformed one. */
export const expectedShape = (configured: string | undefined) => `${originsFor(configured)[0]}/api/webhooks/<id>/<token>`;
