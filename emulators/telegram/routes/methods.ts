// The Bot API methods the emulator answers (https://core.telegram.org/bots/api#available-methods),
// each with the parameters and the refusals the reference documents: getMe, getChat, getChatMember,
// sendMessage, sendPhoto, sendVideo, sendDocument, sendMediaGroup, editMessageText, editMessageCaption,
// deleteMessage.
// Method names are case-insensitive ("All methods in the Bot API are case-insensitive").
import { randomBytes } from 'node:crypto';
import { badRequest, forbidden, ok, tooManyRequests, type Answer } from '../errors.ts';
import { format } from '../markup.ts';
import { findChat, type Bot, type Chat, type Entity, type StoredFile, type StoredMessage, type TelegramWorld } from '../state.ts';
import type { Params } from '../validate.ts';
import { resolveFile } from './files.ts';
import { chatFullInfo, chatMemberOf, messageOf, userOf } from './views.ts';

export interface Call {
  world: TelegramWorld;
  bot: Bot;
  params: Params;
}

type Method = (call: Call) => Promise<Answer> | Answer;

/** sendMessage: "Text of the message to be sent, 1-4096 characters after entities parsing"; captions "0-1024 characters after entities parsing". */
const MAX_TEXT = 4096;
const MAX_CAPTION = 1024;
/** deleteMessage: "A message can only be deleted if it was sent less than 48 hours ago." */
const DELETE_WINDOW_SECS = 48 * 3600;

export const METHODS: Record<string, Method> = {
  getme: ({ bot }) => ok(userOf(bot)),
  getchat: ({ world, bot, params }) => {
    const chat = visibleChat(world, bot, params);
    return 'id' in chat ? ok(chatFullInfo(chat)) : chat;
  },
  getchatmember: ({ world, bot, params }) => {
    const chat = visibleChat(world, bot, params);
    if (!('id' in chat)) return chat;
    const userId = params.integer('user_id');
    if (userId === undefined) return badRequest(params.has('user_id') ? 'invalid user_id specified' : 'user_id is empty');
    const member = [...world.bots.values()].find((b) => b.id === userId);
    if (!member) return badRequest('user not found');
    return ok(chatMemberOf(member, chat.members.get(userId), chat));
  },
  sendmessage: async ({ world, bot, params }) => {
    const chat = postingChat(world, bot, params);
    if (!('id' in chat)) return chat;
    const text = formatted(params.string('text') ?? '', params.string('parse_mode'), MAX_TEXT, 'message is too long');
    if ('status' in text) return text;
    if (!text.text.trim()) return badRequest('message text is empty');
    const reply = replyOf(chat, params);
    if (typeof reply === 'object') return reply;
    const preview = params.json('link_preview_options') as { is_disabled?: boolean } | null | undefined;
    const message = record(world, chat, bot, params, { text: text.text, entities: text.entities, replyTo: reply, linkPreviewDisabled: preview?.is_disabled === true });
    return ok(messageOf(chat, message, bot));
  },
  sendphoto: (call) => sendFile(call, 'photo'),
  sendvideo: (call) => sendFile(call, 'video'),
  senddocument: (call) => sendFile(call, 'document'),
  sendmediagroup: sendMediaGroup,
  editmessagetext: ({ world, bot, params }) => {
    const target = editable(world, bot, params);
    if (!('message' in target)) return target;
    const { chat, message } = target;
    if (message.text === undefined) return badRequest('there is no text in the message to edit');
    const text = formatted(params.string('text') ?? '', params.string('parse_mode'), MAX_TEXT, 'message is too long');
    if ('status' in text) return text;
    if (!text.text.trim()) return badRequest('message text is empty');
    const preview = params.json('link_preview_options') as { is_disabled?: boolean } | null | undefined;
    const linkPreviewDisabled = preview?.is_disabled === true;
    if (text.text === message.text && sameEntities(text.entities, message.entities) && linkPreviewDisabled === message.linkPreviewDisabled) return notModified();
    Object.assign(message, { text: text.text, entities: text.entities, linkPreviewDisabled, editDate: world.clock.nowSecs() });
    return ok(messageOf(chat, message, bot));
  },
  editmessagecaption: ({ world, bot, params }) => {
    const target = editable(world, bot, params);
    if (!('message' in target)) return target;
    const { chat, message } = target;
    if (!message.file) return badRequest('there is no caption in the message to edit');
    const caption = formatted(params.string('caption') ?? '', params.string('parse_mode'), MAX_CAPTION, 'message caption is too long');
    if ('status' in caption) return caption;
    const text = caption.text || undefined;
    if (text === message.caption && sameEntities(caption.entities, message.entities)) return notModified();
    Object.assign(message, { caption: text, entities: caption.entities, editDate: world.clock.nowSecs() });
    return ok(messageOf(chat, message, bot));
  },
  deletemessage: ({ world, bot, params }) => {
    const chat = findChat(world, params.string('chat_id') ?? '');
    if (!chat) return badRequest('chat not found');
    const message = chat.messages.get(params.integer('message_id') ?? 0);
    if (!message) return badRequest('message to delete not found');
    const member = chat.members.get(bot.id);
    const mayDeleteAny = member?.status === 'creator' || (member?.status === 'administrator' && member.rights.can_delete_messages === true);
    if ((message.botId !== bot.id && !mayDeleteAny) || world.clock.nowSecs() - message.date >= DELETE_WINDOW_SECS) return badRequest("message can't be deleted");
    chat.messages.delete(message.messageId);
    return ok(true);
  },
};

