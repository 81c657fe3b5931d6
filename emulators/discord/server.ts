// A local Discord (discord.com/api/v10) for tests and `crier start --sandbox`: servers, channels and
// their webhooks, and the messages webhooks send, answered as Discord's official OpenAPI description
// has them (discord-api-spec, vendored in description/; README.md lists each source and what is
// invented). Served: the webhook routes a webhook's URL reaches, and the routes a bot posts with (its
// user, a channel, its messages, a forum post), with and without the version segment (a webhook URL
// as Discord gives it has none: /api/webhooks/<id>/<token>).
import { Clock } from '../shared/clock.ts';
import { createApp, firstValues, listen, send, type ListenOptions } from '../shared/http.ts';
import { TimeIds } from '../shared/ids.ts';
import { discordControls, type DiscordControls } from './controls.ts';
import { discordError, invalidWebhookToken, notFound, tooLarge, unknownWebhook, type Answer } from './errors.ts';
import { createMessage, createThread, deleteBotMessage, editBotMessage, getBotMessage, getChannel, getMe, listMessages, type BotRequest } from './routes/bot.ts';
import { spend } from './rate.ts';
import { deleteMessage, editMessage, getMessage } from './routes/messages.ts';
import { executeWebhook, getWebhook, type WebhookRequest } from './routes/webhooks.ts';
import { DISCORD_EPOCH_MS, type DiscordWorld } from './state.ts';

export type { Channel, ChannelKind, StoredMessage, StoredAttachment, Webhook } from './state.ts';
export type { AddBotInput, AddChannelInput, AddWebhookInput, BotView, ChannelView, WebhookView } from './controls.ts';

export type DiscordEmulatorOptions = ListenOptions;

export interface DiscordEmulator extends DiscordControls {
  url: string;
  close(): Promise<void>;
}

/** A few 25 MiB files and their multipart framing. */
const BODY_LIMIT = 110 * 1024 * 1024;
/** The versions Discord serves (reference#api-versioning: 9 and 10 are available); the bare /api is the default. */
const PREFIXES = ['/api', '/api/v9', '/api/v10'];

type Handler = (request: WebhookRequest & { messageId: string }) => Answer | Promise<Answer>;

const ROUTES: { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; path: string; handler: Handler; executes?: true }[] = [
  { method: 'GET', path: '/webhooks/:webhookId/:token', handler: getWebhook },
  { method: 'POST', path: '/webhooks/:webhookId/:token', handler: executeWebhook, executes: true },
  { method: 'GET', path: '/webhooks/:webhookId/:token/messages/:messageId', handler: getMessage },
  { method: 'PATCH', path: '/webhooks/:webhookId/:token/messages/:messageId', handler: editMessage },
  { method: 'DELETE', path: '/webhooks/:webhookId/:token/messages/:messageId', handler: deleteMessage },
];

type BotHandler = (request: BotRequest) => Answer | Promise<Answer>;

const BOT_ROUTES: { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; path: string; handler: BotHandler; executes?: true }[] = [
  { method: 'GET', path: '/users/@me', handler: getMe },
  { method: 'GET', path: '/channels/:channelId', handler: getChannel },
  { method: 'GET', path: '/channels/:channelId/messages', handler: listMessages },
  { method: 'POST', path: '/channels/:channelId/messages', handler: createMessage, executes: true },
  { method: 'GET', path: '/channels/:channelId/messages/:messageId', handler: getBotMessage },
  { method: 'PATCH', path: '/channels/:channelId/messages/:messageId', handler: editBotMessage },
  { method: 'DELETE', path: '/channels/:channelId/messages/:messageId', handler: deleteBotMessage },
  { method: 'POST', path: '/channels/:channelId/threads', handler: createThread, executes: true },
];

/** `Authorization: Bot <token>` (reference#authentication); anything else is 401. */
const botTokenOf = (header: string | undefined) => /^Bot (\S+)$/.exec(header ?? '')?.[1];

export async function startDiscordEmulator(opts: DiscordEmulatorOptions = {}): Promise<DiscordEmulator> {
  const clock = new Clock();
  const world: DiscordWorld = {
    clock, ids: new TimeIds(clock, DISCORD_EPOCH_MS), windows: new Map(),
    guilds: new Map(), channels: new Map(), webhooks: new Map(), bots: new Map(), messages: new Map(), forcedLimits: new Map(),
    bucket: { limit: 5, windowMs: 2000 }, maxFileBytes: 25 * 1024 * 1024,
  };
  const app = createApp(BODY_LIMIT);
  for (const prefix of PREFIXES) {
    for (const route of ROUTES) {
      app.route({
        method: route.method,
        url: prefix + route.path,
        handler: async (req, reply) => {
          const params = req.params as { webhookId: string; token: string; messageId?: string };
          const webhook = world.webhooks.get(params.webhookId);
          if (!webhook) return send(reply, unknownWebhook());
          if (webhook.token !== params.token) return send(reply, invalidWebhookToken());
          const rate = spend(world, webhook.id, `${route.method} ${route.path}`);
          if (rate.refused) return send(reply, rate.refused);
          const request = { world, webhook, query: firstValues(req.query), body: req.body, contentType: req.headers['content-type'], messageId: params.messageId ?? '' };
          const answer = await route.handler(request);
          if (route.executes) await stalled(world);
          return send(reply, { ...answer, headers: { ...rate.headers, ...answer.headers } });
        },
      });
    }
  }
  for (const prefix of PREFIXES) {
    for (const route of BOT_ROUTES) {
      app.route({
        method: route.method,
        url: prefix + route.path,
        handler: async (req, reply) => {
          const bot = world.bots.get(botTokenOf(req.headers.authorization) ?? '');
          if (!bot) return send(reply, discordError(401, 0, '401: Unauthorized'));
          const params = req.params as { channelId?: string; messageId?: string };
          // A bot's buckets are per route and per channel (the route's top-level resource).
          const rate = spend(world, bot.id, `${route.method} ${route.path}`, params.channelId ?? bot.id);
          if (rate.refused) return send(reply, rate.refused);
          const request = { world, bot, channelId: params.channelId ?? '', messageId: params.messageId ?? '', query: firstValues(req.query), body: req.body, contentType: req.headers['content-type'] };
          const answer = await route.handler(request);
          if (route.executes && answer.status < 300) await stalled(world);
          return send(reply, { ...answer, headers: { ...rate.headers, ...answer.headers } });
        },
      });
    }
  }
  app.setNotFoundHandler((_req, reply) => send(reply, notFound()));
  app.setErrorHandler((error: { statusCode?: number }, _req, reply) => send(reply, error.statusCode === 413 ? tooLarge() : discordError(500, 0, '500: Internal Server Error')));
  const server = await listen(app, opts);
  return { url: server.url, close: server.close, ...discordControls(world, () => server.url) };
}

/** The stall control: an execution carried out, its answer held. */
async function stalled(world: DiscordWorld): Promise<void> {
  const stall = world.stall;
  if (!stall) return;
  if (stall.skip > 0) {
    stall.skip -= 1;
    return;
  }
  world.stall = undefined;
  await new Promise((resolve) => setTimeout(resolve, stall.ms));
}
