// Instagram's webhooks (Meta, object "instagram"; engagement.md §4.6): the handshake and the
// signature are Meta's (../meta/webhooks.ts); parsing turns a delivery into comment and message items.
//  - comments: entry[].changes[] {field: "comments", value: {id, text, from{id, username}, media{id}, parent_id?}};
//    Meta's Instagram-Login example puts field/value on the entry itself: both are read.
//  - messages: entry[].messaging[] {sender{id}, recipient{id}, timestamp, message{mid, text, is_echo?, quick_reply?{payload}}};
//    an echo (is_echo) is the account's own message: the contact is the recipient.
// Items Crier has no event for (reads, reactions, deleted or unsupported messages, postbacks) are skipped.
import type { InboundItem, NetworkCapabilities } from '../capabilities.ts';
import { metaEntryIds, metaHandshake, metaSignatureValid } from '../meta/webhooks.ts';

type Json = Record<string, unknown>;

const obj = (value: unknown): Json | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined);
const str = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : typeof value === 'number' ? String(value) : undefined);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

export const instagramInbound: NonNullable<NetworkCapabilities['inbound']> = {
  handshake: metaHandshake,
  recipients: metaEntryIds,
  verify: metaSignatureValid,
  parse(request) {
    let body: Json | undefined;
    try {
      body = obj(JSON.parse(request.rawBody.toString('utf8')));
    } catch {
      return [];
    }
    if (!body || body.object !== 'instagram') return [];
    return list(body.entry).flatMap((raw) => {
      const entry = obj(raw);
      const accountId = str(entry?.id);
      if (!entry || !accountId) return [];
      const changes = [...list(entry.changes), ...(entry.field ? [entry] : [])].map(obj).filter((c): c is Json => Boolean(c));
      return [
        ...changes.flatMap((change) => changeItems(accountId, change)),
        ...list(entry.messaging).flatMap((event) => messageItem(accountId, obj(event))),
      ];
    });
  },
};

function changeItems(accountId: string, change: Json): InboundItem[] {
  if (change.field === 'comments' || change.field === 'live_comments') return commentItem(accountId, obj(change.value));
  // Instagram Login delivers messages as changes too: {field: "messages", value: <a messaging event>}.
  if (change.field === 'messages' || change.field === 'message_echoes') return messageItem(accountId, obj(change.value));
  return [];
}

function commentItem(accountId: string, value: Json | undefined): InboundItem[] {
  const commentId = str(value?.id);
  const mediaId = str(obj(value?.media)?.id);
  if (!value || !commentId || !mediaId) return [];
  const from = obj(value.from);
  const authorId = str(from?.id) ?? null;
  return [{
    kind: 'comment',
    accountNetworkId: accountId,
    platformPostId: mediaId,
    commentId,
    parentCommentId: str(value.parent_id) ?? null,
    authorId,
    authorUsername: str(from?.username) ?? '',
    text: typeof value.text === 'string' ? value.text : '',
    byAccount: authorId === accountId,
  }];
}

function messageItem(accountId: string, event: Json | undefined): InboundItem[] {
  const message = obj(event?.message);
  const mid = str(message?.mid);
  if (!event || !message || !mid || message.is_deleted === true || message.is_unsupported === true) return [];
  const echo = message.is_echo === true;
  const participantId = str(obj(echo ? event.recipient : event.sender)?.id);
  if (!participantId) return [];
  const timestamp = Number(event.timestamp);
  const payload = str(obj(message.quick_reply)?.payload);
  return [{
    kind: 'message',
    accountNetworkId: accountId,
    participantId,
    direction: echo ? 'echo' : 'in',
    platformMessageId: mid,
    text: typeof message.text === 'string' ? message.text : '',
    sentAt: new Date(Number.isFinite(timestamp) && timestamp > 0 ? timestamp : Date.now()).toISOString(),
    ...(payload !== undefined && !echo ? { quickReplyId: payload } : {}),
  }];
}
