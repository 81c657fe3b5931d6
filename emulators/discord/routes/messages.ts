// A message the webhook sent (resources/webhook#get-webhook-message, #edit-webhook-message,
// #delete-webhook-message): only the webhook's own messages, in its channel, or in the thread
// `thread_id` names (a message in a thread is unknown without it).
import { readBody } from '../body.ts';
import { discordError, invalidFormBody, tooLarge, unknownMessage, type Answer } from '../errors.ts';
import type { DiscordWorld, StoredMessage } from '../state.ts';
import { bodyErrors, type FieldError } from '../validate.ts';
import { messageView } from '../views.ts';
import { attachmentsOf, type WebhookRequest } from './webhooks.ts';

export const MESSAGE = '/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}';

export interface MessageRequest extends WebhookRequest {
  messageId: string;
}

function messageOf({ world, webhook, query, messageId }: MessageRequest): StoredMessage | undefined {
  const message = world.messages.get(messageId);
  const channelId = query.thread_id ?? webhook.channelId;
  return message && message.webhookId === webhook.id && message.channelId === channelId ? message : undefined;
}

export function getMessage(request: MessageRequest): Answer {
  const message = messageOf(request);
  return message ? { status: 200, body: messageView(request.world, message) } : unknownMessage();
}

export function deleteMessage(request: MessageRequest): Answer {
  const message = messageOf(request);
  if (!message) return unknownMessage();
  request.world.messages.delete(message.id);
  return { status: 204 };
}

/** Edit Webhook Message: content, embeds, flags; `attachments` lists the files to keep (by id) and the new ones (files[n]). */
export async function editMessage(request: MessageRequest): Promise<Answer> {
  const message = messageOf(request);
  if (!message) return unknownMessage();
  return applyEdit(request.world, message, MESSAGE, request.body, request.contentType);
}

/**
 * An edit as Discord makes it (resources/message#edit-message, webhook#edit-webhook-message): only the
 * fields the body names change ("all parameters to this endpoint are optional and nullable"); the rest
 * of the message stays. `attachments` lists the files to keep (by id) and the new ones (files[n]).
 */
export async function applyEdit(world: DiscordWorld, message: StoredMessage, template: string, raw: unknown, contentType: string | undefined): Promise<Answer> {
  const body = await readBody(raw, contentType);
  if (!body) return discordError(400, 50109, 'The request body contains invalid JSON.');
  const problems = [...bodyErrors('patch', template, body.payload), ...contentLengthErrors(body.payload)];
  if (problems.length) return invalidFormBody(problems);
  if (body.files.some((file) => file.bytes.length > world.maxFileBytes)) return tooLarge();
  const payload = body.payload as { content?: string | null; embeds?: Record<string, unknown>[] | null; flags?: number | null; attachments?: { id: string }[] | null };
  if (payload.content !== undefined) message.content = payload.content ?? '';
  if (payload.embeds !== undefined) message.embeds = payload.embeds ?? [];
  if (typeof payload.flags === 'number') message.flags = payload.flags;
  if (payload.attachments !== undefined || body.files.length) {
    const kept = message.attachments.filter((a) => (payload.attachments ?? []).some((entry) => String(entry.id) === a.id));
    message.attachments = [...(payload.attachments === undefined ? message.attachments : kept), ...attachmentsOf(world, payload.attachments, body.files)];
  }
  message.editedTimestamp = world.clock.iso();
  return { status: 200, body: messageView(world, message) };
}

/**
 * A message's content is "up to 2000 characters" (resources/message#create-message); the description's
 * schemas allow 4,000 (what a Nitro user may send), which a bot or a webhook may not.
 */
export function contentLengthErrors(payload: Record<string, unknown>): FieldError[] {
  return typeof payload.content === 'string' && [...payload.content].length > 2000
    ? [{ path: ['content'], code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 2000 or fewer in length.' }]
    : [];
}
