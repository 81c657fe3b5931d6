// Graph parameters arrive in the query string, a form body or a JSON body, as Meta accepts all three;
// a body parameter wins over the same one in the query. Also: the caller's token and the user a path
// names (`me` or the numeric id, which must be the token's user).
import { jsonBody, rawBody, isPlainObject, type Reply } from '../../shared/http.ts';
import { metaError, noActiveToken } from '../errors.ts';
import type { ThreadsWorld } from '../world.ts';
import { checkToken } from './oauth.ts';
import { tokenOf } from './profile.ts';
import type { ThreadsRequest } from './route.ts';

export function paramsOf(req: ThreadsRequest): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = { ...req.query };
  const type = String(req.headers['content-type'] ?? '');
  if (/application\/x-www-form-urlencoded/i.test(type)) {
    for (const [name, value] of new URLSearchParams(rawBody(req.body).toString('utf8'))) out[name] = value;
  } else if (/application\/json/i.test(type)) {
    const body = jsonBody(req.body);
    if (isPlainObject(body)) {
      for (const [name, value] of Object.entries(body)) out[name] = typeof value === 'string' ? value : JSON.stringify(value);
    }
  }
  return out;
}

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

/** Graph's answer for an id that is not there or not the caller's. */
export const objectNotFound = (id: string): Reply =>
  metaError(`Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`, 100, 33, 400, 'GraphMethodException');

export const missingPermission = (scope: string): Reply =>
  metaError(`(#10) The user has not granted the ${scope} permission.`, 10, undefined, 403);

export const isReply = (value: unknown): value is Reply => typeof value === 'object' && value !== null && 'status' in value;
