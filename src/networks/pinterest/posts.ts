// The account's pins after publishing: deleting a published pin (DELETE /v5/pins/{pin_id}) and listing
// the pins the account owns for imports and crash reconciliation (GET /v5/pins, bookmark-paged).
// Pinterest's v5 API has no comments (engagement.md §11.3), so only these and the analytics are offered.
import type { AccountSession, OwnPost, Page } from '../capabilities.ts';
import type { PublishedPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import { PinterestClient, pinUrl, type PinterestPin } from './client.ts';

/** Pins per page of an import (Pinterest allows 1 to 250). */
const PAGE = 100;

export function clientFor(apiUrl: string, session: AccountSession): PinterestClient {
  const token = session.account.accessToken;
  if (!token) throw new PublishError('auth', 'pinterest: the account has no access token; reconnect it', undefined, 'auth');
  return new PinterestClient(apiUrl, token);
}

/** Every container of a published pin is the pin itself (Pinterest takes no replies): one DELETE. */
export async function removePin(apiUrl: string, session: AccountSession, post: PublishedPost): Promise<'removed' | 'absent'> {
  const client = clientFor(apiUrl, session);
  try {
    await client.deletePin(post.root.platformId);
    return 'removed';
  } catch (error) {
    if (error instanceof PublishError && error.code === 'not_found') return 'absent';
    throw error;
  }
}

/**
 * One page of the account's own pins. Pinterest filters pins by no date, so `since`/`until` are left
 * to the caller; a repin (saved from someone else's pin) is listed as unsupported.
 */
export async function ownPins(apiUrl: string, session: AccountSession, options: { cursor?: string }): Promise<Page<OwnPost>> {
  const page = await clientFor(apiUrl, session).pins(options.cursor, PAGE);
  return { items: page.items.map(ownPostOf), ...(page.bookmark ? { next: page.bookmark } : {}) };
}

function ownPostOf(pin: PinterestPin): OwnPost {
  const items = pin.media?.items;
  return {
    platformId: pin.id,
    url: pinUrl(pin.id),
    text: pin.description ?? pin.title ?? '',
    createdAt: createdAtOf(pin.created_at),
    mediaCount: Array.isArray(items) && items.length ? items.length : 1,
    ref: { title: pin.title ?? null, boardId: pin.board_id ?? null },
    ...(pin.parent_pin_id ? { unsupported: `a Pin saved from another Pin (${pin.parent_pin_id}), not one the account made` } : {}),
  };
}

/** Pinterest writes UTC without a zone ("2022-10-13T01:40:29"). */
function createdAtOf(value: string | undefined): string | null {
  if (!value) return null;
  const ms = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}
