// What the emulated Discord remembers: servers (guilds) with their channels (text, forum, media, and
// the threads in them), the channels' webhooks, and the messages webhooks sent, by id. Ids are
// snowflakes (https://discord.com/developers/docs/reference#snowflakes): milliseconds since Discord's
// epoch (2015-01-01) shifted 22 bits, read from the emulator's clock.
import type { Clock } from '../shared/clock.ts';
import type { TimeIds } from '../shared/ids.ts';

export const DISCORD_EPOCH_MS = 1_420_070_400_000;

/** Channel types (resources/channel#channel-object-channel-types) the emulator serves. */
export const CHANNEL_TYPES = { text: 0, announcement: 5, publicThread: 11, forum: 15, media: 16 } as const;
export type ChannelKind = keyof typeof CHANNEL_TYPES;

export interface Guild {
  id: string;
  name: string;
}

export interface Channel {
  id: string;
  guildId: string;
  kind: ChannelKind;
  name: string;
  /** A thread's channel (its forum, or the text channel it is in). */
  parentId?: string;
  archived?: boolean;
}

export interface Webhook {
  id: string;
  token: string;
  name: string;
  channelId: string;
  guildId: string;
  avatar: string | null;
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
  webhookId: string;
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
  messages: Map<string, StoredMessage>;
  /** By webhook id: calls to let through, then calls to answer 429, and the retry_after (seconds) they carry. */
  forcedLimits: Map<string, { skip: number; calls: number; retryAfter: number; global: boolean }>;
  /** Executions to let through, then one carried out and its answer held `ms` (a control). */
  stall?: { skip: number; ms: number };
  /** The webhook bucket: requests per window (Discord's commonly observed 5 per 2 s). */
  bucket: { limit: number; windowMs: number };
  /** The largest file a message takes (the default upload limit, 25 MiB). */
  maxFileBytes: number;
}
