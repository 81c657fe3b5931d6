// Discord's webhook API (https://discord.com/developers/docs/resources/webhook) on the one HTTP client
// of adapters (../http.ts). A webhook needs no bot and no OAuth: its URL carries its id and its token,
// and every call is made on `/webhooks/{id}/{token}`. (A bot's calls: bot-client.ts, which shares the
// refusals and the message body below.) Errors are `{code, message, errors?}` with
// Discord's JSON error codes (https://discord.com/developers/docs/topics/opcodes-and-status-codes#json);
// a 429 says `retry_after` (seconds, a float) and `global`, beside the X-RateLimit-* headers
// (https://discord.com/developers/docs/topics/rate-limits). The token is part of the path: it never
// appears in a message.
import { PublishError } from '../../core/errors.ts';
import type { MediaSource } from '../contract.ts';
import { NetworkHttp, type Failure, type NetworkAnswer } from '../http.ts';
import { streamedForm } from '../multipart.ts';

export const ORIGIN = 'https://discord.com';
/** The API version Crier pins (the path segment). */
export const API_VERSION = 'v10';

/** The API base under an origin (Discord's, or the emulator's). */
export const apiBase = (origin: string) => `${origin.replace(/\/+$/, '')}/api/${API_VERSION}`;

/** Discord's JSON error codes Crier reads (opcodes-and-status-codes#json). */
export const ERROR_CODES = {
  unknownChannel: 10003,
  unknownMessage: 10008,
  unknownWebhook: 10015,
  missingAccess: 50001,
  missingPermissions: 50013,
  invalidWebhookToken: 50027,
  invalidFormBody: 50035,
  entityTooLarge: 40005,
  forumNeedsThread: 220001,
} as const;

/** An error answer's body. */
interface ErrorBody {
  code?: number;
  message?: string;
  errors?: unknown;
  retry_after?: number;
  global?: boolean;
}

/** The part of a message object (https://discord.com/developers/docs/resources/message#message-object) Crier reads. */
export interface DiscordMessage {
  id: string;
  channel_id: string;
  webhook_id?: string;
  position?: number;
  content?: string;
  author?: { id: string };
  attachments?: unknown[];
  /** Answered by Create Message; Discord's reads of a channel's messages leave it out in practice. */
  nonce?: string | number;
}

/** The part of a webhook object Crier reads. */
export interface DiscordWebhook {
  id: string;
  name: string | null;
  channel_id: string | null;
  guild_id?: string | null;
}

/** A file sent in the body: its index (`files[n]`, and its attachment's id), and its bytes. */
export interface Upload {
  index: number;
  filename: string;
  source: MediaSource;
}

/** The message, then the first field error Discord names: "Invalid Form Body (content: Must be 2000 or fewer in length.)". */
export function reasonOf(body: unknown): string | undefined {
  const error = body as ErrorBody | undefined;
  if (typeof error?.message !== 'string') return undefined;
  const field = firstFieldError(error.errors, '');
  return field ? `${error.message} (${field})` : error.message;
}

/** Discord's `errors`: nested by field, each leaf `{_errors: [{code, message}]}`. */
function firstFieldError(node: unknown, path: string): string | undefined {
  if (!node || typeof node !== 'object') return undefined;
  const leaf = (node as { _errors?: { message?: string }[] })._errors;
  if (Array.isArray(leaf) && leaf[0]?.message) return `${path || 'body'}: ${leaf[0].message}`;
  for (const [key, child] of Object.entries(node)) {
    const found = firstFieldError(child, path ? `${path}.${key}` : key);
    if (found) return found;
  }
  return undefined;
}

/** How long a 429 says to wait: its body's `retry_after`, else the X-RateLimit-Reset-After header, else Retry-After. */
export function rateLimitWaitMs(answer: NetworkAnswer): number {
  const seconds = [(answer.body as ErrorBody | undefined)?.retry_after, Number(answer.header('x-ratelimit-reset-after')), Number(answer.header('retry-after'))]
    .find((value) => typeof value === 'number' && Number.isFinite(value) && value >= 0);
  return seconds === undefined ? 60_000 : Math.ceil(seconds * 1000);
}

/** What Discord's refusals mean for a post (the default covers the rest: 5xx, 403, 400). */
export const classify = (answer: NetworkAnswer, reason: string): Failure | undefined => classifyFor('webhook', answer, reason);

/** The same for a bot's calls: its token refused, or a permission it lacks in the channel. */
export const classifyBot = (answer: NetworkAnswer, reason: string): Failure | undefined => classifyFor('bot', answer, reason);

