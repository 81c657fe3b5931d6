// What tests (and the sandbox) may do beyond the Bot API: make bots (@BotFather's part) and chats, add
// a bot to a chat with its rights or kick it out, make a chat answer 429 with a retry_after (flood
// control), hold an answer after the call took effect, revoke a token, move the clock; and read-only views of chats and their messages.
import { randomBytes } from 'node:crypto';
import type { Bot, Chat, ChatType, Member, StoredMessage, TelegramWorld } from './state.ts';

export interface AddBotInput {
  username: string;
  firstName?: string;
  /** Default: a new token as @BotFather makes them (`<bot id>:<35 characters>`). */
  token?: string;
}

export interface AddChatInput {
  type: ChatType;
  title: string;
  /** A public chat's @username (without the @). */
  username?: string;
}

/** A chat as tests read it: its messages in order, each as stored. */
export interface ChatView {
  id: number;
  type: ChatType;
  title: string;
  username?: string;
  members: { botId: number; member: Member }[];
  messages: StoredMessage[];
}

export interface TelegramControls {
  addBot(input: AddBotInput): Bot;
  addChat(input: AddChatInput): number;
  /** Puts `bot` in the chat with this status; an administrator gets `rights` (can_post_messages…). */
  setMember(chatId: number, bot: Bot, status: Member['status'], rights?: Record<string, boolean>): void;
  /** The chat's owner removes the bot: its status there becomes "kicked". */
  kickBot(chatId: number, bot: Bot): void;
  /** The next `calls` sending calls to the chat answer 429 "Too Many Requests: retry after N". */
  floodChat(chatId: number, retryAfterSecs: number, calls?: number): void;
  /**
   * After `skip` calls of `method` answered as usual, the next is carried out (the message sent), then
   * its answer held `ms`: a caller killed meanwhile never learns it.
   */
  stallAnswer(method: string, ms: number, skip?: number): void;
  /** @BotFather's /revoke: the token answers 401 from now on. */
  revokeToken(token: string): void;
  chat(chatId: number): ChatView | undefined;
  advanceClock(ms: number): void;
  /** A certificate authority (PEM) the URL fetch trusts from now on: a test's HTTPS host. */
  trustCa(pem: string): void;
}

export function telegramControls(world: TelegramWorld): TelegramControls {
  const chatOf = (chatId: number): Chat => {
    const chat = world.chats.get(chatId);
    if (!chat) throw new Error(`no chat ${chatId}`);
    return chat;
  };
  return {
    addBot({ username, firstName, token }) {
      const id = 7_000_000_000 + world.nextId++;
      const bot: Bot = { id, token: token ?? `${id}:AA${randomBytes(25).toString('base64url').slice(0, 33)}`, username, firstName: firstName ?? username, revoked: false };
      world.bots.set(bot.token, bot);
      return bot;
    },
    addChat({ type, title, username }) {
      // Channels and supergroups have ids -100…, basic groups small negative ones, private chats the user's id.
      const n = world.nextId++;
      const id = type === 'channel' || type === 'supergroup' ? -1_000_000_000_000 - n : type === 'group' ? -4_000_000_000 - n : 6_000_000_000 + n;
      world.chats.set(id, { id, type, title, ...(username ? { username } : {}), members: new Map(), messages: new Map(), nextMessageId: 1 });
      return id;
    },
    setMember(chatId, bot, status, rights = {}) {
      chatOf(chatId).members.set(bot.id, { status, rights });
    },
    kickBot(chatId, bot) {
      chatOf(chatId).members.set(bot.id, { status: 'kicked', rights: {} });
    },
    floodChat(chatId, retryAfterSecs, calls = 1) {
      chatOf(chatId).flood = { calls, retryAfter: retryAfterSecs };
    },
    stallAnswer(method, ms, skip = 0) {
      world.stalls.set(method.toLowerCase(), { skip, ms });
    },
    revokeToken(token) {
      const bot = world.bots.get(token);
      if (bot) bot.revoked = true;
    },
    chat(chatId) {
      const chat = world.chats.get(chatId);
      if (!chat) return undefined;
      return structuredClone({
        id: chat.id, type: chat.type, title: chat.title, ...(chat.username ? { username: chat.username } : {}),
        members: [...chat.members].map(([botId, member]) => ({ botId, member })),
        messages: [...chat.messages.values()],
      });
    },
    advanceClock: (ms) => world.clock.advance(ms),
    trustCa: (pem) => {
      world.fetchCa.push(pem);
    },
  };
}
