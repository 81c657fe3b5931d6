// GET /v1/social-accounts/:id/<listing>: lists a network offers so a client can fill its platform
// block (Pinterest's boards, a subreddit's flairs), read from the network with the account's token.
// Which lists exist is the networks' to say (capabilities.ts AccountListing); this file only finds
// the account, calls the list, and turns the network's refusal into an answer.
import type { Db } from '../db/pool.ts';
import { RequestError } from '../errors.ts';
import type { AccountSession, AccountListing } from '../networks/capabilities.ts';
import { PublishError } from '../networks/errors.ts';
import type { NetworkRegistry } from '../networks/registry.ts';
import type { AccountCredentials } from '../networks/types.ts';
import { loadAccount } from '../publishing/claim.ts';
import type { SecretBox } from '../security/crypto.ts';
import { saveAccountSecrets } from './secrets.ts';
import { refreshTokenNow } from './token-refresh.ts';

export interface ListingDeps {
  db: Db;
  box: SecretBox;
  networks: NetworkRegistry;
  userFetch: typeof fetch;
}

/** The listing at `path` of the account's network, or a RequestError saying why there is none. */
export async function readListing(
  deps: ListingDeps, orgId: number, accountId: number, path: string, params: Record<string, string>,
): Promise<Record<string, unknown>[]> {
  const { rows } = await deps.db.query<{ network: string }>('SELECT network FROM social_accounts WHERE id = $1 AND org_id = $2', [accountId, orgId]);
  if (!rows[0]) throw new RequestError(404, 'Social account not found', { code: 'not_found' });
  const { active, credentials } = await loadAccount(deps.db, deps.box, accountId);
  const network = deps.networks.get(credentials.network);
  const listing = deps.networks.capabilities(network.id).listings?.find((l) => l.path === path);
  if (!listing) throw new RequestError(400, `${network.label} accounts have no such list (${path})`, { code: 'not_supported' });
  if (!active) throw new RequestError(409, `The ${network.label} account is disconnected: reconnect it first`, { code: 'account_disconnected' });
  try {
    return await listOnce(deps, listing, credentials, params);
  } catch (error) {
    if (!(error instanceof PublishError) || error.kind !== 'auth') throw refusal(network.label, error);
    return listAfterRefresh(deps, listing, credentials, params, network.label, error);
  }
}

/** The network refused the token: refreshed once (as the publishing engine does), then asked again. */
async function listAfterRefresh(
  deps: ListingDeps, listing: AccountListing, account: AccountCredentials, params: Record<string, string>, label: string, refused: PublishError,
): Promise<Record<string, unknown>[]> {
  const refresh = await refreshTokenNow(deps.db, deps.box, { providers: deps.networks.oauthProviders(), managedApps: deps.networks.managedApps }, account)
    .catch(() => ({ outcome: 'unavailable' as const }));
  if (refresh.outcome !== 'refreshed') throw refusal(label, refused);
  const { credentials } = await loadAccount(deps.db, deps.box, account.id);
  try {
    return await listOnce(deps, listing, credentials, params);
  } catch (error) {
    throw refusal(label, error);
  }
}

function listOnce(deps: ListingDeps, listing: AccountListing, account: AccountCredentials, params: Record<string, string>) {
  const session: AccountSession = {
    account,
    saveTokens: (tokens) => saveAccountSecrets(deps.db, deps.box, account.id, tokens),
    userFetch: deps.userFetch,
  };
  return listing.list(session, params);
}

/** The network's answer as Crier's: what it does not have is 404, a refused token 409, the rest 502. */
function refusal(label: string, error: unknown): RequestError {
  if (!(error instanceof PublishError)) return new RequestError(502, `${label} could not be read: ${(error as Error).message}`, { code: 'network_error' });
  if (error.code === 'not_found') return new RequestError(404, error.message, { code: 'not_found' });
  if (error.kind === 'auth') {
    const message = /reconnect the account/.test(error.message) ? error.message : `${error.message}; reconnect the account`;
    return new RequestError(409, message, { code: 'account_token_rejected' });
  }
  if (error.kind === 'permanent') return new RequestError(400, error.message, { code: 'network_refused' });
  const retryAfter = error.retryAfterMs ? { 'retry-after': String(Math.ceil(error.retryAfterMs / 1000)) } : undefined;
  return new RequestError(502, error.message, { code: 'network_error', ...(retryAfter ? { headers: retryAfter } : {}) });
}
