// What every engagement call starts from: the account's client, the published video's id, and a
// check of ids and cursors handed back by a client before they reach YouTube.
import type { AccountSession } from '../capabilities.ts';
import type { PublishedPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import { isProjectQuota, YoutubeClient } from './client.ts';
import { chargeSpent, markExhausted } from './pool.ts';
import type { PoolSettings } from './settings.ts';

/** Video ids are 11 characters of base64url; comment ids are longer and replies carry a dot. */
const VIDEO_ID = /^[A-Za-z0-9_-]{1,64}$/;
const COMMENT_ID = /^[A-Za-z0-9_.-]{1,256}$/;

export function clientOf(apiUrl: string, session: AccountSession): YoutubeClient {
  const token = session.account.accessToken;
  if (!token) throw new PublishError('auth', 'youtube: the account has no access token; reconnect it', undefined, 'auth');
  return new YoutubeClient(apiUrl, token);
}

/**
 * `work` with the account's client; for an account on the operator's managed key, the units its calls
 * cost are charged to the shared pool afterwards (pool.ts), and Google's "project quota spent" marks
 * the pool exhausted for the rest of the Pacific day, as publishing does. An org's own key: nothing counted.
 */
export async function metered<T>(apiUrl: string, pool: PoolSettings, session: AccountSession, work: (client: YoutubeClient) => Promise<T>): Promise<T> {
  const client = clientOf(apiUrl, session);
  const ledger = session.account.managedApp === true ? session.ledger : undefined;
  try {
    return await work(client);
  } catch (error) {
    if (ledger && isProjectQuota(error)) await markExhausted(ledger, pool, session.account.orgId, 'units').catch(() => undefined);
    throw error;
  } finally {
    if (ledger) await chargeSpent(ledger, session.account, client.unitsSpent).catch(() => undefined);
  }
}

export function videoIdOf(post: PublishedPost): string {
  const id = post.root.platformId;
  if (!VIDEO_ID.test(id)) throw new PublishError('permanent', `youtube: "${id}" is not a YouTube video id`, undefined, 'invalid');
  return id;
}

export function checkedCommentId(id: string): string {
  if (!COMMENT_ID.test(id)) throw new PublishError('permanent', `youtube: "${id}" is not a YouTube comment id`, undefined, 'invalid');
  return id;
}

/** Google's pageToken, as a previous page gave it (sent as a query value, never as a URL). */
export function checkedCursor(cursor: string | undefined): string | undefined {
  if (cursor !== undefined && (cursor === '' || cursor.length > 1024)) throw new PublishError('permanent', 'youtube: that is not a page cursor of this list', undefined, 'invalid');
  return cursor;
}
