// What the Google emulator's routes share: the OAuth server, the users, the consents given and which
// tokens belong to which grant (Google revokes a whole grant at once).
import type { Clock } from '../../shared/clock.ts';
import type { OAuthServer } from '../../shared/oauth.ts';
import type { GoogleStore } from './accounts.ts';

export interface GoogleWorld {
  clock: Clock;
  oauth: OAuthServer;
  store: GoogleStore;
  /** "userId clientId" → scopes the user consented to for that app. */
  consents: Map<string, Set<string>>;
  /** Every token issued → its grant, so revoking one revokes the grant. */
  grants: Map<string, { userId: string; clientId: string; kind: 'access' | 'refresh' }>;
  /** Tokens of revoked grants (a second revoke is an error). */
  revokedTokens: Set<string>;
  /** Scopes the user unticks at the next consent screen (granular consent). */
  declineNext: Set<string>;
  /** The next token answer (either grant) carries no refresh_token. */
  omitNextRefresh: boolean;
}

export const consentKey = (userId: string, clientId: string) => `${userId} ${clientId}`;
