// A Discord message as Crier sends it, for a webhook and a bot alike: its text (the root's from the
// block's content), flags, the root's embeds, the files' attachment entries (each file's alt text as
// its description), no mentions resolved; the files opened from the post; and the ref kept of it.
import { PublishError } from '../../core/errors.ts';
import type { PartRef } from '../../core/post.ts';
import type { PublishInput } from '../contract.ts';
import { rootTextOf } from '../measure.ts';
import type { DiscordMessage, Upload } from './client.ts';
import { SUPPRESS_EMBEDS, type DiscordBlock, type DiscordEmbed } from './options.ts';

/** The text container `position` is sent with: the root's (the block's content, else the shared text), or the container's. */
export const textOf = (input: PublishInput, position: number): string => (position === 0 ? rootTextOf(input) : input.containers[position]!.content);

/** A message's JSON payload for a webhook and a bot alike: its text, flags, the root's embeds, the files' entries; no mentions resolved. */
export function messagePayload(input: PublishInput, position: number, uploads: Upload[]): Record<string, unknown> {
  const block = (input.block ?? {}) as DiscordBlock;
  const flags = (block.flags ?? 0) | (block.suppressEmbeds ? SUPPRESS_EMBEDS : 0);
  const container = input.containers[position]!;
  const root = position === 0;
  return withoutUndefined({
    content: textOf(input, position) || undefined,
    flags: flags || undefined,
    embeds: root && block.embeds ? block.embeds.map(embedOf) : undefined,
    attachments: uploads.length
      ? uploads.map((upload) => withoutUndefined({ id: String(upload.index), filename: upload.filename, description: container.media[upload.index]!.altText?.slice(0, 1024) }))
      : undefined,
    allowed_mentions: { parse: [] },
  });
}

/** Container `position`'s files, opened; one over the upload limit fails the destination naming its size. */
export async function uploadsOf(input: PublishInput, position: number, maxFileBytes: number): Promise<Upload[]> {
  const uploads: Upload[] = [];
  for (const [index, item] of input.containers[position]!.media.entries()) {
    const source = await input.openMedia(item.url);
    if (source.size > maxFileBytes) {
      throw new PublishError('permanent', `discord: ${item.filename} is ${source.size} bytes; Discord takes files of ${maxFileBytes / (1024 * 1024)} MiB at most`, undefined, 'media_rejected');
    }
    uploads.push({ index, filename: item.filename, source });
  }
  return uploads;
}

/** The message's id, its link (discord.com/channels/<server>/<channel or thread>/<id>) and the thread later containers go into. */
export function refOf(message: DiscordMessage, guildId: string | undefined, threadId: string | undefined): PartRef {
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

export const withoutUndefined = (fields: Record<string, unknown>) => Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
