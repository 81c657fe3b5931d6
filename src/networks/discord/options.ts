// The discord block: what the root message says and looks like, where the post goes in the channel
// (a new forum post, or an existing thread), and the message flags a webhook may set (Execute Webhook,
// https://discord.com/developers/docs/resources/webhook#execute-webhook; the vendored description's
// IncomingWebhookRequestPartial gives every limit below). Lengths of the texts are judged by shape.ts.
import { Type, type Static } from '../../validation/json-schema.ts';
import type { FieldIssue } from '../../core/errors.ts';
import { ContentOverride, issue, noRules } from '../rules.ts';
import type { NetworkOptions } from '../contract.ts';

/**
 * Message flags a post may set: SUPPRESS_EMBEDS (1 << 2) and SUPPRESS_NOTIFICATIONS (1 << 12). A webhook
 * may also set IS_COMPONENTS_V2, which needs components, and Crier sends none.
 */
export const SUPPRESS_EMBEDS = 1 << 2;
export const SUPPRESS_NOTIFICATIONS = 1 << 12;
const SETTABLE_FLAGS = SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS;

const Snowflake = (description: string) => Type.String({ pattern: '^[1-9][0-9]{0,19}$', description });

const Embed = Type.Object({
  title: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'Up to 256 characters.' })),
  description: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: 'Up to 4,096 characters.' })),
  url: Type.Optional(Type.String({ format: 'uri', maxLength: 2048, description: 'Where the title links to.' })),
  color: Type.Optional(Type.Integer({ minimum: 0, maximum: 0xffffff, description: 'The bar colour, as an RGB integer (0xRRGGBB).' })),
  imageUrl: Type.Optional(Type.String({ format: 'uri', maxLength: 2048, description: 'A large image shown in the embed (Discord fetches it).' })),
  thumbnailUrl: Type.Optional(Type.String({ format: 'uri', maxLength: 2048, description: 'A small image at the embed\'s corner (Discord fetches it).' })),
  footer: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'Up to 2,048 characters.' })),
}, { description: 'A rich embed (Discord\'s embed object): its texts together at most 6,000 characters.' });

const schema = Type.Object({
  content: ContentOverride(),
  username: Type.Optional(Type.String({ minLength: 1, maxLength: 80, description: "A webhook account only (a bot posts under its own name, and refuses it): the name every message of the post shows instead of the webhook's (1-80 characters; Discord refuses names containing \"discord\" or \"clyde\")." })),
  avatarUrl: Type.Optional(Type.String({ format: 'uri', maxLength: 2048, description: "A webhook account only (a bot posts under its own avatar, and refuses it): an image URL every message of the post shows as its avatar instead of the webhook's." })),
  embeds: Type.Optional(Type.Array(Embed, { minItems: 1, maxItems: 10, description: 'Up to 10 rich embeds on the root message.' })),
  threadName: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: "For an account of a forum or media channel: the post becomes a new forum post (a thread) of this name (1-100 characters), and later containers are sent in it." })),
  threadId: Type.Optional(Snowflake("Sends every message of the post in this existing thread of the account's channel; a webhook unarchives it if needed.")),
  suppressEmbeds: Type.Optional(Type.Boolean({ description: 'No link previews under the messages (the SUPPRESS_EMBEDS flag); the block\'s own embeds are still shown.' })),
  flags: Type.Optional(Type.Integer({ minimum: 0, description: 'Message flags as Discord\'s bitfield: SUPPRESS_EMBEDS (4) and SUPPRESS_NOTIFICATIONS (4096, a silent message); no other flag applies to a post (https://discord.com/developers/docs/resources/webhook#execute-webhook).' })),
});

export type DiscordBlock = Static<typeof schema>;
export type DiscordEmbed = Static<typeof Embed>;

/** The documented total of an embed's texts (https://discord.com/developers/docs/resources/message#embed-object-embed-limits). */
export const EMBED_TEXT_TOTAL = 6000;

function blockRules(block: Record<string, unknown>): FieldIssue[] {
  const discord = block as DiscordBlock;
  const issues: FieldIssue[] = [];
  if (discord.threadName !== undefined && discord.threadId !== undefined) {
    issues.push(issue('discord.threadId', 'threadName starts a new forum post and threadId sends into an existing thread: set only one'));
  }
  if (discord.flags !== undefined && (discord.flags & ~SETTABLE_FLAGS) !== 0) {
    issues.push(issue('discord.flags', `a post may set only SUPPRESS_EMBEDS (${SUPPRESS_EMBEDS}) and SUPPRESS_NOTIFICATIONS (${SUPPRESS_NOTIFICATIONS}); ${discord.flags} has other bits`));
  }
  if (discord.username !== undefined && /discord|clyde/i.test(discord.username)) {
    issues.push(issue('discord.username', 'Discord refuses a webhook username containing "discord" or "clyde"'));
  }
  (discord.embeds ?? []).forEach((embed, i) => {
    const total = embedTextLength(embed);
    if (total > EMBED_TEXT_TOTAL) issues.push(issue(`discord.embeds[${i}]`, `its texts are ${total} characters together; Discord allows ${EMBED_TEXT_TOTAL} across an embed`));
    if (!embed.title && !embed.description && !embed.imageUrl && !embed.thumbnailUrl) issues.push(issue(`discord.embeds[${i}]`, 'an embed needs a title, a description or an image'));
  });
  return issues;
}

export const embedTextLength = (embed: DiscordEmbed): number => [embed.title, embed.description, embed.footer].reduce((sum, text) => sum + [...(text ?? '')].length, 0);

export const options: NetworkOptions = {
  network: 'discord',
  schema,
  blockRules,
  targetRules: noRules,
};
