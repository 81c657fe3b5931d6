// What every engagement call starts from: the account's client, the published video's uri, and a
// page cursor as Crier hands it back (Vimeo's page number, never a URL: a cursor comes from a client).
import type { AccountSession } from '../capabilities.ts';
import type { PublishedPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import { VimeoClient } from './client.ts';

/** Vimeo's largest page (api.yaml: per_page ≤ 100). */
export const PER_PAGE = 100;

export function clientOf(apiUrl: string, session: AccountSession): VimeoClient {
  const token = session.account.accessToken;
  if (!token) throw new PublishError('auth', 'vimeo: the account has no access token; reconnect it', undefined, 'auth');
  return new VimeoClient(apiUrl, token);
}

/** "/videos/<id>": the published video's uri (kept in ref), else made from its numeric id. */
export function videoUriOf(post: PublishedPost): string {
  const uri = post.root.ref?.uri;
  if (typeof uri === 'string' && /^\/videos\/\d+$/.test(uri)) return uri;
  if (/^\d+$/.test(post.root.platformId)) return `/videos/${post.root.platformId}`;
  throw new PublishError('permanent', `vimeo: "${post.root.platformId}" is not a Vimeo video id`, undefined, 'invalid');
}

/** A page cursor as Crier hands it back: Vimeo's page number (1 when absent). */
export function pageOf(cursor: string | undefined): number {
  if (cursor === undefined) return 1;
  if (!/^[1-9]\d{0,6}$/.test(cursor)) throw new PublishError('permanent', `vimeo: "${cursor}" is not a page cursor of this list`, undefined, 'invalid');
  return Number(cursor);
}