async function sendFile({ world, bot, params }: Call, kind: StoredFile['kind']): Promise<Answer> {
  const chat = postingChat(world, bot, params);
  if (!('id' in chat)) return chat;
  const caption = formatted(params.string('caption') ?? '', params.string('parse_mode'), MAX_CAPTION, 'message caption is too long');
  if ('status' in caption) return caption;
  const reply = replyOf(chat, params);
  if (typeof reply === 'object') return reply;
  const file = await resolveFile(world, params, params.file(kind), kind);
  if ('status' in file) return file;
  const message = record(world, chat, bot, params, { caption: caption.text || undefined, entities: caption.entities, file, replyTo: reply });
  return ok(messageOf(chat, message, bot));
}

interface InputMedia {
  type?: unknown;
  media?: unknown;
  caption?: unknown;
  parse_mode?: unknown;
}

/** sendMediaGroup: "A JSON-serialized array describing messages to be sent, must include 2-10 items"; "Documents and audio files can be only grouped in an album with messages of the same type." */
async function sendMediaGroup({ world, bot, params }: Call): Promise<Answer> {
  const chat = postingChat(world, bot, params);
  if (!('id' in chat)) return chat;
  const media = params.json('media');
  if (media === undefined) return badRequest('parameter "media" is required');
  if (!Array.isArray(media) || media.some((item) => typeof item !== 'object' || item === null)) return badRequest("can't parse media JSON object");
  if (media.length < 2 || media.length > 10) return badRequest(media.length > 10 ? 'too many messages to send as an album' : 'media must include 2-10 items');
  const types = (media as InputMedia[]).map((item) => item.type);
  if (types.some((type) => type !== 'photo' && type !== 'video' && type !== 'document')) return badRequest("can't parse InputMedia: media type is unsupported");
  if (types.includes('document') && types.some((type) => type !== 'document')) return badRequest("document can't be mixed with other media types");
  const reply = replyOf(chat, params);
  if (typeof reply === 'object') return reply;
  const prepared: { file: StoredFile; caption?: string; entities: Entity[] }[] = [];
  for (const item of media as InputMedia[]) {
    const caption = formatted(typeof item.caption === 'string' ? item.caption : '', typeof item.parse_mode === 'string' ? item.parse_mode : undefined, MAX_CAPTION, 'message caption is too long');
    if ('status' in caption) return caption;
    const file = await resolveFile(world, params, typeof item.media === 'string' ? item.media : undefined, item.type as StoredFile['kind']);
    if ('status' in file) return file;
    prepared.push({ file, caption: caption.text || undefined, entities: caption.entities });
  }
  const mediaGroupId = BigInt(`0x${randomBytes(7).toString('hex')}`).toString();
  const messages = prepared.map((item) => record(world, chat, bot, params, { ...item, replyTo: reply, mediaGroupId }));
  return ok(messages.map((message) => messageOf(chat, message, bot)));
}

/**
 * The message an edit addresses (Updating messages, https://core.telegram.org/bots/api#updating-messages):
 * in a chat the bot may post to; one it sent, or in a channel any when it is the creator or an
 * administrator with can_edit_messages ("can edit messages of other users"; channels only).
 */
