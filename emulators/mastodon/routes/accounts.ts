// Accounts (https://docs.joinmastodon.org/methods/accounts/): GET /api/v1/accounts/verify_credentials
// (the token's own account, as a CredentialAccount) and GET /api/v1/accounts/:id/statuses (newest
// first; `limit` default 20, max 40; `max_id`, `since_id`, `exclude_replies`, `exclude_reblogs`).
import type { Reply } from '../../shared/http.ts';
import { credentialAccountEntity, statusEntity } from '../entities.ts';
import { recordNotFound } from '../errors.ts';
import type { Account, MastodonWorld } from '../state.ts';
import { bool, str } from '../validate.ts';

export const verifyCredentials = (world: MastodonWorld, account: Account): Reply => ({ status: 200, body: credentialAccountEntity(world, account) });

export function accountStatuses(world: MastodonWorld, viewer: Account, id: string, query: Record<string, string | undefined>): Reply {
  const owner = world.accounts.get(id);
  if (!owner) return recordNotFound();
  const limit = Math.min(40, Math.max(1, Number(str(query.limit) ?? 20) || 20));
  const maxId = query.max_id;
  const sinceId = query.since_id;
  const listed = [...world.statuses.values()]
    .filter((s) => s.accountId === owner.id && !s.deleted)
    // Followers-only and direct statuses are shown to their author only (viewer is the token's account).
    .filter((s) => owner.id === viewer.id || s.visibility === 'public' || s.visibility === 'unlisted')
    .filter((s) => !(bool(query.exclude_replies) && s.inReplyToId !== null))
    .filter((s) => (maxId === undefined || BigInt(s.id) < BigInt(maxId)) && (sinceId === undefined || BigInt(s.id) > BigInt(sinceId)))
    .sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1))
    .slice(0, limit);
  return { status: 200, body: listed.map((s) => statusEntity(world, s)) };
}
