// What the emulated Bot API remembers: bots (by token), chats with their members, and the messages
// sent to each chat, numbered per chat from 1 as Telegram numbers a chat's messages.
import type { Clock } from '../shared/clock.ts';
import type { FetchMedia } from '../shared/media-fetch.ts';

export interface Bot {
  id: number;
  token: string;
  username: string;
  firstName: string;
  revoked: boolean;
}

export type ChatType = 'private' | 'group' | 'supergroup' | 'channel';

/** A ChatMember (https://core.telegram.org/bots/api#chatmember) as stored: its status and rights. */
export interface Member {
  status: 'creator' | 'administrator' | 'member' | 'restricted' | 'left' | 'kicked';
  rights: Record<string, boolean>;
}

export interface Chat {
  id: number;
  type: ChatType;
  title: string;
  username?: string;
  /** By bot id. A bot without an entry has never been added ('left'). */
  members: Map<number, Member>;
  messages: Map<number, StoredMessage>;
  nextMessageId: number;
  /** Calls to answer 429 before any other answer, and the retry_after they carry. */
  flood?: { calls: number; retryAfter: number };
}

/** A file as a message carries it, and how it came: a URL Telegram fetched, an upload, a file_id sent again. */
export interface StoredFile {
  kind: 'photo' | 'video' | 'document';
  fileId: string;
  fileUniqueId: string;
  size: number;
  mime: string;
  fileName?: string;
  width?: number;
  height?: number;
  came: 'url' | 'upload' | 'file_id';
  url?: string;
}

export interface Entity {
  type: string;
  offset: number;
  length: number;
  url?: string;
  language?: string;
  custom_emoji_id?: string;
}

export interface StoredMessage {
  messageId: number;
  date: number;
  /** The bot that sent it. */
  botId: number;
  text?: string;
  caption?: string;
  entities: Entity[];
  file?: StoredFile;
  mediaGroupId?: string;
  replyTo?: number;
  disableNotification: boolean;
  protectContent: boolean;
  linkPreviewDisabled: boolean;
  parseMode?: string;
  editDate?: number;
}

export interface TelegramWorld {
  clock: Clock;
  bots: Map<string, Bot>;
  chats: Map<number, Chat>;
  files: Map<string, StoredFile>;
  nextId: number;
  /** Per method (lower case): calls to let through first, then the call carried out and its answer held `ms` (a control). */
  stalls: Map<string, { skip: number; ms: number }>;
  fetchCa: string[];
  fetchMedia?: FetchMedia;
}

/** A chat by `chat_id`: its numeric id, or "@username" for a public one (case-insensitive). */
export function findChat(world: TelegramWorld, chatId: string): Chat | undefined {
  if (chatId.startsWith('@')) {
    const wanted = chatId.slice(1).toLowerCase();
    return [...world.chats.values()].find((chat) => chat.username?.toLowerCase() === wanted);
  }
  return /^-?\d+$/.test(chatId) ? world.chats.get(Number(chatId)) : undefined;
}
