// What a network can do beyond publishing, each optional (contract.ts, `Network.capabilities`): the
// shapes the engagement side (docs/networks/engagement.md, the spec's Reply record and its
// comment and message events) is built on. A network declares a capability only once it works: the
// contract suite checks that every declared one is implemented and tested (test/networks/contract.test.ts).
import type { PartRef, PreflightPost, PublishedPost } from '../core/post.ts';
import type { AccountCredentials } from '../core/account.ts';
import type { NetworkLedger } from '../core/ledger.ts';

/** An account as a capability calls its network with: credentials, and where refreshed tokens go. */
export interface AccountSession {
  account: AccountCredentials;
  /** Stores refreshed tokens (encrypted) before the next call needs them. */
  saveTokens(tokens: { accessToken?: string; refreshToken?: string; expiresAt?: Date | null }): Promise<void>;
  /** A fetch through the SSRF guard, for an API address the user chose (a Bluesky PDS). */
  userFetch: typeof fetch;
  /** The network's quota pools (network_ledger), as publishing gets them: a pool the whole app shares (YouTube's managed key) counts engagement calls too. */
  ledger?: NetworkLedger;
}

/** One page of a list the network pages through; `next` is the network's own cursor. */
export interface Page<T> {
  items: T[];
  next?: string;
}

/** A post of the account as the network lists it (imports). */
export interface OwnPost {
  platformId: string;
  url: string;
  text: string;
  /** ISO 8601; null when the network does not say. */
  createdAt: string | null;
  mediaCount: number;
  /** What later calls need (bluesky: uri and cid), as a published part's `ref`. */
  ref?: Record<string, unknown>;
  /** Set when the item cannot be imported as a post (a repost, a media kind Crier cannot show): counted `failed` with this reason. */
  unsupported?: string;
}

/** The spec's normalized Reply record, as the API returns it (field sources: engagement.md §1.1). */
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
  platform_specific?: Record<string, unknown>;
  /** Only when asked (`includeReplies`); one tier on facebook, instagram, linkedin, youtube, vimeo; any depth elsewhere. */
  replies?: Reply[];
}

export interface CommentListOptions {
  /** Nest answers under `replies` (else top-level comments only, no `replies` key). */
  includeReplies: boolean;
  /** linkedin: look up commenters' names (organizations resolve; members mostly cannot). Others ignore it. */
  resolveAuthorNames: boolean;
  /** The network's cursor from a previous page's `next`. */
  cursor?: string;
}

/** A post's figures. null: the network does not give this figure (never 0 for unknown). */
export interface PostMetrics {
  likes: number | null;
  comments: number | null;
  shares: number | null;
  views: number | null;
  reach: number | null;
  saves: number | null;
  impressions: number | null;
  /** Every other figure the network gave, under the network's own names. */
  platform_specific: Record<string, unknown>;
}

/** An account's figures; `engagement` over the period asked when `ranged`, else the network's lifetime figure. */
export interface AccountMetrics {
  followers: number | null;
  following: number | null;
  posts: number | null;
  engagement: number | null;
  /** True when the figures honour the period asked (since/until); false: they are the network's current totals. */
  ranged: boolean;
  platform_specific: Record<string, unknown>;
}

/** What the spec calls `sender` (message.received) and `author` (comment.received); null fields = unknown. */
export interface ContactLookup {
  isFollower: boolean | null;
  isFollowedByAccount: boolean | null;
  followerCount: number | null;
  isVerified: boolean | null;
  username?: string;
  name?: string;
}

/** A request the network sent to Crier's inbound endpoint for it, as received. */
export interface InboundRequest {
  method: string;
  headers: Record<string, string | undefined>;
  query: Record<string, string | undefined>;
  rawBody: Buffer;
}

/**
 * What a verified inbound delivery carried, by the network's own ids. `accountNetworkId` is the
 * connected account's id on the network (social_accounts.network_unique_id) the item is addressed to.
 */
export type InboundItem =
  | {
    kind: 'comment';
    accountNetworkId: string;
    /** The commented post; on threads the thread's first post (root_post). */
    platformPostId: string;
    commentId: string;
    parentCommentId: string | null;
    /** null on threads (no user id on replies). */
    authorId: string | null;
    authorUsername: string;
    text: string;
    /** The connected account wrote it (an API reply, or from the network's app): never emitted as comment.received. */
    byAccount: boolean;
  }
  | {
    kind: 'message';
    accountNetworkId: string;
    /** The other party of the conversation (Instagram's IGSID). */
    participantId: string;
    /** `in`: the contact wrote; `echo`: the account wrote (from the network's own app, or Crier's own send echoed back). */
    direction: 'in' | 'echo';
    platformMessageId: string;
    text: string;
    sentAt: string;
    /** The id of the quick-reply button the contact pressed (the payload Crier sent). */
    quickReplyId?: string;
  };

