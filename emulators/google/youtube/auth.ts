// The bearer check and error bodies of YouTube Data v3 publishing calls, in the v3 envelope with
// `errors[]` (../errors.ts legacyError), as the connect side's channels.list answers them.
import type { Reply } from '../../shared/http.ts';
import { INSUFFICIENT_SCOPES, INVALID_CREDENTIALS, INVALID_TOKEN_HEADER, legacyError, MISSING_CREDENTIALS, youtubeQuotaExceeded } from '../errors.ts';
import type { GoogleChannel, GoogleUser } from '../state/accounts.ts';
import type { GoogleWorld } from '../state/world.ts';
import type { YoutubeState } from './state.ts';

const SCOPE = 'https://www.googleapis.com/auth/';
/** videos.insert and thumbnails.set take youtube.upload, or the broader manage scopes. */
export const UPLOAD_SCOPES = ['youtube.upload', 'youtube', 'youtube.force-ssl', 'youtubepartner'].map((s) => SCOPE + s);
/** commentThreads.insert and reading a video's processing take force-ssl or youtube. */
export const MANAGE_SCOPES = ['youtube', 'youtube.force-ssl', 'youtubepartner'].map((s) => SCOPE + s);
/** videos.list of one's own upload also works with the upload scope (it reads what it uploaded). */
export const READ_SCOPES = [...MANAGE_SCOPES, SCOPE + 'youtube.readonly', SCOPE + 'youtube.upload'];
/** channels.list: the read scopes without youtube.upload. */
export const CHANNEL_SCOPES = [...MANAGE_SCOPES, SCOPE + 'youtube.readonly'];

export type Caller = { ok: true; user: GoogleUser; channel: GoogleChannel; clientId: string } | { ok: false; reply: Reply };
export type UserCaller = { ok: true; user: GoogleUser; clientId: string } | { ok: false; reply: Reply };

/** The bearer token's Google user, channel or not (channels.list?mine=true answers [] without one). */
export function authenticateUser(world: GoogleWorld, authorization: string | undefined, scopes: string[]): UserCaller {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  if (!match) {
    return { ok: false, reply: legacyError(401, MISSING_CREDENTIALS, [{ message: 'Login Required.', domain: 'global', reason: 'required', location: 'Authorization', locationType: 'header' }]) };
  }
  const check = world.oauth.checkAccess(match[1]);
  if (!check.ok) {
    return { ok: false, reply: legacyError(401, INVALID_CREDENTIALS, [{ message: 'Invalid Credentials', domain: 'global', reason: 'authError', location: 'Authorization', locationType: 'header' }], INVALID_TOKEN_HEADER) };
  }
  const user = world.store.users.get(check.userId);
  if (!user || !check.scopes.some((s) => scopes.includes(s))) {
    return { ok: false, reply: legacyError(403, INSUFFICIENT_SCOPES, [{ message: 'Insufficient Permission', domain: 'global', reason: 'insufficientPermissions' }]) };
  }
  return { ok: true, user, clientId: check.clientId };
}

/** The bearer token's user and their channel; a user without one is refused (youtubeSignupRequired). */
export function authenticate(world: GoogleWorld, authorization: string | undefined, scopes: string[]): Caller {
  const caller = authenticateUser(world, authorization, scopes);
  if (!caller.ok) return caller;
  const { user } = caller;
  if (!user.channel) {
    const message = 'The authenticated user has not created a YouTube channel.';
    return { ok: false, reply: legacyError(401, message, [{ message, domain: 'youtube.header', reason: 'youtubeSignupRequired', location: 'Authorization', locationType: 'header' }]) };
  }
  return { ok: true, user, channel: user.channel, clientId: caller.clientId };
}

/** Charges `units` to the caller's project; the 403 quotaExceeded when its day's units cannot take them. */
export function charged(state: YoutubeState, clientId: string, units: number): Reply | undefined {
  return state.charge(clientId, units) ? undefined : youtubeQuotaExceeded();
}

/** Counts a videos.insert call in the project's uploads bucket; the 403 quotaExceeded when the day's are spent. */
export function chargedUpload(state: YoutubeState, clientId: string): Reply | undefined {
  return state.charge(clientId, 1, 'uploads') ? undefined : youtubeQuotaExceeded();
}
