// What the TikTok emulator remembers beside its publishes (publishing.ts) and display videos
// (display.ts): the users, the OAuth server, the token requests, the rate limits; and the shape of a route.
import type { Clock } from '../shared/clock.ts';
import type { Reply } from '../shared/http.ts';
import type { OAuthServer } from '../shared/oauth.ts';
import type { CreatorSettings } from './publishing.ts';
import type { RateLimits } from './routes/publish.ts';

export interface TikTokUser {
  /** The user's id for the app (TikTok issues one open_id per app; the emulator one per user). */
  openId: string;
  unionId: string;
  username: string;
  displayName: string;
  avatarUrl: string | null;
  bioDescription: string;
  isVerified: boolean;
  /** Scopes this user unticks on the consent page (TikTok lets users grant a subset). */
  deniedScopes: string[];
  /** What creator_info answers for them, and whether their account is private. */
  creator: CreatorSettings;
  /** The counts of user.info.stats; video_count defaults to their public videos. */
  stats: Partial<UserStats>;
}

export interface UserStats {
  follower_count: number;
  following_count: number;
  likes_count: number;
  video_count: number;
}

export interface TikTokWorld {
  clock: Clock;
  oauth: OAuthServer;
  users: Map<string, TikTokUser>;
  /** HTTP status of OAuth error bodies (TikTok: 200). */
  oauthErrorStatus: number;
  /** Every POST /v2/oauth/token/ form as received (client_secret redacted), in order. */
  tokenRequests: Record<string, string>[];
  /** The emulator's own URL (upload URLs point back at it). */
  origin: string;
  /** Requests per minute per token and endpoint group; 0 turns a limit off. */
  rateLimits: RateLimits;
}

export interface TikTokRequest {
  query: Record<string, string | undefined>;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
}

export interface TikTokRoute {
  method: 'GET' | 'POST';
  url: string;
  handler: (req: TikTokRequest) => Reply;
}
