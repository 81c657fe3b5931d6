// Everything the X emulator remembers: users and their OAuth 2.0 tokens, posts, media uploads, the
// developer apps and authorization codes of the OAuth flow, and the settings a test may change.
import { randomBytes } from 'node:crypto';
import type { Clock } from '../shared/clock.ts';
import { TimeIds } from '../shared/ids.ts';
import type { VocabularySetting } from './validate/description.ts';

export interface XUser {
  id: string;
  username: string;
  name: string;
  /** X Premium: allows posts longer than 280 weighted characters. */
  premium: boolean;
  profileImageUrl: string;
  /** public_metrics figures a test sets (tweet_count is counted from the posts). */
  followersCount: number;
  followingCount: number;
  listedCount: number;
  likeCount: number;
  /**
   * The plan of the app the token belongs to, for the reply rule of 23 Feb 2026: on self-serve plans
   * (`self_serve`) a reply is accepted only when the post answered is the user's own, @mentions the
   * user, or quotes one of the user's posts; `enterprise` apps are exempt.
   */
  plan: 'self_serve' | 'enterprise';
}

export interface AddUserInput {
  id?: string;
  username: string;
  name?: string;
  accessToken: string;
  refreshToken?: string;
  /** OAuth 2.0 scopes granted to the token; defaults to every scope publishing needs. */
  scopes?: string[];
  /** Access-token lifetime; X issues 2-hour tokens, which is the default. */
  expiresInSecs?: number;
  premium?: boolean;
  profileImageUrl?: string;
  followersCount?: number;
  followingCount?: number;
  plan?: 'self_serve' | 'enterprise';
}

/** Engagement figures a test sets on a post (X counts them from other users' actions). */
export interface XTweetMetrics {
  like_count?: number;
  retweet_count?: number;
  quote_count?: number;
  bookmark_count?: number;
  impression_count?: number;
  /** non_public_metrics, served to the author for posts of the last 30 days. */
  url_link_clicks?: number;
  user_profile_clicks?: number;
  engagements?: number;
}

export interface XTweet {
  id: string;
  /** The text as the client sent it. */
  text: string;
  /** The text as X returns it (HTML-escaped, links rewritten to t.co). */
  renderedText: string;
  authorId: string;
  authorUsername: string;
  createdAt: string;
  conversationId: string;
  inReplyToTweetId?: string;
  inReplyToUserId?: string;
  replySettings?: string;
  quoteTweetId?: string;
  /** A repost of this post (it shows on the reposter's timeline, text "RT @user: …"). */
  retweetOfId?: string;
  metrics: XTweetMetrics;
  mediaIds: string[];
  deleted: boolean;
  /** The request body exactly as received. */
  request: Record<string, unknown>;
}

export interface SeedTweetInput {
  authorId: string;
  text?: string;
  /** Makes it a reply (in the parent's conversation). */
  inReplyTo?: string;
  quoteOf?: string;
  /** Makes it a repost of that post (text "RT @user: …"). */
  retweetOf?: string;
  /** ISO time in the past; default now. */
  createdAt?: string;
  metrics?: XTweetMetrics;
}

/** X's snowflake epoch (2010-11-04T01:42:54.657Z). */
export const TWITTER_EPOCH_MS = 1288834974657;

export type ProcessingState = 'pending' | 'in_progress' | 'succeeded' | 'failed';

export interface XMedia {
  id: string;
  mediaKey: string;
  ownerId: string;
  additionalOwners: string[];
  category: string;
  mediaType?: string;
  totalBytes?: number;
  segments: Map<number, Buffer>;
  size: number;
  createdAtMs: number;
  finalized: boolean;
  image?: { image_type: string; w?: number; h?: number };
  processing?: { startedAtMs: number; outcome: 'succeeded' | 'failed'; pinned?: ProcessingState };
  altText?: string;
  /** A video's length: read from its movie header when finalized (mp4.ts), or set by setMediaDuration(). */
  videoMs?: number;
}

interface AccessToken {
  userId: string;
  scopes: Set<string>;
  expiresAtMs: number;
  expired: boolean;
}

export const PUBLISHING_SCOPES = ['tweet.read', 'tweet.write', 'users.read', 'media.write', 'offline.access'];
export const ACCESS_TOKEN_SECS = 7200;
export const MEDIA_EXPIRY_SECS = 86400;

/** Media-key type prefixes X uses: 3 photo, 7 video, 13 amplify video, 16 animated GIF. */
const MEDIA_KEY_PREFIX: Record<string, string> = {
  tweet_image: '3', dm_image: '3', subtitles: '3',
  tweet_video: '7', dm_video: '7', amplify_video: '13',
  tweet_gif: '16', dm_gif: '16',
};

