// The X client of a connected account, for the engagement calls (capabilities.ts).
import type { AccountSession } from '../capabilities.ts';
import { PublishError } from '../../core/errors.ts';
import { XClient } from './client.ts';

export function clientFor(apiUrl: string, session: AccountSession): XClient {
  const token = session.account.accessToken;
  if (!token) throw new PublishError('auth', 'x: the account has no access token; reconnect it', undefined, 'auth');
  return new XClient(apiUrl, token);
}

/** X post ids are snowflakes: digits only. */
export function checkPostId(id: string, what: string): void {
  if (!/^[0-9]{1,19}$/.test(id)) throw new PublishError('permanent', `x: ${what} "${id}" is not an X post id (digits)`, undefined, 'invalid');
}

/** X's snowflake epoch: an id carries its creation time (ms since this, shifted 22 bits). */
const SNOWFLAKE_EPOCH_MS = 1288834974657;

/** When the post with this id was created, read from the id itself. */
export function createdAtOf(id: string): Date {
  return new Date(Number(BigInt(id) >> 22n) + SNOWFLAKE_EPOCH_MS);
}

/** A lookup X answered 200 with only a resource-not-found error: the post is gone. */
export function notFoundIn(body: unknown): string | undefined {
  const errors = (body as { errors?: { type?: string; detail?: string }[] } | undefined)?.errors ?? [];
  return errors.find((e) => e.type?.endsWith('/resource-not-found'))?.detail;
}
