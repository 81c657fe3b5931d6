// What a bot does with its token (`Authorization: Bot <token>`, reference#authentication): read itself
// (users#get-current-user), read a channel it can see (channel#get-channel), read a channel's messages
// (message#get-channel-messages), send a message (message#create-message: a reply with
// `message_reference`, a `nonce` checked for uniqueness with `enforce_nonce`), edit and delete its own
// messages (message#edit-message, #delete-message), and open a thread (channel#start-thread-in-forum-or-media-channel,
// a forum post with its first message; channel#start-thread-without-message in a text channel).
import { readBody, type UploadedFile } from '../body.ts';
import { discordError, emptyMessage, invalidFormBody, tooLarge, unknownChannel, unknownMessage, type Answer } from '../errors.ts';
import type { Bot, Channel, DiscordWorld, StoredMessage } from '../state.ts';
import { bodyErrors, type FieldError } from '../validate.ts';
import { channelView, meView, messageView } from '../views.ts';
import { applyEdit, contentLengthErrors } from './messages.ts';
import { attachmentsOf } from './webhooks.ts';

export const CHANNEL = '/channels/{channel_id}';
export const MESSAGES = '/channels/{channel_id}/messages';
export const BOT_MESSAGE = '/channels/{channel_id}/messages/{message_id}';
export const THREADS = '/channels/{channel_id}/threads';

/**
 * How long a nonce sent with `enforce_nonce` is remembered: Discord says "checked for uniqueness in the
 * past few minutes" (message#create-message) and gives no figure; 5 minutes is the emulator's (README: invented).
 */
export const NONCE_WINDOW_MS = 5 * 60_000;

export interface BotRequest {
  world: DiscordWorld;
  bot: Bot;
  channelId: string;
  messageId: string;
  query: Record<string, string | undefined>;
  body: unknown;
  contentType: string | undefined;
}

const missingAccess = () => discordError(403, 50001, 'Missing Access');
const notTextChannel = () => discordError(400, 50008, 'Cannot send messages in a non-text channel');
const wrongChannelType = () => discordError(400, 50024, 'Cannot execute action on this channel type');

export const getMe = ({ bot }: BotRequest): Answer => ({ status: 200, body: meView(bot) });

/** The channel, or why the bot cannot reach it: unknown (404 10003), or not granted to it (403 50001). */
function channelFor({ world, bot, channelId }: BotRequest): Channel | Answer {
  const channel = world.channels.get(channelId);
  if (!channel) return unknownChannel();
  const sees = bot.channels.has(channel.id) || (channel.parentId !== undefined && bot.channels.has(channel.parentId));
  return sees ? channel : missingAccess();
}

const refused = (value: Channel | Answer): value is Answer => 'status' in value;

export function getChannel(request: BotRequest): Answer {
  const channel = channelFor(request);
  return refused(channel) ? channel : { status: 200, body: channelView(request.world, channel) };
}

/** Get Channel Messages: `before`, `after` or `around` a message id, `limit` 1-100 (default 50), newest first. */
export function listMessages(request: BotRequest): Answer {
  const channel = channelFor(request);
  if (refused(channel)) return channel;
  const { before, after, around, limit: rawLimit } = request.query;
  const limit = rawLimit === undefined ? 50 : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) return invalidFormBody([{ path: ['limit'], code: 'NUMBER_TYPE_MAX', message: 'int value should be less than or equal to 100.' }]);
  const all = [...request.world.messages.values()].filter((m) => m.channelId === channel.id).sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
  let chosen: StoredMessage[];
  if (after !== undefined) chosen = all.filter((m) => BigInt(m.id) > BigInt(after)).slice(0, limit);
  else if (before !== undefined) chosen = all.filter((m) => BigInt(m.id) < BigInt(before)).slice(-limit);
  else if (around !== undefined) {
    const at = all.findIndex((m) => BigInt(m.id) >= BigInt(around));
    const start = Math.max(0, (at === -1 ? all.length : at) - Math.floor(limit / 2));
    chosen = all.slice(start, start + limit);
  } else chosen = all.slice(-limit);
  return { status: 200, body: chosen.reverse().map((m) => messageView(request.world, m)) };
}

