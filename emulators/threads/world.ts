// The state the Threads emulator's routes share: users, the OAuth server, and which tokens are
// long-lived (only those can be refreshed, once they are 24 hours old by the OAuthServer's records).
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
  /** Long-lived tokens (from th_exchange_token, th_refresh_token or issueLongLived). */
  longLived: Set<string>;
  settings: ThreadsSettings;
}
