// The X emulator's in-memory world: users and their OAuth 2.0 tokens, posts, and media uploads.
import { randomBytes } from 'node:crypto';
import type { Clock } from '../shared/clock.ts';
import { TimeIds } from '../shared/ids.ts';

export interface XUser {
  id: string;
  username: string;
  name: string;
  /** X Premium: allows posts longer than 280 weighted characters. */
  premium: boolean;
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
  mediaIds: string[];
  deleted: boolean;
  /** The request body exactly as received. */
  request: Record<string, unknown>;
}

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

  constructor(clock: Clock) {
    this.#clock = clock;
    this.#ids = new TimeIds(clock, 1288834974657);
  }

  nextId(): string {
    return this.#ids.next();
  }

  addUser(input: AddUserInput): XUser {
    const user: XUser = {
      id: input.id ?? this.nextId(),
      username: input.username,
      name: input.name ?? input.username,
      premium: input.premium ?? false,
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
