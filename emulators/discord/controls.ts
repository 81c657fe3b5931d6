// What tests (and the sandbox) may do beyond the API: make a server's channel (text, announcement,
// forum, media, voice; or a DM) and a webhook in it (what a server's administrator does in the
// channel's settings), make a bot (an application's bot user, with its token) and let it see a channel
// (what adding it to the server and granting it the channel's permissions does), open a thread,
// delete a webhook, make a webhook answer 429 (a forced rate limit), hold an execution's answer after
// it took effect, change the bucket and the upload limit, move the clock; and read-only views of
// channels, threads and messages.
import { randomBytes } from 'node:crypto';
import type { Bot, Channel, ChannelKind, DiscordWorld, StoredMessage, Webhook } from './state.ts';

export interface AddWebhookInput {
  name: string;
  /** The channel's kind: a text channel (default), a forum or a media channel. */
  channelKind?: ChannelKind;
  channelName?: string;
  guildName?: string;
  /** Another webhook of an existing channel. */
  channelId?: string;
  /** The webhook's snowflake, where it must be the same from one start to the next (the sandbox's); default: a new one. */
  id?: string;
}

export interface AddChannelInput {
  /** A text channel (default), an announcement, forum, media or voice channel, or a DM (no server). */
  kind?: ChannelKind;
  name?: string;
  /** A channel of an existing server; default: a new server named `guildName`. */
  guildId?: string;
  guildName?: string;
}

export interface AddBotInput {
  username: string;
}

/** A bot user and its token, as the Developer Portal shows them. */
export interface BotView {
  id: string;
  token: string;
  username: string;
}

/** A webhook as its channel's settings show it, with the URL "Copy Webhook URL" gives. */
export interface WebhookView extends Webhook {
  url: string;
}

/** A channel or thread as tests read it: its messages in order, each as stored. */
export interface ChannelView extends Channel {
  messages: StoredMessage[];
}

export interface DiscordControls {
  addWebhook(input: AddWebhookInput): WebhookView;
  addChannel(input?: AddChannelInput): Channel;
  addBot(input: AddBotInput): BotView;
  /** The bot may see the channel, read its history and post in it (and in its threads). */
  grantChannel(botId: string, channelId: string): void;
  /** A public thread in a text channel (a thread a person opened), to send into with thread_id. */
  addThread(channelId: string, name: string): string;
  /** The webhook is deleted in the channel's settings: its URL answers 404 Unknown Webhook from now on. */
  deleteWebhook(webhookId: string): void;
  /** After `skip` requests answered as usual, the webhook's (or the bot's) next `calls` requests answer 429 with this retry_after (seconds, a float). */
  forceRateLimit(webhookId: string, retryAfterSecs: number, options?: { calls?: number; skip?: number; global?: boolean }): void;
  /** After `skip` executions answered as usual, the next is carried out (the message sent), then its answer held `ms`. */
  stallAnswer(ms: number, skip?: number): void;
  /** The webhook bucket: requests per window. */
  setBucket(limit: number, windowMs: number): void;
  setMaxFileBytes(bytes: number): void;
  channel(channelId: string): ChannelView | undefined;
  message(messageId: string): StoredMessage | undefined;
  advanceClock(ms: number): void;
}

export function discordControls(world: DiscordWorld, url: () => string): DiscordControls {
  const addChannel = (input: AddChannelInput = {}): Channel => {
    let guildId = input.guildId ?? '';
    if (!input.guildId && input.kind !== 'dm') {
      const guild = { id: world.ids.next(), name: input.guildName ?? 'Emulated server' };
      world.guilds.set(guild.id, guild);
      guildId = guild.id;
    }
    const channel: Channel = { id: world.ids.next(), guildId, kind: input.kind ?? 'text', name: input.name ?? (input.kind === 'dm' ? '' : 'general') };
    world.channels.set(channel.id, channel);
    return channel;
  };
  return {
    addChannel,
    addBot({ username }) {
      // A bot token is three base64url parts: the user id, a timestamp, an HMAC (invented bytes).
      const bot: Bot = { id: world.ids.next(), token: '', username, channels: new Set() };
      bot.token = `${Buffer.from(bot.id).toString('base64url')}.${randomBytes(4).toString('base64url')}.${randomBytes(27).toString('base64url')}`;
      world.bots.set(bot.token, bot);
      return { id: bot.id, token: bot.token, username };
    },
    grantChannel(botId, channelId) {
      const bot = [...world.bots.values()].find((b) => b.id === botId);
      if (!bot || !world.channels.has(channelId)) throw new Error(`no bot ${botId} or channel ${channelId}`);
      bot.channels.add(channelId);
    },
    addWebhook(input) {
      const channel = input.channelId ? world.channels.get(input.channelId) : addChannel({ kind: input.channelKind, name: input.channelName, guildName: input.guildName });
      if (!channel) throw new Error(`no channel ${input.channelId}`);
      if (input.id !== undefined && world.webhooks.has(input.id)) throw new Error(`webhook ${input.id} exists already`);
      const webhook: Webhook = { id: input.id ?? world.ids.next(), token: randomBytes(51).toString('base64url').slice(0, 68), name: input.name, channelId: channel.id, guildId: channel.guildId, avatar: null };
      world.webhooks.set(webhook.id, webhook);
      return { ...webhook, url: `${url()}/api/webhooks/${webhook.id}/${webhook.token}` };
    },
    addThread(channelId, name) {
      const parent = world.channels.get(channelId);
      if (!parent) throw new Error(`no channel ${channelId}`);
      const id = world.ids.next();
      world.channels.set(id, { id, guildId: parent.guildId, kind: 'publicThread', name, parentId: parent.id });
      return id;
    },
    deleteWebhook(webhookId) {
      world.webhooks.delete(webhookId);
    },
    forceRateLimit(webhookId, retryAfterSecs, options = {}) {
      world.forcedLimits.set(webhookId, { skip: options.skip ?? 0, calls: options.calls ?? 1, retryAfter: retryAfterSecs, global: options.global ?? false });
    },
    stallAnswer(ms, skip = 0) {
      world.stall = { skip, ms };
    },
    setBucket(limit, windowMs) {
      world.bucket = { limit, windowMs };
    },
    setMaxFileBytes(bytes) {
      world.maxFileBytes = bytes;
    },
    channel(channelId) {
      const channel = world.channels.get(channelId);
      if (!channel) return undefined;
      const messages = [...world.messages.values()].filter((m) => m.channelId === channelId).sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
      return structuredClone({ ...channel, messages });
    },
    message: (messageId) => structuredClone(world.messages.get(messageId)),
    advanceClock: (ms) => world.clock.advance(ms),
  };
}
