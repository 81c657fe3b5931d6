// GET /v1/social-accounts/:id/<listing>: lists a network offers so a client can fill its platform
// block (Pinterest's boards, a subreddit's flairs), read from the network with the account's token.
// Which lists exist is the networks' to say (capabilities.ts AccountListing); this file only finds
// the account and calls the list (session.ts refreshes a refused token and turns the
// network's refusal into an answer).
import { RequestError } from '../core/errors.ts';
import { callAsAccount, orgAccount, requireActive, type AccountCallDeps } from './session.ts';

export type ListingDeps = AccountCallDeps;

/** The listing at `path` of the account's network, or a RequestError saying why there is none. */
export async function readListing(
  deps: ListingDeps, orgId: number, accountId: number, path: string, params: Record<string, string>,
): Promise<Record<string, unknown>[]> {
  const account = await orgAccount(deps, orgId, accountId);
  const network = deps.networks.get(account.credentials.network);
  const listing = deps.networks.capabilities(network.id).listings?.find((l) => l.path === path);
  if (!listing) throw new RequestError(400, `${network.label} accounts have no such list (${path})`, { code: 'not_supported' });
  return callAsAccount(deps, requireActive(network.label, account), (session) => listing.list(session, params));
}