/**
 * A list a client reads to fill a platform block (Pinterest's boards for `board_id`, a subreddit's
 to fill a platform block (Pinterest's boards for `board_id`, a subreddit's
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
  /**
   * A dry run's check of a would-be post against what the network says of the account now (TikTok's
   * creator settings): what publishing would refuse, none when it would pass. Read-only; a failed
   * call is a PublishError (the dry run then says the check could not be made).
   */
  preview?(session: AccountSession, post: PreflightPost): Promise<string[]>;
  /**
   * Deletes a published post from the network (every container it published: thread replies and
   * first comments too, where they are posts of their own); 'absent' when the network no longer has it.
   * PublishError (core/errors.ts) for a refusal. DELETE /v1/posts/:id/remote.
   */
  remove?(session: AccountSession, post: PublishedPost): Promise<'removed' | 'absent'>;
  /**
   * Changes the text of a published post on the network (PATCH /v1/posts/:id/remote): `texts[i]` is
   * the new text of part i (`post.parts[i]`), undefined where that part stays as it was. A text is
   * plain, sent as the network receives the containers' shared content (no markup); what the part
   * carries besides (its media, a content warning, a poll) stays. The caller has judged the edited post
   * with the network's judge first. PublishError for a refusal (a message too old to edit is
   * `forbidden`, one gone from the network `not_found`).
   */
  edit?(session: AccountSession, post: PublishedPost, texts: readonly (string | undefined)[]): Promise<void>;
  /**
   * The account's own posts, newest first, one network page at a time (imports). `since`/`until`
   * bound createdAt where the network can filter; the caller also drops what falls outside.
   */
  ownPosts?(session: AccountSession, options: { since?: Date; until?: Date; cursor?: string }): Promise<Page<OwnPost>>;
  /** A post's comments as the spec's Reply records, and answering the post or one of its comments. */
  comments?: {
    /** One network page of top-level comments (with their answers nested when asked). */
    list(session: AccountSession, post: PublishedPost, options: CommentListOptions): Promise<Page<Reply>>;
    /** A comment on the post (no parent) or an answer to comment `parentCommentId` (an id as `list` returns it). */
    reply(session: AccountSession, post: PublishedPost, text: string, parentCommentId?: string): Promise<{ replyId: string }>;
    /**
     * The deprecated network-specific shape the spec names (facebook/instagram comments lists, a
     * bluesky reply with a numeric reply count, vimeo's raw comment), served only with `?legacy=true`.
     */
    legacy?(session: AccountSession, post: PublishedPost, options: { cursor?: string }): Promise<Page<unknown>>;
  };
  /** Figures of a post, and of the account over a period. */
  analytics?: {
    post?(session: AccountSession, post: PublishedPost): Promise<PostMetrics>;
    account?(session: AccountSession, period: { since: Date; until: Date }): Promise<AccountMetrics>;
  };
  /** Direct messages (instagram): sending, and looking a contact up. Conversations are Crier's (stored from inbound deliveries). */
  messages?: {
    /** The network's OAuth scopes to ask for, on top of the default ones, when a connect asks for `messaging`. */
    scopes: readonly string[];
    /** Sends to a contact (`{ recipientId }`) or as the one private reply to a comment (`{ commentId }`). */
    send(session: AccountSession, to: { recipientId: string } | { commentId: string }, message: { text: string; quickReplies?: { id: string; title: string }[] }): Promise<{ platformMessageId: string; recipientId: string }>;
    /** The contact's profile as the network shows it to the account; null when the lookup fails. */
    contact(session: AccountSession, contactId: string): Promise<ContactLookup | null>;
  };
  /** Webhooks the network sends to /inbound/<network> (Meta's: meta/webhooks.ts has the shared checks). */
  inbound?: {
    /** Answers a subscription handshake (GET with hub.* parameters) when `tokenIsValid(token)`; undefined when the request is not one. */
    handshake(request: InboundRequest, tokenIsValid: (token: string) => boolean): { status: number; body: string } | undefined;
    /** The connected accounts' network ids a delivery concerns, read before its signature is checked (they say whose app signed it). */
    recipients(request: InboundRequest): string[];
    /** Is the delivery signed with `appSecret`? (constant-time) */
    verify(request: InboundRequest, appSecret: string): boolean;
    /** The items of a verified delivery (several per delivery; a redelivery repeats them: the caller drops duplicates). */
    parse(request: InboundRequest): InboundItem[];
  };
}
