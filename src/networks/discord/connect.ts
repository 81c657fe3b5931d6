// Connecting a Discord channel with one of its webhooks (no bot, no OAuth): the webhook URL is the
// credential, stored encrypted. It is validated by asking Discord (Get Webhook with Token,
// https://discord.com/developers/docs/resources/webhook#get-webhook-with-token), which answers the
// webhook's id, name, channel and server. The account is the webhook: its id is the account's
// networkUniqueId, its name (else its channel's id) the username.
import { RequestError, validationError } from '../../core/errors.ts';
import type { CredentialField, PasswordAccount, PasswordLoginInput } from '../contract.ts';
import type { NetworkAnswer } from '../http.ts';
import { DiscordClient, ERROR_CODES, ORIGIN, reasonOf, type DiscordWebhook } from './client.ts';
import { expectedShape, parseWebhookUrl } from './webhook-url.ts';

export const DISCORD_FIELDS: readonly CredentialField[] = [
  {
    name: 'webhookUrl',
    description: "the channel webhook's URL (the channel's settings › Integrations › Webhooks › Copy Webhook URL: `https://discord.com/api/webhooks/<id>/<token>`)",
    maxLength: 300,
    secret: true,
  },
];

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
