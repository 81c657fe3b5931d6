// The Threads client an engagement capability calls with: the account's long-lived token (refreshed
// by the token refresher, never here: Threads tokens refresh themselves only after 24 h) and its
// Threads user id. Also the shapes every capability reads: Meta's timestamps and profile addresses.
import type { AccountSession } from '../capabilities.ts';
import { PublishError } from '../../core/errors.ts';
import { ThreadsClient } from './client.ts';

export function clientFor(apiUrl: string, session: AccountSession): ThreadsClient {
  const { accessToken, networkUniqueId } = session.account;
  if (!accessToken) throw new PublishError('auth', 'threads: the account has no access token; reconnect it', undefined, 'auth');
  return new ThreadsClient(apiUrl, accessToken, networkUniqueId);
}

/** Meta's `2024-07-01T12:00:00+0000` as ISO 8601 (`…Z`); null when absent or unreadable. */
export function isoTime(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const ms = Date.parse(value.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

export const profileUrl = (username: string) => `https://www.threads.com/@${encodeURIComponent(username)}`;

/** One Graph page: its items and the `after` cursor when Threads says more follow (`paging.next`). */
export function graphPage<T>(body: unknown): { data: T[]; after?: string } {
  const page = body as { data?: T[]; paging?: { next?: string; cursors?: { after?: string } } } | undefined;
  const after = page?.paging?.next ? page.paging.cursors?.after : undefined;
  return { data: Array.isArray(page?.data) ? page.data : [], ...(after ? { after } : {}) };
}
