// What a network can do beyond publishing, each optional (contract.ts, `Network.capabilities`): the
// shapes the engagement side (../shared/networks/engagement.md, the spec's Reply record and its
// comment and message events) is built on. A network declares a capability only once it works: the
// contract suite checks that every declared one is implemented and tested. None is declared yet.
import type { AccountCredentials, PartRef } from './types.ts';

/** An account as a capability calls its network with: credentials, and where refreshed tokens go. */
export interface AccountSession {
  account: AccountCredentials;
  /** Stores refreshed tokens (encrypted) before the next call needs them. */
  saveTokens(tokens: { accessToken?: string; refreshToken?: string; expiresAt?: Date | null }): Promise<void>;
  /** A fetch through the SSRF guard, for an API address the user chose (a Bluesky PDS). */
  userFetch: typeof fetch;
}

/** One page of a list the network pages through; `next` is the network's own cursor. */
export interface Page<T> {
  items: T[];
  next?: string;
}

/** A post of the account as the network lists it (imports, reconciliation). */
export interface OwnPost {
  platformId: string;
  url: string;
  text: string;
  createdAt: string | null;
  mediaCount: number;
}

/** The spec's normalized Reply record, as the API returns it. */
export interface Reply {
  id: string;
  author: string;
  author_name: string | null;
  author_username?: string;
  author_avatar_url?: string;
  author_profile_url?: string;
  text: string;
  created_at: string | null;
  like_count?: number;
  platform_specific?: unknown;
  replies?: Reply[];
}

/** Named figures of a post or an account; null: the network did not say. */
export type Metrics = Record<string, number | null>;

/** A request the network sent to Crier's inbound endpoint for it, as received. */
export interface InboundRequest {
  method: string;
  headers: Record<string, string | undefined>;
  query: Record<string, string | undefined>;
  rawBody: Buffer;
}

/** What an inbound request carried, as Crier's events (the spec's payload fields, by network ids). */
export type InboundEvent =
  | { type: 'comment.received'; accountNetworkId: string; platformPostId: string; commentId: string; parentCommentId: string | null; authorId: string | null; authorUsername: string; text: string }
  | { type: 'message.received' | 'message.sent'; accountNetworkId: string; conversationId: string; messageId: string; content: string; senderId: string; sentAt: string };

/**
 * A list a client reads to fill a platform block (Pinterest's boards for `board_id`, a subreddit's
 * flairs for `flairId`), served at GET /v1/social-accounts/:id/<path> for the network's accounts as
 * `{success, data: items}`. A PublishError from `list` is answered as the network's refusal
 * (`not_found` 404, `auth` 409 with the account disconnected, others 502).
 */
export interface AccountListing {
  /** Below /v1/social-accounts/:id/, with `:name` parameters: 'boards', 'subreddits/:name/flairs'. */
  path: string;
  /** For the OpenAPI document: "The account's boards". */
  summary: string;
  list(session: AccountSession, params: Record<string, string>): Promise<Record<string, unknown>[]>;
}

export interface NetworkCapabilities {
  /** Lists a client reads to fill the network's platform block. */
  listings?: AccountListing[];
  /** Removes a published post; 'absent' when the network no longer has it. */
  remove?(session: AccountSession, post: PartRef): Promise<'removed' | 'absent'>;
  /** The account's own posts, newest first. */
  ownPosts?(session: AccountSession, options: { since?: Date; cursor?: string }): Promise<Page<OwnPost>>;
  /** A post's comments, and answering one (or the post itself). */
  comments?: {
    list(session: AccountSession, post: PartRef, options: { includeReplies: boolean; cursor?: string }): Promise<Page<Reply>>;
    reply(session: AccountSession, post: PartRef, text: string, parentCommentId?: string): Promise<{ replyId: string }>;
  };
  /** Figures of a post, and of the account over a period. */
  analytics?: {
    post?(session: AccountSession, post: PartRef): Promise<Metrics>;
    account?(session: AccountSession, period: { from: Date; to: Date }): Promise<Metrics>;
  };
  /** Direct messages: the account's conversations, their messages, and sending one. */
  messages?: {
    conversations(session: AccountSession, options: { cursor?: string }): Promise<Page<{ id: string; participantId: string; updatedAt: string | null }>>;
    list(session: AccountSession, conversationId: string, options: { cursor?: string }): Promise<Page<{ id: string; senderId: string; content: string; sentAt: string }>>;
    send(session: AccountSession, recipientId: string, content: string): Promise<{ messageId: string }>;
  };
  /**
   * Webhooks the network sends: `verify` answers its subscription handshake or checks a delivery's
   * signature with the app's secret (a Response-like answer, or 'valid' / 'invalid'); `parse` turns a
   * verified delivery into events (a delivery may carry several; duplicates are the caller's to drop).
   */
  inbound?: {
    verify(request: InboundRequest, appSecret: string): { answer: { status: number; body: string } } | 'valid' | 'invalid';
    parse(request: InboundRequest): InboundEvent[];
  };
}
