// What tests (and the sandbox) may do beyond the API: make a server's channel (text, forum, media) and
// a webhook in it (what a server's administrator does in the channel's settings), open a thread,
// delete a webhook, make a webhook answer 429 (a forced rate limit), hold an execution's answer after
// it took effect, change the bucket and the upload limit, move the clock; and read-only views of
// channels, threads and messages.
import { randomBytes } from 'node:crypto';
import type { Channel, ChannelKind, DiscordWorld, StoredMessage, Webhook } from './state.ts';

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
  /** A public thread in a text channel (a thread a person opened), to send into with thread_id. */
  addThread(channelId: string, name: string): string;
  /** The webhook is deleted in the channel's settings: its URL answers 404 Unknown Webhook from now on. */
  deleteWebhook(webhookId: string): void;
  /** After `skip` requests answered as usual, the webhook's next `calls` requests answer 429 with this retry_after (seconds, a float). */
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
  const addChannel = (input: AddWebhookInput): Channel => {
    const guild = { id: world.ids.next(), name: input.guildName ?? 'Emulated server' };
    world.guilds.set(guild.id, guild);
    const channel: Channel = { id: world.ids.next(), guildId: guild.id, kind: input.channelKind ?? 'text', name: input.channelName ?? 'general' };
    world.channels.set(channel.id, channel);
    return channel;
  };
  return {
    addWebhook(input) {
      const channel = input.channelId ? world.channels.get(input.channelId) : addChannel(input);
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
