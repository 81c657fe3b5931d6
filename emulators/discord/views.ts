// The objects Discord answers, as the description's response schemas have them: a webhook
// (GuildIncomingWebhookResponse, without `user` when read with its token), a message
// (MessageResponse, its author the webhook as a bot user: resources/webhook#execute-webhook; or the bot
// that sent it), a bot user (UserPIIResponse) and a channel (GuildChannelResponse, ThreadResponse,
// PrivateChannelResponse).
import { createHash } from 'node:crypto';
import { CHANNEL_TYPES, type Bot, type Channel, type DiscordWorld, type StoredAttachment, type StoredMessage, type Webhook } from './state.ts';

/** Get Webhook with Token: "returns no user in the webhook object". */
export function webhookView(webhook: Webhook): Record<string, unknown> {
  return { application_id: null, avatar: webhook.avatar, channel_id: webhook.channelId, guild_id: webhook.guildId, id: webhook.id, name: webhook.name, type: 1, token: webhook.token };
}

export function messageView(world: DiscordWorld, message: StoredMessage): Record<string, unknown> {
  const channel = world.channels.get(message.channelId);
  const inThread = channel?.kind === 'publicThread';
  const bot = message.botId ? [...world.bots.values()].find((b) => b.id === message.botId) : undefined;
  return {
    // 19: REPLY (resources/message#message-object-message-types).
    type: message.reference ? 19 : 0,
    content: message.content,
    mentions: [],
    mention_roles: [],
    attachments: message.attachments.map((a) => attachmentView(message.channelId, a)),
    embeds: message.embeds.map(embedView),
    timestamp: message.timestamp,
    edited_timestamp: message.editedTimestamp,
    flags: message.flags,
    components: [],
    id: message.id,
    channel_id: message.channelId,
    author: bot ? userView(bot) : {
      id: message.webhookId,
      username: message.username,
      avatar: message.avatarUrl ? createHash('md5').update(message.avatarUrl).digest('hex') : null,
      discriminator: '0000',
      public_flags: 0,
      flags: 0,
      bot: true,
      global_name: null,
      primary_guild: null,
    },
    pinned: false,
    mention_everyone: false,
    tts: false,
    ...(message.webhookId ? { webhook_id: message.webhookId } : {}),
    ...(message.reference ? { message_reference: { type: 0, channel_id: message.reference.channelId, message_id: message.reference.messageId, guild_id: channel?.guildId } } : {}),
    ...(inThread ? { position: positionInThread(world, message) } : {}),
  };
}

/** A bot as a message's author (UserResponse). */
export function userView(bot: Bot): Record<string, unknown> {
  return { id: bot.id, username: bot.username, avatar: null, discriminator: '0000', public_flags: 0, flags: 0, bot: true, global_name: null, primary_guild: null };
}

/** Get Current User for a bot (UserPIIResponse): a bot has no e-mail and MFA off. */
export const meView = (bot: Bot): Record<string, unknown> => ({ ...userView(bot), mfa_enabled: false, locale: 'en-US' });

/** A channel: a DM, a thread (with its metadata), or a server's channel. */
export function channelView(world: DiscordWorld, channel: Channel): Record<string, unknown> {
  const type = CHANNEL_TYPES[channel.kind];
  if (channel.kind === 'dm') return { id: channel.id, type, flags: 0, last_message_id: null, recipients: [] };
  const common = { id: channel.id, type, flags: 0, guild_id: channel.guildId, name: channel.name, last_message_id: lastMessageId(world, channel.id), rate_limit_per_user: 0 };
  if (channel.kind === 'publicThread') {
    const count = [...world.messages.values()].filter((m) => m.channelId === channel.id).length;
    return {
      ...common, parent_id: channel.parentId ?? null, owner_id: channel.ownerId ?? channel.id,
      thread_metadata: { archived: channel.archived ?? false, archive_timestamp: world.clock.iso(), auto_archive_duration: 4320, locked: false },
      message_count: count, member_count: 1, total_message_sent: count,
    };
  }
  return { ...common, parent_id: null, position: 0, permission_overwrites: [], nsfw: false };
}

function lastMessageId(world: DiscordWorld, channelId: string): string | null {
  const ids = [...world.messages.values()].filter((m) => m.channelId === channelId).map((m) => BigInt(m.id));
  return ids.length ? String(ids.reduce((a, b) => (a > b ? a : b))) : null;
}

/** A message's place in its thread (0 for the first), as Discord numbers thread messages. */
function positionInThread(world: DiscordWorld, message: StoredMessage): number {
  return [...world.messages.values()].filter((m) => m.channelId === message.channelId && BigInt(m.id) < BigInt(message.id)).length;
}

function attachmentView(channelId: string, a: StoredAttachment): Record<string, unknown> {
  const url = `https://cdn.discordapp.com/attachments/${channelId}/${a.id}/${encodeURIComponent(a.filename)}`;
  return { id: a.id, filename: a.filename, size: a.size, url, proxy_url: url.replace('cdn.discordapp.com', 'media.discordapp.net'), content_type: a.contentType, ...(a.description ? { description: a.description } : {}) };
}

/** A rich embed as sent, with its `type` ("rich" unless given) and without its nulls. */
function embedView(embed: Record<string, unknown>): Record<string, unknown> {
  const kept = Object.fromEntries(Object.entries(embed).filter(([, value]) => value !== null && value !== undefined));
  return { ...kept, type: typeof embed.type === 'string' ? embed.type : 'rich' };
}
