// Who is calling: the token (from `access_token` or an `Authorization: Bearer|OAuth` header) and its
// user, and the user a path names (`me` or the numeric id, which must be the token's user).
import type { Reply } from '../../shared/http.ts';
import { noActiveToken, objectNotFound } from '../errors.ts';
import type { ThreadsWorld } from '../state.ts';
import { checkToken } from './oauth.ts';
import { tokenOf } from './profile.ts';
import type { ThreadsRequest } from './route.ts';

export interface Caller {
  userId: string;
  scopes: string[];
}

/** The token's user, or Meta's refusal: no token 2500, a dead one 190, another user's path 100/33. */
export function callerOf(world: ThreadsWorld, req: ThreadsRequest, params: Record<string, string | undefined>, pathUser?: string): Caller | Reply {
  const token = params.access_token ?? tokenOf({}, req.headers.authorization);
  if (!token) return noActiveToken();
  const check = checkToken(world, token);
  if ('status' in check) return check;
  if (pathUser !== undefined && pathUser !== 'me' && pathUser !== check.userId) return objectNotFound(pathUser);
  return { userId: check.userId, scopes: check.scopes };
}
