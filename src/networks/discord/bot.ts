// Connecting a bot in a server channel: the token is checked with Get Current User
// (https://discord.com/developers/docs/resources/user#get-current-user), and the channel with Get
// Channel (resources/channel#get-channel), which answers only a channel the bot can see. It must be a
// server's text, announcement, forum or media channel: Crier posts there, not in a DM, a voice channel
// or a thread. Whether the bot may post (Send Messages, Attach Files, …) is not checked: Discord's REST
// API answers a bot's permissions only through its roles and the channel's overwrites, which take the
// server's roles and the bot's membership to compute; a missing permission fails the first publish as
// `forbidden` with Discord's reason (README). The account is the channel (networkUniqueId
// `channel:<id>`, username `#<name>`); the credential is the token with the channel id (account.ts).
import { RequestError, validationError } from '../../core/errors.ts';
import type { PasswordAccount } from '../contract.ts';
import type { NetworkAnswer } from '../http.ts';
import { botAccountId, sealedBotCredential, type BotKey } from './account.ts';
import { CHANNEL_TYPES, DiscordBotClient, type DiscordChannel, type DiscordUser } from './bot-client.ts';
import { ORIGIN, reasonOf } from './client.ts';

const SNOWFLAKE = /^[1-9][0-9]{0,19}$/;
/** A bot token: three base64url parts joined by dots (the Developer Portal's). */
const TOKEN = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** Channels a bot account may post in, by type. */
const POSTABLE: Record<number, string> = { [CHANNEL_TYPES.text]: 'text', [CHANNEL_TYPES.announcement]: 'announcement', [CHANNEL_TYPES.forum]: 'forum', [CHANNEL_TYPES.media]: 'media' };

/** Why a channel of another type is refused. */
function refusedType(type: number): string {
  if (type === CHANNEL_TYPES.dm || type === CHANNEL_TYPES.groupDm) return 'it is a direct message, not a server channel';
  if (type === CHANNEL_TYPES.voice || type === CHANNEL_TYPES.stage) return 'it is a voice channel';
  if (type === CHANNEL_TYPES.announcementThread || type === CHANNEL_TYPES.publicThread || type === CHANNEL_TYPES.privateThread) return 'it is a thread: connect its channel, and send into the thread with discord.threadId';
  return `its type is ${type}`;
}

const fieldError = (field: string, message: string, code: string) => new RequestError(400, `Discord refused the ${field === 'botToken' ? 'bot token' : 'channel'}: ${message}`, { code, details: [{ field, message }] });

/** `configured`: CRIER_DISCORD_BASE_URL (the emulator), else undefined: Discord itself. */
export async function connectBot(configured: string | undefined, input: BotKey): Promise<PasswordAccount> {
  const botToken = input.botToken.trim().replace(/^Bot\s+/i, '');
  const channelId = input.channelId.trim();
  if (!TOKEN.test(botToken)) throw validationError([{ field: 'botToken', message: 'must be a bot token as the Developer Portal shows it (three parts joined by dots)' }], 'The Discord bot token is not well formed');
  if (!SNOWFLAKE.test(channelId)) throw validationError([{ field: 'channelId', message: 'must be a channel id (a snowflake: digits only)' }], 'The Discord channel id is not well formed');
  const client = new DiscordBotClient(configured ?? ORIGIN, { botToken });
  const bot = botOf(await reach(client.meAnswer));
  const channel = channelOf(await reach(() => client.channelAnswer(channelId)), bot);
  return {
    username: `#${channel.name ?? channel.id}`,
    networkUniqueId: botAccountId(channel.id),
    serviceUrl: `https://discord.com/channels/${channel.guild_id}/${channel.id}`,
    credential: sealedBotCredential({ botToken, channelId: channel.id }),
  };
}

async function reach(call: () => Promise<NetworkAnswer>): Promise<NetworkAnswer> {
  try {
    return await call();
  } catch (error) {
    throw new RequestError(502, `Discord could not be reached to validate the bot: ${(error as Error).message}`, { code: 'network_unavailable' });
  }
}

function unavailable(answer: NetworkAnswer): void {
  if (answer.status === 429 || answer.status >= 500) {
    throw new RequestError(502, `Discord could not validate the bot now: ${reasonOf(answer.body) ?? `HTTP ${answer.status}`}`, { code: 'network_unavailable' });
  }
}

function botOf(answer: NetworkAnswer): DiscordUser {
  unavailable(answer);
  const user = answer.body as DiscordUser | undefined;
  if (answer.status === 200 && typeof user?.id === 'string') return user;
  const said = reasonOf(answer.body) ?? `HTTP ${answer.status}`;
  throw fieldError('botToken', `Discord refused this token (${said}): copy it again from the Developer Portal (Bot › Reset Token)`, 'discord_bot_refused');
}

function channelOf(answer: NetworkAnswer, bot: DiscordUser): DiscordChannel {
  unavailable(answer);
  const said = reasonOf(answer.body) ?? `HTTP ${answer.status}`;
  if (answer.status === 404) throw fieldError('channelId', `Discord knows no channel with this id (${said})`, 'discord_channel_refused');
  if (answer.status === 403) {
    throw fieldError('channelId', `the bot ${bot.username} cannot see this channel (${said}): add it to the server, and let it View Channel there`, 'discord_channel_refused');
  }
  const channel = answer.body as DiscordChannel | undefined;
  if (answer.status !== 200 || typeof channel?.id !== 'string') throw fieldError('channelId', said, 'discord_channel_refused');
  if (!(channel.type in POSTABLE) || !channel.guild_id) {
    throw fieldError('channelId', `a bot posts in a server's text, announcement, forum or media channel; ${refusedType(channel.type)}`, 'discord_channel_refused');
  }
  return channel;
}
