// The webhook itself, by its token (resources/webhook): Get Webhook with Token, and Execute Webhook
// (`wait` to answer the message, else 204; `thread_id` to send in a thread of the channel;
// `thread_name` to open a forum post in a forum or media channel).
import { createHash } from 'node:crypto';
import { bodyErrors, type FieldError } from '../validate.ts';
import { emptyMessage, forumBothThreadFields, forumNeedsThread, invalidFormBody, threadsOnlyInForums, tooLarge, unknownChannel, discordError, type Answer } from '../errors.ts';
import { readBody, type UploadedFile } from '../body.ts';
import type { Channel, DiscordWorld, StoredAttachment, StoredMessage, Webhook } from '../state.ts';
import { messageView, webhookView } from '../views.ts';

export const WEBHOOK = '/webhooks/{webhook_id}/{webhook_token}';

export interface WebhookRequest {
  world: DiscordWorld;
  webhook: Webhook;
  query: Record<string, string | undefined>;
  body: unknown;
  contentType: string | undefined;
}

export const getWebhook = ({ webhook }: WebhookRequest): Answer => ({ status: 200, body: webhookView(webhook) });

export async function executeWebhook(request: WebhookRequest): Promise<Answer> {
  const { world, webhook, query } = request;
  const body = await readBody(request.body, request.contentType);
  if (!body) return discordError(400, 50109, 'The request body contains invalid JSON.');
  const problems = [...queryErrors(query), ...bodyErrors('post', WEBHOOK, body.payload)];
  if (problems.length) return invalidFormBody(problems);
  const payload = body.payload as { content?: string | null; embeds?: unknown[] | null; thread_name?: string | null; components?: unknown[] | null; poll?: unknown };
  const place = placeOf(world, webhook, query.thread_id, payload.thread_name ?? undefined);
  if ('status' in place) return place;
  if (!payload.content && !payload.embeds?.length && !body.files.length && !payload.components?.length && !payload.poll) return emptyMessage();
  if (body.files.some((file) => file.bytes.length > world.maxFileBytes)) return tooLarge();
  const message = store(world, webhook, place, body.payload, body.files);
  if (!['true', '1'].includes((query.wait ?? '').toLowerCase())) return { status: 204 };
  return { status: 200, body: messageView(world, message) };
}

/** `wait` must read as a boolean and `thread_id` as a snowflake. */
function queryErrors(query: Record<string, string | undefined>): FieldError[] {
  const errors: FieldError[] = [];
  if (query.wait !== undefined && !/^(true|false|1|0)$/i.test(query.wait)) errors.push({ path: ['wait'], code: 'BOOLEAN_TYPE_COERCE', message: 'Must be either true or false.' });
  if (query.thread_id !== undefined && !/^[1-9][0-9]{0,19}$/.test(query.thread_id)) errors.push({ path: ['thread_id'], code: 'NUMBER_TYPE_COERCE', message: `Value "${query.thread_id}" is not snowflake.` });
  return errors;
}

/** Where the message goes: an existing thread, a new forum post, or the webhook's channel; or the refusal. */
type Place = { channel: Channel; threadName?: string };

function placeOf(world: DiscordWorld, webhook: Webhook, threadId: string | undefined, threadName: string | undefined): Place | Answer {
  const channel = world.channels.get(webhook.channelId)!;
  const forum = channel.kind === 'forum' || channel.kind === 'media';
  if (threadId !== undefined) {
    if (forum && threadName !== undefined) return forumBothThreadFields();
    const thread = world.channels.get(threadId);
    if (!thread || thread.parentId !== channel.id) return unknownChannel();
    thread.archived = false;
    return { channel: thread };
  }
  if (threadName !== undefined) return forum ? { channel, threadName } : threadsOnlyInForums();
  return forum ? forumNeedsThread() : { channel };
}

function store(world: DiscordWorld, webhook: Webhook, place: Place, payload: Record<string, unknown>, files: UploadedFile[]): StoredMessage {
  const id = world.ids.next();
  let channelId = place.channel.id;
  if (place.threadName !== undefined) {
    // A forum post is a thread whose id is its starter message's.
    world.channels.set(id, { id, guildId: place.channel.guildId, kind: 'publicThread', name: place.threadName, parentId: place.channel.id });
    channelId = id;
  }
  const message: StoredMessage = {
    id,
    channelId,
    webhookId: webhook.id,
    content: typeof payload.content === 'string' ? payload.content : '',
    username: typeof payload.username === 'string' ? payload.username : webhook.name,
    ...(typeof payload.avatar_url === 'string' ? { avatarUrl: payload.avatar_url } : {}),
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

/** Each uploaded file as an attachment: its filename and description from its `attachments` entry (id n for files[n]). */
export function attachmentsOf(world: DiscordWorld, declared: unknown, files: UploadedFile[]): StoredAttachment[] {
  const entries = (Array.isArray(declared) ? declared : []) as { id?: string | number; filename?: string; description?: string }[];
  return files.map((file) => {
    const entry = entries.find((e) => String(e.id) === String(file.index));
    return {
      id: world.ids.next(),
      filename: entry?.filename ?? file.filename,
      size: file.bytes.length,
      contentType: file.type || 'application/octet-stream',
      ...(entry?.description ? { description: entry.description } : {}),
      sha256: createHash('sha256').update(file.bytes).digest('hex'),
    };
  });
}
