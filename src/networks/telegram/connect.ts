// Connecting a Telegram chat (a channel or a group) with the token of a bot that administers it. Bots
// have no OAuth: the token (from @BotFather) is the credential, stored encrypted. It is validated by
// asking Telegram: getMe (is the token a bot's), getChat (the chat, by @username or numeric id), then
// getChatMember for the bot (is it an administrator allowed to post there: can_post_messages in a
// channel; an administrator of a group may always send). The account is the chat: its id is the
// account's networkUniqueId, its @username (else its title) the username.
import { RequestError, validationError, type FieldIssue } from '../../core/errors.ts';
import type { CredentialField, PasswordAccount, PasswordLoginInput } from '../contract.ts';
import type { NetworkAnswer } from '../http.ts';
import { TelegramClient } from './client.ts';

export const TELEGRAM_FIELDS: readonly CredentialField[] = [
  { name: 'botToken', description: "the bot's token from @BotFather (`123456:ABC-...`); the bot must be an administrator of the chat allowed to post", maxLength: 200, secret: true },
  { name: 'chatId', description: "the channel or group: its public @username, or its numeric id (`-100...`)", maxLength: 100, secret: false },
];

/** A bot token as @BotFather gives it: the bot's id, a colon, the secret. */
const TOKEN = /^\d{1,20}:[A-Za-z0-9_-]{20,100}$/;
/** A public chat's @username (5 to 32 letters, digits and underscores) or its numeric id. */
const CHAT = /^(@[A-Za-z][A-Za-z0-9_]{4,31}|-?\d{1,20})$/;

interface Chat { id: number; type: string; title?: string; username?: string }
interface ChatMember { status: string; can_post_messages?: boolean }

export async function connectBot(apiUrl: string, input: PasswordLoginInput): Promise<PasswordAccount> {
  const botToken = (input.botToken ?? '').trim();
  const chatId = (input.chatId ?? '').trim();
  checkShapes(botToken, chatId);
  const client = new TelegramClient(apiUrl, botToken);
  const bot = resultOf<{ id: number; is_bot: boolean; username?: string }>(await reach(() => client.answer('getMe')), 'botToken');
  const chat = resultOf<Chat>(await reach(() => client.answer('getChat', { chat_id: chatId })), 'chatId');
  const member = resultOf<ChatMember>(await reach(() => client.answer('getChatMember', { chat_id: chat.id, user_id: bot.id })), 'chatId');
  checkRights(member, chat, bot.username);
  return { username: chat.username ?? chat.title ?? String(chat.id), networkUniqueId: String(chat.id), serviceUrl: null, credential: botToken };
}

function checkShapes(botToken: string, chatId: string): void {
  const details: FieldIssue[] = [];
  if (!TOKEN.test(botToken)) details.push({ field: 'botToken', message: "must be a bot token as @BotFather gives it: the bot's id, a colon, then the secret (123456:ABC-DEF...)" });
  if (!CHAT.test(chatId)) details.push({ field: 'chatId', message: "must be the chat's public @username or its numeric id (-1001234567890)" });
  if (details.length) throw validationError(details, 'The Telegram credentials are not well formed');
}

async function reach(call: () => Promise<NetworkAnswer>): Promise<NetworkAnswer> {
  try {
    return await call();
  } catch (error) {
    throw new RequestError(502, `Telegram could not be reached to validate the account: ${(error as Error).message}`, { code: 'network_unavailable' });
  }
}

/** The call's result, or the refusal as the field it concerns. */
function resultOf<T>(answer: NetworkAnswer, field: 'botToken' | 'chatId'): T {
  const body = answer.body as { ok?: boolean; result?: T; description?: string } | undefined;
  if (body?.ok === true && body.result !== undefined) return body.result;
  const said = body?.description ?? `HTTP ${answer.status}`;
  if (answer.status === 401 || answer.status === 404) {
    throw refused(`Telegram refused the bot token: ${said}`, 'telegram_token_refused', 'botToken', 'Telegram does not know this bot token (revoked, or mistyped): copy it again from @BotFather');
  }
  if (answer.status === 429 || answer.status >= 500) throw new RequestError(502, `Telegram could not validate the account now: ${said}`, { code: 'network_unavailable' });
  throw refused(`Telegram refused the chat: ${said}`, 'telegram_chat_refused', field, field === 'chatId'
    ? `the bot cannot see this chat (${said}): add the bot to the channel or group as an administrator, and check the @username or id`
    : said);
}

function checkRights(member: ChatMember, chat: Chat, botName: string | undefined): void {
  const bot = botName ? `@${botName}` : 'the bot';
  if (member.status !== 'administrator' && member.status !== 'creator') {
    throw refused(`${bot} is not an administrator of ${chat.title ?? chat.id} (its status there: ${member.status})`, 'telegram_bot_not_admin', 'chatId',
      `make ${bot} an administrator of the chat${chat.type === 'channel' ? ' with the right to post messages' : ''}, then connect again`);
  }
  if (chat.type === 'channel' && member.status === 'administrator' && member.can_post_messages !== true) {
    throw refused(`${bot} is an administrator of ${chat.title ?? chat.id} without the right to post messages`, 'telegram_bot_cannot_post', 'chatId',
      `give ${bot} the "Post messages" right in the channel's administrators, then connect again`);
  }
}

const refused = (message: string, code: string, field: string, detail: string) => new RequestError(400, message, { code, details: [{ field, message: detail }] });