/** The bot's own message in the channel; another's may be read, not edited or deleted. */
function messageIn(request: BotRequest, channel: Channel): StoredMessage | undefined {
  const message = request.world.messages.get(request.messageId);
  return message && message.channelId === channel.id ? message : undefined;
}

export function getBotMessage(request: BotRequest): Answer {
  const channel = channelFor(request);
  if (refused(channel)) return channel;
  const message = messageIn(request, channel);
  return message ? { status: 200, body: messageView(request.world, message) } : unknownMessage();
}

export async function editBotMessage(request: BotRequest): Promise<Answer> {
  const channel = channelFor(request);
  if (refused(channel)) return channel;
  const message = messageIn(request, channel);
  if (!message) return unknownMessage();
  if (message.botId !== request.bot.id) return discordError(403, 50005, 'Cannot edit a message authored by another user');
  return applyEdit(request.world, message, BOT_MESSAGE, request.body, request.contentType);
}

export function deleteBotMessage(request: BotRequest): Answer {
  const channel = channelFor(request);
  if (refused(channel)) return channel;
  const message = messageIn(request, channel);
  if (!message) return unknownMessage();
  // Another's message needs MANAGE_MESSAGES, which the emulator grants no bot (README: invented).
  if (message.botId !== request.bot.id) return discordError(403, 50013, 'Missing Permissions');
  request.world.messages.delete(message.id);
  return { status: 204 };
}

type MessagePayload = {
  content?: string | null;
  embeds?: unknown[] | null;
  components?: unknown[] | null;
  poll?: unknown;
  sticker_ids?: unknown[] | null;
  nonce?: string | number | null;
  enforce_nonce?: boolean | null;
  message_reference?: { message_id: string; channel_id?: string | null; fail_if_not_exists?: boolean | null } | null;
};

export async function createMessage(request: BotRequest): Promise<Answer> {
  const channel = channelFor(request);
  if (refused(channel)) return channel;
  if (!['text', 'announcement', 'publicThread', 'dm'].includes(channel.kind)) return notTextChannel();
  const body = await readBody(request.body, request.contentType);
  if (!body) return discordError(400, 50109, 'The request body contains invalid JSON.');
  const problems = [...bodyErrors('post', MESSAGES, body.payload), ...contentLengthErrors(body.payload)];
  if (problems.length) return invalidFormBody(problems);
  const payload = body.payload as MessagePayload;
  const earlier = sameNonce(request, payload);
  if (earlier) return { status: 200, body: { ...messageView(request.world, earlier), nonce: earlier.nonce } };
  const reference = referenceOf(request.world, channel, payload);
  if (reference && 'status' in reference) return reference;
  const refusal = contentRefusal(request.world, payload, body.files);
  if (refusal) return refusal;
  const message = store(request, channel.id, body.payload, body.files, reference);
  return { status: 200, body: { ...messageView(request.world, message), ...(message.nonce !== undefined ? { nonce: message.nonce } : {}) } };
}

function contentRefusal(world: DiscordWorld, payload: MessagePayload, files: UploadedFile[]): Answer | undefined {
  if (!payload.content && !payload.embeds?.length && !files.length && !payload.components?.length && !payload.poll && !payload.sticker_ids?.length) return emptyMessage();
  return files.some((file) => file.bytes.length > world.maxFileBytes) ? tooLarge() : undefined;
}

/** "If true and nonce is present, it will be checked for uniqueness in the past few minutes": the bot's earlier message with it. */
function sameNonce({ world, bot }: BotRequest, payload: MessagePayload): StoredMessage | undefined {
  if (payload.enforce_nonce !== true || payload.nonce === undefined || payload.nonce === null) return undefined;
  const since = world.clock.now() - NONCE_WINDOW_MS;
  return [...world.messages.values()].find((m) => m.botId === bot.id && m.nonce !== undefined && String(m.nonce) === String(payload.nonce) && Date.parse(m.timestamp) >= since);
}

