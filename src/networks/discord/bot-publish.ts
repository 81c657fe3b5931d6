// Publishing as a bot in its channel (bot-client.ts): every container is a message (Create Message,
// https://discord.com/developers/docs/resources/message#create-message), with the webhook's body
// (adapter.ts: text, flags, the root's embeds, files). Unlike a webhook, a bot can reply: later
// containers reply to the root (`message_reference`), in the root's channel or thread. In a forum or
// media channel the root opens a forum post named `threadName` (Start Thread in Forum or Media
// Channel), and later containers go into it; `threadId` sends every message into an existing thread.
// `username` and `avatarUrl` are a webhook's alone (a bot posts as itself): a post that sets them is
// refused for a bot account rather than published under another name than asked.
//
// Idempotency: every message carries the `nonce` chosen at reservation with `enforce_nonce: true` ("if
// true and nonce is present, it will be checked for uniqueness in the past few minutes; if another
// message was created by the same author with the same nonce, that message will be returned and no
// new message will be created"). So after a crash, within NONCE_TRUST_MS of the reservation, sending
// again is safe (reconcile answers 'absent'); later, the channel's messages since the reservation are
// read back (Get Channel Messages `after` its snowflake) and the bot's own message with the same text
// and file count is the container (Discord's reads do not carry the nonce). A forum post is opened
// without a nonce (Start Thread takes none): a crash there is `unknown`.
import { randomBytes } from 'node:crypto';
import { PublishError } from '../../core/errors.ts';
import type { PartRef } from '../../core/post.ts';
import type { PreparedPublish, PublishInput } from '../contract.ts';
import { reconcileErrors } from '../errors.ts';
import type { BotKey } from './account.ts';
import { messagePayload, refOf, textOf, uploadsOf } from './message.ts';
import { DiscordBotClient, isForum, PAGE, type DiscordChannel } from './bot-client.ts';
import type { DiscordMessage } from './client.ts';
import type { DiscordBlock } from './options.ts';

const { cannotTell, orUnknown } = reconcileErrors('discord', 'the channel');

/**
 * How long after its reservation a message's nonce is trusted to be still enforced: Discord says "the
 * past few minutes" and gives no figure, so Crier counts on two.
 */
export const NONCE_TRUST_MS = 2 * 60_000;
/** A reconcile reads this far back before the reservation (clocks differ), and this many pages at most. */
const CLOCK_MARGIN_MS = 60_000;
const MAX_PAGES = 10;
const DISCORD_EPOCH_MS = 1_420_070_400_000;

/** The smallest snowflake of a moment (reference#snowflakes: milliseconds since 2015 shifted 22 bits). */
export const snowflakeAt = (ms: number) => String(BigInt(Math.max(0, ms - DISCORD_EPOCH_MS)) << 22n);

/** A nonce of at most 25 characters (the description's maxLength). */
const newNonce = () => `c${randomBytes(12).toString('base64url')}`;

const invalid = (why: string) => new PublishError('permanent', `discord: ${why}`, undefined, 'invalid');

export async function prepareBot(origin: string, key: BotKey, input: PublishInput, maxFileBytes: number): Promise<PreparedPublish> {
  const block = (input.block ?? {}) as DiscordBlock;
  const webhookOnly = (['username', 'avatarUrl'] as const).filter((field) => block[field] !== undefined);
  if (webhookOnly.length) {
    throw invalid(`${webhookOnly.map((f) => `discord.${f}`).join(' and ')} ${webhookOnly.length > 1 ? 'are' : 'is'} a webhook's; this account is a bot, which posts under its own name and avatar: leave ${webhookOnly.length > 1 ? 'them' : 'it'} out`);
  }
  const client = new DiscordBotClient(origin, key);
  const me = await client.me();
  const channel = await client.channel(key.channelId);
  checkPlace(channel, block);
  return botPublish(client, input, { block, channel, botId: me.id, maxFileBytes });
}

/** A forum takes posts only as threads; a text channel opens no forum post. */
function checkPlace(channel: DiscordChannel, block: DiscordBlock): void {
  const name = `#${channel.name ?? channel.id}`;
  if (isForum(channel.type) && block.threadName === undefined && block.threadId === undefined) {
    throw invalid(`the bot's channel ${name} is a forum: set discord.threadName (a new forum post) or discord.threadId`);
  }
  if (!isForum(channel.type) && block.threadName !== undefined) {
    throw invalid(`discord.threadName opens a forum post, and ${name} is not a forum: leave it out (later containers reply to the root), or send into a thread with discord.threadId`);
  }
}

