// Publishing through a channel webhook: every container is a message the webhook sends (Execute
// Webhook with `wait=true`, so Discord answers the message and Crier learns its id). A webhook cannot
// reply (its body has no `message_reference`: IncomingWebhookRequestPartial in the vendored
// description), so a Crier thread is its messages in order in one place: the channel; the existing
// thread `threadId` names; or, with `threadName` in a forum or media channel, the forum post the root
// creates, every later container sent into it (`thread_id`). Files are uploaded in the multipart body
// (`payload_json` and `files[n]`), streamed from `input.openMedia`, each with its alt text as the
// attachment's description. Webhooks have no idempotency key and cannot list a channel's messages,
// so a crash between a send and its record cannot be reconciled: reconcile says it cannot tell.
import { PublishError } from '../../core/errors.ts';
import type { PartRef } from '../../core/post.ts';
import type { NetworkAdapter, PreparedPublish, PublishInput } from '../contract.ts';
import { reconcileErrors } from '../errors.ts';
import { DiscordClient, type DiscordMessage, type Upload } from './client.ts';
import { MAX_FILE_BYTES } from './media.ts';
import { SUPPRESS_EMBEDS, type DiscordBlock, type DiscordEmbed } from './options.ts';
import { judge } from './shape.ts';
import { rootTextOf } from '../measure.ts';
import { parseWebhookUrl } from './webhook-url.ts';

const { cannotTell } = reconcileErrors('discord', 'the channel');

export interface DiscordAdapterOptions {
  /** Discord's origin, or the emulator's (CRIER_DISCORD_BASE_URL). */
  origin: string;
  /** The configured base URL, which webhook URLs then name instead of Discord's hosts. */
  configured: string | undefined;
  /** The most bytes a file may have (Discord's default upload limit). */
  maxFileBytes?: number;
}

export function createDiscordAdapter(options: DiscordAdapterOptions): NetworkAdapter {
  return {
    network: 'discord',
    async prepare(input) {
      const key = parseWebhookUrl(input.account.credential ?? '', options.configured);
      if (!key) throw new PublishError('auth', 'discord: the account has no usable webhook URL stored; connect it again');
      judge(input);
      const client = new DiscordClient(options.origin, key);
      const webhook = await client.webhook();
      return preparedFor(client, input, webhook.guild_id ?? undefined, options.maxFileBytes ?? MAX_FILE_BYTES);
    },
  };
}

function preparedFor(client: DiscordClient, input: PublishInput, guildId: string | undefined, maxFileBytes: number): PreparedPublish {
  const block = (input.block ?? {}) as DiscordBlock;
  const flags = (block.flags ?? 0) | (block.suppressEmbeds ? SUPPRESS_EMBEDS : 0);

  /** The message's JSON payload: what every message carries, then the root's own fields. */
  function payloadOf(position: number, uploads: Upload[]): Record<string, unknown> {
    const container = input.containers[position]!;
    const root = position === 0;
    const content = root ? rootTextOf(input) : container.content;
    return withoutUndefined({
      content: content || undefined,
      username: block.username,
      avatar_url: block.avatarUrl,
      flags: flags || undefined,
      embeds: root && block.embeds ? block.embeds.map(embedOf) : undefined,
      thread_name: root ? block.threadName : undefined,
      attachments: uploads.length
        ? uploads.map((upload) => withoutUndefined({ id: String(upload.index), filename: upload.filename, description: container.media[upload.index]!.altText?.slice(0, 1024) }))
        : undefined,
      allowed_mentions: { parse: [] },
    });
  }

  async function uploadsOf(position: number): Promise<Upload[]> {
    const uploads: Upload[] = [];
    for (const [index, item] of input.containers[position]!.media.entries()) {
      const source = await input.openMedia(item.url);
      if (source.size > maxFileBytes) {
        throw new PublishError('permanent', `discord: ${item.filename} is ${source.size} bytes; a webhook uploads files of ${maxFileBytes / (1024 * 1024)} MiB at most`, undefined, 'media_rejected');
      }
      uploads.push({ index, filename: item.filename, source });
    }
    return uploads;
  }

  /** Where a message goes: the thread the block names, the forum post the root opened, else the channel. */
  const threadFor = (root: PartRef | undefined): string | undefined => (root ? (root.ref?.threadId as string | undefined) : block.threadId);

  return {
    reserve: () => ({ startedAt: new Date().toISOString() }),
    async publishPart(position, _reservation, root) {
      const uploads = await uploadsOf(position);
      const threadId = threadFor(root);
      const message = await client.execute(payloadOf(position, uploads), uploads, threadId);
      const inThread = threadId ?? (position === 0 && block.threadName !== undefined ? message.channel_id : undefined);
      return refOf(message, guildId, inThread);
    },
    async reconcile(position) {
      throw cannotTell(position, 'a Discord webhook has no idempotency key and cannot read the channel\'s messages');
    },
  };
}

/** The message's id, its link (discord.com/channels/<server>/<channel or thread>/<id>) and the thread later containers go into. */
function refOf(message: DiscordMessage, guildId: string | undefined, threadId: string | undefined): PartRef {
  return {
    platformId: message.id,
    url: `https://discord.com/channels/${guildId ?? '@me'}/${message.channel_id}/${message.id}`,
    ref: { channelId: message.channel_id, ...(threadId ? { threadId } : {}) },
  };
}

/** The block's embed as Discord's embed object. */
function embedOf(embed: DiscordEmbed): Record<string, unknown> {
  return withoutUndefined({
    title: embed.title,
    description: embed.description,
    url: embed.url,
    color: embed.color,
    image: embed.imageUrl ? { url: embed.imageUrl } : undefined,
    thumbnail: embed.thumbnailUrl ? { url: embed.thumbnailUrl } : undefined,
    footer: embed.footer ? { text: embed.footer } : undefined,
  });
}

const withoutUndefined = (fields: Record<string, unknown>) => Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
