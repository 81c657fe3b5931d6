// Accounts (https://docs.joinmastodon.org/methods/accounts/): GET /api/v1/accounts/verify_credentials
// (the token's own account, as a CredentialAccount), GET /api/v1/accounts/:id (an Account) and
// GET /api/v1/accounts/:id/statuses (newest first; `limit` default 20, max 40; `max_id`, `since_id`,
// `min_id`, `exclude_replies`, `exclude_reblogs`), paged by the Link header
// (https://docs.joinmastodon.org/api/guidelines/#pagination): `rel="next"` carries `max_id` (older),
// `rel="prev"` `min_id` (newer), the other parameters kept.
import type { Reply } from '../../shared/http.ts';
import { accountEntity, credentialAccountEntity, statusEntity } from '../entities.ts';
import { recordNotFound } from '../errors.ts';
import type { Account, MastodonWorld, StoredStatus } from '../state.ts';
import { bool, str } from '../validate.ts';

export const verifyCredentials = (world: MastodonWorld, account: Account): Reply => ({ status: 200, body: credentialAccountEntity(world, account) });

export function showAccount(world: MastodonWorld, id: string): Reply {
  const account = world.accounts.get(id);
  return account ? { status: 200, body: accountEntity(world, account) } : recordNotFound();
}

/**
 * `exclude_replies` keeps an account's answers to itself (Status.without_replies: "not a reply, or a
 * reply to the same account"), so a thread's later statuses stay on its profile.
 */
function isReplyToOther(world: MastodonWorld, status: StoredStatus): boolean {
  if (status.inReplyToId === null) return false;
  return world.statuses.get(status.inReplyToId)?.accountId !== status.accountId;
}

export function accountStatuses(world: MastodonWorld, viewer: Account, id: string, query: Record<string, string | undefined>): Reply {
  const owner = world.accounts.get(id);
  if (!owner) return recordNotFound();
  const limit = Math.min(40, Math.max(1, Number(str(query.limit) ?? 20) || 20));
  const maxId = query.max_id;
  const sinceId = query.since_id;
  const minId = query.min_id;
  const matching = [...world.statuses.values()]
    .filter((s) => s.accountId === owner.id && !s.deleted)
    // Followers-only and direct statuses are shown to their author only (viewer is the token's account).
    .filter((s) => owner.id === viewer.id || s.visibility === 'public' || s.visibility === 'unlisted')
    .filter((s) => !(bool(query.exclude_replies) && isReplyToOther(world, s)))
    .filter((s) => !(bool(query.exclude_reblogs) && s.reblogOfId))
    .filter((s) => (maxId === undefined || BigInt(s.id) < BigInt(maxId)) && (sinceId === undefined || BigInt(s.id) > BigInt(sinceId)))
    .filter((s) => minId === undefined || BigInt(s.id) > BigInt(minId))
    .sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1));
  // `min_id`: the page just newer than it (the oldest of those newer), still answered newest first.
  const listed = minId === undefined ? matching.slice(0, limit) : matching.slice(-limit);
  return { status: 200, body: listed.map((s) => statusEntity(world, s)), headers: linkHeader(world, `/api/v1/accounts/${owner.id}/statuses`, query, listed, limit) };
}

/**
 * The Link header of a page, as Mastodon's controller writes it: `next` only when the page is full
 * (`records_continue?`), `prev` unless it is empty; none for an empty page.
 */
function linkHeader(world: MastodonWorld, path: string, query: Record<string, string | undefined>, page: StoredStatus[], limit: number): Record<string, string> {
  if (!page.length) return {};
  const kept = Object.entries(query).filter(([k, v]) => v !== undefined && !['max_id', 'since_id', 'min_id'].includes(k)) as [string, string][];
  const at = (name: string, value: string) => `${world.origin}${path}?${new URLSearchParams([...kept, [name, value]]).toString()}`;
  const links = [...(page.length === limit ? [`<${at('max_id', page.at(-1)!.id)}>; rel="next"`] : []), `<${at('min_id', page[0]!.id)}>; rel="prev"`];
  return { link: links.join(', ') };
}
