// The objects Discord answers, as the description's response schemas have them: a webhook
// (GuildIncomingWebhookResponse, without `user` when read with its token) and a message
// (MessageResponse, its author the webhook as a bot user: resources/webhook#execute-webhook).
import { createHash } from 'node:crypto';
import type { DiscordWorld, StoredAttachment, StoredMessage, Webhook } from './state.ts';

/** Get Webhook with Token: "returns no user in the webhook object". */
export function webhookView(webhook: Webhook): Record<string, unknown> {
  return { application_id: null, avatar: webhook.avatar, channel_id: webhook.channelId, guild_id: webhook.guildId, id: webhook.id, name: webhook.name, type: 1, token: webhook.token };
}

export function messageView(world: DiscordWorld, message: StoredMessage): Record<string, unknown> {
  const channel = world.channels.get(message.channelId);
  const inThread = channel?.kind === 'publicThread';
  return {
    type: 0,
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
    author: {
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
    webhook_id: message.webhookId,
    ...(inThread ? { position: positionInThread(world, message) } : {}),
  };
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
