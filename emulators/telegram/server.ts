// A local Telegram Bot API (api.telegram.org/bot<token>/<method>) for tests and
// `crier start --sandbox`: bots, chats and the messages bots send them, answered as the Bot API
// reference documents (https://core.telegram.org/bots/api). Telegram publishes no machine-readable
// description of it: every shape is written from the reference (README.md lists each source).
import { Clock } from '../shared/clock.ts';
import { createApp, listen, send, type ListenOptions } from '../shared/http.ts';
import type { FetchMedia } from '../shared/media-fetch.ts';
import { telegramControls, type TelegramControls } from './controls.ts';
import { notFound, refused, tooLarge } from './errors.ts';
import { answerBotRequest } from './routes/bot-api.ts';
import type { TelegramWorld } from './state.ts';

export type { Bot, ChatType, Member, StoredMessage, StoredFile, Entity } from './state.ts';
export type { AddBotInput, AddChatInput, ChatView } from './controls.ts';

export interface TelegramEmulatorOptions extends ListenOptions {
  /** Certificate authorities (PEM) the URL fetch trusts besides the system's: a test's HTTPS hosts. */
  fetchCa?: string[];
  /** How files named by URL are downloaded instead of the emulator's own fetch: the sandbox's guarded one. */
  fetchMedia?: FetchMedia;
}

export interface TelegramEmulator extends TelegramControls {
  url: string;
  close(): Promise<void>;
}

/** A 50 MB upload (the most a bot sends) and its multipart framing. */
const BODY_LIMIT = 51 * 1024 * 1024;

export async function startTelegramEmulator(opts: TelegramEmulatorOptions = {}): Promise<TelegramEmulator> {
  const world: TelegramWorld = {
    clock: new Clock(), bots: new Map(), chats: new Map(), files: new Map(), nextId: 1, stalls: new Map(), fetchCa: opts.fetchCa ?? [],
    ...(opts.fetchMedia ? { fetchMedia: opts.fetchMedia } : {}),
  };
  const app = createApp(BODY_LIMIT);
  app.route({
    method: ['GET', 'POST'],
    url: '/bot:token/:method',
    handler: async (req, reply) => {
      const { token, method } = req.params as { token: string; method: string };
      return send(reply, await answerBotRequest(world, { token, method, query: req.query, body: req.body, contentType: req.headers['content-type'] }));
    },
  });
  app.setNotFoundHandler((_req, reply) => send(reply, notFound()));
  app.setErrorHandler((error: { statusCode?: number }, _req, reply) => send(reply, error.statusCode === 413 ? tooLarge() : refused(500, 'Internal Server Error')));
  const server = await listen(app, opts);
  return { url: server.url, close: server.close, ...telegramControls(world) };
}