interface BotPlace {
  block: DiscordBlock;
  channel: DiscordChannel;
  botId: string;
  maxFileBytes: number;
}

function botPublish(client: DiscordBotClient, input: PublishInput, place: BotPlace): PreparedPublish {
  const { block, channel } = place;
  const opensForumPost = (position: number) => position === 0 && block.threadName !== undefined;
  /** The root goes to the thread named, else the channel; later containers where the root is (its channel or thread). */
  const whereOf = (root: PartRef | undefined) => (root ? String(root.ref?.channelId ?? channel.id) : block.threadId ?? channel.id);
  const threadOf = (where: string) => (where === channel.id ? undefined : where);

  return {
    reserve: () => ({ startedAt: new Date().toISOString(), nonce: newNonce() }),
    async publishPart(position, reservation, root) {
      const uploads = await uploadsOf(input, position, place.maxFileBytes);
      const payload = messagePayload(input, position, uploads);
      if (opensForumPost(position)) {
        const message = await client.startForumPost(channel.id, block.threadName!, payload, uploads);
        return refOf(message, channel.guild_id, message.channel_id);
      }
      const where = whereOf(root);
      const reply = root ? { message_reference: { message_id: root.platformId, channel_id: where, fail_if_not_exists: false } } : {};
      const message = await client.createMessage(where, { ...payload, ...reply, nonce: reservation.nonce, enforce_nonce: true }, uploads);
      return refOf(message, channel.guild_id, threadOf(where));
    },
    async reconcile(position, reservation, root) {
      if (opensForumPost(position)) throw cannotTell(position, 'a forum post is opened without a nonce, and Crier does not list a forum\'s posts');
      const startedAt = Date.parse(String(reservation.startedAt));
      if (Date.now() - startedAt < NONCE_TRUST_MS) return 'absent';
      const where = whereOf(root);
      const { found, seen } = await orUnknown(position, () => sentSince(client, where, startedAt, (m) => isOurs(m, position, reservation)));
      // A bot without Read Message History is answered no message at all (Get Channel Messages): an
      // empty read proves nothing, and sending again could post twice.
      if (!seen) throw cannotTell(position, 'the channel shows no message since then (a bot without Read Message History sees none), so whether it was sent cannot be read back');
      const owned = input.ownedElsewhere ? await input.ownedElsewhere(found.map((m) => m.id)) : new Set<string>();
      const mine = found.filter((m) => !owned.has(m.id));
      if (mine.length > 1) throw cannotTell(position, `${mine.length} messages of the bot since then have this container's text and files`);
      return mine[0] ? refOf(mine[0], channel.guild_id, threadOf(where)) : 'absent';
    },
  };

  /** The bot's message with this reservation's nonce, or (reads carry none) with the container's text and file count. */
  function isOurs(message: DiscordMessage, position: number, reservation: Record<string, unknown>): boolean {
    if (message.author?.id !== place.botId) return false;
    if (message.nonce !== undefined) return String(message.nonce) === String(reservation.nonce);
    return (message.content ?? '') === textOf(input, position) && (message.attachments?.length ?? 0) === input.containers[position]!.media.length;
  }
}

/** The channel's messages since `startedAt` (less the clock margin) that `match`, reading up to MAX_PAGES pages. */
async function sentSince(client: DiscordBotClient, channelId: string, startedAt: number, match: (m: DiscordMessage) => boolean): Promise<{ found: DiscordMessage[]; seen: number }> {
  let after = snowflakeAt(startedAt - CLOCK_MARGIN_MS);
  const found: DiscordMessage[] = [];
  let seen = 0;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const messages = await client.messagesAfter(channelId, after);
    seen += messages.length;
    found.push(...messages.filter(match));
    if (messages.length < PAGE) return { found, seen };
    after = messages[messages.length - 1]!.id;
  }
  throw new Error(`more than ${MAX_PAGES * PAGE} messages were sent in the channel since then`);
}
