// What the Mastodon emulator remembers: one instance (its configuration), its accounts with their
// access tokens, the media they uploaded, the statuses they posted, and the Idempotency-Keys of the
// last hour.
import type { Clock } from '../shared/clock.ts';

export interface Account {
  id: string;
  username: string;
  displayName: string;
  token: string;
  /** The token's scopes (https://docs.joinmastodon.org/api/oauth-scopes/): `read`, `write`, or granular ones (`write:statuses`). */
  scopes: string[];
  /** A revoked token answers 401 "The access token was revoked". */
  revoked: boolean;
  createdAt: string;
  /** Account `followers_count` / `following_count` (no follower graph here: controls set them). */
  followersCount?: number;
  followingCount?: number;
}

export interface StoredMedia {
  id: string;
  accountId: string;
  type: 'image' | 'video' | 'gifv' | 'audio' | 'unknown';
  filename: string;
  contentType: string;
  size: number;
  description: string | null;
  /** GET /api/v1/media/:id answers still processing (206) this many more times. */
  pendingPolls: number;
  /** Kept processing until released (controls: holdProcessing). */
  held: boolean;
  failed: boolean;
  statusId: string | null;
}

export interface StoredPoll {
  id: string;
  options: string[];
  expiresAt: string;
  multiple: boolean;
  hideTotals: boolean;
}

export interface StoredStatus {
  id: string;
  accountId: string;
  text: string;
  spoilerText: string;
  visibility: 'public' | 'unlisted' | 'private' | 'direct';
  language: string | null;
  sensitive: boolean;
  inReplyToId: string | null;
  mediaIds: string[];
  poll: StoredPoll | null;
  createdAt: string;
  /** The Idempotency-Key it was created with, if any. */
  idempotencyKey: string | null;
  deleted: boolean;
  /** Set by PUT /api/v1/statuses/:id (Status `edited_at`). */
  editedAt?: string | null;
  /** Accounts that favourited it (controls: favourite), counted as `favourites_count`. */
  favouritedBy?: string[];
  /** A boost: the status it reblogs (Status `reblog`); its own text is empty. */
  reblogOfId?: string | null;
}

/** configuration.statuses / media_attachments / polls of GET /api/v2/instance. */
export interface InstanceConfiguration {
  statuses: { max_characters: number; max_media_attachments: number; characters_reserved_per_url: number };
  media_attachments: { supported_mime_types: string[]; image_size_limit: number; image_matrix_limit: number; video_size_limit: number; video_frame_rate_limit: number; video_matrix_limit: number };
  polls: { max_options: number; max_characters_per_option: number; min_expiration: number; max_expiration: number };
}

export interface MastodonWorld {
  clock: Clock;
  /** The emulator's own origin, known once it listens. */
  origin: string;
  /** The instance's domain (its LOCAL_DOMAIN), when it is not the origin's host. */
  domain?: string;
  configuration: InstanceConfiguration;
  accounts: Map<string, Account>;
  media: Map<string, StoredMedia>;
  statuses: Map<string, StoredStatus>;
  /** `<account id>:<key>` → the status made with it and when. */
  idempotency: Map<string, { statusId: string; at: number }>;
  nextId: number;
  /** Uploads answered 202 and processing for this many polls (0: images are processed at once). */
  processingPolls: number;
  holdProcessing: boolean;
  /** The next this many API calls answer 429. */
  rateLimited: number;
  /** The forced 429s' reset, from the moment they answer; undefined: the window's end. */
  rateLimitResetMs: number | undefined;
  /** `<METHOD> <route>` → hold the answer (after acting) `ms`, after `skip` more such calls. */
  stalls: Map<string, { ms: number; skip: number }>;
  /** Calls of the current 5-minute window, per token. */
  windows: Map<string, { start: number; count: number }>;
  /** Tokens issued by POST /oauth/token (routes/oauth.ts): the account, the scopes granted, the app. */
  issuedTokens?: Map<string, { accountId: string; scopes: string[]; clientId: string }>;
}

/** Mastodon 4's defaults (https://docs.joinmastodon.org/entities/Instance/#example). */
export const DEFAULT_CONFIGURATION: InstanceConfiguration = {
  statuses: { max_characters: 500, max_media_attachments: 4, characters_reserved_per_url: 23 },
  media_attachments: {
    supported_mime_types: ['image/jpeg', 'image/png', 'image/gif', 'image/heic', 'image/heif', 'image/webp', 'image/avif', 'video/webm', 'video/mp4', 'video/quicktime', 'video/ogg', 'audio/wave', 'audio/wav', 'audio/x-wav', 'audio/x-pn-wave', 'audio/vnd.wave', 'audio/ogg', 'audio/vorbis', 'audio/mpeg', 'audio/mp3', 'audio/webm', 'audio/flac', 'audio/aac', 'audio/m4a', 'audio/x-m4a', 'audio/mp4', 'audio/3gpp', 'video/x-ms-asf'],
    image_size_limit: 16_777_216, image_matrix_limit: 33_177_600, video_size_limit: 103_809_024, video_frame_rate_limit: 120, video_matrix_limit: 8_294_400,
  },
  polls: { max_options: 4, max_characters_per_option: 50, min_expiration: 300, max_expiration: 2_629_746 },
};

/** Ids are strings of digits, increasing with time, as Mastodon's (Snowflake-like) ids are. */
export function nextId(world: MastodonWorld): string {
  world.nextId += 1;
  return String(109_000_000_000 + world.nextId);
}

export const accountByToken = (world: MastodonWorld, token: string): Account | undefined =>
  [...world.accounts.values()].find((account) => account.token === token) ?? oauthAccount(world, token);

/** The account of a token issued through OAuth, seen with that token's scopes. */
function oauthAccount(world: MastodonWorld, token: string): Account | undefined {
  const grant = world.issuedTokens?.get(token);
  const account = grant && world.accounts.get(grant.accountId);
  return account && grant && { ...account, token, scopes: grant.scopes };
}
