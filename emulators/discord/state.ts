// What the emulated Discord remembers: servers (guilds) with their channels (text, announcement,
// forum, media, voice, and the threads in them; DMs apart), the channels' webhooks, bot users and the
// channels each may see, and the messages webhooks and bots sent, by id. Ids are
// snowflakes (https://discord.com/developers/docs/reference#snowflakes): milliseconds since Discord's
// epoch (2015-01-01) shifted 22 bits, read from the emulator's clock.
import type { Clock } from '../shared/clock.ts';
import type { TimeIds } from '../shared/ids.ts';

export const DISCORD_EPOCH_MS = 1_420_070_400_000;

/** Channel types (resources/channel#channel-object-channel-types) the emulator serves. */
export const CHANNEL_TYPES = { text: 0, dm: 1, voice: 2, announcement: 5, publicThread: 11, forum: 15, media: 16 } as const;
export type ChannelKind = keyof typeof CHANNEL_TYPES;

export interface Guild {
  id: string;
  name: string;
}

export interface Channel {
  id: string;
  /** Empty for a DM (no server). */
  guildId: string;
  kind: ChannelKind;
  name: string;
  /** A thread's channel (its forum, or the text channel it is in). */
  parentId?: string;
  archived?: boolean;
  /** Who opened a thread (a bot's id), else the thread's own id stands in. */
  ownerId?: string;
}

export interface Webhook {
  id: string;
  token: string;
  name: string;
  channelId: string;
  guildId: string;
  avatar: string | null;
}

/** A bot user (an application's bot, made in the Developer Portal and added to servers). */
export interface Bot {
  id: string;
  token: string;
  username: string;
  /** The channels it may see and post in (what its roles and the channels' overwrites grant); threads follow their parent. */
  channels: Set<string>;
}

export interface StoredAttachment {
  id: string;
  filename: string;
  size: number;
  contentType: string;
  description?: string;
  sha256: string;
}

export interface StoredMessage {
  id: string;
  channelId: string;
  /** Who sent it: a webhook, or a bot. */
  webhookId?: string;
  botId?: string;
  /** The bot's nonce (Create Message), and the message it replies to. */
  nonce?: string | number;
  reference?: { messageId: string; channelId: string };
  content: string;
  /** The name and avatar the message shows (the webhook's, or the request's override). */
  username: string;
  avatarUrl?: string;
  embeds: Record<string, unknown>[];
  attachments: StoredAttachment[];
  flags: number;
  allowedMentions?: unknown;
  timestamp: string;
  editedTimestamp: string | null;
}

export interface DiscordWorld {
  clock: Clock;
  ids: TimeIds;
  /** The webhook buckets' current windows, by bucket key. */
  windows: Map<string, { start: number; used: number }>;
  guilds: Map<string, Guild>;
  channels: Map<string, Channel>;
  webhooks: Map<string, Webhook>;
  /** By token. */
  bots: Map<string, Bot>;
  messages: Map<string, StoredMessage>;
  /** By webhook or bot id: calls to let through, then calls to answer 429, and the retry_after (seconds) they carry. */
  forcedLimits: Map<string, { skip: number; calls: number; retryAfter: number; global: boolean }>;
  /** Executions to let through, then one carried out and its answer held `ms` (a control). */
  stall?: { skip: number; ms: number };
  /** The webhook bucket: requests per window (Discord's commonly observed 5 per 2 s). */
  bucket: { limit: number; windowMs: number };
  /** The largest file a message takes (the default upload limit, 25 MiB). */
  maxFileBytes: number;
}
