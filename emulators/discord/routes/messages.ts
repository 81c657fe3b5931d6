// A message the webhook sent (resources/webhook#get-webhook-message, #edit-webhook-message,
// #delete-webhook-message): only the webhook's own messages, in its channel, or in the thread
// `thread_id` names (a message in a thread is unknown without it).
import { readBody } from '../body.ts';
import { discordError, invalidFormBody, tooLarge, unknownMessage, type Answer } from '../errors.ts';
import type { StoredMessage } from '../state.ts';
import { bodyErrors } from '../validate.ts';
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
  const body = await readBody(request.body, request.contentType);
  if (!body) return discordError(400, 50109, 'The request body contains invalid JSON.');
  const problems = bodyErrors('patch', MESSAGE, body.payload);
  if (problems.length) return invalidFormBody(problems);
  if (body.files.some((file) => file.bytes.length > request.world.maxFileBytes)) return tooLarge();
  const payload = body.payload as { content?: string | null; embeds?: Record<string, unknown>[] | null; flags?: number | null; attachments?: { id: string }[] | null };
  if (payload.content !== undefined) message.content = payload.content ?? '';
  if (payload.embeds !== undefined) message.embeds = payload.embeds ?? [];
  if (typeof payload.flags === 'number') message.flags = payload.flags;
  if (payload.attachments !== undefined || body.files.length) {
    const kept = message.attachments.filter((a) => (payload.attachments ?? []).some((entry) => String(entry.id) === a.id));
    message.attachments = [...(payload.attachments === undefined ? message.attachments : kept), ...attachmentsOf(request.world, payload.attachments, body.files)];
  }
  message.editedTimestamp = request.world.clock.iso();
  return { status: 200, body: messageView(request.world, message) };
}
