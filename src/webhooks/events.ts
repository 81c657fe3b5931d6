// The `data` of every event the spec defines (api-spec.md, Events › data shapes), as TypeScript
// types, so that code emitting an event states the shape it promises receivers. The envelope around
// `data` is built at delivery time (attempt.ts): {id, event, timestamp, data}.
import type { EventType } from './outbox.ts';

export interface PublishedAccount {
  accountId: string;
  network: string;
  username: string;
  platformPostId: string;
  /** Public URL of the post on the network. */
  platformPostUrl: string;
}

export interface FailedAccount {
  accountId: string;
  network: string;
  username: string;
  error: string;
}

/** What the spec calls `sender` (message.received) and `author` (comment.received); null = unknown. */
export interface ContactProfile {
  isFollower: boolean | null;
  isFollowedByAccount: boolean | null;
  followerCount: number | null;
  isVerified: boolean | null;
}

/** An account a post goes to, as the approval events name it. */
export interface PostAccount {
  accountId: string;
  network: string;
  username: string;
}

export interface EventDataMap {
  'post.published': { postId: string; orgId: string; socialAccounts: PublishedAccount[] };
  'post.error': { postId: string; orgId: string; socialAccounts: FailedAccount[] };
  /** The organization requires approval: the post waits for an approver (created, or made a non-draft). */
  'post.approval_requested': { postId: string; orgId: string; scheduledAt: string | null; socialAccounts: PostAccount[] };
  /** Queued: due at `scheduledAt`, or at once when that has passed (or is null). `approvedBy`: the key's id. */
  'post.approved': { postId: string; orgId: string; scheduledAt: string | null; approvedBy: string };
  /** Final: no destination publishes. `rejectedBy`: the key's id; `reason` as the approver gave it. */
  'post.rejected': { postId: string; orgId: string; rejectedBy: string; reason: string | null };
  /** `accountId` is a number here, unlike everywhere else (spec). */
  'account.token_expired': { orgId: string; accountId: number; network: string; username: string; error: string };
  'import.completed': { import_id: string; status: 'completed'; imported: number; skipped: number; failed: number };
  /** `partial`: some imported and some failed; `failed`: nothing imported. */
  'import.failed': { import_id: string; status: 'partial' | 'failed'; imported: number; skipped: number; failed: number; error?: string };
  /** POST /v1/posts/bulk finished every row: `failedRows` lists the rows refused (their errors: GET /v1/posts/bulk/:id). */
  'bulk_import.completed': { bulkImportId: string; status: 'completed'; total: number; created: number; failed: number; failedRows: number[] };
  'conversation.started': { conversationId: string; orgId: string; network: string; participantId: string };
  'message.received': {
    conversationId: string;
    messageId: string;
    orgId: string;
    network: string;
    content: string;
    senderId: string;
    sentAt: string;
    sender: ContactProfile | null;
    /** Present only when the contact pressed a quick-reply button. */
    interaction?: { type: 'quick_reply'; id: string };
  };
  'message.sent': {
    conversationId: string;
    /** null for messages sent from the network's own app (relayed, not stored). */
    messageId: string | null;
    orgId: string;
    network: string;
    platformMessageId: string;
    source: 'api' | 'native_app';
    /** Carried by native-app messages, which are not stored. */
    content?: string;
  };
  'message.failed': { conversationId: string; messageId: string; orgId: string; network: string; error: string };
  'comment.received': {
    orgId: string;
    network: string;
    accountId: string;
    postId: string | null;
    platformPostId: string;
    /** The receivers' dedupe key for this event: a comment can be delivered more than once. */
    commentId: string;
    parentCommentId: string | null;
    authorId: string | null;
    authorUsername: string;
    text: string;
    author: ContactProfile | null;
  };
  test: { message: string; endpointId: number };
}

export type EventData<T extends EventType> = EventDataMap[T];

/** What a receiver gets as the POST body. */
export interface EventEnvelope<T extends EventType = EventType> {
  /** The event's id: the same on every attempt and redelivery; also sent as `webhook-id`. */
  id: string;
  event: T;
  /** ISO 8601: when the event occurred (committed to the outbox), not when it was sent. */
  timestamp: string;
  data: EventData<T>;
}

/** Fails to compile when an event type of outbox.ts has no data shape here. */
export type AnyEventData = EventDataMap[EventType];