function editable(world: TelegramWorld, bot: Bot, params: Params): { chat: Chat; message: StoredMessage } | Answer {
  const chat = postingChat(world, bot, params);
  if (!('id' in chat)) return chat;
  const messageId = params.integer('message_id');
  if (messageId === undefined) return badRequest('message identifier is not specified');
  const message = chat.messages.get(messageId);
  if (!message) return badRequest('message to edit not found');
  const member = chat.members.get(bot.id);
  const editsOthers = chat.type === 'channel' && (member?.status === 'creator' || (member?.status === 'administrator' && member.rights.can_edit_messages === true));
  if (message.botId !== bot.id && !editsOthers) return badRequest("message can't be edited");
  return { chat, message };
}

const sameEntities = (a: Entity[], b: Entity[]) => JSON.stringify(a) === JSON.stringify(b);

const notModified = () => badRequest('message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message');

/** A text or caption read with its parse mode and held to its limit, or the refusal. */
function formatted(source: string, parseMode: string | undefined, limit: number, tooLong: string): { text: string; entities: Entity[] } | Answer {
  const result = format(source, parseMode);
  if ('unknownMode' in result) return badRequest(`unsupported parse_mode "${result.unknownMode}"`);
  if ('error' in result) return badRequest(result.error);
  if (result.text.length > limit) return badRequest(tooLong);
  return result;
}

/** The chat a bot may read: one it belongs to or a public one. */
function visibleChat(world: TelegramWorld, bot: Bot, params: Params): Chat | Answer {
  const chatId = params.string('chat_id');
  if (!chatId) return badRequest('chat_id is empty');
  const chat = findChat(world, chatId);
  const status = chat?.members.get(bot.id)?.status;
  if (!chat || (!chat.username && (status === undefined || status === 'left' || status === 'kicked'))) return badRequest('chat not found');
  return chat;
}

const chatKind = (chat: Chat) => (chat.type === 'channel' ? 'channel' : chat.type === 'supergroup' ? 'supergroup' : 'group');

/** The chat a bot sends to: it must be in it, allowed to post, and not flood-limited. */
function postingChat(world: TelegramWorld, bot: Bot, params: Params): Chat | Answer {
  const known = findChat(world, params.string('chat_id') ?? '');
  // A chat the bot was removed from is still known to it: sending there is forbidden, not "not found".
  if (known?.members.get(bot.id)?.status === 'kicked') return forbidden(`bot was kicked from the ${chatKind(known)} chat`);
  const chat = visibleChat(world, bot, params);
  if (!('id' in chat)) return chat;
  if (chat.flood && chat.flood.calls > 0) {
    chat.flood.calls -= 1;
    return tooManyRequests(chat.flood.retryAfter);
  }
  const member = chat.members.get(bot.id);
  if (!member || member.status === 'left') return forbidden(`bot is not a member of the ${chatKind(chat)} chat`);
  if (chat.type === 'channel' && member.status !== 'creator' && !(member.status === 'administrator' && member.rights.can_post_messages === true)) {
    return badRequest('need administrator rights in the channel chat');
  }
  return chat;
}

/** reply_parameters (ReplyParameters): the message replied to, in this chat; "allow_sending_without_reply" sends anyway. */
function replyOf(chat: Chat, params: Params): number | undefined | Answer {
  const reply = params.json('reply_parameters');
  if (reply === undefined) return undefined;
  if (typeof reply !== 'object' || reply === null || !Number.isInteger((reply as { message_id?: unknown }).message_id)) return badRequest("can't parse reply parameters JSON object");
  const { message_id: id, allow_sending_without_reply: anyway } = reply as { message_id: number; allow_sending_without_reply?: boolean };
  if (chat.messages.has(id)) return id;
  return anyway ? undefined : badRequest('message to be replied not found');
}

function record(world: TelegramWorld, chat: Chat, bot: Bot, params: Params, content: Partial<StoredMessage>): StoredMessage {
  const message: StoredMessage = {
    messageId: chat.nextMessageId++,
    date: world.clock.nowSecs(),
    botId: bot.id,
    entities: [],
    disableNotification: params.boolean('disable_notification'),
    protectContent: params.boolean('protect_content'),
    linkPreviewDisabled: false,
    ...(params.string('parse_mode') ? { parseMode: params.string('parse_mode') } : {}),
    ...content,
  };
  chat.messages.set(message.messageId, message);
  return message;
}