/** The message replied to: in this channel unless `channel_id` says otherwise; unknown is refused unless fail_if_not_exists is false. */
function referenceOf(world: DiscordWorld, channel: Channel, payload: MessagePayload): StoredMessage['reference'] | Answer | undefined {
  const wanted = payload.message_reference;
  if (!wanted) return undefined;
  const channelId = wanted.channel_id ?? channel.id;
  const target = world.messages.get(String(wanted.message_id));
  if (target && target.channelId === channelId) return { messageId: target.id, channelId };
  if (wanted.fail_if_not_exists === false) return undefined;
  return invalidFormBody([{ path: ['message_reference'], code: 'MESSAGE_REFERENCE_UNKNOWN_MESSAGE', message: 'Unknown message' }]);
}

function store(request: BotRequest, channelId: string, payload: Record<string, unknown>, files: UploadedFile[], reference: StoredMessage['reference'], id = request.world.ids.next()): StoredMessage {
  const { world, bot } = request;
  const nonce = payload.nonce;
  const message: StoredMessage = {
    id,
    channelId,
    botId: bot.id,
    ...(typeof nonce === 'string' || typeof nonce === 'number' ? { nonce } : {}),
    ...(reference ? { reference } : {}),
    content: typeof payload.content === 'string' ? payload.content : '',
    username: bot.username,
    embeds: (Array.isArray(payload.embeds) ? payload.embeds : []) as Record<string, unknown>[],
    attachments: attachmentsOf(world, payload.attachments, files),
    flags: typeof payload.flags === 'number' ? payload.flags : 0,
    ...(payload.allowed_mentions !== undefined ? { allowedMentions: payload.allowed_mentions } : {}),
    timestamp: world.clock.iso(),
    editedTimestamp: null,
  };
  world.messages.set(id, message);
  return message;
}

/**
 * Start Thread: in a forum or media channel, a forum post (`name` and its first `message`, files as
 * files[n]), answered 201 with the thread and its `message`; in a text or announcement channel, a
 * thread without a message. A forum post's thread shares its starter message's id (topics/threads#forums).
 */
export async function createThread(request: BotRequest): Promise<Answer> {
  const channel = channelFor(request);
  if (refused(channel)) return channel;
  const body = await readBody(request.body, request.contentType);
  if (!body) return discordError(400, 50109, 'The request body contains invalid JSON.');
  const problems: FieldError[] = bodyErrors('post', THREADS, body.payload);
  if (problems.length) return invalidFormBody(problems);
  const payload = body.payload as { name: string; message?: Record<string, unknown> };
  const { world, bot } = request;
  if (channel.kind === 'forum' || channel.kind === 'media') {
    if (!payload.message) return invalidFormBody([{ path: ['message'], code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }]);
    const messageProblems = contentLengthErrors(payload.message).map((e) => ({ ...e, path: ['message', ...e.path] }));
    if (messageProblems.length) return invalidFormBody(messageProblems);
    const refusal = contentRefusal(world, payload.message as MessagePayload, body.files);
    if (refusal) return refusal;
    const id = world.ids.next();
    const thread: Channel = { id, guildId: channel.guildId, kind: 'publicThread', name: payload.name, parentId: channel.id, ownerId: bot.id };
    world.channels.set(id, thread);
    const message = store(request, id, payload.message, body.files, undefined, id);
    return { status: 201, body: { ...channelView(world, thread), message: messageView(world, message) } };
  }
  if (channel.kind !== 'text' && channel.kind !== 'announcement') return wrongChannelType();
  const id = world.ids.next();
  const thread: Channel = { id, guildId: channel.guildId, kind: 'publicThread', name: payload.name, parentId: channel.id, ownerId: bot.id };
  world.channels.set(id, thread);
  return { status: 201, body: channelView(world, thread) };
}