export function isVideoLike(category: string): boolean {
  return /video|gif/.test(category);
}

export class XStore {
  readonly users = new Map<string, XUser>();
  readonly tweets: XTweet[] = [];
  readonly media = new Map<string, XMedia>();
  readonly #tokens = new Map<string, AccessToken>();
  readonly #refreshTokens = new Map<string, { userId: string; scopes: Set<string> }>();
  readonly #clock: Clock;
  /** Snowflake ids like X's: milliseconds since the Twitter epoch, shifted, plus a sequence. */
  readonly #ids: TimeIds;
  #seeded = 0;

  constructor(clock: Clock) {
    this.#clock = clock;
    this.#ids = new TimeIds(clock, TWITTER_EPOCH_MS);
  }

  nextId(): string {
    return this.#ids.next();
  }

  /** A snowflake for a post seeded at an earlier time (a test's past conversation). */
  idAt(ms: number): string {
    this.#seeded = (this.#seeded + 1) & 0x3fffff;
    return ((BigInt(ms - TWITTER_EPOCH_MS) << 22n) | BigInt(this.#seeded)).toString();
  }

  /** A post written outside the API (another user's reply, a repost), as a test seeds it. */
  seedTweet(input: SeedTweetInput): XTweet {
    const author = this.users.get(input.authorId);
    if (!author) throw new Error(`no user ${input.authorId}`);
    const parent = input.inReplyTo === undefined ? undefined : this.findTweet(input.inReplyTo);
    if (input.inReplyTo !== undefined && !parent) throw new Error(`no post ${input.inReplyTo}`);
    const createdAtMs = input.createdAt ? Date.parse(input.createdAt) : this.#clock.now();
    const id = input.createdAt ? this.idAt(createdAtMs) : this.nextId();
    const reposted = input.retweetOf === undefined ? undefined : this.findTweet(input.retweetOf);
    const text = reposted ? `RT @${reposted.authorUsername}: ${reposted.text}` : input.text ?? '';
    const tweet: XTweet = {
      id,
      text,
      renderedText: text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;'),
      authorId: author.id,
      authorUsername: author.username,
      createdAt: new Date(createdAtMs).toISOString(),
      conversationId: parent ? parent.conversationId : id,
      inReplyToTweetId: parent?.id,
      inReplyToUserId: parent?.authorId,
      quoteTweetId: input.quoteOf,
      retweetOfId: reposted?.id,
      metrics: { ...input.metrics },
      mediaIds: [],
      deleted: false,
      request: {},
    };
    this.tweets.push(tweet);
    // Kept in creation order, as the timeline and search read it.
    this.tweets.sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
    return tweet;
  }

  addUser(input: AddUserInput): XUser {
    const user: XUser = {
      id: input.id ?? this.nextId(),
      username: input.username,
      name: input.name ?? input.username,
      premium: input.premium ?? false,
      profileImageUrl: input.profileImageUrl ?? `https://pbs.twimg.com/profile_images/${input.username}_normal.jpg`,
      followersCount: input.followersCount ?? 0,
      followingCount: input.followingCount ?? 0,
      listedCount: 0,
      likeCount: 0,
      plan: input.plan ?? 'self_serve',
    };
    this.users.set(user.id, user);
    const scopes = new Set(input.scopes ?? PUBLISHING_SCOPES);
    this.issueAccessToken(input.accessToken, user.id, scopes, input.expiresInSecs ?? ACCESS_TOKEN_SECS);
    if (input.refreshToken) this.#refreshTokens.set(input.refreshToken, { userId: user.id, scopes });
    return user;
  }

  issueAccessToken(token: string, userId: string, scopes: Set<string>, lifetimeSecs: number): void {
    this.#tokens.set(token, { userId, scopes, expiresAtMs: this.#clock.now() + lifetimeSecs * 1000, expired: false });
  }

  expireToken(token: string): void {
    const found = this.#tokens.get(token);
    if (found) found.expired = true;
  }

  /** The user and scopes behind a live access token, or null. */
  authenticate(token: string | null): { user: XUser; scopes: Set<string> } | null {
    const found = token ? this.#tokens.get(token) : undefined;
    if (!found || found.expired || this.#clock.now() >= found.expiresAtMs) return null;
    const user = this.users.get(found.userId);
    return user ? { user, scopes: found.scopes } : null;
  }

  /** A new access token (and a refresh token when offline.access was granted), as the code grant issues them. */
  issueTokenPair(userId: string, scopes: Set<string>): { accessToken: string; refreshToken: string | undefined } {
    const accessToken = randomBytes(24).toString('base64url');
    this.issueAccessToken(accessToken, userId, scopes, ACCESS_TOKEN_SECS);
    if (!scopes.has('offline.access')) return { accessToken, refreshToken: undefined };
    const refreshToken = randomBytes(24).toString('base64url');
    this.#refreshTokens.set(refreshToken, { userId, scopes });
    return { accessToken, refreshToken };
  }

  /** Refresh tokens are single-use: each refresh returns a new pair and retires the old token. */
  rotateRefreshToken(refreshToken: string): { accessToken: string; refreshToken: string; scopes: Set<string> } | null {
    const found = this.#refreshTokens.get(refreshToken);
    if (!found) return null;
    this.#refreshTokens.delete(refreshToken);
    const accessToken = randomBytes(24).toString('base64url');
    const next = randomBytes(24).toString('base64url');
    this.issueAccessToken(accessToken, found.userId, found.scopes, ACCESS_TOKEN_SECS);
    this.#refreshTokens.set(next, found);
    return { accessToken, refreshToken: next, scopes: found.scopes };
  }

  revoke(token: string): void {
    this.#tokens.delete(token);
    this.#refreshTokens.delete(token);
  }

  findTweet(id: string): XTweet | undefined {
    return this.tweets.find((t) => t.id === id && !t.deleted);
  }

  createMedia(owner: XUser, category: string, extra: Partial<XMedia> = {}): XMedia {
    const id = this.nextId();
    const media: XMedia = {
      id,
      mediaKey: `${MEDIA_KEY_PREFIX[category] ?? '3'}_${id}`,
      ownerId: owner.id,
      additionalOwners: [],
      category,
      segments: new Map(),
      size: 0,
      createdAtMs: this.#clock.now(),
      finalized: false,
      ...extra,
    };
    this.media.set(id, media);
    return media;
  }

  mediaExpiresInSecs(media: XMedia): number {
    return Math.max(0, Math.ceil((media.createdAtMs + MEDIA_EXPIRY_SECS * 1000 - this.#clock.now()) / 1000));
  }
}

/** A developer app registered with addApp(): what the authorize page and the code grant check. */
export interface XApp {
  clientId: string;
  clientSecret: string;
  /** Callback URLs; redirect_uri must be one of them exactly. */
  callbackUrls: string[];
}

/** An authorization code handed out by the consent page: valid 30 s, once. */
export interface XAuthCode {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  codeChallengeMethod: 'S256' | 'plain';
  userId: string;
  scopes: string[];
  issuedAtMs: number;
}

export interface ProcessingSettings {
  checkAfterSecs: number;
  durationMs: number;
  /** When true, media stays `pending` until a test sets its state. */
  manual: boolean;
}

export interface XWorld {
  store: XStore;
  /** Which of X's field vocabularies the query parameters may use (validate/description.ts). */
  fieldVocabulary: VocabularySetting;
  clock: Clock;
  duplicateWindowMs: number;
  processing: ProcessingSettings;
  /** Set by failNextProcessing(): the next finalized video or GIF ends `failed`. */
  failNextProcessing: boolean;
  apps: Map<string, XApp>;
  codes: Map<string, XAuthCode>;
  /** The user who consents on the authorize page (signIn()). */
  signedInUserId: string | undefined;
}

export interface ProcessingInfo {
  state: ProcessingState;
  check_after_secs?: number;
  progress_percent?: number;
}

/** Processing advances with the clock: `pending` for check_after_secs, then `in_progress`, then the outcome. */
export function processingInfo(world: XWorld, media: XMedia): ProcessingInfo | undefined {
  const processing = media.processing;
  if (!processing) return undefined;
  const { checkAfterSecs, durationMs, manual } = world.processing;
  const elapsed = world.clock.now() - processing.startedAtMs;
  let state: ProcessingState;
  if (processing.pinned) state = processing.pinned;
  else if (manual || elapsed < checkAfterSecs * 1000) state = 'pending';
  else if (elapsed < durationMs) state = 'in_progress';
  else state = processing.outcome;
  if (state === 'succeeded' || state === 'failed') return { state, progress_percent: 100 };
  // As in X's finalize example, a pending upload reports only when to ask again.
  if (state === 'pending') return { state, check_after_secs: checkAfterSecs };
  return { state, check_after_secs: checkAfterSecs, progress_percent: Math.min(99, Math.floor((elapsed * 100) / durationMs)) };
}
