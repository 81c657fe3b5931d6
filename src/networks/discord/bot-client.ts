// A bot's calls to Discord's API (https://discord.com/developers/docs/reference#authentication:
// `Authorization: Bot <token>`), on the one HTTP client of adapters (../http.ts): the bot itself
// (users#get-current-user), its channel (channel#get-channel), a message sent (message#create-message),
// a forum post opened (channel#start-thread-in-forum-or-media-channel), the channel's recent messages
// (message#get-channel-messages), and its own messages edited and deleted. The refusals and the
// message body (JSON, or multipart with files) are the webhook's (client.ts). The token is a header:
// it never appears in a path or a message.
import { PublishError } from '../../core/errors.ts';
import { NetworkHttp, type NetworkAnswer } from '../http.ts';
import type { BotKey } from './account.ts';
import { apiBase, classifyBot, reasonOf, sendMessageBody, type DiscordMessage, type Upload } from './client.ts';

/** The part of a user object Crier reads. */
export interface DiscordUser {
  id: string;
  username: string;
  bot?: boolean;
}

/** The part of a channel object Crier reads (resources/channel#channel-object). */
export interface DiscordChannel {
  id: string;
  type: number;
  name?: string | null;
  guild_id?: string;
  parent_id?: string | null;
}

/** Channel types (resources/channel#channel-object-channel-types). */
export const CHANNEL_TYPES = { text: 0, dm: 1, voice: 2, groupDm: 3, category: 4, announcement: 5, announcementThread: 10, publicThread: 11, privateThread: 12, stage: 13, directory: 14, forum: 15, media: 16 } as const;

/** Channels whose posts are threads: a message is sent by opening one (a forum post). */
export const isForum = (type: number) => type === CHANNEL_TYPES.forum || type === CHANNEL_TYPES.media;

/** Get Channel Messages' largest page (message#get-channel-messages: limit 1-100). */
export const PAGE = 100;

export class DiscordBotClient {
  readonly #http: NetworkHttp;

  constructor(origin: string, key: Pick<BotKey, 'botToken'>) {
    this.#http = new NetworkHttp({ network: 'discord', baseUrl: apiBase(origin), reasonOf, classify: classifyBot, headers: () => ({ authorization: `Bot ${key.botToken}` }) });
  }

  /** Get Current User: the bot (its id is the author of what it sends). */
  async me(): Promise<DiscordUser> {
    return (await this.#http.call({ url: '/users/@me' })).body as DiscordUser;
  }

  /** The same answers whatever their status: for connecting, which reads a refusal itself. */
  meAnswer = (): Promise<NetworkAnswer> => this.#http.answer({ url: '/users/@me' });
  channelAnswer = (channelId: string): Promise<NetworkAnswer> => this.#http.answer({ url: `/channels/${channelId}` });

  async channel(channelId: string): Promise<DiscordChannel> {
    return (await this.#http.call({ url: `/channels/${channelId}` })).body as DiscordChannel;
  }

  /** Create Message in a channel or thread. */
  async createMessage(channelId: string, payload: Record<string, unknown>, uploads: Upload[]): Promise<DiscordMessage> {
    const answer = await sendMessageBody(this.#http, `/channels/${channelId}/messages`, payload, uploads);
    return messageOf(answer, 'Create Message');
  }

  /** Start Thread in Forum or Media Channel: the forum post `name` with its first message; answers the thread with its `message`. */
  async startForumPost(channelId: string, name: string, message: Record<string, unknown>, uploads: Upload[]): Promise<DiscordMessage> {
    const answer = await sendMessageBody(this.#http, `/channels/${channelId}/threads`, { name, message }, uploads);
    return messageOf({ ...answer, body: (answer.body as { message?: unknown } | undefined)?.message }, 'Start Thread in Forum Channel');
  }

  /** Up to PAGE messages after `after` (a snowflake), oldest first (Discord answers them newest first). */
  async messagesAfter(channelId: string, after: string): Promise<DiscordMessage[]> {
    const answer = await this.#http.call({ url: `/channels/${channelId}/messages?after=${after}&limit=${PAGE}` });
    const page = Array.isArray(answer.body) ? (answer.body as DiscordMessage[]) : [];
    return [...page].sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
  }

  /** Edit Message: the content alone; what the body leaves out (embeds, files, flags) stays (message#edit-message). */
  async editContent(channelId: string, messageId: string, content: string): Promise<void> {
    await this.#http.call({ url: `/channels/${channelId}/messages/${messageId}`, method: 'PATCH', json: { content, allowed_mentions: { parse: [] } } });
  }

  async deleteMessage(channelId: string, messageId: string): Promise<void> {
    await this.#http.call({ url: `/channels/${channelId}/messages/${messageId}`, method: 'DELETE' });
  }
}

function messageOf(answer: NetworkAnswer, what: string): DiscordMessage {
  const message = answer.body as DiscordMessage | undefined;
  if (!message?.id) throw new PublishError('unknown', `discord: ${what} answered ${answer.status} without a message`, undefined, 'server');
  return message;
}
