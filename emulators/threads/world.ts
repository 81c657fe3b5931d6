// The state the Threads emulator's routes share: users, the OAuth server, and what Meta knows of
// each token beyond OAuthServer's records (short- or long-lived, when it was issued: a long-lived
// token can only be refreshed once it is 24 hours old).
import type { Clock } from '../shared/clock.ts';
import type { OAuthServer } from '../shared/oauth.ts';

export interface ThreadsUser {
  /** Threads user id (a numeric string, as Meta's ids are). */
  id: string;
  username: string;
  name: string;
  profilePictureUrl: string | null;
  biography: string;
  isVerified: boolean;
}

export interface TokenInfo {
  kind: 'short' | 'long';
  issuedAtMs: number;
}

export interface ThreadsSettings {
  /** Short-lived token from the code exchange (Meta: 1 h). */
  shortLivedSecs: number;
  /** Long-lived token from th_exchange_token and th_refresh_token (Meta: 60 days). */
  longLivedSecs: number;
  /** How old a long-lived token must be before th_refresh_token accepts it (Meta: 24 h). */
  minRefreshAgeSecs: number;
}

export interface ThreadsWorld {
  clock: Clock;
  oauth: OAuthServer;
  users: Map<string, ThreadsUser>;
  tokens: Map<string, TokenInfo>;
  /** Codes already redeemed, so a second use gets Meta's "has been used" answer. */
  usedCodes: Set<string>;
  settings: ThreadsSettings;
}