function classifyFor(kind: 'webhook' | 'bot', answer: NetworkAnswer, reason: string): Failure | undefined {
  const body = answer.body as ErrorBody | undefined;
  const code = body?.code;
  if (answer.status === 429) {
    const scope = body?.global || answer.header('x-ratelimit-global') === 'true' ? 'global rate limit' : `rate limit of bucket ${answer.header('x-ratelimit-bucket') ?? 'unknown'}`;
    return { kind: 'retryable', code: 'rate_limited', reason: `${scope} (${reason})`, retryAfterMs: rateLimitWaitMs(answer) };
  }
  if (kind === 'bot' && answer.status === 401) {
    return { kind: 'auth', code: 'auth', reason: `Discord refused the bot's token (${reason}); reset it in the Developer Portal (Bot › Reset Token) and connect the channel again` };
  }
  if (kind === 'webhook' && (answer.status === 401 || code === ERROR_CODES.unknownWebhook || code === ERROR_CODES.invalidWebhookToken)) {
    return { kind: 'auth', code: 'auth', reason: `the webhook is gone or its token was refused (${reason}); make a new webhook in the channel's settings and connect it again` };
  }
  if (code === ERROR_CODES.unknownMessage || code === ERROR_CODES.unknownChannel) return { kind: 'permanent', code: 'not_found', reason };
  if (code === ERROR_CODES.missingAccess || code === ERROR_CODES.missingPermissions) {
    // Discord does not name the permission; a bot needs View Channel, Send Messages (in threads too), Attach Files, Embed Links, Read Message History (a reply).
    return { kind: 'permanent', code: 'forbidden', reason: kind === 'bot' ? `${reason}: the bot lacks a permission in the channel (View Channel, Send Messages, Send Messages in Threads, Attach Files, Embed Links or Read Message History); grant it in the channel's settings` : reason };
  }
  if (answer.status === 413 || code === ERROR_CODES.entityTooLarge) return { kind: 'permanent', code: 'media_rejected', reason: `a file is bigger than the channel takes (${reason})` };
  if (code === ERROR_CODES.forumNeedsThread) return { kind: 'permanent', code: 'invalid', reason: `${reason}: the webhook's channel is a forum; set discord.threadName (a new forum post) or discord.threadId` };
  return undefined;
}

/** A webhook URL's id and token. */
export interface WebhookKey {
  id: string;
  token: string;
}

export class DiscordClient {
  readonly #http: NetworkHttp;
  readonly #path: string;

  constructor(origin: string, webhook: WebhookKey) {
    this.#http = new NetworkHttp({ network: 'discord', baseUrl: apiBase(origin), reasonOf, classify });
    this.#path = `/webhooks/${webhook.id}/${webhook.token}`;
  }

  /** Get Webhook with Token: the webhook, or the refusal as a PublishError. */
  async webhook(): Promise<DiscordWebhook> {
    return (await this.#http.call({ url: this.#path })).body as DiscordWebhook;
  }

  /** The same answer whatever its status: for connecting, which reads a refusal itself. */
  async webhookAnswer(): Promise<NetworkAnswer> {
    return this.#http.answer({ url: this.#path });
  }

  /** Execute Webhook with `wait=true`, so that Discord answers the message it created. */
  async execute(payload: Record<string, unknown>, uploads: Upload[], threadId: string | undefined): Promise<DiscordMessage> {
    const url = `${this.#path}?wait=true${threadId ? `&thread_id=${threadId}` : ''}`;
    const answer = await sendMessageBody(this.#http, url, payload, uploads);
    const message = answer.body as DiscordMessage | undefined;
    if (!message?.id) throw new PublishError('unknown', `discord: Execute Webhook answered ${answer.status} without a message`, undefined, 'server');
    return message;
  }

  /**
   * Edit Webhook Message: the content alone (with no mentions resolved); what the body leaves out —
   * embeds, files, flags — stays as it was (webhook#edit-webhook-message: every field optional).
   */
  async editContent(messageId: string, threadId: string | undefined, content: string): Promise<void> {
    await this.#http.call({ url: `${this.#path}/messages/${messageId}${threadId ? `?thread_id=${threadId}` : ''}`, method: 'PATCH', json: { content, allowed_mentions: { parse: [] } } });
  }

  /** Delete Webhook Message (in its thread when it is in one). */
  async deleteMessage(messageId: string, threadId: string | undefined): Promise<void> {
    await this.#http.call({ url: `${this.#path}/messages/${messageId}${threadId ? `?thread_id=${threadId}` : ''}`, method: 'DELETE' });
  }

}

/** A message's body: JSON, or with files the multipart form Discord documents (reference#uploading-files). */
export async function sendMessageBody(http: NetworkHttp, url: string, payload: Record<string, unknown>, uploads: Upload[]): Promise<NetworkAnswer> {
  if (!uploads.length) return http.call({ url, method: 'POST', json: payload });
  // The JSON payload as payload_json, then each file as files[n].
  const form = streamedForm([
    { name: 'payload_json', value: JSON.stringify(payload), contentType: 'application/json' },
    ...uploads.map((upload) => ({ name: `files[${upload.index}]`, filename: upload.filename, source: upload.source })),
  ]);
  return http.call({
    url,
    method: 'POST',
    headers: { 'content-type': form.contentType, 'content-length': String(form.length) },
    body: form.body,
  });
}
