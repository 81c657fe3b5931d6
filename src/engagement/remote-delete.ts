// DELETE /v1/posts/:id/remote: removes a post from every network it was published to, where the
// network's API allows it, and says per account what happened. A removed destination (or one the
// network no longer has) becomes `deleted` in Crier's record; the record itself stays (DELETE
// /v1/posts/:id removes it).
import { RequestError } from '../core/errors.ts';
import { encodeId } from '../core/ids.ts';
import { callAsAccount, orgAccount, requireActive, type AccountCallDeps } from '../accounts/session.ts';
import { loadDestinations, type Destination } from './destinations.ts';

export interface RemoteDeleteResult {
  social_account: { id: string; network: string; username: string };
  platform_post_id: string | null;
  /** deleted: gone from the network (now or before); not_supported: the network's API cannot; failed: see `error`; not_published: nothing to delete. */
  outcome: 'deleted' | 'not_supported' | 'failed' | 'not_published';
  error?: string;
}

export async function deleteFromNetworks(deps: AccountCallDeps, orgId: number, postId: string): Promise<RemoteDeleteResult[]> {
  const { destinations } = await loadDestinations(deps.db, orgId, postId);
  if (destinations.some((d) => d.status === 'pending' || d.status === 'publishing')) {
    throw new RequestError(409, 'Some destinations of this post are still to be published: cancel it (DELETE /v1/posts/:id) or wait until it finishes', { code: 'post_not_finished' });
  }
  return Promise.all(destinations.map((d) => deleteDestination(deps, orgId, d)));
}

async function deleteDestination(deps: AccountCallDeps, orgId: number, destination: Destination): Promise<RemoteDeleteResult> {
  const base = {
    social_account: { id: encodeId(destination.accountId), network: destination.network, username: destination.username },
    platform_post_id: destination.post.root?.platformId ?? null,
  };
  if (destination.status === 'deleted') return { ...base, outcome: 'deleted' };
  if (destination.status !== 'published' || !destination.post.parts.length) return { ...base, outcome: 'not_published' };
  const label = deps.networks.get(destination.network).label;
  const remove = deps.networks.capabilities(destination.network).remove;
  if (!remove) return { ...base, outcome: 'not_supported', error: `${label}'s API cannot delete a post: delete it in ${label} itself` };
  try {
    const account = requireActive(label, await orgAccount(deps, orgId, destination.accountId));
    await callAsAccount(deps, account, (session) => remove(session, destination.post));
  } catch (error) {
    return { ...base, outcome: 'failed', error: (error as Error).message };
  }
  await deps.db.query("UPDATE targets SET status = 'deleted', deleted_at = now() WHERE id = $1 AND status = 'published'", [destination.targetId]);
  return { ...base, outcome: 'deleted' };
}
